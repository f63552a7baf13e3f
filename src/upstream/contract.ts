// The case-token contract between a check and the recording upstream, in one place.
// Every request a check sends carries a fresh token; the upstream ties the forwarded request
// to the check by it: in the body (the message text, where no gateway drops it), else in the
// hint header, else in the URL. Checks write CASE_PLACEHOLDER where the token goes and the
// exchange helpers replace it, so a body's length changes by TOKEN_LENGTH - placeholder length.
import { randomBytes } from 'node:crypto';

/** The hint header that carries the token beside the body. */
export const CASE_HEADER = 'x-gwc-case';
const TOKEN_PREFIX = 'gwc-';
const TOKEN_HEX_DIGITS = 16;
/** A case token: `gwc-` and 16 hex digits. */
export const TOKEN_RE = new RegExp(`${TOKEN_PREFIX}[0-9a-f]{${TOKEN_HEX_DIGITS}}`, 'g');
/** Characters in a case token. */
export const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_HEX_DIGITS;
/** Replaced by the case token before sending: the token travels in the message text. */
export const CASE_PLACEHOLDER = '__GWC_CASE__';

export function newCaseToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(TOKEN_HEX_DIGITS / 2).toString('hex')}`;
}

/** Every token in a text (a body, a header value, a URL), in order. */
export function tokensIn(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

const PREFIX_BYTES = Buffer.from(TOKEN_PREFIX, 'latin1');
/** Whether byte `b` is one of a token's hex digits ([0-9a-f], as TOKEN_RE). */
const isHexDigit = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66);

/**
 * The tokens of a body, in order: what tokensIn finds in the body read as latin1, found in the
 * bytes themselves (no copy of the body as a string: the recording upstream reads every body).
 */
export function tokensInBytes(body: Buffer): string[] {
  const out: string[] = [];
  for (let at = body.indexOf(PREFIX_BYTES); at >= 0; ) {
    const end = at + TOKEN_LENGTH;
    let hex = end <= body.length;
    for (let i = at + PREFIX_BYTES.length; hex && i < end; i++) hex = isHexDigit(body[i]);
    if (hex) out.push(body.toString('latin1', at, end));
    at = body.indexOf(PREFIX_BYTES, hex ? end : at + 1);
  }
  return out;
}

/** `text` with every placeholder replaced by `token`. */
export function withToken(text: string, token: string): string {
  return text.split(CASE_PLACEHOLDER).join(token);
}
