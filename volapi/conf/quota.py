"""Quota options: Cinder's default limits and where usage is counted."""
from oslo_config import cfg

GROUP = 'quota'

quota_opts = [
    cfg.IntOpt('volumes', default=10, min=-1,
               help='Default limit of volumes per project (-1: none).'),
    cfg.IntOpt('snapshots', default=10, min=-1,
               help='Default limit of snapshots per project (-1: none).'),
    cfg.IntOpt('gigabytes', default=1000, min=-1,
               help='Default limit of GiB held by a project\'s volumes and '
                    'snapshots (-1: none).'),
    cfg.IntOpt('backups', default=10, min=-1,
               help='Default limit of backups per project (-1: none).'),
    cfg.IntOpt('backup_gigabytes', default=1000, min=-1,
               help='Default limit of GiB held by a project\'s backups '
                    '(-1: none).'),
    cfg.IntOpt('groups', default=10, min=-1,
               help='Default limit of groups per project (-1: none).'),
    cfg.IntOpt('per_volume_gigabytes', default=-1, min=-1,
               help='Default limit of the size of one volume (-1: none).'),
    cfg.BoolOpt('count_usage_from_placement', default=True,
                help='Report gigabytes in use from the project\'s placement '
                     'allocations. False: the legacy count, the sizes of '
                     'its volumes and snapshots.'),
]


def register_opts(conf):
    conf.register_opts(quota_opts, group=GROUP)


def list_opts():
    return [(GROUP, quota_opts)]
