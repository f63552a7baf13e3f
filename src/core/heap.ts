// V8 heap settings of the gw-conformance process, applied by bin/gw-conformance.js before any
// other module is loaded. The harness, the recording upstream and (with `demo`) the reference
// gateway share one process whose live heap is small (about 25 MB) but whose allocation rate is
// high (bodies passing through three parties, property-based generators). By default V8 grows
// the young generation to two 16 MiB semi-spaces as soon as objects survive, and it keeps them:
// about 30 MB of resident memory for garbage. With the growth factor at 1 the semi-spaces stay
// at their initial 1 MiB; more objects are promoted, collected by the (concurrent) old-space
// collector. The flag is read by V8 each time it considers growing the young generation, so
// setting it at start-up through v8.setFlagsFromString (Node's documented way) takes effect;
// `--max-semi-space-size` would not (the heap is configured when the process starts).
import v8 from 'node:v8';

/** The flags applied at start-up (issue 13: peak RSS of a default run at most 150 MB). */
export const HEAP_FLAGS = ['--semi-space-growth-factor=1'];

/** Applies HEAP_FLAGS to this process (bin/gw-conformance.js calls it first). */
export function applyHeapFlags(): void {
  for (const f of HEAP_FLAGS) v8.setFlagsFromString(f);
}
