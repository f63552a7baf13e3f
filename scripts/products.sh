#!/bin/sh
# Runs gateway products installed from the npm registry through the harness, each inside a
# loopback-only network namespace together with the harness (docs/real-gateways.md, "Gateway
# products"). Not run by CI. The products live in a folder outside the repository:
#
#   mkdir -p /tmp/products && cd /tmp/products && npm install --save-exact \
#     @musistudio/claude-code-router@1.0.73 @portkey-ai/gateway@1.15.2
#
#   sh scripts/products.sh run /tmp/products ccr default
#   sh scripts/products.sh run /tmp/products portkey load --load-rate 50
#   sh scripts/products.sh run /tmp/products ccr client --clients claude-code,anthropic-sdk
#
# claude-code-router stays at 1.0.73: its later versions need Node 22. Build the harness first
# (`npm run build`): the run uses bin/gw-conformance.js.
#
# `ccr-openai` is claude-code-router translating: the client speaks messages, ccr forwards chat
# completions to {upstream}/v1/chat/completions and translates the answer back. Its verdicts
# depend on the recording upstream answering chat completions on that path; a run against an
# upstream that answers in the messages protocol there shows mostly that (500s, empty streams).
#
# `run DIR PRODUCT PROFILE [ARGS...]` builds the command line (the product's --gateway-cmd, its
# protocols and targeting; ARGS are passed on) and runs it under `unshare -n` after
# `ip link set lo up` (root needed). `gateway DIR PRODUCT LISTEN_PORT UPSTREAM_URL WORKDIR` is
# what --gateway-cmd calls: it writes the product's configuration into the harness's workdir
# and starts the product in the foreground.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: products.sh run DIR ccr|ccr-openai|portkey PROFILE [ARGS...] | gateway DIR ccr|ccr-openai|portkey LISTEN_PORT UPSTREAM_URL WORKDIR" >&2; exit 2; }
[ $# -ge 3 ] || usage
mode=$1 product=$3
[ -d "$2/node_modules" ] || { echo "products.sh: $2 has no node_modules: install the products there first (see the top of this file)" >&2; exit 2; }
dir=$(cd "$2" && pwd)
shift 3

# claude-code-router: one provider (the recording upstream) and a custom router that keeps the
# client's own model, so the body is not re-targeted. VARIANT anthropic: the provider has the
# Anthropic transformer alone, which ccr takes as a pass-through of the messages protocol (POST
# {upstream}/v1/messages: the body the client sent is the body forwarded). VARIANT openai: the provider has no transformer, so
# ccr's messages endpoint (the llms "Anthropic" transformer) translates each request into chat
# completions, POSTs it to api_base_url as it stands ({upstream}/v1/chat/completions) and
# translates the chat-completions answer back.
ccr_gateway() {
  variant=$1 listen=$2 upstream=$3 work=$4
  case $variant in
  anthropic) provider="\"api_base_url\": \"$upstream/v1/messages\", \"transformer\": { \"use\": [\"Anthropic\"] }," ;;
  openai) provider="\"api_base_url\": \"$upstream/v1/chat/completions\"," ;;
  *) usage ;;
  esac
  mkdir -p "$work/home/.claude-code-router"
  cat > "$work/router.js" <<'EOF'
module.exports = async (req) => `up,${req.body.model}`;
EOF
  cat > "$work/home/.claude-code-router/config.json" <<EOF
{ "LOG": false, "HOST": "127.0.0.1", "PORT": $listen, "CUSTOM_ROUTER_PATH": "$work/router.js",
  "Providers": [{ "name": "up", $provider "api_key": "sk-ccr-provider-key",
    "models": ["claude-sonnet-4-5-20250929", "claude-opus-5-5", "claude-sonnet-4-6", "claude-haiku-4-5"] }],
  "Router": { "default": "up,claude-sonnet-4-5-20250929" } }
EOF
  HOME="$work/home" exec node "$dir/node_modules/@musistudio/claude-code-router/dist/cli.js" start
}

# Portkey's gateway: no configuration file; the provider and the upstream come in each
# request's x-portkey-provider and x-portkey-custom-host headers (the harness's --header).
portkey_gateway() {
  listen=$1
  exec node "$dir/node_modules/@portkey-ai/gateway/build/start-server.js" --port="$listen" --headless
}

case $mode in
gateway)
  [ $# -eq 3 ] || usage
  case $product in ccr) ccr_gateway anthropic "$@" ;; ccr-openai) ccr_gateway openai "$@" ;; portkey) portkey_gateway "$@" ;; *) usage ;; esac ;;
run)
  [ $# -ge 1 ] || usage
  profile=$1
  shift
  cmd="sh $here/scripts/products.sh gateway $dir $product {listen_port} {upstream_url} {workdir}"
  case $product in
  ccr|ccr-openai) set -- --protocols messages "$@" ;;
  portkey) set -- --protocols messages,chat \
    --header 'messages:x-portkey-provider=anthropic' --header 'messages:x-portkey-custom-host={upstream}/v1' \
    --header 'chat:x-portkey-provider=openai' --header 'chat:x-portkey-custom-host={upstream}/v1' "$@" ;;
  *) usage ;;
  esac
  exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
    env CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
    node "$here/bin/gw-conformance.js" run --profile "$profile" --gateway-cmd "$cmd" "$@" ;;
*) usage ;;
esac
