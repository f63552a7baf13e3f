// Small readers for the protocol records: JSON that may be anything, read field by field
// without throwing, so a reply that is not the shape a record expects reads as "not mine"; and a
// request's path as the upstream reads it.
export type Json = unknown;

/** The parsed value, or undefined when the text is not JSON. */
export function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** An object's fields (an empty record for anything else). */
export function obj(v: Json): Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Json>) : {};
}

export const str = (v: Json): string => (typeof v === 'string' ? v : '');
export const num = (v: Json): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const arr = (v: Json): Json[] => (Array.isArray(v) ? v : []);

/** The path (its query left off) as the upstream reads it: an encoded `:` or `@` is the path's form, not its route. */
export function decodedPath(path: string): string {
  const p = path.split('?')[0];
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
