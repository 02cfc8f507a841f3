"""The placement API on its own, as a WSGI application built when this
module is imported (see :mod:`volapi.wsgi.api`):
``gunicorn volapi.wsgi.placement:application``."""
from volapi.placement import wsgi as placement_wsgi
from volapi import wsgi
from volapi.cmd import process

application = placement_wsgi.setup_app(wsgi.load_conf('volapi-placement'))
process.freeze_startup_heap()
