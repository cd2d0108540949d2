// The attest page in headless Chromium, as an editor uses it: analyse the
// bundled sample and check what a reader sees with and without colour, by
// mouse, keyboard and screen reader, on a desktop and a phone; check that
// markup in an article stays text, that errors appear beside their fields, and
// browse a ledger through its sources, search, charts and claims' timelines.
// axe-core checks every view; the palette check (palette.mjs) runs first.
// Screenshots go to target/browser/.
//
//   node tests/browser/page.test.mjs [path/to/attest]
//
// Needs Debian's chromium (/usr/bin/chromium) and `npm ci` here; .ci/run does both.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { checkPalette, readPalette, summary } from './palette.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const attest = resolve(process.argv[2] || join(root, 'target/release/attest'));
const shots = join(root, 'target/browser');
mkdirSync(shots, { recursive: true });
// axe-core from node_modules, injected into the page by the test: the page
// itself never loads anything from elsewhere.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function startServer(args) {
  return new Promise((ready, fail) => {
    const child = spawn(attest, ['serve', '--addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
      if (match) ready({ child, base: `http://127.0.0.1:${match[1]}` });
    });
    child.on('exit', (code) => fail(new Error(`attest serve exited with ${code}: ${seen}`)));
  });
}

const failures = [];
async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures.push(name);
    console.log(`FAIL ${name}\n${error.stack || error}`);
  }
}

await check('the palette passes WCAG AA and stays apart under colour-vision deficiencies', async () => {
  const css = readFileSync(join(root, 'crates/server/assets/app.css'), 'utf8');
  const palette = readPalette(css);
  for (const line of summary(palette)) console.log(`     ${line}`);
  assert.deepEqual(checkPalette(palette), []);
  // The check must catch a bad colour: the old orange of "declines" is under
  // 4.5:1, and "reports" in the green of "confirms" cannot be told apart.
  const orange = checkPalette({ ...palette, declines: '#c4661f' });
  assert.ok(orange.some((f) => f.includes('declines') && f.includes('4.5:1')), orange.join('\n'));
  const same = checkPalette({ ...palette, reports: palette.confirms });
  assert.ok(same.some((f) => f.includes('confirms and reports') && f.includes('ΔE')), same.join('\n'));
  const protan = checkPalette({ ...palette, denies: '#8a5a00', confirms: '#3f6b00' });
  assert.ok(protan.some((f) => f.includes('protanopia') || f.includes('deuteranopia')), protan.join('\n'));
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Serious and critical axe-core violations on the page as it is now.
async function axe(page, what) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`), [], `axe on ${what}`);
}

// A small corpus for the ledger, written here so that it has a known source:
// Marisol Okafor in two outlets and three months apart (a gap of two empty
// months), and enough statements with "harbor" for two pages of search hits.
const work = mkdtempSync(join(tmpdir(), 'attest-browser-'));
const corpus = join(work, 'corpus.jsonl');
const sample = readFileSync(join(root, 'crates/cli/sample/article.txt'), 'utf8');
const records = [
  { id: 'sample', text: sample, outlet: 'Coastline News', published: '2026-03-04T17:30:00-05:00' },
  { id: 'follow-up', text: 'Port Halvard talks resumed on Friday.\n\nMarisol Okafor said the union would vote on the offer next week. “We will read every line,” Okafor said.', outlet: 'Harbor Gazette', published: '2026-03-07' },
  { id: 'summer', text: 'The strike at Port Halvard is over.\n\nMarisol Okafor said the members had accepted the contract.', outlet: 'Harbor Gazette', published: '2026-06-12' },
];
for (let i = 1; i <= 24; i += 1) {
  records.push({ id: `brief-${i}`, title: `Ferry times on Pier ${i}`, outlet: i % 2 ? 'Harbor Gazette' : 'Valley Times', published: `2026-04-${String(i).padStart(2, '0')}`,
    text: `Ferry times changed again on Pier ${i}.\n\nCaptain Ilse Brandt said the harbor would stay open all night.` });
}
writeFileSync(corpus, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
const db = join(work, 'ledger.db');
const ingest = spawnSync(attest, ['ingest', corpus, '--db', db], { encoding: 'utf8' });
const ledgerReady = ingest.status === 0;

// The provenance set of eval/claims, whose invented claims travel through
// several outlets in every role, in a ledger of its own.
const claimsDb = join(work, 'claims.db');
const claimsIngest = spawnSync(attest, ['ingest', join(root, 'eval/claims/articles.jsonl'), '--db', claimsDb], { encoding: 'utf8' });

const { child, base } = await startServer(ledgerReady ? ['--db', db, '--allow-corrections'] : []);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs = [];
  const missing = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });

  const analyse = async (target, text, fields = {}) => {
    await target.goto(`${base}/`);
    for (const [name, value] of Object.entries(fields)) await target.fill(`input[name=${name}]`, value);
    await target.fill('#article-text', text);
    await target.click('#analyse-button');
    await target.waitForSelector('#result:not([aria-busy]) #article-view p');
  };
  // A layer shown or hidden redraws the article.
  const toggle = async (target, name, on) => {
    await (on ? target.check(`input[name=${name}]`) : target.uncheck(`input[name=${name}]`));
    await target.waitForSelector('#result:not([aria-busy]) #article-view p');
  };

  await check('the sample shows attributions, their stances in words and a legend of every mark', async () => {
    await analyse(page, sample, {
      title: 'Dockworkers strike at Port of Halvard over automation plan',
      outlet: 'Coastline News',
      'published-date': '2026-03-04',
      'published-time': '17:30:00',
    });
    const cues = await page.locator('#article-view .cue').count();
    const contents = await page.locator('#article-view .content').count();
    const sourcesMarked = await page.locator('#article-view .source').count();
    assert.ok(cues >= 10, `${cues} cues marked`);
    assert.ok(contents >= 10, `${contents} content pieces marked`);
    assert.ok(sourcesMarked >= 5, `${sourcesMarked} sources marked`);
    const panel = await page.locator('#side-panel').innerText();
    for (const expected of ['Sourcing', 'Marisol Okafor', 'Tom Ferreira', 'Brightwater Terminals Inc.', 'denies', 'confirms', 'declines', 'reports']) {
      assert.ok(panel.includes(expected), `the side panel shows ${expected}`);
    }
    assert.match(panel, /hedged by the writer\s+\d+ of \d+ attributions; \d+ of \d+ sentences? in the writer's own voice/, 'what the writer hedged, in words');
    // Each attribution's stance is written beside its cue, and can be hidden.
    const attributions = await page.locator('#side-panel button.statement[data-attribution]').count();
    const tags = page.locator('#article-view .stance-tag');
    assert.equal(await tags.count(), attributions, 'a stance label per attribution');
    assert.ok((await tags.allInnerTexts()).some((t) => /denies/i.test(t)), 'a label says denies');
    await page.uncheck('input[name=show-stances]');
    assert.equal(await page.locator('#article-view .stance-tag:visible').count(), 0, 'labels hidden');
    await page.check('input[name=show-stances]');
    assert.equal(await page.locator('#article-view .stance-tag:visible').count(), attributions, 'labels shown again');
    const legend = await page.locator('#legend').innerText();
    for (const mark of ['source', 'cue', 'content', 'hedge', 'hedge covers', 'entities', 'quantity', 'time', ...['asserts', 'confirms', 'denies', 'declines', 'claims', 'reports', 'believes', 'intends'].map((s) => s.toUpperCase())]) {
      assert.ok(legend.includes(mark), `the legend covers ${mark}: ${legend}`);
    }
    // The optional layers use no stance colour.
    await toggle(page, 'show-entities', true);
    await toggle(page, 'show-quantities', true);
    await toggle(page, 'show-times', true);
    const layerColours = await page.evaluate(() => {
      const colour = (selector, property) => {
        const node = document.querySelector(selector);
        return node ? getComputedStyle(node)[property] : null;
      };
      return [colour('#article-view .entity', 'boxShadow'), colour('#article-view .quantity', 'borderBottomColor'), colour('#article-view .time', 'textDecorationColor')];
    });
    const stanceColours = await page.evaluate(() => ['asserts', 'confirms', 'denies', 'declines', 'claims', 'reports', 'believes', 'intends']
      .map((s) => getComputedStyle(document.documentElement).getPropertyValue(`--${s}`).trim()));
    assert.ok(layerColours.every(Boolean), `every layer is marked: ${layerColours}`);
    for (const colour of layerColours) {
      for (const stance of stanceColours) {
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(stance.slice(i, i + 2), 16));
        assert.ok(!colour.includes(`rgb(${r}, ${g}, ${b})`), `${colour} is a stance colour`);
      }
    }
    await page.screenshot({ path: join(shots, 'analyse-layers.png'), fullPage: true });
    await toggle(page, 'show-entities', false);
    await toggle(page, 'show-quantities', false);
    await toggle(page, 'show-times', false);
    await axe(page, 'Analyse with a result');
    await page.screenshot({ path: join(shots, 'analyse.png'), fullPage: true });
  });

  await check('Tab walks the attributions in reading order; Enter and Space light them; Escape clears', async () => {
    const stops = await page.locator('#article-view [data-stop]').count();
    const attributions = await page.locator('#side-panel button.statement[data-attribution]').count();
    assert.equal(stops, attributions, 'every attribution has a Tab stop');
    await page.focus('input[name=show-times]');
    const visited = [];
    for (let i = 0; i < stops; i += 1) {
      await page.keyboard.press('Tab');
      visited.push(await page.evaluate(() => {
        const node = document.activeElement;
        const all = Array.from(document.querySelectorAll('#article-view [data-stop]'));
        return { place: all.indexOf(node), label: node.getAttribute('aria-label'), role: node.getAttribute('role') };
      }));
    }
    assert.deepEqual(visited.map((v) => v.place), Array.from({ length: stops }, (_, i) => i), 'Tab follows the text');
    assert.ok(visited.every((v) => v.role === 'button'), 'each stop is a button');
    // ARIA: "source, cue, stance, content".
    const denial = visited.find((v) => v.label.includes('denied'));
    assert.ok(denial, `an attribution with the cue denied: ${visited.map((v) => v.label).join('\n')}`);
    assert.match(denial.label, /^Brightwater Terminals Inc\., denied, denies, “that any jobs would be cut/);
    for (const v of visited) assert.match(v.label, /^.+, .+, (asserts|confirms|denies|declines|claims|reports|believes|intends|no stance), .+$/s);
    await page.locator(`#article-view [data-stop]`).nth(2).focus();
    await page.keyboard.press('Enter');
    const lit = await page.evaluate(() => ({
      stop: document.activeElement.classList.contains('lit'),
      pressed: document.activeElement.getAttribute('aria-pressed'),
      statement: document.querySelectorAll('#side-panel .statement.lit').length,
    }));
    assert.deepEqual(lit, { stop: true, pressed: 'true', statement: 1 });
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.lit').count(), 0, 'Escape clears');
    await page.locator(`#article-view [data-stop]`).nth(3).focus();
    await page.keyboard.press(' ');
    assert.ok(await page.locator('#article-view .lit').count() > 0, 'Space lights');
    // Statements in the panel are buttons that light their attribution.
    await page.keyboard.press('Escape');
    const statement = page.locator('#side-panel button.statement', { hasText: 'denied' }).first();
    await statement.focus();
    await page.keyboard.press('Enter');
    const active = await page.locator('#article-view .lit').allInnerTexts();
    assert.ok(active.join(' ').includes('denied'), `lit: ${active}`);
  });

  await check('the panel stays beside the text on a wide screen', async () => {
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('side-panel')).position), 'sticky');
    // Scrolled into the article, the panel's top stays at the window's top.
    await page.evaluate(() => {
      const [article, panel] = ['article-view', 'side-panel'].map((id) => document.getElementById(id));
      window.scrollTo(0, article.offsetTop + (article.offsetHeight - panel.offsetHeight) / 2);
    });
    const [article, panel] = await page.evaluate(() => ['article-view', 'side-panel'].map((id) => document.getElementById(id).getBoundingClientRect().top));
    assert.ok(article < 0, `the article starts above the window (${article}px)`);
    assert.ok(panel >= 0 && panel < 40, `the panel's top is at ${panel}px`);
  });

  await check('a nested attribution lights up whole, inner marks and all, and the panel shows the nesting', async () => {
    await analyse(page, 'Officials at the port said the governor told them that “the terminal will stay open through the winter.”\n\nThe mayor said the report claimed the budget was balanced.');
    const nested = await page.locator('#side-panel .nested').count();
    assert.ok(nested >= 1, 'the panel shows nesting');
    const outer = await page.evaluate(() => {
      const group = Array.from(document.querySelectorAll('#side-panel .statement-group')).find((g) => g.querySelector('.nested button'));
      return Number(group.querySelector('button.statement').dataset.attribution);
    });
    await page.locator(`#side-panel button.statement[data-attribution="${outer}"]`).click();
    const shown = await page.evaluate((index) => {
      const covering = Array.from(document.querySelectorAll('#article-view [data-attributions]'))
        .filter((n) => n.dataset.attributions.split(' ').includes(String(index)) && n.dataset.owner !== undefined);
      return {
        all: covering.every((n) => n.classList.contains('lit')),
        inner: covering.filter((n) => n.dataset.owner !== String(index)).map((n) => n.className),
      };
    }, outer);
    assert.ok(shown.all, 'every piece of the outer attribution is lit');
    assert.ok(shown.inner.length > 0, 'the inner attribution is inside it');
    assert.ok(shown.inner.some((c) => c.includes('cue')), `the inner marks keep their shape: ${shown.inner}`);
    await page.screenshot({ path: join(shots, 'nested.png'), fullPage: true });
  });

  await check('errors stand beside their fields and a failed analysis clears the old result', async () => {
    await analyse(page, sample);
    assert.equal(await page.locator('#result').isVisible(), true);
    await page.fill('input[name=published-time]', '09:15');
    await page.click('#analyse-button');
    const timeError = await page.locator('#published-time-error').innerText();
    assert.match(timeError, /date/);
    assert.equal(await page.locator('#result').isVisible(), false, 'the old result is gone');
    await page.route('**/v1/analyze', (route) => route.fulfill({
      status: 400, contentType: 'application/json',
      body: JSON.stringify({ error: { status: 400, message: 'bad `published`: year 20000 is out of range' } }),
    }));
    await page.fill('input[name=published-date]', '2026-03-04');
    await page.click('#analyse-button');
    await page.waitForSelector('#published-date-error');
    assert.match(await page.locator('#published-date-error').innerText(), /out of range/);
    assert.equal(await page.locator('input[name=published-date]').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#result').isVisible(), false);
    assert.equal(await page.locator('#analyse-button').isEnabled(), true, 'the form stays usable');
    await axe(page, 'Analyse with an error');
    await page.unroute('**/v1/analyze');
  });

  await check('downloads: the document as JSON, the attributions as CSV and brat; print: the text, then a table', async () => {
    await analyse(page, sample, { title: 'Dockworkers strike at Port of Halvard over automation plan' });
    const save = async (label) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`.downloads button:has-text("${label}")`),
      ]);
      return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
    };
    const json = await save('JSON');
    assert.equal(json.name, 'dockworkers-strike-at-port-of-halvard-over-automation-plan.json');
    const doc = JSON.parse(json.text);
    const count = doc.attributions.length;
    assert.ok(count > 3, 'the sample has attributions');
    assert.equal(await page.locator('#article-view .cue').count() >= count, true);
    const csv = await save('CSV');
    assert.match(csv.name, /\.csv$/);
    const lines = csv.text.split('\r\n').filter(Boolean);
    assert.equal(lines.length, count + 1, 'a header and a row per attribution');
    assert.match(lines[0], /^attribution,kind,confidence,stance,source,source_type,source_words,cue,content,content_offsets$/);
    const first = doc.attributions[0].content[0];
    assert.ok(lines[1].includes(`${first.cp_start}-${first.cp_end}`), 'offsets in code points');
    const brat = await save('brat');
    assert.match(brat.name, /\.ann$/);
    assert.match(brat.text, /^T1\tSource \d+ \d+\t/);
    assert.equal((brat.text.match(/^E\d+\t/gm) || []).length, count, 'an event per attribution');

    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('#analyse-form').isVisible(), false, 'no form in print');
    assert.equal(await page.locator('#side-panel').isVisible(), false);
    assert.equal(await page.locator('#article-view').isVisible(), true, 'the text with its marks');
    assert.equal(await page.locator('.print-only tbody tr').count(), count, 'then a row per attribution');
    await page.screenshot({ path: join(shots, 'print.png'), fullPage: true });
    await page.pdf({ path: join(shots, 'print.pdf'), format: 'A4' });
    await page.emulateMedia({ media: 'screen' });
    assert.equal(await page.locator('.print-only').isVisible(), false, 'the table is for print only');
  });

  await check('a 1.5 MB article is drawn a part at a time, the page answering all along; Cancel stops a request or a drawing', async () => {
    const big = Array.from({ length: Math.ceil(1.5e6 / sample.length) }, () => sample).join('\n\n');
    await page.goto(`${base}/`);
    // As a paste puts it there: typing 1.5 MB would take Playwright minutes.
    await page.evaluate((text) => { document.querySelector('#article-text').value = text; }, big);
    // The longest the page went without running a timer set for every 20 ms.
    await page.evaluate(() => {
      window.longestGap = 0;
      let last = performance.now();
      window.ticker = setInterval(() => {
        const now = performance.now();
        window.longestGap = Math.max(window.longestGap, now - last);
        last = now;
      }, 20);
    });
    await page.click('#analyse-button');
    await page.waitForSelector('#analyse-status:has-text("drawing")', { timeout: 120000 });
    await page.waitForFunction(() => /, drawn in \d+ ms$/.test(document.querySelector('#analyse-status').innerText), null, { timeout: 120000 });
    const gap = await page.evaluate(() => { clearInterval(window.ticker); return window.longestGap; });
    const status = await page.locator('#analyse-status').innerText();
    console.log(`     1.5 MB: ${status}; the page's longest unresponsive stretch ${Math.round(gap)} ms`);
    assert.ok(gap < 2000, `the page froze for ${Math.round(gap)} ms`);
    const paragraphs = await page.locator('#article-view p').count();
    assert.ok(paragraphs > 4000, `every paragraph drawn: ${paragraphs}`);
    const stops = await page.locator('#article-view [data-stop]').count();
    assert.equal(stops, Number(/^(\d+) attributions/.exec(status)[1]), 'every attribution reachable');
    const panelNodes = () => page.evaluate(() => document.querySelectorAll('#side-panel *').length);
    const panel = await panelNodes();

    // Cancel while the server works: nothing changes but the status.
    await page.click('#analyse-button');
    await page.click('#analyse-status button.cancel');
    await page.waitForSelector('#analyse-status:has-text("Cancelled")');
    assert.match(await page.locator('#analyse-status').innerText(), /^Cancelled: nothing was analysed\. The result shown is the last one\.$/);
    assert.equal(await page.locator('#article-view p').count(), paragraphs, 'the last result stays');
    assert.equal(await page.locator('#analyse-button').isEnabled(), true);
    // Cancel while it draws: the part drawn stays, and the status says so.
    await page.click('#analyse-button');
    await page.waitForSelector('#analyse-status:has-text("drawing")', { timeout: 120000 });
    await page.click('#analyse-status button.cancel');
    await page.waitForSelector('#analyse-status:has-text("drawing cancelled")');
    // The article is drawn first, then its tab stops and the panel: a
    // cancel can land in any of them.
    const part = await page.locator('#article-view p').count();
    const partStops = await page.locator('#article-view [data-stop]').count();
    const partPanel = await panelNodes();
    assert.ok(part > 0, 'the part drawn stays');
    assert.ok(part < paragraphs || partStops < stops || partPanel < panel,
      `a part drawn: ${part} of ${paragraphs} paragraphs, ${partStops} of ${stops} stops, ${partPanel} of ${panel} elements of the panel`);
    // Emptied as it was filled: Playwright's fill waits for the page to be
    // still, which a loaded machine can keep it from being for a while.
    await page.evaluate(() => { document.querySelector('#article-text').value = ''; });
  });

  await check('an article over the server\'s limit is refused in words before it is sent', async () => {
    await page.goto(`${base}/`);
    await page.waitForFunction(() => maxBodyBytes !== null);
    let sent = 0;
    const count = (request) => { if (request.url().endsWith('/v1/analyze')) sent += 1; };
    page.on('request', count);
    await page.fill('#article-text', 'The council said the budget would pass. '.repeat(64 * 1024));
    await page.click('#analyse-button');
    await page.waitForSelector('#text-error');
    assert.match(await page.locator('#text-error').innerText(), /^Too long to analyse here: at most 2 MB; this article is 2\.5 MB\.$/);
    page.off('request', count);
    assert.equal(sent, 0, 'nothing was sent');
    await page.fill('#article-text', '');
  });

  await check('a stopped server: the result stays, the page says why, and Try again asks again', async () => {
    const own = await startServer([]);
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await tab.goto(`${own.base}/`);
      await tab.fill('#article-text', sample);
      await tab.click('#analyse-button');
      await tab.waitForSelector('#article-view p');
      const cues = await tab.locator('#article-view .cue').count();
      own.child.kill('SIGTERM');
      await new Promise((stopped) => own.child.once('exit', stopped));
      await tab.click('#analyse-button');
      await tab.waitForSelector('#analyse-status button.retry');
      assert.match(await tab.locator('#analyse-status').innerText(), /cannot be reached.*The result shown is the last one/s);
      assert.equal(await tab.locator('#article-view .cue').count(), cues, 'what was on screen stays');
      let asked = 0;
      tab.on('request', (request) => { if (request.url().endsWith('/v1/analyze')) asked += 1; });
      await tab.click('#analyse-status button.retry');
      await tab.waitForFunction(() => !document.querySelector('#analyse-button').disabled);
      await tab.waitForSelector('#analyse-status button.retry');
      assert.equal(asked, 1, 'Try again sent the article again');
      await axe(tab, 'Analyse with the server stopped');
    } finally {
      await tab.close();
    }
  });

  await check('what an article says only "allegedly" is marked as a hedge', async () => {
    await page.goto(`${base}/`);
    await page.fill('#article-text', 'The bridge, which allegedly failed its last inspection, will apparently stay open until May.');
    await page.click('#analyse-button');
    await page.waitForSelector('#article-view .hedge-cue');
    const hedges = await page.locator('#article-view .hedge-cue').allInnerTexts();
    assert.deepEqual(hedges, ['allegedly', 'apparently']);
  });

  await check('markup in an article shows as text', async () => {
    await analyse(page, 'The mayor said <script>alert(1)</script> was in the draft. <img src=x onerror=alert(2)>');
    const text = await page.locator('#article-view').innerText();
    assert.ok(text.includes('<script>alert(1)</script>'), `shown as text: ${text}`);
    assert.ok(text.includes('<img src=x onerror=alert(2)>'), `shown as text: ${text}`);
    assert.equal(await page.locator('#article-view script, #article-view img').count(), 0);
    assert.deepEqual(dialogs, [], 'no script ran');
  });

  await check('the form\'s fields stay inside it, whole, at 1366, 1280 and 1024 px', async () => {
    for (const width of [1366, 1280, 1024]) {
      const sized = await browser.newPage({ viewport: { width, height: 800 } });
      await sized.goto(`${base}/`);
      const fields = await sized.evaluate(() => {
        const form = document.getElementById('analyse-form').getBoundingClientRect();
        return Array.from(document.querySelectorAll('#analyse-form input:not([type=checkbox]), #analyse-form textarea')).map((input) => {
          const box = input.getBoundingClientRect();
          return { name: input.name, left: box.left - form.left, right: form.right - box.right, width: box.width };
        });
      });
      for (const f of fields) assert.ok(f.left >= 0 && f.right >= 0, `${f.name} spills out of the form at ${width} px: ${JSON.stringify(f)}`);
      const time = fields.find((f) => f.name === 'published-time');
      assert.ok(time.width >= 150, `the time field is cut to ${time.width} px at ${width} px`);
      await sized.close();
    }
  });

  await check('on a phone the result comes into view and a tap lights in place', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await analyse(phone, sample);
    const top = await phone.evaluate(() => document.getElementById('result').getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 60, `the result starts at ${top}px`);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px over)`);
    // The header holds its title and links with no blank band between them.
    const header = await phone.evaluate(() => {
      const box = (selector) => document.querySelector(selector).getBoundingClientRect();
      return { header: box('header.top').height, gap: box('header.top nav').top - box('header.top h1').bottom };
    });
    assert.ok(header.header <= 100 && header.gap <= 16, `the header on a phone: ${JSON.stringify(header)}`);
    const cue = phone.locator('#article-view .cue').nth(4);
    await cue.scrollIntoViewIfNeeded();
    const before = await phone.evaluate(() => window.scrollY);
    await cue.tap();
    assert.ok(await phone.locator('#article-view .lit').count() > 0, 'the tap lights');
    assert.equal(await phone.evaluate(() => window.scrollY), before, 'the page does not jump');
    // Its details open in a sheet on screen, not in the panel far below.
    const sheet = phone.locator('#detail-sheet');
    await sheet.waitFor({ state: 'visible' });
    const box = await sheet.evaluate((node) => { const r = node.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: innerHeight }; });
    assert.ok(box.top >= 0 && box.bottom <= box.height + 1, `the sheet is on screen: ${JSON.stringify(box)}`);
    assert.ok((await sheet.innerText()).includes(await cue.innerText()), 'the sheet shows the tapped cue');
    await axe(phone, 'a phone with an attribution\'s details open');
    await phone.screenshot({ path: join(shots, 'analyse-phone-sheet.png') });
    await sheet.locator('button', { hasText: 'Close' }).tap();
    assert.equal(await sheet.isVisible(), false, 'Close closes it');
    assert.equal(await phone.locator('#article-view .lit').count(), 0);
    await phone.screenshot({ path: join(shots, 'analyse-phone.png'), fullPage: true });

    // A ledger table too wide for a phone scrolls in its own box, says so, and takes the keyboard.
    await phone.goto(`${base}/#ledger/outlets`);
    await phone.waitForSelector('#ledger-content:not([aria-busy]) > .table-wrap');
    const wide = phone.locator('#ledger-content > .table-wrap');
    assert.ok(await wide.evaluate((node) => node.scrollWidth > node.clientWidth), 'the outlets table is wider than a phone');
    await phone.waitForSelector('#ledger-content > .scroll-hint:not([hidden])');
    const sideways = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(sideways <= 1, `the page itself does not scroll sideways (${sideways}px over)`);
    assert.equal(await wide.getAttribute('tabindex'), '0');
    await axe(phone, 'a wide table on a phone');
    await phone.screenshot({ path: join(shots, 'ledger-phone.png') });
    await phone.close();
  });

  await check('the ledger with the server out of reach keeps its view, says why, and Try again loads it', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    await page.goto(`${base}/#ledger`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) table');
    const rows = await page.locator('#ledger-content tbody tr').count();
    await page.route('**/v1/sources?*', (route) => route.abort('connectionrefused'));
    await page.evaluate(() => { location.hash = '#ledger?type=person'; });
    await page.waitForSelector('#ledger-content .unreachable button.retry');
    assert.match(await page.locator('#ledger-content .unreachable').innerText(), /cannot be reached/);
    assert.equal(await page.locator('#ledger-content tbody tr').count(), rows, 'the last view stays');
    await axe(page, 'ledger with the server out of reach');
    await page.unroute('**/v1/sources?*');
    await page.click('#ledger-content .unreachable button.retry');
    await page.waitForSelector('#ledger-content:not([aria-busy]) table');
    assert.equal(await page.locator('#ledger-content .unreachable').count(), 0, 'the message goes once loaded');
  });

  await check('articles: newest first, a page at a time, filtered by outlet, each with a permalink', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    const settled = '#ledger-content:not([aria-busy]) table';
    await page.goto(`${base}/#ledger/articles`);
    await page.waitForSelector(settled);
    assert.equal(await page.locator('#ledger-content .count').innerText(), 'Articles 1–20');
    assert.equal(await page.locator('#ledger-content tbody tr').count(), 20);
    assert.equal(await page.locator('#ledger-content tbody tr a').first().innerText(), 'summer', 'the newest first');
    await axe(page, 'articles');
    await page.click('#ledger-content .pager a:has-text("next")');
    await page.waitForFunction(() => /^Articles 21–/.test(document.querySelector('#ledger-content .count')?.innerText || ''));
    assert.equal(await page.locator('#ledger-content .count').innerText(), 'Articles 21–27 of 27');
    assert.equal(await page.locator('#ledger-content .pager a').allInnerTexts().then((t) => t.join()), '← previous');
    await page.fill('#ledger-content input[name=outlet]', 'Valley Times');
    await page.click('#ledger-content .filters button');
    await page.waitForFunction(() => /of 12$/.test(document.querySelector('#ledger-content .count')?.innerText || ''));
    assert.equal(await page.locator('#ledger-content .count').innerText(), 'Articles 1–12 of 12');
    const first = page.locator('#ledger-content tbody tr a').first();
    const title = await first.innerText();
    assert.match(title, /^Ferry times on Pier \d+$/, 'an article is listed by its title');
    await first.click();
    await page.waitForSelector('#ledger-content:not([aria-busy]) .permalink');
    assert.equal(await page.locator('#ledger-content h2').innerText(), title);
    const pier = /\d+$/.exec(title)[0];
    assert.equal(await page.locator('#ledger-content .permalink').getAttribute('href'), `#ledger/article/brief-${pier}`);
  });

  await check('the ledger: top sources, a source page with its timeline, an article', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    await page.goto(`${base}/#ledger`);
    await page.waitForSelector('#ledger-content table');
    await axe(page, 'top sources');
    await page.locator('#ledger-content a', { hasText: 'Marisol Okafor' }).first().click();
    await page.waitForSelector('#ledger-content .timeline');
    const sourcePage = await page.locator('#ledger-content').innerText();
    assert.ok(sourcePage.includes('Marisol Okafor'), sourcePage);
    assert.ok(sourcePage.includes('Harbor Gazette') && sourcePage.includes('Coastline News'), 'statements from both outlets');
    // The month axis runs from March to June without a gap, labels apart, with a scale and a legend.
    const chart = await page.evaluate(() => {
      const svg = document.querySelector('#ledger-content svg.chart');
      const boxes = Array.from(svg.querySelectorAll('text')).map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
      const months = boxes.filter((b) => /^\d{4}-\d{2}$/.test(b.text));
      const overlap = months.some((a, i) => months.slice(i + 1).some((b) => a.box.right > b.box.left && b.box.right > a.box.left));
      return { months: months.map((m) => m.text), scale: boxes.filter((b) => /^\d+$/.test(b.text)).map((b) => b.text), overlap,
        bars: svg.querySelectorAll('rect.bar').length, legend: document.querySelector('#ledger-content .chart-legend').innerText };
    });
    assert.equal(chart.months[0], '2026-03');
    assert.ok(!chart.overlap, `month labels overlap: ${chart.months}`);
    assert.ok(chart.scale.includes('0') && chart.scale.length >= 2, `a y scale: ${chart.scale}`);
    assert.ok(chart.bars >= 2, 'bars for March and June');
    assert.match(chart.legend, /asserts|no stance|confirms/);
    const slots = await page.evaluate(() => document.querySelector('#ledger-content svg.chart').getAttribute('aria-label'));
    assert.match(slots, /from 2026-03 to 2026-06/);
    await axe(page, 'a source page');
    await page.screenshot({ path: join(shots, 'ledger-source.png'), fullPage: true });
    // A statement links to its attribution, lit on the article's page.
    await page.locator('#ledger-content a', { hasText: 'sample' }).first().click();
    await page.waitForSelector('#ledger-content:not([aria-busy]) h3:has-text("Attributions")');
    const lit = page.locator('#ledger-content .statement.lit');
    assert.equal(await lit.count(), 1, 'the statement is lit on its article');
    assert.match(await lit.innerText(), /Okafor/);
    assert.ok(await lit.evaluate((node) => node === document.activeElement), 'and has the focus');
    // The text is drawn as the Analyse page draws it: in paragraphs, with
    // every attribution marked, its stance in words, and the linked one lit.
    await page.waitForSelector('#ledger-content .article-text:not([aria-busy]) [data-stop]');
    const drawnText = await page.evaluate(() => {
      const view = document.querySelector('#ledger-content .article-text');
      return {
        paragraphs: view.querySelectorAll('p').length,
        stops: view.querySelectorAll('[data-stop]').length,
        rows: document.querySelectorAll('#ledger-content .timeline .statement').length,
        tags: Array.from(view.querySelectorAll('.stance-tag')).map((t) => t.textContent),
        lit: Array.from(view.querySelectorAll('.lit')).map((n) => n.textContent).join(''),
      };
    });
    assert.ok(drawnText.paragraphs > 5, `the sample's paragraphs apart: ${drawnText.paragraphs}`);
    assert.equal(drawnText.stops, drawnText.rows, 'every attribution marked in the text');
    assert.ok(drawnText.tags.includes('asserts'), drawnText.tags.join());
    assert.match(drawnText.lit, /Okafor/, 'the linked attribution is lit in the text too');
    // A pick in the text lights its row.
    const stop = page.locator('#ledger-content .article-text [data-stop]').nth(2);
    const index = await stop.getAttribute('data-stop');
    await stop.click();
    assert.ok(await page.locator(`#attribution-${index}`).evaluate((node) => node.classList.contains('lit')), 'the row of the attribution picked is lit');
    await axe(page, 'an article page');
    await page.screenshot({ path: join(shots, 'ledger-article.png'), fullPage: true });
  });

  await check('sources: found by name, counted, and paged', async () => {
    const settled = '#ledger-content:not([aria-busy]) table';
    await page.goto(`${base}/#ledger`);
    await page.waitForSelector(settled);
    const all = Number(/^(\d+) sources$/.exec(await page.locator('#ledger-content .count').innerText())?.[1]);
    assert.ok(all > 2, 'the ranking says how many sources it holds');
    assert.equal(await page.locator('#ledger-content tbody tr').count(), Math.min(all, 20));
    await page.fill('#ledger-content input[name=name]', 'OKAFOR');
    await page.click('#ledger-content .filters button');
    await page.waitForFunction(() => document.querySelector('#ledger-content .count')?.innerText === '1 source');
    assert.equal(await page.locator('#ledger-content tbody tr a').allInnerTexts().then((t) => t.join()), 'Marisol Okafor');
    await axe(page, 'sources found by name');
    await page.goto(`${base}/#ledger?offset=1`);
    await page.waitForSelector(settled);
    assert.equal(await page.locator('#ledger-content .count').innerText(), `Sources 2–${Math.min(all, 21)} of ${all}`);
    assert.equal(await page.locator('#ledger-content .pager a').allInnerTexts().then((t) => t.join()), all > 21 ? '← previous,next →' : '← previous');
    await page.goto(`${base}/#ledger?name=nobody+at+all`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) [role=status]:has-text("No source named")');
  });

  await check('search: a count, pages, each hit with stance, cue and source, and clear errors', async () => {
    await page.goto(`${base}/#ledger/search?q=harbor`);
    await page.waitForSelector('#ledger-content .count');
    const first = await page.locator('#ledger-content .count').innerText();
    const total = Number(/^Hits 1–20 of (\d+)$/.exec(first)?.[1]);
    assert.ok(total > 20, `the exact total on the first page: ${first}`);
    const hit = page.locator('#ledger-content .hits li').first();
    assert.ok(await hit.locator('.badge').innerText(), 'a stance');
    assert.match(await hit.locator('strong').innerText(), /said|denied/);
    assert.match(await hit.locator('a[href^="#ledger/source/"]').innerText(), /Brandt/);
    const article = hit.locator('a[href^="#ledger/article/"]');
    assert.match(await article.innerText(), /^Ferry times on Pier \d+$/, 'a hit names its article by title');
    assert.match(await article.getAttribute('href'), /^#ledger\/article\/brief-\d+\?attribution=\d+$/);
    await axe(page, 'search hits');
    await page.locator('#ledger-content .pager a', { hasText: 'next' }).click();
    await page.waitForFunction(() => /^Hits 21–/.test(document.querySelector('#ledger-content .count')?.innerText || ''));
    const second = await page.locator('#ledger-content .count').innerText();
    assert.equal(second, `Hits 21–${total} of ${total}`);
    assert.equal(await page.locator('#ledger-content .pager a', { hasText: 'previous' }).count(), 1);
    await page.screenshot({ path: join(shots, 'ledger-search.png'), fullPage: true });
    await page.locator('#ledger-content .hits li a[href^="#ledger/article/"]').first().click();
    await page.waitForSelector('#ledger-content:not([aria-busy]) .statement.lit');
    assert.match(await page.locator('#ledger-content .statement.lit').innerText(), /harbor/, 'a hit opens at its attribution');
    await page.goto(`${base}/#ledger/search?q=***`);
    await page.waitForSelector('#q-error');
    assert.match(await page.locator('#q-error').innerText(), /no word/);
    assert.equal(await page.locator('#ledger-content input[name=q]').inputValue(), '***', 'the query stays to be fixed');
    await axe(page, 'a malformed search');
  });

  await check('outlet charts fit their scale and print their values; an empty range says so; a bad date stays beside its field', async () => {
    await page.goto(`${base}/#ledger/outlets`);
    await page.waitForSelector('#ledger-content svg.chart rect');
    const charts = await page.evaluate(() => Array.from(document.querySelectorAll('#ledger-content svg.chart')).map((svg) => ({
      label: svg.getAttribute('aria-label'),
      texts: Array.from(svg.querySelectorAll('text')).map((t) => t.textContent),
      size: Math.min(...Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(getComputedStyle(t).fontSize))),
    })));
    for (const chart of charts) assert.ok(chart.size >= 12, `labels of ${chart.label} at ${chart.size}px`);
    const unnamed = charts.find((c) => c.label.startsWith('Unnamed sources, of sources'));
    assert.ok(!unnamed.label.endsWith('100%') || unnamed.texts.filter((t) => t.endsWith('%')).length > 3, unnamed.label);
    // Each outlet with its sample size; one article is too few to compare.
    assert.ok(unnamed.texts.includes('Coastline News · 1 article, too few to compare'), unnamed.texts.join(' | '));
    assert.ok(unnamed.texts.includes('Harbor Gazette · 14 articles'), unnamed.texts.join(' | '));
    assert.ok(unnamed.texts.includes('Valley Times · 12 articles'), unnamed.texts.join(' | '));
    assert.match(await page.locator('#ledger-content h3').first().innerText(), /· 27 articles$/, 'each chart says its sample');
    assert.ok(unnamed.texts.filter((t) => /^\d+%$/.test(t)).length >= 3 + 3, 'a scale and a value on each bar');
    assert.ok(charts.some((c) => c.label.startsWith('Attributions hedged by the writer, of attributions')), 'a chart of the hedged share');
    const outletTable = await page.locator('#ledger-content > .table-wrap table').innerText();
    for (const column of ['attributions hedged by the writer, of attributions', "writer's own sentences hedged"]) assert.ok(outletTable.includes(column), `the table has ${column}`);
    // Every chart's values as text, behind a toggle, narrow segments too.
    assert.equal(await page.locator('#ledger-content details.chart-table').count(), charts.length, 'a table for each chart');
    const mix = page.locator('#ledger-content details.chart-table').last();
    await mix.locator('summary').click();
    const mixRows = await mix.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells).map((td) => td.textContent)));
    const mixHead = await mix.locator('thead th').allInnerTexts();
    assert.deepEqual(mixHead.slice(2), await page.evaluate(() => STANCES), 'one column per stance, in the API\'s order');
    for (const cells of mixRows) {
      const total = cells.slice(2).reduce((sum, c) => sum + Number.parseFloat(c), 0);
      assert.ok(Math.abs(total - 100) <= 2 * (cells.length - 2), `${cells[0]}'s shares add up: ${cells.join(' | ')}`);
    }
    await axe(page, "outlets, with a chart's table open");
    await page.screenshot({ path: join(shots, 'ledger-outlets.png'), fullPage: true });
    // One share, one name, one number: the sample is Coastline News's only
    // article, and the Analyse page gives its unnamed share of sources alike.
    const coastline = await page.evaluate(() => {
      const table = document.querySelector('#ledger-content > .table-wrap table');
      const column = Array.from(table.querySelectorAll('th')).findIndex((th) => th.textContent === 'unnamed sources, of sources');
      const row = Array.from(table.querySelectorAll('tbody tr')).find((tr) => tr.cells[0].textContent === 'Coastline News');
      return row.cells[column].textContent;
    });
    assert.match(coastline, /^\d+%$/);
    await analyse(page, sample);
    const summary = await page.locator('#side-panel dl.summary').innerText();
    assert.ok(summary.includes(`(${coastline} of sources)`), `the Analyse page's share of sources is the Outlets page's ${coastline}: ${summary}`);
    assert.match(summary, /% of attributions/);
    await page.goto(`${base}/#ledger/outlets?since=2031-01-01`);
    await page.waitForSelector('#ledger-content [role=status]:has-text("No articles")');
    assert.equal(await page.locator('#ledger-content svg.chart').count(), 0);
    await axe(page, 'outlets of an empty range');
    await page.goto(`${base}/#ledger?since=2026-13-45`);
    await page.waitForSelector('#since-error');
    assert.match(await page.locator('#since-error').innerText(), /since.*not a date/);
    assert.equal(await page.locator('#ledger-content form button').count(), 1, 'the form is still there');
    await axe(page, 'a bad date in a ledger filter');
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.goto(`${base}/#ledger/outlets`);
    await phone.waitForSelector('#ledger-content svg.chart rect');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px over)`);
    await phone.screenshot({ path: join(shots, 'ledger-outlets-phone.png'), fullPage: true });
    await phone.goto(`${base}/#ledger/source/1`);
    await phone.waitForSelector('#ledger-content .timeline');
    await phone.screenshot({ path: join(shots, 'ledger-source-phone.png'), fullPage: true });
    await phone.close();
  });

  await check('corrections: an editor corrects an attribution on the page, and the API and the export read it back', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    await page.goto(`${base}/#ledger/article/follow-up`);
    await page.waitForSelector('#attribution-0 .correct-button');
    const before = await (await page.request.get(`${base}/v1/articles/follow-up`)).json();
    const found = before.attributions[0];
    await page.click('#attribution-0 .correct-button');
    assert.equal(await page.locator('#attribution-0 .correct-button').getAttribute('aria-expanded'), 'true');
    // The labels offered are the API's, in its order.
    const openapi = await (await page.request.get(`${base}/v1/openapi.json`)).json();
    const labels = (name) => {
      const schema = openapi.components.schemas[name];
      return schema.enum || schema.oneOf.map((variant) => variant.const);
    };
    const offered = (select) => page.locator(`select[name=${select}] option`).evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
    assert.deepEqual(await offered('stance-0'), labels('StanceLabel'));
    assert.deepEqual(await offered('type-0'), labels('SourceKind'));
    assert.deepEqual(await offered('kind-0'), labels('AttributionKind'));
    await axe(page, 'a correction form');
    // A typed source needs its name: the error stands beside the field.
    await page.selectOption('select[name=source-0]', 'named');
    await page.click('#attribution-0 button[type=submit]');
    await page.waitForSelector('#name-0-error');
    assert.match(await page.locator('#name-0-error').innerText(), /name/);
    await axe(page, 'a correction form with an error');
    await page.fill('input[name=name-0]', 'Harbor Workers Union');
    await page.selectOption('select[name=type-0]', 'organization');
    const stance = found.stance === 'claims' ? 'denies' : 'claims';
    await page.selectOption('select[name=stance-0]', stance);
    await page.fill('textarea[name=note-0]', 'The union said it, through Okafor.');
    await page.click('#attribution-0 button[type=submit]');
    await page.waitForSelector('#attribution-0 .correction-note');
    const note = await page.locator('#attribution-0 .correction-note').innerText();
    assert.match(note, /^Corrected by an editor on \d{4}-\d{2}-\d{2} · attest found: /);
    assert.ok(note.includes(found.source || 'no source'), note);
    assert.equal(await page.locator('#attribution-0 .badge').innerText(), stance, 'the corrected view, in words');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'correction-note', 'focus goes to what was saved');
    await axe(page, 'a corrected article');
    await page.screenshot({ path: join(shots, 'ledger-correction.png'), fullPage: true });

    const after = await (await page.request.get(`${base}/v1/articles/follow-up`)).json();
    const corrected = after.attributions[0];
    assert.equal(corrected.stance, stance);
    assert.equal(corrected.source, 'Harbor Workers Union');
    assert.equal(corrected.source_type, 'organization');
    assert.equal(corrected.found.stance, found.stance, 'what attest found is kept');
    assert.equal(corrected.correction.note, 'The union said it, through Okafor.');
    // Another site's page cannot write, even with a JSON body.
    const forged = await page.request.post(`${base}/v1/articles/follow-up/corrections`, {
      headers: { 'Content-Type': 'application/json', Origin: 'http://news.example' }, data: { attribution: 0, wrong: true },
    });
    assert.equal(forged.status(), 403);

    // Only an article an editor marked reviewed is gold.
    const gold = join(work, 'gold');
    const exportGold = () => spawnSync(attest, ['export', 'corrections', '--format', 'brat', '--out', gold, '--db', db, '--force'], { encoding: 'utf8' });
    const early = exportGold();
    assert.equal(early.status, 0, early.stderr);
    assert.match(early.stderr, /exported 0 reviewed articles/);
    assert.match(early.stderr, /skipped 1 corrected articles that no editor marked reviewed/);
    await page.goto(`${base}/#ledger/article/follow-up`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) .review-line');
    assert.equal(await page.locator('#ledger-content .review-line').innerText().then((t) => t.split('\n')[0].replace(/\s*Mark reviewed$/, '')), 'Not reviewed by an editor.');
    await axe(page, 'an article not yet reviewed');
    await page.click('#ledger-content .review-button');
    await page.waitForSelector('#ledger-content:not([aria-busy]) .review-line.reviewed');
    assert.match(await page.locator('#ledger-content .review-line').innerText(), /^Reviewed by an editor on \d{4}-\d{2}-\d{2}\.$/);
    assert.equal(await page.locator('#ledger-content .review-button').count(), 0, 'reviewed as it stands: no button');
    const exported = exportGold();
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stderr, /exported 1 reviewed articles/);
    assert.doesNotMatch(exported.stderr, /skipped/);
    const ann = readFileSync(join(gold, 'attributions', 'follow-up_corrections.ann'), 'utf8');
    assert.match(ann, new RegExp(`Stance E1 ${stance}`));
    assert.equal(readFileSync(join(gold, 'text', 'follow-up.txt'), 'utf8'), after.text);

    // Marked not an attribution: the statement is struck through, the words that say so are not.
    const marked = await page.evaluate(async () => {
      const { token, header } = await (await fetch('/v1/token')).json();
      return (await fetch('/v1/articles/follow-up/corrections', {
        method: 'POST', headers: { 'Content-Type': 'application/json', [header]: token }, body: JSON.stringify({ attribution: 1, wrong: true }),
      })).status;
    });
    assert.equal(marked, 201);
    await page.goto(`${base}/#ledger/article/follow-up?attribution=1`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) #attribution-1.wrong .correction-note');
    const struck = await page.evaluate(() => {
      const row = document.getElementById('attribution-1');
      const line = (node) => getComputedStyle(node).textDecorationLine;
      return { cue: line(row.querySelector(':scope > strong')), said: line(row.querySelector(':scope > .said')), note: line(row.querySelector('.correction-note strong')) };
    });
    assert.deepEqual(struck, { cue: 'line-through', said: 'line-through', note: 'none' });
    await axe(page, 'an attribution marked not one');
  });

  await check('corrections everywhere: a statement an editor gives to another source is read as corrected on both source pages, in search and in `attest said`, with what attest found one click away', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    const sample = await (await page.request.get(`${base}/v1/articles/sample`)).json();
    // An attribution with a source, and another source of the same article.
    const moved = sample.attributions.find((a) => a.source_id !== null && !a.correction);
    const picked = sample.sources.find((s) => s.source_id !== moved.source_id);
    const stance = moved.stance === 'claims' ? 'denies' : 'claims';
    const status = await page.evaluate(async (body) => {
      const { token, header } = await (await fetch('/v1/token')).json();
      return (await fetch('/v1/articles/sample/corrections', {
        method: 'POST', headers: { 'Content-Type': 'application/json', [header]: token }, body: JSON.stringify(body),
      })).status;
    }, { attribution: moved.index, source: { pick: picked.index }, stance });
    assert.equal(status, 201);

    // The picked source's page lists it, marked, and what attest found opens with one click.
    await page.goto(`${base}/#ledger/source/${picked.source_id}`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) .timeline');
    const row = page.locator('#ledger-content .timeline .statement.corrected');
    assert.equal(await row.count(), 1, 'one corrected statement on the picked source');
    assert.equal(await row.locator('.badge').innerText(), stance);
    const mark = row.locator('.corrected-mark');
    assert.equal(await mark.evaluate((d) => d.open), false, 'what attest found waits behind one click');
    await mark.locator('summary').click();
    const text = await mark.innerText();
    assert.ok(text.includes(`attest found: ${moved.source}, ${moved.stance || 'no stance'}`), text);
    await axe(page, 'a source page with a corrected statement');
    await page.screenshot({ path: join(shots, 'ledger-source-corrected.png'), fullPage: true });
    // The source attest found no longer lists it.
    const { statements } = await (await page.request.get(`${base}/v1/sources/${moved.source_id}`)).json();
    assert.ok(!statements.some((s) => s.article === 'sample' && s.attribution === moved.index), 'taken from the source attest found');

    // Search reads it as corrected.
    const words = moved.content.replace(/[^\p{L}\p{N} ]/gu, ' ').split(/\s+/).filter((w) => w.length > 3).slice(0, 3).join(' ');
    await page.goto(`${base}/#ledger/search?q=${encodeURIComponent(words)}`);
    await page.waitForSelector('#ledger-content:not([aria-busy]) .hits');
    const hit = page.locator('#ledger-content .hits .statement.corrected');
    assert.equal(await hit.count(), 1, `one corrected hit for ${words}`);
    assert.match(await hit.innerText(), new RegExp(picked.name.split(' ')[0]));
    await hit.locator('.corrected-mark summary').click();
    assert.match(await hit.locator('.corrected-mark').innerText(), /attest found: /);
    await axe(page, 'search hits with a corrected one');

    // And so does `attest said`, in its table and in JSON.
    const said = spawnSync(attest, ['said', picked.name, '--db', db], { encoding: 'utf8' });
    assert.equal(said.status, 0, said.stderr);
    const line = said.stdout.split('\n').find((l) => l.includes(` ${moved.index} `) && l.includes('sample'));
    assert.ok(line && line.includes(stance) && line.includes(`${moved.source} (`), said.stdout);
    const json = spawnSync(attest, ['said', picked.name, '--db', db, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(json.status, 0, json.stderr);
    const read = JSON.parse(json.stdout).find((s) => s.article === 'sample' && s.attribution === moved.index);
    assert.equal(read.stance, stance);
    assert.equal(read.found.source, moved.source);
    assert.equal(read.found.stance, moved.stance);
  });

  await check('claims: the list by spread with filters, a timeline of outlets with each role in words and shapes, linked to its article, and Tab reaches every mark', async () => {
    assert.equal(claimsIngest.status, 0, `attest ingest failed: ${claimsIngest.stderr}`);
    const claims = await startServer(['--db', claimsDb]);
    const view = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const notFound = [];
    view.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    try {
      await view.goto(`${claims.base}/#ledger/claims`);
      await view.waitForSelector('#ledger-content table');
      await axe(view, 'the claims list');
      const spread = await view.locator('#ledger-content tbody tr td:nth-child(2)').allInnerTexts();
      assert.ok(spread.length >= 8, `the claims that travelled: ${spread}`);
      assert.deepEqual(spread.map(Number), [...spread.map(Number)].sort((a, b) => b - a), 'most widely carried first');
      // The page's roles are the API's.
      const openapi = await (await view.request.get(`${claims.base}/v1/openapi.json`)).json();
      const roles = openapi.components.schemas.ClaimAppearance.properties.role.enum;
      const offered = await view.locator('#ledger-content select[name=role] option').evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
      assert.deepEqual(offered, roles);
      await view.selectOption('#ledger-content select[name=role]', 'denied');
      // The old list stays on the page until the filtered one is fetched:
      // wait for that request, then for the view it builds.
      const filtered = view.waitForResponse((response) => response.url().includes('/v1/claims?') && response.url().includes('role=denied'));
      await view.click('#ledger-content form button');
      await filtered;
      await view.waitForSelector('#ledger-content:not([aria-busy]) table');
      const denied = await view.locator('#ledger-content tbody tr td:nth-child(5)').allInnerTexts();
      assert.ok(denied.length >= 1 && denied.every((r) => r.includes('denied')), `every claim listed has a denial: ${denied}`);
      await axe(view, 'the claims list filtered by role');
      await view.goto(`${claims.base}/#ledger/claims?role=rumour`);
      await view.waitForSelector('#role-error');
      assert.match(await view.locator('#role-error').innerText(), /rumour.*not one of/);
      await axe(view, 'the claims list with a bad filter');

      // The widest-carried claim's timeline: one row per outlet, one mark per appearance.
      await view.goto(`${claims.base}/#ledger/claims`);
      await view.locator('#ledger-content tbody tr a').first().click();
      await view.waitForSelector('#ledger-content svg.claim-timeline');
      const id = /#ledger\/claim\/(\d+)/.exec(view.url())[1];
      const claim = await (await view.request.get(`${claims.base}/v1/claims/${id}`)).json();
      const outlets = new Set(claim.appearances.map((a) => a.outlet));
      const drawn = await view.evaluate(() => {
        const svg = document.querySelector('#ledger-content svg.claim-timeline');
        return {
          outlets: Array.from(svg.querySelectorAll('text.outlet')).map((t) => t.textContent),
          marks: Array.from(svg.querySelectorAll('a.claim-mark')).map((a) => ({
            href: a.getAttribute('href'),
            label: a.getAttribute('aria-label'),
            role: a.querySelector('.role-label').textContent,
            shape: a.querySelector('.role-shape').getAttribute('class'),
          })),
        };
      });
      assert.equal(drawn.outlets.length, outlets.size, `a row per outlet: ${drawn.outlets}`);
      assert.equal(drawn.marks.length, claim.appearances.length, 'a mark per appearance');
      const inTime = [...claim.appearances].sort((a, b) => Date.parse(a.published) - Date.parse(b.published));
      drawn.marks.forEach((mark, i) => {
        const role = inTime[i].role.replaceAll('_', ' ');
        assert.equal(mark.role, role, 'each role written as text beside its mark');
        assert.ok(mark.label.startsWith(`${role}: `), mark.label);
        assert.ok(mark.href.startsWith(`#ledger/article/${encodeURIComponent(inTime[i].article)}`), `${mark.href} links to ${inTime[i].article}`);
      });
      // Roles apart by shape, not colour alone.
      const shapes = new Map(drawn.marks.map((m) => [m.role, m.shape]));
      assert.equal(new Set(shapes.values()).size, shapes.size, `a shape per role: ${[...shapes]}`);
      assert.ok(shapes.size >= 2, `the claim travels in several roles: ${[...shapes.keys()]}`);
      const legend = await view.locator('#ledger-content .role-legend').innerText();
      for (const role of shapes.keys()) assert.ok(legend.includes(role), `the legend names ${role}`);
      // The table holds the timeline's data, the roles in words.
      const tableRoles = await view.locator('#ledger-content table tbody tr td:nth-child(3)').allInnerTexts();
      assert.deepEqual(tableRoles.map((r) => r.trim()), claim.appearances.map((a) => a.role.replaceAll('_', ' ')));
      await axe(view, 'a claim timeline');
      await view.screenshot({ path: join(shots, 'ledger-claim.png'), fullPage: true });
      // As a reader without colour vision sees it.
      const cdp = await view.context().newCDPSession(view);
      await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'achromatopsia' });
      await view.screenshot({ path: join(shots, 'ledger-claim-grayscale.png'), fullPage: true });
      await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });

      // Tab from the top of the page reaches every mark, in time order, each with its focus ring shown.
      await view.evaluate(() => document.activeElement && document.activeElement.blur());
      const reached = [];
      for (let i = 0; i < 40 && reached.length < drawn.marks.length; i += 1) {
        await view.keyboard.press('Tab');
        const focused = await view.evaluate(() => {
          const node = document.activeElement;
          if (!node || !node.classList || !node.classList.contains('claim-mark')) return null;
          return { label: node.getAttribute('aria-label'), ring: getComputedStyle(node.querySelector('.focus-ring')).visibility };
        });
        if (focused) reached.push(focused);
      }
      assert.deepEqual(reached.map((r) => r.label), drawn.marks.map((m) => m.label), 'Tab reaches every mark');
      assert.ok(reached.every((r) => r.ring === 'visible'), 'focus is visible on each mark');

      // A mark of an attribution opens its article at the attribution, lit,
      // and the article leads back to the claim.
      const at = drawn.marks.findIndex((m) => m.href.includes('?attribution='));
      assert.ok(at >= 0, 'an appearance that is an attribution');
      await view.locator('#ledger-content a.claim-mark').nth(at).click();
      const anchor = /attribution=(\d+)/.exec(drawn.marks[at].href)[1];
      await view.waitForSelector(`#attribution-${anchor}.lit`);
      assert.equal(await view.evaluate(() => document.activeElement.id), `attribution-${anchor}`);
      assert.equal(await view.locator(`#attribution-${anchor} .claim-link a`).getAttribute('href'), `#ledger/claim/${id}`);
      await axe(view, 'an article at a claim\'s attribution');
      // Its source's page leads to the claims credited to that source.
      await view.locator(`#attribution-${anchor} a[href^="#ledger/source/"]`).click();
      await view.locator('#ledger-content a', { hasText: 'Claims credited to' }).click();
      await view.waitForSelector('#ledger-content table');
      assert.ok(await view.locator('#ledger-content tbody tr').count() >= 1, 'the claims credited to the source');

      const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
      await phone.goto(`${claims.base}/#ledger/claim/${id}`);
      await phone.waitForSelector('#ledger-content svg.claim-timeline');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px over)`);
      const ticksApart = await phone.evaluate(() => {
        const boxes = Array.from(document.querySelectorAll('svg.claim-timeline > text:not(.outlet)')).map((t) => t.getBoundingClientRect());
        return boxes.every((a, i) => boxes.slice(i + 1).every((b) => a.right <= b.left || b.right <= a.left));
      });
      assert.ok(ticksApart, 'the dates of the time axis stay apart');
      const tallest = await phone.evaluate(() => Math.max(...Array.from(document.querySelectorAll('#ledger-content td')).map((td) => td.getBoundingClientRect().height)));
      assert.ok(tallest < 200, `the table keeps its words whole (a cell ${tallest}px tall)`);
      await phone.screenshot({ path: join(shots, 'ledger-claim-phone.png'), fullPage: true });
      await phone.close();
      assert.deepEqual(notFound, [], 'no 404 while the claims were browsed');
    } finally {
      claims.child.kill('SIGTERM');
      await view.close();
    }
  });

  await check('the favicon is served and nothing the page asks for is missing', async () => {
    const icon = await page.request.get(`${base}/favicon.ico`);
    assert.equal(icon.status(), 200);
    assert.match(icon.headers()['content-type'], /svg/);
    assert.deepEqual(missing, [], 'no 404 while the page was used');
  });
} finally {
  child.kill('SIGTERM');
  await browser.close();
}

if (failures.length) {
  console.log(`${failures.length} browser check(s) failed`);
  process.exit(1);
}
console.log(`browser checks passed; screenshots in ${shots}`);
