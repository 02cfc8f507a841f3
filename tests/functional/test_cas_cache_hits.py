"""Every hot compare-and-swap is served by db.statements' cache: once a
request has been made (warm-up), making it again on fresh rows builds no
statement (no miss) and runs none without a cache key (none uncached).
A transition whose SQL lost its key (a criterion built per call, a value
without a Sql key) fails here instead of silently costing a statement
build per request."""
import uuid

from db import statements
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import test_placement_allocations_base as alloc_base

ADMIN = api_fixtures.ADMIN


class CacheHitsMixin:

    def assertServedFromCache(self, request):
        """``request()`` twice to warm up, then once more: all hits."""
        for _ in range(2):
            request()
        before = statements.cache_stats()
        request()
        after = statements.cache_stats()
        changes = {name: after[name] - before[name]
                   for name in ('hits', 'misses', 'uncached')}
        self.assertEqual(0, changes['misses'], changes)
        self.assertEqual(0, changes['uncached'], changes)
        self.assertGreater(changes['hits'], 0, changes)


class VolumeCacheHitsTest(CacheHitsMixin, api_fixtures.APITestCase):

    def volume(self, **values):
        values.setdefault('project_id', self.project)
        return rows.volume(self.context, **values)

    def act(self, volume_id, body, headers=None, prefix='/v3'):
        self.app.post_json('%s/volumes/%s/action' % (prefix, volume_id),
                           body, headers=headers or self.owner, status=202)

    def test_reserve_and_unreserve_on_the_read_free_path(self):
        def request():
            volume_id = self.volume().id
            self.act(volume_id, {'os-reserve': None})
            self.act(volume_id, {'os-unreserve': None})
        self.assertServedFromCache(request)

    def test_reserve_and_unreserve_loading_the_volume(self):
        # An admin acting on another project's volume goes the long way.
        def request():
            volume_id = self.volume().id
            for action in ('os-reserve', 'os-unreserve'):
                self.act(volume_id, {action: None}, ADMIN, '/v3/admin')
        self.assertServedFromCache(request)

    def test_attach_begin_roll_and_detach(self):
        def request():
            volume_id = self.volume().id
            self.act(volume_id, {'os-attach': {
                'instance_uuid': str(uuid.uuid4()), 'mountpoint': '/dev/b'}})
            self.act(volume_id, {'os-begin_detaching': None})
            self.act(volume_id, {'os-roll_detaching': None})
            self.act(volume_id, {'os-detach': None})
        self.assertServedFromCache(request)

    def test_extend(self):
        self.assertServedFromCache(lambda: self.act(
            self.volume().id, {'os-extend': {'new_size': 2}}))

    def test_retype_and_reset_status(self):
        new_type = rows.volume_type(self.context)

        def request():
            volume_id = self.volume().id
            self.act(volume_id, {'os-retype': {'new_type': new_type}})
            self.act(volume_id, {'os-reset_status': {
                'status': 'available', 'attach_status': 'detached'}},
                ADMIN, '/v3/admin')
        self.assertServedFromCache(request)

    def test_create(self):
        source = self.volume()
        snapshot = rows.snapshot(self.context, source)

        def request():
            self.create_volume()
            self.create_volume(source_volid=source.id)
            self.create_volume(snapshot_id=snapshot.id)
        self.assertServedFromCache(request)

    def test_delete_and_cascade_delete(self):
        def request():
            self.app.delete('/v3/volumes/%s' % self.volume().id,
                            headers=self.owner, status=202)
            volume = self.volume()
            rows.snapshot(self.context, volume)
            self.app.delete('/v3/volumes/%s?cascade=true' % volume.id,
                            headers=self.owner, status=202)
        self.assertServedFromCache(request)

    def test_snapshot_create_and_delete(self):
        def request():
            volume = self.volume()
            self.app.post_json('/v3/snapshots', {'snapshot': {
                'volume_id': volume.id, 'metadata': {'k': 'v'}}},
                headers=self.owner, status=202)
            snapshot = rows.snapshot(self.context, volume)
            self.app.delete('/v3/snapshots/%s' % snapshot.id,
                            headers=self.owner, status=202)
        self.assertServedFromCache(request)

    def test_metadata_and_rename(self):
        def request():
            path = '/v3/volumes/%s' % self.volume().id
            self.app.post_json(path + '/metadata', {'metadata': {'a': '1'}},
                               headers=self.owner)
            self.app.put_json(path + '/metadata', {'metadata': {'b': '2'}},
                              headers=self.owner)
            self.app.delete(path + '/metadata/b', headers=self.owner)
            self.app.put_json(path, {'volume': {'name': 'renamed'}},
                              headers=self.owner)
        self.assertServedFromCache(request)

    def test_attachments_api(self):
        headers = api_fixtures.caller(self.project, version='3.44')

        def request():
            volume_id = self.volume().id
            attachment = self.app.post_json('/v3/attachments', {
                'attachment': {'volume_uuid': volume_id,
                               'instance_uuid': str(uuid.uuid4())}},
                headers=headers).json['attachment']
            self.app.delete('/v3/attachments/%s' % attachment['id'],
                            headers=headers)
        self.assertServedFromCache(request)


class PlacementCacheHitsTest(CacheHitsMixin, alloc_base.AllocationTestCase):

    def test_claim_update_and_delete(self):
        def request():
            consumer = alloc_base.new_uuid()
            self.put_allocations(consumer, {self.rp: {'DISK_GB': 1}},
                                 version='1.28')
            self.put_allocations(consumer, {self.rp: {'DISK_GB': 2}},
                                 version='1.28', generation=1)
            self.delete('/allocations/%s' % consumer)
        self.assertServedFromCache(request)
