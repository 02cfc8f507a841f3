"""Authentication of placement requests: noauth2 or keystone.

Either way the root (``/``, or ``''`` under a prefix) needs no token, and
what reaches the application is the identity in the environ's X_* headers,
from which ``volapi.placement.context`` makes the request context.
"""
import webob.exc

from volapi import noauth
from volapi.placement import util

ROOT_PATHS = ('/', '')


def strategy(conf):
    """'noauth2' or 'keystone', from [placement] or else [api]."""
    chosen = conf.placement.auth_strategy
    if chosen:
        return chosen
    try:
        fallback = conf.api.auth_strategy
    except Exception:  # [api] not registered in this process
        fallback = None
    return 'keystone' if fallback == 'keystone' else 'noauth2'


class NoAuthMiddleware:
    """Placement's noauth2: ``X-Auth-Token: user[:project]``; the user
    ``admin`` gets the admin role, any other user none. No token: 401."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO', '') in ROOT_PATHS:
            return self.application(environ, start_response)
        token = environ.get('HTTP_X_AUTH_TOKEN')
        if token is None:
            # Placement's noauth2 answers with webob's own body, not its
            # error format.
            return webob.exc.HTTPUnauthorized()(environ, start_response)
        identity = noauth.parse_token(token)
        if identity is None:
            # Stricter than Placement (which takes any token), in its
            # error format.
            refusal = webob.exc.HTTPUnauthorized(noauth.REFUSED_MESSAGE)
            util.as_error_response(refusal, environ)
            return refusal(environ, start_response)
        user_id, project_id = identity
        environ['HTTP_X_USER_ID'] = user_id
        environ['HTTP_X_PROJECT_ID'] = project_id
        environ['HTTP_X_ROLES'] = 'admin' if user_id == 'admin' else ''
        return self.application(environ, start_response)


class KeystoneMiddleware:
    """keystonemiddleware's auth_token, configured from ``conf``
    ([keystone_authtoken]), except for the root."""

    def __init__(self, application, conf):
        from keystonemiddleware import auth_token
        self.application = application
        self.protected = auth_token.AuthProtocol(
            application, {'oslo_config_config': conf})

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO', '') in ROOT_PATHS:
            return self.application(environ, start_response)
        return self.protected(environ, start_response)


def wrap(application, conf):
    if strategy(conf) == 'keystone':
        return KeystoneMiddleware(application, conf)
    return NoAuthMiddleware(application)
