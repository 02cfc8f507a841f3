"""A volume's image metadata (Cinder's volume_image_metadata): set, shown
and unset through the volume actions, shown in volume details, the
glance_metadata list filter (3.4), and inherited by snapshots and the
volumes made from them or from a volume."""
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf

ADMIN = api_fixtures.ADMIN
PROPERTIES = {'os_distro': 'ubuntu', 'hw_disk_bus': 'scsi'}


class ImageMetadataTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.volume_id = self.create_volume().json['volume']['id']
        self.make_available(self.volume_id)

    def act(self, action, argument, status=200, headers=None,
            volume_id=None):
        return self.app.post_json(
            '/v3/volumes/%s/action' % (volume_id or self.volume_id),
            {action: argument}, headers=headers or self.owner,
            status=status)

    def shown(self, volume_id=None):
        return self.app.get('/v3/volumes/%s' % (volume_id or self.volume_id),
                            headers=self.owner).json['volume']

    def test_set_show_unset(self):
        self.assertNotIn('volume_image_metadata', self.shown())
        self.assertEqual({'metadata': PROPERTIES}, self.act(
            'os-set_image_metadata', {'metadata': PROPERTIES}).json)
        # Set again: the keys given change, the others stay.
        self.assertEqual(
            {'metadata': dict(PROPERTIES, os_distro='debian')},
            self.act('os-set_image_metadata',
                     {'metadata': {'os_distro': 'debian'}}).json)
        expected = dict(PROPERTIES, os_distro='debian')
        self.assertEqual({'metadata': expected}, self.act(
            'os-show_image_metadata', None).json)
        self.assertEqual(expected, self.shown()['volume_image_metadata'])
        [listed] = self.app.get('/v3/volumes/detail',
                                headers=self.owner).json['volumes']
        self.assertEqual(expected, listed['volume_image_metadata'])
        response = self.act('os-unset_image_metadata',
                            {'key': 'hw_disk_bus'})
        self.assertEqual(b'', response.body)
        self.assertEqual({'os_distro': 'debian'},
                         self.shown()['volume_image_metadata'])
        self.assertEqual(
            'Glance metadata for volume/snapshot %s cannot be found.'
            % self.volume_id, self.fault(self.act(
                'os-unset_image_metadata', {'key': 'hw_disk_bus'},
                status=404), 404))

    def test_bad_input_is_named_and_writes_nothing(self):
        for argument, named in (
                ({'metadata': {'bad key!': 'v'}}, 'bad key!'),
                ({'metadata': {'k': 1}}, "1 is not of type 'string'"),
                ({'metadata': 'k=v'}, "is not of type 'object'"),
                # 65535 characters, 65536 bytes of UTF-8.
                ({'metadata': {'k': 'v' * 65534 + 'é'}}, 'mysql_text'),
                ({}, "'metadata' is a required property")):
            self.assertIn(named, self.fault(self.act(
                'os-set_image_metadata', argument, status=400), 400))
        self.assertNotIn('volume_image_metadata', self.shown())
        self.assertIn('key', self.fault(self.act(
            'os-unset_image_metadata', {'key': ''}, status=400), 400))
        # Up to 64 KiB of UTF-8 is a value.
        long_value = 'v' * 65535
        self.act('os-set_image_metadata', {'metadata': {'k': long_value}})
        self.assertEqual({'k': long_value},
                         self.shown()['volume_image_metadata'])

    def test_refused_in_maintenance(self):
        self.app.post_json('/v3/admin/volumes/%s/action' % self.volume_id,
                           {'os-reset_status': {'status': 'maintenance'}},
                           headers=ADMIN, status=202)
        self.assertIn('maintenance', self.fault(self.act(
            'os-set_image_metadata', {'metadata': PROPERTIES}, status=400),
            400))
        self.assertEqual({'metadata': {}}, self.act(
            'os-show_image_metadata', None).json)

    def test_other_projects(self):
        stranger = api_fixtures.caller('project-b')
        for action, argument in (
                ('os-set_image_metadata', {'metadata': PROPERTIES}),
                ('os-show_image_metadata', None),
                ('os-unset_image_metadata', {'key': 'os_distro'})):
            self.fault(self.act(action, argument, status=404,
                                headers=stranger), 404)

    def test_glance_metadata_filter(self):
        self.act('os-set_image_metadata', {'metadata': PROPERTIES})
        other = self.create_volume().json['volume']['id']

        def listed(query, version, headers=ADMIN, status=200):
            response = self.app.get(
                '/v3/volumes?all_tenants=1&' + query,
                headers=dict(headers, **{
                    'OpenStack-API-Version': 'volume %s' % version}),
                status=status)
            return sorted(v['id'] for v in response.json['volumes']) \
                if status == 200 else response

        self.assertEqual([self.volume_id], listed(
            "glance_metadata={'os_distro': 'ubuntu'}", '3.4'))
        self.assertEqual([], listed(
            "glance_metadata={'os_distro': 'fedora'}", '3.4'))
        # Before 3.4 the filter is dropped, as Cinder drops it.
        self.assertEqual(sorted([self.volume_id, other]), listed(
            "glance_metadata={'os_distro': 'fedora'}", '3.3'))
        # Not a filter of Cinder's default resource filters for users.
        self.fault(listed("glance_metadata={'os_distro': 'ubuntu'}",
                          '3.31', headers=self.owner, status=400), 400)


class InheritedImageMetadataTest(api_fixtures.APITestCase):
    """Snapshots and the volumes made from them, or from a volume, take
    the image metadata their source had."""

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))

    def available(self, path, key):
        return vwf.wait_for(
            lambda: self.app.get(path, headers=self.owner).json[key],
            lambda shown: shown['status'] == 'available')

    def new_volume(self, **fields):
        volume_id = self.create_volume(**fields).json['volume']['id']
        return self.available('/v3/volumes/%s' % volume_id, 'volume')

    def test_snapshot_then_volume_and_clone(self):
        source = self.new_volume()
        self.app.post_json('/v3/volumes/%s/action' % source['id'],
                           {'os-set_image_metadata': {'metadata': PROPERTIES}},
                           headers=self.owner)
        snapshot_id = self.app.post_json(
            '/v3/snapshots', {'snapshot': {'volume_id': source['id']}},
            headers=self.owner, status=202).json['snapshot']['id']
        self.available('/v3/snapshots/%s' % snapshot_id, 'snapshot')
        # The source's change after the snapshot is not the snapshot's.
        self.app.post_json('/v3/volumes/%s/action' % source['id'],
                           {'os-set_image_metadata': {'metadata': {
                               'os_distro': 'changed'}}},
                           headers=self.owner)
        from_snapshot = self.new_volume(snapshot_id=snapshot_id)
        self.assertEqual(PROPERTIES, from_snapshot['volume_image_metadata'])
        clone = self.new_volume(source_volid=source['id'])
        self.assertEqual(dict(PROPERTIES, os_distro='changed'),
                         clone['volume_image_metadata'])
        plain = self.new_volume()
        self.assertNotIn('volume_image_metadata', plain)
