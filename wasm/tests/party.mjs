// The party test (issue 68): people on their own phones at one table, as
// at a party. Three phone pages (touch, a phone's user agent; one in
// Chinese) and a headless client (`foodweb client`, the table's creator)
// sit at one Wanning Beast Chess table served by `foodweb serve`; each
// page's seat is played through its screens by a bot (?autoplay=join).
// Mid-game one phone reloads (as a phone's browser does to a page in the
// background) and another is closed for longer than the stand-in's delay
// and opened again from its link: each must be back in its own seat by
// itself, with its log and notes there again, and its next move taken.
// Run by tools/party.sh:
//
//   node wasm/tests/party.mjs http://127.0.0.1:18080/?ws=...&key=... OUT TAKEOVER_SECS
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';

const base = process.argv[2];
const out = process.argv[3] || '/var/tmp/foodweb-party';
const takeoverSecs = Number(process.argv[4] || 5);
mkdirSync(out, { recursive: true });
const MINUTE = 60_000;
// How soon a page that reopened must be back in its seat, from its title.
const BACK_WITHIN_MS = 10_000;
const STARTED = Date.now();
const say = console.log;
console.log = (...args) => say(`+${Math.round((Date.now() - STARTED) / 1000)}s`, ...args);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic',
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
  ],
});
const PHONE = {
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};
const report = { returns: {} };
const problems = [];

const data = (p, key) => p.page.evaluate(k => document.body.dataset[k], key);
const shot = (p, file) => p.page.screenshot({ path: `${out}/${file}.png` });

async function waitFor(p, what, test, ms = 2 * MINUTE, arg = null) {
  try {
    await p.page.waitForFunction(test, arg, { timeout: ms, polling: 200 });
  } catch {
    await shot(p, `failed-${p.name}`).catch(() => {});
    const seen = await p.page.evaluate(() => ({ ...document.body.dataset })).catch(() => ({}));
    delete seen.reach;
    throw new Error(`[${p.name}] never ${what}: the page shows ${JSON.stringify(seen)}`);
  }
  console.log(`[${p.name}] ${what}`);
}

// The page's own clock when the client first showed its title (a
// reload's or a new page's included).
function watchTitle(page) {
  return page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__titleAt && document.body?.dataset.screen === 'title') window.__titleAt = performance.now();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-screen'] });
  });
}

function watch(p) {
  p.page.on('pageerror', e => problems.push(`[${p.name}] page error: ${e}`));
  p.page.on('console', m => {
    if (m.type() === 'error' && !/exceptions for control flow/.test(m.text())) {
      problems.push(`[${p.name}] console error: ${m.text().slice(0, 300)}`);
    }
  });
}

// A person's phone: its own browser profile (its saved seats stay in its
// local storage through a reload and a closed page).
async function phone(name, person, locale) {
  const url = new URL(base);
  url.searchParams.set('autoplay', 'join');
  url.searchParams.set('name', person);
  // As long as a person takes over a move: the game lasts the few rounds
  // the test needs (bots alone end it in seconds).
  url.searchParams.set('think_ms', '4000');
  const context = await browser.newContext({ ...PHONE, locale });
  const page = await context.newPage();
  await watchTitle(page);
  const p = { name, person, context, page, url: url.href };
  watch(p);
  await page.goto(p.url);
  await waitFor(p, 'at the title', () => !!window.__titleAt, 3 * MINUTE);
  return p;
}

async function tap(p, target) {
  const key = `target${target.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
  await waitFor(p, `showing ${target}`, k => !!document.body.dataset[k], MINUTE, key);
  const [x, y, w, h] = (await data(p, key)).split(',').map(Number);
  await p.page.touchscreen.tap(x + w / 2, y + h / 2);
}

// What the seat has: the log, its notes, its moves taken.
async function held(p) {
  const n = async k => Number(await data(p, k)) || 0;
  return { seat: await data(p, 'seat'), log: await n('log'), notes: await n('notes'), accepted: await n('accepted'), round: await n('round') };
}

// Back in its own seat by itself after `away` (a reload, or a page closed
// and opened again): within BACK_WITHIN_MS of the title, the log and notes
// it had there again, and a move of its own taken after.
async function backInSeat(p, before, how) {
  const t0 = Date.now();
  await how();
  await waitFor(p, 'at the title again', () => !!window.__titleAt, 3 * MINUTE);
  const titleAt = Date.now();
  await waitFor(p, `back in seat ${before.seat} by itself`,
    s => document.body.dataset.screen === 'table' && document.body.dataset.seat === s, BACK_WITHIN_MS, before.seat);
  const seatAt = Date.now();
  await waitFor(p, `with its log (${before.log}) and notes (${before.notes}) again`,
    b => Number(document.body.dataset.log) >= b.log && Number(document.body.dataset.notes) >= b.notes, 30_000, before);
  await waitFor(p, 'a move of its own taken', () => Number(document.body.dataset.accepted) >= 1, 2 * MINUTE);
  await shot(p, `party-back-${p.name}`);
  const back = { from_title_ms: seatAt - titleAt, from_leaving_ms: seatAt - t0, move_ms: Date.now() - seatAt, before, after: await held(p) };
  console.log(`[${p.name}] back in seat ${before.seat} ${back.from_title_ms} ms after its title (${back.from_leaving_ms} ms after it went)`);
  return back;
}

try {
  const people = [
    await phone('ann', 'Ann', 'en-GB'),
    await phone('bo', 'Bo', 'en-GB'),
    await phone('chen', '小陈', 'zh-CN'),
  ];
  for (const p of people) await tap(p, 'play-here');
  for (const p of people) {
    await waitFor(p, 'seated at the table', () => document.body.dataset.screen === 'table' && !!document.body.dataset.seat, 3 * MINUTE);
  }
  const seats = await Promise.all(people.map(p => data(p, 'seat')));
  if (new Set(seats).size !== seats.length) throw new Error(`two pages in one seat: ${seats}`);
  report.seats = Object.fromEntries(people.map((p, i) => [p.name, seats[i]]));
  for (const p of people) await shot(p, `party-table-${p.name}`);
  // A few moves into the game: every page's first move taken.
  for (const p of people) await waitFor(p, 'its first move taken', () => Number(document.body.dataset.accepted) >= 1, 3 * MINUTE);
  const [ann, bo, chen] = people;

  // Ann's phone reloads the page.
  report.returns.reload = await backInSeat(ann, await held(ann), () => ann.page.reload());

  // Bo's page is closed, longer than the stand-in's delay, and opened
  // again from its link in the same browser.
  const boBefore = await held(bo);
  report.returns.closed = await backInSeat(bo, boBefore, async () => {
    await bo.page.close();
    await new Promise(r => setTimeout(r, (takeoverSecs + 3) * 1000));
    bo.page = await bo.context.newPage();
    await watchTitle(bo.page);
    watch(bo);
    await bo.page.goto(bo.url);
  });
  report.chen = await held(chen);
  await shot(chen, 'party-chen-zh');
  if (problems.length) throw new Error(problems.join('\n'));
  writeFileSync(`${out}/party-report.json`, JSON.stringify(report, null, 1));
  console.log(`party test passed: ${JSON.stringify(report.returns, ['reload', 'closed', 'from_title_ms', 'from_leaving_ms', 'move_ms'])}`);
} catch (e) {
  writeFileSync(`${out}/party-report.json`, JSON.stringify({ ...report, error: String(e), problems }, null, 1));
  console.log(`party test failed: ${e.message}\n${problems.join('\n')}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
