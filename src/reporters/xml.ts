// Escaping for the XML the harness writes (JUnit for runs and for lint-config). Text is escaped,
// never put in CDATA, so any number of "]]>" is plain text; characters XML 1.0 forbids are
// written visibly as \uXXXX.
/** Characters XML 1.0 does not allow (section 2.2), lone surrogates included. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const visible = (s: string) => s.replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** Element content: & < > escaped (so "]]>" cannot occur), forbidden characters made visible. */
export function xmlText(s: string): string {
  return visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute value in double quotes; tab and line breaks as character references so they survive. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

export const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
