"""osc-placement, through python-openstackclient, against a real server.

gunicorn serves volapi (placement under /placement) on a free 127.0.0.1
port, on the database of the backend under test
(``http_server_fixture.GunicornServer``); the ``openstack`` CLI runs as a
subprocess, as an operator would run it.
"""
import json
import os
import shutil
import subprocess
import uuid

from tests.functional import http_server_fixture
from tests.functional import test_placement_base as base

AGG = '4f1a2b3c-0000-4000-8000-00000000abcd'


class TestOpenStackClient(base.PlacementTestCase):
    """One server for the class: it keeps nothing between requests that
    the per-test emptying of the database could make stale (the standard
    traits are put back by each test's setUp)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = http_server_fixture.GunicornServer(
            workers=1, threads=1, timeout=60)
        cls.server.setUp()  # cleans up after itself if it fails
        cls.endpoint = cls.server.url + '/placement'
        cls.cli = shutil.which('openstack') or 'openstack'
        cls.env = {k: v for k, v in os.environ.items()
                   if not k.startswith('OS_')}

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanUp()
        super().tearDownClass()

    def osc(self, *args, version=None, expect_failure=False):
        command = [self.cli, '--os-auth-type', 'admin_token',
                   '--os-token', 'admin', '--os-endpoint', self.endpoint]
        if version:
            command += ['--os-placement-api-version', version]
        command += list(args)
        result = subprocess.run(command, env=self.env, capture_output=True,
                                text=True, timeout=120)
        if expect_failure:
            self.assertNotEqual(0, result.returncode, result.stdout)
            return result.stderr
        self.assertEqual(0, result.returncode,
                         '%s\n%s' % (' '.join(args), result.stderr))
        return json.loads(result.stdout) if '-f' in args and \
            'json' in args else result.stdout

    def test_classes_traits_and_providers(self):
        self.osc('resource', 'class', 'create', 'CUSTOM_GOLD', version='1.2')
        classes = self.osc('resource', 'class', 'list', '-f', 'json',
                           version='1.2')
        names = [c['name'] for c in classes]
        self.assertIn('VCPU', names)
        self.assertIn('CUSTOM_GOLD', names)

        self.osc('trait', 'create', 'CUSTOM_FAST', version='1.6')
        traits = [t['name'] for t in self.osc('trait', 'list', '-f', 'json',
                                              version='1.6')]
        self.assertIn('CUSTOM_FAST', traits)
        self.assertIn('HW_CPU_X86_AVX', traits)

        root = self.osc('resource', 'provider', 'create', 'root', '-f',
                        'json', version='1.20')
        child = self.osc('resource', 'provider', 'create', 'child',
                         '--parent-provider', root['uuid'], '-f', 'json',
                         version='1.20')
        self.assertEqual(root['uuid'], child['root_provider_uuid'])
        listed = self.osc('resource', 'provider', 'list', '-f', 'json',
                          version='1.14')
        self.assertEqual({'root', 'child'}, {p['name'] for p in listed})

        renamed = self.osc('resource', 'provider', 'set', child['uuid'],
                           '--name', 'child2', '--parent-provider',
                           root['uuid'], '-f', 'json', version='1.14')
        self.assertEqual('child2', renamed['name'])
        shown = self.osc('resource', 'provider', 'show', child['uuid'],
                         '-f', 'json', version='1.14')
        self.assertEqual('child2', shown['name'])
        self.assertEqual(root['uuid'], shown['parent_provider_uuid'])

        error = self.osc('resource', 'provider', 'show', str(uuid.uuid4()),
                         expect_failure=True)
        self.assertIn('No resource provider with uuid', error)

        self.osc('resource', 'provider', 'delete', child['uuid'])
        listed = self.osc('resource', 'provider', 'list', '-f', 'json')
        self.assertEqual(['root'], [p['name'] for p in listed])

    def test_inventories_traits_aggregates_usages(self):
        self.osc('resource', 'class', 'create', 'CUSTOM_GOLD', version='1.2')
        rp = self.osc('resource', 'provider', 'create', 'rp', '-f', 'json')
        self.osc('resource', 'provider', 'inventory', 'set', rp['uuid'],
                 '--resource', 'VCPU=8', '--resource', 'DISK_GB:total=100',
                 '--resource', 'DISK_GB:reserved=10',
                 '--resource', 'CUSTOM_GOLD=3')
        inventories = {i['resource_class']: i for i in self.osc(
            'resource', 'provider', 'inventory', 'list', rp['uuid'], '-f',
            'json')}
        self.assertEqual({'VCPU', 'DISK_GB', 'CUSTOM_GOLD'},
                         set(inventories))
        self.assertEqual(10, inventories['DISK_GB']['reserved'])
        self.osc('resource', 'provider', 'inventory', 'delete', rp['uuid'],
                 '--resource-class', 'CUSTOM_GOLD')
        inventories = self.osc('resource', 'provider', 'inventory', 'list',
                               rp['uuid'], '-f', 'json')
        self.assertEqual({'VCPU', 'DISK_GB'},
                         {i['resource_class'] for i in inventories})

        traits = self.osc('resource', 'provider', 'trait', 'set', rp['uuid'],
                          '--trait', 'HW_CPU_X86_AVX', '--trait',
                          'HW_CPU_X86_SSE', '-f', 'json', version='1.6')
        self.assertEqual({'HW_CPU_X86_AVX', 'HW_CPU_X86_SSE'},
                         {t['name'] for t in traits})
        traits = self.osc('resource', 'provider', 'trait', 'list',
                          rp['uuid'], '-f', 'json', version='1.6')
        self.assertEqual({'HW_CPU_X86_AVX', 'HW_CPU_X86_SSE'},
                         {t['name'] for t in traits})

        generation = self.osc('resource', 'provider', 'show', rp['uuid'],
                              '-f', 'json')['generation']
        self.osc('resource', 'provider', 'aggregate', 'set', rp['uuid'],
                 '--aggregate', AGG, '--generation', str(generation),
                 version='1.19')
        aggregates = self.osc('resource', 'provider', 'aggregate', 'list',
                              rp['uuid'], '-f', 'json', version='1.19')
        self.assertEqual([AGG], [a['uuid'] for a in aggregates])
        error = self.osc('resource', 'provider', 'aggregate', 'set',
                         rp['uuid'], '--aggregate', AGG, '--generation',
                         str(generation), version='1.19',
                         expect_failure=True)
        self.assertIn('409', error)

        usages = self.osc('resource', 'provider', 'usage', 'show',
                          rp['uuid'], '-f', 'json')
        self.assertEqual({'VCPU': 0, 'DISK_GB': 0},
                         {u['resource_class']: u['usage'] for u in usages})

    def test_allocation_candidate_list(self):
        self.osc('trait', 'create', 'CUSTOM_X', version='1.6')
        wanted = self.osc('resource', 'provider', 'create', 'wanted', '-f',
                          'json', version='1.20')['uuid']
        other = self.osc('resource', 'provider', 'create', 'other', '-f',
                         'json', version='1.20')['uuid']
        for provider in (wanted, other):
            self.osc('resource', 'provider', 'inventory', 'set', provider,
                     '--resource', 'DISK_GB=100', version='1.17')
        self.osc('resource', 'provider', 'trait', 'set', wanted,
                 '--trait', 'CUSTOM_X', version='1.6')
        found = self.osc('allocation', 'candidate', 'list', '--resource',
                         'DISK_GB=10', '--required', 'CUSTOM_X', '-f',
                         'json', version='1.17')
        self.assertEqual([wanted], [c['resource provider'] for c in found])
        self.assertEqual(['DISK_GB=10'], [c['allocation'] for c in found])
