// The page's one script: filters, search, their state in the address, deep links and copy buttons.
// Static text (its hash is in the page's Content-Security-Policy, assets.ts); it reads only the
// page and its own address, and writes only the address (history) and the clipboard.
// - Filters and search: a row shows when its outcome, area and level are ticked and every word of
//   the search occurs in its id, requirements, title or message.
// - The address: `?q=words&outcome=fail,error&area=...&level=...` (a list only when not all are
//   ticked), restored on load and on back/forward; a filter change is a history entry, a run of
//   typing one. The fragment stays a deep link: `#<check-id>` opens that check and scrolls to it.
// - Copy: a button beside a command puts the command on the clipboard (the Clipboard API, or a
//   hidden selected textarea and execCommand where that API is refused).
export const SCRIPT = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.check'));
  var box = document.getElementById('filters');
  var shown = document.getElementById('shown');
  var search = document.getElementById('q');
  var KINDS = ['outcome', 'area', 'level'];
  var typing = false;
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function boxes(name) { return all('input[type="checkbox"][name="' + name + '"]', box); }
  function checked(name) {
    var s = {};
    boxes(name).forEach(function (i) { if (i.checked) s[i.value] = true; });
    return s;
  }
  var texts = rows.map(function (r) {
    return all('.cid, .reqs, .title, .fmsg, .desc, .msg', r).map(function (e) { return e.textContent; }).join(' ').toLowerCase();
  });
  function apply() {
    var o = checked('outcome'), a = checked('area'), l = checked('level'), n = 0;
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    rows.forEach(function (r, k) {
      var on = !!(o[r.dataset.outcome] && a[r.dataset.area] && l[r.dataset.level]) &&
        words.every(function (w) { return texts[k].indexOf(w) >= 0; });
      r.hidden = !on;
      if (on) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' checks shown';
  }
  function address() {
    var p = new URLSearchParams();
    if (search.value) p.set('q', search.value);
    KINDS.forEach(function (name) {
      var list = boxes(name), on = list.filter(function (i) { return i.checked; });
      if (on.length < list.length) p.set(name, on.map(function (i) { return i.value; }).join(','));
    });
    var q = p.toString();
    return location.pathname + (q ? '?' + q : '') + location.hash;
  }
  function save(replace) {
    var next = address();
    if (next === location.pathname + location.search + location.hash) return;
    if (replace) history.replaceState(null, '', next);
    else history.pushState(null, '', next);
  }
  function restore() {
    var p = new URLSearchParams(location.search);
    search.value = p.get('q') || '';
    KINDS.forEach(function (name) {
      var v = p.get(name), want = {};
      if (v !== null) v.split(',').forEach(function (x) { want[x] = true; });
      boxes(name).forEach(function (i) { i.checked = v === null || !!want[i.value]; });
    });
    apply();
  }
  function preset(which) {
    all('input[type="checkbox"]', box).forEach(function (i) {
      i.checked = which === 'all' || i.name !== 'outcome' || (i.value !== 'pass' && i.value !== 'skip');
    });
    apply();
    save(false);
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
  function pasteByHand(text) {
    var t = document.createElement('textarea');
    t.value = text;
    t.className = 'offscreen';
    t.setAttribute('readonly', '');
    document.body.appendChild(t);
    t.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(t);
    return ok;
  }
  function copy(button) {
    var text = button.parentNode.querySelector('pre').textContent.replace(/\\n+$/, '');
    function done(ok) {
      button.textContent = ok ? 'copied' : 'copy failed: select the text';
      setTimeout(function () { button.textContent = 'copy'; }, 2000);
    }
    if (navigator.clipboard && navigator.clipboard.writeText)
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(pasteByHand(text)); });
    else done(pasteByHand(text));
  }
  box.addEventListener('change', function (e) {
    if (e.target === search) { typing = false; return; }
    typing = false;
    apply();
    save(false);
  });
  search.addEventListener('input', function () {
    apply();
    save(typing);
    typing = true;
  });
  all('button[data-preset]', box).forEach(function (b) {
    b.addEventListener('click', function () { preset(b.getAttribute('data-preset')); });
  });
  all('button.copy').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () { copy(b); });
  });
  window.addEventListener('popstate', function () { restore(); openHash(); });
  window.addEventListener('hashchange', openHash);
  box.hidden = false;
  restore();
  openHash();
})();
`;
