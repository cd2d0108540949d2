// The attest page. Everything shown is built from DOM nodes: article text only
// ever reaches the page as text nodes, never as markup.
'use strict';

// The labels the page shows and offers (stances, source types, attribution
// kinds) are the API's, read from its OpenAPI document before anything is
// drawn: the page keeps no list of its own. Each stance's colour is its
// `.stance-…` class in app.css.
let STANCES = [];
let KINDS = [];
let ATTRIBUTION_KINDS = [];
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

// "2 MB", "3.4 MB": a size in words, in mebibytes as the limits are set.
function megabytes(bytes) {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

// "1 article", "12 articles".
function counted(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

// A request that never reached the server (stopped, or the network down),
// told apart from the server's own refusals so that the page can keep what
// it shows and offer to try again.
class Unreachable extends Error {
  constructor() {
    super('the attest server cannot be reached: it may have stopped, or the network is down');
  }
}

// The answer's text, or the server's error message thrown.
async function apiText(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw error.name === 'AbortError' ? error : new Unreachable();
  }
  let text;
  try {
    text = await response.text();
  } catch (error) {
    throw error.name === 'AbortError' ? error : new Unreachable();
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = JSON.parse(text).error.message || message;
    } catch (_) {
      // Not the API's JSON error: the status says what there is to say.
    }
    throw new Error(message);
  }
  return text;
}

async function api(path, options) {
  const text = await apiText(path, options);
  try {
    return JSON.parse(text);
  } catch (_) {
    return null;
  }
}

// A "Try again" button that runs `again`.
function retryButton(again) {
  const button = el('button', { type: 'button', class: 'retry' }, 'Try again');
  button.addEventListener('click', again);
  return button;
}

// ---------------------------------------------------------------- Analyse

const form = document.getElementById('analyse-form');
const statusLine = document.getElementById('analyse-status');
const articleView = document.getElementById('article-view');
const sidePanel = document.getElementById('side-panel');
let lastDoc = null;
// The last analysis: the server's answer as it came, and the request that
// asked for it, for the downloads.
let lastAnalysis = null;

// An error in words beside the field it is about; the form stays as it was.
function fieldError(input, message) {
  const id = `${input.name}-error`;
  let note = document.getElementById(id);
  if (!note) {
    note = el('span', { id, class: 'field-error', role: 'alert' });
    input.closest('label').after(note);
  }
  note.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', id);
}

function clearFieldErrors(scope) {
  for (const note of scope.querySelectorAll('.field-error')) note.remove();
  for (const input of scope.querySelectorAll('[aria-invalid]')) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
}

// The publication time the date and time inputs give: a date alone, or an
// RFC 3339 instant in the browser's time zone.
function publishedValue(date, time) {
  if (!time) return date;
  const local = new Date(`${date}T${time}`);
  if (Number.isNaN(local.getTime())) return null;
  const offset = -local.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const seconds = time.length === 5 ? `${time}:00` : time;
  return `${date}T${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

function clearResult() {
  stopDrawing();
  lastDoc = null;
  lastAnalysis = null;
  document.getElementById('result').hidden = true;
  articleView.replaceChildren();
  sidePanel.replaceChildren();
}

// Refuses the form before it is sent: an error beside the field, the old
// result cleared, and false.
function refuse(input, message) {
  clearResult();
  statusLine.className = 'error';
  statusLine.textContent = 'Not analysed: see the field marked.';
  fieldError(input, message);
  return false;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearFieldErrors(form);
  const data = new FormData(form);
  const record = { text: data.get('text') };
  for (const field of ['title', 'outlet', 'url']) {
    const value = String(data.get(field) || '').trim();
    if (value) record[field] = value;
  }
  const date = String(data.get('published-date') || '');
  const time = String(data.get('published-time') || '');
  if (time && !date) {
    refuse(form.elements['published-time'], 'Give the date as well as the time.');
    return;
  }
  if (date) {
    const published = publishedValue(date, time);
    if (!published) {
      refuse(form.elements['published-time'], 'This is not a time of that day.');
      return;
    }
    record.published = published;
  }
  if (!String(record.text).trim()) {
    refuse(form.elements.text, 'Paste the text of an article to analyse.');
    return;
  }
  const request = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(record),
  };
  const bytes = new TextEncoder().encode(request.body).length;
  if (maxBodyBytes && bytes > maxBodyBytes) {
    refuse(form.elements.text, `Too long to analyse here: at most ${megabytes(maxBodyBytes)}; this article is ${megabytes(bytes)}.`);
    return;
  }
  const button = document.getElementById('analyse-button');
  button.disabled = true;
  // Cancel stops the request (the server drops an analysis nobody waits
  // for) or, once the answer is in, the drawing.
  const cancel = new AbortController();
  const cancelButton = el('button', { type: 'button', class: 'cancel' }, 'Cancel');
  cancelButton.addEventListener('click', () => {
    cancel.abort();
    stopDrawing();
  });
  statusLine.className = '';
  statusLine.replaceChildren('Analysing… ', cancelButton);
  try {
    const started = performance.now();
    const answer = await apiText('/v1/analyze', { ...request, signal: cancel.signal });
    const doc = JSON.parse(answer);
    const analysed = performance.now();
    const count = (doc.attributions || []).length;
    const found = `${counted(count, 'attribution')} · analysed in ${Math.round(analysed - started)} ms`;
    lastDoc = doc;
    lastAnalysis = { answer, request };
    await labelsReady;
    const complete = await renderDocument(doc, (done, all) => {
      statusLine.replaceChildren(`${found} · drawing ${done} of ${all} paragraphs… `, cancelButton);
    });
    if (!complete) {
      if (cancel.signal.aborted) statusLine.textContent = `${found} · drawing cancelled: the article is shown in part.`;
      return;
    }
    statusLine.textContent = `${found}, drawn in ${Math.round(performance.now() - analysed)} ms`;
    if (!window.matchMedia('(min-width: 801px)').matches) {
      document.getElementById('result').scrollIntoView({ block: 'start' });
    }
  } catch (error) {
    if (error.name === 'AbortError') {
      statusLine.textContent = `Cancelled: nothing was analysed.${lastDoc ? ' The result shown is the last one.' : ''}`;
      return;
    }
    statusLine.className = 'error';
    if (error instanceof Unreachable) {
      // The last result stays: nothing about it has changed.
      statusLine.replaceChildren(`Not analysed: ${error.message}. `,
        lastDoc ? 'The result shown is the last one. ' : '',
        retryButton(() => form.requestSubmit()));
      return;
    }
    clearResult();
    if (error.message.includes('`published`')) {
      statusLine.textContent = 'Not analysed: see the publication date.';
      fieldError(form.elements['published-date'], `The server refused this date: ${error.message}`);
    } else {
      statusLine.textContent = `Not analysed: ${error.message}`;
    }
  } finally {
    button.disabled = false;
  }
});

for (const name of ['show-hedges', 'show-entities', 'show-quantities', 'show-times']) {
  form.elements[name].addEventListener('change', () => {
    if (lastDoc) renderDocument(lastDoc);
  });
}
form.elements['show-stances'].addEventListener('change', (event) => {
  articleView.classList.toggle('hide-stance-tags', !event.target.checked);
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') clearLit();
});

function stanceOf(doc) {
  const stances = new Map();
  for (const stance of doc.stances || []) {
    if (!stances.has(stance.attribution)) stances.set(stance.attribution, stance);
  }
  return stances;
}

function stanceName(stances, index) {
  const stance = stances.get(index);
  return stance ? stance.label : 'none';
}

// Who an attribution is by: its canonical source's name, else its source words.
function sourceName(doc, index) {
  const source = sourceOf(doc, index);
  if (source) return source.name;
  const words = spansText(doc.attributions[index].source);
  return words || 'no source';
}

// Each attribution's innermost enclosing attribution: the one with the
// shortest content span that holds all of its spans.
function nesting(doc) {
  const attributions = doc.attributions || [];
  const extent = attributions.map((a) => {
    const spans = [...a.source, ...a.cue, ...a.content];
    return [Math.min(...spans.map((s) => s.cp_start)), Math.max(...spans.map((s) => s.cp_end))];
  });
  // A sweep in text order: the content spans that have begun and not yet
  // ended are the only ones that can hold the next attribution, so a long
  // article costs its attributions times their depth of nesting.
  const spans = attributions
    .flatMap((a, o) => a.content.map((span) => ({ o, start: span.cp_start, end: span.cp_end })))
    .sort((x, y) => x.start - y.start);
  const order = attributions.map((_, i) => i).sort((x, y) => extent[x][0] - extent[y][0]);
  const parent = attributions.map(() => null);
  let open = [];
  let next = 0;
  for (const inner of order) {
    const [from, to] = extent[inner];
    while (next < spans.length && spans[next].start <= from) open.push(spans[next++]);
    open = open.filter((span) => span.end >= from);
    let best = null;
    for (const { o, start, end } of open) {
      const width = end - start;
      if (o !== inner && to <= end
        && !(extent[o][0] >= from && extent[o][1] <= to)
        && (best === null || width < best.width || (width === best.width && o < best.o))) best = { o, width };
    }
    if (best) parent[inner] = best.o;
  }
  const children = attributions.map(() => []);
  parent.forEach((p, i) => { if (p !== null) children[p].push(i); });
  return { parent, children };
}

// The source each attribution is credited to, indexed once per document.
const creditedSources = new WeakMap();
function sourceOf(doc, index) {
  if (!creditedSources.has(doc)) {
    const credited = new Map();
    for (const source of doc.sources || []) {
      for (const attribution of source.attributions) {
        if (!credited.has(attribution)) credited.set(attribution, source);
      }
    }
    creditedSources.set(doc, credited);
  }
  return creditedSources.get(doc).get(index);
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

// What is drawn between the characters, by position: the corner brackets
// around each content span and the stance word after each cue. Closers come
// before openers at one position, so "⌟ ⌜" reads in order.
function decorations(doc, stances) {
  const at = new Map();
  const put = (position, closing, node) => {
    if (!at.has(position)) at.set(position, { close: [], open: [] });
    at.get(position)[closing ? 'close' : 'open'].push(node);
  };
  (doc.attributions || []).forEach((attribution, index) => {
    const stance = stanceName(stances, index);
    const data = { attributions: String(index) };
    const contents = attribution.content.filter((s) => s.cp_end > s.cp_start);
    if (contents.length) {
      const first = contents.reduce((a, b) => (b.cp_start < a.cp_start ? b : a));
      const last = contents.reduce((a, b) => (b.cp_end > a.cp_end ? b : a));
      put(first.cp_start, false, () => el('span', { class: `content-open stance-${stance}`, 'aria-hidden': 'true', dataset: data }));
      put(last.cp_end, true, () => el('span', { class: `content-close stance-${stance}`, 'aria-hidden': 'true', dataset: data }));
    }
    const cues = attribution.cue.filter((s) => s.cp_end > s.cp_start);
    if (cues.length) {
      const end = Math.max(...cues.map((s) => s.cp_end));
      put(end, true, () => el('span', { class: `stance-tag stance-${stance}`, dataset: data }, stance === 'none' ? 'no stance' : stance));
    }
  });
  return at;
}

// The paragraphs' marks and drawn positions, each found from the paragraphs'
// starts by binary search, so that a long article costs what it holds, not
// paragraphs times marks.
function byParagraph(paragraphs, marks, drawn) {
  const found = paragraphs.map(() => ({ marks: [], cuts: [] }));
  const at = (position) => {
    let low = 0; let high = paragraphs.length - 1; let index = 0;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (paragraphs[middle].start <= position) { index = middle; low = middle + 1; } else high = middle - 1;
    }
    return index;
  };
  for (const mark of marks) {
    for (let i = at(mark.start); i < paragraphs.length && paragraphs[i].start < mark.end; i += 1) {
      const paragraph = paragraphs[i];
      if (mark.end > paragraph.start && mark.start < paragraph.end) found[i].marks.push(mark);
    }
  }
  for (const position of drawn.keys()) {
    const i = at(position);
    if (position > paragraphs[i].start && position < paragraphs[i].end) found[i].cuts.push(position);
  }
  return found;
}

// The drawing under way: a newer drawing, or Cancel, stops an older one.
let drawing = 0;

// A turn for the browser once the work since the last has taken long enough
// to be felt (an ordinary article draws within one), `before` told first;
// false once a newer drawing has begun or this one was stopped.
function turns(generation) {
  let turn = performance.now();
  return async (before) => {
    if (performance.now() - turn > 40) {
      if (before) before();
      await new Promise((next) => { setTimeout(next, 0); });
      turn = performance.now();
    }
    return generation === drawing;
  };
}

// Where the Analyse page draws an article: its view, whether the stance
// words show, and what picking an attribution in the text does.
function analyseTarget() {
  return { view: articleView, showStances: form.elements['show-stances'].checked, pick: (index) => light(index, 'text') };
}

// The article as paragraphs of segments, each segment carrying the marks over
// it, drawn paragraph by paragraph in turns into `target` (the Analyse page's
// view unless given); `progress` hears how far it got at each turn. Resolves
// false when the drawing was stopped.
async function renderArticle(doc, stances, progress, pause, target = analyseTarget()) {
  const { view, pick } = target;
  view.replaceChildren();
  view.classList.toggle('hide-stance-tags', !target.showStances);
  const chars = Array.from(doc.text);
  const marks = collectMarks(doc);
  const drawn = decorations(doc, stances);
  const paragraphs = (doc.paragraphs && doc.paragraphs.length)
    ? doc.paragraphs.map((p) => ({ start: p.span.cp_start, end: p.span.cp_end, role: p.role }))
    : [{ start: 0, end: chars.length, role: 'body' }];
  const found = byParagraph(paragraphs, marks, drawn);
  for (const [index, paragraph] of paragraphs.entries()) {
    const here = found[index];
    const cuts = new Set([paragraph.start, paragraph.end, ...here.cuts]);
    for (const mark of here.marks) {
      cuts.add(Math.max(mark.start, paragraph.start));
      cuts.add(Math.min(mark.end, paragraph.end));
    }
    const points = Array.from(cuts).sort((a, b) => a - b);
    const p = el('p', { class: paragraph.role === 'headline' ? 'headline' : null });
    points.forEach((point, i) => {
      const at = drawn.get(point);
      if (at && point > paragraph.start) p.append(...at.close.map((make) => make()));
      if (at && point < paragraph.end) p.append(...at.open.map((make) => make()));
      if (i + 1 >= points.length) return;
      const to = points[i + 1];
      const text = chars.slice(point, to).join('');
      const over = here.marks.filter((m) => m.start <= point && m.end >= to);
      p.append(over.length ? segment(text, over, stances, pick) : text);
    });
    view.append(p);
    if (!await pause(progress && (() => progress(index + 1, paragraphs.length)))) return false;
  }
  return addStops(doc, stances, pause, target);
}

// Stops a drawing under way, leaving what it drew.
function stopDrawing() {
  drawing += 1;
  document.getElementById('result').removeAttribute('aria-busy');
}

function segment(text, over, stances, pick) {
  const classes = new Set();
  const titles = [];
  // The innermost attribution (its mark the shortest) owns the segment and
  // gives it its shape; the segment lights up with every attribution over it.
  const roles = over.filter((m) => m.attribution !== undefined)
    .sort((a, b) => (a.end - a.start) - (b.end - b.start));
  const owner = roles[0];
  if (owner) {
    classes.add(owner.role);
    classes.add(`stance-${stanceName(stances, owner.attribution)}`);
    titles.push(`${owner.role} of attribution #${owner.attribution + 1} · ${stanceName(stances, owner.attribution)}`);
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
    dataset: attributions.length ? { attributions: attributions.join(' '), owner: String(owner.attribution), role: owner.role } : undefined,
  }, text);
  if (owner) node.addEventListener('click', () => pick(owner.attribution));
  return node;
}

// One Tab stop per attribution, on the first piece of its cue it owns (else
// the first piece it owns), so that Tab walks the attributions in reading order.
async function addStops(doc, stances, pause, { view, pick }) {
  // Each attribution's pieces in text order, from one pass over the article.
  const pieces = new Map();
  for (const node of view.querySelectorAll('[data-owner]')) {
    const owner = Number(node.dataset.owner);
    if (!pieces.has(owner)) pieces.set(owner, []);
    pieces.get(owner).push(node);
  }
  for (const [index, attribution] of (doc.attributions || []).entries()) {
    if (!await pause()) return false;
    const owned = (pieces.get(index) || []).filter((n) => !n.dataset.stop);
    const stop = owned.find((n) => n.dataset.role === 'cue') || owned[0];
    if (!stop) continue;
    const content = clip(spansText(attribution.content), 200);
    const stance = stanceName(stances, index);
    stop.dataset.stop = String(index);
    stop.setAttribute('tabindex', '0');
    stop.setAttribute('role', 'button');
    stop.setAttribute('aria-pressed', 'false');
    stop.setAttribute('aria-label', `${sourceName(doc, index)}, ${clip(spansText(attribution.cue), 60) || 'no cue'}, ${stance === 'none' ? 'no stance' : stance}, ${content ? quoted(content) : 'no content'}`);
    stop.removeAttribute('title');
    stop.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        pick(index);
      }
    });
  }
  return true;
}

function clearLit() {
  for (const node of document.querySelectorAll('.lit')) node.classList.remove('lit');
  for (const node of document.querySelectorAll('[aria-pressed="true"]')) node.setAttribute('aria-pressed', 'false');
  detailSheet.hidden = true;
}

// Lights every piece of attribution `index` in the drawn text `view`, and
// presses its tab stop.
function lightText(view, index) {
  for (const node of view.querySelectorAll(`[data-attributions~="${index}"]`)) node.classList.add('lit');
  const stop = view.querySelector(`[data-stop="${index}"]`);
  if (stop) stop.setAttribute('aria-pressed', 'true');
}

// Where the panel sits beside the text rather than below it.
const WIDE = window.matchMedia('(min-width: 801px)');

const detailSheet = document.getElementById('detail-sheet');

// On a narrow screen the panel is far below the text: an attribution tapped
// there opens its details in a sheet over the bottom of the screen, its
// panel entry copied, with its source's name and type.
function showSheet(statement) {
  const card = statement.closest('.source-card');
  const heading = card && card.previousElementSibling;
  const name = card && card.querySelector('.name');
  const copy = el('div', { class: statement.className.replace(' lit', '') }, [...statement.childNodes].map((node) => node.cloneNode(true)));
  const close = el('button', { type: 'button', class: 'secondary sheet-close', onclick: clearLit }, 'Close');
  detailSheet.replaceChildren(
    el('div', { class: 'sheet-head' },
      el('div', {}, el('strong', {}, name ? name.textContent : 'no source'),
        heading && heading.tagName === 'H3' ? el('div', { class: 'muted' }, heading.textContent) : null),
      close),
    copy);
  detailSheet.hidden = false;
}

// Lights up every piece of one attribution, inner attributions included, in
// the text and in the panel. From the text, the text stays where it is (a
// tap on a phone must not jump); the panel follows only where it sits beside
// the text. From the panel, the text comes into view.
function light(index, from) {
  clearLit();
  lightText(articleView, index);
  const statement = sidePanel.querySelector(`.statement[data-attribution="${index}"]`);
  if (statement) {
    statement.classList.add('lit');
    statement.setAttribute('aria-pressed', 'true');
  }
  if (from === 'text' && statement && WIDE.matches) {
    const box = sidePanel.getBoundingClientRect();
    const at = statement.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) sidePanel.scrollTop += at.top - box.top - box.height / 3;
  } else if (from === 'text' && statement) {
    showSheet(statement);
  }
  if (from === 'panel') {
    const first = articleView.querySelector(`[data-attributions~="${index}"]`);
    if (first) first.scrollIntoView({ block: 'center' });
  }
}

function statementButton(doc, index, stances, small) {
  const attribution = doc.attributions[index];
  const stance = stances.get(index);
  const label = stance ? stance.label : 'no stance';
  return el('button', {
    type: 'button',
    class: `statement stance-${stance ? stance.label : 'none'}`,
    dataset: small ? undefined : { attribution: String(index) },
    'aria-pressed': small ? null : 'false',
    title: stance && stance.evidence.length ? `decided by “${spansText(stance.evidence)}”` : null,
    onclick: () => light(index, 'panel'),
  },
  el('span', { class: 'badge' }, label), ' ',
  small ? `${sourceName(doc, index)} ` : null,
  el('strong', {}, clip(spansText(attribution.cue), 40)), ' ',
  quoted(clip(spansText(attribution.content), small ? 80 : 140)),
  el('span', { class: 'muted' }, ` · ${attribution.kind.replace('_', ' ')}`));
}

// A statement, with the attributions nested in its content below it and the
// one it sits in named.
function statementNode(doc, index, stances, nest) {
  const inner = nest.children[index];
  const outer = nest.parent[index];
  return el('div', { class: 'statement-group' },
    statementButton(doc, index, stances, false),
    outer !== null ? el('div', { class: 'nested muted' }, `inside what ${sourceName(doc, outer)} ${clip(spansText(doc.attributions[outer].cue), 30)} (#${outer + 1})`) : null,
    inner.length ? el('div', { class: 'nested' }, el('span', { class: 'muted' }, `holds ${counted(inner.length, 'nested attribution')}:`),
      inner.map((i) => statementButton(doc, i, stances, true))) : null);
}

// What each share the page shows is a share of, in the words both the
// Analyse page and the Outlets page use: a share of sources and a share of
// attributions are different numbers for the same article.
const SHARE_OF = { sources: 'of sources', attributions: 'of attributions', stanced: 'of attributions with a stance' };

// "2 (18% of sources), in 11% of attributions": how many sources are
// unnamed, and how much of the article they speak in.
function unnamedSources(summary) {
  const n = summary.sources_by_kind.unnamed;
  const ofSources = summary.sources ? n / summary.sources : 0;
  return `${n} (${percent(ofSources)} ${SHARE_OF.sources}), in ${percent(summary.unnamed_share)} ${SHARE_OF.attributions}`;
}

// What the writer hedged, in words: "1 of 6 attributions; 2 of 9 sentences
// in the writer's own voice".
function writerHedged(summary) {
  const c = summary.certainty;
  const of = (n, all, noun) => `${n} of ${counted(all, noun)}`;
  return `${of(c.hedged_attributions, summary.attributions, 'attribution')}; `
    + `${of(c.hedged_sentences, c.writers_voice_sentences, 'sentence')} in the writer's own voice`;
}

async function renderPanel(doc, stances, pause) {
  const panel = sidePanel;
  const nest = nesting(doc);
  const summary = doc.summary;
  if (summary) {
    panel.append(el('h2', {}, 'Sourcing'));
    const stanceList = STANCES.filter((s) => summary.stances[s] > 0).map((s) => `${summary.stances[s]} ${s}`).join(', ') || 'none';
    panel.append(el('dl', { class: 'summary' },
      el('dt', {}, 'attributions'), el('dd', {}, String(summary.attributions)),
      el('dt', {}, 'sources'), el('dd', {}, String(summary.sources)),
      el('dt', {}, 'unnamed sources'), el('dd', {}, unnamedSources(summary)),
      el('dt', {}, 'direct quotes'), el('dd', {}, `${summary.direct_quotes} (${percent(summary.direct_quote_share)} ${SHARE_OF.attributions})`),
      el('dt', {}, 'without source'), el('dd', {}, String(summary.without_source)),
      el('dt', {}, 'stances'), el('dd', {}, stanceList),
      el('dt', {}, 'unattributed hedges'), el('dd', {}, String(summary.hedges)),
      summary.quotations ? el('dt', {}, 'quotations') : null,
      summary.quotations ? el('dd', {}, quotationCounts(summary.quotations)) : null,
      summary.certainty ? el('dt', {}, 'hedged by the writer') : null,
      summary.certainty ? el('dd', {}, writerHedged(summary)) : null));
  }
  const sources = doc.sources || [];
  panel.append(el('h2', {}, `Sources (${sources.length})`));
  const position = new Map(sources.map((source, index) => [source, index]));
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
        source.attributions.map((index) => statementNode(doc, index, stances, nest)),
        floatingOf(doc, position.get(source)));
      panel.append(card);
      if (!await pause()) return false;
    }
  }
  const sourced = new Set(sources.flatMap((s) => s.attributions));
  const orphans = (doc.attributions || []).map((_, i) => i).filter((i) => !sourced.has(i));
  if (orphans.length) {
    panel.append(el('h3', {}, 'no source'));
    panel.append(el('div', { class: 'source-card' }, orphans.map((i) => statementNode(doc, i, stances, nest))));
  }
  const hedges = doc.hedges || [];
  if (hedges.length) {
    panel.append(el('h2', {}, `Unattributed hedges (${hedges.length})`));
    for (const hedge of hedges) {
      panel.append(el('div', { class: 'statement hedge-note' },
        el('strong', {}, hedge.cue.text), ' ', quoted(clip(hedge.scope.text, 160))));
    }
  }
  return true;
}

// "3 attributed, 1 floating": the statuses with a count, in the schema's order.
function quotationCounts(counts) {
  return Object.entries(counts).filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`).join(', ') || 'none';
}

// A source's floating quotes: quote paragraphs that continue it with no cue of their own.
const floatingQuotes = new WeakMap();
function floatingOf(doc, index) {
  if (!floatingQuotes.has(doc)) {
    const bySource = new Map();
    for (const quote of doc.quotations || []) {
      if (quote.status !== 'floating') continue;
      if (!bySource.has(quote.source)) bySource.set(quote.source, []);
      bySource.get(quote.source).push(quote);
    }
    floatingQuotes.set(doc, bySource);
  }
  return (floatingQuotes.get(doc).get(index) || [])
    .map((q) => el('div', { class: 'statement stance-none' }, el('strong', {}, 'continues'), ' ', quoted(clip(q.span.text, 160))));
}

// Every mark the article can carry, drawn with the classes the article uses.
function renderLegend() {
  const item = (sample, words) => el('div', {}, el('dt', {}, sample), el('dd', {}, words));
  const stanceTag = (s) => el('span', { class: `stance-tag stance-${s}` }, s === 'none' ? 'no stance' : s);
  document.getElementById('legend').replaceChildren(
    el('h2', {}, 'Legend'),
    el('dl', {},
      item(el('span', { class: 'source stance-none' }, 'The mayor'), 'source: underlined'),
      item([el('span', { class: 'cue stance-none' }, 'said'), stanceTag('none')], 'cue: bold, its stance in words beside it'),
      item([el('span', { class: 'content-open stance-none' }), el('span', { class: 'content stance-none' }, 'what was said'), el('span', { class: 'content-close stance-none' })], 'content: in corner brackets'),
      item(el('span', { class: 'lit' }, 'lit'), 'the attribution picked, every piece of it'),
      item(el('span', { class: 'hedge-cue' }, 'reportedly'), 'hedge no source owns: dotted'),
      item(el('span', { class: 'hedge-scope' }, 'hedged words'), 'what the hedge covers: hatched'),
      item(el('span', { class: 'entity' }, 'Port Halvard'), 'name (entities): line above'),
      item(el('span', { class: 'quantity' }, '4,000'), 'quantity: dashed'),
      item(el('span', { class: 'time' }, 'last week'), 'time: wavy')),
    el('h2', {}, 'Stances'),
    el('dl', {}, [...STANCES, 'none'].map((s) => item(el('span', { class: `swatch stance-${s}` }), stanceTag(s)))));
}

// One row per attribution, as the CSV download and the printed table give
// them: offsets in code points, as Python and spreadsheets count.
function attributionRows(doc, stances) {
  const offsets = (spans) => spans.map((s) => `${s.cp_start}-${s.cp_end}`).join(';');
  return (doc.attributions || []).map((a, index) => {
    const source = sourceOf(doc, index);
    return {
      attribution: index + 1,
      kind: a.kind,
      confidence: a.confidence,
      stance: stanceName(stances, index),
      source: source ? source.name : '',
      source_type: source ? source.kind : '',
      source_words: spansText(a.source),
      cue: spansText(a.cue),
      content: spansText(a.content),
      content_offsets: offsets(a.content),
    };
  });
}

function csvOf(rows) {
  if (!rows.length) return '';
  const cell = (value) => `"${String(value).replaceAll('"', '""')}"`;
  const columns = Object.keys(rows[0]);
  return [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c])).join(','))]
    .map((line) => `${line}\r\n`).join('');
}

// The file name of a download: the article's title or id, in letters, digits
// and hyphens.
function downloadName(doc, extension) {
  const base = String(doc.title || doc.id || 'article').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'article';
  return `${base}.${extension}`;
}

function saveFile(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// Downloads of this article's sourcing: the document as the server sent it,
// the attributions as CSV, and the server's brat file.
function downloads(doc, stances) {
  const analysis = lastAnalysis;
  const button = (label, save) => {
    const node = el('button', { type: 'button' }, label);
    node.addEventListener('click', () => save(node));
    return node;
  };
  const status = el('span', { class: 'muted', role: 'status' });
  return el('div', { class: 'downloads no-print' },
    el('h2', {}, 'Download'),
    button('JSON', () => saveFile(downloadName(doc, 'json'), 'application/json', analysis.answer)),
    ' ',
    button('CSV', () => saveFile(downloadName(doc, 'csv'), 'text/csv', csvOf(attributionRows(doc, stances)))),
    ' ',
    button('brat', async (node) => {
      node.disabled = true;
      status.textContent = '';
      try {
        const ann = await apiText('/v1/analyze?format=brat', analysis.request);
        saveFile(downloadName(doc, 'ann'), 'text/plain', ann);
      } catch (error) {
        status.textContent = `Not downloaded: ${error.message}`;
      } finally {
        node.disabled = false;
      }
    }),
    ' ', status);
}

// The attributions as a table, shown only in print, after the text.
function printTable(doc, stances) {
  const rows = attributionRows(doc, stances);
  return el('section', { class: 'print-only' },
    el('h2', {}, 'Attributions'),
    table(counted(rows.length, 'attribution'), [
      { title: '#', num: true, cell: (r) => String(r.attribution) },
      { title: 'source', cell: (r) => r.source || r.source_words || 'no source' },
      { title: 'type', cell: (r) => r.source_type.replace('_', ' ') },
      { title: 'stance', cell: (r) => r.stance },
      { title: 'cue', cell: (r) => r.cue },
      { title: 'content', cell: (r) => r.content },
    ], rows));
}

// Draws the result, the article first, a part at a time; resolves false
// when the drawing was stopped. The result is busy until it is whole.
async function renderDocument(doc, progress) {
  const pause = turns(++drawing);
  const stances = stanceOf(doc);
  const result = document.getElementById('result');
  result.hidden = false;
  result.setAttribute('aria-busy', 'true');
  renderLegend();
  sidePanel.replaceChildren();
  document.getElementById('print-table').replaceChildren();
  const whole = await renderArticle(doc, stances, progress, pause)
    && await renderPanel(doc, stances, pause);
  if (!whole) return false;
  if (lastAnalysis) sidePanel.prepend(downloads(doc, stances));
  document.getElementById('print-table').replaceChildren(printTable(doc, stances));
  result.removeAttribute('aria-busy');
  return true;
}

// ---------------------------------------------------------------- Ledger

const ledgerContent = document.getElementById('ledger-content');
const PAGE = 20;

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && String(value).trim() !== '') search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// A table in a box of its own that scrolls sideways where the screen is too
// narrow, reachable by keyboard, and saying so above it while it overflows.
function table(caption, columns, rows) {
  const hint = el('p', { class: 'scroll-hint muted', hidden: true }, 'Scroll the table sideways for more columns →');
  const wrap = el('div', { class: 'table-wrap', role: 'region', tabindex: '0', 'aria-label': caption }, el('table', {},
    el('caption', { class: 'muted' }, caption),
    el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col', class: c.num ? 'num' : null }, c.title)))),
    el('tbody', {}, rows.map((row) => el('tr', {}, columns.map((c) => el('td', { class: c.num ? 'num' : null }, c.cell(row))))))));
  tableOverflow.observe(wrap);
  return [hint, wrap];
}

// One observer for every table: a table that overflows its box says so in
// the hint just before it.
const tableOverflow = new ResizeObserver((entries) => {
  for (const { target: wrap } of entries) {
    const over = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.previousElementSibling.hidden = !over;
    wrap.classList.toggle('overflowing', over);
  }
});

function filterForm(fields, values, onSubmit) {
  const filters = el('form', { class: 'filters', novalidate: true });
  for (const field of fields) {
    const input = field.options
      ? el('select', { name: field.name }, el('option', { value: '' }, 'any'), field.options.map((o) => el('option', { value: o, selected: values[field.name] === o }, field.optionText ? field.optionText(o) : o)))
      : el('input', { type: field.type || 'text', name: field.name, value: values[field.name] || '', placeholder: field.placeholder || null });
    filters.append(el('label', {}, field.title, input));
  }
  filters.append(el('button', { type: 'submit' }, 'Show'));
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit(Object.fromEntries(new FormData(filters)));
  });
  return filters;
}

// An API error placed where it belongs: beside the field its message names
// ("since=… is not a date"), else under the form; the form stays usable.
function placeError(filters, error) {
  const named = /^(\w+)=/.exec(error.message);
  const input = named && filters ? filters.elements[named[1]] : null;
  if (input) {
    fieldError(input, error.message);
    input.focus();
    return null;
  }
  return el('p', { class: 'form-error', role: 'alert' }, error.message);
}

// A ledger page: its heading and filters at once, then what `load` builds,
// or the error in place.
let ledgerVisits = 0;
async function ledgerPage(title, filters, load) {
  const loading = el('p', { class: 'muted', role: 'status' }, 'Loading…');
  const shown = [...ledgerContent.childNodes].filter((node) => !node.classList?.contains('unreachable'));
  ledgerContent.replaceChildren(el('h2', {}, title), filters || '', loading);
  // Busy until the new view replaces the old, for screen readers and for
  // anything that must not read a half-built page.
  ledgerContent.setAttribute('aria-busy', 'true');
  const visit = ++ledgerVisits;
  try {
    loading.replaceWith(...[await load()].flat(Infinity).filter(Boolean));
  } catch (error) {
    if (error instanceof Unreachable) {
      // What was on screen comes back, with the reason above it.
      const alert = el('p', { class: 'form-error unreachable', role: 'alert' },
        `Not loaded: ${error.message}. `, retryButton(route));
      ledgerContent.replaceChildren(alert, ...(shown.length ? shown : [el('h2', {}, title)]));
      return;
    }
    loading.replaceWith(placeError(filters, error) || '');
  } finally {
    if (visit === ledgerVisits) ledgerContent.removeAttribute('aria-busy');
  }
}

const FILTERS = [
  { name: 'outlet', title: 'Outlet' },
  { name: 'since', title: 'Since', type: 'date' },
  { name: 'until', title: 'Until', type: 'date' },
];

async function topSources(values) {
  const fields = [{ name: 'name', title: 'Name', type: 'search', placeholder: 'any part of a name' }, ...FILTERS, { name: 'type', title: 'Type', options: KINDS }];
  const filters = filterForm(fields, values, (next) => {
    location.hash = `#ledger${query(next)}`;
  });
  const offset = Math.max(0, Number.parseInt(values.offset, 10) || 0);
  await ledgerPage('Most-quoted sources', filters, async () => {
    const { rows, total } = await api(`/v1/sources${query({ ...values, offset, limit: PAGE })}`);
    if (!rows.length) {
      const none = values.name ? `No source named with “${values.name}” in this range.` : 'No sources in this range.';
      return el('p', { role: 'status' }, offset ? 'No more sources.' : none);
    }
    const last = offset + rows.length;
    return [
      el('p', { role: 'status', class: 'count' }, offset || last < total ? `Sources ${offset + 1}–${last} of ${total}` : counted(total, 'source')),
      table('Sources by number of statements', [
        { title: 'source', cell: (r) => el('a', { href: `#ledger/source/${r.id}` }, r.name) },
        { title: 'type', cell: (r) => r.kind.replace('_', ' ') },
        { title: 'statements', num: true, cell: (r) => String(r.statements) },
        { title: 'articles', num: true, cell: (r) => String(r.articles) },
        { title: 'merged across articles', cell: (r) => (r.merged ? 'yes' : 'no') },
      ], rows),
      pager('#ledger', values, offset, last, last < total, 'Pages of sources'),
    ];
  });
}

// The article page with one attribution lit and in view; the article alone
// for an index that is null (a quotation, a sentence of the writer's).
function attributionHref(article, index) {
  return `#ledger/article/${encodeURIComponent(article)}${query({ attribution: index })}`;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The smallest of 1, 2, 2.5 and 5 times a power of ten at or above `value`:
// a scale top that fits the data and reads as a round number.
function niceTop(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((top) => top >= value - 1e-12);
}

// Charts are drawn at the width they get, so that their text stays at its
// CSS size on a phone as on a desktop.
function chartWidth() {
  return Math.max(280, Math.min(880, ledgerContent.clientWidth - 40));
}

function stanceLegend(stances) {
  return el('ul', { class: 'chart-legend', 'aria-label': 'Stances' }, stances.map((s) => el('li', {},
    el('span', { class: `swatch stance-${s}` }), s === 'none' ? 'no stance' : s)));
}

function monthsBetween(first, last) {
  const months = [];
  let [year, month] = first.split('-').map(Number);
  const [endYear, endMonth] = last.split('-').map(Number);
  while (year < endYear || (year === endYear && month <= endMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    month += 1;
    if (month > 12) { month = 1; year += 1; }
  }
  return months;
}

// Statements per month, stacked by stance, over every month from the first
// to the last (empty months included), with a count scale and a legend.
function timelineChart(statements) {
  const dated = statements.filter((s) => s.date);
  const undated = statements.length - dated.length;
  const note = undated ? el('p', { class: 'muted' }, `${counted(undated, 'undated statement')} not charted.`) : null;
  if (!dated.length) return [el('p', { class: 'muted' }, 'No dated statements to chart.'), note];
  const keys = dated.map((s) => s.date.slice(0, 7)).sort();
  const months = monthsBetween(keys[0], keys[keys.length - 1]);
  const counts = new Map(months.map((m) => [m, {}]));
  for (const s of dated) {
    const c = counts.get(s.date.slice(0, 7));
    const stance = s.stance || 'none';
    c[stance] = (c[stance] || 0) + 1;
  }
  const totals = months.map((m) => Object.values(counts.get(m)).reduce((a, b) => a + b, 0));
  const top = Math.max(1, Math.ceil(niceTop(Math.max(...totals))));
  const width = chartWidth(); const left = 36; const right = 8; const plot = 150; const topPad = 10; const height = topPad + plot + 24;
  const slot = (width - left - right) / months.length;
  const every = Math.max(1, Math.ceil(62 / slot));
  const busiest = months[totals.indexOf(Math.max(...totals))];
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': `Statements per month from ${months[0]} to ${months[months.length - 1]}; the most, ${Math.max(...totals)}, in ${busiest}` });
  const y = (n) => topPad + plot - (n / top) * plot;
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 2, top].filter(Number.isInteger);
  for (const tick of ticks) {
    svg.append(svgEl('line', { class: tick ? 'grid' : 'axis', x1: left, x2: width - right, y1: y(tick), y2: y(tick) }));
    svg.append(svgEl('text', { x: left - 6, y: y(tick) + 4, 'text-anchor': 'end' }, String(tick)));
  }
  const present = new Set();
  months.forEach((month, i) => {
    const x = left + i * slot;
    const bar = Math.max(1, Math.min(slot * 0.7, 40));
    let base = 0;
    for (const stance of [...STANCES, 'none']) {
      const n = counts.get(month)[stance] || 0;
      if (!n) continue;
      present.add(stance);
      const rect = svgEl('rect', { class: `bar stance-${stance}`, x: x + (slot - bar) / 2, y: y(base + n), width: bar, height: y(base) - y(base + n) });
      rect.append(svgEl('title', {}, `${month}: ${n} ${stance === 'none' ? 'without stance' : stance}`));
      svg.append(rect);
      base += n;
    }
    if (i % every === 0) svg.append(svgEl('text', { x: x + slot / 2, y: topPad + plot + 16, 'text-anchor': 'middle' }, month));
  });
  return [el('h3', {}, 'Statements per month'), svg, stanceLegend([...STANCES, 'none'].filter((s) => present.has(s))), note];
}

function statementRow(s) {
  return el('div', { class: `statement stance-${s.stance || 'none'}${s.found ? ' corrected' : ''}` },
    el('span', { class: 'badge' }, s.stance || 'no stance'), ' ',
    el('span', { class: 'muted' }, `${s.date || 'undated'} · ${s.outlet || 'no outlet'} · `),
    el('a', { href: attributionHref(s.article, s.attribution) }, s.article), ' ',
    el('strong', {}, s.cue), ' ', quoted(clip(s.content, 240)), correctedMark(s.found));
}

async function sourcePage(id) {
  await ledgerPage('Source', null, async () => {
    const { source, statements } = await api(`/v1/sources/${encodeURIComponent(id)}`);
    ledgerContent.querySelector('h2').textContent = source.name;
    return el('div', { class: 'panel' },
      el('p', { class: 'muted' }, `${source.kind.replace('_', ' ')} · ${source.statements} statements in ${source.articles} articles${source.merged ? (source.kind === 'person' ? ' · merged across articles by full name' : ' · merged across articles by its whole, specific name') : ' · kept to its article: its name is not specific enough to merge'}`),
      el('p', {}, el('a', { href: `#ledger/claims${query({ source: source.name })}` }, `Claims credited to ${source.name} that travelled`)),
      timelineChart(statements),
      el('h3', {}, 'Statements'),
      el('div', { class: 'timeline' }, statements.map(statementRow)));
  });
}

// Whether the server takes corrections (attest serve --allow-corrections).
let correctionsAllowed = false;
// The largest request the server reads (GET /v1/health), once known.
let maxBodyBytes = null;

function labelName(name) {
  return name.replace('_', ' ');
}

function foundText(found) {
  return `${found.source || 'no source'}, ${found.stance || 'no stance'}, ${labelName(found.kind)}`;
}

// A statement or hit an editor corrected, marked so, with what attest
// found one click away.
function correctedMark(found) {
  if (!found) return null;
  return el('details', { class: 'corrected-mark' },
    el('summary', {}, 'Corrected by an editor'), `attest found: ${foundText(found)}`);
}

// What an editor said of an attribution, in words beside it.
function correctionNote(a) {
  const c = a.correction;
  if (!c) return null;
  const what = c.wrong ? 'Marked not an attribution' : (a.found ? 'Corrected' : 'Checked and left as found');
  return el('p', { class: 'correction-note' },
    el('strong', {}, what), ` by an editor on ${c.created.slice(0, 10)}`,
    a.found ? ` · attest found: ${foundText(a.found)}` : '',
    c.note ? [' · note: ', quoted(c.note)] : '');
}

function option(value, text, selected) {
  return el('option', { value, selected: selected || null }, text);
}

// The form that corrects one attribution: every field starts at "as found";
// only what the editor changes is sent.
function correctionForm(id, a, sources, saved) {
  const n = a.index;
  const field = (name, title, control) => el('label', {}, `${title} `, control);
  const wrong = el('input', { type: 'checkbox', name: `wrong-${n}` });
  const source = el('select', { name: `source-${n}` }, option('', 'as found'),
    sources.map((s) => option(`pick:${s.index}`, `${s.name} (${labelName(s.kind)})`)),
    option('named', 'another source…'));
  const name = el('input', { type: 'text', name: `name-${n}`, maxlength: 200, autocomplete: 'off' });
  const type = el('select', { name: `type-${n}` }, KINDS.map((k) => option(k, labelName(k))));
  const named = el('div', { class: 'named-source', hidden: true }, field(`name-${n}`, 'Name', name), field(`type-${n}`, 'Type', type));
  const stance = el('select', { name: `stance-${n}` }, option('', 'as found'), STANCES.map((s) => option(s, s)));
  const kind = el('select', { name: `kind-${n}` }, option('', 'as found'), ATTRIBUTION_KINDS.map((k) => option(k, labelName(k))));
  const note = el('textarea', { name: `note-${n}`, maxlength: 2000, rows: 2 });
  const status = el('p', { class: 'muted', role: 'status' });
  source.addEventListener('change', () => { named.hidden = source.value !== 'named'; });
  wrong.addEventListener('change', () => {
    for (const control of [source, name, type, stance, kind]) control.disabled = wrong.checked;
  });
  const form = el('form', { class: 'correction-form', 'aria-label': `Correct attribution ${n + 1}` },
    el('label', {}, wrong, ' Not an attribution'),
    field(`source-${n}`, 'Source', source), named,
    field(`stance-${n}`, 'Stance', stance),
    field(`kind-${n}`, 'Kind', kind),
    field(`note-${n}`, 'Note', note),
    el('div', { class: 'form-buttons' },
      el('button', { type: 'submit' }, 'Save correction'), ' ',
      el('button', { type: 'button', class: 'secondary', onclick: () => form.remove() }, 'Cancel')),
    status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const body = { attribution: n };
    if (wrong.checked) {
      body.wrong = true;
    } else {
      if (source.value.startsWith('pick:')) body.source = { pick: Number(source.value.slice(5)) };
      if (source.value === 'named') {
        if (!name.value.trim()) {
          fieldError(name, 'Type the source’s name, or pick one of the article’s sources.');
          name.focus();
          return;
        }
        body.source = { named: { name: name.value.trim(), type: type.value } };
      }
      if (stance.value) body.stance = stance.value;
      if (kind.value) body.kind = kind.value;
    }
    if (note.value.trim()) body.note = note.value.trim();
    status.className = 'muted';
    status.textContent = 'Saving…';
    try {
      await editorPost(`/v1/articles/${encodeURIComponent(id)}/corrections`, body);
      await saved(n);
    } catch (error) {
      status.className = 'form-error';
      status.textContent = `Not saved: ${error.message}`;
    }
  });
  return form;
}

// `travelled`: the claim this attribution carries, when it travelled, and
// its role here.
function articleAttribution(id, a, sources, saved, travelled) {
  const c = a.correction;
  const row = el('div', { class: `statement stance-${a.stance || 'none'}${c && c.wrong ? ' wrong' : ''}${c ? ' corrected' : ''}`, id: `attribution-${a.index}` },
    el('span', { class: 'badge' }, a.stance || 'no stance'), ' ',
    a.source_id !== null ? el('a', { href: `#ledger/source/${a.source_id}` }, a.source) : el('span', { class: 'muted' }, a.source || 'no source'),
    ' ', el('strong', {}, a.cue), ' ', el('span', { class: 'said' }, quoted(clip(a.content, 240))),
    travelled ? el('div', { class: 'claim-link' }, el('a', { href: `#ledger/claim/${travelled.claim.claim}` }, `claim #${travelled.claim.claim}, ${claimTravel(travelled.claim)}`), ` · ${roleName(travelled.role)} here`) : null,
    correctionNote(a));
  if (correctionsAllowed) {
    const open = el('button', { type: 'button', class: 'secondary correct-button', 'aria-expanded': 'false' }, 'Correct…');
    open.addEventListener('click', () => {
      const shown = row.querySelector('.correction-form');
      if (shown) {
        shown.remove();
        open.setAttribute('aria-expanded', 'false');
        return;
      }
      const form = correctionForm(id, a, sources, saved);
      row.append(form);
      open.setAttribute('aria-expanded', 'true');
      form.querySelector('input, select').focus();
    });
    row.append(' ', open);
  }
  return row;
}

// An editor's write (a correction, a review): JSON, with the token only this
// server's own page can read.
async function editorPost(path, body) {
  const { token, header } = await api('/v1/token');
  return api(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [header]: token },
    body: JSON.stringify(body),
  });
}

// Whether an editor read the whole article, and, on a server that takes
// corrections, the button that says so: only reviewed articles are exported
// as gold.
function reviewLine(id, review) {
  const said = !review ? 'Not reviewed by an editor.'
    : review.applies ? `Reviewed by an editor on ${review.created.slice(0, 10)}.`
      : `Reviewed on ${review.created.slice(0, 10)}, before the article was analysed again: not reviewed as it stands.`;
  const line = el('p', { class: `review-line${review && review.applies ? ' reviewed' : ''}`, tabindex: '-1' }, said);
  if (correctionsAllowed && !(review && review.applies)) {
    const status = el('span', { role: 'status' });
    const button = el('button', { type: 'button', class: 'secondary review-button' }, 'Mark reviewed');
    button.addEventListener('click', async () => {
      button.disabled = true;
      status.textContent = ' Saving…';
      try {
        await editorPost(`/v1/articles/${encodeURIComponent(id)}/review`, {});
        await articlePage(id);
        document.querySelector('#ledger-content .review-line')?.focus();
      } catch (error) {
        button.disabled = false;
        status.className = 'form-error';
        status.textContent = ` Not saved: ${error.message}`;
      }
    });
    line.append(' ', button, status);
  }
  return line;
}

// A stored article in the shape of the document the Analyse page draws:
// its text in paragraphs, and its attributions as its corrections leave
// them, each credited to its source by name.
function ledgerDoc(text, attributions) {
  return {
    text,
    paragraphs: paragraphsOf(text),
    attributions: attributions.map((a) => ({ ...a.spans, kind: a.kind })),
    sources: attributions.filter((a) => a.source).map((a) => ({ name: a.source, attributions: [a.index] })),
  };
}

function ledgerStances(attributions) {
  return new Map(attributions.filter((a) => a.stance).map((a) => [a.index, { label: a.stance, evidence: [] }]));
}

// A text's paragraphs, the runs between blank lines, in code points.
function paragraphsOf(text) {
  const paragraphs = [];
  let start = null;
  let end = 0;
  let breaks = 0;
  let at = 0;
  for (const ch of text) {
    if (ch === '\n') breaks += 1;
    else if (ch.trim()) {
      if (start !== null && breaks >= 2) {
        paragraphs.push({ span: { cp_start: start, cp_end: end }, role: 'body' });
        start = null;
      }
      if (start === null) start = at;
      breaks = 0;
      end = at + 1;
    }
    at += 1;
  }
  if (start !== null) paragraphs.push({ span: { cp_start: start, cp_end: end }, role: 'body' });
  return paragraphs;
}

// An article with its attributions, the claims it carries that travelled,
// and its text. `focus`: the attribution whose correction was just saved;
// `anchor`: the attribution a claim's timeline links to, shown lit.
async function articlePage(id, focus, anchor) {
  await serverReady;
  // The text is drawn as the Analyse page draws it, once the page is up.
  const textView = el('article', { class: 'article-text', 'aria-label': 'The article with its attributions marked' });
  let drawn = null;
  await ledgerPage('Article', null, async () => {
    const [{ article, text, attributions, sources, corrections, review }, { rows: claims }] = await Promise.all([
      api(`/v1/articles/${encodeURIComponent(id)}`),
      api(`/v1/claims${query({ article: id, limit: 100 })}`),
    ]);
    ledgerContent.querySelector('h2').textContent = article.title || article.id;
    drawn = { text, attributions };
    const saved = async (index) => {
      await articlePage(id, index);
    };
    const here = claims.flatMap((claim) => claim.appearances
      .filter((a) => a.article === article.id)
      .map((a) => ({ claim, role: a.role, attribution: a.attribution })));
    const travelled = (index) => here.find((h) => h.attribution === index);
    const stale = corrections.filter((c) => !c.applies).length;
    return el('div', { class: 'panel' },
      el('p', { class: 'muted' }, [article.outlet, article.published, article.url].filter(Boolean).join(' · '),
        ' · ', el('a', { href: `#ledger/article/${encodeURIComponent(article.id)}`, class: 'permalink' }, 'permalink')),
      reviewLine(article.id, review),
      el('h3', {}, 'Attributions'),
      el('div', { class: 'timeline' }, attributions.map((a) => articleAttribution(id, a, sources, saved, travelled(a.index)))),
      stale ? el('p', { class: 'muted' }, `${counted(stale, 'earlier correction')} no longer appl${stale === 1 ? 'ies' : 'y'}: the article was analysed again since.`) : null,
      here.length ? [el('h3', {}, 'Claims it carries that travelled'),
        el('ul', { class: 'article-claims' }, here.map((h) => el('li', {},
          el('a', { href: `#ledger/claim/${h.claim.claim}` }, quoted(clip(h.claim.text, 160))),
          ` · ${roleName(h.role)} here · ${claimTravel(h.claim)}`)))] : null,
      el('h3', {}, 'Text'),
      textView);
  });
  const row = (index) => document.getElementById(`attribution-${index}`);
  if (drawn) {
    const pick = (index) => {
      clearLit();
      lightText(textView, index);
      if (row(index)) {
        row(index).classList.add('lit');
        row(index).scrollIntoView({ block: 'nearest' });
      }
    };
    textView.setAttribute('aria-busy', 'true');
    await renderArticle(ledgerDoc(drawn.text, drawn.attributions), ledgerStances(drawn.attributions), null,
      turns(++drawing), { view: textView, showStances: true, pick });
    textView.removeAttribute('aria-busy');
    if (anchor !== undefined) lightText(textView, anchor);
  }
  if (focus !== undefined) {
    const note = row(focus) && row(focus).querySelector('.correction-note');
    if (note) {
      note.setAttribute('tabindex', '-1');
      note.focus();
    }
  } else if (anchor !== undefined && row(anchor)) {
    const target = row(anchor);
    target.classList.add('lit');
    target.setAttribute('tabindex', '-1');
    target.focus();
    target.scrollIntoView({ block: 'center' });
  }
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

function searchHit(hit) {
  const source = hit.source_id !== null && hit.source_id !== undefined
    ? el('a', { href: `#ledger/source/${hit.source_id}` }, hit.source)
    : el('span', {}, hit.source || (hit.found_in === 'quote' ? 'a quotation with no attribution' : 'no source'));
  return el('li', { class: `statement stance-${hit.stance || 'none'}${hit.found ? ' corrected' : ''}` },
    el('span', { class: 'badge' }, hit.stance || (hit.found_in === 'quote' ? 'quote' : 'no stance')), ' ',
    source, hit.cue ? [' ', el('strong', {}, hit.cue)] : null, ' ',
    highlighted(hit.text, hit.matches), correctedMark(hit.found),
    el('div', { class: 'muted' }, `${hit.date || 'undated'} · ${hit.outlet || 'no outlet'} · `,
      el('a', { href: attributionHref(hit.article, hit.attribution) }, hit.title || `article ${hit.article}`)));
}

// Links to the page of PAGE rows before `offset` and, when there is `more`,
// to the page from `last` on, under the view at `path` with its `values`.
function pager(path, values, offset, last, more, label) {
  return el('nav', { class: 'pager', 'aria-label': label },
    offset > 0 ? el('a', { href: `${path}${query({ ...values, offset: Math.max(0, offset - PAGE) || null })}` }, '← previous') : null,
    more ? el('a', { href: `${path}${query({ ...values, offset: last })}` }, 'next →') : null);
}

async function searchPage(values) {
  const submit = (next) => {
    location.hash = `#ledger/search${query(next)}`;
  };
  const filters = filterForm([{ name: 'q', title: 'Words', type: 'search', placeholder: 'bargain "press release" strik*' }, ...FILTERS], values, submit);
  if (!values.q) {
    ledgerContent.replaceChildren(el('h2', {}, 'Search what sources said'), filters,
      el('p', { class: 'muted' }, 'Words must all occur; put a phrase in "quotes"; end a word with * to find every word it begins.'));
    return;
  }
  const offset = Math.max(0, Number.parseInt(values.offset, 10) || 0);
  await ledgerPage('Search what sources said', filters, async () => {
    const { rows, more, total } = await api(`/v1/search${query({ ...values, offset, limit: PAGE })}`);
    if (!rows.length) {
      return el('p', { role: 'status' }, offset ? 'No more hits.' : `Nothing found for ${values.q}.`);
    }
    const last = offset + rows.length;
    const count = offset || more ? `Hits ${offset + 1}–${last} of ${total}` : counted(total, 'hit');
    return [el('p', { role: 'status', class: 'count' }, count), el('ol', { class: 'timeline hits', start: offset + 1 }, rows.map(searchHit)),
      pager('#ledger/search', values, offset, last, more, 'Pages of hits')];
  });
}

// The stored articles, newest first, a page at a time: one more row than
// the page is asked for, to know whether another page follows.
async function articlesPage(values) {
  const filters = filterForm(FILTERS, values, (next) => {
    location.hash = `#ledger/articles${query(next)}`;
  });
  const offset = Math.max(0, Number.parseInt(values.offset, 10) || 0);
  await ledgerPage('Articles', filters, async () => {
    const { rows } = await api(`/v1/articles${query({ ...values, offset, limit: PAGE + 1 })}`);
    if (!rows.length) return el('p', { role: 'status' }, offset ? 'No more articles.' : 'No articles in this range.');
    const more = rows.length > PAGE;
    const shown = rows.slice(0, PAGE);
    const last = offset + shown.length;
    const count = (n) => (n === null || n === undefined ? '' : String(n));
    return [
      el('p', { role: 'status', class: 'count' }, `Articles ${offset + 1}–${last}${more ? '' : ` of ${last}`}`),
      table('Articles, newest first', [
        { title: 'article', cell: (r) => el('a', { href: `#ledger/article/${encodeURIComponent(r.id)}` }, r.title || r.id) },
        { title: 'outlet', cell: (r) => r.outlet || '' },
        { title: 'published', cell: (r) => (r.published || '').slice(0, 10) },
        { title: 'attributions', num: true, cell: (r) => count(r.attributions) },
        { title: 'sources', num: true, cell: (r) => count(r.sources) },
        { title: 'unnamed sources', num: true, cell: (r) => count(r.unnamed_sources) },
        { title: 'direct quotes', num: true, cell: (r) => count(r.direct_quotes) },
      ], shown),
      pager('#ledger/articles', values, offset, last, more, 'Pages of articles'),
    ];
  });
}

// Fewer articles than this make an outlet's shares too small to compare.
const FEW_ARTICLES = 5;

// An outlet's name in a chart with its sample size beside it, and a word
// where the sample is too small to compare.
function outletLabel(r, y) {
  const few = r.articles < FEW_ARTICLES;
  const label = svgEl('text', { x: 0, y }, clip(r.group || '(no outlet)', 48));
  label.append(svgEl('tspan', { class: few ? 'too-few' : 'sample' },
    ` · ${counted(r.articles, 'article')}${few ? ', too few to compare' : ''}`));
  return label;
}

// A chart's heading with the sample it is drawn from.
function chartHeading(title, rows) {
  const articles = rows.reduce((sum, r) => sum + r.articles, 0);
  return el('h3', {}, title, el('span', { class: 'muted' }, ` · ${counted(articles, 'article')}`));
}

// One bar per outlet, its name above it and its value at its end, on a scale
// fitted to the largest value.
function barChart(title, rows, value, format) {
  const width = chartWidth(); const row = 40; const right = 48;
  const values = rows.map(value).filter((v) => v !== null && v !== undefined);
  const top = niceTop(Math.max(0, ...values));
  const scaleHeight = 18;
  const height = scaleHeight + rows.length * row + 4;
  const x = (v) => (v / top) * (width - right);
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${title}, by outlet, on a scale of 0 to ${format(top)}` });
  for (const tick of [0, top / 2, top]) {
    svg.append(svgEl('line', { class: 'grid', x1: x(tick), x2: x(tick), y1: scaleHeight - 4, y2: height }));
    svg.append(svgEl('text', { x: Math.min(x(tick), width - right), y: 12, 'text-anchor': tick ? 'middle' : 'start' }, format(tick)));
  }
  // An outlet's value in words, in the drawing and in its table alike.
  const shown = (r) => { const v = value(r); return v === null || v === undefined ? 'n/a' : format(v); };
  rows.forEach((r, i) => {
    const y = scaleHeight + i * row;
    const v = value(r);
    svg.append(outletLabel(r, y + 13));
    if (v === null || v === undefined) {
      svg.append(svgEl('text', { x: 0, y: y + 31, class: 'muted-text' }, shown(r)));
      return;
    }
    const rect = svgEl('rect', { class: 'bar plain', x: 0, y: y + 18, width: Math.max(1, x(v)), height: 16 });
    rect.append(svgEl('title', {}, `${r.group || '(no outlet)'}: ${shown(r)}`));
    svg.append(rect, svgEl('text', { x: Math.max(1, x(v)) + 5, y: y + 31 }, shown(r)));
  });
  return el('div', { class: 'panel' }, chartHeading(title, rows), svg,
    chartTable(title, [{ title: title.toLowerCase(), num: true, cell: shown }], rows));
}

// A chart's values as a table, one row per outlet, behind a toggle: what a
// bar too narrow for its label, a touch screen or a screen reader cannot
// get from the drawing.
function chartTable(title, columns, rows) {
  return el('details', { class: 'chart-table' }, el('summary', {}, 'The values as a table'),
    table(`${title}, by outlet`, [
      { title: 'outlet', cell: (r) => r.group || '(no outlet)' },
      { title: 'articles', num: true, cell: (r) => String(r.articles) },
      ...columns,
    ], rows));
}

// One bar per outlet split by the share of each stance; shares wide enough
// carry their percentage.
function stanceChart(rows) {
  const width = chartWidth(); const row = 40;
  const height = rows.length * row + 4;
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Stance mix by outlet, ${SHARE_OF.stanced}` });
  const present = new Set();
  rows.forEach((r, i) => {
    const y = i * row;
    svg.append(outletLabel(r, y + 13));
    let x = 0;
    for (const stance of STANCES) {
      const share = r[stance] || 0;
      if (!share) continue;
      present.add(stance);
      const w = share * width;
      const rect = svgEl('rect', { class: `bar stance-${stance}`, x, y: y + 18, width: w, height: 18 });
      rect.append(svgEl('title', {}, `${r.group || '(no outlet)'}: ${percent(share)} ${stance}`));
      svg.append(rect);
      if (w >= 34) svg.append(svgEl('text', { class: 'on-bar', x: x + w / 2, y: y + 31, 'text-anchor': 'middle' }, percent(share)));
      x += w;
    }
  });
  return el('div', { class: 'panel' }, chartHeading(`Stance mix, ${SHARE_OF.stanced}`, rows), svg, stanceLegend(STANCES.filter((s) => present.has(s))),
    chartTable(`Stance mix, ${SHARE_OF.stanced}`, STANCES.map((stance) => ({ title: stance, num: true, cell: (r) => percent(r[stance] || 0) })), rows));
}

async function outletsPage(values) {
  const filters = filterForm(FILTERS.slice(1), values, (next) => {
    location.hash = `#ledger/outlets${query(next)}`;
  });
  await ledgerPage('Outlets', filters, async () => {
    const { rows } = await api(`/v1/stats${query({ ...values, by: 'outlet' })}`);
    if (!rows.length) return el('p', { class: 'muted', role: 'status' }, 'No articles in this range: nothing to chart.');
    const pct = (v) => (v === null || v === undefined ? 'n/a' : percent(v));
    return [el('div', { class: 'charts' },
      barChart(`Unnamed sources, ${SHARE_OF.sources}`, rows, (r) => r.unnamed_share, pct),
      barChart(`Direct quotes, ${SHARE_OF.attributions}`, rows, (r) => r.direct_share, pct),
      barChart(`Attributions hedged by the writer, ${SHARE_OF.attributions}`, rows, (r) => r.hedged_attribution_share, pct),
      stanceChart(rows)),
    table('Sourcing by outlet', [
      { title: 'outlet', cell: (r) => r.group || '(none)' },
      { title: 'articles', num: true, cell: (r) => String(r.articles) },
      { title: 'attributions', num: true, cell: (r) => String(r.attributions) },
      { title: `unnamed sources, ${SHARE_OF.sources}`, num: true, cell: (r) => pct(r.unnamed_share) },
      { title: `direct quotes, ${SHARE_OF.attributions}`, num: true, cell: (r) => pct(r.direct_share) },
      { title: 'hedges per 1,000 words', num: true, cell: (r) => (r.hedges_per_1000_words === null ? 'n/a' : r.hedges_per_1000_words.toFixed(2)) },
      { title: `attributions hedged by the writer, ${SHARE_OF.attributions}`, num: true, cell: (r) => pct(r.hedged_attribution_share) },
      { title: 'writer\'s own sentences hedged', num: true, cell: (r) => pct(r.hedged_sentence_share) },
    ], rows)];
  });
}

// ---------------------------------------------------------------- Claims

// The roles of a claim's appearances, in the order of attest-claims' `Role`
// (the browser test holds these names to the API's), each drawn in a shape
// of its own with its name beside it, so that no role rests on colour.
const ROLES = {
  origin: { shape: 'star', says: 'the first appearance, by publication time' },
  attributed_repeat: { shape: 'disc', says: 'credited to the origin’s source, no more firmly' },
  unattributed_repeat: { shape: 'ring', says: 'stated with no source, or on hearsay alone' },
  misattributed: { shape: 'triangle', says: 'credited to another source' },
  hardened: { shape: 'diamond', says: 'the origin’s source, more firmly' },
  denied: { shape: 'cross', says: 'the content of a denial' },
};

function roleName(role) {
  return role.replaceAll('_', ' ');
}

function claimTravel(claim) {
  return `in ${counted(claim.articles, 'article')} of ${counted(claim.outlets, 'outlet')}`;
}

// The day of a publication time as written ("2026-03-02T09:00:00Z" gives
// 2026-03-02), or "undated".
function day(published) {
  return published ? published.slice(0, 10) : 'undated';
}

// A role's shape centred on (x, y), `r` from the centre to its edge.
function roleShape(role, x, y, r) {
  const shape = (ROLES[role] || ROLES.attributed_repeat).shape;
  const points = (list) => list.map(([dx, dy]) => `${x + dx * r},${y + dy * r}`).join(' ');
  const cls = `role-shape shape-${shape}`;
  if (shape === 'disc' || shape === 'ring') return svgEl('circle', { class: cls, cx: x, cy: y, r: shape === 'ring' ? r - 1 : r });
  if (shape === 'triangle') return svgEl('polygon', { class: cls, points: points([[0, -1.1], [1, 0.75], [-1, 0.75]]) });
  if (shape === 'diamond') return svgEl('polygon', { class: cls, points: points([[0, -1.15], [1.15, 0], [0, 1.15], [-1.15, 0]]) });
  if (shape === 'cross') return svgEl('path', { class: cls, d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}` });
  const star = Array.from({ length: 10 }, (_, i) => {
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    const reach = i % 2 ? 0.5 : 1.25;
    return [Math.cos(angle) * reach, Math.sin(angle) * reach];
  });
  return svgEl('polygon', { class: cls, points: points(star) });
}

function roleIcon(role) {
  const svg = svgEl('svg', { class: 'role-icon', width: 18, height: 18, viewBox: '0 0 18 18', 'aria-hidden': 'true' });
  svg.append(roleShape(role, 9, 9, 6));
  return svg;
}

function roleLegend(roles) {
  return el('ul', { class: 'role-legend', 'aria-label': 'Roles' }, roles.map((role) => el('li', {},
    roleIcon(role), el('strong', {}, roleName(role)), `: ${ROLES[role] ? ROLES[role].says : role}`)));
}

// "origin, 3 attributed repeat, 1 denied": each role of a claim with its count.
function roleCounts(claim) {
  const counts = new Map();
  for (const a of claim.appearances) counts.set(a.role, (counts.get(a.role) || 0) + 1);
  return Object.keys(ROLES).filter((role) => counts.has(role))
    .map((role) => `${counts.get(role) === 1 ? '' : `${counts.get(role)} `}${roleName(role)}`).join(', ');
}

async function claimsPage(values) {
  const fields = [...FILTERS,
    { name: 'source', title: 'Credited to' },
    { name: 'role', title: 'Role', options: Object.keys(ROLES), optionText: roleName },
    { name: 'min_articles', title: 'In at least (articles)', type: 'number', placeholder: '2' }];
  const filters = filterForm(fields, values, (next) => {
    location.hash = `#ledger/claims${query(next)}`;
  });
  await ledgerPage('Claims that travelled', filters, async () => {
    const { rows } = await api(`/v1/claims${query({ ...values, limit: 50 })}`);
    if (!rows.length) return el('p', { class: 'muted', role: 'status' }, 'No claim travelled within these filters.');
    return table('Claims by the articles that carry them, most first', [
      { title: 'claim', cell: (c) => el('a', { href: `#ledger/claim/${c.claim}` }, quoted(clip(c.text, 140))) },
      { title: 'articles', num: true, cell: (c) => String(c.articles) },
      { title: 'outlets', num: true, cell: (c) => String(c.outlets) },
      { title: 'first seen', cell: (c) => `${day(c.first.published)} · ${c.first.outlet || 'no outlet'}` },
      { title: 'roles', cell: roleCounts },
    ], rows);
  });
}

// The width a text takes at the timeline's 12px labels, near enough to keep
// labels apart.
function labelWidth(text) {
  return Array.from(text).length * 6.6;
}

// A claim's travel: one row per outlet (in order of its first appearance), a
// time axis across, and each appearance a link drawn in its role's shape
// with the role's name beside it. Appearances of one outlet that would
// overlap go on lanes below each other. Tab goes through them in time order.
function claimTimeline(claim) {
  const dated = claim.appearances.map((a) => ({ a, t: Date.parse(a.published || '') }))
    .filter((d) => Number.isFinite(d.t));
  const undated = claim.appearances.length - dated.length;
  const note = undated ? el('p', { class: 'muted' }, `${undated} undated appearance${undated === 1 ? ' is' : 's are'} in the table only.`) : null;
  if (!dated.length) return [el('p', { class: 'muted' }, 'No dated appearance to place on a time axis.'), note];
  const width = chartWidth(); const left = Math.min(160, Math.round(width * 0.3)); const right = 12;
  const axis = 24; const lane = 30; const pad = 10;
  let [first, last] = [Math.min(...dated.map((d) => d.t)), Math.max(...dated.map((d) => d.t))];
  if (first === last) { first -= 43200000; last += 43200000; }
  const plot = width - left - right - 2 * pad;
  const x = (t) => left + pad + ((t - first) / (last - first)) * plot;
  const outlets = [];
  for (const { a } of dated) if (!outlets.includes(a.outlet || '')) outlets.push(a.outlet || '');
  // Lanes per outlet: each mark and its label take [start, end]; a mark goes
  // on the first lane it does not overlap.
  const placed = dated.map((d) => {
    const label = roleName(d.a.role);
    const at = x(d.t);
    const after = at + 10 + labelWidth(label) <= width;
    const [start, end] = after ? [at - 9, at + 12 + labelWidth(label)] : [at - 12 - labelWidth(label), at + 9];
    return { ...d, label, at, after, start, end };
  });
  const lanes = new Map(outlets.map((o) => [o, []]));
  for (const p of placed) {
    const ends = lanes.get(p.a.outlet || '');
    let n = ends.findIndex((end) => p.start > end + 4);
    if (n < 0) { n = ends.length; ends.push(0); }
    ends[n] = p.end;
    p.lane = n;
  }
  const rowTop = new Map();
  let height = axis;
  for (const o of outlets) {
    rowTop.set(o, height);
    height += Math.max(1, lanes.get(o).length) * lane + 6;
  }
  const days = (last - first) / 86400000;
  const span = `from ${day(new Date(first).toISOString())} to ${day(new Date(last).toISOString())}`;
  const svg = svgEl('svg', { class: 'chart claim-timeline', width, height: height + 4, viewBox: `0 0 ${width} ${height + 4}`, role: 'group',
    'aria-label': `Timeline of the claim: ${counted(dated.length, 'appearance')} in ${counted(outlets.length, 'outlet')}, ${span}` });
  // A date label is some 75px wide: a tick per 95px keeps them apart.
  const ticks = Math.max(2, Math.min(6, Math.floor(plot / 95)));
  for (let i = 0; i < ticks; i += 1) {
    const t = first + ((last - first) * i) / (ticks - 1);
    const iso = new Date(t).toISOString();
    const text = days > 3 ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
    svg.append(svgEl('line', { class: 'grid', x1: x(t), x2: x(t), y1: axis - 6, y2: height }));
    svg.append(svgEl('text', { x: x(t), y: 13, 'text-anchor': i === 0 ? 'start' : (i === ticks - 1 ? 'end' : 'middle') }, text));
  }
  for (const o of outlets) {
    const top = rowTop.get(o);
    svg.append(svgEl('line', { class: 'axis', x1: 0, x2: width, y1: top - 3, y2: top - 3 }));
    svg.append(svgEl('text', { class: 'outlet', x: 0, y: top + lane / 2 + 4 }, clip(o || '(no outlet)', Math.floor(left / 7.5))));
  }
  placed.sort((p, q) => p.t - q.t);
  for (const p of placed) {
    const y = rowTop.get(p.a.outlet || '') + p.lane * lane + lane / 2;
    const who = p.a.source ? `credited to ${p.a.source}` : 'no source';
    const link = svgEl('a', { class: `claim-mark role-${p.a.role}`, href: attributionHref(p.a.article, p.a.attribution),
      'aria-label': `${roleName(p.a.role)}: ${p.a.outlet || 'no outlet'}, ${day(p.a.published)}, ${who}: ${quoted(clip(p.a.span.text, 120))}` });
    link.append(svgEl('circle', { class: 'focus-ring', cx: p.at, cy: y, r: 12 }), roleShape(p.a.role, p.at, y, 7),
      svgEl('text', { class: 'role-label', x: p.after ? p.at + 12 : p.at - 12, y: y + 4, 'text-anchor': p.after ? 'start' : 'end' }, p.label),
      svgEl('title', {}, `${roleName(p.a.role)} · ${p.a.outlet || 'no outlet'} · ${day(p.a.published)} · ${who}`));
    svg.append(link);
  }
  const present = Object.keys(ROLES).filter((role) => claim.appearances.some((a) => a.role === role));
  return [svg, roleLegend(present), note];
}

async function claimPage(id) {
  await ledgerPage('Claim', null, async () => {
    const claim = await api(`/v1/claims/${encodeURIComponent(id)}`);
    ledgerContent.querySelector('h2').textContent = `Claim #${claim.claim}`;
    return el('div', { class: 'panel' },
      el('p', { class: 'claim-text' }, quoted(claim.text)),
      el('p', { class: 'muted' }, `${counted(claim.appearances.length, 'appearance')} ${claimTravel(claim)}; first in ${claim.first.outlet || 'no outlet'} on ${day(claim.first.published)}`),
      el('h3', {}, 'Timeline'),
      claimTimeline(claim),
      el('div', { class: 'claim-appearances' }, table('Every appearance, in order of publication', [
        { title: 'published', cell: (a) => (a.published ? a.published.replace('T', ' ') : 'undated') },
        { title: 'outlet', cell: (a) => a.outlet || 'no outlet' },
        { title: 'role', cell: (a) => el('span', { class: 'role-cell' }, roleIcon(a.role), roleName(a.role)) },
        { title: 'credited to', cell: (a) => a.source || 'no source' },
        { title: 'stance', cell: (a) => a.stance || 'none' },
        { title: 'what it says', cell: (a) => el('a', { href: attributionHref(a.article, a.attribution) }, quoted(clip(a.span.text, 200))) },
      ], claim.appearances)));
  });
}

window.attestLedger = async (hash) => {
  await labelsReady;
  const [path, search] = hash.slice(1).split('?');
  const values = Object.fromEntries(new URLSearchParams(search || ''));
  const parts = path.split('/');
  if (parts[1] === 'source') await sourcePage(decodeURIComponent(parts[2] || ''));
  else if (parts[1] === 'article') {
    const anchor = /^\d+$/.test(values.attribution || '') ? Number(values.attribution) : undefined;
    await articlePage(decodeURIComponent(parts.slice(2).join('/')), undefined, anchor);
  } else if (parts[1] === 'claims') await claimsPage(values);
  else if (parts[1] === 'claim') await claimPage(decodeURIComponent(parts[2] || ''));
  else if (parts[1] === 'search') await searchPage(values);
  else if (parts[1] === 'outlets') await outletsPage(values);
  else if (parts[1] === 'articles') await articlesPage(values);
  else await topSources(values);
};

const labelsReady = api('/v1/openapi.json').then((openapi) => {
  // A label enum's schema is an `enum`, or a `oneOf` of documented `const`s.
  const values = (name) => {
    const schema = openapi.components.schemas[name];
    return schema.enum || schema.oneOf.map((variant) => variant.const);
  };
  STANCES = values('StanceLabel');
  KINDS = values('SourceKind');
  ATTRIBUTION_KINDS = values('AttributionKind');
});

// What the server offers; the article page waits for it to know whether it
// may offer corrections.
const serverReady = api('/v1/health').then((health) => {
  document.getElementById('nav-ledger').hidden = !health.ledger;
  correctionsAllowed = health.corrections;
  maxBodyBytes = health.max_body_bytes;
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
