//! Crueler World: a game against seven bots; the seat preys when first
//! asked, to show a duel.
//!
//! Its tour (`dev` feature): the steps `tour.rs` runs for it.

use foodweb_netcode::games::AnyAction;
use foodweb_rules::GameId;
use foodweb_rules::crueler::{Beast, CruelerAction, CruelerGame, CruelerPhase};

use crate::client::net::SeatSide;
use crate::client::tour::*;

fn crueler_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::crueler::CruelerView> {
    c.model.view_of::<CruelerGame>()
}

fn crueler_interlude(c: &Ctx) -> bool {
    crueler_view(c).is_some_and(|v| v.phase == CruelerPhase::Interlude)
}

fn crueler_ready(c: &mut Ctx) {
    c.act(AnyAction::Crueler(CruelerAction::Ready));
}

fn crueler_asked(c: &Ctx) -> bool {
    crueler_view(c)
        .is_some_and(|v| v.phase == CruelerPhase::Predation && v.to_act && !v.targets.is_empty())
}

fn crueler_prey(c: &mut Ctx) {
    if let Some(&target) = crueler_view(c).and_then(|v| v.targets.first()) {
        c.act(AnyAction::Crueler(CruelerAction::Prey { target }));
    }
}

fn crueler_duel_first(c: &Ctx) -> bool {
    crueler_view(c)
        .and_then(|v| v.duel.as_ref())
        .is_some_and(|d| !d.chosen && d.throws.is_empty())
}

fn crueler_choose(c: &mut Ctx) {
    c.act(AnyAction::Crueler(CruelerAction::Choose {
        beast: Beast::Tiger,
    }));
}

fn crueler_duel_thrown(c: &Ctx) -> bool {
    crueler_view(c)
        .and_then(|v| v.duel.as_ref())
        .is_some_and(|d| !d.chosen && !d.throws.is_empty())
}

fn crueler_over(c: &Ctx) -> bool {
    crueler_view(c).is_some_and(|v| v.result.is_some())
}

pub const STEPS: &[Step] = &[
    step(now, |c| c.start(GameId::Crueler, 8, 21), 4.0, None),
    step(crueler_interlude, nothing, 1.0, Some("crueler-table")),
    step(now, crueler_ready, 0.5, None),
    playing(crueler_asked, nothing, 1.0, Some("crueler-asked")),
    step(now, crueler_prey, 1.0, None),
    step(crueler_duel_first, crueler_choose, 1.5, None),
    playing(crueler_duel_thrown, nothing, 0.5, Some("crueler-duel")),
    step(now, chinese, 1.0, None),
    playing(crueler_interlude, nothing, 1.0, Some("crueler-zh")),
    playing(crueler_over, nothing, 2.0, Some("crueler-game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("crueler-replay")),
    step(now, replay_close, 0.5, None),
];
