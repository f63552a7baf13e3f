// A WebSocket check's messages (evidence `socketFrames`, src/core/evidence.ts) as a table on the
// socket's own clock: which way each went, where it was seen, when, its kind, size and text, every
// value escaped (the gateway's bytes are inert here as everywhere).
import { escapeText } from '../../core/inert.js';
import { isObj, type Json } from './escape.js';

const cell = (v: Json | undefined) => `<td>${escapeText(String(v ?? ''), true)}</td>`;

/** The table of a transcript, or '' when it holds no line. */
export function framesTable(t: Json): string {
  if (!isObj(t) || !Array.isArray(t.lines) || !t.lines.length) return '';
  const rows = t.lines.filter(isObj).map((l) => `<tr>${cell(l.atMs)}${cell(l.dir === 'up' ? 'client → upstream' : 'upstream → client')}${cell(l.seen)}${cell(l.type)}${cell(`${l.binary ? 'binary' : 'text'}, ${l.bytes} B`)}${cell(l.text)}</tr>`);
  const left = typeof t.left === 'number' && t.left > 0 ? `<p class="note">${t.left} more messages in report.json</p>` : '';
  return `<table class="frames"><thead><tr><th>ms</th><th>way</th><th>seen at</th><th>type</th><th>kind</th><th>text</th></tr></thead><tbody>${rows.join('')}</tbody></table>${left}`;
}
