"""The placement API on its own, as a WSGI application built when this
module is imported (see :mod:`volapi.wsgi.api`):
``gunicorn volapi.wsgi.placement:application``."""
import gc

from volapi.placement import wsgi as placement_wsgi
from volapi import wsgi

application = placement_wsgi.setup_app(wsgi.load_conf('volapi-placement'))
# What the import built lives as long as the process: out of the garbage
# collector's sight, so that the collections a request's garbage triggers
# do not walk it every time (tens of ms for a large answer).
gc.freeze()
