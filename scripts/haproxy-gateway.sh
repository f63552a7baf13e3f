#!/bin/sh
# Starts HAProxy in the foreground from a config of examples/haproxy/ for `gw-conformance
# --gateway-cmd`: the template's literal listen address 127.0.0.1:8080 and upstream address
# 127.0.0.1:18080 are replaced by the ports the harness picked, in the harness's {workdir}.
# HAProxy's log goes to standard error, which the harness captures into the report
# (launched.logTail).
#
#   gw-conformance --gateway-cmd 'sh scripts/haproxy-gateway.sh examples/haproxy/haproxy.cfg {listen_port} {upstream_port} {workdir}'
#
# (the harness runs the command in {workdir}: give the script and the template as absolute paths).
set -eu
[ $# -eq 4 ] || { echo "usage: haproxy-gateway.sh TEMPLATE LISTEN_PORT UPSTREAM_PORT WORKDIR" >&2; exit 2; }
template=$1 listen=$2 upstream=$3 dir=$4
sed -e "s/127\.0\.0\.1:8080\([^0-9]\|$\)/127.0.0.1:$listen\1/g" -e "s/127\.0\.0\.1:18080\([^0-9]\|$\)/127.0.0.1:$upstream\1/g" "$template" > "$dir/haproxy.cfg"
# -db: foreground, no daemon; SIGTERM stops it at once.
exec haproxy -db -f "$dir/haproxy.cfg"
