"""volapi-volume: a volume worker (see volapi.volume.worker)."""
import sys

from rpc import transport as rpc_transport
from volapi import config
from volapi.cmd import process
from volapi.volume import worker as volume_worker


def main(argv=None):
    args = process.parser(
        'volapi-volume', 'Run a volume worker: it takes operations from the '
        'message queue and does them with its driver.').parse_args(
            sys.argv[1:] if argv is None else argv)
    conf = config.setup(args.config_file, args.config_dir,
                        prog='volapi-volume')
    worker = volume_worker.VolumeWorker(conf).start()
    process.wait_for_termination()
    worker.stop()
    rpc_transport.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
