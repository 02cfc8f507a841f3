"""Options of the placement API ([placement])."""
from oslo_config import cfg

GROUP = 'placement'
placement_opts = [
    cfg.StrOpt('auth_strategy',
               choices=[('noauth2', "Placement's noauth2: the token is "
                         "'user[:project]'; the token 'admin' has the "
                         "admin role, any other none"),
                        ('keystone', 'keystonemiddleware.auth_token '
                         '([keystone_authtoken] options)')],
               help='How the placement API authenticates requests. Unset, '
                    'it follows [api] auth_strategy (keystone there means '
                    'keystone here, anything else noauth2).'),
    cfg.StrOpt('incomplete_consumer_project_id',
               default='00000000-0000-0000-0000-000000000000',
               help='Project recorded for consumers whose allocations were '
                    'written without one (before microversion 1.8).'),
    cfg.StrOpt('incomplete_consumer_user_id',
               default='00000000-0000-0000-0000-000000000000',
               help='User recorded for consumers whose allocations were '
                    'written without one (before microversion 1.8).'),
    cfg.IntOpt('max_request_body_size', default=16 * 1024 * 1024, min=1,
               help='The largest request body placement accepts, in bytes '
                    '(larger: 413). Large enough for a POST /allocations '
                    'or /reshaper moving some ten thousand consumers; the '
                    'volume API has [oslo_middleware] '
                    'max_request_body_size.'),
    cfg.BoolOpt('randomize_allocation_candidates', default=False,
                help='With a limit on GET /allocation_candidates, return a '
                     'random sample of the candidates instead of the first '
                     'ones; without, return them in random order.'),
]


def register_opts(conf):
    conf.register_opts(placement_opts, group=GROUP)


def list_opts():
    return [(GROUP, placement_opts)]
