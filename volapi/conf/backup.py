"""Options of volume backups: where the file driver keeps them, in
chunks of what size, compressed how."""
from oslo_config import cfg

GROUP = 'backup'

backup_opts = [
    cfg.StrOpt('backup_path', default='$state_path/backups',
               help='Directory of the file driver\'s backups: one '
                    'directory per backup, holding the chunks of its '
                    'volume\'s data that it wrote and its manifest. '
                    'Workers that serve one cluster must share it.'),
    # Cinder's posix backup driver's name for the size of its files.
    cfg.IntOpt('backup_file_size', default=4 * 1024 * 1024, min=4096,
               help='Size in bytes of the chunks the file driver cuts a '
                    'backup into: an incremental backup stores the chunks '
                    'that changed since its parent, all-zero chunks are not '
                    'stored. An incremental keeps its parent\'s chunk size; '
                    'a change applies to the next full backup.'),
    # Cinder's option, with its names of the algorithms but zstd (which
    # the standard library does not have).
    cfg.StrOpt('backup_compression_algorithm', default='zlib',
               ignore_case=True,
               choices=['none', 'off', 'no', 'zlib', 'gzip', 'bz2'],
               help='How the file driver compresses the chunks it writes '
                    '(gzip is zlib; none, off and no store them as they '
                    'are). A chunk that would not shrink is stored as it '
                    'is. Each chunk records its own, so a change applies '
                    'to the chunks written after it and a chain may mix '
                    'them.'),
]


def register_opts(conf):
    conf.register_opts(backup_opts, group=GROUP)


def list_opts():
    return [(GROUP, backup_opts)]
