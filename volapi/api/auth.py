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
from volapi import context as volapi_context
from volapi import noauth

CONTEXT_KEY = 'volapi.context'


def _roles(header):
    return [role.strip() for role in (header or '').split(',')
            if role.strip()]


def _context(environ, user_id, project_id, roles, **extra):
    is_admin = 'admin' in roles
    return volapi_context.RequestContext(
        user_id=user_id, project_id=project_id, roles=roles,
        is_admin=is_admin, request_id=environ.get('openstack.request_id'),
        **extra)


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
        roles = _roles(environ.get('HTTP_X_ROLES'))
        if user_id == 'admin' and 'admin' not in roles:
            roles.append('admin')
        environ[CONTEXT_KEY] = _context(environ, user_id, project_id, roles,
                                        auth_token=token)
        return self.application(environ, start_response)


class KeystoneContext:
    """Builds the context from the headers keystonemiddleware sets."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        user_id = environ.get('HTTP_X_USER_ID') or environ.get('HTTP_X_USER')
        project_id = environ.get('HTTP_X_PROJECT_ID') or \
            environ.get('HTTP_X_TENANT_ID')
        if not user_id or environ.get('HTTP_X_IDENTITY_STATUS') == 'Invalid':
            return errors.wsgi_fault(start_response, 401,
                                     'The request you have made requires '
                                     'authentication.')
        environ[CONTEXT_KEY] = _context(
            environ, user_id, project_id,
            _roles(environ.get('HTTP_X_ROLES') or environ.get('HTTP_X_ROLE')),
            auth_token=environ.get('HTTP_X_AUTH_TOKEN'),
            project_name=environ.get('HTTP_X_PROJECT_NAME'))
        return self.application(environ, start_response)


def pipeline(application, conf):
    """Wrap ``application`` in the configured authentication."""
    if conf.api.auth_strategy == 'keystone':
        from keystonemiddleware import auth_token
        return auth_token.AuthProtocol(KeystoneContext(application),
                                       {'oslo_config_config': conf})
    return NoAuth(application)
