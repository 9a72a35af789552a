//! What a Crueler World table holds: the phases, the actions, each seat's
//! components, the game-wide resources, and what the systems tell the
//! narrator. The rules document (`rules.md`) gives every clause.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::numbers::numbers;
use crate::table::{Offer, Offers, SeatEntities, SeatId};

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CruelerPhase {
    #[default]
    Idle,
    /// Between predation phases: life may be given or exchanged; everyone
    /// says when they are ready for the next phase.
    Interlude,
    /// The referee asks the players in turn whether they prey.
    Predation,
    /// Two players duel.
    Duel,
    GameOver,
}

/// The three beasts of the duel: each beats one and loses to one, as in
/// 斗兽棋 (the elephant tramples the tiger, the tiger eats the rat, the rat
/// creeps into the elephant's trunk).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Beast {
    Elephant,
    Tiger,
    Rat,
}

impl Beast {
    pub const ALL: [Beast; 3] = [Beast::Elephant, Beast::Tiger, Beast::Rat];

    pub fn beats(self, other: Beast) -> bool {
        matches!(
            (self, other),
            (Beast::Elephant, Beast::Tiger)
                | (Beast::Tiger, Beast::Rat)
                | (Beast::Rat, Beast::Elephant)
        )
    }
}

/// What "this round" means for who has preyed and who was preyed upon, in
/// rounds 3 and 4, which have two predation phases (a table setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StarveBy {
    /// The seed: 「all players who have not preyed this round」: a player who
    /// preyed, or was preyed upon, in the round's first phase does not
    /// starve in its second.
    #[default]
    Round,
    /// Each predation phase counts afresh.
    Phase,
}

/// How duels are fought (a table setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuelKind {
    /// Both choose a beast in secret; first to the needed wins.
    #[default]
    Beasts,
    /// The referee rolls a die for each; the higher wins (ties roll again).
    Dice,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerAction {
    /// Interlude: ready for the next predation phase.
    Ready,
    /// Predation, when asked: prey on `target`, handing over the predator
    /// card engraved with its number.
    Prey {
        target: SeatId,
    },
    /// Predation, when asked: do not prey.
    Pass,
    /// Duel: the beast for this throw.
    Choose {
        beast: Beast,
    },
    /// Interlude: offer `give` of my life points for `want` of theirs.
    OfferLife {
        to: SeatId,
        give: u32,
        want: u32,
    },
    Accept {
        from: SeatId,
    },
    Decline {
        from: SeatId,
    },
    Withdraw {
        to: SeatId,
    },
    /// An eliminated player gives one of their predator cards to a living
    /// player.
    GiveCard {
        to: SeatId,
        card: SeatId,
    },
}

/// A life-point trade offered in an interlude: `give` of the offerer's
/// life for `want` of the other's (kept by the table core's trading).
pub type LifeOffer = Offer<u32>;

/// A duel in progress: an entity of its own while it lasts.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    pub predator: SeatId,
    pub prey: SeatId,
    /// Throws won by the predator and by the prey.
    pub wins: [u8; 2],
    pub choice: [Option<Beast>; 2],
    /// Every throw so far (predator's beast, prey's beast).
    pub throws: Vec<(Beast, Beast)>,
    /// Who won, once decided (by throws or by the dice).
    #[serde(default)]
    pub winner: Option<SeatId>,
}

impl Duel {
    pub fn new(predator: SeatId, prey: SeatId) -> Self {
        Self {
            predator,
            prey,
            wins: [0, 0],
            choice: [None, None],
            throws: Vec::new(),
            winner: None,
        }
    }

    /// 0 for the predator, 1 for the prey, `None` for anyone else.
    pub fn side(&self, seat: SeatId) -> Option<usize> {
        [self.predator, self.prey].iter().position(|s| *s == seat)
    }

    pub fn loser(&self) -> Option<SeatId> {
        let w = self.winner?;
        Some(if w == self.predator {
            self.prey
        } else {
            self.predator
        })
    }
}

/// What the table learned about a duel or a starvation (public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Duel {
        round: u8,
        n: i32,
        predator: SeatId,
        prey: SeatId,
        winner: SeatId,
    },
    /// A duel ended with a player out; the referee names neither side.
    Elimination {
        round: u8,
        n: i32,
    },
    Starved {
        round: u8,
        n: i32,
        seat: SeatId,
    },
    /// A starved player fell: named, since nobody eliminated them.
    StarvedOut {
        round: u8,
        n: i32,
        seat: SeatId,
    },
}

// ----- each seat's components ------------------------------------------------

/// The life-point tokens in a player's box, each marked with the player it
/// came from (`None`: from the bank).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LifeBox(pub Vec<Option<SeatId>>);

impl LifeBox {
    pub fn life(&self) -> i32 {
        self.0.len() as i32
    }

    /// Takes up to `n` tokens: the owner's own first, then the others'
    /// ("preferentially deducting the losing side's original life points").
    pub fn take(&mut self, owner: SeatId, n: i32) -> Vec<Option<SeatId>> {
        let mut taken = Vec::new();
        while (taken.len() as i32) < n && !self.0.is_empty() {
            let at = self
                .0
                .iter()
                .position(|t| *t == Some(owner))
                .unwrap_or(self.0.len() - 1);
            taken.push(self.0.remove(at));
        }
        taken
    }
}

/// Predator cards held, by the number engraved on each.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PredatorCards(pub Vec<SeatId>);

/// In the game, or out (and when: 1 = the first to fall; and how: the
/// referee's secret until the end reveals it, rules.md §9).
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub alive: bool,
    pub fell: Option<u8>,
    /// How the seat fell (none for tables saved before it was kept).
    #[serde(default)]
    pub how: Option<Fall>,
}

/// How a seat fell: in which round, and to whom (none: it starved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fall {
    pub round: u8,
    pub by: Option<SeatId>,
}

impl Default for Standing {
    fn default() -> Self {
        Self {
            alive: true,
            fell: None,
            how: None,
        }
    }
}

/// Preyed, and was preyed upon, this round (this phase with
/// `StarveBy::Phase`): who starves on the second asking.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hunger {
    pub preyed: bool,
    pub preyed_upon: bool,
}

/// Why a seat's own life or predator cards changed (issue 71): each
/// change is a line told to that seat alone, with its amount as data.
/// Only what the seat may know: a duel's other side (the seat fought it),
/// never who else is asked or what another box holds (rules.md §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LifeWhy {
    /// A life trade with `with` in the interlude: `gave` given, `got`
    /// received.
    Traded { with: SeatId, gave: u32, got: u32 },
    /// A duel with `against` won (`preyed`: the seat was the predator).
    Won { against: SeatId, preyed: bool },
    /// A duel with `against` lost; `reserve`: into the Nature Reserve.
    Lost {
        against: SeatId,
        preyed: bool,
        reserve: bool,
    },
    /// The seat eliminated `against`: N and the bonus.
    Eliminated { against: SeatId, bonus: i32 },
    /// `by` won the duel and the seat's box is empty: out.
    Out { by: SeatId },
    /// Asked twice, did not prey, not preyed upon: N starving; `out`: the
    /// box is empty.
    Starved { out: bool },
    /// Preying: the card engraved with `card` handed to the referee.
    CardHandedIn { card: SeatId },
    /// Out, the seat gave its card for `card` to `to`.
    CardGiven { to: SeatId, card: SeatId },
    /// `from` (out) gave the seat its card for `card`.
    CardReceived { from: SeatId, card: SeatId },
}

/// One change to a seat's own life or cards: when (round, phase, N), why,
/// by how much, and the life after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LifeChange {
    pub round: u8,
    pub n: i32,
    pub why: LifeWhy,
    /// Life gained (or lost, below 0).
    pub life: i32,
    /// Predator cards gained (or lost).
    pub cards: i32,
    pub life_after: i32,
}

impl LifeChange {
    /// Whether the change is to life (the settlement a screen plays out);
    /// else to cards only.
    pub fn of_life(&self) -> bool {
        !matches!(
            self.why,
            LifeWhy::CardHandedIn { .. } | LifeWhy::CardGiven { .. } | LifeWhy::CardReceived { .. }
        )
    }
}

/// Every change to the seat's own life and cards, as it was told them
/// (its screen's lines say the same).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Told(pub Vec<LifeChange>);

/// Tells one seat of a change to its own life or cards: kept on the seat
/// (the lines its screen shows) and put into words for it (`news.rs`).
pub fn tell(
    told: &mut Query<&mut Told>,
    seats: &SeatEntities,
    news: &mut MessageWriter<CruelerNews>,
    seat: SeatId,
    change: LifeChange,
) {
    told.get_mut(seats.get(seat))
        .expect("a seat")
        .0
        .push(change);
    news.write(CruelerNews::Changed { seat, change });
}

/// In the Nature Reserve this round.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InReserve(pub bool);

/// Said "ready" in this interlude.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ready(pub bool);

// ----- game-wide resources ---------------------------------------------------

/// The round and the predation phase within it, both 1-based.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calendar {
    pub round: u8,
    pub phase_no: u8,
}

impl Default for Calendar {
    fn default() -> Self {
        Self {
            round: 1,
            phase_no: 1,
        }
    }
}

impl Calendar {
    /// N of the current (or next) predation phase.
    pub fn n(&self) -> i32 {
        numbers().n(self.round, self.phase_no)
    }

    /// A change told now: this round and N, `life` and `cards` gained,
    /// the life after.
    pub fn change(&self, why: LifeWhy, life: i32, cards: i32, life_after: i32) -> LifeChange {
        LifeChange {
            round: self.round,
            n: self.n(),
            why,
            life,
            cards,
            life_after,
        }
    }

    /// The Nature Reserve is open this round.
    pub fn reserve_open(&self) -> bool {
        numbers().reserve(self.round)
    }
}

/// The die's last throw.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die(pub Option<u8>);

/// Who is asked, in order, this pass; and whether this is the second
/// asking (the one where refusing means starving).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asking {
    pub order: Vec<SeatId>,
    pub turn: usize,
    pub second: bool,
}

impl Asking {
    pub fn asked(&self) -> Option<SeatId> {
        self.order.get(self.turn).copied()
    }
}

/// Every public result so far.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History(pub Vec<Outcome>);

/// The duel under way, if any: the entity that holds its [`Duel`] (an
/// index, as `SeatEntities` is for seats).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dueling(pub Option<Entity>);

/// How many players have fallen.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallen(pub u8);

/// Life trades offered and not yet answered.
pub type LifeOffers = Offers<u32>;

crate::game_state! {
    /// One seat's components, for a snapshot.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatState {
        pub life: LifeBox,
        pub cards: PredatorCards,
        pub standing: Standing,
        pub hunger: Hunger,
        pub reserve: InReserve,
        pub ready: Ready,
        #[serde(default)]
        pub told: Told,
    }

    /// Everything of a Crueler World table a snapshot holds: each seat's
    /// components in seat order, then the game-wide resources.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CruelerState {
        pub seats: Vec<SeatState>,
        pub calendar: Calendar,
        pub die: Die,
        pub asking: Asking,
        pub duel: Option<Duel>,
        pub offers: LifeOffers,
        pub history: History,
        pub fallen: Fallen,
    }
}

crate::resource_parts!(Calendar, Die, Asking, LifeOffers, History, Fallen);

// ----- what happened, for the narrator -----------------------------------

/// What the rule systems tell the narrator (`news.rs`), in the order it
/// happened. Nothing here is text.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum CruelerNews {
    /// The table opens; `start_life` unless a script filled the boxes.
    Opening {
        start_life: Option<i32>,
    },
    OfferMade {
        from: SeatId,
        to: SeatId,
        give: u32,
        want: u32,
    },
    OfferLapsed {
        from: SeatId,
        to: SeatId,
    },
    Declined {
        from: SeatId,
        by: SeatId,
    },
    CardGiven {
        from: SeatId,
        to: SeatId,
        card: SeatId,
    },
    PredationOpened {
        round: u8,
        phase_no: u8,
        n: i32,
        first: SeatId,
    },
    Passed {
        seat: SeatId,
    },
    Starved {
        seat: SeatId,
        n: i32,
        out: bool,
    },
    SecondAsking,
    DuelBegan {
        predator: SeatId,
        prey: SeatId,
    },
    Throw {
        predator: SeatId,
        prey: SeatId,
        beasts: (Beast, Beast),
        wins: [u8; 2],
    },
    Dice {
        predator: SeatId,
        prey: SeatId,
        rolls: (u8, u8),
    },
    DuelWon {
        predator: SeatId,
        prey: SeatId,
        winner: SeatId,
        n: i32,
        /// The loser goes to the Nature Reserve.
        reserve: bool,
    },
    Eliminated {
        winner: SeatId,
        loser: SeatId,
        n: i32,
        bonus: i32,
    },
    PhaseOver,
    RoundBegins {
        round: u8,
        reserve: bool,
    },
    GameOver,
    InterludeTimeUp {
        lapsed: Vec<(SeatId, SeatId)>,
    },
    AskTimeUp {
        seat: SeatId,
    },
    BeastDrawn {
        seat: SeatId,
        beast: Beast,
    },
    /// A change to one seat's own life or cards, told to it alone.
    Changed {
        seat: SeatId,
        change: LifeChange,
    },
}

/// The asked player has answered (passed, or a duel ended): the asking
/// moves on.
#[derive(Message, Clone, Copy, Debug)]
pub struct Answered;

/// Everyone has been asked twice: the predation phase ends.
#[derive(Message, Clone, Copy, Debug)]
pub struct PhaseOver;

/// The die throws a scenario fixed, still to come (`CruelerSetup::dice`).
#[derive(Resource, Clone, Debug, Default)]
pub struct ScriptedDice(pub std::collections::VecDeque<u8>);

impl ScriptedDice {
    /// The next throw of a die with `faces` faces: the script's, else the
    /// table's generator.
    pub fn throw(script: Option<&mut Self>, rng: &mut crate::table::TableRng, faces: u8) -> u8 {
        use rand::RngExt;
        script
            .and_then(|s| s.0.pop_front())
            .unwrap_or_else(|| rng.0.random_range(1..=faces))
    }
}
