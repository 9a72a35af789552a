//! What a Gene Survival table holds: the phases, the actions, each seat's
//! components, the game-wide resources, and the news the systems tell the
//! narrator. The rules document (`rules.md`) gives every clause.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::map::{FloorId, ItemKind, RoomId};
pub use super::settle::GenesRefusal;
use super::settle::{Genes, numbers};
use crate::table::{SeatId, TradeRefusal};

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GenePhase {
    #[default]
    Idle,
    /// Everyone spends gene points and picks a spawn room, in secret.
    Setup,
    /// Order cards are dealt; players talk (and, later, trade) until ready.
    Free,
    /// Players act one at a time in order-card order.
    Action,
    GameOver,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneAction {
    /// Setup: the gene panel and the secret spawn room.
    Prepare { genes: Genes, spawn: RoomId },
    /// Free phase: done talking.
    Ready,
    /// Action phase, first: move to a room within speed.
    Move { to: RoomId },
    /// Action phase, after moving: draw a card this room gives.
    Draw { kind: ItemKind },
    /// Action phase, last for the living: the gas vote (ends the turn).
    Vote { floor: FloorId },
    /// Action phase: a shadow ends its turn after moving (the living too,
    /// once every floor is gassed).
    EndTurn,
    /// Action phase: uses a card. Adrenaline before moving; the others
    /// after; the rocket launcher names a room.
    Use {
        kind: ItemKind,
        room: Option<RoomId>,
    },
    /// Action phase, after moving, in a room that gives cards: leaves a card
    /// here.
    Discard { kind: ItemKind },
    /// Action phase, after moving: takes a card left in this room (the
    /// morgue's included) instead of drawing.
    Take { kind: ItemKind },
    /// Action phase, after moving, in the surgery: a new gene panel that
    /// moves at most `SURGERY_POINTS` points.
    Surgery { genes: Genes },
    /// Free phase: offers a trade to one player: these cards of mine (and,
    /// if `swap_order`, our order cards) for those cards of theirs. Replaces
    /// any earlier offer to the same player.
    Offer {
        to: SeatId,
        give: Vec<ItemKind>,
        want: Vec<ItemKind>,
        swap_order: bool,
    },
    /// Free phase: accepts the offer `from` made; the trade happens now.
    Accept { from: SeatId },
    /// Free phase: turns down the offer `from` made.
    Decline { from: SeatId },
    /// Free phase: takes back my offer to `to`.
    Withdraw { to: SeatId },
    /// Table talk: to everyone in the free phase; in the action phase only
    /// to those on the same side of the action room (rules.md §5).
    Chat { text: String },
}

/// One side of a trade (free phase): item cards, and whether the side's
/// order card goes too. Order cards change hands only both ways (an
/// offer swaps them or not), so both sides of an offer say the same.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goods {
    pub cards: Vec<ItemKind>,
    pub order_card: bool,
}

/// A trade one player has offered another: the table core's offer
/// (offer, accept, decline, withdraw) with Gene's goods.
pub type Offer = crate::table::Offer<Goods>;

/// Trades offered and not yet answered (free phase only).
pub type TradeOffers = crate::table::Offers<Goods>;

/// What Gene's offers add to the core's.
pub trait GeneOffer {
    /// Whether the offer swaps the two players' order cards.
    fn swaps_order(&self) -> bool;
    /// Whether the player offered this holds every card it asks for.
    fn can_be_met_by(&self, hand: &[ItemKind]) -> bool;
}

impl GeneOffer for Offer {
    fn swaps_order(&self) -> bool {
        self.give.order_card
    }
    fn can_be_met_by(&self, hand: &[ItemKind]) -> bool {
        holds_all(hand, &self.want.cards)
    }
}

/// One announced line of a settlement: its step (1-7 as the seed numbers
/// them, 8 for the HP roll-call) and what it announces. The narrator puts
/// it into words (`news::settle_words`); a client plays it out on the map
/// from the rooms and floors it names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettleLine {
    pub step: u8,
    pub round: u8,
    pub fact: SettleFact,
}

/// What a settlement line announces, and no more than the seed lets the
/// table announce (whether a surgery took place, not who; a room's
/// battle, not who fought).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SettleFact {
    /// Step 1: whether a surgery took place.
    Surgery(bool),
    /// Step 2: two living players fought in the room.
    Battle(RoomId),
    /// Step 2: three or more living players fought in the room.
    Brawl(RoomId),
    /// Step 2: a shadow met the living in the room.
    ShadowMet(RoomId),
    /// Step 2: nobody fought anywhere.
    NoBattles,
    /// Step 3: the floor is gassed from now on.
    Gassed(FloorId),
    /// Step 5: the rocket launcher hit the room.
    Rocket(RoomId),
    /// Step 6: whether anyone changed their own state.
    StateChanged(bool),
    /// Any step: the seat's HP reached 0.
    Shadow(SeatId),
    /// Step 7: the seat's shadow revived.
    Revived(SeatId),
    /// The seat is the last one living and wins.
    LastLiving(SeatId),
    /// The roll-call: every seat's HP, in seat order.
    Hps(Vec<(SeatId, i32)>),
}

impl SettleLine {
    /// The rooms the line names (what a map lights up).
    pub fn rooms(&self) -> Vec<RoomId> {
        match self.fact {
            SettleFact::Battle(r)
            | SettleFact::Brawl(r)
            | SettleFact::ShadowMet(r)
            | SettleFact::Rocket(r) => vec![r],
            _ => vec![],
        }
    }

    /// The floors the line names.
    pub fn floors(&self) -> Vec<FloorId> {
        match self.fact {
            SettleFact::Gassed(f) => vec![f],
            _ => vec![],
        }
    }
}

/// The longest chat line, in characters.
pub const CHAT_CHARS: usize = 200;
/// The most cards one side of a trade may name.
pub const TRADE_CARDS: usize = 12;

/// Gene points one surgery may move (rules.md §3).
pub const SURGERY_POINTS: u8 = 2;

// ----- each seat's components ------------------------------------------------

/// The gene panel (secret), and whether it was operated on this round.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Panel {
    pub genes: Option<Genes>,
    pub operated: bool,
}

/// HP and the shadow's state.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vitals {
    pub hp: i32,
    /// HP as the last settlement announced it: what everyone may know.
    pub public_hp: i32,
    /// HP at the end of the previous round (ranks an all-shadow table).
    pub last_round_hp: i32,
    pub shadow: bool,
    /// HP drained while a shadow.
    pub drained: i32,
    /// Immune to gas and upkeep this round (the first after reviving).
    pub immune: bool,
}

impl Default for Vitals {
    fn default() -> Self {
        let hp = numbers().start_hp;
        Self {
            hp,
            public_hp: hp,
            last_round_hp: hp,
            shadow: false,
            drained: 0,
            immune: false,
        }
    }
}

/// The room the player stands in (secret).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place(pub Option<RoomId>);

/// The cards the player saw lying in its room when it last acted there:
/// what its view shows of the room until it acts again. Others who come
/// and go after it (this round, while it waits, or later) leave no trace
/// it could see: 「行动结束的玩家将进入会议室等候，无法与未行动的玩家交换
/// 信息」 and positions are secret (issue 35 E).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenPile(pub Vec<ItemKind>);

/// The cards held (secret), oldest first, and how many must still be left
/// in the room after a draw, a take or a surgery put the player over the
/// carry (rules.md §6).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    pub cards: Vec<ItemKind>,
    pub must_drop: u8,
}

/// What the player has done this round, and its cards' effects.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doings {
    pub ready: bool,
    pub moved: bool,
    pub drew: bool,
    pub vote: Option<FloorId>,
    pub acted: bool,
    /// Extra steps for the move, extra strength in battles, HP changed at
    /// settlement step 6.
    pub extra_speed: u32,
    pub extra_strength: i32,
    pub state_change: i32,
    /// Medicine, alcohol and adrenaline used this round.
    pub state_cards: u8,
}

/// The battles this player was in: round, room, HP it cost. What the
/// player itself knows of who is stronger (rules.md §11).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battles(pub Vec<(u8, RoomId, i32)>);

/// Why a seat's own HP changed in a settlement (issue 71): each change is
/// a line told to that seat alone, in the seed's order, with its amount
/// and HP before and after. 「对相关玩家的生命值进行秘密结算」, and positions
/// are secret (rules.md §9): a line never names who else was in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneWhy {
    /// Step 2: a battle (two living) or a brawl (more) in `room`: the
    /// strongest there had `strongest`, the seat `yours` (「其余玩家将扣除与
    /// 该玩家武力值之差的等量生命值」).
    Battle {
        room: RoomId,
        brawl: bool,
        strongest: i32,
        yours: i32,
    },
    /// Step 2: `shadows` shadows drained the seat in `room`.
    Drained { room: RoomId, shadows: i32 },
    /// Step 3: the seat stood on a gassed floor.
    Gas { floor: FloorId },
    /// Step 4: the upkeep, and what the seat handed in.
    Upkeep { water: bool, food: bool },
    /// Step 5: the rocket launcher hit the seat's room.
    Rocket { room: RoomId },
    /// Step 6: the seat's own medicine, alcohol or adrenaline.
    OwnState,
    /// Step 7: the seat's shadow revived.
    Revived,
    /// The end: gold bars turned to HP (「一金条可兑换一点生命值」).
    Gold { bars: i32 },
}

/// One line of a seat's own settlement: its step, why, by how much (HP),
/// and the HP after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneChange {
    pub round: u8,
    pub step: u8,
    pub why: GeneWhy,
    pub hp: i32,
    pub hp_after: i32,
}

/// The seat's own lines of the last settlement, for its screen (its
/// notes say the same).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Told(pub Vec<GeneChange>);

/// A seat's speed, strength and carry now (cards included).
pub fn speed(panel: &Panel, doings: &Doings) -> u32 {
    panel.genes.map_or(0, |g| u32::from(g.speed)) + doings.extra_speed
}

pub fn strength(panel: &Panel, vitals: &Vitals, doings: &Doings) -> i32 {
    if vitals.shadow {
        0
    } else {
        panel.genes.map_or(0, |g| i32::from(g.strength)) + doings.extra_strength
    }
}

pub fn carry(panel: &Panel, vitals: &Vitals) -> usize {
    if vitals.shadow {
        0
    } else {
        panel.genes.map_or(0, |g| usize::from(g.carry))
    }
}

// ----- game-wide resources ---------------------------------------------------

/// The round, this round's action order (order cards, 1st first) and whose
/// turn it is in the action phase (an index into `order`).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calendar {
    pub round: u8,
    pub order: Vec<SeatId>,
    pub turn: usize,
}

impl Calendar {
    pub fn active(&self) -> Option<SeatId> {
        self.order.get(self.turn).copied()
    }
}

/// The gassed floors.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gassed(pub Vec<FloorId>);

/// The cards not yet drawn.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supply(pub Vec<ItemKind>);

/// Cards lying in rooms (the morgue's included).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piles(pub BTreeMap<RoomId, Vec<ItemKind>>);

/// This round's secret doings that the settlement announces: the rooms
/// the rocket launcher was aimed at, and whether a surgery took place.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secrets {
    pub rockets: Vec<RoomId>,
    pub surgery: bool,
}

/// The last settlement, line by line, as it was announced.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report(pub Vec<SettleLine>);

/// The settlement under way: who fell in it (they do not revive in it),
/// and whether the last player living has already won.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Settling {
    pub on: bool,
    pub fallen: Vec<SeatId>,
    /// The lines announced so far, for the report.
    pub lines: Vec<SettleLine>,
    /// The settlement ended and the game goes on.
    pub next_round: bool,
}

crate::game_state! {
    /// One seat's components, for a snapshot.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SeatState {
        pub panel: Panel,
        pub vitals: Vitals,
        pub place: Place,
        pub hand: Hand,
        pub doings: Doings,
        pub battles: Battles,
        #[serde(default)]
        pub seen: SeenPile,
        #[serde(default)]
        pub told: Told,
    }

    /// Everything of a Gene Survival table a snapshot holds: each seat's
    /// components in seat order, then the game-wide resources.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct GeneState {
        pub seats: Vec<SeatState>,
        pub calendar: Calendar,
        pub gassed: Gassed,
        pub supply: Supply,
        pub piles: Piles,
        pub secrets: Secrets,
        pub offers: TradeOffers,
        pub report: Report,
    }
}

crate::resource_parts!(
    Calendar,
    Gassed,
    Supply,
    Piles,
    Secrets,
    TradeOffers,
    Report
);

// ----- what happened, for the narrator -----------------------------------

/// What Gene Survival's systems tell the narrator (`news.rs`), in order.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum GeneNews {
    Opening,
    Spawned {
        seat: SeatId,
        room: RoomId,
    },
    SetupTimeUp {
        seat: SeatId,
        genes: Genes,
        room: RoomId,
    },
    OrderCard {
        seat: SeatId,
        round: u8,
        card: u8,
    },
    FreePhase {
        round: u8,
    },
    FreeTimeUp,
    /// The free phase's end: surplus cards left in a room, or handed back.
    SurplusLeft {
        seat: SeatId,
        cards: Vec<ItemKind>,
        room: RoomId,
    },
    SurplusReturned {
        seat: SeatId,
        cards: Vec<ItemKind>,
    },
    ActionPhase {
        order: Vec<SeatId>,
    },
    Moved {
        seat: SeatId,
        room: RoomId,
    },
    Received {
        seat: SeatId,
        card: ItemKind,
        took: bool,
    },
    OverCarry {
        seat: SeatId,
        surplus: usize,
    },
    DroppedOldest {
        seat: SeatId,
        cards: Vec<ItemKind>,
        room: RoomId,
    },
    Used {
        seat: SeatId,
        card: ItemKind,
    },
    Operated {
        seat: SeatId,
        genes: Genes,
    },
    Offered(Offer),
    /// A trade done; `orders` gives each side's order card if it changed.
    Traded {
        offer: Offer,
        orders: Option<(u8, u8)>,
    },
    OfferLapsed {
        a: SeatId,
        b: SeatId,
    },
    Declined {
        from: SeatId,
        by: SeatId,
    },
    Withdrawn {
        from: SeatId,
        to: SeatId,
    },
    Chat {
        from: SeatId,
        text: String,
        to: Option<Vec<SeatId>>,
    },
    TurnTimeUp {
        seat: SeatId,
    },
    /// A settlement line (also kept in the `Report`).
    Settled(SettleLine),
    /// A change to one seat's own HP, told to it alone.
    Changed {
        seat: SeatId,
        change: GeneChange,
    },
    GameOver,
}

/// The player in the action room ended the turn (a vote, an end, a clock).
#[derive(Message, Clone, Copy, Debug)]
pub struct TurnEnded;

/// Why an action is refused. Typed, so asking "is this legal?" costs no
/// words; the narrator words it (`news::refusal`, `gene.ftl`'s `no-` keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// It is another player's turn in the action room.
    NotYourTurn,
    /// A trade move the table core refuses.
    Trade(TradeRefusal),
    /// Genes that break the set-up's rules.
    Genes(GenesRefusal),
    /// you are alone in the action room
    AloneInActionRoom,
    /// you hold no such card
    NoSuchCard,
    /// you are over your carry: leave {n} card(s) here first
    OverCarry { n: u8 },
    /// you have prepared already
    PreparedAlready,
    /// there is no such room
    NoSuchRoom,
    /// the morgue is for shadows: spawn elsewhere
    SpawnInMorgue,
    /// say something of 1 to {CHAT_CHARS} characters
    ChatLength,
    /// no control characters, please
    ChatControl,
    /// not now
    NotNow,
    /// offer to another player at this table
    OfferToAnother,
    /// the offer trades nothing
    TradesNothing,
    /// at most {TRADE_CARDS} cards a side
    TooManyTradeCards,
    /// shadows hold no cards: they trade order cards only
    ShadowTradesCards,
    /// you do not hold every card you offer
    OfferNotHeld,
    /// the cards that offer names are no longer held: ask for a new one
    OfferStale,
    /// in the free phase you drop cards only to get back within your carry
    FreeDropWithinCarry,
    /// you are ready already
    ReadyAlready,
    /// you have moved this round
    MovedAlready,
    /// that room is not within your speed (and you must leave this one)
    OutOfReach,
    /// move first
    MoveFirst,
    /// shadows cannot take cards
    ShadowTakes,
    /// you have drawn this round
    DrewAlready,
    /// no such card lies here
    NotLyingHere,
    /// shadows cannot use rooms
    ShadowUsesRoom,
    /// surgery happens in the surgery
    NotInSurgery,
    /// one surgery a round
    SurgeryDone,
    /// a surgery moves 1 to {SURGERY_POINTS} gene points
    SurgeryPoints,
    /// shadows cannot draw
    ShadowDraws,
    /// this room does not give that card
    RoomDoesNotGive,
    /// none of those are left
    NoneLeft,
    /// shadows do not vote
    ShadowVotes,
    /// there is no such floor
    NoSuchFloor,
    /// that floor is gassed already: it cannot be voted again
    FloorGassed,
    /// the living end their turn by voting
    EndByVoting,
    /// cards may be left only in rooms that give cards
    LeaveOnlyWhereDrawn,
    /// shadows hold no cards
    ShadowHoldsNoCards,
    /// water and food are handed in at settlement, gold bars count at the end
    NotUsable,
    /// adrenaline is used before moving
    AdrenalineAfterMove,
    /// at most {n} card(s) that change your state a round at this table
    StateCardsSpent { n: u8 },
    /// name the room to fire at
    RocketNeedsRoom,
    /// the game has not started
    NotStarted,
    /// trades are closed: cards change hands only in the free phase
    TradesClosed,
    /// the set-up is over: genes change only by surgery
    SetupOver,
    /// there is nothing to be ready for: players get ready in the free phase
    NothingToBeReadyFor,
    /// that is done in the action phase, in your turn
    ActionPhaseOnly,
    /// you hold no cards before the game begins
    NoCardsYet,
}

impl From<TradeRefusal> for Refusal {
    fn from(r: TradeRefusal) -> Self {
        Refusal::Trade(r)
    }
}

/// The refusal of an action its phase does not have, naming the real
/// reason (trades are closed, not "it is not your turn").
pub fn out_of_phase(phase: GenePhase, action: &GeneAction) -> Option<Refusal> {
    use GeneAction as A;
    use GenePhase as P;
    match (phase, action) {
        (P::GameOver, A::Chat { .. }) => None,
        (P::GameOver, _) => Some(Refusal::GameOver),
        (P::Idle, _) => Some(Refusal::NotStarted),
        (
            P::Setup | P::Action,
            A::Offer { .. } | A::Accept { .. } | A::Decline { .. } | A::Withdraw { .. },
        ) => Some(Refusal::TradesClosed),
        (P::Free | P::Action, A::Prepare { .. }) => Some(Refusal::SetupOver),
        (P::Setup | P::Action, A::Ready) => Some(Refusal::NothingToBeReadyFor),
        (
            P::Setup | P::Free,
            A::Move { .. }
            | A::Draw { .. }
            | A::Take { .. }
            | A::Use { .. }
            | A::Surgery { .. }
            | A::Vote { .. }
            | A::EndTurn,
        ) => Some(Refusal::ActionPhaseOnly),
        (P::Setup, A::Discard { .. }) => Some(Refusal::NoCardsYet),
        _ => None,
    }
}

/// Whether `hand` holds every card of `cards` (as many times as named).
pub fn holds_all(hand: &[ItemKind], cards: &[ItemKind]) -> bool {
    let mut left = hand.to_vec();
    cards.iter().all(|k| take(&mut left, *k))
}

pub fn take(hand: &mut Vec<ItemKind>, kind: ItemKind) -> bool {
    match hand.iter().position(|k| *k == kind) {
        Some(i) => {
            hand.remove(i);
            true
        }
        None => false,
    }
}

/// Order cards a scenario fixed, still to come (`GeneSetup::later_orders`).
#[derive(Resource, Clone, Debug, Default)]
pub struct ScriptedOrders(pub std::collections::VecDeque<Vec<SeatId>>);
