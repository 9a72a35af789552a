//! Scripted Gene Survival tables: the set-up a scenario file may give (the
//! table as it stands at the start of a round) and the statements its
//! `Check` steps make. The format is in `rules/SCENARIOS.md`; the files are
//! in `rules/scenarios/gene/`.

use std::collections::BTreeSet;

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::game::{GeneGame, GeneView};
use super::map::{FloorId, ItemKind, RoomId, map};
use super::settle::{Genes, numbers};
use super::state::{GenePhase, GeneState};
use crate::scenario::{Heard, verify_heard, verify_sight};
use crate::table::Said;
use crate::table::{Rejection, SeatId};

/// One player as a scenario sets them down.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSetup {
    pub genes: Genes,
    pub room: RoomId,
    #[serde(default)]
    pub hand: Vec<ItemKind>,
    /// HP (default: the starting HP).
    #[serde(default)]
    pub hp: Option<i32>,
    #[serde(default)]
    pub shadow: bool,
    /// HP drained so far, for a shadow.
    #[serde(default)]
    pub drained: i32,
    /// Revived last round: immune to gas and upkeep this round.
    #[serde(default)]
    pub immune: bool,
}

/// A table as it stands when a round begins (the free phase): set-up is
/// skipped.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneSetup {
    pub players: Vec<SeatSetup>,
    /// The round that begins (default 1).
    #[serde(default)]
    pub round: Option<u8>,
    #[serde(default)]
    pub gassed: Vec<FloorId>,
    /// The order cards, first to act first (default: dealt at random).
    #[serde(default)]
    pub order: Option<Vec<SeatId>>,
    /// Cards already lying in rooms.
    #[serde(default)]
    pub lying: Vec<(RoomId, Vec<ItemKind>)>,
}

fn bad(why: String) -> Rejection {
    Rejection::new(
        format!("scenario set-up: {why}"),
        format!("场景设定有误：{why}"),
    )
}

impl GeneSetup {
    /// Lays the table out as the set-up says and begins its round; returns
    /// what the referee says as the round begins.
    pub fn apply(
        &self,
        state: &mut GeneState,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<Said>, Rejection> {
        let n = numbers();
        if self.players.len() != state.players.len() {
            return Err(bad(format!(
                "{} players set up for {} seats",
                self.players.len(),
                state.players.len()
            )));
        }
        let round = self.round.unwrap_or(1);
        if round == 0 || round > n.rounds {
            return Err(bad(format!("there is no round {round}")));
        }
        let mut take_from_supply = |kind: ItemKind| -> Result<(), Rejection> {
            let at = state
                .supply
                .iter()
                .position(|k| *k == kind)
                .ok_or_else(|| bad(format!("more {kind:?} cards than the supply has")))?;
            state.supply.remove(at);
            Ok(())
        };
        for p in &self.players {
            for k in &p.hand {
                take_from_supply(*k)?;
            }
        }
        for (_, cards) in &self.lying {
            for k in cards {
                take_from_supply(*k)?;
            }
        }
        for (i, s) in self.players.iter().enumerate() {
            s.genes
                .check(n.gene_points)
                .map_err(|r| bad(format!("seat {}: {}", i + 1, r.en)))?;
            let hp = s.hp.unwrap_or(if s.shadow { 0 } else { n.start_hp });
            if !(0..=n.max_hp).contains(&hp) || (hp == 0) != s.shadow {
                return Err(bad(format!(
                    "seat {}: HP {hp} (a shadow has 0, the living 1 to {})",
                    i + 1,
                    n.max_hp
                )));
            }
            if s.shadow && !s.hand.is_empty() {
                return Err(bad(format!("seat {}: shadows hold no cards", i + 1)));
            }
            let p = &mut state.players[i];
            p.genes = Some(s.genes);
            p.room = Some(s.room);
            p.hand = s.hand.clone();
            p.hp = hp;
            p.public_hp = hp;
            p.last_round_hp = hp;
            p.shadow = s.shadow;
            p.drained = s.drained;
            p.immune = s.immune;
        }
        for (room, cards) in &self.lying {
            state.piles.entry(*room).or_default().extend(cards);
        }
        for f in &self.gassed {
            if !state.gassed.contains(f) {
                state.gassed.push(*f);
            }
        }
        state.round = round - 1;
        let mut said = Vec::new();
        state.begin_round(rng, &mut said);
        if let Some(order) = &self.order {
            let seats: BTreeSet<SeatId> = order.iter().copied().collect();
            if order.len() != state.players.len()
                || seats.len() != order.len()
                || order.iter().any(|s| s.index() >= state.players.len())
            {
                return Err(bad("the order names every seat once".into()));
            }
            state.order = order.clone();
            // The order cards as the set-up dealt them.
            said.retain(|l| matches!(l, Said::All(_)));
            for (n, s) in order.iter().enumerate() {
                said.push(Said::To(
                    *s,
                    crate::Bilingual::new(
                        format!("Round {round}: your order card is {}.", n + 1),
                        format!("第 {round} 轮：你的顺位卡是 {}。", n + 1),
                    ),
                ));
            }
        }
        Ok(said)
    }
}

/// A statement about a Gene Survival table that a scenario checks.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum GeneCheck {
    Phase(GenePhase),
    Round(u8),
    Hp(SeatId, i32),
    /// HP as the last settlement made it public.
    PublicHp(SeatId, i32),
    Shadow(SeatId, bool),
    Immune(SeatId, bool),
    Room(SeatId, RoomId),
    /// The hand, in any order.
    Hand(SeatId, Vec<ItemKind>),
    Genes(SeatId, Genes),
    /// Exactly these floors are gassed.
    Gassed(Vec<FloorId>),
    /// Exactly these cards lie in the room, in any order.
    Lying(RoomId, Vec<ItemKind>),
    Active(SeatId),
    Order(Vec<SeatId>),
    /// The game is over and the seat finished in this place.
    Place(SeatId, u8),
    /// The game is over and the seat won this many gold cubes.
    Score(SeatId, i64),
    /// What the referee said (`scenario::Heard`): a public announcement so
    /// far contains the text (either language), or a note to the seat does.
    Said(String),
    NotSaid(String),
    Told(SeatId, String),
    NotTold(SeatId, String),
    /// The announcements contain these texts in this order.
    SaidInOrder(Vec<String>),
    /// The first seat's own view shows the fact (or does not).
    Sees(SeatId, GeneFact),
    NotSees(SeatId, GeneFact),
}

/// Something a seat's view may show (`GeneView::shows`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneFact {
    /// The seat's HP as the view gives it.
    Hp(SeatId, i32),
    Room(SeatId, RoomId),
    Genes(SeatId, Genes),
    /// The seat holds a card of this kind.
    Holds(SeatId, ItemKind),
    /// The seat's order card this round.
    OrderCard(SeatId, u8),
}

fn sorted(mut cards: Vec<ItemKind>) -> Vec<ItemKind> {
    cards.sort();
    cards
}

/// Whether the check holds; if not, what is the case instead.
pub fn verify(world: &World, check: &GeneCheck) -> Result<(), String> {
    let state = world.resource::<GeneState>();
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let p = |s: SeatId| state.players.get(s.index());
    let room_key =
        |r: Option<RoomId>| r.map_or("nowhere".to_string(), |r| map().room(r).key.clone());
    match check {
        GeneCheck::Phase(want) => {
            let phase = *world.resource::<State<GenePhase>>().get();
            ok(phase == *want, format!("phase is {phase:?}, not {want:?}"))
        }
        GeneCheck::Round(r) => ok(state.round == *r, format!("round is {}", state.round)),
        GeneCheck::Hp(s, hp) => {
            let have = p(*s).map(|p| p.hp);
            ok(
                have == Some(*hp),
                format!("seat {s} has {have:?} HP, not {hp}"),
            )
        }
        GeneCheck::PublicHp(s, hp) => {
            let have = p(*s).map(|p| p.public_hp);
            ok(
                have == Some(*hp),
                format!("seat {s}'s public HP is {have:?}, not {hp}"),
            )
        }
        GeneCheck::Shadow(s, b) => {
            let have = p(*s).map(|p| p.shadow);
            ok(have == Some(*b), format!("seat {s} shadow: {have:?}"))
        }
        GeneCheck::Immune(s, b) => {
            let have = p(*s).map(|p| p.immune);
            ok(have == Some(*b), format!("seat {s} immune: {have:?}"))
        }
        GeneCheck::Room(s, r) => {
            let have = p(*s).and_then(|p| p.room);
            ok(
                have == Some(*r),
                format!(
                    "seat {s} is in {}, not {}",
                    room_key(have),
                    room_key(Some(*r))
                ),
            )
        }
        GeneCheck::Hand(s, cards) => {
            let have = sorted(p(*s).map(|p| p.hand.clone()).unwrap_or_default());
            ok(
                have == sorted(cards.clone()),
                format!("seat {s} holds {have:?}, not {cards:?}"),
            )
        }
        GeneCheck::Genes(s, g) => {
            let have = p(*s).and_then(|p| p.genes);
            ok(have == Some(*g), format!("seat {s} has genes {have:?}"))
        }
        GeneCheck::Gassed(floors) => {
            let have: BTreeSet<FloorId> = state.gassed.iter().copied().collect();
            let want: BTreeSet<FloorId> = floors.iter().copied().collect();
            let keys = |s: &BTreeSet<FloorId>| s.iter().map(FloorId::key).collect::<Vec<_>>();
            ok(
                have == want,
                format!("gassed: {:?}, not {:?}", keys(&have), keys(&want)),
            )
        }
        GeneCheck::Lying(room, cards) => {
            let have = sorted(state.piles.get(room).cloned().unwrap_or_default());
            ok(
                have == sorted(cards.clone()),
                format!("{} holds {have:?}, not {cards:?}", room_key(Some(*room))),
            )
        }
        GeneCheck::Active(s) => {
            let have = state.active();
            ok(
                have == Some(*s),
                format!("the active seat is {have:?}, not {s}"),
            )
        }
        GeneCheck::Order(order) => ok(
            state.order == *order,
            format!("the order is {:?}", state.order),
        ),
        GeneCheck::Place(s, place) => {
            if !state.over {
                return Err("the game is not over".into());
            }
            let have = state.places()[s.index()];
            ok(
                have == *place,
                format!("seat {s} finished {have}, not {place}"),
            )
        }
        GeneCheck::Score(s, n) => crate::scenario::verify_score(super::game::result(world), *s, *n),
        GeneCheck::Said(t) => verify_heard(world, Heard::Said(t)),
        GeneCheck::NotSaid(t) => verify_heard(world, Heard::NotSaid(t)),
        GeneCheck::Told(s, t) => verify_heard(world, Heard::Told(*s, t)),
        GeneCheck::NotTold(s, t) => verify_heard(world, Heard::NotTold(*s, t)),
        GeneCheck::SaidInOrder(t) => verify_heard(world, Heard::SaidInOrder(t)),
        GeneCheck::Sees(v, fact) => {
            verify_sight::<GeneGame, _>(world, *v, fact, true, GeneView::shows)
        }
        GeneCheck::NotSees(v, fact) => {
            verify_sight::<GeneGame, _>(world, *v, fact, false, GeneView::shows)
        }
    }
}
