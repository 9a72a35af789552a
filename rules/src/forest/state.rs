//! What a Forest Showdown table holds: seat components, turn and round
//! resources, the phase, the timers, and the snapshot of all of them.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::deck::CardId;
pub use crate::table::SeatEntities;
use crate::table::SeatId;

#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ForestPhase {
    /// Before the first deal.
    #[default]
    Idle,
    /// The active player challenges or asks for a showdown.
    Turn,
    /// Two players each choose a card in secret.
    Showdown,
    GameOver,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestAction {
    /// "The first player starts by asking any other player for a Showdown."
    AskShowdown { target: SeatId },
    /// Lay down a card in a showdown you are part of (in secret until both have).
    PlayCard { card: CardId },
    /// "I want your `named` card, and I'm taking it with my `with` card."
    Challenge {
        target: SeatId,
        named: CardId,
        with: CardId,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestTimer {
    /// The round's time is up.
    RoundTime,
    /// The active player has not acted.
    TurnChoice,
    /// A showdown card has not been chosen.
    ShowdownCard,
}

/// A seat's cards: secret to everyone else. Kept sorted.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand(pub Vec<CardId>);

/// The cards the whole table has seen this seat hold and not seen leave:
/// the record a player with a perfect memory keeps. Always part of the hand.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known(pub Vec<CardId>);

/// Score of each finished round, and whether this seat was dealt one card
/// fewer this round.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    pub rounds: Vec<i64>,
    pub short_hand: bool,
    /// The hand each finished round was counted from, for the end's
    /// reveal (none for tables saved before it was kept).
    #[serde(default)]
    pub hands: Vec<Vec<CardId>>,
}

/// How two cards met, from one side's: a showdown's two cards, or a
/// challenge's taking card and the card it named (rules.md §4-§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Meeting {
    /// The seat's card eats the other.
    Eats,
    /// The other card eats the seat's.
    Eaten,
    /// Each eats the other (「preying insects eat spiders, and spiders eat
    /// preying insects」).
    Mutual,
    /// Neither eats the other.
    Neither,
    /// Death & Decay and one of the cards that take it.
    DecayTaker,
}

/// Why a seat's own hand changed, or a meeting it was in left it as it
/// was (issue 71): told to that seat, with its amounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestWhy {
    /// The round's deal: `cards` cards; `short`: one fewer than the most,
    /// and the bonus at the count.
    Dealt { round: u8, cards: u8, short: bool },
    /// A showdown with `other`: the seat's `mine` met their `theirs`.
    Showdown {
        other: SeatId,
        mine: CardId,
        theirs: CardId,
        meeting: Meeting,
    },
    /// A challenge between the seat and `other` (`challenger`: the seat
    /// challenged): `named` asked for, taken `with`; `right`: it was held.
    /// `meeting`: how `with` meets `named`.
    Challenge {
        other: SeatId,
        challenger: bool,
        named: CardId,
        with: CardId,
        right: bool,
        meeting: Meeting,
    },
}

/// One change to a seat's own hand: why, the cards and energy it gained
/// (or lost), and the hand's energy after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForestChange {
    pub why: ForestWhy,
    pub cards: i32,
    pub energy: i32,
    pub energy_after: i64,
}

/// The seat's own lines of this round, as it was told them: how many, and
/// the newest few (its screen shows the new ones; its notes keep them
/// all, so a view stays small however long a round runs).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Told {
    pub count: usize,
    pub newest: Vec<ForestChange>,
}

impl Told {
    /// The lines a view carries, at most.
    pub const KEPT: usize = 4;

    pub fn push(&mut self, change: ForestChange) {
        self.count += 1;
        self.newest.push(change);
        if self.newest.len() > Self::KEPT {
            self.newest.remove(0);
        }
    }

    /// A round's deal: its first line.
    pub fn start(&mut self, dealt: ForestChange) {
        self.count = 1;
        self.newest.clear();
        self.newest.push(dealt);
    }
}

impl Scores {
    pub fn total(&self) -> i64 {
        self.rounds.iter().sum()
    }
}

#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based; 0 before the first deal.
    pub number: u8,
    pub first: SeatId,
    pub time_up: bool,
}

#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub active: SeatId,
    /// The round's first turn must be a showdown (seed: "The first player
    /// starts by asking any other player for a Showdown").
    pub opening: bool,
    pub death_decay_challenges: u8,
    pub death_decay_captures: u8,
    pub captures: u16,
    /// Set when the turn has finished; settled at the end of the step.
    pub over: bool,
}

impl Default for Turn {
    fn default() -> Self {
        Self::start(SeatId(0), false)
    }
}

impl Turn {
    pub fn start(active: SeatId, opening: bool) -> Self {
        Self {
            active,
            opening,
            death_decay_challenges: 0,
            death_decay_captures: 0,
            captures: 0,
            over: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingShowdown {
    pub asker: SeatId,
    pub target: SeatId,
    pub asker_card: Option<CardId>,
    pub target_card: Option<CardId>,
}

impl PendingShowdown {
    pub fn choice_mut(&mut self, seat: SeatId) -> Option<&mut Option<CardId>> {
        if seat == self.asker {
            Some(&mut self.asker_card)
        } else if seat == self.target {
            Some(&mut self.target_card)
        } else {
            None
        }
    }

    pub fn choice(&self, seat: SeatId) -> Option<Option<CardId>> {
        if seat == self.asker {
            Some(self.asker_card)
        } else if seat == self.target {
            Some(self.target_card)
        } else {
            None
        }
    }
}

#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Showdown(pub Option<PendingShowdown>);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShowdownOutcome {
    AskerTakes,
    TargetTakes,
    StandOff,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowdownReveal {
    pub asker: SeatId,
    pub target: SeatId,
    pub asker_card: CardId,
    pub target_card: CardId,
    pub outcome: ShowdownOutcome,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeReveal {
    pub challenger: SeatId,
    pub target: SeatId,
    pub named: CardId,
    pub with: CardId,
    pub right: bool,
}

/// The latest public events, for tables to show.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveals {
    pub showdown: Option<ShowdownReveal>,
    pub challenge: Option<ChallengeReveal>,
}

crate::game_state! {
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatState {
        pub hand: Hand,
        pub known: Known,
        pub scores: Scores,
        #[serde(default)]
        pub told: Told,
    }

    /// Everything Forest Showdown adds to a table snapshot.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct ForestState {
        pub seats: Vec<SeatState>,
        pub round: Round,
        pub turn: Turn,
        pub showdown: Showdown,
        pub reveals: Reveals,
    }
}

crate::resource_parts!(Round, Turn, Showdown, Reveals);

/// A scripted deal for scenarios and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForestSetup {
    /// Cards each seat starts with, by seat.
    pub hands: Vec<Vec<CardId>>,
    /// Deal the cards no hand names, one at a time to the seat holding the
    /// fewest (first such seat from the first player). Default: true.
    pub deal_rest: Option<bool>,
    /// Who takes the first turn (default seat 1).
    pub first: Option<SeatId>,
    /// The deals of the rounds after the first, in order (`hands` and
    /// `deal_rest` as above): chance a scenario fixes beyond its first
    /// deal. Rounds past the list are dealt from the seed.
    #[serde(default)]
    pub later: Vec<ForestDeal>,
}

/// A later round's deal, as a script gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForestDeal {
    pub hands: Vec<Vec<CardId>>,
    #[serde(default)]
    pub deal_rest: Option<bool>,
}

/// The scripted deals still to come (`ForestSetup::later`).
#[derive(Resource, Clone, Debug, Default)]
pub struct ScriptedDeals(pub std::collections::VecDeque<ForestDeal>);

crate::check_enum! {
    /// Statements a scenario can check.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum ForestCheck about ForestFact {
        Holds(SeatId, CardId),
        Lacks(SeatId, CardId),
        HandSize(SeatId, usize),
        /// The public record shows this seat holding this card.
        KnownHolds(SeatId, CardId),
        Active(SeatId),
        Phase(ForestPhase),
        Round(u8),
        /// The score of a finished round (1-based).
        RoundScore(SeatId, u8, i64),
        ShortHand(SeatId, bool),
        /// Places at the end of the game, by seat.
        Places(Vec<u8>),
    }
}

/// Something a seat's view may show (`ForestView::traces`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestFact {
    /// That the seat holds the card: the viewer's own hand, or the public
    /// record of another seat.
    Holds(SeatId, CardId),
    /// The seat's face-down card in the showdown under way.
    Chose(SeatId, CardId),
    /// The seat does not hold the card: what a wrong challenge against it
    /// shows everyone.
    Lacks(SeatId, CardId),
}

// ----- what happened, for the narrator -----------------------------------

/// What Forest Showdown's rule systems tell the narrator (`news.rs`), in
/// the order it happened. Nothing here is text.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum ForestNews {
    /// A seat's hand for the round (told only to that seat).
    Dealt {
        seat: SeatId,
        cards: Vec<CardId>,
    },
    RoundDealt {
        round: u8,
    },
    /// These seats were dealt one card fewer and get the bonus.
    ShortHand {
        seats: Vec<SeatId>,
        bonus: i64,
    },
    TurnBegins {
        seat: SeatId,
        opening: bool,
    },
    ShowdownAsked {
        asker: SeatId,
        target: SeatId,
    },
    /// A showdown card laid face down (the table hears only that it was).
    CardLaid {
        seat: SeatId,
        card: CardId,
    },
    ShowdownRevealed(ShowdownReveal),
    Challenged(ChallengeReveal),
    /// A change to one seat's own hand, told to it alone.
    Changed {
        seat: SeatId,
        change: ForestChange,
    },
    RoundTimeUp,
    /// The turn's clock ran out after the round's time: the turn is over.
    TurnTimedOut {
        seat: SeatId,
    },
    /// The turn's clock ran out: the table asks a showdown for the seat.
    ShowdownForced {
        seat: SeatId,
    },
    RandomCard {
        seat: SeatId,
    },
    RoundOver {
        round: u8,
        scores: Vec<i64>,
    },
    GameOver {
        totals: Vec<i64>,
    },
}

/// The turn is over and nobody may take the next (time is up, or fewer
/// than two hold cards): the round ends.
#[derive(Message, Clone, Copy, Debug)]
pub struct RoundOver;
