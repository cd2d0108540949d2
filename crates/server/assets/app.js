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

// Content in quotation marks, unless it opens with one of its own.
function quoted(text) {
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
      el('dt', {}, 'unattributed hedges'), el('dd', {}, String(summary.hedges))));
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
        source.attributions.map((index) => statementNode(doc, index, stances)));
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
