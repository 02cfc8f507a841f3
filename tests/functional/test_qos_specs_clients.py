"""QoS specs through the real clients over HTTP: the ``cinder`` CLI's
qos-create/-list/-show/-key/-associate/-disassociate/-disassociate-all/
-get-association/-delete [--force], python-cinderclient's library and
openstacksdk's block_storage QoS calls."""
import openstack
from cinderclient import exceptions as cinder_exc

from tests.functional import cinder_cli
from tests.functional import test_actions_cli
from tests.functional import test_openstacksdk


class QosSpecsClientsTest(test_actions_cli.CinderClientTestCase):

    def admin(self, *args, check=True):
        return cinder_cli.run(self, self.endpoint, *args, user='admin',
                              project='admin', check=check)

    def qos_of(self, type_id):
        return self.app.get('/v3/admin/types/%s' % type_id, headers={
            'X-Auth-Token': 'admin:admin'}).json['volume_type'][
            'qos_specs_id']

    def test_cli(self):
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only; test_python_api covers the others')
        created = self.admin('qos-create', 'gold', 'consumer=front-end',
                             'total_iops_sec=1000').stdout
        gold = cinder_cli.field(created, 'id')
        self.assertEqual('front-end', cinder_cli.field(created, 'consumer'))
        self.assertEqual('total_iops_sec : 1000',
                         cinder_cli.field(created, 'specs'))
        self.assertIn('gold', self.admin('qos-list').stdout)
        self.assertEqual(gold, cinder_cli.field(
            self.admin('qos-show', 'gold').stdout, 'id'))
        self.admin('type-create', 'fast')
        type_id = self.app.get('/v3/admin/types/fast', headers={
            'X-Auth-Token': 'admin:admin'}).json['volume_type']['id']
        self.admin('qos-associate', gold, type_id)
        self.assertIn('fast', self.admin('qos-get-association',
                                         gold).stdout)
        silver = cinder_cli.field(self.admin(
            'qos-create', 'silver', 'read_iops_sec=5').stdout, 'id')
        refused = self.admin('qos-associate', silver, type_id, check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('is already associated with another qos specs: %s '
                      '(HTTP 400)' % gold, refused.stderr)
        refused = self.admin('qos-delete', gold, check=False)
        self.assertIn('Qos specs still in use. (HTTP 400)', refused.stderr)
        self.admin('qos-key', gold, 'set', 'a=b')
        self.admin('qos-key', gold, 'unset', 'total_iops_sec')
        self.assertEqual('a : b', cinder_cli.field(
            self.admin('qos-show', gold).stdout, 'specs'))
        self.admin('qos-disassociate', gold, type_id)
        self.assertIsNone(self.qos_of(type_id))
        self.admin('qos-associate', silver, type_id)
        self.admin('qos-disassociate-all', silver)
        self.assertIsNone(self.qos_of(type_id))
        self.admin('qos-associate', gold, type_id)
        self.admin('qos-delete', '--force', 'True', gold)
        self.assertIsNone(self.qos_of(type_id))
        self.assertNotIn('gold', self.admin('qos-list').stdout)
        refused = cinder_cli.run(self, self.endpoint, 'qos-list',
                                 check=False)
        self.assertIn('(HTTP 403)', refused.stderr)

    def test_python_api(self):
        cinder = self.client('admin', 'admin')
        spec = cinder.qos_specs.create('gold', {'consumer': 'both',
                                                'total_iops_sec': '10'})
        self.assertEqual(('gold', 'both', {'total_iops_sec': '10'}),
                         (spec.name, spec.consumer, spec.specs))
        volume_type = cinder.volume_types.create('fast')
        cinder.qos_specs.associate(spec, volume_type.id)
        self.assertEqual(
            [('volume_type', volume_type.id, 'fast')],
            [(a.association_type, a.id, a.name)
             for a in cinder.qos_specs.get_associations(spec)])
        self.assertEqual(spec.id, cinder.volume_types.get(
            volume_type.id)._info['qos_specs_id'])
        cinder.qos_specs.set_keys(spec.id, {'read_iops_sec': '5'})
        cinder.qos_specs.unset_keys(spec.id, ['total_iops_sec'])
        self.assertEqual({'read_iops_sec': '5'},
                         cinder.qos_specs.get(spec.id).specs)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  cinder.qos_specs.delete, spec)
        self.assertEqual('Qos specs still in use.', error.message)
        cinder.qos_specs.disassociate(spec, volume_type.id)
        self.assertEqual([], cinder.qos_specs.get_associations(spec))
        cinder.qos_specs.associate(spec, volume_type.id)
        cinder.qos_specs.disassociate_all(spec)
        cinder.qos_specs.associate(spec, volume_type.id)
        cinder.qos_specs.delete(spec, force=True)
        self.assertEqual([], cinder.qos_specs.list())
        self.assertRaises(cinder_exc.NotFound, cinder.qos_specs.get,
                          spec.id)
        self.assertRaises(cinder_exc.Forbidden,
                          self.client().qos_specs.list)

    def test_openstacksdk(self):
        storage = test_openstacksdk.connect(self.endpoint,
                                            'admin:admin').block_storage
        spec = storage.create_qos_spec(name='gold', consumer='front-end',
                                       total_iops_sec='100')
        self.assertEqual(('gold', 'front-end', {'total_iops_sec': '100'}),
                         (spec.name, spec.consumer, spec.specs))
        self.assertEqual(spec.id, storage.find_qos_spec('gold').id)
        self.assertEqual(['gold'], [s.name for s in storage.qos_specs()])
        volume_type = storage.create_type(name='fast')
        storage.associate_qos_spec(spec, volume_type.id)
        self.assertEqual(spec.id, self.qos_of(volume_type.id))
        storage.disassociate_qos_spec(spec, volume_type.id)
        self.assertIsNone(self.qos_of(volume_type.id))
        storage.associate_qos_spec(spec, volume_type.id)
        self.assertEqual([('volume_type', volume_type.id, 'fast')],
                         [(a.association_type, a.id, a.name) for a in
                          storage.qos_spec_associations(spec)])
        storage.disassociate_all_qos_spec(spec)
        self.assertIsNone(self.qos_of(volume_type.id))
        storage.update_qos_spec(spec, consumer='both', read_iops_sec='5')
        storage.delete_qos_spec_metadata(spec, ['total_iops_sec'])
        fetched = storage.get_qos_spec(spec.id)
        self.assertEqual(('both', {'read_iops_sec': '5'}),
                         (fetched.consumer, fetched.specs))
        storage.associate_qos_spec(spec, volume_type.id)
        self.assertRaises(openstack.exceptions.BadRequestException,
                          storage.delete_qos_spec, spec)
        storage.delete_qos_spec(spec, force=True)
        self.assertIsNone(self.qos_of(volume_type.id))
        self.assertRaises(openstack.exceptions.NotFoundException,
                          storage.get_qos_spec, spec.id)
