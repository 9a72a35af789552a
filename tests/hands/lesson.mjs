// Plays a game's "Learn to play" lesson (issue 38) the way a newcomer
// does: from the game picker's button, each step by pointing where the
// step points (the screen's account names what its lesson marks,
// `lesson.point`, `*` standing for any part) with real input events
// through the caller's `io` (as policy.mjs: Playwright's mouse or finger,
// or X events), until the lesson's summary shows; then its button to a
// real game, which must open the game's set-up screen.
//
// Each step must be taken (the lesson moves on, nothing refused) within
// STEP_MS of its last touch once the step shows.

import { aim, STEP_MS } from './policy.mjs';

// A lesson's pattern against a name of the account (`*`: any part).
export function matches(pattern, name) {
  const parts = pattern.split('*').map(p => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(name);
}

const sleep = (io, ms) => io.sleep(ms);

async function until(io, what, test, ms = 60_000) {
  const t0 = Date.now();
  for (;;) {
    const a = await io.read();
    const got = a && test(a);
    if (got) return got;
    if (Date.now() - t0 > ms) {
      if (io.screenshot) await io.screenshot(`failed-lesson-${io.name.replace(/\W+/g, '-')}`);
      throw new Error(`[${io.name}] lesson: never ${what}: ${JSON.stringify(a && { screen: a.screen, lesson: a.lesson, refusal: a.refusal, hint: a.hint }).slice(0, 700)}`);
    }
    await sleep(io, 150);
  }
}

// Where a name is on the screen now: a control, or a piece (aimed where
// nothing covers it), if it can be used.
function find(a, pattern) {
  const control = a.controls.find(c => matches(pattern, c.name) && c.does !== 'nothing');
  if (control) return [control.x + control.w / 2, control.y + control.h / 2, control.name, 'control'];
  const piece = a.pieces.find(p => matches(pattern, p.name) && p.does !== 'nothing');
  if (piece) return [...aim(piece, a.pieces), piece.name, piece.does];
  return null;
}

// Waits until what the pattern names stands still where the screen draws
// it (the same spot in two readings of an idle app, whose last update left
// nothing to draw), as a person's eye waits for a card
// to land before touching it: a page's first frame is laid out before the
// window has its size, and a card a bot just took is still moving into
// its hand. Returns the account.
async function steady(io, pattern, ms = 8_000) {
  const spot = a => { const at = a && find(a, pattern); return at && `${Math.round(at[0])},${Math.round(at[1])}`; };
  let a = await io.read();
  let was = spot(a);
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    await sleep(io, 120);
    const b = await io.read();
    const now = spot(b);
    if (!now || now !== was) {
      [a, was] = [b, now];
      continue;
    }
    a = b;
    if (b.idle) return a;
  }
  return a;
}

// A control below the window's bottom (a phone's picker) is brought up
// as a person would: a finger's drag up the screen, or the mouse wheel
// where the io has one (the desktop's window).
async function inView(io, pattern) {
  const [w, h] = io.viewport ? await io.viewport() : [1280, 720];
  for (let i = 0; i < 14; i++) {
    const a = await io.read();
    const at = a && find(a, pattern);
    if (at && at[1] < h - 8) return a;
    // Nothing is dragged before the screen has drawn its controls.
    if (!a?.controls?.some(c => /^(game|learn):/.test(c.name)) && i < 6) {
      await sleep(io, 500);
      continue;
    }
    if (io.wheel) await io.wheel(w / 2, h * 0.6, 3);
    else await io.drag(w / 2, h * 0.75, w / 2, h * 0.3);
    await sleep(io, 400);
  }
  return io.read();
}

// From the title screen: the picker, the game's lesson, every step, the
// summary and its real game. Returns the steps taken and the time each
// took from its last touch to the next step.
export async function learn(io, game, { shots = {} } = {}) {
  const log = t => io.log(`lesson ${game}: ${t}`);
  const tapName = async (a, pattern) => {
    const at = find(a, pattern);
    if (!at) return false;
    await io.tap(at[0], at[1]);
    return at[2];
  };
  // A tap the page missed (it arrived between two slow frames of a
  // software renderer) is tapped again, as a person would.
  const tapUntil = async (pattern, what, test) => {
    for (let i = 0; ; i++) {
      const a = await steady(io, pattern);
      const at = find(a, pattern);
      await tapName(a, pattern);
      try {
        return await until(io, what, test, i < 3 ? 4_000 : 60_000);
      } catch (e) {
        if (i >= 3) throw e;
        // Where it was tapped and where the screen now has it: a missed
        // tap is told from a moved button.
        const now = find(await io.read(), pattern);
        log(`tapped ${pattern} again (it was at ${at && at.slice(0, 2).map(Math.round)}, now at ${now && now.slice(0, 2).map(Math.round)}, screen ${(await io.read())?.screen})`);
      }
    }
  };
  // From the title; or, after a lesson before it on the same page, from
  // that lesson's real-game set-up screen, back to the picker.
  const start = await until(io, 'the title screen', b => (
    (b.screen === 'title' && b.controls.some(c => c.name === 'play-local'))
    || (b.screen === 'setup' && find(b, 'back'))) && b);
  if (start.screen === 'setup') await tapUntil('back', 'the picker', b => b.screen === 'picker' && b);
  else await tapUntil('play-local', 'the picker', b => b.screen === 'picker' && b);
  // On a phone the game's card may be below the fold: brought up first.
  await inView(io, `learn:${game}`);
  let a = await tapUntil(`learn:${game}`, 'at the lesson\'s table', b => b.screen === 'table' && b.lesson && b);
  const steps = [];
  let shot = 0;
  for (;;) {
    a = await until(io, 'a step of the learner\'s, or the summary',
      b => b.lesson && (b.lesson.done || (b.lesson.say && b.to_act !== undefined)) && b, 3 * 60_000);
    const lesson = a.lesson;
    if (lesson.done) break;
    const step = lesson.step;
    const refused = a.refused;
    log(`step ${step}/${lesson.steps}: ${lesson.say.en.slice(0, 90)} [${lesson.point.join(', ')}]`);
    let last = 0;
    for (const pattern of lesson.point) {
      // The next thing to touch shows once the last one took effect (a
      // list opened, a card picked).
      let b = null;
      for (let look = 0; !(b && find(b, pattern)); look++) {
        if (look === 3) throw new Error(`[${io.name}] lesson ${game}, step ${step}: "${pattern}" never stood still on the screen`);
        await until(io, `"${pattern}" usable on the screen (step ${step})`, c => find(c, pattern) && c, STEP_MS * 2);
        b = await steady(io, pattern);
      }
      // The step's picture once what it points at stands still (a picture
      // at once can show the frame before the table).
      if (shots[step] && io.screenshot && pattern === lesson.point[0]) await io.screenshot(`${shots[step]}`);
      const kind = find(b, pattern)[3];
      let name = await tapName(b, pattern);
      last = Date.now();
      log(`  touched ${name}`);
      // A touch must show (the screen's choice, its controls, the table,
      // the lesson's step change); one the page missed, between two slow
      // frames of a software renderer, is made again, after 5 s (a page
      // under load draws a frame a second: a touch made again too soon
      // would undo the first, a card picked and put back). A touch that sends
      // the move is checked below (made twice, it would be refused).
      const shows = c => [c.choice, c.revision, c.lesson?.step, c.controls.map(k => k.name + k.does).join()].join('|');
      const last_pattern = pattern === lesson.point[lesson.point.length - 1];
      for (let again = 0; !last_pattern && kind !== 'move' && again < 2; again++) {
        const t0 = Date.now();
        let c = await io.read();
        while (c && shows(c) === shows(b) && Date.now() - t0 < 5_000) {
          await sleep(io, 150);
          c = await io.read();
        }
        if (!c || shows(c) !== shows(b)) break;
        name = await tapName(c, pattern);
        log(`  touched ${name} again`);
      }
      await sleep(io, 250);
    }
    const taken = b => {
      if (b.refused > refused) throw new Error(`[${io.name}] lesson ${game}, step ${step}: refused: ${b.refusal}`);
      return b.lesson && (b.lesson.done || b.lesson.step > step || !b.lesson.say) && b;
    };
    // The last touch sends the move: one the page missed is made again
    // (a move sent twice is refused, and fails the test).
    let moved = null;
    for (let again = 0; !moved && again < 2; again++) {
      try {
        moved = await until(io, `step ${step} taken`, taken, 6_000);
      } catch (e) {
        if (String(e.message).includes('refused')) throw e;
        const c = await io.read();
        const pattern = lesson.point[lesson.point.length - 1];
        if (!c || taken(c) || !find(c, pattern)) continue;
        log(`  touched ${await tapName(c, pattern)} again`);
      }
    }
    moved = moved || await until(io, `step ${step} taken`, taken, STEP_MS + 10_000);
    steps.push({ step, point: lesson.point, ms: Date.now() - last });
    shot++;
    void moved;
  }
  log(`done: ${a.lesson.summary.length} things to remember`);
  a = await until(io, 'the summary\'s real-game button', b => find(b, 'lesson-real-game') && b);
  if (shots.done && io.screenshot) {
    // The mouse off the table, where it rests on no card.
    if (io.putAway) await io.putAway();
    await sleep(io, 400);
    await io.screenshot(shots.done);
  }
  await tapUntil('lesson-real-game', 'the set-up screen of a real game', b => b.screen === 'setup' && b);
  log('a real game\'s set-up screen is open');
  return { steps: steps.length, of: a.lesson.steps, slowest_ms: Math.max(...steps.map(s => s.ms)) };
}
