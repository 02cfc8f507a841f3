"""Options of volume backups: where the file driver keeps them."""
from oslo_config import cfg

GROUP = 'backup'

backup_opts = [
    cfg.StrOpt('backup_path', default='$state_path/backups',
               help='Directory of the file driver\'s backups: one file per '
                    'backup, a copy of its volume\'s data. Workers that '
                    'serve one cluster must share it.'),
]


def register_opts(conf):
    conf.register_opts(backup_opts, group=GROUP)


def list_opts():
    return [(GROUP, backup_opts)]
