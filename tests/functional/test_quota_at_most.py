"""objects.quota.at_most as the quota compare-and-swap uses it (the held
count plus the change, against the project's limit, its class's, or the
configured default), on the backend under test: true exactly when the
limit is -1 or the new count is within it, for every limit the API
accepts (-1 to MAX_LIMIT, 0 included) and counts beyond 32 bits."""
import itertools

import sqlalchemy as sa
from oslo_utils import timeutils

from db import session
from objects import quota
from tests import base
from volapi.api.v3.quotas import MAX_LIMIT

PROJECT = 'at-most-project'
LIMITS = (-1, 0, 1, 5, MAX_LIMIT)
HELD = (0, 4, 5, MAX_LIMIT - 1, MAX_LIMIT)
CHANGES = (1, 2)


def expected(held, change, limit):
    return limit == -1 or held + change <= limit


class AtMostTest(base.DatabaseTestCase):

    def set_held(self, conn, held, own_limit=None):
        conn.execute(quota.USAGES.delete())
        conn.execute(quota.USAGES.insert().values(
            project_id=PROJECT, volumes=held, snapshots=0, gigabytes=held,
            volumes_limit=own_limit, created_at=timeutils.utcnow()))

    def set_class_limit(self, conn, limit):
        conn.execute(quota.LIMITS.delete())
        if limit is not None:
            conn.execute(quota.LIMITS.insert().values(
                scope=quota.CLASS, scope_id=quota.DEFAULT_CLASS,
                resource='volumes', hard_limit=limit))

    def within(self, conn, change, default):
        return conn.execute(
            sa.select(quota.USAGES.c.project_id).where(
                quota.USAGES.c.project_id == PROJECT,
                quota._within('volumes')),
            {'quota_volumes': change,
             'quota_default_volumes': default}).first() is not None

    def check(self, set_at, default):
        """``set_at``: where the limit is set: 'project' (the project's
        own, on its row), 'class' or None (the configured default)."""
        found = {}
        with session.writer.connection.using(self.context) as conn:
            for limit in LIMITS:
                self.set_class_limit(conn, limit if set_at == 'class'
                                     else None)
                for held in HELD:
                    self.set_held(conn, held, limit if set_at == 'project'
                                  else None)
                    for change in CHANGES:
                        found[held, change, limit] = self.within(
                            conn, change,
                            limit if set_at is None else default)
        self.assertEqual(
            {key: expected(*key) for key in itertools.product(
                HELD, CHANGES, LIMITS)}, found)

    def test_project_limit(self):
        self.check('project', default=0)

    def test_class_limit(self):
        self.check('class', default=-1)

    def test_configured_default(self):
        self.check(None, default=None)

    def test_per_volume_size(self):
        found = {}
        with session.writer.connection.using(self.context) as conn:
            self.set_held(conn, 0)
            for limit, size in itertools.product(LIMITS, (1, 5, MAX_LIMIT)):
                found[size, limit] = conn.execute(
                    sa.select(quota.USAGES.c.project_id).where(
                        quota.USAGES.c.project_id == PROJECT,
                        quota._within_per_volume()),
                    {'quota_size': size,
                     'quota_default_' + quota.PER_VOLUME: limit}
                ).first() is not None
        self.assertEqual({(size, limit): limit == -1 or size <= limit
                          for size, limit in found}, found)
