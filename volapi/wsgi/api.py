"""The WSGI application of volapi's APIs, built when this module is
imported: the volume API (Cinder v3) at ``/`` and placement under
``/placement``. It is what WSGI servers load::

    VOLAPI_CONFIG_FILE=/etc/volapi/volapi.conf \\
        gunicorn -w 4 -b 127.0.0.1:8776 volapi.wsgi.api:application

    VOLAPI_CONFIG_FILE=/etc/volapi/volapi.conf uwsgi --master \\
        --http11-socket 127.0.0.1:8776 --processes 4 --threads 8 \\
        --die-on-term --module volapi.wsgi.api:application

(uWSGI reads ``application`` from the module's namespace, so it must exist
once the import is done.) The configuration is read as
:func:`volapi.wsgi.load_conf` says.
"""
from volapi import wsgi
from volapi.cmd import process

application = wsgi.init_application(wsgi.load_conf('volapi-wsgi'))
process.freeze_startup_heap()
