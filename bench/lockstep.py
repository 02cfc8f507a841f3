"""What the lockstep benches (create_lockstep.py, candidates_lockstep.py)
share: their sides' processes, each with a tree's code on its PYTHONPATH,
and the turns they take.

A process (its database, its place on the machine) can be steadily 5-10%
slower than another running the same code, so each tree gets two
processes, started A, B, B, A, and the order of their turns is reversed
every round."""
import json
import os
import subprocess
import sys

ORDER = (0, 1, 1, 0)


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


def run(start_side, rounds, batch):
    """[answers of tree A, answers of tree B]: each process, in turn,
    is sent ``batch`` (a line) ``rounds`` times and answers a JSON line.
    ``start_side(0 or 1)`` starts one process of that tree."""
    children = []
    answers = [[], []]
    try:
        for side in ORDER:
            children.append(start_side(side))
        for i in range(rounds):
            turns = range(len(ORDER)) if i % 2 == 0 \
                else reversed(range(len(ORDER)))
            for child in turns:
                children[child].stdin.write('%d\n' % batch)
                children[child].stdin.flush()
                answers[ORDER[child]].append(
                    json.loads(children[child].stdout.readline()))
    finally:
        for child in children:
            child.stdin.close()
            child.wait()
    return answers
