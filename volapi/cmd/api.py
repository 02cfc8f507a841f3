"""volapi-api: the volume and placement APIs over HTTP (threaded server).

For production, a WSGI server can run ``volapi.wsgi.api:application`` instead.
"""
import sys

from volapi import config
from volapi import wsgi
from volapi.cmd import process


def main(argv=None):
    args = process.parser(
        'volapi-api', 'Serve the volume (Cinder v3) and placement APIs.',
        bind=True).parse_args(sys.argv[1:] if argv is None else argv)
    conf = config.setup(args.config_file, args.config_dir, prog='volapi-api')
    server = process.listen('volapi-api', conf, args.bind)
    server.set_app(wsgi.init_application(conf))
    serving = wsgi.Serving(server).start()
    process.wait_for_termination()
    serving.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
