"""What the lockstep benches (create_lockstep.py, candidates_lockstep.py)
share: one side's process, a tree's code on its PYTHONPATH."""
import os
import subprocess
import sys


def start(script, tree, *args, cwd=None):
    """``script`` run as ``script TREE TREE --serve ARGS...`` with ``tree``
    on its PYTHONPATH, once it says it is ready: its stdin and stdout are
    pipes of text lines."""
    env = dict(os.environ, PYTHONPATH=tree)
    child = subprocess.Popen(
        [sys.executable, os.path.abspath(script), tree, tree, '--serve']
        + list(args), cwd=cwd, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True)
    line = child.stdout.readline()
    if line.strip() != 'ready':
        raise RuntimeError('%s did not start: %r' % (tree, line))
    return child
