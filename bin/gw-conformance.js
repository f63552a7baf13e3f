#!/usr/bin/env node
// The heap settings go first: they must apply before the harness's modules are loaded.
import { applyHeapFlags } from '../dist/src/core/heap.js';

applyHeapFlags();
const { main } = await import('../dist/cli/main.js');

const io = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  env: process.env,
  untilStopped: () => new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  }),
  // Colour and the live status line are for terminals only (cli/shared/progress.ts).
  term: {
    outIsTTY: Boolean(process.stdout.isTTY),
    errIsTTY: Boolean(process.stderr.isTTY),
    columns: () => process.stderr.columns || 80,
    writeErr: (s) => process.stderr.write(s),
  },
};
// A reader that went away (`| head`) is not the harness's trouble: no stack trace for EPIPE.
for (const s of [process.stdout, process.stderr]) s.on('error', () => {});
/** Resolves once everything written to `s` has left the process (a pipe is written asynchronously). */
const drained = (s) => new Promise((resolve) => (s.writableLength === 0 ? resolve() : s.write('', () => resolve())));
main(process.argv.slice(2), io).then(async (code) => {
  process.exitCode = code;
  // Everything printed reaches a pipe before the exit (`list --json | jq` got 64 KiB of it).
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // Reports are written; do not wait for idle keep-alive sockets to close.
  setImmediate(() => process.exit(code));
});
