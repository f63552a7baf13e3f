// The matrix page's one style sheet and one script, static text allowed by hash in the page's
// Content-Security-Policy (nothing may load). The script reads only the page: a click on a column
// head sorts the rows by that column (again: the other way), and the filter box hides the rows
// that do not hold every word typed (check id, title, area, level, cell values).
import { createHash } from 'node:crypto';

export const MATRIX_STYLE = `
:root{color-scheme:light dark;--fg:#1d2228;--muted:#5b6570;--line:#d9dee4;--bg:#fff;--soft:#f4f6f8;--fail:#c62828;--warn:#9a5b00;--pass:#2e7d32;--info:#1565c0;--skip:#6d747c;--on:#fff}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ed;--muted:#a3adb8;--line:#3a424b;--bg:#14181c;--soft:#1d2329;--fail:#ff7b7b;--warn:#ffb74d;--pass:#7bc87f;--info:#74b9f5;--skip:#a3adb8;--on:#111417}}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:16px 24px 8px;border-bottom:1px solid var(--line);background:var(--soft)}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:22px 0 8px}
main{padding:6px 24px 40px}
table{border-collapse:collapse}
td,th{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;color:inherit;cursor:pointer}
th[aria-sort="ascending"] button::after{content:" \\25B2"}th[aria-sort="descending"] button::after{content:" \\25BC"}
td.v{font-weight:700;text-align:center}td.v a{color:inherit}
.o-fail,.o-error,.o-timeout,.o-flaky{background:var(--fail);color:var(--on)}.o-warn{background:var(--warn);color:var(--on)}.o-info{background:var(--info);color:var(--on)}
.o-pass{background:var(--pass);color:var(--on)}.o-skip,.o-waived,.o-not-offered{background:var(--skip);color:var(--on)}.o-not-applicable{color:var(--muted);font-weight:400}
.note{color:var(--muted)}.ctl{color:var(--fail)}
#filter{min-width:320px;padding:4px 6px;margin:6px 0 10px}
`;

export const MATRIX_SCRIPT = `
(function () {
  function rowsOf(t) { return Array.prototype.slice.call(t.tBodies[0].rows); }
  function key(cell) { var s = cell.getAttribute('data-sort'); return s === null ? cell.textContent.toLowerCase() : Number(s); }
  Array.prototype.slice.call(document.querySelectorAll('table.sortable')).forEach(function (table) {
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    heads.forEach(function (th, col) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = th.textContent;
      th.textContent = '';
      th.appendChild(b);
      b.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var rows = rowsOf(table);
        rows.sort(function (x, y) {
          var a = key(x.cells[col]), c = key(y.cells[col]);
          return (a < c ? -1 : a > c ? 1 : 0) * dir;
        });
        rows.forEach(function (r) { table.tBodies[0].appendChild(r); });
      });
    });
  });
  var box = document.getElementById('filter');
  var shown = document.getElementById('shown');
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean), n = 0, all = 0;
    Array.prototype.slice.call(document.querySelectorAll('table.sortable')).forEach(function (t) {
      rowsOf(t).forEach(function (r) {
        var text = r.textContent.toLowerCase();
        r.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
        all++;
        if (!r.hidden) n++;
      });
    });
    shown.textContent = n + ' of ' + all + ' rows shown';
  }
  box.hidden = false;
  box.addEventListener('input', apply);
  apply();
})();
`;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
/** Nothing may load; the one style and the one script apply by hash. */
export const MATRIX_CSP = `default-src 'none'; script-src 'sha256-${sha256(MATRIX_SCRIPT)}'; style-src 'sha256-${sha256(MATRIX_STYLE)}'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
