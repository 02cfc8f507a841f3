"""volapi-volume: a volume worker (see volapi.volume.worker).

SIGUSR2 makes it print a Guru Meditation report (oslo.reports: threads,
configuration, versions) to stderr, or to a file under
``[oslo_reports] log_dir``.
"""
import sys

from oslo_log import log as logging
from oslo_reports import guru_meditation_report as gmr
from oslo_reports import opts as gmr_opts

from rpc import transport as rpc_transport
from volapi import config
from volapi import version
from volapi.cmd import process
from volapi.volume import reshape
from volapi.volume import worker as volume_worker

LOG = logging.getLogger(__name__)


def main(argv=None):
    gmr_opts.set_defaults(config.CONF)
    args = process.parser(
        'volapi-volume', 'Run a volume worker: it takes operations from the '
        'message queue and does them with its driver.').parse_args(
            sys.argv[1:] if argv is None else argv)
    conf = config.setup(args.config_file, args.config_dir,
                        prog='volapi-volume')
    gmr.TextGuruMeditation.setup_autorun(version.INFO,
                                         service_name='volapi-volume',
                                         conf=conf)
    stopping = process.termination_requested()
    try:
        worker = volume_worker.VolumeWorker(conf).start()
    except reshape.ReshapeFailed as exc:
        # Placement would disagree with where the data is: refuse to start.
        LOG.error('%s', exc)
        return 1
    process.wait_for_termination(stopping)
    worker.stop()
    rpc_transport.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
