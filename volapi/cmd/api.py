"""volapi-api: the volume and placement APIs over HTTP (threaded server,
in [api] workers processes).

For production, a WSGI server can run ``volapi.wsgi.api:application`` instead.
"""
import sys

from volapi import config
from volapi import wsgi
from volapi.cmd import process
from volapi.wsgi import workers


def main(argv=None):
    args = process.parser(
        'volapi-api', 'Serve the volume (Cinder v3) and placement APIs.',
        bind=True).parse_args(sys.argv[1:] if argv is None else argv)
    conf = config.setup(args.config_file, args.config_dir, prog='volapi-api')
    server = process.listen('volapi-api', conf, args.bind)
    # Each worker process builds its own application: no database or
    # broker connection is made before the fork.
    return workers.serve(server, lambda: wsgi.init_application(conf),
                         conf.api.workers)


if __name__ == '__main__':
    sys.exit(main())
