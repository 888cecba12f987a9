// The sentence browser of a green report. It reads the report's JSON (the block above),
// filters the sentences and draws one page of them at a time, so a corpus of 10^5
// sentences opens as fast as a small one. Texts are put into the page as text nodes, never
// as markup. When the first page is drawn, <body> gets data-ready="1" and data-load-ms (the
// time since navigation started), which CI reads.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('green-data').textContent);
  var S = D.sentences, N = S.source.length, J = D.corpus.join, SYS = D.systems, B = D.baseline;
  var METRICS = D.metrics.map(function (m) { return m.metric; });
  var OUTCOME = ['correct', 'wrong correction', 'unnecessary', 'not scored'];
  var $ = function (id) { return document.getElementById(id); };

  function node(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function words(s) { return s === '' ? [] : s.split(' '); }
  function apply(src, edits) {
    var out = [], k = 0;
    for (var x = 0; x < edits.length; x++) {
      var e = edits[x];
      while (k < e[0]) out.push(src[k++]);
      if (e[2] !== '') Array.prototype.push.apply(out, e[2].split(' '));
      k = Math.max(k, e[1]);
    }
    while (k < src.length) out.push(src[k++]);
    return out;
  }
  function pts(v) { return v === null || v === undefined ? '–' : (v / 100).toFixed(2); }

  // ---- state and filters -------------------------------------------------------------
  var st = { q: '', type: '', sys: -1, outcome: '', disagree: false, diff: 0,
             metric: METRICS[0] || '', sort: 'corpus', regions: false, group: true, size: 20, page: 0,
             shown: SYS.map(function () { return true; }) };
  var list = [];
  var disagreeing = null;

  function editsKey(edits) {
    var k = '';
    for (var x = 0; x < edits.length; x++) k += edits[x][0] + ',' + edits[x][1] + ',' + edits[x][2] + '|';
    return k;
  }
  function disagrees(i) {
    if (disagreeing === null) {
      disagreeing = new Uint8Array(N);
      for (var j = 0; j < N; j++) {
        var first = editsKey(S.systems[0].edits[j]);
        for (var h = 1; h < SYS.length; h++) {
          if (editsKey(S.systems[h].edits[j]) !== first) { disagreeing[j] = 1; break; }
        }
      }
    }
    return disagreeing[i] === 1;
  }
  function systemsOf() {
    if (st.sys >= 0) return [st.sys];
    return SYS.map(function (_, h) { return h; });
  }
  function difference(i) {
    var scores = S.systems.map(function (s) { return s.scores[st.metric] ? s.scores[st.metric][i] : null; });
    if (st.sys >= 0) {
      if (scores[st.sys] === null || scores[B] === null) return -1;
      return Math.abs(scores[st.sys] - scores[B]);
    }
    var lo = Infinity, hi = -Infinity;
    scores.forEach(function (v) { if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    return hi >= lo ? hi - lo : -1;
  }
  function hasType(i) {
    var t = st.type;
    if (t.indexOf('gold:') === 0) return !!S.gold_types && S.gold_types[i].indexOf(t.slice(5)) >= 0;
    t = t.slice(3);
    var refs = S.references[i];
    for (var r = 0; r < refs.length; r++) for (var x = 0; x < refs[r].length; x++) if (refs[r][x][3] === t) return true;
    var hs = systemsOf();
    for (var k = 0; k < hs.length; k++) {
      var e = S.systems[hs[k]].edits[i];
      for (var y = 0; y < e.length; y++) if (e[y][3] === t) return true;
    }
    return false;
  }
  function hasOutcome(i) {
    var hs = systemsOf();
    for (var k = 0; k < hs.length; k++) {
      var s = S.systems[hs[k]];
      if (st.outcome === 'm') { if (s.reference_outcomes[i].indexOf('m') >= 0) return true; continue; }
      var code = +st.outcome;
      for (var y = 0; y < s.edits[i].length; y++) if (s.edits[i][y][4] === code) return true;
    }
    return false;
  }
  function texts(i) {
    var src = words(S.source[i]);
    var out = [src.join(J)];
    S.references[i].forEach(function (e) { out.push(apply(src, e).join(J)); });
    S.systems.forEach(function (s) { out.push(apply(src, s.edits[i]).join(J)); });
    return out;
  }
  function matches(i) {
    if (st.type && !hasType(i)) return false;
    if (st.outcome && !hasOutcome(i)) return false;
    if (st.disagree && !disagrees(i)) return false;
    if (st.diff > 0 && difference(i) < st.diff * 100) return false;
    if (st.q) {
      var all = texts(i), q = st.q;
      for (var k = 0; k < all.length; k++) if (all[k].toLowerCase().indexOf(q) >= 0) return true;
      return false;
    }
    return true;
  }
  function refilter() {
    list = [];
    for (var i = 0; i < N; i++) if (matches(i)) list.push(i);
    if (st.sort === 'diff') {
      var d = new Float64Array(N);
      list.forEach(function (i) { d[i] = difference(i); });
      list.sort(function (a, b) { return d[b] - d[a] || a - b; });
    }
    st.page = 0;
  }

  // ---- drawing -----------------------------------------------------------------------
  // A row's text as groups of tokens: kept source tokens, deleted and inserted tokens of an
  // edit, and the source tokens of a missed reference edit with what the reference does.
  function pieces(src, edits, missed, cls) {
    var events = edits.map(function (e) { return { s: e[0], e: e[1], c: e[2], t: e[3], o: e[4], miss: false }; });
    missed.forEach(function (e) { events.push({ s: e[0], e: e[1], c: e[2], t: e[3], miss: true }); });
    events.sort(function (a, b) { return a.s - b.s || a.e - b.e; });
    var out = [], pos = 0;
    function kept(a, b, g) { for (var k = a; k < b; k++) g.toks.push({ t: src[k], kind: 'kept' }); }
    events.forEach(function (ev) {
      if (ev.s > pos) { var g = { cls: '', toks: [] }; kept(pos, ev.s, g); out.push(g); }
      var o = ev.miss ? null : (cls || 'o' + ev.o);
      if (ev.miss) {
        var m = { cls: 'miss', title: 'missed (' + ev.t + '): the reference has “' + (ev.c || '(delete)') + '”', toks: [] };
        kept(ev.s, ev.e, m);
        if (m.toks.length) out.push(m);
        out.push({ fix: ev.e > ev.s && ev.c === '' ? '⌫' : '→' + ev.c.split(' ').join(J), title: m.title });
      } else {
        var title = ev.t + (cls ? '' : ': ' + OUTCOME[ev.o]);
        if (ev.e > ev.s) {
          var d = { tag: 'del', cls: o, title: title, toks: [] };
          for (var k = ev.s; k < ev.e; k++) d.toks.push({ t: src[k], kind: 'del' });
          out.push(d);
        }
        if (ev.c !== '') out.push({ tag: 'ins', cls: o, title: title, toks: ev.c.split(' ').map(function (t) { return { t: t, kind: 'ins' }; }) });
      }
      pos = Math.max(pos, ev.e);
    });
    if (pos < src.length) { var g = { cls: '', toks: [] }; kept(pos, src.length, g); out.push(g); }
    return out;
  }
  // GREEN's unigram regions of a system row against GREEN's chosen reference: over-inserted
  // and under-deleted tokens of the output, over-deleted source tokens, and the reference
  // tokens it did not insert.
  function regions(gs, src, ref) {
    var count = function (toks) { var c = Object.create(null); toks.forEach(function (t) { c[t] = (c[t] || 0) + 1; }); return c; };
    var sc = count(src), rc = count(ref), by = Object.create(null);
    gs.forEach(function (g) {
      (g.toks || []).forEach(function (t) {
        (by[t.t] = by[t.t] || { kept: [], ins: [], del: [] })[t.kind].push(t);
      });
    });
    var under = [], seen = Object.create(null);
    Object.keys(by).concat(Object.keys(rc)).forEach(function (w) {
      if (seen[w]) return;
      seen[w] = true;
      var b = by[w] || { kept: [], ins: [], del: [] };
      var s = sc[w] || 0, r = rc[w] || 0, c = b.kept.length + b.ins.length;
      var mark = function (n, order, what) {
        for (var k = 0; k < order.length && n > 0; k++) if (!order[k].mark) { order[k].mark = what; n--; }
      };
      mark(c - Math.max(s, r), b.ins.concat(b.kept), 'oi');
      mark(Math.min(s, c) - r, b.kept.concat(b.ins), 'ud');
      mark(Math.min(s, r) - c, b.del, 'od');
      for (var n = r - Math.max(s, c); n > 0; n--) under.push(w);
    });
    return under;
  }
  var REGION = { oi: 'over-inserted (GREEN: in neither the source nor the reference this often)',
                 ud: 'under-deleted (GREEN: the reference deletes it)',
                 od: 'over-deleted (GREEN: the reference keeps it)' };
  function draw(gs, into) {
    gs.forEach(function (g, x) {
      if (x > 0 && J && !g.fix) into.appendChild(document.createTextNode(J));
      if (g.fix) { var f = node('span', 'fix', g.fix); f.title = g.title; into.appendChild(f); return; }
      var box = g.tag || g.cls ? node(g.tag || 'span', g.cls) : into;
      if (g.title && box !== into) box.title = g.title;
      g.toks.forEach(function (t, k) {
        if (k > 0 && J) box.appendChild(document.createTextNode(J));
        if (t.mark) { var m = node('span', 'g-' + t.mark, t.t); m.title = REGION[t.mark]; box.appendChild(m); }
        else box.appendChild(document.createTextNode(t.t));
      });
      if (box !== into) into.appendChild(box);
    });
  }
  function sentence(i) {
    var src = words(S.source[i]);
    var box = node('div', 'sentence');
    box.id = 's' + (i + 1);
    var head = node('div', 'head');
    var a = node('a', '', '#' + (i + 1));
    a.href = '#s' + (i + 1);
    head.appendChild(a);
    head.appendChild(node('span', 'chip', src.length + ' tokens'));
    if (SYS.length > 1 && disagrees(i)) head.appendChild(node('span', 'chip', 'systems disagree'));
    if (S.gold_types) S.gold_types[i].forEach(function (t) { head.appendChild(node('span', 'chip', 'gold ' + t)); });
    box.appendChild(head);
    var rows = node('div', 'rows');
    function row(who, cls, fill, sc, whoTitle) {
      var w = node('div', 'who' + (cls ? ' ' + cls : ''), who);
      if (whoTitle) w.title = whoTitle;
      rows.appendChild(w);
      var t = node('div', 'text' + (cls === 'src' ? ' src' : ''));
      fill(t);
      rows.appendChild(t);
      rows.appendChild(node('div', 'sc' + (cls === 'src' ? ' src' : ''), sc || ''));
    }
    row('source', 'src', function (t) { t.textContent = src.join(J); }, '', D.corpus.source || '');
    S.references[i].forEach(function (edits, r) {
      row('reference ' + (r + 1), '', function (t) { draw(pieces(src, edits, [], 'ref'), t); }, '', D.corpus.references[r] || D.corpus.references[0]);
    });
    // Systems with the same output, scored against the same reference, share a row.
    var rowsOf = [], at = Object.create(null);
    SYS.forEach(function (_, h) {
      if (!st.shown[h]) return;
      var s = S.systems[h];
      var key = s.reference[i] + '|' + s.reference_outcomes[i] + '|' + JSON.stringify(s.edits[i]) +
        (st.regions && s.green_reference ? '|' + s.green_reference[i] : '');
      if (st.group && key in at) rowsOf[at[key]].push(h);
      else { at[key] = rowsOf.length; rowsOf.push([h]); }
    });
    rowsOf.forEach(function (members) {
      var h = members[0], s = S.systems[h];
      var r = s.reference[i], refEdits = S.references[i][r] || [], letters = s.reference_outcomes[i];
      var missed = refEdits.filter(function (_, k) { return letters[k] === 'm'; });
      var gs = pieces(src, s.edits[i], missed, null);
      var under = [];
      if (st.regions && s.green_reference) {
        under = regions(gs, src, apply(src, S.references[i][s.green_reference[i]] || []));
      }
      var withBase = members.indexOf(B) >= 0;
      var lines = METRICS.map(function (m) {
        var v = s.scores[m][i], line = m + ' ' + pts(v);
        var b = S.systems[B].scores[m][i];
        if (!withBase && v !== null && b !== null && v !== b) line += ' ' + (v > b ? '+' : '−') + pts(Math.abs(v - b));
        return line;
      });
      var names = members.map(function (k) { return SYS[k].name; }).join(', ');
      var title = members.map(function (k) { return SYS[k].path; }).join(', ') + ' · ERRANT chose reference ' + (r + 1) +
        (s.green_reference ? ', GREEN reference ' + (s.green_reference[i] + 1) : '');
      row(names, withBase ? 'base' : '', function (t) {
        draw(gs, t);
        if (under.length) t.appendChild(node('span', 'g-ui', '  not inserted: ' + under.join(J ? ' ' : '、')));
      }, lines.join('\n'), title);
    });
    box.appendChild(rows);
    return box;
  }
  function pager(into) {
    into.textContent = '';
    var pages = Math.max(1, Math.ceil(list.length / st.size));
    function button(label, page, off) {
      var b = node('button', '', label);
      b.disabled = off;
      b.addEventListener('click', function () { st.page = page; render(); });
      into.appendChild(b);
    }
    button('«', 0, st.page === 0);
    button('‹', st.page - 1, st.page === 0);
    into.appendChild(document.createTextNode(' page ' + (st.page + 1) + ' of ' + pages + ' '));
    button('›', st.page + 1, st.page >= pages - 1);
    button('»', pages - 1, st.page >= pages - 1);
    var go = node('input');
    go.type = 'number'; go.min = 1; go.max = N; go.placeholder = '#';
    go.title = 'go to sentence';
    go.addEventListener('change', function () { location.hash = '#s' + go.value; });
    into.appendChild(document.createTextNode('  go to '));
    into.appendChild(go);
  }
  function render() {
    var box = $('list');
    box.textContent = '';
    var start = st.page * st.size;
    var frag = document.createDocumentFragment();
    list.slice(start, start + st.size).forEach(function (i) { frag.appendChild(sentence(i)); });
    box.appendChild(frag);
    $('status').textContent = list.length + ' of ' + N + ' sentences' +
      (list.length ? ', showing ' + (start + 1) + '–' + Math.min(start + st.size, list.length) : '');
    pager($('pager-top'));
    pager($('pager-bottom'));
  }

  // ---- controls ----------------------------------------------------------------------
  function option(select, value, label) {
    var o = node('option', '', label);
    o.value = value;
    select.appendChild(o);
  }
  var typeSel = $('type');
  option(typeSel, '', 'any');
  D.types.forEach(function (t) {
    var prefix = t.scheme === 'gold' ? 'gold:' : 'op:';
    var names = t.types.slice();
    if (t.scheme !== 'gold' && names.indexOf('UNK') < 0) names.push('UNK');
    names.forEach(function (n) { option(typeSel, prefix + n, (t.scheme === 'gold' ? 'gold ' : 'operation ') + n); });
  });
  option($('sys'), '-1', 'any system');
  SYS.forEach(function (s, h) { option($('sys'), String(h), s.name + (h === B ? ' (baseline)' : '')); });
  METRICS.forEach(function (m) { option($('metric'), m, m); });
  if (!SYS.some(function (_, h) { return S.systems[h].green_reference; })) $('regions').parentNode.hidden = true;
  SYS.forEach(function (s, h) {
    var l = node('label');
    var c = node('input');
    c.type = 'checkbox'; c.checked = true;
    c.addEventListener('change', function () { st.shown[h] = c.checked; render(); });
    l.appendChild(c);
    l.appendChild(document.createTextNode(' ' + s.name + '  '));
    $('shown-list').appendChild(l);
  });
  var timer = null;
  function changed() {
    st.q = $('q').value.trim().toLowerCase();
    st.type = typeSel.value;
    st.sys = +$('sys').value;
    st.outcome = $('outcome').value;
    st.disagree = $('disagree').checked;
    st.diff = Math.max(0, +$('diff').value || 0);
    st.metric = $('metric').value;
    st.sort = $('sort').value;
    refilter();
    render();
  }
  ['type', 'sys', 'outcome', 'disagree', 'diff', 'metric', 'sort'].forEach(function (id) {
    $(id).addEventListener('change', changed);
  });
  $('q').addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(changed, 300); });
  $('regions').addEventListener('change', function () { st.regions = $('regions').checked; render(); });
  $('group').addEventListener('change', function () { st.group = $('group').checked; render(); });
  $('size').addEventListener('change', function () { st.size = +$('size').value; st.page = 0; render(); });
  function reset() {
    $('q').value = ''; typeSel.value = ''; $('sys').value = '-1'; $('outcome').value = '';
    $('disagree').checked = false; $('diff').value = '0'; $('sort').value = 'corpus';
    changed();
  }
  function fromHash() {
    var m = /^#s(\d+)$/.exec(location.hash);
    if (!m) return false;
    var i = +m[1] - 1;
    if (i < 0 || i >= N) return false;
    if (list.indexOf(i) < 0) reset();
    st.page = Math.floor(list.indexOf(i) / st.size);
    render();
    var box = $('s' + (i + 1));
    if (box) { box.classList.add('target'); box.scrollIntoView(); }
    return true;
  }
  window.addEventListener('hashchange', fromHash);

  // ---- outcome totals, counted from the sentence data ------------------------------------
  SYS.forEach(function (_, h) {
    var t = { correct: 0, wrong: 0, unnecessary: 0, missed: 0, covered: 0 };
    var s = S.systems[h];
    for (var i = 0; i < N; i++) {
      var e = s.edits[i];
      for (var x = 0; x < e.length; x++) {
        if (e[x][4] === 0) t.correct++; else if (e[x][4] === 1) t.wrong++; else if (e[x][4] === 2) t.unnecessary++;
      }
      var l = s.reference_outcomes[i];
      for (var y = 0; y < l.length; y++) { if (l[y] === 'm') t.missed++; else if (l[y] === 'w') t.covered++; }
    }
    Object.keys(t).forEach(function (k) {
      var cell = document.querySelector('[data-browser="' + h + ' ' + k + '"]');
      if (cell) cell.textContent = String(t[k]);
    });
  });

  $('controls').hidden = false;
  $('shown').hidden = SYS.length < 2;
  refilter();
  if (!fromHash()) render();
  document.body.setAttribute('data-load-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-ready', '1');
})();
