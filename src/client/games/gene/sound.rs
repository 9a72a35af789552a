//! What a Gene Survival table sounds (issue 39), from the seat's views:
//! the settlement's room battles and gas (announced to all: 「公布哪些房间
//! 发生了战斗」, not who fought), a player become a shadow (public HP and
//! shadows). Moves, draws and votes are secret and sound nothing to
//! others.

use foodweb_rules::gene::{GeneGame, GenePhase, GeneView, SettleFact};

use crate::client::sound::{Cue, Hear};

impl Hear for GeneGame {
    const CUES: &'static [Cue] = &[Cue::Battle, Cue::Gas, Cue::Death];

    fn cues(before: &GeneView, after: &GeneView, out: &mut Vec<Cue>) {
        if after.settlement != before.settlement {
            // The lines new to the seat (a settlement is told whole).
            let new = after
                .settlement
                .iter()
                .filter(|l| !before.settlement.contains(l));
            let mut battle = false;
            for line in new {
                battle |= matches!(
                    line.fact,
                    SettleFact::Battle(_) | SettleFact::Brawl(_) | SettleFact::ShadowMet(_)
                );
            }
            if battle {
                out.push(Cue::Battle);
            }
        }
        if after.gassed.len() > before.gassed.len() {
            out.push(Cue::Gas);
        }
        let shadows = |v: &GeneView| v.shadows.iter().filter(|s| **s).count();
        if shadows(after) > shadows(before) {
            out.push(Cue::Death);
        }
    }

    fn fresh(view: &GeneView) -> bool {
        view.phase == GenePhase::Setup && view.round <= 1
    }

    fn clock(view: &GeneView) -> (u64, Option<u64>) {
        (view.now_ms, view.deadline_ms)
    }
}

#[cfg(test)]
mod tests {
    use foodweb_rules::gene::{GeneGame, GeneSettings};
    use foodweb_rules::table::{Seats, TableConfig};

    use crate::client::sound::tests::every_moment_sounds;

    /// Issue 39: every moment Gene lists sounds in whole bot games, and a
    /// seat's view that did not change (another seat moving, drawing or
    /// voting in secret) sounds nothing (the harness).
    #[test]
    fn every_gene_moment_sounds_and_nothing_unseen_does() {
        let configs = (1..=3).map(|seed| TableConfig::<GeneGame> {
            seed,
            seats: Seats::numbered(6),
            settings: GeneSettings::default(),
        });
        every_moment_sounds::<GeneGame>(configs, "survivor");
    }
}
