"""Options of volapi's volume API ([api])."""
from oslo_config import cfg

GROUP = 'api'
api_opts = [
    cfg.HostAddressOpt('bind_host', default='127.0.0.1',
                       help='The address volapi-api and volapi-all serve '
                            'HTTP on (both APIs); 0.0.0.0 or :: for every '
                            'interface. Their --bind HOST:PORT overrides '
                            'it.'),
    cfg.PortOpt('bind_port', default=8776,
                help='The port volapi-api and volapi-all serve HTTP on '
                     '(Cinder\'s 8776; placement is under /placement).'),
    cfg.IntOpt('workers', default=1, min=1,
               help='Processes volapi-api serves HTTP with (Cinder\'s '
                    'osapi_volume_workers). One process runs Python on one '
                    'core at a time: set it to the number of cores the '
                    'API may use. volapi-all always runs one.'),
    cfg.IntOpt('keepalive_timeout', default=60, min=0,
               help='Seconds a client\'s HTTP/1.1 connection stays open '
                    'waiting for its next request (a thread of the API '
                    'process waits with it); 0 closes every connection '
                    'after one request.'),
    cfg.StrOpt('auth_strategy', default='noauth',
               choices=[('noauth', "Cinder's noauth: the token is "
                         "'user:project'; user 'admin' or role 'admin' "
                         "is an administrator"),
                        ('keystone', 'keystonemiddleware.auth_token '
                         '([keystone_authtoken] options)')],
               help='How the volume API authenticates requests.'),
    cfg.IntOpt('osapi_max_limit', default=1000, min=1,
               help='The most items a list request returns at once.'),
    cfg.StrOpt('default_volume_type', default='__DEFAULT__',
               help='Name of the volume type a volume gets when created '
                    'without one. It cannot be deleted.'),
    cfg.StrOpt('storage_availability_zone', default='nova',
               help='The availability zone volumes are created in; a '
                    'create request naming another one is refused.'),
]


def register_opts(conf):
    conf.register_opts(api_opts, group=GROUP)


def list_opts():
    return [(GROUP, api_opts)]
