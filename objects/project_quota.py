"""A project's own quota limits, project-wide and per volume type, set or
forgotten in one transaction.

Each limit is written on the usage row it limits by a compare-and-swap
that refuses a limit below what the row holds (objects.quota
set_limit_columns): the project's row first, then its rows of the types
in the types' id order. Claims too take the project's row first, so a
limit change and a claim never wait for each other in a cycle. A claim
queued behind the change reads the new limits from the row it then
locks.
"""
from db import api as db_api
from db import session
from objects import quota
from objects import type_quota


@db_api.retry_on_deadlock
def set_limits(context, project_id, limits, per_type):
    """Set the project's ``limits`` ({resource: limit}; per-type resources
    named as ``per_type`` maps them: {name: (counted, type id)}).
    quota.LimitBelowUsage names a limit below what the project holds;
    nothing is written then."""
    own = {name: limit for name, limit in limits.items()
           if name in quota.RESOURCES}
    by_type = {}
    for name, limit in limits.items():
        if name in per_type:
            counted, type_id = per_type[name]
            type_name = name[len(counted) + 1:]
            by_type.setdefault((type_id, type_name), {})[counted] = limit
    with session.writer.using(context):
        # Taken even with no project-wide limit to set: the type rows are
        # only ever taken after it.
        quota.set_own_limits(context, project_id, own)
        for (type_id, type_name), type_limits in sorted(by_type.items()):
            type_quota.set_own_limits(context, project_id, type_id,
                                      type_name, type_limits)


@db_api.retry_on_deadlock
def forget_limits(context, project_id):
    """The project's limits, per-type ones too, are its class's again."""
    with session.writer.using(context):
        quota.forget_own_limits(context, project_id)
        type_quota.forget_own_limits(context, project_id)
