#!/bin/sh
# Starts nginx in the foreground from a config of examples/nginx/ for `gw-conformance
# --gateway-cmd`: the template's literal listen address 127.0.0.1:8080 and upstream address
# 127.0.0.1:18080 are replaced by the ports the harness picked, in a prefix folder of its own
# (the harness's {workdir}). The error log goes to standard error, which the harness captures
# into the report (launched.logTail).
#
#   gw-conformance --gateway-cmd 'sh scripts/nginx-gateway.sh examples/nginx/plain.conf {listen_port} {upstream_port} {workdir}'
#
# (the harness runs the command in {workdir}: give the script and the template as absolute paths).
set -eu
[ $# -eq 4 ] || { echo "usage: nginx-gateway.sh TEMPLATE LISTEN_PORT UPSTREAM_PORT PREFIX" >&2; exit 2; }
template=$1 listen=$2 upstream=$3 prefix=$4
# As root, nginx's workers run as nobody and must reach the prefix and its temp folders.
chmod 755 "$prefix"
for d in client_body_temp proxy_temp fastcgi_temp uwsgi_temp scgi_temp; do mkdir -p "$prefix/$d"; done
sed -e 's/^error_log [^ ;]*/error_log stderr/' -e "s/127\.0\.0\.1:8080\([^0-9]\|$\)/127.0.0.1:$listen\1/g" -e "s/127\.0\.0\.1:18080\([^0-9]\|$\)/127.0.0.1:$upstream\1/g" "$template" > "$prefix/nginx.conf"
exec nginx -p "$prefix/" -c "$prefix/nginx.conf" -e stderr
