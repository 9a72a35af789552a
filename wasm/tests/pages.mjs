// What the browser test (browser.mjs) and the party test (party.mjs) do
// with a page: open it as a phone or a desktop would, wait on what the
// client says it shows, press what it says is where, type a name as a
// phone's keyboard does, measure an idle page, open a seat's replay.
//
// The client writes what it shows as data-* attributes of <body> (see
// src/client/page_status.rs and src/client/reach.rs, which says where each
// piece and control is); buttons and pieces are pressed where the client
// says they are, with the mouse on a desktop-sized page and a finger on a
// phone-sized one.
import { chromium } from 'playwright-core';

export const MINUTE = 60_000;

export const LAUNCH = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic',
    // WebGL2 in software: the machine has no GPU.
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
  ],
};

export const SIZES = {
  desktop: { viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 },
  // A phone's own user agent (Android's Chrome): with it, bevy_egui
  // types through its hidden input, the "text agent", as on a real phone
  // (issue 66).
  phone: {
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true,
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  },
  // A laptop's window.
  small: { viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 },
};

// The test's browser, the page address, where screenshots go and what
// went wrong: set once by the test (`start`).
const the = { browser: null, base: null, out: '.', problems: [], report: { pages: {} } };

// Launches the browser and prefixes every line the test prints with its
// second from the start: where a step's time goes can be read off any
// run's log.
export async function start({ base, out, problems, report }) {
  Object.assign(the, { base, out, problems, report });
  the.report.pages ||= {};
  const started = Date.now();
  const say = console.log;
  console.log = (...args) => say(`+${Math.round((Date.now() - started) / 1000)}s`, ...args);
  the.browser = await chromium.launch(LAUNCH);
  return the.browser;
}

// The moment the client first says it shows the title, on the page's
// clock (`window.__titleAt`): seen by an observer, not by polling, because
// a page told to open a table at once (`autoplay=local`) leaves the title
// within a frame, which a poll every 100 ms can miss (it once waited 3
// minutes for a title the page had already left).
export function watchTitle(page) {
  return page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__titleAt && document.body?.dataset.screen === 'title') {
        window.__titleAt = performance.now();
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-screen'] });
  });
}

// A page of `p`'s (its first, or one opened again in its browser): its
// errors are the test's problems, its title watched.
export async function attach(p, page) {
  p.page = page;
  p.slow = [];
  page.on('pageerror', e => the.problems.push(`[${p.name}] page error: ${e}`));
  page.on('console', m => {
    if (m.type() === 'error' && !/exceptions for control flow/.test(m.text())) {
      the.problems.push(`[${p.name}] console error: ${m.text().slice(0, 300)}`);
    }
    // The client's own account of a loading screen that does not end.
    if (/still loading after/.test(m.text())) p.slow.push(m.text().slice(0, 2000));
    if (process.env.WAKE_LOG && /wake log/.test(m.text())) console.log(`[${p.name}] ${m.text().slice(0, 600)}`);
  });
  await watchTitle(page);
  return p;
}

// A person's browser (its own profile: its saved seats stay in its local
// storage through a reload and a closed page) with one page of the
// client, `params` added to its address, loaded to the title. A page that
// never gets there is looked at, reported and loaded once more (headless
// Chromium on a busy machine has been seen to stall once); a second stall
// fails the test.
export async function open(name, size, params = {}, locale = undefined) {
  const url = new URL(the.base);
  // Bots at a page's own tables move every 400 ms, as at the test's
  // server (a person's table keeps 1.1 s): the games and lessons wait on
  // bots less, and every action of the person is still made by hand.
  url.searchParams.set('bot_delay_ms', '400');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  // WAKE_LOG=1: each page logs what woke each update (src/client/wake.rs).
  if (process.env.WAKE_LOG) url.searchParams.set('wake_log', '1');
  const context = await the.browser.newContext({ ...SIZES[size], locale });
  const p = { name, size, context, url: url.href, touch: size === 'phone' };
  await attach(p, await context.newPage());
  const titleMs = await toTitle(p);
  the.report.pages[name] = { size, titleMs };
  console.log(`[${name}] title screen ${titleMs} ms after page load`);
  return p;
}

// Loads the page's address to the title; the title's time on the page's
// clock.
export async function toTitle(p) {
  for (let attempt = 1; ; attempt++) {
    await p.page.goto(p.url);
    try {
      return await (await p.page.waitForFunction(
        () => window.__titleAt && Math.round(window.__titleAt),
        null, { timeout: 3 * MINUTE, polling: 100 })).jsonValue();
    } catch (e) {
      await p.page.screenshot({ path: `${the.out}/failed-${p.name}-${attempt}.png` });
      const seen = await p.page.evaluate(() => ({
        loading: document.getElementById('loading')?.innerText,
        ...document.body.dataset,
      }));
      const why = `[${p.name}] no title screen after 3 minutes: the page shows ${JSON.stringify(seen)}; ${p.slow.join(' / ') || 'no loading report'}`;
      if (attempt >= 2) throw new Error(why);
      console.log(why + '; loading it again');
      (the.report.stalls ||= []).push(why);
    }
  }
}

export const data = (p, key) => p.page.evaluate(k => document.body.dataset[k], key);

export async function waitFor(p, what, test, minutes = 4, arg = null) {
  try {
    await p.page.waitForFunction(test, arg, { timeout: minutes * MINUTE, polling: 250 });
  } catch (e) {
    await shot(p, `failed-${p.name}`).catch(() => {});
    const seen = await p.page.evaluate(() => ({ ...document.body.dataset })).catch(() => ({}));
    delete seen.reach;
    throw new Error(`[${p.name}] never ${what}: the page shows ${JSON.stringify(seen)}`);
  }
  console.log(`[${p.name}] ${what}`);
}

export async function shot(p, file) {
  await p.page.screenshot({ path: `${the.out}/${file}.png` });
}

// Presses a button where the client drew it: a click, or a tap on a phone.
export async function press(p, target, touch = p.touch) {
  const rect = await data(p, `target${target.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`);
  if (!rect) throw new Error(`[${p.name}] no ${target} button on screen`);
  const [x, y, w, h] = rect.split(',').map(Number);
  if (touch) await p.page.touchscreen.tap(x + w / 2, y + h / 2);
  else await p.page.mouse.click(x + w / 2, y + h / 2);
}

// The controls the client says are on the screen.
export async function controlOf(p, name) {
  try { return JSON.parse(await data(p, 'reach')).controls.find(c => c.name === name); } catch { return null; }
}

// The control if it takes a press now (not greyed: the game-over
// summary's buttons are for their first moments).
export async function usable(p, name) {
  const c = await controlOf(p, name);
  return c && c.does !== 'nothing' ? c : null;
}

// Presses a control once it takes a press and has settled where it was
// drawn (a new window is placed in its second frame), as a person presses
// what they see, and again if `done` is not so after 5 s (a page under
// load draws a frame a second); three tries.
export async function pressUntil(p, name, touch, what, done) {
  for (let tries = 0; tries < 3; tries++) {
    const t0 = Date.now();
    while (!(await usable(p, name))) {
      if (await done()) return tries;
      if (Date.now() - t0 > 30_000) {
        await shot(p, `failed-${p.name}-${name}`);
        throw new Error(`[${p.name}] ${what}`);
      }
      await p.page.waitForTimeout(250);
    }
    await p.page.waitForTimeout(800);
    const at = await usable(p, name);
    if (!at) continue;
    if (touch) await p.page.touchscreen.tap(at.x + at.w / 2, at.y + at.h / 2);
    else await p.page.mouse.click(at.x + at.w / 2, at.y + at.h / 2);
    const t1 = Date.now();
    while (Date.now() - t1 < 5_000) {
      if (await done()) return tries + 1;
      await p.page.waitForTimeout(250);
    }
  }
  await shot(p, `failed-${p.name}-${name}`);
  throw new Error(`[${p.name}] ${what}: pressing ${name} three times changed nothing`);
}

// A replay opening: every step loaded ("step/loaded/total" with loaded
// = total), then the end button pressed: the last step shows.
export async function replayToItsEnd(p, touch) {
  await waitFor(p, 'loaded its replay', () => {
    const m = /^(\d+)\/(\d+)\/(\d+)$/.exec(document.body.dataset.replay || '');
    return m && Number(m[3]) > 0 && m[2] === m[3];
  }, 1);
  const [, steps] = (await data(p, 'replay')).split('/').map(Number);
  await pressUntil(p, 'replay-end', touch, 'no way to the replay\'s end', async () => Number((await data(p, 'replay')).split('/')[0]) === steps);
  await shot(p, `web-replay-${p.name}`);
  console.log(`[${p.name}] its seat's replay loaded over the wire, ${steps} steps, and stepped to its end`);
  return { steps };
}

// Issue 66: "A seat's replay never loads over the wire". The phone opens
// its seat's replay from the game-over summary.
export async function replayFromSummary(p) {
  await pressUntil(p, 'summary-replay', p.touch, 'no replay on the game-over summary', async () => /^\d+\/\d+\/[1-9]/.test(await data(p, 'replay') || ''));
  return replayToItsEnd(p, p.touch);
}

// ... and from the lobby's table list, after leaving the finished table
// (a finished table is left on the way; a seat still held is left by
// hand). With `table`, a table sat at before the one the page is at
// (after "Play again"), which is left when asked.
export async function replayFromLobby(p, table = null) {
  table ??= Number(await data(p, 'table'));
  if (await controlOf(p, 'summary-new-game')) {
    await pressUntil(p, 'summary-new-game', p.touch, 'no way from the summary to the lobby', async () => (await data(p, 'screen')) === 'lobby');
  } else {
    await pressUntil(p, 'table-leave', p.touch, 'no "Leave table" at the table',
      async () => !!(await controlOf(p, 'table-leave-yes')) || (await data(p, 'screen')) === 'lobby');
    if ((await data(p, 'screen')) !== 'lobby') {
      await pressUntil(p, 'table-leave-yes', p.touch, 'the question never let it leave', async () => (await data(p, 'screen')) === 'lobby');
    }
  }
  for (const t0 = Date.now(); !(await controlOf(p, `lobby-replay-${table}`)) && Date.now() - t0 < 10_000;) {
    if (await controlOf(p, 'lobby-leave')) {
      await pressUntil(p, 'lobby-leave', p.touch, 'no way to leave the finished table', async () => !(await data(p, 'seat')));
    }
    await p.page.waitForTimeout(250);
  }
  await pressUntil(p, `lobby-replay-${table}`, p.touch, 'no replay of our seat in the table list', async () => /^\d+\/\d+\/[1-9]/.test(await data(p, 'replay') || ''));
  return replayToItsEnd(p, p.touch);
}

// Issue 67: "every requestAnimationFrame draws an app frame: 53 frames in
// 5 s on the idle title, 69 in the idle lobby". Once the page says it is
// idle, the app's updates (`data-frame`) and the page's main-thread time
// (CDP's TaskDuration) over 3 s with nothing happening, and the
// WebSocket's frames. More than 2 updates a second fails ("the browser's
// idle lobby draws at most 2 frames a second").
export async function idleCost(p) {
  const IDLE_MAX_PER_SEC = 2;
  await waitFor(p, 'idle', () => document.body.dataset.idle === document.body.dataset.frame, 0.5);
  const cdp = await p.context.newCDPSession(p.page);
  await cdp.send('Performance.enable');
  // The WebSocket's frames each way: each one received wakes the app.
  await cdp.send('Network.enable');
  const frames = { in: [], out: [] };
  cdp.on('Network.webSocketFrameReceived', e => frames.in.push(e.response.payloadData.length));
  cdp.on('Network.webSocketFrameSent', e => frames.out.push(e.response.payloadData.length));
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find(m => m.name === 'TaskDuration').value;
  const [f0, b0, t0] = [Number(await data(p, 'frame')), await busy(), Date.now()];
  await p.page.waitForTimeout(3_000);
  const [f1, b1, t1] = [Number(await data(p, 'frame')), await busy(), Date.now()];
  await cdp.detach();
  const cost = {
    updates: f1 - f0, secs: (t1 - t0) / 1000, busy_ms: Math.round((b1 - b0) * 1000), screen: await data(p, 'screen'),
    frames_in: frames.in.length, frames_out: frames.out.length,
  };
  console.log(`[${p.name}] idle at the ${cost.screen}: ${cost.updates} updates and ${cost.busy_ms} ms busy in ${cost.secs} s; WebSocket frames ${cost.frames_in} in (${frames.in.join(' ')} bytes, base64), ${cost.frames_out} out`);
  if (cost.updates > IDLE_MAX_PER_SEC * cost.secs) {
    await shot(p, `failed-idle-${p.name}`);
    throw new Error(`[${p.name}] idle at the ${cost.screen}, the page updated ${cost.updates} times in ${cost.secs} s (at most ${IDLE_MAX_PER_SEC} a second)`);
  }
  return cost;
}

// Issue 66: a name typed on a phone, as its person types it: one tap on
// the name field focuses the page's hidden input (the text agent: the
// phone's keyboard opens for it), the cursor at the end of the name there
// (Backspace clears it), letters from the keyboard, then Chinese through
// an IME's composition (CDP's imeSetComposition of the pinyin, then of
// the first character, committed by insertText), and the keyboard's Enter
// sends it. The server's answer is the name the page goes by.
export async function typeName(p, latin, chinese = '', pinyin = '') {
  const cdp = await p.context.newCDPSession(p.page);
  const field = await p.page.waitForFunction(() => {
    try { return JSON.parse(document.body.dataset.reach).controls.find(c => c.name === 'name'); } catch { return null; }
  }, null, { timeout: MINUTE, polling: 250 }).then(h => h.jsonValue());
  await p.page.waitForTimeout(500);
  await p.page.touchscreen.tap(field.x + field.w / 2, field.y + field.h / 2);
  await waitFor(p, 'given the keyboard by one tap', () => document.activeElement?.id === 'egui_text_agent', 0.25);
  const before = await data(p, 'name');
  for (const _ of before) await p.page.keyboard.press('Backspace');
  if (latin) await p.page.keyboard.type(latin, { delay: 50 });
  if (chinese) {
    await cdp.send('Input.imeSetComposition', { text: pinyin, selectionStart: pinyin.length, selectionEnd: pinyin.length });
    await cdp.send('Input.imeSetComposition', { text: chinese[0], selectionStart: 1, selectionEnd: 1 });
    await cdp.send('Input.insertText', { text: chinese });
  }
  await p.page.waitForTimeout(500);
  await shot(p, `web-lobby-${p.name}-typing`);
  const focused = await p.page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  if (focused !== 'egui_text_agent') throw new Error(`[${p.name}] the keyboard's input lost the focus while typing (${focused})`);
  await p.page.keyboard.press('Enter');
  const name = latin + chinese;
  await waitFor(p, `going by the typed name ${name}`, n => document.body.dataset.name === n, 0.5, name);
  await shot(p, `web-lobby-${p.name}-named`);
  await cdp.detach();
  return { before, name };
}

// Issue 66: "One game cannot be chosen on a phone in English: the lobby's
// game tabs are cut off at 390 px". The game's tab is on the screen,
// whole, and one tap chooses it.
export async function chooseGame(p, game) {
  const name = `lobby-game-${game}`;
  const tab = await p.page.waitForFunction(n => {
    try { return JSON.parse(document.body.dataset.reach).controls.find(c => c.name === n); } catch { return null; }
  }, name, { timeout: MINUTE, polling: 250 }).then(h => h.jsonValue());
  const view = p.page.viewportSize();
  if (tab.x < 0 || tab.y < 0 || tab.x + tab.w > view.width || tab.y + tab.h > view.height || tab.w < 40) {
    throw new Error(`[${p.name}] the ${game} tab is not whole on a ${view.width}x${view.height} screen: ${JSON.stringify(tab)}`);
  }
  await p.page.touchscreen.tap(tab.x + tab.w / 2, tab.y + tab.h / 2);
  await waitFor(p, `chose ${game} by a tap`, c => {
    try { return JSON.parse(document.body.dataset.reach).choice === c; } catch { return false; }
  }, 0.25, `game=${game}`);
  await shot(p, `web-lobby-${p.name}-${game}`);
  return tab;
}
