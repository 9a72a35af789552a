//! Forest Showdown bots: one that plays random legal moves, and one that
//! remembers what the table has seen and challenges only when sure.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::deck::{CardId, deck};
use super::state::{ForestAction, ForestPhase};
use super::view::ForestView;
use super::{ForestGame, showdown_outcome};
use crate::bot::Bot;
use crate::table::SeatId;

/// Bot kinds by name, for the command line and table set-up.
pub const BOT_KINDS: [&str; 2] = ["memory", "random"];

pub fn bot(kind: &str) -> Option<Box<dyn Bot<ForestGame>>> {
    match kind {
        "random" => Some(Box::new(RandomBot)),
        "memory" => Some(Box::new(MemoryBot)),
        _ => None,
    }
}

impl crate::bot::Bots for ForestGame {
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>> {
        bot(kind)
    }
}

fn opponents_with_cards(view: &ForestView) -> Vec<SeatId> {
    view.opponents_with_cards().map(|s| s.seat).collect()
}

/// Plays a random legal move: half its turns a random challenge, half a
/// showdown with a random player; a random card in showdowns.
pub struct RandomBot;

impl Bot<ForestGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &ForestView, rng: &mut ChaCha8Rng) -> Option<ForestAction> {
        // Spectators and seats the table is not waiting on do nothing.
        if view.me.is_none() || !view.to_act {
            return None;
        }
        if view.phase == ForestPhase::Showdown {
            let card = *view.hand.choose(rng)?;
            return Some(ForestAction::PlayCard { card });
        }
        let targets = opponents_with_cards(view);
        let target = *targets.choose(rng)?;
        if !view.opening_turn && rng.random_bool(0.5) {
            let with = *view.hand.choose(rng)?;
            let prey: Vec<CardId> = view.challengeable(with);
            if let Some(&named) = prey.choose(rng) {
                return Some(ForestAction::Challenge {
                    target,
                    named,
                    with,
                });
            }
        }
        Some(ForestAction::AskShowdown { target })
    }
}

/// Keeps the table's record of who holds what. Challenges only when the
/// record shows the card in the target's hand (sure to win); otherwise asks
/// the showdown, with the card, that gains most on average against what the
/// opponent may hold.
pub struct MemoryBot;

impl MemoryBot {
    /// What `seat` might lay down: the cards the table knows it holds, and
    /// for the rest of its hand, the cards nobody has been seen holding.
    fn likely_cards(view: &ForestView, seat: SeatId) -> Vec<(CardId, f64)> {
        let d = deck();
        let Some(sp) = view.seats.iter().find(|s| s.seat == seat) else {
            return vec![];
        };
        if sp.hand_size == 0 {
            return vec![];
        }
        let mut unseen = d.all_cards();
        for c in view.hand.iter().chain(
            view.seats
                .iter()
                .filter(|s| Some(s.seat) != view.me)
                .flat_map(|s| &s.known),
        ) {
            if let Some(i) = unseen.iter().position(|u| u == c) {
                unseen.remove(i);
            }
        }
        let hidden = sp.hand_size.saturating_sub(sp.known.len()) as f64;
        let per_card = 1.0 / sp.hand_size as f64;
        let mut out: Vec<(CardId, f64)> = sp.known.iter().map(|&c| (c, per_card)).collect();
        if hidden > 0.0 && !unseen.is_empty() {
            let w = per_card * hidden / unseen.len() as f64;
            out.extend(unseen.into_iter().map(|c| (c, w)));
        }
        out
    }

    fn showdown_value(mine: CardId, theirs: &[(CardId, f64)]) -> f64 {
        let d = deck();
        theirs
            .iter()
            .map(|&(c, p)| match showdown_outcome(mine, c) {
                super::ShowdownOutcome::AskerTakes => p * d.card(c).energy as f64,
                super::ShowdownOutcome::TargetTakes => -p * d.card(mine).energy as f64,
                super::ShowdownOutcome::StandOff => 0.0,
            })
            .sum()
    }

    fn best_card(view: &ForestView, against: SeatId) -> Option<(CardId, f64)> {
        let theirs = Self::likely_cards(view, against);
        view.hand
            .iter()
            .map(|&m| (m, Self::showdown_value(m, &theirs)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }
}

impl Bot<ForestGame> for MemoryBot {
    fn kind(&self) -> &'static str {
        "memory"
    }

    fn act(&mut self, view: &ForestView, _rng: &mut ChaCha8Rng) -> Option<ForestAction> {
        let me = view.me?;
        if !view.to_act {
            return None;
        }
        let d = deck();
        if view.phase == ForestPhase::Showdown {
            let sd = view.showdown.as_ref()?;
            let other = if sd.asker == me { sd.target } else { sd.asker };
            let (card, _) = Self::best_card(view, other)?;
            return Some(ForestAction::PlayCard { card });
        }
        if !view.opening_turn {
            // A sure challenge: the record shows the card in their hand.
            let mut best: Option<(i64, ForestAction)> = None;
            for s in view.opponents_with_cards() {
                for &named in &s.known {
                    let with = view
                        .hand
                        .iter()
                        .copied()
                        .filter(|&w| view.challenge_cards(w, named).is_ok())
                        .min_by_key(|&w| (d.is_death_decay(w), d.card(w).energy));
                    if let Some(with) = with {
                        let gain =
                            d.card(named).energy + if d.is_death_decay(named) { 6 } else { 0 };
                        if best.as_ref().is_none_or(|(g, _)| gain > *g) {
                            best = Some((
                                gain,
                                ForestAction::Challenge {
                                    target: s.seat,
                                    named,
                                    with,
                                },
                            ));
                        }
                    }
                }
            }
            if let Some((_, action)) = best {
                return Some(action);
            }
        }
        let target = opponents_with_cards(view)
            .into_iter()
            .map(|t| (t, Self::best_card(view, t).map_or(f64::MIN, |(_, v)| v)))
            .max_by(|a, b| a.1.total_cmp(&b.1))?
            .0;
        Some(ForestAction::AskShowdown { target })
    }
}
