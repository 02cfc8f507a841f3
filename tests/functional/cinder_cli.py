"""The real ``cinder`` command (python-cinderclient) as the volume API
tests run it: noauth, against an endpoint, with no OS_*/CINDER* variables
from the environment."""
import os
import re
import shutil
import subprocess
import sys


def executable():
    beside = os.path.join(os.path.dirname(sys.executable), 'cinder')
    return beside if os.path.exists(beside) else shutil.which('cinder')


def run(test, endpoint, *args, user='user-a', project='project-a',
        version=None, check=True):
    """``cinder args...``; ``test`` fails (showing the output) if the
    command fails and ``check`` is true."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('OS_', 'CINDER'))}
    command = [executable(), '--os-auth-type', 'noauth',
               '--os-endpoint', endpoint, '--os-project-id', project,
               '--os-user-id', user]
    if version:
        command += ['--os-volume-api-version', version]
    result = subprocess.run(command + list(args), env=env,
                            capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        test.fail('%s failed (%d):\n%s%s' % (
            ' '.join(args), result.returncode, result.stdout, result.stderr))
    return result


def field(table, name):
    """The value of row ``name`` in the CLI's property table, or None."""
    match = re.search(r'^\|\s*%s\s*\|\s*(.*?)\s*\|$' % re.escape(name),
                      table, re.M)
    return match.group(1) if match else None
