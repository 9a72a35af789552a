//! Crueler World's bots: `random` (random legal moves) and
//! `survivor`, which reads the public results to estimate everyone's life,
//! preys on a player one duel could finish, never starves when a duel is
//! possible, and takes only trades that give it life.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::settings::CruelerGame;
use super::state::{Beast, CruelerAction, CruelerPhase, Outcome};
use super::view::CruelerView;
use crate::bot::Bot;

pub const BOT_KINDS: [&str; 2] = ["survivor", "random"];

pub fn bot(kind: &str) -> Option<Box<dyn Bot<CruelerGame>>> {
    match kind {
        "survivor" => Some(Box::new(SurvivorBot)),
        "random" => Some(Box::new(RandomBot)),
        _ => None,
    }
}

impl crate::bot::Bots for CruelerGame {
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>> {
        bot(kind)
    }
}

/// Everyone's life as the public results tell it (eliminations name
/// nobody, so their winners' gains are unknown).
pub fn estimated_lives(view: &CruelerView) -> Vec<i32> {
    let mut est = vec![view.start_life; view.alive.len()];
    for o in &view.history {
        match o {
            Outcome::Duel {
                n,
                predator,
                prey,
                winner,
                ..
            } => {
                let loser = if winner == predator { prey } else { predator };
                est[winner.index()] += n;
                est[loser.index()] -= n;
            }
            Outcome::Starved { n, seat, .. } | Outcome::StarvedOut { n, seat, .. } => {
                est[seat.index()] -= n;
            }
            Outcome::Elimination { .. } => {}
        }
    }
    if let (Some(me), Some(life)) = (view.me, view.my_life) {
        est[me.index()] = life;
    }
    est
}

pub struct SurvivorBot;

impl Bot<CruelerGame> for SurvivorBot {
    fn kind(&self) -> &'static str {
        "survivor"
    }

    fn act(&mut self, view: &CruelerView, rng: &mut ChaCha8Rng) -> Option<CruelerAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        match view.phase {
            CruelerPhase::Interlude => {
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    let mine = view.my_life.unwrap_or(0);
                    return Some(if o.give > o.want && (o.want as i32) < mine {
                        CruelerAction::Accept { from: o.from }
                    } else {
                        CruelerAction::Decline { from: o.from }
                    });
                }
                Some(CruelerAction::Ready)
            }
            CruelerPhase::Predation => {
                let est = estimated_lives(view);
                let Some(&weakest) = view.targets.iter().min_by_key(|s| (est[s.index()], **s))
                else {
                    return Some(CruelerAction::Pass);
                };
                let prey = if view.second_ask {
                    // Refusing now means starving unless preyed upon.
                    !view.preyed_upon
                } else {
                    // One duel could finish the weakest: worth the risk.
                    est[weakest.index()] <= view.n
                };
                Some(if prey {
                    CruelerAction::Prey { target: weakest }
                } else {
                    CruelerAction::Pass
                })
            }
            // A cycle of three has no better choice than a random one.
            CruelerPhase::Duel => Some(CruelerAction::Choose {
                beast: *Beast::ALL.choose(rng)?,
            }),
            CruelerPhase::Idle | CruelerPhase::GameOver => None,
        }
    }
}

/// Plays a random legal move.
pub struct RandomBot;

impl Bot<CruelerGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &CruelerView, rng: &mut ChaCha8Rng) -> Option<CruelerAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        match view.phase {
            CruelerPhase::Interlude => {
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    let mine = view.my_life.unwrap_or(0);
                    let after = mine - o.want as i32 + o.give as i32;
                    return Some(
                        if (o.want as i32) <= mine && after > 0 && rng.random_bool(0.5) {
                            CruelerAction::Accept { from: o.from }
                        } else {
                            CruelerAction::Decline { from: o.from }
                        },
                    );
                }
                Some(CruelerAction::Ready)
            }
            CruelerPhase::Predation => {
                if let Some(&target) = view.targets.choose(rng)
                    && rng.random_bool(0.5)
                {
                    return Some(CruelerAction::Prey { target });
                }
                Some(CruelerAction::Pass)
            }
            CruelerPhase::Duel => Some(CruelerAction::Choose {
                beast: *Beast::ALL.choose(rng)?,
            }),
            CruelerPhase::Idle | CruelerPhase::GameOver => None,
        }
    }
}
