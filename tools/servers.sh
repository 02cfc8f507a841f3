#!/usr/bin/env bash
# Throwaway PostgreSQL 15, MariaDB and RabbitMQ servers for the volapi test
# suite.  Everything listens on 127.0.0.1 only and lives in one state dir.
#
# As a library (this is what tools/run-tests does):
#
#     . tools/servers.sh
#     trap volapi_servers_stop EXIT
#     volapi_servers_start postgresql mysql rabbitmq   # no args = all three
#     ... VOLAPI_TEST_PG_URL / VOLAPI_TEST_MYSQL_URL / VOLAPI_TEST_RABBIT_URL
#     volapi_servers_stop
#
# As a command:
#
#     eval "$(tools/servers.sh start)"   # prints "export ..." lines on stdout
#     ...                                # run whatever you like
#     tools/servers.sh stop              # stops what $VOLAPI_TEST_STATE records
#
#     tools/servers.sh run CMD ARGS...   # start, run CMD with the URLs, stop
#
#   VOLAPI_TEST_SERVERS="postgresql mysql rabbitmq" picks the servers for the
#   command forms.
#
# A server is started only if its URL variable is unset/empty, so you can
# point the tests at servers you already run:
#
#   VOLAPI_TEST_PG_URL      postgresql+psycopg://volapi:volapi@127.0.0.1:55432/volapi
#   VOLAPI_TEST_MYSQL_URL   mysql+pymysql://volapi:volapi@127.0.0.1:53306/volapi?charset=utf8mb4
#   VOLAPI_TEST_RABBIT_URL  rabbit://guest:guest@127.0.0.1:55672/
#
# Other knobs:
#   VOLAPI_TEST_STATE             state dir (default: a new mktemp -d dir,
#                                 deleted again by stop)
#   VOLAPI_TEST_PG_PORT           default 55432
#   VOLAPI_TEST_MYSQL_PORT        default 53306
#   VOLAPI_TEST_RABBIT_PORT       default 55672 (AMQP)
#   VOLAPI_TEST_RABBIT_DIST_PORT  default 25679 (Erlang distribution)
#   VOLAPI_TEST_EPMD_PORT         default 24369 (private epmd for our node;
#                                 the Erlang nodes never spawn their own)
#   VOLAPI_TEST_START_TIMEOUT     seconds to wait for each server (default 120)
#   VOLAPI_TEST_KEEP_STATE=1      keep the state dir (logs) after stop
#   VOLAPI_TEST_NO_APT=1          never apt-get install missing servers
#
# If a port was NOT set explicitly and its default is taken (e.g. another
# test run on the same machine), the next free port is used and the URL
# variables reflect it.  An explicitly set port that is taken is an error.
#
# Only processes started here are ever stopped, by the PIDs recorded in
# $VOLAPI_TEST_STATE/pids (each is checked against its expected process name
# before it is signalled).

# ---------------------------------------------------------------- helpers --

# Messages go to the stderr we had when loaded: a trap can fire while some
# command's stderr is redirected into a log file, and the messages of the
# clean-up must not vanish into it.  Servers get this fd closed.
if [ -z "${_VTS_LOGFD:-}" ]; then
    exec {_VTS_LOGFD}>&2
fi

_vts_log() { printf '[servers] %s\n' "$*" >&"$_VTS_LOGFD"; }
_vts_err() { printf '[servers] ERROR: %s\n' "$*" >&"$_VTS_LOGFD"; }

_vts_now() { date +%s.%N; }
_vts_since() { awk -v a="$1" -v b="$(_vts_now)" 'BEGIN { printf "%.1f", b - a }'; }

_vts_is_root() { [ "$(id -u)" = 0 ]; }

# True if something accepts TCP connections on 127.0.0.1:$1.
_vts_port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True if PID $1 is alive (zombies count as dead).
_vts_alive() {
    local pid=$1 state
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
    state=$(sed -e 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# True if PID $1 is alive and its /proc comm is $2.
_vts_pid_is() {
    _vts_alive "$1" || return 1
    [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}

# _vts_find_child PARENT_PID COMM -> echoes the pid of such a child, if any
_vts_find_child() {
    local f line pid rest
    for f in /proc/[0-9]*/stat; do
        read -r line < "$f" 2>/dev/null || continue
        pid=${line%% *}
        rest=${line##*) }                  # "state ppid pgrp ..."
        rest=${rest#* }
        if [ "${rest%% *}" = "$1" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]; then
            echo "$pid"
            return 0
        fi
    done
    return 1
}

# _vts_wait_gone PID SECONDS
_vts_wait_gone() {
    local pid=$1 t=$(( $2 * 10 ))
    while _vts_alive "$pid"; do
        (( t-- > 0 )) || return 1
        sleep 0.1
    done
    return 0
}

# _vts_log_tail FILE...  -- show the end of server logs on failure
_vts_log_tail() {
    local f
    for f in "$@"; do
        [ -s "$f" ] || continue
        printf '[servers] ---- last lines of %s ----\n' "$f" >&"$_VTS_LOGFD"
        tail -n 40 "$f" >&"$_VTS_LOGFD"
        printf '[servers] ----\n' >&"$_VTS_LOGFD"
    done
}

# _vts_pick_port VAR DEFAULT -> sets _VTS_PORT (no subshell, so the ports
# already handed out in this start-up are remembered in _VTS_CHOSEN_PORTS).
_vts_pick_port() {
    local var=$1 def=$2 p n=0
    _VTS_PORT=
    if [ -n "${!var:-}" ]; then
        p=${!var}
        if ! [[ $p =~ ^[0-9]+$ ]] || [ "$p" -lt 1 ] || [ "$p" -gt 65535 ]; then
            _vts_err "$var=$p is not a port number"
            return 1
        fi
        if _vts_port_busy "$p" || [[ " ${_VTS_CHOSEN_PORTS:-} " == *" $p "* ]]; then
            _vts_err "port $p (from $var) is already in use on 127.0.0.1"
            return 1
        fi
    else
        p=$def
        while _vts_port_busy "$p" || [[ " ${_VTS_CHOSEN_PORTS:-} " == *" $p "* ]]; do
            p=$((p + 1)); n=$((n + 1))
            if [ "$n" -gt 200 ] || [ "$p" -gt 65535 ]; then
                _vts_err "no free port near $def (set $var)"
                return 1
            fi
        done
        [ "$p" = "$def" ] || [ -n "${_VTS_PICK_QUIET:-}" ] \
            || _vts_log "port $def is taken; using $p instead (set $var to choose)"
    fi
    _VTS_CHOSEN_PORTS="${_VTS_CHOSEN_PORTS:-} $p"
    _VTS_PORT=$p
}

# Record a started process: _vts_record NAME PID COMM
_vts_record() {
    mkdir -p "$VOLAPI_TEST_STATE/pids"
    printf '%s %s\n' "$2" "$3" > "$VOLAPI_TEST_STATE/pids/$1"
}

# _vts_kill NAME GRACE_SECONDS [SIGNAL]  -- stop a recorded process by PID
_vts_kill() {
    local name=$1 grace=$2 sig=${3:-TERM} f pid comm
    f="$VOLAPI_TEST_STATE/pids/$name"
    [ -f "$f" ] || return 0
    read -r pid comm < "$f"
    if _vts_pid_is "$pid" "$comm"; then
        kill -s "$sig" "$pid" 2>/dev/null || true
        if ! _vts_wait_gone "$pid" "$grace"; then
            _vts_log "$name (pid $pid) did not stop after ${grace}s; sending SIGKILL"
            kill -s KILL "$pid" 2>/dev/null || true
            _vts_wait_gone "$pid" 10 || _vts_err "$name (pid $pid) survived SIGKILL"
        fi
    fi
    # Reap it if it was our own child, so no zombie is left behind.
    wait "$pid" 2>/dev/null || true
    rm -f "$f"
    return 0
}

# -------------------------------------------------------- installation ----

_vts_pg_bindir() {
    local d
    for d in "${VOLAPI_TEST_PG_BINDIR:-}" /usr/lib/postgresql/15/bin; do
        [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] \
            && { echo "$d"; return 0; }
    done
    if command -v pg_config >/dev/null 2>&1; then
        d=$(pg_config --bindir 2>/dev/null)
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    fi
    # shellcheck disable=SC2012
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -V -r); do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    done
    return 1
}

_vts_rabbit_bindir() {
    # Debian's /usr/sbin/rabbitmq-server is an "su rabbitmq" wrapper; use the
    # real scripts so the node runs as us, with our HOME and cookie.
    local d
    for d in "${VOLAPI_TEST_RABBIT_BINDIR:-}" /usr/lib/rabbitmq/bin; do
        [ -n "$d" ] && [ -x "$d/rabbitmq-server" ] && [ -x "$d/rabbitmqctl" ] \
            && { echo "$d"; return 0; }
    done
    d=$(command -v rabbitmq-server 2>/dev/null) || return 1
    d=$(dirname "$d")
    [ -x "$d/rabbitmqctl" ] && ! grep -q 'su rabbitmq' "$d/rabbitmq-server" 2>/dev/null \
        && { echo "$d"; return 0; }
    return 1
}

_vts_have_mysql() {
    command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || return 1
    command -v mariadb-install-db >/dev/null 2>&1 || return 1
    command -v mariadb >/dev/null 2>&1 || return 1
    return 0
}

# _vts_ensure_packages SERVER...  -- apt-get install what is missing
_vts_ensure_packages() {
    local s pkgs=() sudo=() created_policy=0 rc
    for s in "$@"; do
        case $s in
            postgresql) _vts_pg_bindir >/dev/null || pkgs+=(postgresql) ;;
            mysql) _vts_have_mysql || pkgs+=(mariadb-server) ;;
            rabbitmq) { _vts_rabbit_bindir >/dev/null && command -v epmd >/dev/null 2>&1; } \
                          || pkgs+=(rabbitmq-server) ;;
        esac
    done
    [ "${#pkgs[@]}" -gt 0 ] || return 0
    if [ "${VOLAPI_TEST_NO_APT:-0}" = 1 ] || ! command -v apt-get >/dev/null 2>&1; then
        _vts_err "missing server packages: ${pkgs[*]} (install them, or set the URL variables)"
        return 1
    fi
    if ! _vts_is_root; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            _vts_err "missing server packages: ${pkgs[*]}; run as root or: apt-get install -y ${pkgs[*]}"
            return 1
        fi
    fi
    _vts_log "installing ${pkgs[*]} with apt-get"
    # Keep the packages' maintainer scripts from starting system-wide
    # services (no systemd here; invoke-rc.d would start them otherwise).
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee /usr/sbin/policy-rc.d >/dev/null \
            && "${sudo[@]}" chmod 755 /usr/sbin/policy-rc.d && created_policy=1
    fi
    local t0; t0=$(_vts_now)
    rc=0
    { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
               --no-install-recommends "${pkgs[@]}"; } >&2 </dev/null || rc=$?
    if [ "$created_policy" = 1 ]; then "${sudo[@]}" rm -f /usr/sbin/policy-rc.d; fi
    if [ "$rc" != 0 ]; then
        _vts_err "apt-get install ${pkgs[*]} failed"
        return 1
    fi
    _vts_log "installed ${pkgs[*]} in $(_vts_since "$t0")s"
}

# ------------------------------------------------------------ state dir ---

_vts_init_state() {
    if [ -z "${VOLAPI_TEST_STATE:-}" ]; then
        VOLAPI_TEST_STATE=$(mktemp -d "${TMPDIR:-/tmp}/volapi-test.XXXXXX") || return 1
        : > "$VOLAPI_TEST_STATE/.created-by-servers-sh"
    else
        mkdir -p "$VOLAPI_TEST_STATE" || return 1
        VOLAPI_TEST_STATE=$(cd "$VOLAPI_TEST_STATE" && pwd) || return 1
    fi
    export VOLAPI_TEST_STATE
    # postgres (another OS user) must be able to traverse into it.
    chmod 755 "$VOLAPI_TEST_STATE" || return 1
    mkdir -p "$VOLAPI_TEST_STATE/pids"
    local f pid comm
    for f in "$VOLAPI_TEST_STATE"/pids/*; do
        [ -f "$f" ] || continue
        read -r pid comm < "$f"
        if _vts_pid_is "$pid" "$comm"; then
            _vts_err "$VOLAPI_TEST_STATE already has a running server ($(basename "$f"), pid $pid);" \
                     "stop it with: VOLAPI_TEST_STATE=$VOLAPI_TEST_STATE tools/servers.sh stop"
            return 1
        fi
        rm -f "$f"
    done
}

# ----------------------------------------------------------- PostgreSQL ---

_vts_as_pg() {
    if _vts_is_root; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

_vts_start_postgresql() {
    local t0 bindir port d data run log timeout=${VOLAPI_TEST_START_TIMEOUT:-120} pid
    t0=$(_vts_now)
    bindir=$(_vts_pg_bindir) || { _vts_err "PostgreSQL binaries not found"; return 1; }
    port=$_VTS_PG_PORT
    d="$VOLAPI_TEST_STATE/postgresql"
    data="$d/data"; run="$d/run"; log="$d/postgresql.log"
    rm -rf "$d"
    mkdir -p "$run" || return 1
    if _vts_is_root; then
        chown -R postgres: "$d" || return 1
        if ! runuser -u postgres -- test -w "$d"; then
            _vts_err "user postgres cannot write to $d; use a VOLAPI_TEST_STATE it can reach (e.g. under /tmp)"
            return 1
        fi
    fi
    chmod 700 "$d" || return 1
    _vts_log "postgresql: initdb in $data"
    if ! (cd "$d" && _vts_as_pg "$bindir/initdb" -D "$data" -U postgres -E UTF8 --no-locale \
              --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$d/initdb.log" 2>&1); then
        _vts_err "postgresql: initdb failed"
        _vts_log_tail "$d/initdb.log"
        return 1
    fi
    local q_run=${run//\'/\'\'}
    cat >> "$data/postgresql.conf" <<EOF

# --- volapi test settings (tools/servers.sh) ---
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$q_run'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
EOF
    _vts_log "postgresql: starting on 127.0.0.1:$port"
    if ! (cd "$d" && _vts_as_pg "$bindir/pg_ctl" -D "$data" -l "$log" -w -t "$timeout" start \
              >"$d/pg_ctl.log" 2>&1 {_VTS_LOGFD}>&-); then
        # Record it anyway so stop can clean up a half-started postmaster.
        pid=$(head -n1 "$data/postmaster.pid" 2>/dev/null)
        [ -n "$pid" ] && _vts_record postgresql "$pid" postgres
        if ! _vts_alive "$pid" && grep -qs 'Address already in use' "$log"; then
            return 2                        # port grabbed meanwhile: retry
        fi
        _vts_err "postgresql did not start within ${timeout}s"
        _vts_log_tail "$d/pg_ctl.log" "$log"
        return 1
    fi
    pid=$(head -n1 "$data/postmaster.pid" 2>/dev/null)
    if ! _vts_pid_is "$pid" postgres; then
        _vts_err "postgresql: cannot find postmaster pid in $data/postmaster.pid"
        _vts_log_tail "$log"
        return 1
    fi
    _vts_record postgresql "$pid" postgres
    if ! "$bindir/psql" -X -q -h "$run" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
             -c "CREATE ROLE volapi LOGIN PASSWORD 'volapi' CREATEDB SUPERUSER" \
             -c "CREATE DATABASE volapi OWNER volapi" >"$d/setup.log" 2>&1; then
        _vts_err "postgresql: creating role/database failed"
        _vts_log_tail "$d/setup.log" "$log"
        return 1
    fi
    # Final check: the exact thing the tests do (TCP + password).
    if ! PGPASSWORD=volapi PGCONNECT_TIMEOUT=10 "$bindir/psql" -X -q -h 127.0.0.1 -p "$port" \
             -U volapi -d volapi -c 'SELECT 1' >>"$d/setup.log" 2>&1; then
        _vts_err "postgresql: cannot connect as volapi over TCP"
        _vts_log_tail "$d/setup.log" "$log"
        return 1
    fi
    export VOLAPI_TEST_PG_URL="postgresql+psycopg://volapi:volapi@127.0.0.1:$port/volapi"
    : > "$VOLAPI_TEST_STATE/pids/.url-pg"
    _vts_log "postgresql: ready (pid $pid) in $(_vts_since "$t0")s"
}

_vts_stop_postgresql() {
    local d="$VOLAPI_TEST_STATE/postgresql" pid
    if [ ! -f "$VOLAPI_TEST_STATE/pids/postgresql" ] && [ -f "$d/data/postmaster.pid" ]; then
        # Interrupted between pg_ctl start and recording the pid.
        pid=$(head -n1 "$d/data/postmaster.pid" 2>/dev/null)
        [ -n "$pid" ] && _vts_record postgresql "$pid" postgres
    fi
    # SIGINT = "fast" shutdown.
    _vts_kill postgresql 30 INT
}

# -------------------------------------------------------------- MariaDB ---

_vts_mysql_client() {
    if command -v mariadb >/dev/null 2>&1; then echo mariadb; else echo mysql; fi
}

_vts_start_mysql() {
    local t0 port d data sock log timeout=${VOLAPI_TEST_START_TIMEOUT:-120} pid mariadbd client
    local userarg=() n
    t0=$(_vts_now)
    mariadbd=$(command -v mariadbd 2>/dev/null || echo /usr/sbin/mariadbd)
    client=$(_vts_mysql_client)
    port=$_VTS_MYSQL_PORT
    d="$VOLAPI_TEST_STATE/mysql"
    data="$d/data"; sock="$d/mysqld.sock"; log="$d/mysqld.log"
    rm -rf "$d"
    mkdir -p "$data" "$d/tmp" || return 1
    _vts_is_root && userarg=(--user=root)
    _vts_log "mysql: mariadb-install-db in $data"
    if ! (cd "$d" && mariadb-install-db --no-defaults --datadir="$data" "${userarg[@]}" \
              --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
              >"$d/install-db.log" 2>&1); then
        _vts_err "mysql: mariadb-install-db failed"
        _vts_log_tail "$d/install-db.log"
        return 1
    fi
    _vts_log "mysql: starting on 127.0.0.1:$port"
    (cd "$d" && exec "$mariadbd" --no-defaults "${userarg[@]}" \
        --datadir="$data" --tmpdir="$d/tmp" --socket="$sock" --pid-file="$d/mysqld.pid" \
        --log-error="$log" --bind-address=127.0.0.1 --port="$port" --skip-name-resolve \
        --innodb-flush-log-at-trx-commit=0 --skip-log-bin --max-connections=300 \
        --innodb-lock-wait-timeout=10 --innodb-doublewrite=0 \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
        </dev/null >>"$log" 2>&1 {_VTS_LOGFD}>&-) &
    pid=$!
    _vts_record mysql "$pid" mariadbd
    n=$((timeout * 5))
    until "$client" --no-defaults --protocol=socket --socket="$sock" -uroot \
              -e 'SELECT 1' >/dev/null 2>&1; do
        if ! _vts_alive "$pid"; then
            wait "$pid" 2>/dev/null || true
            if grep -qs 'Address already in use' "$log"; then return 2; fi   # retry
            _vts_err "mysql: mariadbd exited during start-up"
            _vts_log_tail "$log"
            return 1
        fi
        if (( n-- <= 0 )); then
            _vts_err "mysql: not accepting connections after ${timeout}s"
            _vts_log_tail "$log"
            return 1
        fi
        sleep 0.2
    done
    # The subshell exec'd mariadbd, so $! is mariadbd itself; double check.
    if ! _vts_pid_is "$pid" mariadbd; then
        _vts_err "mysql: pid $pid is not mariadbd"
        return 1
    fi
    if ! "$client" --no-defaults --protocol=socket --socket="$sock" -uroot >"$d/setup.log" 2>&1 <<'EOF'
CREATE DATABASE IF NOT EXISTS volapi CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
CREATE USER IF NOT EXISTS 'volapi'@'%' IDENTIFIED BY 'volapi';
CREATE USER IF NOT EXISTS 'volapi'@'localhost' IDENTIFIED BY 'volapi';
CREATE USER IF NOT EXISTS 'volapi'@'127.0.0.1' IDENTIFIED BY 'volapi';
GRANT ALL PRIVILEGES ON *.* TO 'volapi'@'%' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'volapi'@'localhost' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'volapi'@'127.0.0.1' WITH GRANT OPTION;
FLUSH PRIVILEGES;
EOF
    then
        _vts_err "mysql: creating user/database failed"
        _vts_log_tail "$d/setup.log" "$log"
        return 1
    fi
    if ! "$client" --no-defaults --protocol=tcp -h 127.0.0.1 -P "$port" -uvolapi -pvolapi \
             --connect-timeout=10 volapi -e 'SELECT 1' >>"$d/setup.log" 2>&1; then
        _vts_err "mysql: cannot connect as volapi over TCP"
        _vts_log_tail "$d/setup.log" "$log"
        return 1
    fi
    export VOLAPI_TEST_MYSQL_URL="mysql+pymysql://volapi:volapi@127.0.0.1:$port/volapi?charset=utf8mb4"
    : > "$VOLAPI_TEST_STATE/pids/.url-mysql"
    _vts_log "mysql: ready (pid $pid) in $(_vts_since "$t0")s"
}

_vts_stop_mysql() {
    _vts_kill mysql 60 TERM
}

# ------------------------------------------------------------- RabbitMQ ---

_VTS_RABBIT_NODE=volapi-test@localhost

# Run a rabbitmq CLI tool with the environment of our node.
_vts_rabbit_cli() {
    local tool=$1; shift
    local d="$VOLAPI_TEST_STATE/rabbitmq"
    (
        # shellcheck disable=SC1091
        . "$d/rabbitmq.env" || exit 1
        exec timeout -k 5 60 "$RABBIT_BINDIR/$tool" -n "$RABBITMQ_NODENAME" "$@"
    )
}

# A private epmd for our node: an explicitly chosen port that already has an
# epmd is shared (and left alone at stop); otherwise we start our own.
_vts_start_epmd() {
    local epmd eport=$_VTS_EPMD_PORT epid n log="$VOLAPI_TEST_STATE/epmd.log"
    epmd=$(command -v epmd 2>/dev/null) || { _vts_err "epmd not found"; return 1; }
    if [ "$_VTS_EPMD_SHARED" = 1 ]; then
        _vts_log "rabbitmq: using the already running epmd on port $eport"
        return 0
    fi
    ERL_EPMD_ADDRESS=127.0.0.1 "$epmd" -d -address 127.0.0.1 -port "$eport" \
        </dev/null >"$log" 2>&1 {_VTS_LOGFD}>&- &
    epid=$!
    _vts_record epmd "$epid" epmd
    n=100
    until "$epmd" -port "$eport" -names >/dev/null 2>&1; do
        if ! _vts_alive "$epid" || (( n-- <= 0 )); then
            _vts_err "rabbitmq: epmd did not start on 127.0.0.1:$eport (set VOLAPI_TEST_EPMD_PORT)"
            _vts_log_tail "$log"
            return 1
        fi
        sleep 0.1
    done
}

# Launch the node in the background; _vts_wait_rabbitmq waits for it, so the
# other servers can start in the meantime.
_vts_launch_rabbitmq() {
    local bindir port dport eport d
    bindir=$(_vts_rabbit_bindir) || { _vts_err "RabbitMQ scripts not found"; return 1; }
    port=$_VTS_RABBIT_PORT dport=$_VTS_RABBIT_DIST_PORT eport=$_VTS_EPMD_PORT
    d="$VOLAPI_TEST_STATE/rabbitmq"
    rm -rf "$d"
    mkdir -p "$d/mnesia" "$d/log" "$d/home" || return 1

    # Private Erlang cookie (HOME is the state dir, so ~/.erlang.cookie of
    # the real user is neither used nor created).
    od -An -N16 -tx1 /dev/urandom | tr -d ' \n' | tr 'a-f' 'A-F' > "$d/home/.erlang.cookie"
    chmod 400 "$d/home/.erlang.cookie"
    echo '[].' > "$d/enabled_plugins"      # no plugins, so no management UI
    : > "$d/rabbitmq-env.conf"             # ignore /etc/rabbitmq/rabbitmq-env.conf
    cat > "$d/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$port
loopback_users.guest = true
EOF
    cat > "$d/rabbitmq.env" <<EOF
export HOME='$d/home'
export RABBIT_BINDIR='$bindir'
export RABBITMQ_NODENAME='$_VTS_RABBIT_NODE'
export RABBITMQ_USE_LONGNAME=false
export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
export RABBITMQ_NODE_PORT=$port
export RABBITMQ_DIST_PORT=$dport
export RABBITMQ_MNESIA_BASE='$d/mnesia'
export RABBITMQ_LOG_BASE='$d/log'
export RABBITMQ_ENABLED_PLUGINS_FILE='$d/enabled_plugins'
export RABBITMQ_CONF_ENV_FILE='$d/rabbitmq-env.conf'
export RABBITMQ_CONFIG_FILE='$d/rabbitmq.conf'
export RABBITMQ_ADVANCED_CONFIG_FILE='$d/advanced.config'
export RABBITMQ_PID_FILE='$d/rabbitmq.pid'
export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1} -start_epmd false'
export RABBITMQ_CTL_ERL_ARGS='-kernel inet_dist_use_interface {127,0,0,1} -start_epmd false'
export ERL_EPMD_ADDRESS=127.0.0.1
export ERL_EPMD_PORT=$eport
# Every erl started with this env (server, CLI, rabbit's own "epmd-starter")
# must use our epmd and never daemonize a new one that would outlive us.
export ERL_AFLAGS='-start_epmd false'
export ERL_CRASH_DUMP='$d/erl_crash.dump'
EOF
    _vts_log "rabbitmq: starting $_VTS_RABBIT_NODE on 127.0.0.1:$port (dist $dport, epmd $eport)"
    (
        cd "$d" || exit 1
        # shellcheck disable=SC1091
        . "$d/rabbitmq.env"
        exec "$bindir/rabbitmq-server"
    ) </dev/null >"$d/startup.log" 2>&1 {_VTS_LOGFD}>&- &
    # $! is the rabbitmq-server shell wrapper; beam's own pid comes from
    # RABBITMQ_PID_FILE once the node is up.
    _vts_record rabbitmq-server "$!" rabbitmq-server
}

_vts_wait_rabbitmq() {
    local d="$VOLAPI_TEST_STATE/rabbitmq" timeout=${VOLAPI_TEST_START_TIMEOUT:-120}
    local wpid wcomm deadline beam
    read -r wpid wcomm < "$VOLAPI_TEST_STATE/pids/rabbitmq-server"
    deadline=$(( $(date +%s) + timeout ))
    while :; do
        if [ -z "${beam:-}" ] && [ -s "$d/rabbitmq.pid" ]; then
            beam=$(tr -dc '0-9' < "$d/rabbitmq.pid")
            [ -n "$beam" ] && _vts_record rabbitmq "$beam" beam.smp
        fi
        if ! _vts_alive "$wpid"; then
            wait "$wpid" 2>/dev/null || true
            if grep -qsE 'eaddrinuse|dist_port_already_used' "$d/startup.log"; then
                return 2                                            # retry
            fi
            _vts_err "rabbitmq: rabbitmq-server exited during start-up"
            _vts_log_tail "$d/startup.log" "$d"/log/*.log
            return 1
        fi
        if [ -n "${beam:-}" ] && _vts_rabbit_cli rabbitmqctl await_startup --timeout 5 \
               >>"$d/await.log" 2>&1; then
            break
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            _vts_err "rabbitmq: not started after ${timeout}s"
            _vts_log_tail "$d/startup.log" "$d/await.log" "$d"/log/*.log
            return 1
        fi
        sleep 0.5
    done
    if ! _vts_pid_is "$beam" beam.smp; then
        _vts_err "rabbitmq: pid $beam from $d/rabbitmq.pid is not beam.smp"
        return 1
    fi
    if ! _vts_port_busy "$_VTS_RABBIT_PORT"; then
        _vts_err "rabbitmq: node is up but 127.0.0.1:$_VTS_RABBIT_PORT does not accept connections"
        _vts_log_tail "$d/startup.log" "$d"/log/*.log
        return 1
    fi
    export VOLAPI_TEST_RABBIT_URL="rabbit://guest:guest@127.0.0.1:$_VTS_RABBIT_PORT/"
    : > "$VOLAPI_TEST_STATE/pids/.url-rabbit"
    : > "$VOLAPI_TEST_STATE/pids/.rabbit-ready"
    _vts_log "rabbitmq: ready (beam pid $beam) in $(_vts_since "$_VTS_RABBIT_T0")s"
}

_vts_stop_rabbitmq() {
    local d="$VOLAPI_TEST_STATE/rabbitmq" p=$VOLAPI_TEST_STATE/pids pid comm beam wpid wcomm
    if [ ! -f "$p/rabbitmq" ]; then
        # Interrupted before the node was up: find beam via the pid file or
        # as the child of the rabbitmq-server wrapper we started.
        [ -s "$d/rabbitmq.pid" ] && beam=$(tr -dc '0-9' < "$d/rabbitmq.pid")
        if [ -z "${beam:-}" ] && [ -f "$p/rabbitmq-server" ]; then
            read -r wpid wcomm < "$p/rabbitmq-server"
            _vts_pid_is "$wpid" "$wcomm" && beam=$(_vts_find_child "$wpid" beam.smp)
        fi
        [ -n "${beam:-}" ] && _vts_record rabbitmq "$beam" beam.smp
    fi
    if [ -f "$p/rabbitmq" ]; then
        read -r pid comm < "$p/rabbitmq"
        if [ -e "$p/.rabbit-ready" ] && _vts_pid_is "$pid" "$comm"; then
            # Clean shutdown via rabbitmqctl, but watch beam's pid ourselves:
            # the CLI can hang when the node dies under it, so it is ours to
            # kill once beam is gone.
            local cli rc n=600
            # (one fork that execs, so $! is the CLI's own pid)
            (
                # shellcheck disable=SC1091
                . "$d/rabbitmq.env" || exit 1
                exec "$RABBIT_BINDIR/rabbitmqctl" -n "$RABBITMQ_NODENAME" stop
            ) </dev/null >>"$d/stop.log" 2>&1 {_VTS_LOGFD}>&- &
            cli=$!
            while _vts_alive "$pid" && (( n-- > 0 )); do
                if [ -n "$cli" ] && ! _vts_alive "$cli"; then
                    rc=0; wait "$cli" 2>/dev/null || rc=$?
                    cli=
                    [ "$rc" = 0 ] || break      # CLI failed: SIGTERM below
                fi
                sleep 0.1
            done
            if [ -n "$cli" ]; then
                # A throwaway client node; make sure it is gone before epmd.
                if _vts_alive "$cli"; then kill -KILL "$cli" 2>/dev/null || true; fi
                wait "$cli" 2>/dev/null || true
            fi
        fi
        # Still alive (e.g. still booting, where SIGTERM is not acted on):
        # TERM, then KILL (a throwaway broker that never came up gets 3s).
        if [ -e "$p/.rabbit-ready" ]; then
            _vts_kill rabbitmq 10 TERM
        else
            _vts_kill rabbitmq 3 TERM
        fi
    fi
    # The wrapper exits once beam is gone.
    _vts_kill rabbitmq-server 10 TERM
    # Our private epmd (never one we did not start).
    _vts_kill epmd 10 TERM
    rm -f "$p/.rabbit-ready"
}

# The default ports are inside Linux's ephemeral range (32768-60999), so a
# port that looked free can be taken by some client socket by the time the
# server binds it.  Start functions return 2 for "address in use"; this picks
# the next free port and tries again (only for ports not set explicitly).
#
# _vts_retry_on_port_clash LABEL ENVVAR GLOBALVAR START_FN [RELAUNCH_FN]
_vts_retry_on_port_clash() {
    local label=$1 var=$2 g=$3 fn=$4 relaunch=${5:-} try rc
    for try in 1 2 3 4 5; do
        rc=0; "$fn" || rc=$?
        [ "$rc" = 2 ] || return "$rc"
        if [ -n "${!var:-}" ]; then
            _vts_err "$label: port ${!g} (from $var) is in use"
            return 1
        fi
        _VTS_PICK_QUIET=1 _vts_pick_port "$var" "${!g}" || return 1  # skips ports tried
        _vts_log "$label: port ${!g} was taken meanwhile; retrying on port $_VTS_PORT"
        printf -v "$g" '%s' "$_VTS_PORT"
        if [ -n "$relaunch" ]; then "$relaunch" || return 1; fi
    done
    _vts_err "$label: giving up after $try port clashes"
    return 1
}

# After an "address in use" failure: the AMQP port was re-picked by the
# caller; re-pick the distribution port too (unless set) and launch again.
_vts_relaunch_rabbitmq() {
    _vts_kill rabbitmq 3 TERM
    _vts_kill rabbitmq-server 3 TERM
    if [ -z "${VOLAPI_TEST_RABBIT_DIST_PORT:-}" ]; then
        _VTS_PICK_QUIET=1 _vts_pick_port VOLAPI_TEST_RABBIT_DIST_PORT "$_VTS_RABBIT_DIST_PORT" \
            || return 1
        _VTS_RABBIT_DIST_PORT=$_VTS_PORT
    fi
    _vts_launch_rabbitmq
}

# ---------------------------------------------------------------- public ---

# volapi_servers_start [postgresql] [mysql] [rabbitmq]
volapi_servers_start() {
    local want=("$@") s need=() t0
    [ "${#want[@]}" -gt 0 ] || want=(postgresql mysql rabbitmq)
    t0=$(_vts_now)
    for s in "${want[@]}"; do
        case $s in
            postgresql|postgres|pg) [ -n "${VOLAPI_TEST_PG_URL:-}" ] \
                && _vts_log "postgresql: using VOLAPI_TEST_PG_URL=$VOLAPI_TEST_PG_URL" \
                || need+=(postgresql) ;;
            mysql|mariadb) [ -n "${VOLAPI_TEST_MYSQL_URL:-}" ] \
                && _vts_log "mysql: using VOLAPI_TEST_MYSQL_URL=$VOLAPI_TEST_MYSQL_URL" \
                || need+=(mysql) ;;
            rabbitmq|rabbit) [ -n "${VOLAPI_TEST_RABBIT_URL:-}" ] \
                && _vts_log "rabbitmq: using VOLAPI_TEST_RABBIT_URL=$VOLAPI_TEST_RABBIT_URL" \
                || need+=(rabbitmq) ;;
            *) _vts_err "unknown server '$s' (postgresql, mysql, rabbitmq)"; return 2 ;;
        esac
    done
    [ "${#need[@]}" -gt 0 ] || return 0
    _vts_ensure_packages "${need[@]}" || return 1
    # Choose every port before creating or launching anything.
    _VTS_CHOSEN_PORTS=
    if [[ " ${need[*]} " == *" postgresql "* ]]; then
        _vts_pick_port VOLAPI_TEST_PG_PORT 55432 || return 1
        _VTS_PG_PORT=$_VTS_PORT
    fi
    if [[ " ${need[*]} " == *" mysql "* ]]; then
        _vts_pick_port VOLAPI_TEST_MYSQL_PORT 53306 || return 1
        _VTS_MYSQL_PORT=$_VTS_PORT
    fi
    if [[ " ${need[*]} " == *" rabbitmq "* ]]; then
        _vts_pick_port VOLAPI_TEST_RABBIT_PORT 55672 || return 1
        _VTS_RABBIT_PORT=$_VTS_PORT
        _vts_pick_port VOLAPI_TEST_RABBIT_DIST_PORT 25679 || return 1
        _VTS_RABBIT_DIST_PORT=$_VTS_PORT
        _VTS_EPMD_SHARED=0
        if [ -n "${VOLAPI_TEST_EPMD_PORT:-}" ] && command -v epmd >/dev/null 2>&1 \
               && epmd -port "$VOLAPI_TEST_EPMD_PORT" -names >/dev/null 2>&1; then
            _VTS_EPMD_SHARED=1
            _VTS_EPMD_PORT=$VOLAPI_TEST_EPMD_PORT
        else
            _vts_pick_port VOLAPI_TEST_EPMD_PORT 24369 || return 1
            _VTS_EPMD_PORT=$_VTS_PORT
        fi
    fi
    _vts_init_state || return 1
    _vts_log "state dir: $VOLAPI_TEST_STATE"
    # RabbitMQ is the slowest to boot: launch it first, wait for it last.
    if [[ " ${need[*]} " == *" rabbitmq "* ]]; then
        _VTS_RABBIT_T0=$(_vts_now)
        _vts_start_epmd || return 1
        _vts_launch_rabbitmq || return 1
    fi
    if [[ " ${need[*]} " == *" postgresql "* ]]; then
        _vts_retry_on_port_clash postgresql VOLAPI_TEST_PG_PORT _VTS_PG_PORT \
            _vts_start_postgresql || return 1
    fi
    if [[ " ${need[*]} " == *" mysql "* ]]; then
        _vts_retry_on_port_clash mysql VOLAPI_TEST_MYSQL_PORT _VTS_MYSQL_PORT \
            _vts_start_mysql || return 1
    fi
    if [[ " ${need[*]} " == *" rabbitmq "* ]]; then
        _vts_retry_on_port_clash rabbitmq VOLAPI_TEST_RABBIT_PORT _VTS_RABBIT_PORT \
            _vts_wait_rabbitmq _vts_relaunch_rabbitmq || return 1
    fi
    _vts_log "all servers ready in $(_vts_since "$t0")s"
}

# Stops exactly what volapi_servers_start recorded in $VOLAPI_TEST_STATE and
# removes the state dir if it was a temporary one.  Safe to call twice.
volapi_servers_stop() {
    local st=${VOLAPI_TEST_STATE:-} t0
    [ -n "$st" ] && [ -d "$st/pids" ] || return 0
    t0=$(_vts_now)
    _vts_stop_rabbitmq
    _vts_stop_mysql
    _vts_stop_postgresql
    # Forget the URLs that pointed at the servers we just stopped.
    [ -e "$st/pids/.url-pg" ] && unset VOLAPI_TEST_PG_URL
    [ -e "$st/pids/.url-mysql" ] && unset VOLAPI_TEST_MYSQL_URL
    [ -e "$st/pids/.url-rabbit" ] && unset VOLAPI_TEST_RABBIT_URL
    if [ "${VOLAPI_TEST_KEEP_STATE:-0}" = 1 ]; then
        rm -rf "$st/pids"
        _vts_log "servers stopped in $(_vts_since "$t0")s; state kept in $st"
    elif [ -e "$st/.created-by-servers-sh" ]; then
        rm -rf "$st"
        _vts_log "servers stopped in $(_vts_since "$t0")s; removed $st"
        unset VOLAPI_TEST_STATE
    else
        rm -rf "$st/pids" "$st/postgresql" "$st/mysql" "$st/rabbitmq"
        _vts_log "servers stopped in $(_vts_since "$t0")s"
    fi
    return 0
}

# Print the variables for eval "$(tools/servers.sh start)".
_vts_print_exports() {
    local v
    for v in VOLAPI_TEST_STATE VOLAPI_TEST_PG_URL VOLAPI_TEST_MYSQL_URL VOLAPI_TEST_RABBIT_URL; do
        [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
    done
    return 0
}

# ------------------------------------------------------------- command ----

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -u
    # shellcheck disable=SC2206
    _vts_servers=(${VOLAPI_TEST_SERVERS:-postgresql mysql rabbitmq})
    case "${1:-}" in
        start)
            trap 'volapi_servers_stop; exit 130' INT TERM HUP
            if ! volapi_servers_start "${_vts_servers[@]}"; then
                volapi_servers_stop
                exit 1
            fi
            _vts_print_exports
            ;;
        stop)
            if [ -z "${VOLAPI_TEST_STATE:-}" ]; then
                echo "usage: VOLAPI_TEST_STATE=DIR $0 stop" >&2
                exit 2
            fi
            volapi_servers_stop
            ;;
        run)
            shift
            [ $# -gt 0 ] || { echo "usage: $0 run CMD [ARGS...]" >&2; exit 2; }
            trap volapi_servers_stop EXIT
            trap 'exit 130' INT
            trap 'exit 143' TERM
            trap 'exit 129' HUP
            volapi_servers_start "${_vts_servers[@]}" || exit 1
            "$@"
            exit $?
            ;;
        *)
            sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
            exit 2
            ;;
    esac
fi
