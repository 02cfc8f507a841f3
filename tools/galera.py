#!/usr/bin/env python3
"""A three-node MariaDB Galera cluster on 127.0.0.1, for the multi-master
lane (tests/functional/test_galera.py): Debian's ``mariadb-server`` and
``galera-4``, each node a ``mariadbd`` of ours in a state directory of its
own, on ports of its own (never the shared server).

    python tools/galera.py start STATE_DIR   # prints the nodes' URLs (JSON)
    python tools/galera.py rejoin STATE_DIR N   # node N, after a kill
    python tools/galera.py stop STATE_DIR

Node 1 is made and set up alone, stopped, and its data directory copied
to nodes 2 and 3: all three then hold the same state (grastate.dat), so
when node 1 bootstraps the cluster again the others join without a state
transfer. Only the PIDs recorded in STATE_DIR are ever signalled.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

PROVIDER = '/usr/lib/galera/libgalera_smm.so'
NODES = 3
URL = 'mysql+pymysql://volapi:volapi@127.0.0.1:%d/volapi?charset=utf8mb4'
SETUP = """
CREATE DATABASE IF NOT EXISTS volapi CHARACTER SET utf8mb4
    COLLATE utf8mb4_general_ci;
CREATE USER IF NOT EXISTS 'volapi'@'127.0.0.1' IDENTIFIED BY 'volapi';
CREATE USER IF NOT EXISTS 'volapi'@'localhost' IDENTIFIED BY 'volapi';
GRANT ALL PRIVILEGES ON *.* TO 'volapi'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'volapi'@'localhost';
"""


def free_ports(n):
    sockets = []
    for _ in range(n):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        sockets.append(s)
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def client(node_dir, sql):
    return subprocess.run(
        ['mariadb', '--no-defaults', '--protocol=socket',
         '--socket=%s' % os.path.join(node_dir, 'mysqld.sock'), '-uroot',
         '-N', '-e', sql], capture_output=True, text=True)


def status(node_dir, name):
    out = client(node_dir, "SHOW GLOBAL STATUS LIKE '%s'" % name)
    return out.stdout.split()[-1] if out.returncode == 0 and out.stdout \
        else None


def start_node(state, i, ports, bootstrap):
    node = os.path.join(state, 'node%d' % i)
    data = os.path.join(node, 'data')
    os.makedirs(os.path.join(node, 'tmp'), exist_ok=True)
    user = ['--user=root'] if os.getuid() == 0 else []
    if not bootstrap and os.getuid() == 0:
        # A joiner may be sent state by rsync, whose daemon drops root for
        # "nobody": the data must be nobody's to write (mariadbd, as root,
        # reads it all the same).
        os.chmod(node, 0o755)
        subprocess.run(['chown', '-R', 'nobody', data], check=True)
    if not os.path.exists(data):
        subprocess.run(['mariadb-install-db', '--no-defaults',
                        '--datadir=%s' % data, '--skip-test-db',
                        '--auth-root-authentication-method=normal'] + user,
                       check=True, capture_output=True, cwd=node)
    sql, gcomm, ist, sst = ports[i]
    peers = ','.join('127.0.0.1:%d' % ports[j][1] for j in ports)
    argv = ['mariadbd', '--no-defaults'] + user + [
        '--datadir=%s' % data, '--tmpdir=%s' % os.path.join(node, 'tmp'),
        '--socket=%s' % os.path.join(node, 'mysqld.sock'),
        '--pid-file=%s' % os.path.join(node, 'mysqld.pid'),
        '--log-error=%s' % os.path.join(node, 'mysqld.log'),
        '--bind-address=127.0.0.1', '--port=%d' % sql,
        '--skip-name-resolve', '--max-connections=300',
        '--binlog-format=ROW', '--default-storage-engine=InnoDB',
        '--innodb-autoinc-lock-mode=2', '--innodb-flush-log-at-trx-commit=0',
        '--innodb-lock-wait-timeout=10',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_general_ci',
        '--wsrep-on=ON', '--wsrep-provider=%s' % PROVIDER,
        '--wsrep-cluster-name=volapi-test',
        '--wsrep-cluster-address=gcomm://%s' % peers,
        '--wsrep-node-address=127.0.0.1:%d' % gcomm,
        '--wsrep-node-name=node%d' % i,
        '--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:%d;'
        'ist.recv_addr=127.0.0.1:%d' % (gcomm, ist),
        '--wsrep-sst-method=rsync',
        '--wsrep-sst-receive-address=127.0.0.1:%d' % sst,
    ]
    if bootstrap:
        argv.append('--wsrep-new-cluster')
    with open(os.path.join(node, 'stdout.log'), 'ab') as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                   cwd=node, start_new_session=True)
    with open(os.path.join(state, 'pid%d' % i), 'w') as f:
        f.write(str(process.pid))
    return node, process


def wait(predicate, what, process, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        if process.poll() is not None:
            raise RuntimeError('%s: mariadbd exited' % what)
        time.sleep(0.5)
    raise RuntimeError('timed out waiting for %s' % what)


def start(state):
    os.makedirs(state, exist_ok=True)
    all_ports = free_ports(4 * NODES)
    ports = {i: all_ports[4 * (i - 1):4 * i] for i in range(1, NODES + 1)}
    first, process = start_node(state, 1, ports, bootstrap=True)
    wait(lambda: status(first, 'wsrep_ready') == 'ON', 'node 1', process)
    out = client(first, SETUP)
    if out.returncode:
        raise RuntimeError(out.stderr)
    process.terminate()
    process.wait(120)
    for i in range(2, NODES + 1):
        node = os.path.join(state, 'node%d' % i)
        os.makedirs(node)
        shutil.copytree(os.path.join(first, 'data'),
                        os.path.join(node, 'data'), symlinks=True)
        os.chmod(state, 0o755)
    first, process = start_node(state, 1, ports, bootstrap=True)
    wait(lambda: status(first, 'wsrep_ready') == 'ON', 'node 1', process)
    for i in range(2, NODES + 1):
        node, joiner = start_node(state, i, ports, bootstrap=False)
        wait(lambda: status(node, 'wsrep_ready') == 'ON', 'node %d' % i,
             joiner)
    wait(lambda: status(first, 'wsrep_cluster_size') == str(NODES),
         'a cluster of %d' % NODES, process)
    with open(os.path.join(state, 'ports.json'), 'w') as f:
        json.dump(ports, f)
    urls = [URL % ports[i][0] for i in range(1, NODES + 1)]
    with open(os.path.join(state, 'urls.json'), 'w') as f:
        json.dump(urls, f)
    return urls


def rejoin(state, i):
    """Start node ``i`` again (after it was killed): it rejoins the
    cluster, receiving what it missed."""
    with open(os.path.join(state, 'ports.json')) as f:
        ports = {int(k): v for k, v in json.load(f).items()}
    node, process = start_node(state, i, ports, bootstrap=False)
    wait(lambda: status(node, 'wsrep_ready') == 'ON', 'node %d' % i,
         process)
    wait(lambda: status(node, 'wsrep_local_state_comment') == 'Synced',
         'node %d synced' % i, process)


def cert_failures(state):
    """Certification failures and brute-force aborts, summed over nodes:
    the conflicts multi-master writes met (each one retried by volapi)."""
    total = 0
    for i in range(1, NODES + 1):
        node = os.path.join(state, 'node%d' % i)
        for name in ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts'):
            value = status(node, name)
            total += int(value) if value and value.isdigit() else 0
    return total


def stop(state):
    pids = []
    for i in range(1, NODES + 1):
        path = os.path.join(state, 'pid%d' % i)
        if os.path.exists(path):
            with open(path) as f:
                pids.append(int(f.read()))
    for pid in reversed(pids):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            os.kill(pid, signal.SIGKILL)


def main(argv):
    command, state = argv[1], argv[2]
    if command == 'start':
        try:
            print(json.dumps(start(state)))
        except Exception:
            stop(state)
            raise
    elif command == 'stop':
        stop(state)
    elif command == 'rejoin':
        rejoin(state, int(argv[3]))
    elif command == 'cert-failures':
        print(cert_failures(state))
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
