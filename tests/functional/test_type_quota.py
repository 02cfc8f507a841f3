"""Cinder's per-volume-type quotas (volumes_<type>, snapshots_<type>,
gigabytes_<type>): set and shown through the quota API, enforced by the
claims in their transactions, counted per project and type."""
import sqlalchemy as sa

import objects
from db import models
from db import session
from objects import type_quota
from tests import fixtures as volapi_fixtures
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import test_claim_races
from volapi.volume import placement_audit
from volapi.volume.transitions import engine

ADMIN = api_fixtures.ADMIN
PER_TYPE = ('volumes_gold', 'snapshots_gold', 'gigabytes_gold')


class TypeQuotaTestCase(api_fixtures.APITestCase):
    pool_options = {'file_pools': ['pool:1000'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.addCleanup(self.assert_rows_exact)
        self.gold = rows.volume_type(self.context, name='gold')
        self.path = '/v3/os-quota-sets/%s' % self.project

    def assert_rows_exact(self):
        self.assertEqual([], type_quota.drift(self.context))

    def set_quota(self, status=200, **limits):
        return self.app.put_json(self.path, {'quota_set': limits},
                                 headers=ADMIN, status=status)

    def show(self, query=''):
        return self.app.get(self.path + query,
                            headers=self.owner).json['quota_set']

    def gold_volume(self, size=1, expect=202):
        response = self.create_volume(size=size, volume_type='gold',
                                      expect=expect)
        if expect == 202:
            self.make_available(response.json['volume']['id'])
        return response

    def in_use(self, *names):
        usage = self.show('?usage=True')
        return tuple(usage[name]['in_use'] for name in names)

    def finish(self, name, volume_id):
        """What a worker does at the end of an operation."""
        volume = objects.Volume.get_by_id(self.context, volume_id)
        engine.run(self.context, engine.prepare(self.context, name, volume))


class TypeQuotaAPITest(TypeQuotaTestCase):

    def test_every_type_shown_unlimited_by_default(self):
        shown = self.show()
        self.assertEqual([-1, -1, -1], [shown[name] for name in PER_TYPE])
        self.assertEqual(-1, self.app.get(
            self.path + '/defaults', headers=self.owner).json[
                'quota_set']['volumes_gold'])

    def test_set_for_project_and_default_class(self):
        self.app.put_json('/v3/os-quota-class-sets/default',
                          {'quota_class_set': {'gigabytes_gold': 50}},
                          headers=ADMIN)
        self.assertEqual(50, self.app.get(
            '/v3/os-quota-class-sets/default', headers=ADMIN).json[
                'quota_class_set']['gigabytes_gold'])
        self.assertEqual(3, self.set_quota(volumes_gold=3).json[
            'quota_set']['volumes_gold'])
        shown = self.show()
        self.assertEqual((3, -1, 50), tuple(shown[name]
                                            for name in PER_TYPE))
        self.assertEqual(10, shown['volumes'])
        # Deleting the project's quotas forgets its per-type ones too.
        self.app.delete(self.path, headers=ADMIN)
        shown = self.show()
        self.assertEqual((-1, -1, 50), tuple(shown[name]
                                             for name in PER_TYPE))

    def test_a_renamed_type_keeps_its_limits(self):
        self.set_quota(volumes_gold=2)
        self.app.put_json('/v3/os-quota-class-sets/default',
                          {'quota_class_set': {'gigabytes_gold': 50}},
                          headers=ADMIN)
        self.app.put_json('/v3/types/%s' % self.gold, {'volume_type': {
            'name': 'platinum'}}, headers=ADMIN)
        shown = self.show()
        self.assertEqual((2, 50), (shown['volumes_platinum'],
                                   shown['gigabytes_platinum']))
        self.assertNotIn('volumes_gold', shown)

    def test_unknown_type_is_a_bad_key(self):
        self.assertIn('Bad key(s) in quota set: volumes_nope', self.fault(
            self.set_quota(status=400, volumes_nope=1), 400))
        self.assertIn('Bad key(s) in quota class set: snapshots_nope',
                      self.fault(self.app.put_json(
                          '/v3/os-quota-class-sets/default',
                          {'quota_class_set': {'snapshots_nope': 1}},
                          headers=ADMIN, status=400), 400))

    def test_limits_api_has_no_per_type_keys(self):
        absolute = self.app.get('/v3/limits', headers=self.owner).json[
            'limits']['absolute']
        self.assertFalse([key for key in absolute if 'gold' in key])

    def test_usage_per_type(self):
        volume = self.gold_volume(size=3).json['volume']
        self.create_volume(size=2)  # of the default type
        self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume['id']}}, headers=self.owner, status=202)
        self.assertEqual((1, 1, 6, 2, 8), self.in_use(
            'volumes_gold', 'snapshots_gold', 'gigabytes_gold', 'volumes',
            'gigabytes'))
        self.assertEqual(
            'Quota volumes_gold limit must be equal or greater than '
            'existing resources. Current usage is 1 and the requested limit '
            'is 0.', self.fault(self.set_quota(status=400, volumes_gold=0),
                                400))
        # Refused whole: the project-wide limit in the same request is
        # not set either.
        self.set_quota(status=400, volumes=50, volumes_gold=0)
        self.assertEqual(10, self.show()['volumes'])

    def test_delete_gives_back(self):
        volume = self.gold_volume(size=3).json['volume']
        self.app.delete('/v3/volumes/%s' % volume['id'], headers=self.owner,
                        status=202)
        self.finish('delete_done', volume['id'])
        self.assertEqual((0, 0), self.in_use('volumes_gold',
                                             'gigabytes_gold'))

    def test_audit_reports_and_repairs_a_type_row(self):
        self.gold_volume(size=3)
        usages = models.TypeQuotaUsage.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(usages.update().where(
                usages.c.volume_type_id == self.gold).values(gigabytes=9))
        said = []
        self.assertEqual(1, placement_audit.audit(self.context,
                                                  out=said.append))
        self.assertIn('project %s, volume type %s: usage (1, 0, 9), holds '
                      '(1, 0, 3)' % (self.project, self.gold), said)
        placement_audit.audit(self.context, fix=True, out=said.append)
        self.assertEqual((3,), self.in_use('gigabytes_gold'))

    def test_online_migration_counts_in_the_type_row(self):
        # A volume from before claims (no allocation), then a claim that
        # makes the type's row: the migration's allocation adds to it.
        rows.volume(self.context, project_id=self.project, size=4,
                    host='worker-1@file#pool', volume_type_id=self.gold)
        self.gold_volume(size=1)
        self.assertEqual((1, 1), placement_audit.allocate_volumes(
            self.context, 50))
        self.assertEqual((2, 5), self.in_use('volumes_gold',
                                             'gigabytes_gold'))


class TypeQuotaEnforcementTest(TypeQuotaTestCase):

    def test_volumes(self):
        self.set_quota(volumes_gold=2)
        self.gold_volume()
        self.gold_volume()
        self.assertEqual(
            "Maximum number of volumes allowed (2) exceeded for quota "
            "'volumes_gold'.", self.fault(self.gold_volume(expect=413), 413))
        self.create_volume()  # another type: not limited by gold's
        self.assertEqual((2, 3), self.in_use('volumes_gold', 'volumes'))

    def test_gigabytes_create_and_extend(self):
        self.set_quota(gigabytes_gold=5)
        volume = self.gold_volume(size=3).json['volume']
        self.assertEqual(
            'Requested volume or snapshot exceeds allowed gigabytes_gold '
            'quota. Requested 3G, quota is 5G and 3G has been consumed.',
            self.fault(self.gold_volume(size=3, expect=413), 413))
        self.assertEqual(
            'Requested volume or snapshot exceeds allowed gigabytes_gold '
            'quota. Requested 3G, quota is 5G and 3G has been consumed.',
            self.fault(self.app.post_json(
                '/v3/volumes/%s/action' % volume['id'],
                {'os-extend': {'new_size': 6}}, headers=self.owner,
                status=413), 413))
        self.app.post_json('/v3/volumes/%s/action' % volume['id'],
                           {'os-extend': {'new_size': 5}},
                           headers=self.owner, status=202)
        self.assertEqual((5,), self.in_use('gigabytes_gold'))

    def test_snapshots(self):
        self.set_quota(snapshots_gold=1)
        volume = self.gold_volume().json['volume']
        body = {'snapshot': {'volume_id': volume['id'], 'force': True}}
        self.app.post_json('/v3/snapshots', body, headers=self.owner,
                           status=202)
        self.assertEqual(
            'Maximum number of snapshots allowed (1) exceeded',
            self.fault(self.app.post_json('/v3/snapshots', body,
                                          headers=self.owner, status=413),
                       413))

    def test_retype_into_a_full_type_is_refused(self):
        self.set_quota(volumes_gold=1)
        self.gold_volume()
        other = self.create_volume(size=2).json['volume']
        self.make_available(other['id'])
        retype = {'os-retype': {'new_type': 'gold'}}
        self.assertEqual(
            "Maximum number of volumes allowed (1) exceeded for quota "
            "'volumes_gold'.", self.fault(self.app.post_json(
                '/v3/volumes/%s/action' % other['id'], retype,
                headers=self.owner, status=413), 413))
        self.assertEqual('available', self.app.get(
            '/v3/volumes/%s' % other['id'], headers=self.owner).json[
                'volume']['status'])
        # Room made: the retype moves the volume's counts at once, and a
        # failed retype gives them back to its type.
        self.set_quota(volumes_gold=2)
        self.app.post_json('/v3/volumes/%s/action' % other['id'], retype,
                           headers=self.owner, status=202)
        self.assertEqual((2, 3), self.in_use('volumes_gold',
                                             'gigabytes_gold'))
        self.finish('retype_failed', other['id'])
        self.assertEqual((1, 1), self.in_use('volumes_gold',
                                             'gigabytes_gold'))
        self.app.post_json('/v3/volumes/%s/action' % other['id'], retype,
                           headers=self.owner, status=202)
        volume = objects.Volume.get_by_id(self.context, other['id'])
        engine.run(self.context, engine.prepare(
            self.context, 'retype_done', volume, volume_type_id=self.gold))
        self.assertEqual((2, 3), self.in_use('volumes_gold',
                                             'gigabytes_gold'))

    def test_reset_of_a_retyping_volume_gives_back(self):
        volume = self.create_volume(size=2).json['volume']
        self.make_available(volume['id'])
        self.app.post_json('/v3/volumes/%s/action' % volume['id'],
                           {'os-retype': {'new_type': 'gold'}},
                           headers=self.owner, status=202)
        self.assertEqual((1, 2), self.in_use('volumes_gold',
                                             'gigabytes_gold'))
        self.make_available(volume['id'])
        self.assertEqual((0, 0), self.in_use('volumes_gold',
                                             'gigabytes_gold'))

    def test_force_delete_of_a_retyping_volume_gives_back(self):
        volume = self.create_volume(size=2).json['volume']
        self.make_available(volume['id'])
        self.app.post_json('/v3/volumes/%s/action' % volume['id'],
                           {'os-retype': {'new_type': 'gold'}},
                           headers=self.owner, status=202)
        self.app.delete('/v3/volumes/%s?force=true' % volume['id'],
                        headers=api_fixtures.caller(
                            'admin', 'admin', '3.23'), status=202)
        self.finish('delete_done', volume['id'])
        # The rows agree with the tables (assert_rows_exact, at cleanup).
        self.assertEqual((0, 0), self.in_use('volumes_gold',
                                             'gigabytes_gold'))


class TypeQuotaRaceTest(TypeQuotaTestCase):

    def test_concurrent_creates_stop_at_the_type_limit(self):
        for round_ in range(test_claim_races.ROUNDS):
            # Each round a new project: its rows are made by the race.
            project = 'race-%d' % round_
            owner = api_fixtures.caller(project)
            self.app.put_json('/v3/os-quota-sets/%s' % project,
                              {'quota_set': {'volumes_gold': 5}},
                              headers=ADMIN)
            if round_:
                # A row of another type beside gold's.
                self.create_volume(headers=owner)
            statuses = test_claim_races.concurrently(
                lambda i: self.create_volume(
                    headers=owner, volume_type='gold',
                    expect='*').status_int, count=16)
            self.assertEqual({202: 5, 413: 11},
                             {s: statuses.count(s) for s in set(statuses)})
            usage = self.app.get('/v3/os-quota-sets/%s?usage=True' % project,
                                 headers=owner).json['quota_set']
            self.assertEqual((5, 5 + bool(round_)), (
                usage['volumes_gold']['in_use'], usage['volumes']['in_use']))


class EnsureRowsTest(TypeQuotaTestCase):

    def test_rows_made_once_then_never_read_again(self):
        def ensure():
            type_quota.ensure_rows(self.context, 'fresh-project', self.gold)

        self.assertNotEqual([], volapi_fixtures.statements_sent(ensure))
        self.assertEqual([], type_quota.drift(self.context))
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual(1, conn.execute(
                sa.select(sa.func.count()).select_from(
                    type_quota.USAGES).where(
                    type_quota.USAGES.c.project_id == 'fresh-project')
            ).scalar())
        # Usage rows are never deleted: the pair needs no second read.
        self.assertEqual([], volapi_fixtures.statements_sent(ensure))

    def test_a_claim_makes_a_row_gone_since_it_was_seen(self):
        self.gold_volume()
        with session.writer.connection.using(self.context) as conn:
            conn.execute(type_quota.USAGES.delete())
            conn.execute(models.QuotaUsage.__table__.delete())
        self.gold_volume()
        self.assertEqual((2, 2), self.in_use('volumes', 'volumes_gold'))
