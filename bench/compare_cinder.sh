#!/usr/bin/env bash
# volapi against OpenStack Cinder 29.0.0: os-reserve / os-unreserve.
#
#   bench/compare_cinder.sh PG_ADMIN_URL
#   e.g. bench/compare_cinder.sh postgresql://volapi:volapi@127.0.0.1:5433/postgres
#
# Sets everything up from scratch beside each other on this machine and one
# PostgreSQL (PG_ADMIN_URL: a user allowed to CREATE DATABASE): cinder-api
# 29.0.0 from a virtualenv and volapi from this working tree, each under
# the same WSGI server with the same settings (127.0.0.1 only), each with a fresh
# database holding the same 32 'available' volumes inserted with SQL (no
# volume service needed: reserve/unreserve only touch the database). Then
# runs bench/volume_actions.py against volapi, then Cinder, ROUNDS times,
# and prints a summary. Everything it started or created (servers,
# databases, the state directory) is removed on exit; KEEP=1 keeps the
# state directory (configuration and logs).
#
# Reading the result: the summary gives per client count the median over
# rounds of requests/s and of the servers' CPU ms per request (server
# master + workers, from /proc), and the ratios "volapi ÷ Cinder req/s" and
# "Cinder ÷ volapi CPU ms": both read "volapi is N times better". On a
# shared machine requests/s swing with other processes' load (see each
# run's load average); the CPU per request is the steadier figure.
#
# Environment: SERVER (gunicorn, or uwsgi: both sides under the same),
# VENV (/tmp/cinder-venv; made with pip when it has no
# cinder-api), ROUNDS (3), DURATION (10 s per client count), CLIENTS
# (1,8,32), WORKERS (2), THREADS (8), KEEPALIVE (120 s), KEEP (0), DRIVER
# (volapi's PostgreSQL driver: psycopg, that is psycopg 3, or psycopg2;
# the reference runs on psycopg2, the driver it supports).
set -euo pipefail

# shellcheck source=bench/compare_common.sh
. "$(dirname "$0")/compare_common.sh"
compare_args "$@"
NAME=cinder

VENV=${VENV:-/tmp/cinder-venv}
THREADS=${THREADS:-8}
VOLUMES=32
VOLUME_HOST='compare@bench#bench'

compare_init
reference_venv cinder-api cinder==29.0.0

CINDER_DB=compare_cinder_$SUFFIX
VOLAPI_DB=compare_volapi_$SUFFIX
create_database "$CINDER_DB"
create_database "$VOLAPI_DB"
pick_ports
CINDER_PORT=$REFERENCE_PORT

# -- Cinder: noauth (token "user:project"), no message broker, project ids
# that are not keystone UUIDs ("bench") allowed in URLs.
mkdir -p "$STATE/cinder/.cinder" "$STATE/cinder/state" "$STATE/cinder/locks"
cat > "$STATE/cinder/.cinder/cinder.conf" <<EOF
[DEFAULT]
auth_strategy = noauth
transport_url = fake://
api_paste_config = $VENV/etc/cinder/api-paste.ini
state_path = $STATE/cinder/state
host = compare
log_file = $STATE/cinder/cinder-api.log
debug = false
project_id_regex = [0-9a-zA-Z_\-]+

[database]
connection = $(sqlalchemy_url "$CINDER_DB" psycopg2)
# As many pooled connections as a worker has threads: with oslo.db's
# default of 5, each burst opens and closes overflow connections.
max_pool_size = $THREADS

[oslo_concurrency]
lock_path = $STATE/cinder/locks

[coordination]
backend_url = file://$STATE/cinder/state
EOF
# cinder.wsgi.api reads ~/.cinder/cinder.conf (HOME below).
logged "$STATE/cinder" db-sync env -C "$STATE/cinder" HOME="$STATE/cinder" \
    "$VENV/bin/cinder-manage" --config-file "$STATE/cinder/.cinder/cinder.conf" \
    db sync

# -- volapi: its noauth, the in-process fake:// transport (nothing is cast).
mkdir -p "$STATE/volapi"
cat > "$STATE/volapi/volapi.conf" <<EOF
[DEFAULT]
host = compare
state_path = $STATE/volapi
log_file = $STATE/volapi/volapi.log

[api]
auth_strategy = noauth

[database]
connection = $(sqlalchemy_url "$VOLAPI_DB" "$DRIVER")
max_pool_size = $THREADS
EOF
logged "$STATE/volapi" db-sync \
    volapi-manage --config-file "$STATE/volapi/volapi.conf" db sync

# -- The same volumes in both databases, as a volume service leaves them
# after a create: available, detached, of the __DEFAULT__ type (which both
# db syncs make). Cinder's table has two more required flags.
VOLUME_IDS=$(python3 -c "import uuid
print(','.join(str(uuid.uuid4()) for _ in range($VOLUMES)))")
insert_volumes() {   # DATABASE EXTRA_COLUMNS EXTRA_VALUES
    psql "$(database_url "$1")" -qAt -v ON_ERROR_STOP=1 \
        -v ids="$VOLUME_IDS" -v host="$VOLUME_HOST" <<EOF
INSERT INTO volumes (id, created_at, updated_at, launched_at, deleted,
    user_id, project_id, host, size, availability_zone, status,
    attach_status, display_name, volume_type_id, bootable, multiattach,
    replication_status $2)
SELECT id, now(), now(), now(), false, 'bench', 'bench', :'host', 1, 'nova',
    'available', 'detached', 'bench-' || n,
    (SELECT id FROM volume_types WHERE name = '__DEFAULT__' AND NOT deleted),
    false, false, 'disabled' $3
FROM unnest(string_to_array(:'ids', ',')) WITH ORDINALITY AS v(id, n);
EOF
}
insert_volumes "$CINDER_DB" ', shared_targets, use_quota' ', true, true'
insert_volumes "$VOLAPI_DB" '' ''

# -- Both under the same server, the same settings.
serve "$STATE/cinder" cinder.wsgi.api:application "$CINDER_PORT" \
    "$THREADS" "$VENV" HOME="$STATE/cinder"
CINDER_PID=$SERVER_PID
serve "$STATE/volapi" volapi.wsgi.api:application "$VOLAPI_PORT" "$THREADS" '' \
    VOLAPI_CONFIG_FILE="$STATE/volapi/volapi.conf"
VOLAPI_PID=$SERVER_PID

LOG=$STATE/runs.log
{
    echo "os-reserve/os-unreserve: volapi http://127.0.0.1:$VOLAPI_PORT" \
         "against Cinder $REFERENCE_VERSION http://127.0.0.1:$CINDER_PORT," \
         "$VOLUMES volumes each"
    describe_setup "$THREADS"
} | tee "$LOG"
# Warm-up, not counted: each worker's first requests load code and open
# database connections.
for port in "$VOLAPI_PORT" "$CINDER_PORT"; do
    python3 "$BENCH_DIR/volume_actions.py" "http://127.0.0.1:$port" \
        --clients 8 --duration 1 --volume-id "$VOLUME_IDS" \
        >> "$STATE/warm-up.out" 2>&1
done
for round in $(seq 1 "$ROUNDS"); do
    for target in volapi cinder; do
        if [ "$target" = volapi ]; then
            port=$VOLAPI_PORT pid=$VOLAPI_PID
        else
            port=$CINDER_PORT pid=$CINDER_PID
        fi
        run_header "$round" "$target" | tee -a "$LOG"
        python3 "$BENCH_DIR/volume_actions.py" "http://127.0.0.1:$port" \
            --clients "$CLIENTS" --duration "$DURATION" \
            --server-pids "$pid" --volume-id "$VOLUME_IDS" 2>&1 \
            | tee -a "$LOG"
    done
done
echo "=== end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOG"
python3 "$BENCH_DIR/compare_summary.py" volume "$LOG"
