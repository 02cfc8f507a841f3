"""Options of the volume worker: its driver, and how services prove they are
alive and who repairs the work of those that are not."""
from oslo_config import cfg

GROUP = 'volume'

# [DEFAULT]: every registered service heartbeats; the API reads liveness too.
service_opts = [
    cfg.StrOpt('cluster',
               help='Name of the cluster this volume worker belongs to: '
                    'workers that serve the same storage (same backend_name, '
                    'shared volumes_dir or array) and name the same cluster '
                    'share their volumes. Operations on them are cast to '
                    'the cluster, any live member takes each one, and the '
                    'members re-drive the operations of a member that died. '
                    'Unset: the worker is a cluster of its own.'),
    cfg.IntOpt('report_interval', default=5, min=1,
               help='Seconds between two heartbeats of a volapi service '
                    '(a compare-and-swap on its row in the services table).'),
    cfg.IntOpt('service_down_time', default=20, min=1,
               help='A service whose last heartbeat is older than this many '
                    'seconds is down: its operations in flight are re-driven '
                    'by the other workers of its cluster. Must be well above '
                    'report_interval.'),
]

volume_opts = [
    cfg.StrOpt('volume_driver',
               default='volapi.volume.drivers.file.FileDriver',
               help='Import path of the driver class that does the storage '
                    'work of this worker (see doc/drivers.md).'),
    cfg.StrOpt('backend_name', default='file',
               help='Name of the backend this worker serves. Volumes it '
                    'creates get host "<host>@<backend_name>#<pool>", and it '
                    'listens for RPC as server "<host>@<backend_name>".'),
    cfg.StrOpt('volumes_dir', default='$state_path/volumes',
               help='Directory of the file driver: one sparse file per '
                    'volume and per snapshot.'),
    cfg.IntOpt('cleanup_interval', default=5, min=1,
               help='Seconds between two runs of the periodic '
                    'reconciliation, which re-drives the operations of its '
                    'cluster left in flight by dead services or lost '
                    'messages.'),
    cfg.IntOpt('unclaimed_work_timeout', default=15, min=1,
               help='An operation that no worker has claimed this many '
                    'seconds after the API started it (its message was '
                    'lost, e.g. while the broker restarted) is re-driven '
                    'by a worker of its cluster like the work of a dead '
                    'service.'),
    cfg.IntOpt('attach_hold_timeout', default=3600, min=1,
               help='A hold that its client never finished is rolled back '
                    'by the periodic reconciliation once it has not changed '
                    'for this many seconds: a volume left \'attaching\' by '
                    'os-reserve goes back to its status (as os-unreserve), '
                    'one left \'detaching\' by os-begin_detaching back to '
                    '\'in-use\' (as os-roll_detaching), and an attachment '
                    'left \'reserved\' or \'attaching\' (POST /attachments '
                    'never completed) is deleted, its connection '
                    'terminated.'),
]


def register_opts(conf):
    conf.register_opts(service_opts)
    conf.register_opts(volume_opts, group=GROUP)


def list_opts():
    return [(None, service_opts), (GROUP, volume_opts)]
