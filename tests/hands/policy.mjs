// Plays one seat of a table the way a person does: it reads where the
// screen says its pieces and controls are (the client's account,
// src/client/reach.rs: each one's rectangle in the window and what using
// it does now) and points there with real input events, through the `io`
// its caller gives: Playwright's mouse or finger in a browser
// (wasm/tests/browser.mjs), X events from xdotool on the desktop
// (tests/hands/desktop.mjs). Nothing here writes to the client; what
// happens is what the pointer or the key made happen.
//
// Every move must be accepted within STEP_MS (the account's revision moves
// on, and the table refused nothing); every choice must show on the screen
// within STEP_MS. The time from each event to the accepted view is kept.
//
// io: { name, read(): account|null, tap(x, y), drag(x0, y0, x1, y1),
//       key(name), sleep(ms), log(text) }
//
// With `keys`, the seat is played by the keyboard instead (src/client/
// scene/keys.rs): a piece is reached with the arrow keys (the account
// names the focused one) and used with Enter; a screen's main button is
// pressed with Enter; a choice is dropped with Esc.

// 10 s: it tells input that did nothing from a slow page, not a speed (the
// latencies are reported). With four pages on the test machine's two
// cores a phone's moves were accepted in p95 3.8 s; a Wanning ban taken
// after 5 s failed the browser test though the tap had worked (2026-12-07).
export const STEP_MS = 10_000;

// The controls Enter presses when no piece is focused.
const ENTER_PRESSES = ['ban', 'pick', 'peek', 'orders', 'prepare', 'ready', 'end-turn', 'challenge', 'continue'];

// The key names of xdotool (desktop) and Playwright (browser) for the same keys.
export const KEYS = {
  xdotool: { right: 'Right', enter: 'Return', escape: 'Escape', inspect: 'i' },
  playwright: { right: 'ArrowRight', enter: 'Enter', escape: 'Escape', inspect: 'KeyI' },
};

// The piece of each game inspected once a game (src/client/scene/
// inspect.rs): by resting the mouse on it, a long press of a finger, or
// the I key on the focused piece.
const INSPECT = { forest: 'mine:', crueler: 'card:', gene: 'room:', wanning: 'instinct:' };

const rand = (rng, xs) => xs[Math.floor(rng() * xs.length)];
const centre = s => [s.x + s.w / 2, s.y + s.h / 2];

// Where to point at a piece: its centre, or, where pieces on top of it
// cover that (a fanned row of cards), the point of it nearest its centre
// that nothing above it covers.
export function aim(spot, pieces) {
  const above = (pieces || []).filter(p => p !== spot && p.name !== spot.name && (p.z || 0) > (spot.z || 0));
  const covered = (x, y) => above.some(p => x >= p.x && x <= p.x + p.w && y >= p.y && y <= p.y + p.h);
  const [cx, cy] = centre(spot);
  let best = null;
  for (let i = 1; i < 12; i++) {
    for (let j = 1; j < 12; j++) {
      const x = spot.x + spot.w * i / 12;
      const y = spot.y + spot.h * j / 12;
      if (covered(x, y)) continue;
      const d = (x - cx) ** 2 + (y - cy) ** 2;
      if (!best || d < best[2]) best = [x, y, d];
    }
  }
  return best ? [best[0], best[1]] : [cx, cy];
}
const on = (spots, does) => spots.filter(s => s.does === does);
const named = (spots, prefix) => spots.filter(s => s.name.startsWith(prefix));

// A small seeded generator (mulberry32): the same seed plays the same way.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What the screen shows, without its clocks (which change every second).
const shown = a => JSON.stringify([a.revision, a.choice, a.pieces.map(p => [p.name, p.does]),
  a.controls.map(c => [c.name, c.does])]);

const sansRevision = a => JSON.stringify([a.choice, a.pieces.map(p => [p.name, p.does]),
  a.controls.map(c => [c.name, c.does])]);

// Reads the account until it has stayed the same and the app says it is
// idle (its last update left nothing to draw: no motion under way, no
// message travelling; the app draws only on change, issue 67): a view,
// the scene laid out from it and the panels sized to it can arrive
// updates apart.
async function settled(io) {
  let last = await io.read();
  for (let i = 0; i < 100; i++) {
    await io.sleep(100);
    const now = await io.read();
    if (!now || !last || shown(now) !== shown(last)) {
      last = now;
      continue;
    }
    if (now.idle) return now;
  }
  return last;
}

const percentile = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

// One step: what to do with the screen as it is, for each game. Returns
// { kind: 'tap' | 'drag' | 'key', spot, to, key, expect: 'move' | 'pick', what }
// or null (nothing to do now).
function choose(game, a, memo, r) {
  const moves = on(a.pieces, 'move');
  const picks = on(a.pieces, 'pick');
  const controls = on(a.controls, 'move');
  const control = name => controls.find(c => c.name === name);
  const tap = (spot, expect, what) => ({ kind: 'tap', spot, expect, what });
  if (memo.revision !== a.revision) {
    memo.revision = a.revision;
    memo.picked = [];
    memo.stage = 0;
  }
  const fresh = picks.filter(p => !memo.picked.includes(p.name));
  switch (game) {
    case 'forest': {
      const mine = named(moves, 'mine:');
      if (mine.length) {
        // A showdown: lay a card by tapping it, or by dragging it to the middle.
        const card = rand(r, mine);
        const middle = a.pieces.find(p => p.name === 'middle');
        memo.drag = !memo.drag;
        if (memo.drag && middle && !memo.keys) return { kind: 'drag', spot: card, to: middle, expect: 'move', what: 'drag a card to the middle' };
        return tap(card, 'move', 'lay a card');
      }
      const seats = named(moves, 'seat:');
      const takers = named(picks, 'mine:');
      const selected = /selected=\S/.test(a.choice);
      const nameable = named(picks, 'known:');
      if (selected) {
        const go = control('challenge');
        if (go) return { kind: 'tap', spot: go, expect: 'move', what: 'challenge' };
        if (nameable.length && !/named=\S/.test(a.choice)) return tap(rand(r, nameable), 'pick', 'name a card the table saw');
        // Nothing this card can take: put it back.
        memo.noChallenge = a.revision;
        const back = takers.find(p => p.name === memo.taker);
        if (back) return tap(back, 'pick', 'put the taking card back');
      }
      if (takers.length && memo.noChallenge !== a.revision && r() < 0.5) {
        const taker = rand(r, takers);
        memo.taker = taker.name;
        return tap(taker, 'pick', 'pick a taking card');
      }
      if (seats.length) return tap(rand(r, seats), 'move', 'ask a seat for a showdown');
      return null;
    }
    case 'wanning': {
      // What is chosen so far, as the screen says it.
      const bans = (a.choice.match(/bans=\[([^\]]*)\]/) || [, ''])[1].split(', ').filter(Boolean);
      const has = key => !new RegExp(`${key}=None`).test(a.choice);
      const instincts = named(picks, 'instinct:');
      const seats = named(picks, 'seat:').filter(s => s.name !== `seat:${a.seat}`);
      if (control('ban')) {
        const more = instincts.filter(i => !bans.includes(i.name.slice('instinct:'.length)));
        if (bans.length < 2 && more.length) return tap(rand(r, more), 'pick', 'choose an instinct to ban');
        return tap(control('ban'), 'move', 'ban');
      }
      if (instincts.length) {
        if (has('pick') && control('pick')) return tap(control('pick'), 'move', 'pick the instinct');
        return tap(rand(r, instincts), 'pick', 'choose an instinct to pick');
      }
      if (control('peek-pass')) {
        if (control('peek')) return tap(control('peek'), 'move', 'peek');
        if (seats.length) return tap(rand(r, seats), 'pick', 'choose whom to peek at');
        return tap(control('peek-pass'), 'move', 'pass the peek');
      }
      if (control('orders')) {
        if (!has('target') && seats.length) return tap(rand(r, seats), 'pick', 'choose a target');
        return tap(control('orders'), 'move', 'give the orders');
      }
      return null;
    }
    case 'crueler': {
      const beasts = named(moves, 'beast:');
      if (beasts.length) return tap(rand(r, beasts), 'move', 'choose a beast');
      const prey = moves.filter(m => /^(seat|card):/.test(m.name));
      if (control('pass') && (!prey.length || (!memo.keys && r() < 0.15))) return tap(control('pass'), 'move', 'pass');
      if (prey.length) return tap(rand(r, prey), 'move', 'prey on a seat');
      if (control('ready')) return tap(control('ready'), 'move', 'ready');
      return null;
    }
    case 'gene': {
      if (control('prepare') || /spawn=None/.test(a.choice) && named(picks, 'room:').length) {
        const rooms = named(picks, 'room:');
        if (/spawn=None/.test(a.choice) && rooms.length) return tap(rand(r, rooms), 'pick', 'pick a spawn room');
        if (control('prepare')) return tap(control('prepare'), 'move', 'spend the genes and take the room');
      }
      if (control('ready')) return tap(control('ready'), 'move', 'ready');
      const drop = named(moves, 'card:');
      if (drop.length) return tap(rand(r, drop), 'move', 'discard a card');
      const ballots = named(moves, 'ballot:');
      if (ballots.length) return tap(rand(r, ballots), 'move', 'vote for a floor');
      const rooms = named(moves, 'room:');
      if (rooms.length) return tap(rand(r, rooms), 'move', 'move to a room');
      const draws = controls.filter(c => /^(draw|take):/.test(c.name));
      if (draws.length && !memo.keys && r() < 0.7) return tap(rand(r, draws), 'move', 'draw a card');
      if (control('end-turn')) return tap(control('end-turn'), 'move', 'end the turn');
      return null;
    }
    default:
      throw new Error(`no policy for ${game}`);
  }
}

// Plays the seat until the game is over (or `maxMs` passes). Returns what
// was done: each kind of action and how often, the times from event to
// accepted view, and the clock's words seen while waited on.
// `aside(account)`: something else the person does when waited on (the
// talk panel, issue 70); true if it did something.
export async function playSeat(io, game, { seed = 1, maxMs = 10 * 60_000, keys = null, maxMoves = Infinity, aside = null } = {}) {
  const r = rng(seed);
  const memo = { picked: [], keys: !!keys };
  let moves = 0;
  let refused = null;
  let cancelled = false;
  const kinds = {};
  const latencies = [];
  const clocks = [];
  const settlements = [];
  const start = Date.now();
  let acted = 0;
  let inspected = null;
  for (;;) {
    if (moves >= maxMoves) break;
    if (Date.now() - start > maxMs) throw new Error(`[${io.name}] the game was not over after ${maxMs / 1000} s (${acted} actions)`);
    const a = await io.read();
    if (!a || a.screen !== 'table') { await io.sleep(200); continue; }
    // No move of this seat's is ever refused, even one the screen sent
    // after the step that led to it was judged done.
    if (refused === null) refused = a.refused;
    if (a.refused > refused) throw new Error(`[${io.name}] the table refused a move: ${a.refusal}`);
    if (a.over) break;
    // A round's scores over the table: dismissed like a person would.
    const cont = a.controls.find(c => c.name === 'continue' && c.does !== 'nothing');
    if (cont) {
      if (keys) await io.key(KEYS[keys].enter);
      else await io.tap(...centre(cont));
      await io.sleep(400);
      continue;
    }
    // A settlement playing out line by line (issue 71): read from the
    // account, then put away as a person would, by a tap (with the
    // keyboard too): Skip, then Continue once every line shows.
    const put = a.settlement && a.controls.find(c => c.name.startsWith('settlement-') && c.does !== 'nothing');
    if (put) {
      if (put.name === 'settlement-continue') settlements.push(a.settlement);
      await io.tap(...centre(put));
      await io.sleep(400);
      continue;
    }
    if (!a.to_act) { await io.sleep(150); continue; }
    const b = await settled(io);
    if (!b || !b.to_act || b.over) continue;
    if (!inspected && (keys || io.inspect)) {
      const spot = (keys ? on(b.pieces, 'pick').concat(on(b.pieces, 'move')) : b.pieces)
        .find(p => p.name.startsWith(INSPECT[game]));
      if (spot) {
        inspected = await inspect(io, keys, game, b, spot);
        continue;
      }
    }
    if (clocks.length < 40 && b.clock) clocks.push([Date.now(), b.clock]);
    if (aside && await aside(b)) continue;
    const step = choose(game, b, memo, r);
    if (!step) { await io.sleep(200); continue; }
    if (process.env.HANDS_DEBUG) io.log(`${step.what}: ${step.spot.name}`);
    const before = shown(b);
    if (keys) {
      // Esc drops a choice once, before it is made again and kept.
      if (step.expect === 'pick' && !cancelled && await escDrops(io, keys, b, step)) cancelled = true;
      await byKeys(io, keys, b, step);
    } else {
      const [x, y] = aim(step.spot, b.pieces);
      if (step.kind === 'drag') await io.drag(x, y, ...centre(step.to));
      else await io.tap(x, y);
    }
    // From the event (the click, the finger lifted, Enter) on.
    const t0 = Date.now();
    if (step.expect === 'pick') memo.picked.push(step.spot.name);
    // The screen must answer: a move accepted (a new revision, nothing
    // refused), a choice shown.
    let after = null;
    while (Date.now() - t0 < STEP_MS) {
      await io.sleep(50);
      const now = await io.read();
      if (!now) continue;
      if (now.refused > b.refused) throw new Error(`[${io.name}] ${step.what} (${step.spot.name}) was refused: ${now.refusal}`);
      // A move is taken once a newer view shows its effect: another seat's
      // move can bring a new revision first.
      const done = step.expect === 'move'
        ? now.revision > b.revision && (!now.to_act || sansRevision(now) !== sansRevision(b))
        : shown(now) !== before;
      if (done) { after = now; break; }
    }
    if (!after) {
      if (io.screenshot) await io.screenshot(`failed-${game}`);
      throw new Error(`[${io.name}] ${step.what}: ${step.kind} on ${step.spot.name} at ${centre(step.spot).map(Math.round)} changed nothing in ${STEP_MS / 1000} s; the screen: ${JSON.stringify(b).slice(0, 1500)}`);
    }
    if (step.expect === 'move') { latencies.push(Date.now() - t0); moves++; }
    kinds[step.what] = (kinds[step.what] || 0) + 1;
    acted++;
  }
  if (keys && !cancelled && game !== 'crueler') throw new Error(`[${io.name}] Esc was never tried: no choice came up`);
  if ((keys || io.inspect) && !inspected) throw new Error(`[${io.name}] no ${INSPECT[game]} piece was ever there to inspect`);
  return {
    actions: acted,
    esc: cancelled,
    kinds,
    p50_ms: percentile(latencies, 0.5),
    p95_ms: percentile(latencies, 0.95),
    clocks,
    inspected,
    // Each settlement's lines as the screen showed them, and the first.
    settlements: settlements.length,
    settled: settlements[0] || null,
    secs: Math.round((Date.now() - start) / 1000),
  };
}

// Reaches a piece with the arrow keys (the account names the focus) and
// uses it with Enter; a screen's main button is pressed with Enter alone.
async function byKeys(io, keys, a, step) {
  const k = KEYS[keys];
  if (a.controls.some(c => c.name === step.spot.name)) {
    if (!ENTER_PRESSES.includes(step.spot.name)) throw new Error(`[${io.name}] no key presses ${step.spot.name}`);
    await io.key(k.enter);
    return;
  }
  for (let i = 0; i < 60; i++) {
    const now = await io.read();
    if (now && now.focus === step.spot.name) {
      await io.key(k.enter);
      return;
    }
    await io.key(k.right);
    await io.sleep(90);
  }
  throw new Error(`[${io.name}] the arrow keys never reached ${step.spot.name}: ${JSON.stringify(await io.read()).slice(0, 800)}`);
}

// Makes the choice by keys, then Esc: the choice must be gone from the
// screen again. Returns whether it was tried.
async function escDrops(io, keys, a, step) {
  const k = KEYS[keys];
  await byKeys(io, keys, a, step);
  const t0 = Date.now();
  let made = null;
  while (Date.now() - t0 < STEP_MS) {
    await io.sleep(60);
    const now = await io.read();
    if (now && now.choice !== a.choice) { made = now; break; }
  }
  if (!made) return false;
  await io.key(k.escape);
  while (Date.now() - t0 < 2 * STEP_MS) {
    await io.sleep(60);
    const now = await io.read();
    if (now && now.choice === a.choice) return true;
  }
  throw new Error(`[${io.name}] Esc left the choice on the screen: ${made.choice}`);
}

// Inspects a piece as a person does (the mouse resting on it, a long
// press, or I on the focused piece), then puts the card away (the mouse
// moved off, a tap, Esc). The card must name the piece and say more than
// its name; putting it away must leave the table as it was (the closing
// tap taps nothing).
async function inspect(io, keys, game, a, spot) {
  const t0 = Date.now();
  if (keys) {
    const k = KEYS[keys];
    // The mouse off the table: resting on a piece it would show that
    // piece's card too.
    if (io.putAway) await io.putAway();
    for (let i = 0; i < 60 && (await io.read())?.focus !== spot.name; i++) {
      await io.key(k.right);
      await io.sleep(90);
    }
    await io.key(k.inspect);
  } else {
    await io.inspect(...aim(spot, a.pieces));
  }
  const cardShown = async within => {
    const from = Date.now();
    while (Date.now() - from < within) {
      await io.sleep(80);
      const now = await io.read();
      if (now?.inspect?.piece === spot.name) return now.inspect;
    }
    return null;
  };
  let card = await cardShown(STEP_MS + 2000);
  // What putting the card away must leave as it was.
  let before = a;
  // A page starved of frames can see a finger's press and its release in
  // one update, and take a long press for a tap (the choice it made
  // shows): a person presses again, longer.
  if (!card && !keys) {
    const now = await io.read();
    io.log(`inspecting ${spot.name}: no card after a press (the screen's choice: ${now?.choice}); pressing again, longer`);
    // The tap's choice stays made: putting the card away must leave the
    // table as it is now.
    if (now) before = now;
    await io.inspect(...aim(spot, (now || a).pieces), 2000);
    card = await cardShown(STEP_MS);
  }
  if (!card) {
    if (io.screenshot) await io.screenshot(`failed-inspect-${game}`);
    throw new Error(`[${io.name}] inspecting ${spot.name} showed no card: ${JSON.stringify(await io.read()).slice(0, 800)}`);
  }
  const ms = Date.now() - t0;
  const lines = card.text.split('\n');
  if (lines.length < 3) throw new Error(`[${io.name}] the card of ${spot.name} says too little: ${card.text}`);
  // The picture a moment later: the frame that shows the card can follow
  // the account that tells of it.
  await io.sleep(700);
  if (io.screenshot) await io.screenshot(`inspect-${game}-${io.name.replace(/\W+/g, '-')}-${keys ? 'keys' : 'pointer'}`);
  if (keys) await io.key(KEYS[keys].escape);
  else await io.putAway(card);
  const t1 = Date.now();
  let gone = null;
  while (!gone && Date.now() - t1 < STEP_MS) {
    await io.sleep(80);
    const now = await io.read();
    if (now && !now.inspect) gone = now;
  }
  if (!gone) throw new Error(`[${io.name}] the card of ${spot.name} stayed up`);
  if (gone.refused !== before.refused || gone.choice !== before.choice) {
    throw new Error(`[${io.name}] putting the card away did something: choice ${before.choice} -> ${gone.choice}, refused ${before.refused} -> ${gone.refused}`);
  }
  io.log(`inspected ${spot.name} in ${ms} ms: ${lines[0]} (${lines.length} lines)`);
  return { piece: spot.name, ms, title: lines[0], lines: lines.length };
}
