"""volapi-all: the embedded deployment in one process.

API and a volume worker side by side; with no configuration at all: SQLite
under ``state_path``, the in-process ``fake://`` transport, the file driver,
HTTP on [api] bind_host:bind_port (127.0.0.1:8776), bound before
anything else. The schema is brought up to date at start.
"""
import sys

from oslo_log import log as logging

from db import migration
from rpc import transport as rpc_transport
from volapi import config
from volapi import wsgi
from volapi.cmd import process
from volapi.volume import reshape
from volapi.volume import worker as volume_worker
from volapi.wsgi import server as http_server

LOG = logging.getLogger(__name__)


def main(argv=None):
    args = process.parser(
        'volapi-all', 'Run the volume and placement APIs and a volume worker '
        'in one process.', bind=True).parse_args(
            sys.argv[1:] if argv is None else argv)
    conf = config.setup(args.config_file, args.config_dir, prog='volapi-all')
    # The address first: when it is taken, nothing else has been done
    # (no migration, no worker registered, no cleanup run).
    server = process.listen('volapi-all', conf, args.bind)
    migration.sync()
    # In-memory messages died with the previous process: whatever it left
    # unclaimed is lost, not late.
    in_process = conf.transport_url.startswith('fake:')
    try:
        worker = volume_worker.VolumeWorker(conf).start(
            unclaimed_timeout=0 if in_process else None)
    except reshape.ReshapeFailed as exc:
        # Placement would disagree with where the data is: refuse to start.
        LOG.error('%s', exc)
        return 1
    server.set_app(wsgi.init_application(conf))
    serving = http_server.Serving(server).start()
    process.wait_for_termination()
    serving.stop()
    worker.stop()
    rpc_transport.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
