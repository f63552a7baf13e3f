// The head every HTML page of the harness opens with (the run report, the matrix): the doctype,
// the page's Content-Security-Policy (its own style and script by hash, nothing else: gateway
// text in the page can load and run nothing), no referrer, the viewport, the title (escaped
// here) and the style.
import { escapeText } from '../../core/inert.js';

export function htmlHead(o: { csp: string; title: string; style: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${o.csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(o.title)}</title>
<style>${o.style}</style>
</head>`;
}
