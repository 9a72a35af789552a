//! Scripted Crueler World tables: the set-up a scenario file may give and
//! the statements its `Check` steps make (format: `rules/SCENARIOS.md`;
//! files: `rules/scenarios/crueler/`).

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::game::{CruelerGame, CruelerView};
use super::numbers::numbers;
use super::state::{CruelerPhase, CruelerState};
use crate::scenario::{Heard, verify_heard, verify_sight};
use crate::table::Said;
use crate::table::{Rejection, SeatId};

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
}

fn bad(why: String) -> Rejection {
    Rejection::new(
        format!("scenario set-up: {why}"),
        format!("场景设定有误：{why}"),
    )
}

impl CruelerSetup {
    pub fn apply(
        &self,
        state: &mut CruelerState,
        _rng: &mut ChaCha8Rng,
    ) -> Result<(CruelerPhase, Vec<Said>), Rejection> {
        let seats = state.players.len();
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
        state.round = round;
        state.phase_no = phase_no;
        let check_seat = |s: SeatId| {
            if s.index() < seats {
                Ok(())
            } else {
                Err(bad(format!("there is no seat {s}")))
            }
        };
        if let Some(lives) = &self.lives {
            if lives.len() != seats {
                return Err(bad(format!("{} lives for {seats} seats", lives.len())));
            }
            for (i, &l) in lives.iter().enumerate() {
                state.players[i].tokens = vec![Some(SeatId(i as u8)); l.max(0) as usize];
            }
        }
        if let Some(tokens) = &self.tokens {
            if tokens.len() != seats {
                return Err(bad(format!("{} boxes for {seats} seats", tokens.len())));
            }
            for (i, t) in tokens.iter().enumerate() {
                for s in t.iter().flatten() {
                    check_seat(*s)?;
                }
                state.players[i].tokens = t.clone();
            }
        }
        if let Some(cards) = &self.cards {
            if cards.len() != seats {
                return Err(bad(format!(
                    "{} hands of cards for {seats} seats",
                    cards.len()
                )));
            }
            for (i, c) in cards.iter().enumerate() {
                for s in c {
                    check_seat(*s)?;
                }
                state.players[i].cards = c.clone();
            }
        }
        for (k, s) in self.eliminated.iter().enumerate() {
            check_seat(*s)?;
            let p = &mut state.players[s.index()];
            p.alive = false;
            p.fell = Some(k as u8 + 1);
            p.tokens.clear();
        }
        state.fallen = self.eliminated.len() as u8;
        for s in &self.reserve {
            check_seat(*s)?;
            state.players[s.index()].reserve = true;
        }
        for p in &mut state.players {
            p.phase_start_life = p.life();
        }
        let mut said = Vec::new();
        let phase = match self.first {
            Some(first) => {
                check_seat(first)?;
                if !state.player(first).alive {
                    return Err(bad(format!("seat {first} is out")));
                }
                state.start_predation_at(first, &mut said)
            }
            None => CruelerPhase::Interlude,
        };
        Ok((phase, said))
    }
}

/// A statement about a Crueler World table that a scenario checks.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum CruelerCheck {
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
    /// The game is over and the seat finished with this much life (0 if out).
    Score(SeatId, i64),
    /// What the referee said (`scenario::Heard`).
    Said(String),
    NotSaid(String),
    Told(SeatId, String),
    NotTold(SeatId, String),
    SaidInOrder(Vec<String>),
    /// The first seat's own view shows the fact (or does not).
    Sees(SeatId, CruelerFact),
    NotSees(SeatId, CruelerFact),
}

/// Something a seat's view may show (`CruelerView::shows`).
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
}

pub fn verify(world: &World, check: &CruelerCheck) -> Result<(), String> {
    let state = world.resource::<CruelerState>();
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    let p = |s: SeatId| state.players.get(s.index()).ok_or(format!("no seat {s}"));
    match check {
        CruelerCheck::Phase(want) => {
            let phase = *world.resource::<State<CruelerPhase>>().get();
            ok(phase == *want, format!("phase is {phase:?}, not {want:?}"))
        }
        CruelerCheck::Round(r) => ok(state.round == *r, format!("round is {}", state.round)),
        CruelerCheck::PhaseNo(n) => ok(
            state.phase_no == *n,
            format!("phase is number {}", state.phase_no),
        ),
        CruelerCheck::Life(s, l) => {
            let have = p(*s)?.life();
            ok(have == *l, format!("seat {s} has {have} life, not {l}"))
        }
        CruelerCheck::TokensFrom(s, from, n) => {
            let have = p(*s)?.tokens.iter().filter(|t| *t == from).count() as u32;
            ok(
                have == *n,
                format!("seat {s} holds {have} tokens from {from:?}, not {n}"),
            )
        }
        CruelerCheck::Alive(s, b) => ok(
            p(*s)?.alive == *b,
            format!("seat {s} alive: {}", p(*s)?.alive),
        ),
        CruelerCheck::Reserve(s, b) => ok(
            p(*s)?.reserve == *b,
            format!("seat {s} in the reserve: {}", p(*s)?.reserve),
        ),
        CruelerCheck::Asked(s) => ok(
            state.asked() == Some(*s),
            format!("asked: {:?}", state.asked()),
        ),
        CruelerCheck::Holds(s, c) => {
            ok(p(*s)?.cards.contains(c), format!("seat {s} lacks card {c}"))
        }
        CruelerCheck::Lacks(s, c) => ok(
            !p(*s)?.cards.contains(c),
            format!("seat {s} holds card {c}"),
        ),
        CruelerCheck::Place(s, place) => {
            if !state.over {
                return Err("the game is not over".into());
            }
            let have = state.places()[s.index()];
            ok(
                have == *place,
                format!("seat {s} finished {have}, not {place}"),
            )
        }
        CruelerCheck::Score(s, n) => {
            crate::scenario::verify_score(super::game::result(world), *s, *n)
        }
        CruelerCheck::Said(t) => verify_heard(world, Heard::Said(t)),
        CruelerCheck::NotSaid(t) => verify_heard(world, Heard::NotSaid(t)),
        CruelerCheck::Told(s, t) => verify_heard(world, Heard::Told(*s, t)),
        CruelerCheck::NotTold(s, t) => verify_heard(world, Heard::NotTold(*s, t)),
        CruelerCheck::SaidInOrder(t) => verify_heard(world, Heard::SaidInOrder(t)),
        CruelerCheck::Sees(v, fact) => {
            verify_sight::<CruelerGame, _>(world, *v, fact, true, CruelerView::shows)
        }
        CruelerCheck::NotSees(v, fact) => {
            verify_sight::<CruelerGame, _>(world, *v, fact, false, CruelerView::shows)
        }
    }
}
