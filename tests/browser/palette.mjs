// The page's palette checked for WCAG AA contrast and for colours that stay
// apart under the common colour-vision deficiencies.
//
//   node tests/browser/palette.mjs [path/to/app.css]
//
// The colours are read from the custom properties at the top of app.css, so a
// colour changed there is checked here; the browser test runs this check, and
// also runs it on a spoiled copy of the palette to see that it fails.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// WCAG 2.x: 4.5:1 for text, 3:1 for marks that carry meaning (1.4.11).
export const TEXT_CONTRAST = 4.5;
export const MARK_CONTRAST = 3;
// CIEDE2000 distance every two stance colours keep, seen normally and under
// full protanopia, deuteranopia and tritanopia. About 2 is a just-noticeable
// difference; the stances are also labelled in words, so colour is a second
// channel that must stay apart, not the only one.
export const MIN_DELTA_E = { normal: 20, protanopia: 7, deuteranopia: 7, tritanopia: 7 };

export function readPalette(css) {
  const root = /:root\s*\{([^}]*)\}/.exec(css);
  if (!root) throw new Error('app.css has no :root block');
  const palette = {};
  for (const match of root[1].matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)) palette[match[1]] = match[2].toLowerCase();
  const tint = /--tint:\s*([\d.]+)%\s*;/.exec(root[1]);
  if (!tint) throw new Error('app.css defines no --tint percentage');
  palette.tint = Number(tint[1]) / 100;
  // The stances are those app.css gives a colour (`.stance-asserts { --stance: … }`),
  // as the page reads them, so a stance added there is checked here too.
  palette.stances = [...css.matchAll(/^\.stance-([a-z_]+)\s*\{\s*--stance:/gm)].map((m) => m[1]).filter((s) => s !== 'none');
  if (!palette.stances.length) throw new Error('app.css gives no stance a rule');
  return palette;
}

function channels(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
}

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

function luminance(rgb) {
  const [r, g, b] = rgb.map(toLinear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [x, y] = [luminance(channels(a)), luminance(channels(b))].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// `over` at `alpha` on `under`, as CSS color-mix in sRGB does.
export function mix(over, alpha, under) {
  const [a, b] = [channels(over), channels(under)];
  return `#${a.map((c, i) => Math.round((c * alpha + b[i] * (1 - alpha)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

// Machado, Oliveira and Fernandes (2009), severity 1, applied to linear RGB.
const DEFICIENCIES = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

function linearRgb(hex, seen) {
  const linear = channels(hex).map(toLinear);
  if (seen === 'normal') return linear;
  return DEFICIENCIES[seen].map((row) => Math.min(1, Math.max(0, row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2])));
}

function lab([r, g, b]) {
  const xyz = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116));
  return [116 * xyz[1] - 16, 500 * (xyz[0] - xyz[1]), 200 * (xyz[1] - xyz[2])];
}

// CIEDE2000 (Sharma, Wu and Dalal 2005).
export function deltaE2000([l1, a1, b1], [l2, a2, b2]) {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(a1, b1); const c2 = Math.hypot(a2, b2);
  const cMean = (c1 + c2) / 2;
  const g = 0.5 * (1 - Math.sqrt(cMean ** 7 / (cMean ** 7 + 25 ** 7)));
  const [ap1, ap2] = [a1 * (1 + g), a2 * (1 + g)];
  const [cp1, cp2] = [Math.hypot(ap1, b1), Math.hypot(ap2, b2)];
  const hue = (b, a) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const [hp1, hp2] = [hue(b1, ap1), hue(b2, ap2)];
  const dL = l2 - l1; const dC = cp2 - cp1;
  let dh = 0;
  if (cp1 * cp2 !== 0) dh = Math.abs(hp2 - hp1) <= 180 ? hp2 - hp1 : (hp2 <= hp1 ? hp2 - hp1 + 360 : hp2 - hp1 - 360);
  const dH = 2 * Math.sqrt(cp1 * cp2) * Math.sin((dh / 2) * rad);
  const lMean = (l1 + l2) / 2; const cpMean = (cp1 + cp2) / 2;
  let hMean = hp1 + hp2;
  if (cp1 * cp2 !== 0) hMean = Math.abs(hp1 - hp2) <= 180 ? (hp1 + hp2) / 2 : (hp1 + hp2 < 360 ? (hp1 + hp2 + 360) / 2 : (hp1 + hp2 - 360) / 2);
  const t = 1 - 0.17 * Math.cos((hMean - 30) * rad) + 0.24 * Math.cos(2 * hMean * rad)
    + 0.32 * Math.cos((3 * hMean + 6) * rad) - 0.2 * Math.cos((4 * hMean - 63) * rad);
  const sL = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sC = 1 + 0.045 * cpMean; const sH = 1 + 0.015 * cpMean * t;
  const rT = -2 * Math.sqrt(cpMean ** 7 / (cpMean ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hMean - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}

export function seenDeltaE(a, b, seen) {
  return deltaE2000(lab(linearRgb(a, seen)), lab(linearRgb(b, seen)));
}

// Every requirement, as failures in words; none means the palette passes.
export function checkPalette(palette) {
  const { tint } = palette;
  const failures = [];
  const need = (name) => {
    if (!palette[name]) throw new Error(`app.css defines no --${name}`);
    return palette[name];
  };
  const textOn = (fg, bg, what) => {
    const ratio = contrast(need(fg), bg);
    if (ratio < TEXT_CONTRAST) failures.push(`${what}: --${fg} ${palette[fg]} on ${bg} is ${ratio.toFixed(2)}:1, under ${TEXT_CONTRAST}:1`);
  };
  const markOn = (fg, bg, what) => {
    const ratio = contrast(need(fg), bg);
    if (ratio < MARK_CONTRAST) failures.push(`${what}: --${fg} ${palette[fg]} on ${bg} is ${ratio.toFixed(2)}:1, under ${MARK_CONTRAST}:1`);
  };
  const paper = need('paper'); const wash = need('wash'); const lit = need('lit');
  const colours = [...palette.stances, 'none'];
  const backgrounds = [['paper', paper], ['wash', wash], ['lit', lit]];
  for (const name of colours) {
    backgrounds.push([`${name} content tint`, mix(need(name), tint, paper)]);
  }
  for (const [where, bg] of backgrounds) {
    textOn('ink', bg, `text on ${where}`);
    for (const name of colours) textOn(name, bg, `a ${name} cue on ${where}`);
  }
  for (const name of colours) textOn('paper', need(name), `a ${name} label`);
  for (const name of ['muted', 'accent', 'error']) {
    textOn(name, paper, `${name} text`);
    textOn(name, wash, `${name} text on the page's background`);
  }
  textOn('paper', need('accent'), 'a button');
  textOn('ink', need('found'), 'a search match');
  for (const name of ['layer', 'focus']) markOn(name, paper, `${name} marks`);
  markOn('focus', lit, 'the focus ring on a lit attribution');
  for (const seen of Object.keys(MIN_DELTA_E)) {
    for (let i = 0; i < colours.length; i += 1) {
      for (let j = i + 1; j < colours.length; j += 1) {
        const d = seenDeltaE(palette[colours[i]], palette[colours[j]], seen);
        if (d < MIN_DELTA_E[seen]) failures.push(`${colours[i]} and ${colours[j]} are ΔE ${d.toFixed(1)} apart seen ${seen === 'normal' ? 'with normal colour vision' : `with ${seen}`}, under ${MIN_DELTA_E[seen]}`);
      }
    }
  }
  return failures;
}

// The smallest distance of each kind, for the report.
export function summary(palette) {
  const colours = [...palette.stances, 'none'];
  const lines = [];
  lines.push(`lowest stance contrast on paper: ${Math.min(...colours.map((c) => contrast(palette[c], palette.paper))).toFixed(2)}:1`);
  for (const seen of Object.keys(MIN_DELTA_E)) {
    let low = Infinity; let pair = '';
    for (let i = 0; i < colours.length; i += 1) {
      for (let j = i + 1; j < colours.length; j += 1) {
        const d = seenDeltaE(palette[colours[i]], palette[colours[j]], seen);
        if (d < low) { low = d; pair = `${colours[i]}/${colours[j]}`; }
      }
    }
    lines.push(`closest pair ${seen}: ${pair} ΔE ${low.toFixed(1)} (floor ${MIN_DELTA_E[seen]})`);
  }
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const path = process.argv[2] || join(here, '../../crates/server/assets/app.css');
  const palette = readPalette(readFileSync(path, 'utf8'));
  const failures = checkPalette(palette);
  for (const line of summary(palette)) console.log(line);
  for (const failure of failures) console.log(`FAIL ${failure}`);
  if (failures.length) process.exit(1);
  console.log('palette passes');
}
