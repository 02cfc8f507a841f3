#!/usr/bin/env python3
"""CPU a volume worker's RPC server spends per create_volume cast, apart
from the operation itself: receiving it from RabbitMQ, acking it, handing it
to the executor, rebuilding the context and the Volume, dispatching.

    # VOLAPI_TEST_RABBIT_URL set, as for tools/run-tests
    PYTHONPATH=$PWD python bench/worker_rpc_cpu.py [--casts 1000] \\
        [--rate 100] [--rounds 3] [--option 'section.name=value' ...]

Per round, a child process runs rpc.server.RPCServer as volapi-volume
does (its thread pool, the worker's context class and access policy),
with an endpoint whose create_volume does nothing; this process casts
--casts volumes, shaped as volume create casts them, at --rate per second
through rpc.volume.VolumeWorkerClient. The child prints the user and
system CPU time it spent per cast, from its first cast to its last, how
that splits between the listener thread, the pool's threads and the
others, and its context switches per cast. --option sets a configuration
option of the child (e.g. DEFAULT.executor_thread_pool_size=8).
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import scratch

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = 'rpcbench@file'
# Lines of the serving process's output meant for this one (its log goes
# there too).
READY = 'rpcbench: ready'
RESULT = 'rpcbench: '


def read_line(child, prefix):
    for line in child.stdout:
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    raise RuntimeError('the serving process ended (exit %s)' % child.wait())


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--casts', type=int, default=1000)
    p.add_argument('--rate', type=float, default=100.0)
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--option', action='append', default=[],
                   help='section.name=value for the serving process')
    p.add_argument('--serve', nargs=2, metavar=('TOPIC', 'CONF'),
                   help=argparse.SUPPRESS)
    return p.parse_args(argv)


def write_conf(run_dir, rabbit_url, topic, options):
    sections = {'DEFAULT': {'host': 'rpcbench', 'transport_url': rabbit_url,
                            'volume_topic': topic, 'state_path': run_dir},
                'oslo_messaging_rabbit': {
                    'rabbit_transient_queues_ttl': '60'}}
    for option in options:
        name, _, value = option.partition('=')
        section, _, name = name.rpartition('.')
        sections.setdefault(section or 'DEFAULT', {})[name] = value
    path = os.path.join(run_dir, 'volapi.conf')
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            f.writelines('%s = %s\n' % item for item in values.items())
    return path


def usage():
    """(user s, system s, context switches, {thread group: CPU s}) of this
    process so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return (r.ru_utime, r.ru_stime, r.ru_nvcsw + r.ru_nivcsw,
            thread_groups())


def thread_groups():
    """CPU seconds of the live threads so far, by what they run: the
    listener's (it receives, acks and hands over each message), the
    pool's (they dispatch), the others'."""
    groups = {'listener': 0.0, 'pool': 0.0, 'other': 0.0}
    for thread in threading.enumerate():
        try:
            with open('/proc/self/task/%d/schedstat' % thread.native_id) as f:
                seconds = int(f.read().split()[0]) / 1e9
        except (OSError, TypeError):
            continue
        # The pool's threads are named after the server (rpc.server);
        # futurist's, of the 'threading' executor, are ThreadWorkers.
        name = thread.name
        group = 'listener' if '_runner' in name else 'pool' if (
            name.startswith('rpc-')
            or type(thread).__name__ == 'ThreadWorker') else 'other'
        groups[group] += seconds
    return groups


def serve(topic, conf_path, casts):
    """The child: serve until ``casts`` + 1 casts arrived (the first one
    starts the measure), print the measure as JSON."""
    import rpc  # noqa: F401 (the threading backend, before oslo.messaging)
    import oslo_messaging

    import objects
    from rpc import server as rpc_server
    from rpc import transport as rpc_transport
    from rpc import volume as rpc_volume
    from volapi import config
    from volapi import context as volapi_context

    conf = config.setup([conf_path], prog='worker_rpc_cpu')
    objects.register_all()
    done = threading.Event()
    lock = threading.Lock()
    marks = []
    seen = [0]

    class Endpoint:
        target = oslo_messaging.Target(version=rpc_volume.RPC_API_VERSION)

        def create_volume(self, context, volume):
            with lock:
                seen[0] += 1
                if seen[0] in (1, casts + 1):
                    marks.append((time.monotonic(),) + usage())
                if len(marks) == 2:
                    done.set()

    server = rpc_server.RPCServer(
        rpc_transport.get_transport(conf), topic, SERVER, [Endpoint()],
        context_class=volapi_context.RequestContext,
        exposed=rpc_volume.SENT)
    server.start()
    print(READY, flush=True)
    done.wait(600)
    (t0, u0, s0, c0, g0), (t1, u1, s1, c1, g1) = marks
    print(RESULT + json.dumps({
        'seconds': t1 - t0,
        'user_ms': 1000 * (u1 - u0) / casts,
        'system_ms': 1000 * (s1 - s0) / casts,
        'switches': (c1 - c0) / casts,
        'groups_ms': {name: 1000 * (g1[name] - g0[name]) / casts
                      for name in g1},
        'threads': threading.active_count()}), flush=True)
    server.stop()
    rpc_transport.cleanup()


def a_volume(ctxt):
    """A Volume as volume create casts it: every column set, as inserted."""
    import objects
    from oslo_utils import timeutils
    volume = objects.Volume(
        ctxt, id=str(uuid.uuid4()), size=1,
        volume_type_id=str(uuid.uuid4()), multiattach=False,
        user_id=ctxt.user_id, project_id=ctxt.project_id,
        availability_zone='nova', display_name=None,
        display_description=None, snapshot_id=None, source_volid=None,
        bootable=False, metadata={}, deleted=False,
        host='%s#bench' % SERVER, cluster_name=None, status='creating',
        attach_status='detached', created_at=timeutils.utcnow())
    for name in volume._column_fields():
        if not volume.obj_attr_is_set(name):
            column = volume.model.__table__.c[name]
            setattr(volume, name, column.default.arg
                    if column.default is not None
                    and not callable(column.default.arg) else None)
    volume.obj_reset_changes()
    return volume


def one_round(args, rabbit_url):
    import objects
    from rpc import transport as rpc_transport
    from rpc import volume as rpc_volume
    from volapi import config
    from volapi import context as volapi_context

    run_dir = tempfile.mkdtemp(prefix='volapi-rpcbench-')
    topic = 'volapi-rpcbench-%s' % scratch.token()
    child = None
    try:
        conf_path = write_conf(run_dir, rabbit_url, topic, args.option)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, [REPO, os.environ.get('PYTHONPATH')])))
        child = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), '--casts',
             str(args.casts), '--serve', topic, conf_path],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
            text=True)
        read_line(child, READY)
        conf = config.setup([write_conf(
            run_dir, rabbit_url, topic, [])], prog='worker_rpc_cpu')
        objects.register_all()
        ctxt = volapi_context.RequestContext(user_id=uuid.uuid4().hex,
                                             project_id=uuid.uuid4().hex)
        client = rpc_volume.VolumeWorkerClient(conf=conf)
        start = time.monotonic()
        for number in range(args.casts + 1):
            client.create_volume(ctxt, a_volume(ctxt))
            delay = start + (number + 1) / args.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        result = json.loads(read_line(child, RESULT))
        child.wait(60)
        rpc_transport.cleanup()
        return result
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()
        scratch.delete_queues(rabbit_url,
                              [topic, '%s.%s' % (topic, SERVER)])
        shutil.rmtree(run_dir, ignore_errors=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    sys.path.insert(0, REPO)
    if args.serve:
        serve(args.serve[0], args.serve[1], args.casts)
        return
    import rpc  # noqa: F401 (the threading backend, before oslo.messaging)
    rabbit_url = os.environ.get('VOLAPI_TEST_RABBIT_URL')
    if not rabbit_url:
        raise SystemExit('VOLAPI_TEST_RABBIT_URL is not set: the bench '
                         'needs a RabbitMQ')
    print('%6s %8s %8s %8s %8s %9s %8s %8s %8s %8s' % (
        'round', 'casts/s', 'cpu ms', 'user', 'system', 'listener',
        'pool', 'other', 'switches', 'threads'))
    totals = []
    for number in range(1, args.rounds + 1):
        r = one_round(args, rabbit_url)
        total = r['user_ms'] + r['system_ms']
        totals.append(total)
        groups = r['groups_ms']
        print('%6d %8.1f %8.3f %8.3f %8.3f %9.3f %8.3f %8.3f %8.1f %8d' % (
            number, args.casts / r['seconds'], total, r['user_ms'],
            r['system_ms'], groups['listener'], groups['pool'],
            groups['other'], r['switches'], r['threads']))
        sys.stdout.flush()
    if len(totals) > 1:
        print('median %20.3f  (CPU ms per cast)' % statistics.median(totals))


if __name__ == '__main__':
    main()
