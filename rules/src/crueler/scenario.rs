//! Scripted Crueler World tables: the set-up a scenario file may give and
//! the statements its `Check` steps make (format: `rules/SCENARIOS.md`;
//! files: `rules/scenarios/crueler/`).

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::interlude::Opening;
use super::moves::{alive, life, part};
use super::numbers::numbers;
use super::outcome::{places, result};
use super::settings::CruelerGame;
use super::state::*;
use super::view::CruelerView;
use crate::table::{Rejection, SeatEntities, SeatId, with_param};

/// A table as it stands at some point of the game.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CruelerSetup {
    /// Round and predation phase (1-based; default 1 and 1).
    pub round: Option<u8>,
    pub phase_no: Option<u8>,
    /// Each box as a number of the owner's own tokens...
    pub lives: Option<Vec<i32>>,
    /// ...or token by token: `Some(seat)` marks where it came from, `None`
    /// the bank.
    pub tokens: Option<Vec<Vec<Option<SeatId>>>>,
    /// The predator cards each player holds.
    pub cards: Option<Vec<Vec<SeatId>>>,
    /// Players already out, in the order they fell.
    pub eliminated: Vec<SeatId>,
    /// Players in the Nature Reserve this round.
    pub reserve: Vec<SeatId>,
    /// Start the predation phase at once, asking this seat first (as if
    /// the die had shown its number); without it, the interlude.
    pub first: Option<SeatId>,
    /// The die's throws from here on, in order: each predation phase's
    /// opening throw (a face with no living player is thrown again, as at
    /// the table) and each dice duel's rolls, predator's then prey's. Throws
    /// past the list come from the seed.
    pub dice: Vec<u8>,
}

use crate::scenario::setup_error as bad;

impl CruelerSetup {
    /// Sets the table as the script says, after the deal.
    pub fn apply(&self, world: &mut World) -> Result<(), Rejection> {
        let seats = world.resource::<SeatEntities>().clone();
        let count = seats.0.len();
        let nums = numbers();
        let round = self.round.unwrap_or(1);
        let phase_no = self.phase_no.unwrap_or(1);
        if round == 0
            || round as usize > nums.rounds.len()
            || phase_no == 0
            || phase_no > nums.phases_in(round)
        {
            return Err(bad(format!("there is no round {round}, phase {phase_no}")));
        }
        *world.resource_mut::<Calendar>() = Calendar { round, phase_no };
        let check_seat = |s: SeatId| {
            if s.index() < count {
                Ok(())
            } else {
                Err(bad(format!("there is no seat {s}")))
            }
        };
        if let Some(lives) = &self.lives {
            if lives.len() != count {
                return Err(bad(format!("{} lives for {count} seats", lives.len())));
            }
            for ((me, e), &l) in seats.iter().zip(lives) {
                world
                    .entity_mut(e)
                    .insert(LifeBox(vec![Some(me); l.max(0) as usize]));
            }
        }
        if let Some(tokens) = &self.tokens {
            if tokens.len() != count {
                return Err(bad(format!("{} boxes for {count} seats", tokens.len())));
            }
            for ((_, e), t) in seats.iter().zip(tokens) {
                for s in t.iter().flatten() {
                    check_seat(*s)?;
                }
                world.entity_mut(e).insert(LifeBox(t.clone()));
            }
        }
        if let Some(cards) = &self.cards {
            if cards.len() != count {
                return Err(bad(format!(
                    "{} hands of cards for {count} seats",
                    cards.len()
                )));
            }
            for ((_, e), c) in seats.iter().zip(cards) {
                for s in c {
                    check_seat(*s)?;
                }
                world.entity_mut(e).insert(PredatorCards(c.clone()));
            }
        }
        for (k, s) in self.eliminated.iter().enumerate() {
            check_seat(*s)?;
            world.entity_mut(seats.get(*s)).insert((
                Standing {
                    alive: false,
                    fell: Some(k as u8 + 1),
                    how: None,
                },
                LifeBox::default(),
            ));
        }
        world.resource_mut::<Fallen>().0 = self.eliminated.len() as u8;
        for s in &self.reserve {
            check_seat(*s)?;
            world.entity_mut(seats.get(*s)).insert(InReserve(true));
        }
        let faces = nums.die_faces.max(6);
        if let Some(bad_face) = self.dice.iter().find(|d| !(1..=faces).contains(*d)) {
            return Err(bad(format!("a die shows 1 to {faces}, not {bad_face}")));
        }
        if !self.dice.is_empty() {
            world.insert_resource(ScriptedDice(self.dice.iter().copied().collect()));
        }
        match self.first {
            Some(first) => {
                check_seat(first)?;
                if !part::<Standing>(world, first).alive {
                    return Err(bad(format!("seat {first} is out")));
                }
                with_param::<Opening<'static, 'static>, _>(world, |mut o| o.start_at(first));
            }
            None => world
                .resource_mut::<NextState<CruelerPhase>>()
                .set(CruelerPhase::Interlude),
        }
        Ok(())
    }
}

crate::check_enum! {
    /// A statement about a Crueler World table that a scenario checks.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub enum CruelerCheck about CruelerFact {
        Phase(CruelerPhase),
        Round(u8),
        PhaseNo(u8),
        Life(SeatId, i32),
        /// How many tokens in the seat's box came from `from` (`None`: bank).
        TokensFrom(SeatId, Option<SeatId>, u32),
        Alive(SeatId, bool),
        Reserve(SeatId, bool),
        Asked(SeatId),
        Holds(SeatId, SeatId),
        Lacks(SeatId, SeatId),
        Place(SeatId, u8),
    }
}

/// Something a seat's view may show (`CruelerView::traces`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerFact {
    /// The seat's life.
    Life(SeatId, i32),
    /// How many predator cards the seat holds.
    Cards(SeatId, usize),
    /// The seat holds the predator card engraved with this number.
    Holds(SeatId, SeatId),
    /// The seat is shown in the Nature Reserve.
    Reserve(SeatId),
    /// The seat is one side of the duel under way.
    Dueling(SeatId),
    /// The seat is being asked whether it preys.
    Asked(SeatId),
    /// The seat's box holds life tokens so, token by token (the mark, if
    /// any, and how many): what its owner sees between phases.
    Tokens(SeatId, Vec<(Option<SeatId>, u32)>),
}

pub fn verify(world: &World, check: &CruelerCheck) -> Result<(), String> {
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let count = world.resource::<SeatEntities>().0.len();
    let seat = |s: SeatId| {
        if s.index() < count {
            Ok(s)
        } else {
            Err(format!("no seat {s}"))
        }
    };
    let calendar = world.resource::<Calendar>();
    match check {
        CruelerCheck::Phase(want) => {
            let phase = *world.resource::<State<CruelerPhase>>().get();
            ok(phase == *want, format!("phase is {phase:?}, not {want:?}"))
        }
        CruelerCheck::Round(r) => ok(calendar.round == *r, format!("round is {}", calendar.round)),
        CruelerCheck::PhaseNo(n) => ok(
            calendar.phase_no == *n,
            format!("phase is number {}", calendar.phase_no),
        ),
        CruelerCheck::Life(s, l) => {
            let have = life(world, seat(*s)?);
            ok(have == *l, format!("seat {s} has {have} life, not {l}"))
        }
        CruelerCheck::TokensFrom(s, from, n) => {
            let tokens = &part::<LifeBox>(world, seat(*s)?).0;
            let have = tokens.iter().filter(|t| *t == from).count() as u32;
            ok(
                have == *n,
                format!("seat {s} holds {have} tokens from {from:?}, not {n}"),
            )
        }
        CruelerCheck::Alive(s, b) => {
            let have = alive(world, seat(*s)?);
            ok(have == *b, format!("seat {s} alive: {have}"))
        }
        CruelerCheck::Reserve(s, b) => {
            let have = part::<InReserve>(world, seat(*s)?).0;
            ok(have == *b, format!("seat {s} in the reserve: {have}"))
        }
        CruelerCheck::Asked(s) => {
            let asked = world.resource::<Asking>().asked();
            ok(asked == Some(*s), format!("asked: {asked:?}"))
        }
        CruelerCheck::Holds(s, c) => ok(
            part::<PredatorCards>(world, seat(*s)?).0.contains(c),
            format!("seat {s} lacks card {c}"),
        ),
        CruelerCheck::Lacks(s, c) => ok(
            !part::<PredatorCards>(world, seat(*s)?).0.contains(c),
            format!("seat {s} holds card {c}"),
        ),
        CruelerCheck::Place(s, place) => {
            if result(world).is_none() {
                return Err("the game is not over".into());
            }
            let have = places(world)[seat(*s)?.index()];
            ok(
                have == *place,
                format!("seat {s} finished {have}, not {place}"),
            )
        }
        CruelerCheck::Score(..)
        | CruelerCheck::Said(_)
        | CruelerCheck::NotSaid(_)
        | CruelerCheck::Told(..)
        | CruelerCheck::NotTold(..)
        | CruelerCheck::SaidInOrder(_)
        | CruelerCheck::Sees(..)
        | CruelerCheck::NotSees(..) => {
            crate::verify_common_check!(
                world,
                check,
                CruelerCheck,
                CruelerGame,
                CruelerView,
                result(world)
            )
        }
    }
}

impl CruelerView {
    /// How a fact would show in what a seat is sent (scenario `Sees`
    /// checks search the whole view and the notes for it).
    pub fn traces(fact: &CruelerFact) -> Vec<crate::scenario::Trace> {
        use crate::scenario::Trace;
        vec![match *fact {
            CruelerFact::Life(s, life) => {
                Trace::of_seat(s, &["my_life"], life).per_seat(&["scores"])
            }
            CruelerFact::Cards(s, n) => Trace::of_seat(s, &["my_cards"], n).counted(),
            CruelerFact::Holds(s, card) => Trace::of_seat(s, &["my_cards"], card),
            CruelerFact::Reserve(s) => Trace::of_seat(s, &[], true).per_seat(&["reserve"]),
            CruelerFact::Dueling(s) => Trace::anywhere(&["predator", "prey"], s),
            CruelerFact::Asked(s) => Trace::anywhere(&["asked"], s),
            CruelerFact::Tokens(s, ref tokens) => Trace::of_seat(s, &["my_tokens"], tokens),
        }]
    }
}
