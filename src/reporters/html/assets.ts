// The Content-Security-Policy of the HTML page: nothing may load, and only the page's one style
// sheet (style.ts) and one script (script.ts) may apply or run, each allowed by its hash.
import { createHash } from 'node:crypto';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';

export { SCRIPT, STYLE };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
/** The page's Content-Security-Policy: nothing may load; the one style and script run by hash. */
export const CSP = `default-src 'none'; script-src 'sha256-${sha256(SCRIPT)}'; style-src 'sha256-${sha256(STYLE)}'; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'`;
