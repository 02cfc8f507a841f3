"""Who is asking: the request context, from noauth tokens or keystone.

noauth (the default) reads Cinder's token ``X-Auth-Token: user:project``
(a token without ``:`` is both user and project; ``volapi.noauth`` refuses
what is not a sane identifier with a 401) and, like Cinder, answers
a request without a token with 204 and a token to use. Unlike Cinder, whose
noauth makes every caller an administrator, only the user ``admin`` or a
caller with the role ``admin`` in ``X-Roles`` is one here, so that tenant
isolation holds (and is tested) without keystone.

keystone: keystonemiddleware's auth_token validates the token and sets the
``X-User-Id``/``X-Project-Id``/``X-Roles`` headers this module reads.
"""
from volapi.api import errors
from volapi.api import policy
from volapi import context as volapi_context
from volapi import noauth

CONTEXT_KEY = 'volapi.context'


def _context(environ):
    """The caller's context from the identity headers (X-User-Id,
    X-Project-Id, X-Roles, domain, system scope, service roles ...) and the
    request ids in ``environ``; an administrator if the
    ``context_is_admin`` rule says so."""
    ctx = volapi_context.RequestContext.from_environ(environ)
    ctx.is_admin = policy.check_is_admin(ctx)
    return ctx


class NoAuth:
    """Cinder's NoAuthMiddleware, with administrators made explicit."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        token = environ.get('HTTP_X_AUTH_TOKEN')
        if token is None:
            user_id = environ.get('HTTP_X_AUTH_USER', 'admin')
            project_id = environ.get('HTTP_X_AUTH_PROJECT_ID', 'admin')
            if not (noauth.is_identifier(user_id) and
                    noauth.is_identifier(project_id)):
                return errors.wsgi_fault(start_response, 401,
                                         noauth.REFUSED_MESSAGE)
            url = environ.get('wsgi.url_scheme', 'http') + '://' + \
                environ.get('HTTP_HOST', '') + environ.get('SCRIPT_NAME', '')\
                + environ.get('PATH_INFO', '')
            start_response('204 No Content', [
                ('X-Auth-Token', '%s:%s' % (user_id, project_id)),
                ('X-Server-Management-Url',
                 url.rstrip('/') + '/' + project_id),
                ('Content-Type', 'text/plain'), ('Content-Length', '0')])
            return [b'']
        identity = noauth.parse_token(token)
        if identity is None:
            return errors.wsgi_fault(start_response, 401,
                                     noauth.REFUSED_MESSAGE)
        user_id, project_id = identity
        environ['HTTP_X_USER_ID'] = user_id
        environ['HTTP_X_PROJECT_ID'] = project_id
        if user_id == 'admin':
            roles = environ.get('HTTP_X_ROLES', '')
            if 'admin' not in [r.strip() for r in roles.split(',')]:
                environ['HTTP_X_ROLES'] = roles + ',admin' if roles \
                    else 'admin'
        environ[CONTEXT_KEY] = _context(environ)
        return self.application(environ, start_response)


class KeystoneContext:
    """Builds the context from the headers keystonemiddleware sets."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        ctx = _context(environ)
        if not ctx.user_id or \
                environ.get('HTTP_X_IDENTITY_STATUS') == 'Invalid':
            return errors.wsgi_fault(start_response, 401,
                                     'The request you have made requires '
                                     'authentication.')
        environ[CONTEXT_KEY] = ctx
        return self.application(environ, start_response)


def pipeline(application, conf):
    """Wrap ``application`` in the configured authentication."""
    if conf.api.auth_strategy == 'keystone':
        from keystonemiddleware import auth_token
        return auth_token.AuthProtocol(KeystoneContext(application),
                                       {'oslo_config_config': conf})
    return NoAuth(application)
