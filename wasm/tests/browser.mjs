// The browser test: first five cold loads of a phone-sized page, to the
// title screen, counting what it fetched before it (issue 22); then two
// headless Chromium pages, served by `foodweb serve`, play one Forest
// Showdown table together; then a third page plays against bots in the
// browser alone. Run by .ci/run; by hand:
//
//   node wasm/tests/browser.mjs http://127.0.0.1:8080/ /tmp/shots
//
// (the page's address as `foodweb serve` prints it, `?ws=PORT` included
// when the WebSocket port is not the default)
//
// The client writes what it shows as data-* attributes of <body> (see
// src/client/page_status.rs); the title screen's buttons are pressed where
// the client says they are, with the mouse on the desktop-sized page and a
// finger on the phone-sized one. At the table a bot plays each page's seat
// (?autoplay=..., src/client/autoplay.rs) through the same screens.
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';

const base = process.argv[2] || 'http://127.0.0.1:8080/';
const out = process.argv[3] || 'browser-shots';
mkdirSync(out, { recursive: true });

const MINUTE = 60_000;
const report = { pages: {} };
const problems = [];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic',
    // WebGL2 in software: the machine has no GPU.
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
  ],
});

const SIZES = {
  desktop: { viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
};

async function open(name, size, params) {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  const context = await browser.newContext(SIZES[size]);
  const page = await context.newPage();
  page.on('pageerror', e => problems.push(`[${name}] page error: ${e}`));
  const slow = [];
  page.on('console', m => {
    if (m.type() === 'error' && !/exceptions for control flow/.test(m.text())) {
      problems.push(`[${name}] console error: ${m.text().slice(0, 300)}`);
    }
    // The client's own account of a loading screen that does not end.
    if (/still loading after/.test(m.text())) slow.push(m.text().slice(0, 2000));
  });
  // Page load to the title screen, as the page's own clock counts it. A
  // page that never gets there is looked at, reported and loaded once more
  // (headless Chromium on a busy machine has been seen to stall once);
  // a second stall fails the test.
  let titleMs;
  for (let attempt = 1; titleMs === undefined; attempt++) {
    await page.goto(url.href);
    try {
      titleMs = await (await page.waitForFunction(
        () => document.body.dataset.screen === 'title' && Math.round(performance.now()),
        null, { timeout: 3 * MINUTE, polling: 100 })).jsonValue();
    } catch (e) {
      await page.screenshot({ path: `${out}/failed-${name}-${attempt}.png` });
      const seen = await page.evaluate(() => ({
        loading: document.getElementById('loading')?.innerText,
        ...document.body.dataset,
      }));
      const why = `[${name}] no title screen after 3 minutes: the page shows ${JSON.stringify(seen)}; ${slow.join(' / ') || 'no loading report'}`;
      if (attempt >= 2) throw new Error(why);
      console.log(why + '; loading it again');
      (report.stalls ||= []).push(why);
    }
  }
  report.pages[name] = { size, titleMs };
  console.log(`[${name}] title screen ${titleMs} ms after page load`);
  return { name, page, context };
}

const data = (p, key) => p.page.evaluate(k => document.body.dataset[k], key);

// Issue 22: what a phone fetches before the title screen, from the
// browser's own record of requests (Resource Timing: `encodedBodySize` is
// the body as it came over the wire, gzip-compressed where it was sent
// so), and how long the title took, over COLD_LOADS cold loads one after
// another (a new browser context each: nothing cached).
const COLD_LOADS = 5;
const PRE_TITLE_LIMIT = 8_000_000;

async function coldLoad(i) {
  const context = await browser.newContext(SIZES.phone);
  const page = await context.newPage();
  page.on('pageerror', e => problems.push(`[cold ${i}] page error: ${e}`));
  // The moment the client says it shows the title, on the page's clock.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__titleAt && document.body?.dataset.screen === 'title') {
        window.__titleAt = performance.now();
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-screen'] });
  });
  await page.goto(base);
  await page.waitForFunction(() => window.__titleAt, null, { timeout: 3 * MINUTE, polling: 50 });
  // A request is recorded once its response has ended.
  await page.waitForTimeout(1000);
  const seen = await page.evaluate(() => {
    const at = window.__titleAt;
    const nav = performance.getEntriesByType('navigation')[0];
    const before = performance.getEntriesByType('resource').filter(e => e.startTime < at);
    const files = [[nav.name, nav.encodedBodySize, nav.decodedBodySize]]
      .concat(before.map(e => [e.name, e.encodedBodySize, e.decodedBodySize]));
    return {
      titleMs: Math.round(at),
      bytes: files.reduce((sum, f) => sum + f[1], 0),
      files: files.map(([name, wire, decoded]) => ({ name: new URL(name).pathname, wire, decoded })),
    };
  });
  await context.close();
  console.log(`[cold ${i}] title ${seen.titleMs} ms, ${seen.bytes} bytes before it`);
  return seen;
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function waitFor(p, what, test, minutes = 4) {
  try {
    await p.page.waitForFunction(test, null, { timeout: minutes * MINUTE, polling: 250 });
  } catch (e) {
    await shot(p, `failed-${p.name}`);
    const seen = await p.page.evaluate(() => ({ ...document.body.dataset }));
    throw new Error(`[${p.name}] never ${what}: the page shows ${JSON.stringify(seen)}`);
  }
  console.log(`[${p.name}] ${what}`);
}

async function shot(p, file) {
  await p.page.screenshot({ path: `${out}/${file}.png` });
}

// Presses a button where the client drew it: a click, or a tap on a phone.
async function press(p, target, touch) {
  const rect = await data(p, `target${target.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`);
  if (!rect) throw new Error(`[${p.name}] no ${target} button on screen`);
  const [x, y, w, h] = rect.split(',').map(Number);
  if (touch) await p.page.touchscreen.tap(x + w / 2, y + h / 2);
  else await p.page.mouse.click(x + w / 2, y + h / 2);
}

try {
  const runs = [];
  for (let i = 1; i <= COLD_LOADS; i++) runs.push(await coldLoad(i));
  report.pre_title_gzip_bytes = Math.max(...runs.map(r => r.bytes));
  report.title_ms = median(runs.map(r => r.titleMs));
  report.cold_loads = runs.map(r => ({ titleMs: r.titleMs, bytes: r.bytes }));
  report.pre_title_files = runs[0].files;
  console.log(`before the title: ${report.pre_title_gzip_bytes} bytes; title in ${report.title_ms} ms (median of ${COLD_LOADS})`);
  if (report.pre_title_gzip_bytes > PRE_TITLE_LIMIT) {
    problems.push(`a phone fetches ${report.pre_title_gzip_bytes} bytes before the title, over ${PRE_TITLE_LIMIT}: ${JSON.stringify(runs[0].files)}`);
  }
  if (runs[0].files.some(f => /FoodwebCJK|\.png$/.test(f.name))) {
    problems.push(`the big font or art loads before the title: ${JSON.stringify(runs[0].files)}`);
  }

  // COLD_ONLY=1: the cold loads alone (to compare builds, wasm/README.md).
  if (!process.env.COLD_ONLY) await play();
} catch (e) {
  problems.push(String(e.message || e));
} finally {
  await browser.close();
}

async function play() {
  // Two browsers at one table: the desktop page opens it, the phone joins.
  const host = await open('host', 'desktop', { autoplay: 'host', people: 2, seed: 11, name: 'Desk' });
  await shot(host, 'web-title-desktop');
  const guest = await open('guest', 'phone', { autoplay: 'join', name: '手机' });
  await shot(guest, 'web-title-phone');

  await press(host, 'play-here', false);
  await waitFor(host, 'in the lobby', () => document.body.dataset.screen === 'lobby');
  await waitFor(host, 'seated at a table', () => !!document.body.dataset.seat);
  await shot(host, 'web-lobby-desktop');
  await press(guest, 'play-here', true);
  await waitFor(guest, 'in the lobby', () => document.body.dataset.screen === 'lobby');
  await waitFor(guest, 'welcomed by the server', () => !!document.body.dataset.server);
  await shot(guest, 'web-lobby-phone');

  for (const p of [host, guest]) {
    await waitFor(p, 'at the table', () => document.body.dataset.screen === 'table');
  }
  const seats = [await data(host, 'seat'), await data(guest, 'seat')];
  if (seats[0] === seats[1]) throw new Error(`both pages sit in seat ${seats[0]}`);
  report.seats = seats;
  await shot(host, 'web-table-desktop');
  await shot(guest, 'web-table-phone');

  for (const p of [host, guest]) {
    await waitFor(p, 'saw a showdown resolved', () => Number(document.body.dataset.showdowns) >= 1, 6);
  }
  await shot(host, 'web-showdown-desktop');
  await shot(guest, 'web-showdown-phone');
  report.showdowns = [await data(host, 'showdowns'), await data(guest, 'showdowns')].map(Number);
  await host.context.close();
  await guest.context.close();

  // No server needed: a game against bots inside the page.
  const alone = await open('alone', 'phone', { autoplay: 'local', seed: 5 });
  await waitFor(alone, 'at a table of its own', () => document.body.dataset.screen === 'table');
  await waitFor(alone, 'saw a showdown resolved', () => Number(document.body.dataset.showdowns) >= 1, 6);
  await shot(alone, 'web-local-phone');
  await alone.context.close();

  // Wanning Beast Chess against bots, played to its end through the
  // screens: the set-up, the rounds, the settlement and the end.
  const beasts = await open('wanning', 'desktop', { autoplay: 'local', game: 'wanning', seed: 3 });
  await waitFor(beasts, 'at a Wanning table', () => document.body.dataset.screen === 'table');
  await waitFor(beasts, 'dealt', () => Number(document.body.dataset.revision) > 0);
  await beasts.page.waitForTimeout(1500);
  await shot(beasts, 'web-wanning-setup-desktop');
  await waitFor(beasts, 'in round 2', () => Number(document.body.dataset.round) >= 2, 4);
  await shot(beasts, 'web-wanning-round-desktop');
  await waitFor(beasts, 'at the end of the game', () => document.body.dataset.over === '1', 8);
  await shot(beasts, 'web-wanning-end-desktop');
  report.wanningRounds = Number(await data(beasts, 'round'));
  await beasts.context.close();
}

report.problems = problems;
writeFileSync(`${out}/browser-report.json`, JSON.stringify(report, null, 2));
if (problems.length) {
  console.error('browser test FAILED:\n' + problems.join('\n'));
  process.exit(1);
}
console.log('browser test passed:', JSON.stringify(report));
