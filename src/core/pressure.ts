// Bounded memory under a flood of bytes. Every chunk a socket delivers is a new buffer; V8 only
// collects them once external memory has grown by tens of MiB past the last collection, so a
// gateway sending hundreds of MB (or an endless body) would lift peak RSS by that much however
// little the harness keeps. The harness counts the bytes it has passed through and asks for a
// young-generation collection every MINOR_BYTES (a chunk's buffer usually dies young, and a
// scavenge costs about a millisecond) and a full one every FLUSH_BYTES (for the buffers that
// lived long enough to be promoted), which keeps that garbage bounded. The collector is reached
// through V8's own flag (v8.setFlagsFromString), the documented way to set it at run time.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes passed through between two full collections. */
const FLUSH_BYTES = 16 * 1024 * 1024;
/** Bytes passed through between two young-generation collections. */
const MINOR_BYTES = 2 * 1024 * 1024;

type Gc = (options?: { type: 'major' | 'minor' }) => void;
let gc: Gc | null | undefined;
let since = 0;
let sinceMinor = 0;
let total = 0;

/** Bytes counted by passedThrough since the process started (what a reader let through: a test reads it around one read). */
export const passedTotal = () => total;

function collector(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  } catch {
    gc = null;
  }
  return gc;
}

/** Counts `bytes` of buffers that became garbage (or will soon): a young collection every MINOR_BYTES, a full one every FLUSH_BYTES. */
export function passedThrough(bytes: number): void {
  total += bytes;
  since += bytes;
  sinceMinor += bytes;
  if (since >= FLUSH_BYTES) {
    since = 0;
    sinceMinor = 0;
    collector()?.();
  } else if (sinceMinor >= MINOR_BYTES) {
    sinceMinor = 0;
    collector()?.({ type: 'minor' });
  }
}

/**
 * Counts `bytes` of buffers the harness made itself and drops at once (a large request body's
 * 64 KiB pieces, each sent and gone): they die young, so they count towards a young collection
 * only. A full collection every FLUSH_BYTES of them cost about 0.3 s of CPU per run for the 78
 * MiB the two large-body checks send, and left peak RSS where it was.
 */
export function passedYoung(bytes: number): void {
  sinceMinor += bytes;
  if (sinceMinor >= MINOR_BYTES) {
    sinceMinor = 0;
    collector()?.({ type: 'minor' });
  }
}

/**
 * Counts `bytes` of buffers that lived long enough to be promoted (a kept body's pieces once
 * they are joined, a stream's chunks once its body is whole) and are garbage now: only a full
 * collection frees them, so they count towards the next one and not towards a young one.
 */
export function released(bytes: number): void {
  since += bytes;
  if (since >= FLUSH_BYTES) collectNow();
}

/** A full collection now (a check that runs alone calls it before moving tens of MiB). */
export function collectNow(): void {
  since = 0;
  sinceMinor = 0;
  collector()?.();
}
