#!/usr/bin/env node
// The heap settings go first: they must apply before the harness's modules are loaded.
import { applyHeapFlags } from '../dist/src/core/heap.js';

applyHeapFlags();
const { main } = await import('../dist/src/cli.js');

const io = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  env: process.env,
  untilStopped: () => new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  }),
};
main(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
  // Reports are written; do not wait for idle keep-alive sockets to close.
  setImmediate(() => process.exit(code));
});
