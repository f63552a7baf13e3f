#!/bin/sh
# Runs inside a loopback-only network namespace (unshare -n): brings loopback up, starts a
# PostgreSQL cluster (initdb done before, owned by the postgres user when we are root) on
# 127.0.0.1:55432 (the namespace's own loopback: no port of the host is taken), creates the
# gateway's database afresh, runs gw-conformance with the arguments given, stops PostgreSQL and exits
# with gw-conformance's exit code. Usage: apps-real-ns.sh PGBIN PGDIR -- gw-conformance args...
set -e
PGBIN=$1 PGDIR=$2
shift 3
ip link set lo up
# As root, PostgreSQL's tools run as the postgres user from its own folder: from a working
# directory that user may not enter (a clone under a private mktemp -d) each would print
# "could not change directory" into the run's output.
as_pg() { if [ "$(id -u)" = 0 ]; then (cd "$PGDIR" && runuser -u postgres -- "$@"); else "$@"; fi; }
as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -o "-c listen_addresses=127.0.0.1 -p 55432 -k $PGDIR" -w start >/dev/null
trap 'as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null' EXIT
as_pg "$PGBIN/psql" -h 127.0.0.1 -p 55432 -U postgres -q -c 'drop database if exists gateway' -c 'create database gateway'
set +e
"$@"
