"""volapi over HTTP: the composed WSGI application and the server that
``volapi-api`` and ``volapi-all`` run.

One application answers both APIs: Cinder's v3 volume API at ``/`` and the
Placement API under ``/placement``. WSGI servers load it from
:mod:`volapi.wsgi.api` (placement alone: :mod:`volapi.wsgi.placement`),
which build it when imported; importing this package reads no
configuration. ``volapi-api`` and ``volapi-all`` serve it with
:mod:`volapi.wsgi.server`.
"""
import os

PLACEMENT_PREFIX = '/placement'


def init_application(conf):
    """The volume API with placement mounted at /placement; ``conf`` is
    parsed and the database set up (volapi.config.setup)."""
    from volapi.api import app as volume_app
    from volapi.placement import wsgi as placement_wsgi
    return PrefixDispatcher(volume_app.setup_app(conf),
                            {PLACEMENT_PREFIX: placement_wsgi.setup_app(conf)})


class PrefixDispatcher:
    """Sends a request whose path is under a prefix to that prefix's
    application (the prefix moves from PATH_INFO to SCRIPT_NAME, so the
    application sees its own paths and builds right links), every other
    request to ``default``."""

    def __init__(self, default, mounts):
        self.default = default
        self.mounts = sorted(mounts.items(), key=lambda m: -len(m[0]))

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        for prefix, app in self.mounts:
            if path == prefix or path.startswith(prefix + '/'):
                environ['SCRIPT_NAME'] = environ.get('SCRIPT_NAME', '') + \
                    prefix
                environ['PATH_INFO'] = path[len(prefix):]
                return app(environ, start_response)
        return self.default(environ, start_response)


def load_conf(prog):
    """volapi's configuration for a WSGI server's process: the files named
    by ``VOLAPI_CONFIG_FILE`` (comma separated), else oslo.config's default
    locations; logging and the database are set up from it."""
    from volapi import config
    files = [f for f in os.environ.get('VOLAPI_CONFIG_FILE', '').split(',')
             if f]
    return config.setup(files, prog=prog)
