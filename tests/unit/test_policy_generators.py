"""oslo.policy's generators find volapi's rules and enforcers through the
entry points this checkout's setup.cfg declares."""
import configparser
import os
import subprocess
import sys

import fixtures
import yaml

from tests import base

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))


class PolicyGeneratorsTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [self.dir, ROOT, os.environ.get('PYTHONPATH', '')]))
        self._declare_entry_points()

    def _declare_entry_points(self):
        """A dist-info carrying setup.cfg's oslo.policy entry points, so the
        generators see this checkout's declarations, installed or not."""
        setup = configparser.ConfigParser()
        setup.read(os.path.join(ROOT, 'setup.cfg'))
        points = setup['options.entry_points']
        info = os.path.join(self.dir, 'volapi_checkout-0.dist-info')
        os.mkdir(info)
        with open(os.path.join(info, 'METADATA'), 'w') as f:
            f.write('Metadata-Version: 2.1\nName: volapi-checkout\n'
                    'Version: 0\n')
        with open(os.path.join(info, 'entry_points.txt'), 'w') as f:
            for group in ('oslo.policy.policies', 'oslo.policy.enforcer'):
                f.write('[%s]\n%s\n' % (group, points[group].strip()))

    def run_tool(self, module, *args):
        return subprocess.run(
            [sys.executable, '-c',
             'import sys; from oslo_policy import generator; '
             'sys.exit(generator.%s())' % module] + list(args),
            env=self.env, cwd=self.dir, capture_output=True, text=True,
            check=True).stdout

    def test_sample_generator_with_the_config_in_etc(self):
        output = os.path.join(self.dir, 'policy.yaml.sample')
        self.run_tool('generate_sample', '--config-file',
                      os.path.join(ROOT, 'etc/volapi-policy-generator.conf'),
                      '--output-file', output)
        with open(output) as f:
            text = f.read()
        self.assertIn('#"volume:update_readonly_flag": "rule:admin_or_owner"',
                      text)
        self.assertIn('#"placement:reshaper:reshape"', text)
        self.assertIn('# POST  /volumes/{volume_id}/action', text)

    def test_policy_generator_merges_the_operators_file(self):
        policy_file = os.path.join(self.dir, 'policy.yaml')
        with open(policy_file, 'w') as f:
            f.write('"volume:create": "role:creator"\n')
        conf = os.path.join(self.dir, 'volapi.conf')
        with open(conf, 'w') as f:
            f.write('[oslo_policy]\npolicy_file = %s\n' % policy_file)
        effective = yaml.safe_load(self.run_tool(
            'generate_policy', '--namespace', 'volapi',
            '--config-file', conf))
        self.assertEqual('role:creator', effective['volume:create'])
        self.assertEqual('rule:admin_or_owner',
                         effective['volume:update_readonly_flag'])
