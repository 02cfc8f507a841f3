# shellcheck shell=bash
# What bench/compare_cinder.sh and bench/compare_placement.sh share: a state
# directory, throw-away PostgreSQL databases, WSGI servers on 127.0.0.1
# with one set of settings (SERVER=gunicorn, the default, or SERVER=uwsgi,
# which is how devstack runs cinder-api and placement-api), and the clean-up that removes all of them on
# exit. Sourced, not run. The caller sets PG_ADMIN_URL and NAME (a word for
# the state directory) before calling compare_init.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$BENCH_DIR")

# volapi's PostgreSQL driver (psycopg, i.e. psycopg 3, or psycopg2); the
# OpenStack service runs on psycopg2, the driver it supports.
DRIVER=${DRIVER:-psycopg}

# Server settings, the same for volapi and for the OpenStack service.
SERVER=${SERVER:-gunicorn}
WORKERS=${WORKERS:-2}
KEEPALIVE=${KEEPALIVE:-120}   # seconds; longer than any idle gap of a bench
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-1,8,32}

SERVER_PIDS=()      # server masters started here
DATABASES=()        # databases created here
STATE=''

# compare_args "$@": the calling script's one argument, PG_ADMIN_URL, or
# its usage (the comment at its top) and exit 2.
compare_args() {
    if [ $# -ne 1 ] || [[ $1 == -h || $1 == --help || -z $1 ]]; then
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
        exit 2
    fi
    PG_ADMIN_URL=$1
}

compare_init() {
    case "$SERVER" in
        gunicorn|uwsgi) ;;
        *) echo "SERVER must be gunicorn or uwsgi" >&2; exit 2 ;;
    esac
    case "$PG_ADMIN_URL" in
        postgresql://*|postgres://*) ;;
        *) echo "PG_ADMIN_URL must be a postgresql:// URL" >&2; exit 2 ;;
    esac
    for tool in psql curl python3; do
        command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
    done
    STATE=$(mktemp -d "/tmp/compare-$NAME.XXXXXX")
    # Ends the names of the databases made here (SC2034: the callers use it).
    # shellcheck disable=SC2034
    SUFFIX=$(python3 -c 'import secrets; print(secrets.token_hex(4))')
    trap compare_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# Stops the servers (TERM, then KILL after 20 s, workers included), drops
# the databases, removes the state directory unless KEEP=1.
compare_cleanup() {
    local status=$? pid workers waited db
    set +e
    for pid in "${SERVER_PIDS[@]}"; do
        kill -0 "$pid" 2>/dev/null || continue
        workers=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null)
        kill -TERM "$pid"
        for waited in $(seq 1 40); do
            kill -0 "$pid" 2>/dev/null || continue 2
            sleep 0.5
        done
        echo "server $pid still running after ${waited} tries: killed" >&2
        # shellcheck disable=SC2086  # a list of PIDs
        kill -KILL "$pid" $workers 2>/dev/null
    done
    for db in "${DATABASES[@]}"; do
        psql "$PG_ADMIN_URL" -qAt -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" \
            || echo "could not drop database $db" >&2
    done
    if [ -n "$STATE" ]; then
        if [ "${KEEP:-0}" = 1 ]; then
            echo "kept the configuration and logs in $STATE" >&2
        else
            rm -rf "$STATE"
        fi
    fi
    exit "$status"
}

# The URL of database $1 on the server of PG_ADMIN_URL (query string kept).
database_url() {
    local base=${PG_ADMIN_URL%%\?*} query=''
    [[ $PG_ADMIN_URL == *\?* ]] && query="?${PG_ADMIN_URL#*\?}"
    echo "${base%/*}/$1$query"
}

# Database $1 as an SQLAlchemy URL with driver $2.
sqlalchemy_url() {
    local url
    url=$(database_url "$1")
    echo "postgresql+$2://${url#*://}"
}

# Installs PostgreSQL driver $2 (psycopg or psycopg2) with the pip of
# python $1 if that python lacks it.
ensure_driver() {
    local package=psycopg2-binary
    [ "$2" = psycopg ] && package='psycopg[binary]'
    "$1" -c "import $2" 2>/dev/null || "$1" -m pip install -q "$package"
}

# reference_venv EXECUTABLE REQUIREMENT: the OpenStack service in $VENV,
# made with pip (REQUIREMENT, e.g. cinder==29.0.0, and gunicorn) when it
# has no bin/EXECUTABLE; both sides' drivers installed if missing. Sets
# REFERENCE_VERSION to the installed version.
# The caller sets VENV; REFERENCE_VERSION is for it (SC2153, SC2034).
# shellcheck disable=SC2153,SC2034
reference_venv() {
    local package=${2%%==*}
    if [ ! -x "$VENV/bin/$1" ]; then
        echo "installing $2 in $VENV ..."
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q "$2" gunicorn
    fi
    ensure_driver "$VENV/bin/python" psycopg2
    ensure_driver python3 "$DRIVER"
    REFERENCE_VERSION=$("$VENV/bin/python" -c \
        'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' \
        "$package")
}

# logged DIR NAME COMMAND ...: runs COMMAND with its output in DIR/NAME.out;
# if it fails, shows the end of that output and exits.
logged() {
    local out=$1/$2.out
    shift 2
    "$@" > "$out" 2>&1 || { tail -n 20 "$out" >&2; exit 1; }
}

# Creates database $1 (a name with $SUFFIX in it), remembered for the
# clean-up.
create_database() {
    psql "$PG_ADMIN_URL" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $1"
    DATABASES+=("$1")
}

# The path of tool $1 installed beside python3, the interpreter that has
# volapi (not a pyenv shim: its PID must be the server's).
python_tool() {
    python3 -c 'import os, sys
print(os.path.join(os.path.dirname(sys.executable), sys.argv[1]))' "$1"
}

# Two different TCP ports free on 127.0.0.1 at this moment: sets
# REFERENCE_PORT and VOLAPI_PORT.
# shellcheck disable=SC2034  # the callers use both
pick_ports() {
    read -r REFERENCE_PORT VOLAPI_PORT < <(python3 -c 'import socket
first, second = socket.socket(), socket.socket()
first.bind(("127.0.0.1", 0))
second.bind(("127.0.0.1", 0))
print(first.getsockname()[1], second.getsockname()[1])')
}

# write_gunicorn_conf DIR WSGI_APP PORT THREADS: DIR/gunicorn.conf.py, read
# by gunicorn from its working directory (cinder-api and placement parse
# sys.argv with oslo.config, so gunicorn gets no command-line options).
write_gunicorn_conf() {
    cat > "$1/gunicorn.conf.py" <<EOF
wsgi_app = '$2'
bind = '127.0.0.1:$3'
workers = $WORKERS
threads = $4
worker_class = 'gthread'
keepalive = $KEEPALIVE
graceful_timeout = 10
pidfile = '$1/gunicorn.pid'
EOF
}

# serve DIR WSGI_APP PORT THREADS VENV [VAR=value ...]: runs WSGI_APP
# (module:callable) under $SERVER in DIR with the environment additions,
# from virtualenv VENV ('' for volapi's own interpreter), output in
# DIR/server.out; waits until it answers HTTP on PORT; sets SERVER_PID to
# the master's PID.
serve() {
    local dir=$1 app=$2 port=$3 threads=$4 venv=$5
    shift 5
    if [ "$SERVER" = gunicorn ]; then
        write_gunicorn_conf "$dir" "$app" "$port" "$threads"
        local gunicorn=$venv/bin/gunicorn
        [ -n "$venv" ] || gunicorn=$(python_tool gunicorn)
        start_server "$dir" "$port" "$gunicorn" -- "$@"
    else
        # --die-on-term: uWSGI's master reloads on TERM otherwise.
        start_server "$dir" "$port" "$(python_tool uwsgi)" \
            --master --die-on-term --http11-socket "127.0.0.1:$port" \
            --so-keepalive --module "$app" --processes "$WORKERS" \
            --threads "$threads" --disable-logging \
            ${venv:+--home "$venv"} -- "$@"
    fi
}

# start_server DIR PORT COMMAND ... -- [VAR=value ...]
start_server() {
    local dir=$1 port=$2 waited command=()
    shift 2
    while [ "$1" != -- ]; do command+=("$1"); shift; done
    shift
    (cd "$dir" && exec env "$@" "${command[@]}") \
        > "$dir/server.out" 2>&1 < /dev/null &
    SERVER_PID=$!
    SERVER_PIDS+=("$SERVER_PID")
    for waited in $(seq 1 240); do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "$SERVER in $dir exited; its output:" >&2
            tail -n 30 "$dir/server.out" >&2
            exit 1
        fi
        if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 \
                "http://127.0.0.1:$port/")" != 000 ]; then
            return 0
        fi
        sleep 0.5
    done
    echo "$SERVER in $dir does not answer after ${waited} tries" >&2
    exit 1
}

# One line for the log: what ran, where, when.
describe_setup() {
    local head dirty
    head=$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')
    dirty=$(git -C "$REPO_DIR" status --porcelain --untracked-files=no \
        2>/dev/null | wc -l)
    echo "volapi HEAD $head ($dirty files changed in the working tree)," \
         "$(nproc) CPUs, $SERVER $WORKERS workers x $1 threads" \
         "(keep-alive), ${DURATION}s per measurement," \
         "$ROUNDS rounds, PostgreSQL driver: volapi $DRIVER, reference psycopg2"
}

# The header of one run: round, target, time, load average.
run_header() {
    echo "=== round $1 $2 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
}
