// The page's one style sheet: light colours by default, dark ones when the reader's system asks
// for them (prefers-color-scheme), every colour a variable so both schemes keep readable contrast.
// Static text: its hash is in the page's Content-Security-Policy (assets.ts).
export const STYLE = `
:root{color-scheme:light dark;--fg:#1d2228;--muted:#5b6570;--line:#d9dee4;--bg:#fff;--soft:#f4f6f8;--card:#fff;--on-badge:#fff;--fail:#c62828;--warn:#9a5b00;--pass:#2e7d32;--info:#1565c0;--skip:#6d747c;--mark:#ffe08a;--zero:#b7bec6;--ptr:#6a1b9a;--ctl:#ad1457;--ctl-bg:#fce4ec;--grid:#e6e9ed;--lag:#b0b8c1;--direct:#b36200;--through:#0b62a4}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ed;--muted:#a3adb8;--line:#3a424b;--bg:#14181c;--soft:#1d2329;--card:#181d22;--on-badge:#111417;--fail:#ff7b7b;--warn:#ffb74d;--pass:#7bc87f;--info:#74b9f5;--skip:#a3adb8;--mark:#6b5200;--zero:#6d7783;--ptr:#ce93d8;--ctl:#f48fb1;--ctl-bg:#3d1f2b;--grid:#2a3138;--lag:#5b6570;--direct:#f0a83a;--through:#6cb4f0}}
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
.interrupted{color:var(--fail);font-weight:600}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;color:var(--on-badge);font-weight:600;margin-right:8px}
.verdict.ok{background:var(--pass)}.verdict.bad{background:var(--fail)}
.badge{display:inline-block;min-width:58px;text-align:center;padding:1px 6px;border-radius:3px;font-size:11.5px;font-weight:700;color:var(--on-badge);letter-spacing:.03em}
.o-fail,.o-error,.o-timeout,.o-flaky{background:var(--fail)}.o-waived{background:var(--skip)}.o-warn{background:var(--warn)}.o-info{background:var(--info)}.o-pass{background:var(--pass)}.o-skip{background:var(--skip)}
.lvl{display:inline-block;width:60px;font-size:11.5px;color:var(--muted);font-weight:600}
table{border-collapse:collapse}
.counts td,.counts th{border:1px solid var(--line);padding:3px 9px;text-align:right}
.counts th:first-child,.counts td:first-child{text-align:left}
.counts td.hot{color:var(--fail);font-weight:700}.counts td.zero{color:var(--zero)}
.tables{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
#filters{display:flex;flex-wrap:wrap;gap:8px 26px;padding:10px 12px;border:1px solid var(--line);border-radius:6px;background:var(--soft);margin:14px 0}
#filters fieldset{border:0;margin:0;padding:0}
#filters legend{font-weight:600;padding:0;margin-bottom:2px}
#filters label{margin-right:10px;white-space:nowrap}
#filters button{font:inherit;padding:2px 10px}
#shown{color:var(--muted);align-self:center}
#q{font:inherit;padding:3px 8px;min-width:300px;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px}
.cmd{display:flex;gap:8px;align-items:flex-start;margin:4px 0}
.cmd>pre{flex:1;min-width:0}
.copy{font:inherit;font-size:12px;padding:3px 10px;white-space:nowrap}
.offscreen{position:fixed;top:0;left:-10000px;opacity:0}
details.check{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--card)}
details.check[hidden]{display:none}
details.check>summary{cursor:pointer;padding:7px 10px;display:flex;gap:10px;align-items:baseline;list-style:none}
details.check>summary::-webkit-details-marker{display:none}
details.check>summary::before{content:"▸";color:var(--muted);width:10px}
details.check[open]>summary::before{content:"▾"}
details.check[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.check:target{outline:2px solid var(--info)}
.cid{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;font-weight:600;min-width:290px}
.title,.fmsg{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.fmsg{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.desc{color:var(--muted);margin:10px 0 4px}
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
.ptr{color:var(--ptr)}
.where{color:var(--muted);font-size:12px;margin:8px 0 4px}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:10px}
.side{border:1px solid var(--line);border-radius:4px;padding:8px}
.side .k{font-weight:600;color:var(--muted);font-size:12px;margin:6px 0 2px}
.kvs{display:flex;flex-wrap:wrap;gap:2px 14px}.kv .k{margin:0}
.headers th,.headers td{border-bottom:1px solid var(--line);padding:2px 8px 2px 0;text-align:left;vertical-align:top;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
.headers th{color:var(--muted);font-weight:500;white-space:nowrap}
.ctl{color:var(--ctl);background:var(--ctl-bg);border-radius:2px;padding:0 1px}
.note{color:var(--muted);font-style:italic}
.timeline{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.timeline>pre{flex:1 1 360px;max-height:300px}
figure.chart{margin:0 0 8px;flex:0 1 640px}
figure.chart svg{max-width:100%;height:auto;border:1px solid var(--line);border-radius:4px;background:var(--card)}
figcaption{color:var(--muted);font-size:12px}
.grid{stroke:var(--grid);stroke-width:1}
.tick,.axis,.legend text{font:11px system-ui,sans-serif;fill:var(--muted)}
.sent{fill:var(--info)}
.arrived{fill:var(--pass)}.arrived.late{fill:var(--fail)}
.lag{stroke:var(--lag);stroke-width:1.5}
.bound{stroke:var(--fail);stroke-width:1.5;stroke-dasharray:5 4;fill:none}
.loadchart{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;margin-bottom:10px}
.nums td{text-align:right;font-variant-numeric:tabular-nums}
.bar.s-direct,.pt.s-direct{fill:var(--direct)}.bar.s-through,.pt.s-through{fill:var(--through)}.pt.s-failed{fill:var(--fail)}
.line{fill:none;stroke-width:2}.line.s-direct{stroke:var(--direct);stroke-dasharray:6 3}.line.s-through{stroke:var(--through)}.line.s-failed{stroke:var(--fail);stroke-dasharray:2 3}
.ref{stroke:var(--muted);stroke-width:1;stroke-dasharray:4 4}
.val{font:10px system-ui,sans-serif;fill:var(--fg)}
.raw>summary{cursor:pointer;color:var(--muted);margin-top:12px}
footer{color:var(--muted);font-size:12px;padding:0 28px 28px}
`;
