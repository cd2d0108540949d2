// The attest page. Everything shown is built from DOM nodes: article text only
// ever reaches the page as text nodes, never as markup.
'use strict';

const STANCES = ['asserts', 'confirms', 'denies', 'declines', 'claims', 'reports', 'believes', 'intends'];
const KINDS = ['person', 'organization', 'unnamed', 'document', 'media_outlet', 'social_media'];
const KIND_NAMES = {
  person: 'people', organization: 'organizations', unnamed: 'unnamed sources',
  document: 'documents', media_outlet: 'media outlets', social_media: 'social media',
};

// el('p', {class: 'x'}, 'text', child): an element with attributes and children;
// strings become text nodes.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function clip(text, max) {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : chars.slice(0, max - 1).join('') + '…';
}

function spansText(spans) {
  return spans.map((s) => s.text).join(' … ');
}

// Content in quotation marks, unless it opens with one of its own; a cue
// found without content says so rather than showing empty marks.
function quoted(text) {
  if (text === '') return '(no content)';
  return /^["“‘'«]/.test(text) ? text : `“${text}”`;
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

async function api(path, options) {
  const response = await fetch(path, options);
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    const message = body && body.error ? body.error.message : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return body;
}

// ---------------------------------------------------------------- Analyse

const form = document.getElementById('analyse-form');
const statusLine = document.getElementById('analyse-status');
let lastDoc = null;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const record = { text: data.get('text') };
  for (const field of ['title', 'outlet', 'url', 'published']) {
    const value = String(data.get(field) || '').trim();
    if (value) record[field] = value;
  }
  const button = document.getElementById('analyse-button');
  button.disabled = true;
  statusLine.className = '';
  statusLine.textContent = 'Analysing…';
  try {
    const started = performance.now();
    lastDoc = await api('/v1/analyze', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(record),
    });
    const took = Math.round(performance.now() - started);
    const count = (lastDoc.attributions || []).length;
    statusLine.textContent = `${count} attribution${count === 1 ? '' : 's'} · ${took} ms`;
    renderDocument(lastDoc);
  } catch (error) {
    statusLine.className = 'error';
    statusLine.textContent = error.message;
  } finally {
    button.disabled = false;
  }
});

for (const name of ['show-hedges', 'show-entities', 'show-quantities', 'show-times']) {
  form.elements[name].addEventListener('change', () => {
    if (lastDoc) renderDocument(lastDoc);
  });
}

function stanceOf(doc) {
  const stances = new Map();
  for (const stance of doc.stances || []) {
    if (!stances.has(stance.attribution)) stances.set(stance.attribution, stance);
  }
  return stances;
}

// Marks over code-point ranges: attribution roles, hedges, and the optional layers.
function collectMarks(doc) {
  const marks = [];
  (doc.attributions || []).forEach((attribution, index) => {
    for (const role of ['source', 'cue', 'content']) {
      for (const span of attribution[role]) {
        if (span.cp_end > span.cp_start) {
          marks.push({ start: span.cp_start, end: span.cp_end, role, attribution: index });
        }
      }
    }
  });
  const show = (name) => form.elements[name].checked;
  if (show('show-hedges')) {
    for (const hedge of doc.hedges || []) {
      marks.push({ start: hedge.scope.cp_start, end: hedge.scope.cp_end, role: 'hedge-scope', title: `hedged by “${hedge.cue.text}”` });
      marks.push({ start: hedge.cue.cp_start, end: hedge.cue.cp_end, role: 'hedge-cue', title: 'unattributed hedge' });
    }
  }
  if (show('show-entities')) {
    for (const entity of doc.entities || []) {
      marks.push({ start: entity.span.cp_start, end: entity.span.cp_end, role: 'entity', title: `${entity.label} · cluster ${entity.cluster}` });
    }
  }
  if (show('show-quantities')) {
    for (const quantity of doc.quantities || []) {
      const value = quantity.low === quantity.high ? quantity.low : `${quantity.low ?? '?'}–${quantity.high ?? '…'}`;
      marks.push({ start: quantity.span.cp_start, end: quantity.span.cp_end, role: 'quantity', title: `${value} ${quantity.unit}` });
    }
  }
  if (show('show-times')) {
    for (const time of doc.times || []) {
      const value = time.value || `unresolved: ${time.unresolved || ''}`;
      marks.push({ start: time.span.cp_start, end: time.span.cp_end, role: 'time', title: value });
    }
  }
  return marks;
}

// The article as paragraphs of segments; each segment carries the marks over it.
function renderArticle(doc, stances) {
  const view = document.getElementById('article-view');
  view.replaceChildren();
  const chars = Array.from(doc.text);
  const marks = collectMarks(doc);
  const paragraphs = (doc.paragraphs && doc.paragraphs.length)
    ? doc.paragraphs.map((p) => ({ start: p.span.cp_start, end: p.span.cp_end, role: p.role }))
    : [{ start: 0, end: chars.length, role: 'body' }];
  for (const paragraph of paragraphs) {
    const cuts = new Set([paragraph.start, paragraph.end]);
    for (const mark of marks) {
      if (mark.end > paragraph.start && mark.start < paragraph.end) {
        cuts.add(Math.max(mark.start, paragraph.start));
        cuts.add(Math.min(mark.end, paragraph.end));
      }
    }
    const points = Array.from(cuts).sort((a, b) => a - b);
    const p = el('p', { class: paragraph.role === 'headline' ? 'headline' : null });
    for (let i = 0; i + 1 < points.length; i += 1) {
      const [from, to] = [points[i], points[i + 1]];
      const text = chars.slice(from, to).join('');
      const over = marks.filter((m) => m.start <= from && m.end >= to);
      if (!over.length) {
        p.append(text);
        continue;
      }
      p.append(segment(text, over, stances));
    }
    view.append(p);
  }
}

function segment(text, over, stances) {
  const classes = new Set();
  const titles = [];
  // The innermost attribution (its mark the shortest) owns the segment, so a
  // quote nested in another attribution's content stays clickable.
  const roles = over.filter((m) => m.attribution !== undefined)
    .sort((a, b) => (a.end - a.start) - (b.end - b.start));
  const owner = roles[0];
  if (owner) {
    classes.add(owner.role);
    const stance = stances.get(owner.attribution);
    classes.add(`stance-${stance ? stance.label : 'none'}`);
    titles.push(`${owner.role} of attribution #${owner.attribution + 1}${stance ? ` · ${stance.label}` : ''}`);
  }
  for (const mark of over) {
    if (mark.attribution === undefined) {
      classes.add(mark.role);
      if (mark.title) titles.push(mark.title);
    }
  }
  const attributions = Array.from(new Set(roles.map((m) => m.attribution)));
  const node = el('span', {
    class: Array.from(classes).join(' '),
    title: titles.join('\n') || null,
    dataset: attributions.length ? { attributions: attributions.join(' ') } : undefined,
  }, text);
  if (owner) {
    node.addEventListener('mouseenter', () => activate(owner.attribution, false));
    node.addEventListener('click', () => activate(owner.attribution, true));
  }
  return node;
}

// Lights up every piece of one attribution, in the text and in the panel.
function activate(index, scroll) {
  for (const node of document.querySelectorAll('.active')) node.classList.remove('active');
  for (const node of document.querySelectorAll('[data-attributions]')) {
    const owners = node.dataset.attributions.split(' ');
    if (owners[0] === String(index)) node.classList.add('active');
  }
  const statement = document.querySelector(`.statement[data-attribution="${index}"]`);
  if (statement) {
    statement.classList.add('active');
    if (scroll) statement.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }
}

function statementNode(doc, index, stances) {
  const attribution = doc.attributions[index];
  const stance = stances.get(index);
  const label = stance ? stance.label : 'no stance';
  const node = el('span', {
    class: `statement stance-${stance ? stance.label : 'none'}`,
    dataset: { attribution: String(index) },
    tabindex: '0',
    title: stance && stance.evidence.length ? `decided by “${spansText(stance.evidence)}”` : null,
  },
  el('span', { class: 'badge' }, label), ' ',
  el('strong', {}, clip(spansText(attribution.cue), 40)), ' ',
  quoted(clip(spansText(attribution.content), 140)),
  el('span', { class: 'muted' }, ` · ${attribution.kind.replace('_', ' ')}`));
  const go = () => {
    activate(index, false);
    const first = document.querySelector(`#article-view [data-attributions^="${index}"]`);
    if (first) first.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };
  node.addEventListener('click', go);
  node.addEventListener('keydown', (event) => { if (event.key === 'Enter') go(); });
  return node;
}

function renderPanel(doc, stances) {
  const panel = document.getElementById('side-panel');
  panel.replaceChildren();
  const summary = doc.summary;
  if (summary) {
    panel.append(el('h2', {}, 'Sourcing'));
    const stanceList = STANCES.filter((s) => summary.stances[s] > 0).map((s) => `${summary.stances[s]} ${s}`).join(', ') || 'none';
    panel.append(el('dl', { class: 'summary' },
      el('dt', {}, 'attributions'), el('dd', {}, String(summary.attributions)),
      el('dt', {}, 'sources'), el('dd', {}, String(summary.sources)),
      el('dt', {}, 'unnamed sources'), el('dd', {}, `${percent(summary.unnamed_share)} of attributions`),
      el('dt', {}, 'direct quotes'), el('dd', {}, `${summary.direct_quotes} (${percent(summary.direct_quote_share)})`),
      el('dt', {}, 'without source'), el('dd', {}, String(summary.without_source)),
      el('dt', {}, 'stances'), el('dd', {}, stanceList),
      el('dt', {}, 'unattributed hedges'), el('dd', {}, String(summary.hedges)),
      summary.quotations ? el('dt', {}, 'quotations') : null,
      summary.quotations ? el('dd', {}, quotationCounts(summary.quotations)) : null));
  }
  const sources = doc.sources || [];
  panel.append(el('h2', {}, `Sources (${sources.length})`));
  for (const kind of KINDS) {
    const ofKind = sources.filter((s) => s.kind === kind);
    if (!ofKind.length) continue;
    panel.append(el('h3', {}, KIND_NAMES[kind]));
    for (const source of ofKind) {
      const descriptors = source.descriptors.map((d) => d.text);
      const card = el('div', { class: 'source-card' },
        el('div', { class: 'name' }, source.name,
          source.gender ? el('span', { class: 'muted' }, ` (${source.gender})`) : null),
        descriptors.length ? el('div', { class: 'descriptors' }, clip(descriptors.join('; '), 160)) : null,
        source.attributions.map((index) => statementNode(doc, index, stances)),
        floatingOf(doc, sources.indexOf(source)));
      panel.append(card);
    }
  }
  const sourced = new Set(sources.flatMap((s) => s.attributions));
  const orphans = (doc.attributions || []).map((_, i) => i).filter((i) => !sourced.has(i));
  if (orphans.length) {
    panel.append(el('h3', {}, 'no source'));
    panel.append(el('div', { class: 'source-card' }, orphans.map((i) => statementNode(doc, i, stances))));
  }
  const hedges = doc.hedges || [];
  if (hedges.length) {
    panel.append(el('h2', {}, `Unattributed hedges (${hedges.length})`));
    for (const hedge of hedges) {
      panel.append(el('div', { class: 'statement stance-declines' },
        el('strong', {}, hedge.cue.text), ' ', quoted(clip(hedge.scope.text, 160))));
    }
  }
}

// "3 attributed, 1 floating": the statuses with a count, in the schema's order.
function quotationCounts(counts) {
  return Object.entries(counts).filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`).join(', ') || 'none';
}

// A source's floating quotes: quote paragraphs that continue it with no cue of their own.
function floatingOf(doc, index) {
  return (doc.quotations || [])
    .filter((q) => q.status === 'floating' && q.source === index)
    .map((q) => el('div', { class: 'statement stance-asserts' }, el('strong', {}, 'continues'), ' ', quoted(clip(q.span.text, 160))));
}

function renderLegend() {
  const legend = document.getElementById('legend');
  legend.replaceChildren(
    el('span', {}, el('span', { class: 'source' }, 'source'), ' · ', el('span', { class: 'cue' }, 'cue'), ' · ', el('span', { class: 'content' }, 'content')),
    ...STANCES.map((s) => el('span', { class: `badge stance-${s}` }, s)),
  );
}

function renderDocument(doc) {
  const stances = stanceOf(doc);
  document.getElementById('result').hidden = false;
  renderLegend();
  renderArticle(doc, stances);
  renderPanel(doc, stances);
}

// ---------------------------------------------------------------- Ledger

const STANCE_COLORS = {
  asserts: '#1f5fbf', confirms: '#1b7f3b', denies: '#c0282d', declines: '#c4661f',
  claims: '#7b3fb0', reports: '#12808a', believes: '#8a6a12', intends: '#4b5a8c',
};
const ledgerContent = document.getElementById('ledger-content');

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && String(value).trim() !== '') search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function table(columns, rows) {
  return el('div', { class: 'table-wrap' }, el('table', {},
    el('thead', {}, el('tr', {}, columns.map((c) => el('th', { class: c.num ? 'num' : null }, c.title)))),
    el('tbody', {}, rows.map((row) => el('tr', {}, columns.map((c) => el('td', { class: c.num ? 'num' : null }, c.cell(row))))))));
}

function showError(error) {
  ledgerContent.replaceChildren(el('p', { class: 'error' }, error.message));
}

function filterForm(fields, values, onSubmit) {
  const form = el('form', { class: 'filters' });
  for (const field of fields) {
    const input = field.options
      ? el('select', { name: field.name }, el('option', { value: '' }, 'any'), field.options.map((o) => el('option', { value: o, selected: values[field.name] === o }, o)))
      : el('input', { type: field.type || 'text', name: field.name, value: values[field.name] || '', placeholder: field.placeholder || '' });
    form.append(el('label', {}, field.title, input));
  }
  form.append(el('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit(Object.fromEntries(new FormData(form)));
  });
  return form;
}

const FILTERS = [
  { name: 'outlet', title: 'Outlet' },
  { name: 'since', title: 'Since', placeholder: 'YYYY-MM-DD' },
  { name: 'until', title: 'Until', placeholder: 'YYYY-MM-DD' },
];

async function topSources(values) {
  const form = filterForm([...FILTERS, { name: 'type', title: 'Type', options: KINDS }], values, (next) => {
    location.hash = `#ledger${query(next)}`;
  });
  ledgerContent.replaceChildren(el('h2', {}, 'Most-quoted sources'), form, el('p', { class: 'muted' }, 'Loading…'));
  const { rows } = await api(`/v1/sources${query({ ...values, limit: 50 })}`);
  ledgerContent.replaceChildren(el('h2', {}, 'Most-quoted sources'), form, rows.length ? table([
    { title: 'source', cell: (r) => el('a', { href: `#ledger/source/${r.id}` }, r.name) },
    { title: 'type', cell: (r) => r.kind.replace('_', ' ') },
    { title: 'statements', num: true, cell: (r) => String(r.statements) },
    { title: 'articles', num: true, cell: (r) => String(r.articles) },
    { title: 'merged across articles', cell: (r) => (r.merged ? 'yes' : 'no') },
  ], rows) : el('p', { class: 'muted' }, 'No sources match.'));
}

// Statements per month, stacked by stance: a bar per month.
function timelineChart(statements) {
  const months = new Map();
  for (const s of statements) {
    const month = (s.date || 'undated').slice(0, 7);
    if (!months.has(month)) months.set(month, {});
    const counts = months.get(month);
    const stance = s.stance || 'none';
    counts[stance] = (counts[stance] || 0) + 1;
  }
  const keys = Array.from(months.keys()).sort();
  const max = Math.max(1, ...keys.map((k) => Object.values(months.get(k)).reduce((a, b) => a + b, 0)));
  const bar = 28; const gap = 12; const height = 160; const left = 30;
  const width = left + keys.length * (bar + gap) + gap;
  const full = Math.max(width, 320);
  const svg = svgEl('svg', { class: 'chart', width: full, height: height + 40, viewBox: `0 0 ${full} ${height + 40}`, role: 'img', 'aria-label': 'Statements per month by stance' });
  svg.append(svgEl('line', { class: 'axis', x1: left, y1: height, x2: full, y2: height }));
  svg.append(svgText(String(max), 2, 12));
  keys.forEach((key, i) => {
    let y = height;
    const x = left + gap + i * (bar + gap);
    for (const stance of [...STANCES, 'none']) {
      const n = months.get(key)[stance] || 0;
      if (!n) continue;
      const h = (n / max) * (height - 10);
      y -= h;
      const rect = svgEl('rect', { x, y, width: bar, height: h, fill: STANCE_COLORS[stance] || '#9aa3b2' });
      rect.append(svgEl('title', {}, `${key}: ${n} ${stance}`));
      svg.append(rect);
    }
    svg.append(svgText(key, x, height + 16));
  });
  return svg;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgText(text, x, y) {
  return svgEl('text', { x, y }, text);
}

async function sourcePage(id) {
  ledgerContent.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  const { source, statements } = await api(`/v1/sources/${encodeURIComponent(id)}`);
  const byArticle = statements.map((s) => el('div', { class: `statement stance-${s.stance || 'none'}` },
    el('span', { class: 'badge' }, s.stance || 'no stance'), ' ',
    el('span', { class: 'muted' }, `${s.date || 'undated'} · ${s.outlet || 'no outlet'} · `),
    el('a', { href: `#ledger/article/${encodeURIComponent(s.article)}` }, s.article), ' ',
    el('strong', {}, s.cue), ' ', quoted(clip(s.content, 240))));
  ledgerContent.replaceChildren(
    el('div', { class: 'panel' },
      el('h2', {}, source.name),
      el('p', { class: 'muted' }, `${source.kind.replace('_', ' ')} · ${source.statements} statements in ${source.articles} articles${source.merged ? (source.kind === 'person' ? ' · merged across articles by full name' : ' · merged across articles by its whole, specific name') : ' · kept to its article: its name is not specific enough to merge'}`),
      statements.length ? timelineChart(statements) : null,
      el('div', { class: 'timeline' }, byArticle)));
}

async function articlePage(id) {
  ledgerContent.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  const { article, text, attributions } = await api(`/v1/articles/${encodeURIComponent(id)}`);
  ledgerContent.replaceChildren(el('div', { class: 'panel' },
    el('h2', {}, article.title || article.id),
    el('p', { class: 'muted' }, [article.outlet, article.published, article.url].filter(Boolean).join(' · ')),
    el('div', { class: 'timeline' }, attributions.map((a) => el('div', { class: `statement stance-${a.stance || 'none'}` },
      el('span', { class: 'badge' }, a.stance || 'no stance'), ' ',
      a.source_id !== null ? el('a', { href: `#ledger/source/${a.source_id}` }, a.source) : el('span', { class: 'muted' }, a.source || 'no source'),
      ' ', el('strong', {}, a.cue), ' ', quoted(clip(a.content, 240))))),
    el('h3', {}, 'Text'),
    text.split(/\n\s*\n/).map((p) => el('p', {}, p))));
}

// The text of a hit with its matches marked; match ranges are UTF-8 byte offsets.
function highlighted(text, matches) {
  const bytes = new TextEncoder().encode(text);
  const decode = (a, b) => new TextDecoder().decode(bytes.slice(a, b));
  const parts = [];
  let at = 0;
  for (const [start, end] of matches) {
    if (start < at) continue;
    parts.push(decode(at, start), el('mark', {}, decode(start, end)));
    at = end;
  }
  parts.push(decode(at, bytes.length));
  return parts;
}

async function searchPage(values) {
  const form = filterForm([{ name: 'q', title: 'Words', type: 'search', placeholder: 'bargain "press release" strik*' }, ...FILTERS], values, (next) => {
    location.hash = `#ledger/search${query(next)}`;
  });
  ledgerContent.replaceChildren(el('h2', {}, 'Search what sources said'), form);
  if (!values.q) return;
  const { rows } = await api(`/v1/search${query({ ...values, limit: 100 })}`);
  ledgerContent.append(rows.length ? el('div', { class: 'timeline' }, rows.map((hit) => el('div', { class: `statement stance-${hit.stance || 'none'}` },
    el('span', { class: 'muted' }, `${hit.date || 'undated'} · ${hit.outlet || 'no outlet'} · ${hit.source || 'unattributed quote'} · `),
    el('a', { href: `#ledger/article/${encodeURIComponent(hit.article)}` }, hit.article), ' ',
    highlighted(hit.text, hit.matches)))) : el('p', { class: 'muted' }, 'Nothing found.'));
}

// One horizontal bar per outlet.
function barChart(title, rows, value, format) {
  const barHeight = 22; const label = 150; const width = 520;
  const tall = rows.length * (barHeight + 6) + 10;
  const svg = svgEl('svg', { class: 'chart', width, height: tall, viewBox: `0 0 ${width} ${tall}`, role: 'img', 'aria-label': title });
  rows.forEach((row, i) => {
    const y = 5 + i * (barHeight + 6);
    const v = value(row);
    svg.append(svgText(clip(row.group || '(none)', 22), 0, y + 15));
    const rect = svgEl('rect', { x: label, y, width: Math.max(1, (width - label - 60) * (v || 0)), height: barHeight, fill: '#1f5fbf' });
    rect.append(svgEl('title', {}, `${row.group || '(none)'}: ${format(v)}`));
    svg.append(rect, svgText(format(v), label + (width - label - 60) * (v || 0) + 6, y + 15));
  });
  return el('div', { class: 'panel' }, el('h2', {}, title), svg);
}

// One stacked bar per outlet: the share of each stance.
function stanceChart(rows) {
  const barHeight = 22; const label = 150; const width = 520; const span = width - label - 10;
  const tall = rows.length * (barHeight + 6) + 10;
  const svg = svgEl('svg', { class: 'chart', width, height: tall, viewBox: `0 0 ${width} ${tall}`, role: 'img', 'aria-label': 'Stance mix by outlet' });
  rows.forEach((row, i) => {
    const y = 5 + i * (barHeight + 6);
    svg.append(svgText(clip(row.group || '(none)', 22), 0, y + 15));
    let x = label;
    for (const stance of STANCES) {
      const share = row[stance] || 0;
      if (!share) continue;
      const rect = svgEl('rect', { x, y, width: share * span, height: barHeight, fill: STANCE_COLORS[stance] });
      rect.append(svgEl('title', {}, `${row.group || '(none)'}: ${percent(share)} ${stance}`));
      svg.append(rect);
      x += share * span;
    }
  });
  return el('div', { class: 'panel' }, el('h2', {}, 'Stance mix'), svg,
    el('div', { class: 'legend' }, STANCES.map((s) => el('span', { class: `badge stance-${s}` }, s))));
}

async function outletsPage(values) {
  const form = filterForm(FILTERS.slice(1), values, (next) => {
    location.hash = `#ledger/outlets${query(next)}`;
  });
  ledgerContent.replaceChildren(el('h2', {}, 'Outlets'), form, el('p', { class: 'muted' }, 'Loading…'));
  const { rows } = await api(`/v1/stats${query({ ...values, by: 'outlet' })}`);
  const pct = (v) => (v === null || v === undefined ? 'n/a' : percent(v));
  ledgerContent.replaceChildren(el('h2', {}, 'Outlets'), form,
    el('div', { class: 'charts' },
      barChart('Share of unnamed sources', rows, (r) => r.unnamed_share, pct),
      barChart('Share of direct quotes', rows, (r) => r.direct_share, pct),
      stanceChart(rows)),
    table([
      { title: 'outlet', cell: (r) => r.group || '(none)' },
      { title: 'articles', num: true, cell: (r) => String(r.articles) },
      { title: 'attributions', num: true, cell: (r) => String(r.attributions) },
      { title: 'unnamed sources', num: true, cell: (r) => pct(r.unnamed_share) },
      { title: 'direct quotes', num: true, cell: (r) => pct(r.direct_share) },
      { title: 'hedges per 1,000 words', num: true, cell: (r) => (r.hedges_per_1000_words === null ? 'n/a' : r.hedges_per_1000_words.toFixed(2)) },
    ], rows));
}

window.attestLedger = async (hash) => {
  const [path, search] = hash.slice(1).split('?');
  const values = Object.fromEntries(new URLSearchParams(search || ''));
  const parts = path.split('/');
  try {
    if (parts[1] === 'source') await sourcePage(decodeURIComponent(parts[2] || ''));
    else if (parts[1] === 'article') await articlePage(decodeURIComponent(parts.slice(2).join('/')));
    else if (parts[1] === 'search') await searchPage(values);
    else if (parts[1] === 'outlets') await outletsPage(values);
    else await topSources(values);
  } catch (error) {
    showError(error);
  }
};

api('/v1/health').then((health) => {
  document.getElementById('nav-ledger').hidden = !health.ledger;
}).catch(() => {});

// ---------------------------------------------------------------- Views

function route() {
  const hash = location.hash || '#analyse';
  const ledger = hash.startsWith('#ledger');
  document.getElementById('analyse-view').hidden = ledger;
  document.getElementById('ledger-view').hidden = !ledger;
  const current = (id, on) => {
    const link = document.getElementById(id);
    if (on) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  };
  current('nav-analyse', !ledger);
  current('nav-ledger', ledger);
  if (ledger && window.attestLedger) window.attestLedger(hash);
}

window.addEventListener('hashchange', route);
route();
