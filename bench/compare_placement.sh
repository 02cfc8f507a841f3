#!/usr/bin/env bash
# volapi's placement API against OpenStack Placement 16.0.0: claims of new
# consumers (PUT /allocations/{uuid}, microversion 1.28).
#
#   bench/compare_placement.sh PG_ADMIN_URL
#   e.g. bench/compare_placement.sh postgresql://volapi:volapi@127.0.0.1:5433/postgres
#
# Sets everything up from scratch beside each other on this machine and one
# PostgreSQL (PG_ADMIN_URL: a user allowed to CREATE DATABASE): Placement
# 16.0.0 from a virtualenv and volapi's placement-only application
# (volapi.wsgi.placement, built at import, which uWSGI needs too),
# each under the same WSGI server with the same settings (127.0.0.1 only, noauth2,
# a fresh database with max_pool_size 20). Then runs bench/allocations.py
# against volapi, then Placement, ROUNDS times (each run makes 21 providers
# of its own), and prints a summary. Everything it started or created
# (servers, databases, the state directory) is removed on exit; KEEP=1
# keeps the state directory (configuration and logs).
#
# Reading the result: per client count and for the contention case (32
# clients on one provider), the median over rounds of successful claims/s
# and of the servers' CPU ms per successful claim (server master +
# workers, from /proc, over each measurement), the ratios "volapi ÷
# Placement claims/s" and "Placement ÷ volapi CPU ms" (both read "volapi
# is N times better"), the median 409s (lost generation races), and each
# run's invariant check (sum of allocations == usage <= capacity). The exit
# status is 1 when an invariant check failed. On a shared machine claims/s
# swing with other processes' load; the CPU per claim is the steadier
# figure.
#
# Environment: SERVER (gunicorn, or uwsgi: both sides under the same),
# VENV (/tmp/placement-venv; made with pip when it has no
# placement-manage), ROUNDS (3), DURATION (10 s per measurement, the
# contention case too), CLIENTS (1,8,32), WORKERS (2), THREADS (16),
# KEEPALIVE (120 s), KEEP (0), DRIVER (volapi's PostgreSQL driver:
# psycopg, that is psycopg 3, or psycopg2; the reference runs on psycopg2,
# the driver it supports).
set -euo pipefail

# shellcheck source=bench/compare_common.sh
. "$(dirname "$0")/compare_common.sh"
compare_args "$@"
NAME=placement

VENV=${VENV:-/tmp/placement-venv}
THREADS=${THREADS:-16}

compare_init
reference_venv placement-manage openstack-placement==16.0.0

PLACEMENT_DB=compare_placement_$SUFFIX
VOLAPI_DB=compare_volapi_$SUFFIX
create_database "$PLACEMENT_DB"
create_database "$VOLAPI_DB"
pick_ports
PLACEMENT_PORT=$REFERENCE_PORT

# -- Placement: placement.wsgi.api reads $OS_PLACEMENT_CONFIG_DIR/placement.conf.
mkdir -p "$STATE/placement"
cat > "$STATE/placement/placement.conf" <<EOF
[DEFAULT]
log_file = $STATE/placement/placement.log

[placement_database]
connection = $(sqlalchemy_url "$PLACEMENT_DB" psycopg2)
max_pool_size = 20

[api]
auth_strategy = noauth2
EOF
logged "$STATE/placement" db-sync "$VENV/bin/placement-manage" \
    --config-file "$STATE/placement/placement.conf" db sync

# -- volapi's placement alone (the volume API is not on the request path).
mkdir -p "$STATE/volapi"
cat > "$STATE/volapi/volapi.conf" <<EOF
[DEFAULT]
log_file = $STATE/volapi/volapi.log

[database]
connection = $(sqlalchemy_url "$VOLAPI_DB" "$DRIVER")
max_pool_size = 20

[placement]
auth_strategy = noauth2
EOF
logged "$STATE/volapi" db-sync \
    volapi-manage --config-file "$STATE/volapi/volapi.conf" db sync

# -- Both under the same server, the same settings.
serve "$STATE/placement" placement.wsgi.api:application "$PLACEMENT_PORT" \
    "$THREADS" "$VENV" OS_PLACEMENT_CONFIG_DIR="$STATE/placement"
PLACEMENT_PID=$SERVER_PID
serve "$STATE/volapi" volapi.wsgi.placement:application "$VOLAPI_PORT" \
    "$THREADS" '' VOLAPI_CONFIG_FILE="$STATE/volapi/volapi.conf"
VOLAPI_PID=$SERVER_PID

LOG=$STATE/runs.log
{
    echo "new-consumer claims: volapi http://127.0.0.1:$VOLAPI_PORT against" \
         "Placement $REFERENCE_VERSION http://127.0.0.1:$PLACEMENT_PORT"
    describe_setup "$THREADS"
} | tee "$LOG"
# Warm-up, not counted: each worker's first requests load code and open
# database connections (it also makes 21 providers on each).
for port in "$VOLAPI_PORT" "$PLACEMENT_PORT"; do
    python3 "$BENCH_DIR/allocations.py" "http://127.0.0.1:$port" \
        --clients 8 --duration 1 --contention-duration 1 \
        >> "$STATE/warm-up.out" 2>&1
done
for round in $(seq 1 "$ROUNDS"); do
    for target in volapi placement; do
        if [ "$target" = volapi ]; then
            port=$VOLAPI_PORT pid=$VOLAPI_PID
        else
            port=$PLACEMENT_PORT pid=$PLACEMENT_PID
        fi
        run_header "$round" "$target" | tee -a "$LOG"
        # allocations.py exits 1 when the invariant is violated: the
        # summary reports it; a run that printed no invariant line failed.
        python3 "$BENCH_DIR/compare_summary.py" server-cpu \
            --server-pid "$pid" -- python3 -u "$BENCH_DIR/allocations.py" \
            "http://127.0.0.1:$port" --clients "$CLIENTS" \
            --duration "$DURATION" --contention-duration "$DURATION" 2>&1 \
            | tee -a "$LOG" || true
        sed -n '/^=== round '"$round $target"' /,$p' "$LOG" \
            | grep -q '^invariant:' \
            || { echo "the run against $target failed" >&2; exit 1; }
    done
done
echo "=== end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOG"
python3 "$BENCH_DIR/compare_summary.py" placement "$LOG"
