//! What a Crueler World table sounds (issue 39), from the seat's views:
//! the die, a duel's start (public: 「裁判宣布决斗」) and each of its throws
//! (to its two sides only, who see them), a predator's win, a player out.
//! Who is asked is told to the asked seat alone, so nothing sounds when
//! another is asked or answers.

use foodweb_rules::crueler::{CruelerGame, CruelerPhase, CruelerView, Outcome};

use crate::client::sound::{Cue, Hear};

impl Hear for CruelerGame {
    const CUES: &'static [Cue] = &[Cue::Die, Cue::Clash, Cue::Capture, Cue::Death];

    fn cues(before: &CruelerView, after: &CruelerView, out: &mut Vec<Cue>) {
        let thrown = |v: &CruelerView| v.die.map(|d| (d, v.round, v.phase_no));
        if thrown(after).is_some() && thrown(after) != thrown(before) {
            out.push(Cue::Die);
        }
        let throws = |v: &CruelerView| v.duel.as_ref().map_or(0, |d| d.throws.len());
        if (after.dueling && !before.dueling) || throws(after) > throws(before) {
            out.push(Cue::Clash);
        }
        if after.history.len() > before.history.len()
            && after.history[before.history.len()..]
                .iter()
                .any(|o| matches!(o, Outcome::Duel { predator, winner, .. } if predator == winner))
        {
            out.push(Cue::Capture);
        }
        let living = |v: &CruelerView| v.alive.iter().filter(|a| **a).count();
        if living(after) < living(before) {
            out.push(Cue::Death);
        }
    }

    fn fresh(view: &CruelerView) -> bool {
        view.round <= 1
            && view.phase_no <= 1
            && view.history.is_empty()
            && matches!(
                view.phase,
                CruelerPhase::Interlude | CruelerPhase::Predation
            )
    }

    fn clock(view: &CruelerView) -> (u64, Option<u64>) {
        (view.now_ms, view.my_deadline_ms)
    }
}

#[cfg(test)]
mod tests {
    use foodweb_rules::crueler::CruelerGame;
    use foodweb_rules::table::TableConfig;

    use crate::client::sound::tests::every_moment_sounds;

    /// Issue 39: every moment Crueler lists sounds in whole bot games, and
    /// a seat's view that did not change (another seat asked, or choosing
    /// its beast) sounds nothing (the harness).
    #[test]
    fn every_crueler_moment_sounds_and_nothing_unseen_does() {
        let configs = (1..=3).map(|seed| TableConfig::<CruelerGame>::new(seed, 7));
        every_moment_sounds::<CruelerGame>(configs, "random");
    }
}
