//! What one seat of a Forest Showdown table may know, and nothing more.
//! Announcements and private notes reach the seat separately, as a feed
//! (`Table::feed`).

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::ForestTimer;
use super::deck::CardId;
use super::state::*;
use crate::table::{Deadlines, GameResult, SeatId, SeatName, Seats, TableClock};

/// What every player can see of one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPublic {
    pub seat: SeatId,
    pub name: SeatName,
    pub hand_size: usize,
    /// Cards the table has seen this seat hold (a perfect memory).
    pub known: Vec<CardId>,
    pub short_hand: bool,
    pub round_scores: Vec<i64>,
    pub total: i64,
}

/// A showdown under way: who has chosen, not what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowdownPublic {
    pub asker: SeatId,
    pub target: SeatId,
    pub asker_ready: bool,
    pub target_ready: bool,
    /// The viewer's own face-down card, if the viewer is in the showdown.
    pub my_card: Option<CardId>,
}

/// One seat's hands as the end reveals them (issue 71; rules.md §7): the
/// hand each round was counted from, card by card.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForestRevealed {
    pub seat: SeatId,
    pub hands: Vec<Vec<CardId>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForestView {
    /// The viewer; `None` for a spectator.
    pub me: Option<SeatId>,
    pub phase: ForestPhase,
    pub round: u8,
    pub rounds: u8,
    pub now_ms: u64,
    pub round_ends_ms: Option<u64>,
    pub time_up: bool,
    pub active: SeatId,
    pub opening_turn: bool,
    pub death_decay_challenge_used: bool,
    pub death_decay_captured: bool,
    /// The viewer's own hand (empty for a spectator).
    pub hand: Vec<CardId>,
    pub seats: Vec<SeatPublic>,
    pub showdown: Option<ShowdownPublic>,
    pub last_showdown: Option<ShowdownReveal>,
    pub last_challenge: Option<ChallengeReveal>,
    /// When the viewer must act by, if the table is waiting on them.
    pub my_deadline_ms: Option<u64>,
    pub to_act: bool,
    pub result: Option<GameResult>,
    /// The newest of the viewer's own lines of this round (at most
    /// `Told::KEPT`), as its notes told them (issue 71): its screen shows
    /// the new ones.
    #[serde(default)]
    pub mine: Vec<ForestChange>,
    /// How many lines the viewer was told this round: `mine` is the last
    /// of them.
    #[serde(default)]
    pub mine_count: usize,
    /// Every seat's counted hands, in seat order, once the game is over
    /// (`table::end_revealed`); before, empty.
    #[serde(default)]
    pub revealed: Vec<ForestRevealed>,
}

/// What a seat may know ([`Game::view`](crate::table::Game::view)), written
/// over a view the caller already holds: its lists and names keep their
/// room, so a bot that asks for its seat's view at every move allocates
/// nothing once its first view is made.
pub fn view_into(world: &World, me: Option<SeatId>, waiting: &[SeatId], view: &mut ForestView) {
    let seats = world.resource::<Seats>();
    let entities = world.resource::<SeatEntities>();
    let round = world.resource::<Round>();
    let turn = world.resource::<Turn>();
    let deadlines = world.resource::<Deadlines<ForestTimer>>();
    let phase = *world.resource::<State<ForestPhase>>().get();
    let pending = world.resource::<Showdown>().0.as_ref();
    let reveals = world.resource::<Reveals>();
    view.seats.truncate(seats.count());
    for (i, s) in seats.ids().enumerate() {
        if i == view.seats.len() {
            view.seats.push(SeatPublic::default());
        }
        let seat = world.entity(entities.get(s));
        let (Some(scores), Some(hand), Some(known)) = (
            seat.get::<Scores>(),
            seat.get::<Hand>(),
            seat.get::<Known>(),
        ) else {
            unreachable!("every seat has its cards and scores")
        };
        let public = &mut view.seats[i];
        public.seat = s;
        public.name.clone_from(&seats.names[s.index()]);
        public.hand_size = hand.0.len();
        public.known.clone_from(&known.0);
        public.short_hand = scores.short_hand;
        public.round_scores.clone_from(&scores.rounds);
        public.total = scores.total();
    }
    let waiting_on_me = me.is_some_and(|m| waiting.contains(&m));
    view.me = me;
    view.phase = phase;
    view.round = round.number;
    view.rounds = world
        .resource::<crate::table::Settings<super::ForestGame>>()
        .0
        .rounds;
    view.now_ms = world.resource::<TableClock>().now_ms;
    view.round_ends_ms = deadlines.get(&ForestTimer::RoundTime);
    view.time_up = round.time_up;
    view.active = turn.active;
    view.opening_turn = turn.opening;
    view.death_decay_challenge_used = turn.death_decay_challenges > 0;
    view.death_decay_captured = turn.death_decay_captures > 0;
    match me {
        Some(m) => view
            .hand
            .clone_from(&world.get::<Hand>(entities.get(m)).unwrap().0),
        None => view.hand.clear(),
    }
    view.showdown = pending.map(|p| ShowdownPublic {
        asker: p.asker,
        target: p.target,
        asker_ready: p.asker_card.is_some(),
        target_ready: p.target_card.is_some(),
        my_card: me.and_then(|m| p.choice(m)).flatten(),
    });
    view.last_showdown.clone_from(&reveals.showdown);
    view.last_challenge.clone_from(&reveals.challenge);
    view.my_deadline_ms = waiting_on_me
        .then(|| match phase {
            ForestPhase::Showdown => deadlines.get(&ForestTimer::ShowdownCard),
            _ => deadlines.get(&ForestTimer::TurnChoice),
        })
        .flatten();
    view.to_act = waiting_on_me;
    view.result = super::result(world);
    match me {
        Some(m) => {
            let told = world.get::<Told>(entities.get(m)).unwrap();
            view.mine.clone_from(&told.newest);
            view.mine_count = told.count;
        }
        None => {
            view.mine.clear();
            view.mine_count = 0;
        }
    }
    view.revealed.clear();
    if crate::table::end_revealed::<super::ForestGame>(world) {
        view.revealed
            .extend(entities.iter().map(|(seat, e)| ForestRevealed {
                seat,
                hands: world.get::<Scores>(e).unwrap().hands.clone(),
            }));
    }
}

impl ForestView {
    /// How a fact would show in what a seat is sent (scenario `Sees`
    /// checks search the whole view and the notes for it).
    pub fn traces(fact: &ForestFact) -> Vec<crate::scenario::Trace> {
        use crate::scenario::Trace;
        let words = |card: CardId| {
            let name = &super::deck::deck().card(card).name;
            [name.en.clone(), name.zh.clone()]
        };
        vec![match *fact {
            ForestFact::Holds(s, card) => {
                Trace::of_seat(s, &["hand", "known"], card).words(words(card))
            }
            ForestFact::Chose(s, card) => Trace::of_seat(s, &["my_card"], card),
            // A wrong challenge: 「若目標沒有該卡」, shown to all.
            ForestFact::Lacks(s, card) => {
                Trace::within("target", s, &["named"], card).and("right", false)
            }
        }]
    }

    /// The cards `with` may be named for in a challenge now: the ones whose
    /// challenge the card rules allow (what a table greys out, and what
    /// bots choose among).
    pub fn challengeable(&self, with: CardId) -> Vec<CardId> {
        super::deck::deck()
            .ids()
            .filter(|&named| self.challenge_cards(with, named).is_ok())
            .collect()
    }

    /// The other seats that hold cards, in seat order: whom this seat may
    /// ask for a showdown or challenge.
    pub fn opponents_with_cards(&self) -> impl Iterator<Item = &SeatPublic> {
        self.seats
            .iter()
            .filter(move |s| Some(s.seat) != self.me && s.hand_size > 0)
    }

    /// The card rules of a challenge (`judge::challenge_cards`), judged from
    /// what this seat knows of the turn.
    pub fn challenge_cards(
        &self,
        with: CardId,
        named: CardId,
    ) -> Result<(), super::judge::ChallengeRefusal> {
        super::judge::challenge_cards(
            with,
            named,
            self.death_decay_challenge_used,
            self.death_decay_captured,
        )
    }
}

crate::seat_view!(ForestView);
