"""Options of the pools a volume worker offers to placement, and of how
volume create picks one."""
from oslo_config import cfg

GROUP = 'volume'

pool_opts = [
    cfg.ListOpt('file_pools', default=[],
                help='Pools of the file driver, each "<name>" or '
                     '"<name>:<capacity in GiB>"; a pool without a capacity '
                     'has the size of the filesystem of volumes_dir. Empty: '
                     'one pool named after backend_name, of the size of '
                     'that filesystem.'),
    cfg.IntOpt('reserved_percentage', default=0, min=0, max=100,
               help='Percentage of each pool kept free: the reserved part '
                    'of its DISK_GB inventory.'),
    cfg.FloatOpt('max_over_subscription_ratio', default=20.0, min=1.0,
                 help='Allocation ratio of the DISK_GB inventory of a thin '
                      'pool (thick pools have 1.0).'),
    cfg.IntOpt('capacity_report_interval', default=60, min=1,
               help='Seconds between two reports of the pools to placement '
                    '(their inventory, traits and availability zone).'),
    cfg.StrOpt('pool_weigher', default='most_free',
               choices=[('most_free', 'the pool with the most free capacity '
                         'first, as Cinder\'s CapacityWeigher'),
                        ('least_free', 'the fullest pool that fits first '
                         '(packs volumes)')],
               help='Order in which volume create tries the pools that '
                    'can hold the volume.'),
    cfg.IntOpt('claim_attempts', default=3, min=1,
               help='How many pools a volume create tries, in the order of '
                    'pool_weigher, when others fill the pool it chose '
                    'before its claim lands (as many again after reading '
                    'the pools anew, when those it tried came from '
                    'scheduler_cache_seconds).'),
    cfg.FloatOpt('scheduler_cache_seconds', default=1.0, min=0.0,
                 help='Seconds a volume create may reuse the pools this '
                      'process read for an earlier create of the same '
                      'size, type traits and availability zone, instead '
                      'of reading them again. The order by free space may '
                      'be that old; capacity is checked by each claim, and '
                      'when the pools reused all have no room the create '
                      'reads them again. 0 reads them for every create.'),
]


def register_opts(conf):
    conf.register_opts(pool_opts, group=GROUP)


def list_opts():
    return [(GROUP, pool_opts)]
