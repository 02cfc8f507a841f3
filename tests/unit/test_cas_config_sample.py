"""etc/volapi.conf.sample is what oslo-config-generator makes from the
options in the code, byte for byte: an option added without regenerating
the sample fails here. Regenerate with

    oslo-config-generator --config-file etc/volapi-config-generator.conf
"""
import difflib
import os
import subprocess
import sys
import tempfile

import testtools

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
GENERATOR_CONF = os.path.join(ROOT, 'etc', 'volapi-config-generator.conf')
SAMPLE = os.path.join(ROOT, 'etc', 'volapi.conf.sample')


class ConfigSampleTest(testtools.TestCase):

    def test_sample_is_up_to_date(self):
        with tempfile.TemporaryDirectory() as tmp:
            fresh = os.path.join(tmp, 'volapi.conf.sample')
            generator = os.path.join(os.path.dirname(sys.executable),
                                     'oslo-config-generator')
            if not os.path.exists(generator):
                generator = 'oslo-config-generator'
            subprocess.run([generator, '--config-file', GENERATOR_CONF,
                            '--output-file', fresh],
                           cwd=ROOT, check=True, capture_output=True)
            with open(fresh) as f:
                generated = f.read()
        with open(SAMPLE) as f:
            committed = f.read()
        diff = ''.join(list(difflib.unified_diff(
            committed.splitlines(True), generated.splitlines(True),
            'etc/volapi.conf.sample', 'generated'))[:60])
        self.assertTrue(generated == committed,
                        'etc/volapi.conf.sample is stale; regenerate it: '
                        'oslo-config-generator --config-file '
                        'etc/volapi-config-generator.conf\n' + diff)
