//! What the table's scene and its panels share: what a tap on a piece
//! picked, how the panels mark seats and cards on the table, an instinct
//! type's words, and the viewer's last settlement as chips.

use bevy::prelude::*;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::state::LuckDraw;
use foodweb_rules::wanning::{InstinctId, Kind, WanningPhase, WanningView};

use super::art::Img;
use crate::client::I18n;

/// A seat's name as the table shows it.
pub fn name(i18n: &I18n, view: &WanningView, seat: SeatId) -> String {
    view.seats
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |p| i18n.name(&p.name))
}

/// What tapping a piece does: the screen decides what it means.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    Seat(SeatId),
    Instinct(InstinctId),
}

/// How the screen marks seats on the table: the roles the orders being
/// written give them ("attack", "sense", "peek"...), in words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    pub seats: Vec<(SeatId, String)>,
    /// Instinct cards chosen (to ban, or the pick).
    pub chosen: Vec<InstinctId>,
    /// Seats whose plates take a tap (every seat, for a player).
    pub tappable: Vec<SeatId>,
    /// Seats a move the table would take now names (`usable_seats`).
    pub usable: Vec<SeatId>,
    /// Seats whose words to the viewer are unread.
    pub unread: Vec<SeatId>,
}

/// A living player other than the viewer: what an attack, sensing,
/// 殺戮 or an instinct names (rules.md §3: 「指定一個除自己以外的攻擊對象」).
pub fn other_living(view: &WanningView, s: SeatId) -> bool {
    Some(s) != view.me && view.seats.get(s.index()).is_some_and(|p| !p.dead)
}

/// The viewer writes a round's orders now: alive, and not given yet.
pub fn orders_open(view: &WanningView) -> bool {
    view.phase == WanningPhase::Orders && view.to_act
}

/// 幸運守 on the viewer itself: 「守 +1 shield ... to any living player, the
/// owner included」, while its instinct has a use and does not rest.
pub fn luck_on_self(view: &WanningView) -> bool {
    view.instinct == Some(InstinctId::Luck)
        && view.luck == Some(LuckDraw::Guard)
        && view.instinct_uses_left != Some(0)
        && !view.instinct_resting
}

/// 預知 now: 「可在任意時刻發動」 after the pick (the peek, a round's
/// orders), by its living owner with a use left.
pub fn foresee_open(view: &WanningView) -> bool {
    view.instinct == Some(InstinctId::Foresight)
        && view.foresights_left > 0
        && matches!(view.phase, WanningPhase::Peek | WanningPhase::Orders)
        && view
            .me
            .is_some_and(|m| view.seats.get(m.index()).is_some_and(|p| !p.dead))
}

/// 警惕's guess now: owed after a round its owner lost HP in (dead from
/// it too, 「死亡時可用」); the table takes the last one given before the
/// round settles.
pub fn guard_open(view: &WanningView) -> bool {
    view.phase == WanningPhase::Orders && view.guard_owed
}

/// Whether 警惕 may guess `s`: another player, not the one its last
/// revenge hit (「不可連續對同一人觸發」).
pub fn guard_names(view: &WanningView, s: SeatId) -> bool {
    Some(s) != view.me && Some(s) != view.instinct_last_target
}

/// The seats a move the table would take now names: the peek's, the
/// orders' (another living player, or the viewer for 幸運守), 預知's (any
/// seat, the viewer's own too) and 警惕's. Only what the seat's view
/// shows.
pub fn usable_seats(view: &WanningView) -> Vec<SeatId> {
    let Some(me) = view.me.filter(|_| view.host.is_none()) else {
        return Vec::new();
    };
    let peek = view.phase == WanningPhase::Peek && view.to_act;
    let orders = orders_open(view);
    let foresee = foresee_open(view);
    let guard = guard_open(view);
    view.seats
        .iter()
        .map(|p| p.seat)
        .filter(|&s| {
            (peek && s != me)
                || (orders && (other_living(view, s) || (s == me && luck_on_self(view))))
                || foresee
                || (guard && guard_names(view, s))
        })
        .collect()
}

pub fn kind_key(k: Kind) -> &'static str {
    match k {
        Kind::Information => "wanning-kind-information",
        Kind::Defence => "wanning-kind-defence",
        Kind::Attack => "wanning-kind-attack",
        Kind::AllRound => "wanning-kind-allround",
        Kind::Drawn => "wanning-kind-drawn",
    }
}

/// The viewer's last settlement as chips, in the seed's order: damage
/// that reached it, shields that soaked it, true damage, the lock, the
/// special skills, and the HP it ended with. Amounts only.
pub fn settlement_steps(
    s: &foodweb_rules::wanning::view::Settled,
    i18n: &I18n,
) -> Vec<(Img, String)> {
    let mut steps = Vec::new();
    if s.damage > 0 {
        steps.push((
            Img::Claw,
            i18n.ta("wanning-step-damage", &[("n", s.damage.into())]),
        ));
    }
    if s.soaked > 0 {
        steps.push((
            Img::Shield,
            i18n.ta("wanning-step-soaked", &[("n", s.soaked.into())]),
        ));
    }
    if s.true_damage > 0 {
        steps.push((
            Img::Claw,
            i18n.ta("wanning-step-true", &[("n", s.true_damage.into())]),
        ));
    }
    if s.lock > 0 {
        steps.push((
            Img::Lock,
            i18n.ta("wanning-step-lock", &[("n", s.lock.into())]),
        ));
    }
    if s.special != 0 || s.special_shields != 0 {
        steps.push((
            Img::Eye,
            i18n.ta(
                "wanning-step-special",
                &[
                    ("hp", s.special.into()),
                    ("shields", s.special_shields.into()),
                ],
            ),
        ));
    }
    steps.push((
        if s.end_hp > 0 { Img::Heart } else { Img::Skull },
        i18n.ta("wanning-step-end", &[("hp", s.end_hp.into())]),
    ));
    steps
}
