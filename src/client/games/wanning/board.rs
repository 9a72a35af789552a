//! What the table's scene and its panels share: what a tap on a piece
//! picked, how the panels mark seats and cards on the table, an instinct
//! type's words, and the viewer's last settlement as chips.

use bevy::prelude::*;
use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::{InstinctId, Kind};

use super::art::Img;
use crate::client::I18n;

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
    /// Seats a tap means something for now.
    pub tappable: Vec<SeatId>,
    /// Seats whose words to the viewer are unread.
    pub unread: Vec<SeatId>,
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
