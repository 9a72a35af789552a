// The party test (issues 66, 67, 68): people on their own phones at one
// table, as at a party. Three phone pages (touch, a phone's user agent;
// one in Chinese) and a headless client (`foodweb client`) sit at one
// Wanning Beast Chess table served by `foodweb serve`; each page's seat is
// played through its screens by a bot (?autoplay=join).
//
// - Before the table: an untouched title and a lobby waiting for friends
//   draw nothing (at most 2 updates a second); each person types their
//   name on the phone's keyboard (小陈 through an IME), and one chooses a
//   game by a tap on its tab, whole on a 390 px screen.
// - The headless client opens the table and starts the game once the
//   phones sit; every page shows every person by the name they typed.
// - Mid-game one phone reloads (as a phone's browser does to a page in
//   the background) and another is closed for longer than the stand-in's
//   delay and opened again from its link: each must be back in its own
//   seat by itself within 10 s of its title, with its log and notes
//   there again, and its next move taken. While the closed one is away,
//   the others' screens show its seat away. A third leaves by choice
//   (asked first) and takes the seat back from the lobby, by taps.
// - At the end, one phone opens its seat's replay over the WebSocket from
//   the game-over summary, another from the lobby's table list.
//
// Run by tools/party.sh (and so by .ci/run):
//
//   node wasm/tests/party.mjs URL OUT TAKEOVER_SECS FOODWEB_BINARY TOKEN_PORT
//
// (URL as `foodweb serve` prints it, with its `ws=` and `key=`.)
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import {
  attach, chooseGame, controlOf, data, idleCost, open, press, pressUntil, replayFromLobby,
  replayFromSummary, shot, start, toTitle, typeName, waitFor,
} from './pages.mjs';

const [base, out = '/var/tmp/foodweb-party', takeover = '5', bin, tokenPort] = process.argv.slice(2);
const takeoverSecs = Number(takeover);
mkdirSync(out, { recursive: true });
// How soon a page that reopened must be back in its seat, from its title.
const BACK_WITHIN_MIN = 10 / 60;
const report = { returns: {}, pages: {} };
const problems = [];
const browser = await start({ base, out, problems, report });
let headless = null;

// A person's phone, at the title: its own browser profile (its saved
// seats stay in its local storage through a reload and a closed page).
// Its bot takes as long over a move as a person does (8 s), and plays at
// random, as does the fourth seat: the game lasts past every return and
// the move after it. (Each return holds a round until the page moves
// again; with the best bots the game's last round came a second after the
// last return's move.)
const phone = (name, locale) => open(name, 'phone', { autoplay: 'join', think_ms: 8000, bot: 'random' }, locale);

// The fourth seat, and the table's creator: it starts the game once the
// three phones sit, and plays to the end.
function fourthSeat(how = [
  '--name', 'Headless', '--create', 'wanning', '--seats', '4', '--people', '4', '--bots', 'random',
  '--play', 'random', '--round-secs', '30', '--seed', '7', '--play-again', '1',
]) {
  const url = new URL(base);
  const args = [
    'client', '--server', `127.0.0.1:${url.searchParams.get('ws')}`, '--ws', '--token-port', tokenPort,
    '--server-key', url.searchParams.get('key'), '--timeout-secs', '3600', ...how,
  ];
  const log = createWriteStream(`${out}/client.log`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  child.on('exit', code => { if (code) problems.push(`the headless client stopped with ${code} (${out}/client.log)`); });
  return child;
}

// What the seat has: the log, its notes, its moves taken.
async function held(p) {
  const n = async k => Number(await data(p, k)) || 0;
  return { seat: await data(p, 'seat'), log: await n('log'), notes: await n('notes'), accepted: await n('accepted'), round: await n('round') };
}

// Its next move taken: a move of the page's own accepted after the `n`
// it had, or the game over first with this seat never waited on (a seat
// out of the game, or a last round that did not need it). A seat the
// table waited on (`to_act`) must have moved.
async function nextMove(p, n, what) {
  const t0 = Date.now();
  let asked = false;
  while (Date.now() - t0 < 3 * 60_000) {
    const s = await p.page.evaluate(() => {
      const d = document.body.dataset;
      let a = null;
      try { a = JSON.parse(d.reach); } catch {}
      return { accepted: Number(d.accepted) || 0, over: d.over === '1', toAct: !!(a && a.to_act) };
    });
    if (s.accepted > n) {
      console.log(`[${p.name}] ${what}`);
      return { moved: true, ms: Date.now() - t0 };
    }
    asked ||= s.toAct;
    if (s.over) {
      if (asked) throw new Error(`[${p.name}] ${what}: waited on, it never moved before the game ended`);
      console.log(`[${p.name}] ${what}: none, the game ended first and never waited on it`);
      return { moved: false, ms: Date.now() - t0 };
    }
    await p.page.waitForTimeout(250);
  }
  await shot(p, `failed-${p.name}`);
  throw new Error(`[${p.name}] never ${what}`);
}

// Issue 69: "Clocks disagree by 20-30 s". Every page's clock words read
// at one moment (the reads together take a few hundred milliseconds), and
// how far apart their seconds are: recorded in the report (issue 69 makes
// it a check).
// A page just back in its seat shows the table before the view with its
// deadline has come (a few hundred milliseconds on a loaded machine): the
// read waits, up to 5 s, until every page shows a clock, and records how
// long that took.
async function clocksRead(people, when) {
  const shown = Date.now();
  while (Date.now() - shown < 5_000) {
    const all = await Promise.all(people.map(p => p.page.evaluate(() => {
      try { return !!JSON.parse(document.body.dataset.reach).clock; } catch { return false; }
    })));
    if (all.every(Boolean)) break;
    await new Promise(r => setTimeout(r, 200));
  }
  const t0 = Date.now();
  const words = await Promise.all(people.map(p => p.page.evaluate(() => {
    try { return JSON.parse(document.body.dataset.reach).clock; } catch { return ''; }
  })));
  const secs = words.map(t => { const m = /(\d+):(\d\d)/.exec(t || ''); return m ? Number(m[1]) * 60 + Number(m[2]) : null; });
  const known = secs.filter(s => s !== null);
  const spread = known.length > 1 ? Math.max(...known) - Math.min(...known) : null;
  const read = { when, words, spread_s: spread, read_ms: Date.now() - t0, shown_ms: t0 - shown };
  console.log(`clocks ${when}: ${JSON.stringify(words)}, ${spread} s apart (every page showing one ${t0 - shown} ms after the read began)`);
  (report.clocks ||= []).push(read);
  // Issue 69: "the pages' clock texts agree within 1 s at three moments"
  // (each text in whole seconds, read within the same moment).
  if (known.length < 2) {
    const over = await Promise.all(people.map(p => data(p, 'over')));
    const why = over.includes('1') ? ' (the game had ended)' : '';
    throw new Error(`clocks ${when}: fewer than two pages show a clock${why}: ${JSON.stringify(words)}`);
  }
  if (spread > 1) throw new Error(`clocks ${when}: ${spread} s apart: ${JSON.stringify(words)}`);
}

// Back in its own seat by itself after `away` (a reload, or a page closed
// and opened again): within 10 s of the title, the log and notes it had
// there again, and a move of its own taken after.
async function backInSeat(p, before, away, t0 = Date.now()) {
  await away();
  await waitFor(p, 'at the title again', () => !!window.__titleAt, 3);
  const titleAt = Date.now();
  await waitFor(p, `back in seat ${before.seat} by itself`,
    s => document.body.dataset.screen === 'table' && document.body.dataset.seat === s, BACK_WITHIN_MIN, before.seat);
  const seatAt = Date.now();
  p.seatedAgainAt = seatAt;
  await waitFor(p, `with its log (${before.log}) and notes (${before.notes}) again`,
    b => Number(document.body.dataset.log) >= b.log && Number(document.body.dataset.notes) >= b.notes, 0.5, before);
  const move = await nextMove(p, 0, 'a move of its own taken');
  await shot(p, `party-back-${p.name}`);
  const back = { from_title_ms: seatAt - titleAt, from_leaving_ms: seatAt - t0, move_ms: move.moved ? move.ms : null, before, after: await held(p) };
  console.log(`[${p.name}] back in seat ${before.seat} ${back.from_title_ms} ms after its title (${back.from_leaving_ms} ms after it went)`);
  return back;
}

// Issue 68: "The table list does not say that a bot is playing someone's
// seat". The others' screens show the seat away (on its plate) soon after
// its page closed; each screen is kept, in its own language.
async function awayShown(others, seat, closed) {
  const shown = {};
  for (const p of others) {
    await waitFor(p, `showing seat ${seat} away`, s => (document.body.dataset.away || '').split(',').includes(s), 0.25, seat);
    shown[p.name] = Date.now() - closed;
    await p.page.waitForTimeout(500);
    await shot(p, `party-away-${p.name}`);
  }
  return shown;
}

// Issue 68: "'Leave table' mid-game asks nothing and the seat cannot be
// taken back". By taps: "Leave table" asks first; leaving, the lobby
// shows the table playing with a seat away and offers the seat back; the
// others' screens show it away; taking it back puts the page in its own
// seat again, and its next move is taken.
async function leaveAndTakeBack(p, others = []) {
  const [seat, table, accepted] = [await data(p, 'seat'), await data(p, 'table'), Number(await data(p, 'accepted'))];
  const t0 = Date.now();
  await pressUntil(p, 'table-leave', true, 'no "Leave table" at the table', async () => !!(await controlOf(p, 'table-leave-yes')));
  await p.page.waitForTimeout(500);
  await shot(p, `party-leave-ask-${p.name}`);
  await pressUntil(p, 'table-leave-yes', true, 'the question never let it leave', async () => (await data(p, 'screen')) === 'lobby');
  await waitFor(p, 'offered its seat back in the lobby', name => {
    try { return JSON.parse(document.body.dataset.reach).controls.some(c => c.name === name); } catch { return false; }
  }, 0.5, `lobby-take-back-${table}`);
  await p.page.waitForTimeout(500);
  await shot(p, `party-lobby-take-back-${p.name}`);
  const shown = others.length ? await awayShown(others, seat, t0) : null;
  await pressUntil(p, `lobby-take-back-${table}`, true, 'taking the seat back changed nothing',
    async () => (await data(p, 'screen')) === 'table' && (await data(p, 'seat')) === seat);
  const backMs = Date.now() - t0;
  p.seatedAgainAt = Date.now();
  const move = await nextMove(p, accepted, 'a move of its own taken after taking its seat back');
  console.log(`[${p.name}] left seat ${seat} and took it back (${backMs} ms from "Leave table")`);
  return { seat, back_ms: backMs, away_shown_ms: shown, move_ms: move.moved ? move.ms : null };
}

// Issue 68: "or the title's first choice is 'Back to your table'". A page
// opened again while its server cannot be reached (its WebSocket refused
// here) waits in the lobby; its person goes back to the title, where
// "Back to your table" comes first; once the server answers again, one
// tap on it puts the page back in its own seat.
async function backToYourTable(p) {
  const seat = await data(p, 'seat');
  let refuse = true;
  await p.page.routeWebSocket(/.*/, ws => (refuse ? ws.close() : ws.connectToServer()));
  const t0 = Date.now();
  await p.page.reload();
  await waitFor(p, 'at the title again', () => !!window.__titleAt, 3);
  await waitFor(p, 'in the lobby, its server out of reach', () => document.body.dataset.screen === 'lobby', 0.5);
  await pressUntil(p, 'lobby-back', true, 'no way back to the title', async () => (await data(p, 'screen')) === 'title');
  const back = await p.page.waitForFunction(() => {
    try { return JSON.parse(document.body.dataset.reach).controls.find(c => c.name === 'menu-back-to-table'); } catch { return null; }
  }, null, { timeout: 15_000, polling: 250 }).then(h => h.jsonValue());
  const [, playY] = (await data(p, 'targetPlayHere')).split(',').map(Number);
  if (!(back.y < playY)) throw new Error(`[${p.name}] "Back to your table" is not the title's first choice: ${JSON.stringify(back)}, "Play here" at y ${playY}`);
  await p.page.waitForTimeout(500);
  await shot(p, `party-title-back-${p.name}`);
  refuse = false;
  await pressUntil(p, 'menu-back-to-table', true, '"Back to your table" changed nothing',
    async () => (await data(p, 'screen')) === 'table' && (await data(p, 'seat')) === seat);
  const ms = Date.now() - t0;
  console.log(`[${p.name}] back in seat ${seat} by "Back to your table", ${ms} ms after the page reopened out of its server's reach`);
  return { seat, ms };
}

// Before the table: names typed on each phone, a game chosen by a tap,
// and what an idle title and an idle lobby cost.
async function beforeTheTable(ann, bo, chen) {
  report.idle = { titlePhone: await idleCost(bo) };
  const toLobby = async p => {
    await press(p, 'play-here');
    await waitFor(p, 'in the lobby', () => document.body.dataset.screen === 'lobby', 1);
    await waitFor(p, 'welcomed by the server', () => !!document.body.dataset.server, 1);
  };
  await toLobby(ann);
  report.typed = [await typeName(ann, 'Ann')];
  report.lobbyGame = await chooseGame(ann, 'wanning');
  // Issue 67: a phone waiting in the lobby for its friends draws nothing.
  // (The lobby after its first clock readings: five in its first 5 s.)
  await ann.page.waitForTimeout(3_000);
  report.idle.lobbyPhone = await idleCost(ann);
  await toLobby(bo);
  report.typed.push(await typeName(bo, 'Bo'));
  await toLobby(chen);
  report.typed.push(await typeName(chen, '', '小陈', 'xiaochen'));
}

// Issue 69: "at the end every page presses "Play again" and the same
// names sit at the new table" (the headless seat pressed it as its game
// ended: `--play-again 1`). The first page to press shows who is back
// while the others come; once all are, the next game starts by itself.
async function playAgain(people) {
  const before = Object.fromEntries(await Promise.all(people.map(async p => [p.name, await data(p, 'seat')])));
  const old = await data(people[0], 'table');
  const t0 = Date.now();
  const pressed = async p => {
    await pressUntil(p, 'summary-play-again', p.touch, 'no "Play again" on the game-over summary',
      async () => (await data(p, 'table')) !== old);
    return Date.now() - t0;
  };
  const [first, ...rest] = people;
  const firstMs = await pressed(first);
  await first.page.waitForTimeout(600);
  await shot(first, `party-again-room-${first.name}`);
  const restMs = await Promise.all(rest.map(pressed));
  const next = await data(first, 'table');
  for (const p of people) {
    await waitFor(p, `in the next game at table ${next}, seat ${before[p.name]}`, ([t, s]) => {
      const b = document.body.dataset;
      return b.table === t && b.seat === s && b.started === '1' && b.screen === 'table' && b.over !== '1';
    }, 0.5, [next, before[p.name]]);
  }
  const startedMs = Date.now() - t0;
  await seatedByName(people, '-again');
  console.log(`"Play again": table ${old} -> ${next}, pressed at ${[firstMs, ...restMs]} ms, the next game on every page ${startedMs} ms after the first press`);
  return { old: Number(old), next: Number(next), pressed_ms: [firstMs, ...restMs], started_ms: startedMs };
}

// Issue 66: "Bob and 小陈 both sat as 'Player'". Each page shows each
// seat by the name its person gave.
async function seatedByName(people, when = '') {
  for (const p of people) {
    await waitFor(p, 'seated at the table', () => document.body.dataset.screen === 'table' && !!document.body.dataset.seat, 3);
  }
  const seats = await Promise.all(people.map(p => data(p, 'seat')));
  if (new Set(seats).size !== seats.length) throw new Error(`two pages in one seat: ${seats}`);
  report.seats = Object.fromEntries(people.map((p, i) => [p.name, seats[i]]));
  const names = ['Ann', 'Bo', '小陈', 'Headless'];
  for (const p of people) {
    await waitFor(p, 'showing every name at the table', n => {
      const shown = (document.body.dataset.names || '').split(' | ');
      return n.every(x => shown.includes(x));
    }, 1, names);
    await shot(p, `party-table${when}-${p.name}`);
  }
}

// The longer party, outside CI (`tools/party.sh --long`): Gene Survival,
// all four seats on phone pages (one in Chinese), the first page's person
// opening the table from the lobby; two pages reload at different moments,
// and each is back in its seat; the whole game is played to its end on
// every page.
// `PARTY_PAGES=3` (a machine that takes three pages at once): the fourth
// seat is a headless client.
async function longParty() {
  const think = { think_ms: 3000 };
  const people = [
    await open('ann', 'phone', { autoplay: 'host', game: 'gene', people: 4, quickest: 1, name: 'Ann', ...think }, 'en-GB'),
    await open('bo', 'phone', { autoplay: 'join', name: 'Bo', ...think }, 'en-GB'),
    await open('chen', 'phone', { autoplay: 'join', name: '小陈', ...think }, 'zh-CN'),
  ];
  if (Number(process.env.PARTY_PAGES || 4) >= 4) {
    people.push(await open('dee', 'phone', { autoplay: 'join', name: 'Dee', ...think }, 'en-GB'));
  }
  for (const p of people) await press(p, 'play-here');
  if (people.length < 4) {
    await waitFor(people[0], 'at its own table', () => !!document.body.dataset.seat, 2);
    headless = fourthSeat(['--name', 'Dee', '--play', 'reasoning']);
  }
  for (const p of people) {
    await waitFor(p, 'seated at the table', () => document.body.dataset.screen === 'table' && !!document.body.dataset.seat, 3);
  }
  report.seats = Object.fromEntries(await Promise.all(people.map(async p => [p.name, await data(p, 'seat')])));
  const [, bo, chen] = people;
  for (const p of people) await waitFor(p, 'its first move taken', () => Number(document.body.dataset.accepted) >= 1, 5);
  report.returns.reload = await backInSeat(bo, await held(bo), () => bo.page.reload());
  await waitFor(chen, 'a later round', r => Number(document.body.dataset.round) > r, 10, Number(await data(chen, 'round')));
  report.returns.reloadLater = await backInSeat(chen, await held(chen), () => chen.page.reload());
  for (const p of people) await waitFor(p, 'at the end of the game', () => document.body.dataset.over === '1', 30);
  for (const p of people) await shot(p, `party-long-over-${p.name}`);
}

// The party of CI.
async function party() {
  const [ann, bo, chen] = [await phone('ann', 'en-GB'), await phone('bo', 'en-GB'), await phone('chen', 'zh-CN')];
  const people = [ann, bo, chen];
  await beforeTheTable(ann, bo, chen);
  headless = fourthSeat();
  await seatedByName(people);
  // A few moves into the game: every page's first move taken.
  await clocksRead(people, 'at the first orders');
  for (const p of people) await waitFor(p, 'its first move taken', () => Number(document.body.dataset.accepted) >= 1, 3);

  // Ann's and 小陈's pages reopen while the server is out of their reach.
  report.backToYourTable = await Promise.all([backToYourTable(ann), backToYourTable(chen)]);
  await clocksRead(people, 'after two pages came back');

  // At once, as at a party: Bo's page is closed, longer than the
  // stand-in's delay, and opened again from its link in the same browser;
  // once the others show Bo's seat away, Ann's phone reloads the page
  // (issue 68: "Phone B reloaded mid-game: the page came back on the title
  // with no word of the game") and 小陈 leaves by choice and takes the seat
  // back from the lobby. (One after another, they took more rounds than a
  // game of Wanning may last.)
  const boSeat = await data(bo, 'seat');
  const boBefore = await held(bo);
  const closed = Date.now();
  // The third reading: the moment the last of the three has its seat
  // again, before their moves after (with random play the game may end
  // soon after the last return).
  for (const p of people) delete p.seatedAgainAt;
  const clocksBack = (async () => {
    while (!people.every(p => p.seatedAgainAt)) {
      if (Date.now() - closed > 4 * 60_000) throw new Error('clocks after the returns: the three pages never all had their seats again');
      await new Promise(r => setTimeout(r, 100));
    }
    await clocksRead(people, 'after the returns');
  })().then(() => null, e => e);
  await bo.page.close();
  report.awayShown = await awayShown([ann, chen], boSeat, closed);
  [report.returns.closed, report.returns.reload, report.leftAndBack] = await Promise.all([
    backInSeat(bo, boBefore, async () => {
      await new Promise(r => setTimeout(r, closed + (takeoverSecs + 3) * 1000 - Date.now()));
      await attach(bo, await bo.context.newPage());
      await toTitle(bo);
    }, closed),
    backInSeat(ann, await held(ann), () => ann.page.reload()),
    leaveAndTakeBack(chen),
  ]);
  const unread = await clocksBack;
  if (unread) throw unread;
  for (const p of [ann, chen]) {
    await waitFor(p, `no longer showing seat ${boSeat} away`, s => !(document.body.dataset.away || '').split(',').includes(s), 0.5, boSeat);
  }

  // The game played to its end; its replay opened over the wire, from the
  // game-over summary; "Play again" on every page; then the first game's
  // replay from the lobby.
  for (const p of people) await waitFor(p, 'at the end of the game', () => document.body.dataset.over === '1', 6);
  const first = Number(await data(ann, 'table'));
  const fromSummary = await replayFromSummary(chen);
  await pressUntil(chen, 'replay-close', true, 'no way out of the replay', async () => !!(await controlOf(chen, 'summary-play-again')));
  report.again = await playAgain(people);
  report.replays = { fromSummary, fromLobby: await replayFromLobby(ann, first) };
  const moved = [report.returns.reload, report.returns.closed, report.leftAndBack].filter(r => r.move_ms !== null);
  if (!moved.length) throw new Error('no page back in its seat moved again before the game ended (every one out of the game?)');
}

try {
  await (process.env.PARTY_LONG ? longParty() : party());
  if (problems.length) throw new Error(problems.join('\n'));
  writeFileSync(`${out}/party-report.json`, JSON.stringify(report, null, 1));
  console.log(`party test passed: ${JSON.stringify(report.returns, ['reload', 'reloadLater', 'closed', 'from_title_ms', 'from_leaving_ms', 'move_ms'])}`);
} catch (e) {
  writeFileSync(`${out}/party-report.json`, JSON.stringify({ ...report, error: String(e), problems }, null, 1));
  console.log(`party test failed: ${e.message}\n${problems.join('\n')}`);
  process.exitCode = 1;
} finally {
  headless?.kill();
  await browser.close();
}
