// V8 settings of the gw-conformance process, applied by bin/gw-conformance.js before any other
// module is loaded (v8.setFlagsFromString, Node's documented way to set V8 flags at run time;
// both flags below are read by V8 when it needs them, so setting them at start-up takes effect).
//
// - `--semi-space-growth-factor=1`. The harness, the recording upstream and (with `demo`) the
//   reference gateway share one process whose live heap is small (about 25 MB) but whose
//   allocation rate is high (bodies passing through three parties, property-based inputs).
//   By default V8 grows the young generation to two 16 MiB semi-spaces as soon as objects
//   survive, and keeps them: about 30 MB of resident memory for garbage. With the growth factor
//   at 1 the semi-spaces stay at their initial 1 MiB; more objects are promoted and collected by
//   the concurrent old-space collector. (`--max-semi-space-size` would not work here: the heap
//   is configured when the process starts. V8 12.x and later clamp the factor to at least 2, so
//   there the flag changes nothing.)
// - `--liftoff-only`. WebAssembly runs in the process: undici's HTTP parser (llhttp) on every
//   run, PGlite with the apps profile. V8 first compiles it with its baseline compiler (Liftoff)
//   and then recompiles hot functions with its optimizing compiler (TurboFan) in the
//   background; for llhttp's large parser function that recompilation alone lifts peak RSS by
//   20-40 MB for a moment (a hostile-gateway run: about 128 MB with it, 90 MB without). Runs are
//   short, so the optimized code hardly pays off: measured, a default run's CPU time is the same,
//   and `demo --profile apps` takes 2.9 s of CPU instead of 4.4 s (and 351 MB instead of 517 MB).
// - `--heap-growing-percent=50`. After each full collection V8 lets the old generation grow by a
//   factor it picks from the heap's maximum size: on a machine with gigabytes of memory up to
//   four times the live size before the next one. The harness's live heap is about 30 MB, but a
//   gateway that fails every check makes it promote garbage for seconds on end, and the old
//   generation then grew to 93 MB before it was collected (peak RSS 171 MB against a gateway
//   that sends 20,000 headers). At 1.5 times the live size the same run peaks at 121 MB and a
//   default demo at 129 MB instead of 139 MB, at the same CPU time (25 % cost CPU and gained
//   nothing more). The flag is read at each collection, so setting it at start-up takes effect.
import v8 from 'node:v8';

/** The flags applied at start-up (the goal: peak RSS of a run at most 150 MB). */
export const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--liftoff-only', '--heap-growing-percent=50'];

/** Applies HEAP_FLAGS to this process (bin/gw-conformance.js calls it first). */
export function applyHeapFlags(): void {
  for (const f of HEAP_FLAGS) v8.setFlagsFromString(f);
}
