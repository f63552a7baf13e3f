// The page's one style sheet and one script, and the Content-Security-Policy that lets only these
// two run (by hash): the page loads nothing, and nothing else on it can run.
import { createHash } from 'node:crypto';

export const STYLE = `
:root{--fg:#1d2228;--muted:#5b6570;--line:#d9dee4;--bg:#fff;--soft:#f4f6f8;--fail:#c62828;--warn:#b26a00;--pass:#2e7d32;--info:#1565c0;--skip:#6d747c;--mark:#ffe08a}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:18px 28px 10px;border-bottom:1px solid var(--line);background:var(--soft)}
h1{font-size:20px;margin:0 0 6px}
h2{font-size:16px;margin:22px 0 8px}
h3{font-size:13px;margin:16px 0 6px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
h4{font-size:13px;margin:0 0 6px}
main{padding:6px 28px 40px;max-width:1280px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
pre{margin:0;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto}
.meta{display:flex;flex-wrap:wrap;gap:6px 22px;color:var(--muted)}
.meta b{color:var(--fg);font-weight:600}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;margin-right:8px}
.verdict.ok{background:var(--pass)}.verdict.bad{background:var(--fail)}
.badge{display:inline-block;min-width:58px;text-align:center;padding:1px 6px;border-radius:3px;font-size:11.5px;font-weight:700;color:#fff;letter-spacing:.03em}
.o-fail,.o-error,.o-timeout,.o-flaky{background:var(--fail)}.o-waived{background:var(--skip)}.o-warn{background:var(--warn)}.o-info{background:var(--info)}.o-pass{background:var(--pass)}.o-skip{background:var(--skip)}
.lvl{display:inline-block;width:60px;font-size:11.5px;color:var(--muted);font-weight:600}
table{border-collapse:collapse}
.counts td,.counts th{border:1px solid var(--line);padding:3px 9px;text-align:right}
.counts th:first-child,.counts td:first-child{text-align:left}
.counts td.hot{color:var(--fail);font-weight:700}.counts td.zero{color:#b7bec6}
.tables{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
#filters{display:flex;flex-wrap:wrap;gap:8px 26px;padding:10px 12px;border:1px solid var(--line);border-radius:6px;background:var(--soft);margin:14px 0}
#filters fieldset{border:0;margin:0;padding:0}
#filters legend{font-weight:600;padding:0;margin-bottom:2px}
#filters label{margin-right:10px;white-space:nowrap}
#filters button{font:inherit;padding:2px 10px}
#shown{color:var(--muted);align-self:center}
details.check{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:#fff}
details.check[hidden]{display:none}
details.check>summary{cursor:pointer;padding:7px 10px;display:flex;gap:10px;align-items:baseline;list-style:none}
details.check>summary::-webkit-details-marker{display:none}
details.check>summary::before{content:"▸";color:var(--muted);width:10px}
details.check[open]>summary::before{content:"▾"}
details.check[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.check:target{outline:2px solid var(--info)}
.cid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;font-weight:600;min-width:290px}
.title{flex:1;min-width:0}
.reqs{color:var(--muted);font-size:12px;white-space:nowrap}
.permalink{color:var(--muted);text-decoration:none;font-size:12px}
.body{padding:4px 16px 14px}
.msg{font-weight:600;margin:10px 0}
.req{margin:4px 0;padding:6px 10px;border-left:3px solid var(--line);background:var(--soft)}
.req .rid{font-weight:700;margin-right:6px}.req .sec{color:var(--muted);font-size:12px}
.ea{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.ea h4{color:var(--muted)}
.diff td,.diff th{border:1px solid var(--line);padding:4px 8px;vertical-align:top;text-align:left}
.diff th{background:var(--soft)}
.diff td.v{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere}
.diff pre{border:0;background:none;padding:0}
mark{background:var(--mark);color:inherit;border-radius:2px;padding:0 1px}
.gap{color:var(--muted)}
.ptr{color:#6a1b9a}
.where{color:var(--muted);font-size:12px;margin:8px 0 4px}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:10px}
.side{border:1px solid var(--line);border-radius:4px;padding:8px}
.side .k{font-weight:600;color:var(--muted);font-size:12px;margin:6px 0 2px}
.kvs{display:flex;flex-wrap:wrap;gap:2px 14px}.kv .k{margin:0}
.headers th,.headers td{border-bottom:1px solid var(--line);padding:2px 8px 2px 0;text-align:left;vertical-align:top;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
.headers th{color:var(--muted);font-weight:500;white-space:nowrap}
.ctl{color:#ad1457;background:#fce4ec;border-radius:2px;padding:0 1px}
.note{color:var(--muted);font-style:italic}
.timeline{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.timeline>pre{flex:1 1 360px;max-height:300px}
figure.chart{margin:0 0 8px;flex:0 1 640px}
figure.chart svg{max-width:100%;height:auto;border:1px solid var(--line);border-radius:4px;background:#fff}
figcaption{color:var(--muted);font-size:12px}
.grid{stroke:#e6e9ed;stroke-width:1}
.tick,.axis,.legend text{font:11px system-ui,sans-serif;fill:#5b6570}
.sent{fill:#1565c0}
.arrived{fill:#2e7d32}.arrived.late{fill:#c62828}
.lag{stroke:#b0b8c1;stroke-width:1.5}
.bound{stroke:#c62828;stroke-width:1.5;stroke-dasharray:5 4;fill:none}
.raw>summary{cursor:pointer;color:var(--muted);margin-top:12px}
footer{color:var(--muted);font-size:12px;padding:0 28px 28px}
`;

// Filters and deep links. Static text (its hash is in the policy); it reads only the page.
export const SCRIPT = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var box = document.getElementById('filters');
  var shown = document.getElementById('shown');
  function checked(name) {
    var s = {};
    box.querySelectorAll('input[name="' + name + '"]').forEach(function (i) { if (i.checked) s[i.value] = true; });
    return s;
  }
  function apply() {
    var o = checked('outcome'), a = checked('area'), l = checked('level'), n = 0;
    rows.forEach(function (r) {
      var on = !!(o[r.dataset.outcome] && a[r.dataset.area] && l[r.dataset.level]);
      r.hidden = !on;
      if (on) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' checks shown';
  }
  function preset(which) {
    box.querySelectorAll('input').forEach(function (i) {
      i.checked = which === 'all' || i.name !== 'outcome' || (i.value !== 'pass' && i.value !== 'skip');
    });
    apply();
  }
  function openHash() {
    var id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var el = id ? document.getElementById(id) : null;
    if (el && el.classList.contains('check')) {
      el.hidden = false;
      el.open = true;
      el.scrollIntoView({ block: 'start' });
    }
  }
  box.addEventListener('change', apply);
  box.querySelectorAll('button[data-preset]').forEach(function (b) {
    b.addEventListener('click', function () { preset(b.getAttribute('data-preset')); });
  });
  window.addEventListener('hashchange', openHash);
  box.hidden = false;
  apply();
  openHash();
})();
`;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');
/** The page's Content-Security-Policy: nothing may load; the one style and script run by hash. */
export const CSP = `default-src 'none'; script-src 'sha256-${sha256(SCRIPT)}'; style-src 'sha256-${sha256(STYLE)}'; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'`;
