#!/bin/sh
# The --target way with a gateway the user starts (run inside the namespace of apps-real-ns.sh,
# in a folder holding gateway.yaml and gateway.env from apps-config): the harness first (it
# starts the IdP, collector and upstreams at the configuration's addresses and waits for the
# gateway), then the gateway with the secrets in its environment. Exits with the harness's code.
# Usage: apps-real-target.sh CLAUDE HARNESS-JS OUT IDP-PORT GATEWAY-URL
CLAUDE=$1 HARNESS=$2 OUT=$3 IDP=$4 URL=$5
# Without the key-rotation check: its verdict (and its wait of up to a minute for the gateway's
# JWKS refetch throttle) is asserted in the --gateway-cmd test.
node "$HARNESS" run --profile apps --apps-config gateway.yaml --target "$URL" --skip apps.device.key-rotation --seed 3 --reporter json --out "$OUT" &
H=$!
# The gateway reads the IdP's discovery document when it boots: wait (bounded) until the harness's IdP listens.
i=0
until node -e "require('net').connect($IDP,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; do
  i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.1
done
(set -a; . ./gateway.env; set +a; exec "$CLAUDE" gateway --config gateway.yaml) > gateway.log 2>&1 &
G=$!
wait $H
rc=$?
kill $G; wait $G
exit $rc
