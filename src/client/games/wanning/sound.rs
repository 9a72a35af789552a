//! What a Wanning Beast Chess table sounds (issue 39), from the seat's
//! views: what the seat learned turned over to it (a peek, a sense, 預知),
//! the blows its own settlement shows (「玩家只會知道自己的血量變化」: only
//! its own damage), a wisdom guess of its own answered, a player dead
//! (public).

use foodweb_rules::wanning::{WanningGame, WanningPhase, WanningView};

use foodweb_rules::wanning::state::Learned;

use crate::client::sound::{Cue, Hear};

impl Hear for WanningGame {
    const CUES: &'static [Cue] = &[Cue::Flip, Cue::Clash, Cue::Wisdom, Cue::Death];

    fn cues(before: &WanningView, after: &WanningView, out: &mut Vec<Cue>) {
        if after.learned.len() > before.learned.len() {
            let new = &after.learned[before.learned.len()..];
            if new.iter().any(|l| !matches!(l, Learned::Wisdom { .. })) {
                out.push(Cue::Flip);
            }
            if new.iter().any(|l| matches!(l, Learned::Wisdom { .. })) {
                out.push(Cue::Wisdom);
            }
        }
        if after.settled != before.settled
            && after
                .settled
                .as_ref()
                .is_some_and(|s| s.damage + s.true_damage > 0)
        {
            out.push(Cue::Clash);
        }
        let dead = |v: &WanningView| v.seats.iter().filter(|s| s.dead).count();
        if dead(after) > dead(before) {
            out.push(Cue::Death);
        }
    }

    fn fresh(view: &WanningView) -> bool {
        view.phase == WanningPhase::Ban && view.round <= 1
    }

    fn clock(view: &WanningView) -> (u64, Option<u64>) {
        (view.now_ms, view.deadline_ms)
    }
}

#[cfg(test)]
mod tests {
    use foodweb_rules::table::{Seats, TableConfig};
    use foodweb_rules::wanning::{WanningGame, WanningSettings};

    use crate::client::sound::tests::every_moment_sounds;

    /// Issue 39: every moment Wanning lists sounds in whole bot games, and
    /// a seat's view that did not change (another seat's orders, its
    /// instinct, its peek) sounds nothing (the harness).
    #[test]
    fn every_wanning_moment_sounds_and_nothing_unseen_does() {
        let configs = (1..=6).map(|seed| TableConfig::<WanningGame> {
            seed,
            seats: Seats::numbered(7),
            settings: WanningSettings::default(),
        });
        every_moment_sounds::<WanningGame>(configs, "random");
    }
}
