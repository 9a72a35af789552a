// The keyboard's share of the desktop test: a new table of the game, this
// seat played by keys alone (tests/hands/policy.mjs, `keys`) for a few
// moves: pieces reached with the arrow keys and used with Enter, the
// screen's main button pressed with Enter, a choice dropped with Esc.
import { playSeat } from './policy.mjs';

export async function keyChecks(io, game) {
  return playSeat(io, game, { seed: 5, keys: 'xdotool', maxMoves: 5, maxMs: 3 * 60_000 });
}
