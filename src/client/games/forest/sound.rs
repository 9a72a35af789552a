//! What a Forest Showdown table sounds (issue 39), from the seat's views:
//! a round's deal, a showdown's cards turned over and its capture, a
//! challenge right or wrong. Showdowns and challenges are public (the
//! seed: 「两人同时亮牌」; a challenge is announced with the card named), so
//! every seat hears them alike.

use foodweb_rules::forest::{ForestGame, ForestPhase, ForestView, ShowdownOutcome};

use crate::client::sound::{Cue, Hear};

impl Hear for ForestGame {
    const CUES: &'static [Cue] = &[
        Cue::Flip,
        Cue::Capture,
        Cue::ChallengeWon,
        Cue::ChallengeLost,
    ];

    fn cues(before: &ForestView, after: &ForestView, out: &mut Vec<Cue>) {
        if after.round > before.round {
            out.push(Cue::Deal);
        }
        if after.last_showdown != before.last_showdown
            && let Some(showdown) = &after.last_showdown
        {
            out.push(Cue::Flip);
            if showdown.outcome != ShowdownOutcome::StandOff {
                out.push(Cue::Capture);
            }
        }
        if after.last_challenge != before.last_challenge
            && let Some(challenge) = &after.last_challenge
        {
            out.push(if challenge.right {
                Cue::ChallengeWon
            } else {
                Cue::ChallengeLost
            });
        }
    }

    fn fresh(view: &ForestView) -> bool {
        view.round == 1
            && view.phase == ForestPhase::Turn
            && view.opening_turn
            && view.last_showdown.is_none()
            && view.last_challenge.is_none()
    }

    /// The seat's own clock or the round's, whichever runs out first.
    fn clock(view: &ForestView) -> (u64, Option<u64>) {
        let first = match (view.my_deadline_ms, view.round_ends_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (view.now_ms, first)
    }
}

#[cfg(test)]
mod tests {
    use foodweb_rules::forest::{ForestGame, ForestSettings};
    use foodweb_rules::table::{Seats, TableConfig};

    use crate::client::sound::tests::every_moment_sounds;

    /// Issue 39: every moment Forest lists sounds in whole bot games, and a
    /// seat's view that did not change (another seat choosing its showdown
    /// card in secret) sounds nothing (the harness).
    #[test]
    fn every_forest_moment_sounds_and_nothing_unseen_does() {
        let configs = (1..=4).map(|seed| TableConfig::<ForestGame> {
            seed,
            seats: Seats::numbered(4),
            settings: ForestSettings::default(),
        });
        every_moment_sounds::<ForestGame>(configs, "random");
    }
}
