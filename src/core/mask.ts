// The one masker: credentials never reach a report, the console, a log tail or a transcript.
// Header values of credential headers are masked, the `?key=` query (the native protocol's
// credential) is masked, any occurrence of a secret the harness was given is replaced in every
// encoding a gateway might echo it in, credential-looking `name: value` pairs in free text (a
// gateway's log) and OAuth tokens and JWTs in a body are masked.
import { MIN_SECRET, remembered } from './remembered.js';

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

/** What a masked value is shown as. */
export const MASK = '***';

export function maskValue(v: string): string {
  const bearer = /^(Bearer|Basic)\s+/i.exec(v);
  return bearer ? `${bearer[1]} ${MASK}` : MASK;
}

export function maskHeaders(h: Array<[string, string]>): Array<[string, string]> {
  return h.map(([k, v]) => [k, CREDENTIAL_HEADERS.has(k.toLowerCase()) ? maskValue(v) : v]);
}

/** The value of a `key` query parameter, in a URL or in text that holds one (JSON included). */
const KEY_QUERY = /([?&]key=)[^&#"\s]+/g;

/** A URL with the value of its `key` query parameter (the native protocol's credential) masked. */
export function maskUrl(url: string): string {
  return url.replace(KEY_QUERY, `$1${MASK}`);
}

/** The shortest base64 run taken for a secret's own (a shorter run is too likely to occur by chance). */
const MIN_B64 = 8;

function base64Cores(s: string): string[] {
  // Base64 of a text that holds the secret at any offset: the characters that depend on the
  // secret's bytes alone, for each of the three alignments, standard and URL-safe alphabets.
  const bytes = Buffer.from(s, 'utf8');
  const out: string[] = [];
  for (const k of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const from = k ? 4 : 0;
    const to = 4 * Math.floor((k + bytes.length) / 3);
    const core = b64.slice(from, to);
    if (core.length >= MIN_B64) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * Every form of a secret a gateway might echo: as is, URL-encoded (each way), JSON-escaped (with the solidus escaped or not),
 * \u-escaped, HTML character references, hex (either case), base64 at any alignment (either
 * alphabet), and with `Bearer ` / `user:` prefixes covered by the base64 alignments.
 */
const formsCache = new Map<string, string[]>();
export function secretForms(secret: string): string[] {
  if (!secret || secret.length < MIN_SECRET) return [];
  const known = formsCache.get(secret);
  if (known) return known;
  const forms = allForms(secret);
  if (formsCache.size > 16) formsCache.clear();
  formsCache.set(secret, forms);
  return forms;
}

function allForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const every = (f: (b: number) => string) => [...bytes].map(f).join('');
  const forms = new Set<string>([
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    every((b) => `%${b.toString(16).padStart(2, '0')}`),
    every((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`),
    JSON.stringify(secret).slice(1, -1),
    // JSON writers that escape the solidus (PHP, some Java and Go encoders): `\/`, and that form
    // inside a JSON string once more (a body echoed into a JSON message): `\\/`.
    JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
    JSON.stringify(JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/')).slice(1, -1),
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...secret].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    hex,
    hex.toUpperCase(),
    ...base64Cores(secret),
  ]);
  // Longest first: a form that contains another is replaced whole.
  return [...forms].filter((f) => f.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
}

/** Replaces every form (secretForms) of each secret in a text by `replacement`. */
export function replaceSecrets(text: string, secrets: string[], replacement = MASK): string {
  let out = text;
  // Longest first over every secret: a secret that holds another (or starts like it) is replaced whole.
  const forms = secrets.length > 1 ? [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length) : secretForms(secrets[0] ?? '');
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(replacement);
  // Hex and the \u forms are matched in either case.
  for (const s of secrets) for (const re of caseless(s)) out = out.replace(re, replacement);
  return out;
}

/** Replaces every form (secretForms) of each secret in a text, the pieces of one at a cut (maskCutEdges), and the value of any `key=` query parameter. */
export function scrubSecrets(text: string, secrets: string[]): string {
  return maskUrl(maskInnerPieces(maskCutEdges(replaceSecrets(text, secrets), secrets), secrets));
}

/** The shortest piece of a secret masked wherever it stands in a text (not only at a cut): too long to occur by chance. */
export const MIN_INNER_PIECE = 16;
const windowsCache = new Map<string, { exact: Set<string>; caseless: Set<string> }>();
/** Every MIN_INNER_PIECE-character run of the secret's forms that carry a character or more per character (not the %, \u and &# escapes). */
function innerWindows(secrets: string[]): { exact: Set<string>; caseless: Set<string> } {
  const key = secrets.join('\n');
  let w = windowsCache.get(key);
  if (w) return w;
  w = { exact: new Set(), caseless: new Set() };
  for (const f of secrets.flatMap(secretForms).filter((x) => !/^(%|\\u|&#)/.test(x))) {
    const hex = isCaseless(f);
    for (let i = 0; i + MIN_INNER_PIECE <= f.length; i++) (hex ? w.caseless : w.exact).add(hex ? f.slice(i, i + MIN_INNER_PIECE).toLowerCase() : f.slice(i, i + MIN_INNER_PIECE));
  }
  if (windowsCache.size > 16) windowsCache.clear();
  windowsCache.set(key, w);
  return w;
}

/**
 * A piece of a secret inside a text, away from any cut marker (a gateway's text cut by something
 * other than maskCut, a stream split where a chunk ended and quoted with what followed): every run
 * of at least MIN_INNER_PIECE characters each of whose windows is a piece of a form is masked.
 */
export function maskInnerPieces(text: string, secrets: string[]): string {
  if (text.length < MIN_INNER_PIECE || !secrets.some((x) => x.length >= MIN_INNER_PIECE)) return text;
  const { exact, caseless } = innerWindows(secrets.filter((x) => x.length >= MIN_INNER_PIECE));
  const lower = caseless.size ? text.toLowerCase() : text;
  const folds = caseless.size > 0 && lower.length === text.length;
  let out = '';
  let kept = 0;
  let maskedTo = -1;
  for (let i = 0; i + MIN_INNER_PIECE <= text.length; i++) {
    if (!exact.has(text.slice(i, i + MIN_INNER_PIECE)) && !(folds && caseless.has(lower.slice(i, i + MIN_INNER_PIECE)))) continue;
    if (i > maskedTo) out += `${text.slice(kept, i)}${MASK}`;
    maskedTo = i + MIN_INNER_PIECE;
    kept = maskedTo;
  }
  return kept ? out + text.slice(kept) : text;
}

/** The shortest piece of a secret masked where a text was cut: shorter pieces are too likely to be ordinary text. */
export const MIN_PIECE = 4;
/**
 * The one cut marker: `... (N bytes)` after a kept start (N: the whole text's length), `... (from
 * byte N)` before a kept part that starts N into the text. maskCut writes it; maskCutEdges takes
 * both sides of every marker for a cut edge.
 */
const CUT_MARK = /\.\.\. \((?:\d+ bytes|from byte \d+)\)/g;

/**
 * Where a text was cut, a secret may stand in part: its first characters before the cut, its
 * last after it, which the whole-secret search no longer finds. At each edge (the text's start
 * and end, and both sides of every cut marker) any piece of at least MIN_PIECE characters of any
 * form of a secret that runs into the edge is masked, and a part cut on both sides (between two
 * markers) that lies wholly inside a form is masked whole.
 */
export function maskCutEdges(text: string, secrets: string[]): string {
  const forms = secrets.flatMap(secretForms);
  if (!forms.length || !text) return text;
  // The parts between the edges: text start to the first marker, marker to marker, the last marker to the end.
  const bounds = [0, ...[...text.matchAll(CUT_MARK)].flatMap((m) => [m.index, m.index + m[0].length]), text.length];
  let out = '';
  for (let k = 0; k < bounds.length; k += 2) {
    const part = text.slice(bounds[k], bounds[k + 1]);
    const between = k > 0 && k + 2 < bounds.length;
    out += between && part.length >= MIN_PIECE && forms.some((f) => fold(f, f).includes(fold(f, part))) ? MASK : maskPieceAfter(maskPieceBefore(part, part.length, forms), 0, forms);
    if (k + 2 < bounds.length) out += text.slice(bounds[k + 1], bounds[k + 2]);
  }
  return out;
}

const isCaseless = (f: string) => /^[0-9a-f]+$/i.test(f) || f.startsWith('\\u');
const fold = (f: string, x: string) => (isCaseless(f) ? x.toLowerCase() : x);

/**
 * The offsets in `f` where the MIN_PIECE characters `four` stand (caselessly for the hex and \u
 * forms): a piece of `f` at an edge holds them next to the edge, so only these are tried.
 */
function* at4(f: string, four: string): Generator<number> {
  const hay = fold(f, f);
  const needle = fold(f, four);
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) yield i;
}

/** Masks the longest start of a form that ends the text at `end`. */
function maskPieceBefore(text: string, end: number, forms: string[]): string {
  if (end < MIN_PIECE) return text;
  const four = text.slice(end - MIN_PIECE, end);
  let best = 0;
  for (const f of forms)
    for (const i of at4(f, four)) {
      const n = i + MIN_PIECE;
      if (n > best && n < f.length && n <= end && fold(f, text.slice(end - n, end)) === fold(f, f.slice(0, n))) best = n;
    }
  return best ? `${text.slice(0, end - best)}${MASK}${text.slice(end)}` : text;
}

/** Masks the longest end of a form that starts the text at `start`. */
function maskPieceAfter(text: string, start: number, forms: string[]): string {
  if (text.length - start < MIN_PIECE) return text;
  const four = text.slice(start, start + MIN_PIECE);
  let best = 0;
  for (const f of forms)
    for (const i of at4(f, four)) {
      const n = f.length - i;
      if (n > best && i > 0 && start + n <= text.length && fold(f, text.slice(start, start + n)) === fold(f, f.slice(i))) best = n;
    }
  return best ? `${text.slice(0, start)}${MASK}${text.slice(start + best)}` : text;
}

/** Secrets the client was given (./remembered.ts): cuts made before the report's scrub (maskCut) mask them first. */
export { rememberSecret, withOwnSecrets } from './remembered.js';

/**
 * The one masking cut of gateway text: `t` cut to `max` characters, saying where. `t` is the text
 * from offset `from` of a whole of `total` characters (or bytes): the kept part is marked
 * `... (from byte N)` when it does not start the whole and ends in `... (N bytes)` when it does
 * not end it. The secrets are masked before the cut (a whole secret is found whole), and a piece
 * of one left at either edge (or a part wholly inside one) is masked too.
 */
export function maskCut(t: string, max: number, total = t.length, secrets: string[] = remembered(), from = 0): string {
  const masked = secrets.length ? replaceSecrets(from > 0 ? t.slice(0, max) : t, secrets) : t;
  const whole = from <= 0 && total === t.length;
  if (whole && masked.length <= max) return masked;
  const head = from > 0 ? `... (from byte ${from})` : '';
  const tail = from + Math.min(t.length, max) < total ? `... (${total} bytes)` : '';
  return maskCutEdges(`${head}${from > 0 ? masked : masked.slice(0, max)}${tail}`, secrets);
}

const CREDENTIAL_IN_TEXT = /\b(authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|token)(["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+)?[^\s"',;]+/gi;

/**
 * Free text such as a line a gateway logged: the secrets (scrubSecrets), and the value of anything
 * that reads as a credential (`authorization: Bearer x`, `api_key="x"`, `token=x`).
 */
export function maskCredentialsInText(text: string, secrets: string[]): string {
  return scrubSecrets(text, secrets).replace(CREDENTIAL_IN_TEXT, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}${MASK}`);
}

/** Tokens a gateway may put in a body (OAuth token fields, anything JWT-shaped) masked. */
export function maskTokens(text: string): string {
  return text.replace(/("(?:access_token|refresh_token|id_token|device_code)"\s*:\s*")[^"]*"/g, `$1${MASK}"`).replace(/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, MASK);
}

const caselessCache = new Map<string, RegExp[]>();
function caseless(secret: string): RegExp[] {
  let res = caselessCache.get(secret);
  if (!res) {
    res = secretForms(secret)
      .filter((f) => /^[0-9a-f]+$/i.test(f) || f.startsWith('\\u'))
      .map((f) => new RegExp(f.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'), 'gi'));
    if (caselessCache.size > 16) caselessCache.clear();
    caselessCache.set(secret, res);
  }
  return res;
}

/** A value (a report) with every string in it, keys included, scrubbed of the secrets. */
export function scrubDeep<T>(value: T, secrets: string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubSecrets(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    // A key is never cut text: whole forms and long pieces only (edge pieces once took a report's own key).
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskUrl(maskInnerPieces(replaceSecrets(k, secrets), secrets)), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

// The console's escaper lives with the other sinks' in src/core/inert.ts; src/runner/run.ts still
// imports it from here.
export { terminalSafe } from './inert.js';

/**
 * Masks the values of headers the user added (--header, `headers:` in gwc.yaml) wherever a
 * report shows a header: `[name, value]` pairs and `{ name: value }` objects, at any depth.
 */
export function maskHeaderNamesDeep<T>(value: T, names: string[]): T {
  if (!names.length) return value;
  const set = new Set(names.map((n) => n.toLowerCase()));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      if (v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && set.has(v[0].toLowerCase())) return [v[0], maskValue(v[1])];
      return v.map(walk);
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' && set.has(k.toLowerCase()) ? maskValue(x) : walk(x)]));
    return v;
  };
  return walk(value) as T;
}
