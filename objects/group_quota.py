"""The ``groups`` quota: the live groups a project holds, counted on its
quota_usages row (``groups``, limited by ``groups_limit``, else its
class's, else ``[quota] groups``) by ONE compare-and-swap in the
transaction that inserts or deletes the group, as volumes are counted by
their claims (objects.quota)."""
import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exc
from db import session
from objects import quota

Usage = quota.Usage
GROUPS = quota.GROUPS


def _within():
    limit = sa.func.coalesce(Usage.groups_limit, quota.class_limit(GROUPS),
                             sa.bindparam('groups_default',
                                          type_=sa.Integer))
    return quota.at_most(Usage.groups + 1, limit)


def charge(context, conf, project_id, groups):
    """In the caller's transaction: add ``groups`` (1 or -1) to what the
    project holds; OverQuota when one more would exceed its limit. A
    missing row is made first, counted from the tables: the caller inserts
    its group after this, so it is counted once."""
    values = {'groups': Usage.groups + groups,
              'updated_at': timeutils.utcnow()}
    conditions = []
    if groups > 0:
        default = conf.quota.groups
        conditions.append(quota.Within(GROUPS, cond.Sql(
            ('quota_within', GROUPS), _within,
            {'groups_default': default})))
    for _ in range(2):
        try:
            db_api.update_or_explain(context, Usage, project_id, values,
                                     filters=conditions)
            return
        except db_exc.NotFound:
            if groups < 0:
                return
            quota.create_row(context, project_id)
        except db_exc.ConditionNotMet:
            limit = quota.project_limits(context, conf, project_id)[GROUPS]
            in_use = usage(context, project_id)
            raise quota.OverQuota(GROUPS, groups, in_use, limit) from None
    raise db_exc.NotFound(Usage.cas_name, project_id)


def usage(context, project_id):
    """The live groups the project holds: its row's count (counted from
    the table before its first claim)."""
    with session.reader.connection.using(context) as conn:
        held = conn.execute(sa.select(quota.USAGES.c.groups).where(
            quota.USAGES.c.project_id == project_id)).scalar()
        if held is None:
            held = conn.execute(sa.select(quota.groups_of(project_id))
                                ).scalar()
    return int(held)


def drift(context):
    """(project, (row's groups,), (live groups counted,)) of every project
    whose quota_usages row disagrees with the groups it holds."""
    return quota.rows_that_drift(
        context, quota.USAGES, [quota.USAGES.c.project_id],
        {'groups': quota.groups_of(quota.USAGES.c.project_id)})
