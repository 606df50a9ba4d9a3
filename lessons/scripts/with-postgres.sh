#!/usr/bin/env bash
# Runs a command against a private, throw-away PostgreSQL server:
#   bash lessons/scripts/with-postgres.sh npx vitest run --config test/vitest.config.ts test/lessons/postgres-parity.test.ts
#
# Installs Debian's postgresql when its binaries are missing, initialises a data directory in a
# temporary folder, starts the server on a free port of 127.0.0.1 only, exports DATABASE_URL (and
# LESSONS_REQUIRE_POSTGRES=1, so the parity test fails rather than skips if the server is not
# usable), runs the command, and always stops the server and removes the folder. The command's exit
# status is this script's exit status.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

find_bin_dir() {
  # The newest installed major version, e.g. /usr/lib/postgresql/15/bin.
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then
    echo "$dir"
  fi
}

bin_dir=$(find_bin_dir)
if [[ -z "$bin_dir" ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "with-postgres: PostgreSQL is not installed and installing it needs root (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "with-postgres: installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin_dir=$(find_bin_dir)
  if [[ -z "$bin_dir" ]]; then
    echo "with-postgres: postgresql was installed but no initdb was found under /usr/lib/postgresql" >&2
    exit 1
  fi
fi

# PostgreSQL refuses to run as root: as root, the server runs as the 'postgres' user.
run_as=()
if [[ $(id -u) -eq 0 ]]; then
  if ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/sh postgres
  fi
  run_as=(runuser -u postgres --)
fi

work_dir=$(mktemp -d -t lessons-postgres.XXXXXX)
chmod 755 "$work_dir"
data_dir="$work_dir/data"
socket_dir="$work_dir/socket"
log_file="$work_dir/server.log"
mkdir -p "$data_dir" "$socket_dir"
if [[ ${#run_as[@]} -gt 0 ]]; then
  chown -R postgres: "$work_dir"
fi

server_started=0
cleanup() {
  local status=$?
  if [[ $server_started -eq 1 ]]; then
    "${run_as[@]}" "$bin_dir/pg_ctl" -D "$data_dir" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work_dir"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})')

"${run_as[@]}" "$bin_dir/initdb" -D "$data_dir" -U postgres --auth=trust --encoding=UTF8 --no-sync >"$work_dir/initdb.log" 2>&1 || {
  cat "$work_dir/initdb.log" >&2
  exit 1
}
if ! "${run_as[@]}" "$bin_dir/pg_ctl" -D "$data_dir" -l "$log_file" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $socket_dir -c fsync=off" start >/dev/null; then
  echo "with-postgres: the server did not start; its log follows" >&2
  cat "$log_file" >&2 || true
  exit 1
fi
server_started=1
echo "with-postgres: PostgreSQL $("$bin_dir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2

export DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
export LESSONS_REQUIRE_POSTGRES=1
set +e
"$@"
status=$?
set -e
exit $status
