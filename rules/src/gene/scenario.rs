//! Scripted Gene Survival tables: the set-up a scenario file may give (the
//! table as it stands at the start of a round) and the statements its
//! `Check` steps make. The format is in `rules/SCENARIOS.md`; the files are
//! in `rules/scenarios/gene/`.

use std::collections::BTreeSet;

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::map::{FloorId, ItemKind, RoomId, map};
use super::moves::part;
use super::outcome::{places, result};
use super::settings::GeneGame;
use super::settle::{Genes, numbers};
use super::setup::RoundStart;
use super::state::*;
use super::view::GeneView;
use crate::table::{Rejection, SeatEntities, SeatId, with_param};

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
    /// The order cards of the rounds after the first, each first to act
    /// first: chance a scenario fixes beyond its first round. Rounds past
    /// the list are dealt from the seed.
    #[serde(default)]
    pub later_orders: Vec<Vec<SeatId>>,
}

use crate::scenario::setup_error as bad;

impl GeneSetup {
    /// Lays the table out as the set-up says and begins its round.
    pub fn apply(&self, world: &mut World) -> Result<(), Rejection> {
        let n = numbers();
        let seats = world.resource::<SeatEntities>().clone();
        let count = seats.0.len();
        if self.players.len() != count {
            return Err(bad(format!(
                "{} players set up for {count} seats",
                self.players.len()
            )));
        }
        let round = self.round.unwrap_or(1);
        if round == 0 || round > n.rounds {
            return Err(bad(format!("there is no round {round}")));
        }
        {
            let mut supply = world.resource_mut::<Supply>();
            let mut take_from_supply = |kind: ItemKind| -> Result<(), Rejection> {
                let at = supply
                    .0
                    .iter()
                    .position(|k| *k == kind)
                    .ok_or_else(|| bad(format!("more {kind:?} cards than the supply has")))?;
                supply.0.remove(at);
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
        }
        for (i, s) in self.players.iter().enumerate() {
            s.genes.check(n.gene_points).map_err(|r| {
                let r = super::news::genes_refusal(r);
                bad(format!("seat {}: {}", i + 1, r.en))
            })?;
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
        }
        for order in self.order.iter().chain(&self.later_orders) {
            let named: BTreeSet<SeatId> = order.iter().copied().collect();
            if order.len() != count
                || named.len() != order.len()
                || order.iter().any(|s| s.index() >= count)
            {
                return Err(bad("the order names every seat once".into()));
            }
        }

        for ((_, e), s) in seats.iter().zip(&self.players) {
            let hp = s.hp.unwrap_or(if s.shadow { 0 } else { n.start_hp });
            world.entity_mut(e).insert((
                Panel {
                    genes: Some(s.genes),
                    operated: false,
                },
                Place(Some(s.room)),
                Hand {
                    cards: s.hand.clone(),
                    must_drop: 0,
                },
                Vitals {
                    hp,
                    public_hp: hp,
                    last_round_hp: hp,
                    shadow: s.shadow,
                    drained: s.drained,
                    immune: s.immune,
                },
            ));
        }
        for (room, cards) in &self.lying {
            world
                .resource_mut::<Piles>()
                .0
                .entry(*room)
                .or_default()
                .extend(cards);
        }
        // Each player saw its room as the set-up leaves it.
        for ((_, e), s) in seats.iter().zip(&self.players) {
            let here = world
                .resource::<Piles>()
                .0
                .get(&s.room)
                .cloned()
                .unwrap_or_default();
            world.entity_mut(e).insert(SeenPile(here));
        }
        {
            let mut gassed = world.resource_mut::<Gassed>();
            for f in &self.gassed {
                if !gassed.0.contains(f) {
                    gassed.0.push(*f);
                }
            }
        }
        world.resource_mut::<Calendar>().round = round - 1;
        let order = self.order.clone();
        with_param::<RoundStart<'static, 'static>, _>(world, |mut start| {
            start.begin(order.as_deref())
        });
        // The rounds after this one, as the script deals them.
        if !self.later_orders.is_empty() {
            world.insert_resource(ScriptedOrders(self.later_orders.iter().cloned().collect()));
        }
        Ok(())
    }
}

crate::check_enum! {
    /// A statement about a Gene Survival table that a scenario checks.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub enum GeneCheck about GeneFact {
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
        /// The seat's gas vote this round (`None`: none cast yet).
        Voted(SeatId, Option<FloorId>),
    }
}

/// Something a seat's view may show (`GeneView::traces`).
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
    /// A card of this kind lying in the room, which the viewer stands in
    /// (what the viewer's own view shows of its room).
    Lying(RoomId, ItemKind),
    /// The seat's gas vote this round.
    Vote(SeatId, FloorId),
}

fn sorted(mut cards: Vec<ItemKind>) -> Vec<ItemKind> {
    cards.sort();
    cards
}

/// Whether the check holds; if not, what is the case instead.
pub fn verify(world: &World, check: &GeneCheck) -> Result<(), String> {
    use GeneCheck::*;
    match check {
        Hp(..) | PublicHp(..) | Shadow(..) | Immune(..) | Room(..) | Hand(..) | Voted(..)
        | Genes(..) => verify_seat(world, check),
        Phase(_) | Round(_) | Gassed(_) | Lying(..) | Active(_) | Order(_) | Place(..) => {
            verify_table(world, check)
        }
        GeneCheck::Score(..)
        | GeneCheck::Said(_)
        | GeneCheck::NotSaid(_)
        | GeneCheck::Told(..)
        | GeneCheck::NotTold(..)
        | GeneCheck::SaidInOrder(_)
        | GeneCheck::Sees(..)
        | GeneCheck::NotSees(..) => {
            crate::verify_common_check!(world, check, GeneCheck, GeneGame, GeneView, result(world))
        }
    }
}

/// A check of one seat's state (a seat not at the table has none).
fn verify_seat(world: &World, check: &GeneCheck) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let room_key =
        |r: Option<RoomId>| r.map_or("nowhere".to_string(), |r| map().room(r).key.clone());
    let count = world.resource::<SeatEntities>().0.len();
    let seat = |s: SeatId| (s.index() < count).then_some(s);
    match check {
        GeneCheck::Hp(s, hp) => {
            let have = seat(*s).map(|s| part::<Vitals>(world, s).hp);
            ok(
                have == Some(*hp),
                format!("seat {s} has {have:?} HP, not {hp}"),
            )
        }
        GeneCheck::PublicHp(s, hp) => {
            let have = seat(*s).map(|s| part::<Vitals>(world, s).public_hp);
            ok(
                have == Some(*hp),
                format!("seat {s}'s public HP is {have:?}, not {hp}"),
            )
        }
        GeneCheck::Shadow(s, b) => {
            let have = seat(*s).map(|s| part::<Vitals>(world, s).shadow);
            ok(have == Some(*b), format!("seat {s} shadow: {have:?}"))
        }
        GeneCheck::Immune(s, b) => {
            let have = seat(*s).map(|s| part::<Vitals>(world, s).immune);
            ok(have == Some(*b), format!("seat {s} immune: {have:?}"))
        }
        GeneCheck::Room(s, r) => {
            let have = seat(*s).and_then(|s| part::<Place>(world, s).0);
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
            let have = sorted(
                seat(*s)
                    .map(|s| part::<Hand>(world, s).cards.clone())
                    .unwrap_or_default(),
            );
            ok(
                have == sorted(cards.clone()),
                format!("seat {s} holds {have:?}, not {cards:?}"),
            )
        }
        GeneCheck::Voted(s, want) => {
            let have = seat(*s).map(|s| part::<Doings>(world, s).vote);
            ok(
                have == Some(*want),
                format!("seat {s}'s gas vote is {have:?}, not {want:?}"),
            )
        }
        GeneCheck::Genes(s, g) => {
            let have = seat(*s).and_then(|s| part::<Panel>(world, s).genes);
            ok(have == Some(*g), format!("seat {s} has genes {have:?}"))
        }
        _ => Err(format!("{check:?} is not a check of a seat")),
    }
}

/// A check of the table's state: phase, round, calendar, floors, rooms,
/// places.
fn verify_table(world: &World, check: &GeneCheck) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let room_key =
        |r: Option<RoomId>| r.map_or("nowhere".to_string(), |r| map().room(r).key.clone());
    let calendar = world.resource::<Calendar>();
    match check {
        GeneCheck::Phase(want) => {
            let phase = *world.resource::<State<GenePhase>>().get();
            ok(phase == *want, format!("phase is {phase:?}, not {want:?}"))
        }
        GeneCheck::Round(r) => ok(calendar.round == *r, format!("round is {}", calendar.round)),
        GeneCheck::Gassed(floors) => {
            let have: BTreeSet<FloorId> = world.resource::<Gassed>().0.iter().copied().collect();
            let want: BTreeSet<FloorId> = floors.iter().copied().collect();
            let keys = |s: &BTreeSet<FloorId>| s.iter().map(FloorId::key).collect::<Vec<_>>();
            ok(
                have == want,
                format!("gassed: {:?}, not {:?}", keys(&have), keys(&want)),
            )
        }
        GeneCheck::Lying(room, cards) => {
            let have = sorted(
                world
                    .resource::<Piles>()
                    .0
                    .get(room)
                    .cloned()
                    .unwrap_or_default(),
            );
            ok(
                have == sorted(cards.clone()),
                format!("{} holds {have:?}, not {cards:?}", room_key(Some(*room))),
            )
        }
        GeneCheck::Active(s) => {
            let have = calendar.active();
            ok(
                have == Some(*s),
                format!("the active seat is {have:?}, not {s}"),
            )
        }
        GeneCheck::Order(order) => ok(
            calendar.order == *order,
            format!("the order is {:?}", calendar.order),
        ),
        GeneCheck::Place(s, place) => {
            if result(world).is_none() {
                return Err("the game is not over".into());
            }
            let have = places(world)[s.index()];
            ok(
                have == *place,
                format!("seat {s} finished {have}, not {place}"),
            )
        }
        _ => Err(format!("{check:?} is not a check of the table")),
    }
}

impl GeneView {
    /// Whether this view shows the fact (scenario `Sees` checks).
    pub fn traces(fact: &GeneFact) -> Vec<crate::scenario::Trace> {
        use crate::scenario::Trace;
        match *fact {
            GeneFact::Hp(s, hp) => vec![Trace::of_seat(s, &[], hp).per_seat(&["hp"])],
            GeneFact::Room(s, room) => vec![Trace::of_seat(s, &["room"], room)],
            GeneFact::Genes(s, genes) => vec![Trace::of_seat(s, &["genes"], genes)],
            GeneFact::Holds(s, kind) => vec![Trace::of_seat(s, &["hand"], kind)],
            // The seat's own card, or its place in the order the table sees.
            GeneFact::OrderCard(s, n) => {
                let mut t = vec![Trace::of_seat(s, &["order_card"], n)];
                if n > 0 {
                    t.push(Trace::of_seat(SeatId(n - 1), &[], s).per_seat(&["order"]));
                }
                t
            }
            GeneFact::Lying(room, kind) => vec![Trace::within("room", room, &["lying"], kind)],
            GeneFact::Vote(s, floor) => vec![Trace::of_seat(s, &["vote"], floor)],
        }
    }
}
