// The attest page in headless Chromium: analyse the bundled sample and check
// what a reader sees, check that markup in an article stays text, and browse a
// ledger down to one source's page. Screenshots go to target/browser/.
//
//   node tests/browser/page.test.mjs [path/to/attest]
//
// Needs Debian's chromium (/usr/bin/chromium) and `npm ci` here; .ci/run does both.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const attest = resolve(process.argv[2] || join(root, 'target/release/attest'));
const shots = join(root, 'target/browser');
mkdirSync(shots, { recursive: true });

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

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

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

// A small corpus for the ledger, written here so that it has a known source.
const work = mkdtempSync(join(tmpdir(), 'attest-browser-'));
const corpus = join(work, 'corpus.jsonl');
const sample = readFileSync(join(root, 'crates/cli/sample/article.txt'), 'utf8');
writeFileSync(corpus, [
  { id: 'sample', text: sample, outlet: 'Coastline News', published: '2026-03-04T17:30:00-05:00' },
  { id: 'follow-up', text: 'Port Halvard talks resumed on Friday.\n\nMarisol Okafor said the union would vote on the offer next week. “We will read every line,” Okafor said.', outlet: 'Harbor Gazette', published: '2026-03-07' },
].map((record) => JSON.stringify(record)).join('\n') + '\n');
const db = join(work, 'ledger.db');
const ingest = spawnSync(attest, ['ingest', corpus, '--db', db], { encoding: 'utf8' });
const ledgerReady = ingest.status === 0;

const { child, base } = await startServer(ledgerReady ? ['--db', db] : []);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });

  await check('the sample shows highlighted attributions and its sources', async () => {
    await page.goto(`${base}/`);
    await page.fill('input[name=title]', 'Dockworkers strike at Port of Halvard over automation plan');
    await page.fill('input[name=outlet]', 'Coastline News');
    await page.fill('input[name=published]', '2026-03-04T17:30:00-05:00');
    await page.fill('#article-text', sample);
    await page.click('#analyse-button');
    await page.waitForSelector('#article-view .cue');
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
    // Clicking a statement lights up its attribution in the text.
    await page.locator('.statement', { hasText: 'denied' }).first().click();
    const active = await page.locator('#article-view .active').allInnerTexts();
    assert.ok(active.join(' ').includes('denied'), `active: ${active}`);
    await page.screenshot({ path: join(shots, 'analyse.png'), fullPage: true });
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
    await page.goto(`${base}/`);
    await page.fill('#article-text', 'The mayor said <script>alert(1)</script> was in the draft. <img src=x onerror=alert(2)>');
    await page.click('#analyse-button');
    await page.waitForSelector('#article-view p');
    const text = await page.locator('#article-view').innerText();
    assert.ok(text.includes('<script>alert(1)</script>'), `shown as text: ${text}`);
    assert.ok(text.includes('<img src=x onerror=alert(2)>'), `shown as text: ${text}`);
    assert.equal(await page.locator('#article-view script, #article-view img').count(), 0);
    assert.deepEqual(dialogs, [], 'no script ran');
  });

  await check('the page fits a phone', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.goto(`${base}/`);
    await phone.fill('#article-text', sample);
    await phone.click('#analyse-button');
    await phone.waitForSelector('#article-view .cue');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px over)`);
    await phone.screenshot({ path: join(shots, 'analyse-phone.png'), fullPage: true });
    await phone.close();
  });

  await check('the ledger leads from top sources to a source page', async () => {
    assert.ok(ledgerReady, `attest ingest failed: ${ingest.stderr}`);
    await page.goto(`${base}/#ledger`);
    await page.waitForSelector('#ledger-content table');
    const link = page.locator('#ledger-content a', { hasText: 'Marisol Okafor' }).first();
    await link.click();
    await page.waitForSelector('#ledger-content .timeline');
    const sourcePage = await page.locator('#ledger-content').innerText();
    assert.ok(sourcePage.includes('Marisol Okafor'), sourcePage);
    assert.ok(sourcePage.includes('Harbor Gazette') && sourcePage.includes('Coastline News'), 'statements from both outlets');
    await page.screenshot({ path: join(shots, 'ledger-source.png'), fullPage: true });

    await page.goto(`${base}/#ledger/search`);
    await page.fill('#ledger-content input[type=search]', 'union');
    await page.press('#ledger-content input[type=search]', 'Enter');
    await page.waitForSelector('#ledger-content mark');

    await page.goto(`${base}/#ledger/outlets`);
    await page.waitForSelector('#ledger-content svg.chart rect');
    await page.screenshot({ path: join(shots, 'ledger-outlets.png'), fullPage: true });
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
