//! Forest Showdown (seed: `into-the-forest.txt`). The rules document is
//! `rules.md` beside this file.

//!
//! The shape: seats are entities with `Hand`, `Known` and `Scores`
//! (`state.rs`); each phase is a file of systems (`turn.rs`,
//! `showdown.rs`, `round.rs`); `judge.rs` lists what each phase accepts;
//! `news.rs` puts what happened into words.

pub mod bots;
mod cards;
pub mod deck;
pub mod judge;
pub mod news;
pub mod round;
pub mod settings;
pub mod showdown;
pub mod state;
pub mod turn;
pub mod view;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

pub use deck::{CardId, Deck, DeckError, Role, deck};
pub use settings::{ForestSettings, ForestTiming};
pub use showdown::showdown_outcome;
pub use state::*;
pub use view::{ForestView, SeatPublic, ShowdownPublic};

use crate::table::{Game, GameResult, OnMove, Rejection, SeatId, Seats, TableSet, with_param};
use judge::Move;

/// The rules document, in both languages.
pub const RULES_MD: &str = include_str!("rules.md");
/// "Learn to play": the guided first game (`crate::lesson`).
pub fn lesson() -> Option<&'static str> {
    Some(include_str!("lesson.ron"))
}

pub struct ForestGame;

/// Forest Showdown's schedule: each phase's moves under `in_state`, the
/// clocks' defaults, then the settlement in the rules' order.
pub struct ForestPlugin;

impl Plugin for ForestPlugin {
    fn build(&self, app: &mut App) {
        let count = app.world().resource::<Seats>().count();
        let entities = (0..count)
            .map(|i| {
                app.world_mut()
                    .spawn((
                        SeatId(i as u8),
                        Hand::default(),
                        Known::default(),
                        Told::default(),
                        Scores::default(),
                    ))
                    .id()
            })
            .collect();
        app.insert_resource(SeatEntities(entities))
            .init_resource::<Round>()
            .init_resource::<Turn>()
            .init_resource::<Showdown>()
            .init_resource::<Reveals>()
            .add_message::<ForestNews>()
            .add_message::<RoundOver>()
            .add_systems(
                Update,
                (round::time_up, turn::time_up, showdown::time_up).in_set(TableSet::Deadlines),
            )
            // Each move's system, run only in a step that accepted it.
            .add_systems(
                OnMove(Move::AskShowdown),
                turn::ask_showdown.run_if(in_state(ForestPhase::Turn)),
            )
            .add_systems(
                OnMove(Move::Challenge),
                turn::challenge.run_if(in_state(ForestPhase::Turn)),
            )
            .add_systems(
                OnMove(Move::PlayCard),
                showdown::play_card.run_if(in_state(ForestPhase::Showdown)),
            )
            .add_systems(
                Update,
                (
                    // Each runs when it is due: its parameters cost more
                    // than the check.
                    showdown::reveal
                        .run_if(in_state(ForestPhase::Showdown).and_then(showdown::both_laid)),
                    turn::pass_turn.run_if(
                        in_state(ForestPhase::Turn)
                            .or_else(in_state(ForestPhase::Showdown))
                            .and_then(turn::turn_over),
                    ),
                    round::end_round.run_if(on_message::<RoundOver>),
                )
                    .chain()
                    .in_set(TableSet::Settle),
            )
            .add_systems(Update, news::narrate.in_set(TableSet::Narrate));
    }
}

use crate::table::seat_part as seat_components;

pub(crate) fn to_act_into(world: &World, seats: &mut Vec<SeatId>) {
    seats.clear();
    match *world.resource::<State<ForestPhase>>().get() {
        ForestPhase::Turn => seats.push(world.resource::<Turn>().active),
        ForestPhase::Showdown => {
            if let Some(p) = world.resource::<Showdown>().0.as_ref() {
                seats.extend(
                    [(p.asker, p.asker_card), (p.target, p.target_card)]
                        .into_iter()
                        .filter(|(_, c)| c.is_none())
                        .map(|(s, _)| s),
                );
                seats.sort();
            }
        }
        ForestPhase::Idle | ForestPhase::GameOver => {}
    }
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    if *world.resource::<State<ForestPhase>>().get() != ForestPhase::GameOver {
        return None;
    }
    let seats = world.resource::<Seats>();
    let totals = seats
        .ids()
        .map(|s| seat_components::<Scores>(world, s).total())
        .collect();
    Some(GameResult::from_scores(totals))
}

fn check_setup(world: &World, setup: &ForestSetup) -> Result<(), Rejection> {
    let seats = world.resource::<Seats>();
    if setup.hands.len() > seats.count() {
        return Err(Rejection::new(
            format!(
                "the setup deals {} hands to {} seats",
                setup.hands.len(),
                seats.count()
            ),
            format!(
                "设定给 {} 个座位发了 {} 手牌",
                seats.count(),
                setup.hands.len()
            ),
        ));
    }
    let mut left = deck().all_cards();
    for card in setup.hands.iter().flatten() {
        match left.iter().position(|c| c == card) {
            Some(i) => {
                left.remove(i);
            }
            None => {
                let n = news::card_name(*card);
                return Err(Rejection::new(
                    format!("the setup deals more {} than the deck has", n.en),
                    format!("设定发出的{}比牌堆里的多", n.zh),
                ));
            }
        }
    }
    if let Some(first) = setup.first.filter(|f| !seats.contains(*f)) {
        return Err(Rejection::unknown_seat(first));
    }
    for deal in &setup.later {
        check_setup(
            world,
            &ForestSetup {
                hands: deal.hands.clone(),
                ..ForestSetup::default()
            },
        )?;
    }
    Ok(())
}

impl Game for ForestGame {
    crate::game_types!(Forest, ForestPlugin);

    fn start(world: &mut World, setup: Option<&ForestSetup>) -> Result<(), Rejection> {
        if let Some(setup) = setup {
            check_setup(world, setup)?;
        }
        let first = setup.and_then(|s| s.first).unwrap_or(SeatId(0));
        if let Some(s) = setup.filter(|s| !s.later.is_empty()) {
            world.insert_resource(state::ScriptedDeals(s.later.iter().cloned().collect()));
        }
        with_param::<round::Dealer<'static, 'static>, _>(world, |mut d| d.deal(first, setup));
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &ForestAction) -> Result<(), Rejection> {
        judge::judge(world, seat, action).map_err(|r| news::refusal(r, world.resource::<Seats>()))
    }

    fn candidates(world: &World, seat: SeatId) -> Vec<ForestAction> {
        judge::candidates(world, seat)
    }

    fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], into: &mut ForestView) {
        view::view_into(world, seat, waiting, into);
    }

    fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
        to_act_into(world, into);
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &ForestCheck) -> Result<(), String> {
        let hand = |s| &seat_components::<Hand>(world, s).0;
        let name = |c: &CardId| deck().card(*c).key.clone();
        let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
        match check {
            ForestCheck::Holds(s, c) => ok(
                hand(*s).contains(c),
                format!("seat {s} does not hold {}", name(c)),
            ),
            ForestCheck::Lacks(s, c) => {
                ok(!hand(*s).contains(c), format!("seat {s} holds {}", name(c)))
            }
            ForestCheck::HandSize(s, n) => {
                let len = hand(*s).len();
                ok(len == *n, format!("seat {s} holds {len} cards, not {n}"))
            }
            ForestCheck::KnownHolds(s, c) => ok(
                seat_components::<Known>(world, *s).0.contains(c),
                format!("the table has not seen seat {s} hold {}", name(c)),
            ),
            ForestCheck::Active(s) => {
                let active = world.resource::<Turn>().active;
                ok(
                    active == *s,
                    format!("it is seat {active}'s turn, not seat {s}'s"),
                )
            }
            ForestCheck::Phase(p) => {
                let phase = *world.resource::<State<ForestPhase>>().get();
                ok(phase == *p, format!("phase is {phase:?}, not {p:?}"))
            }
            ForestCheck::Round(n) => {
                let r = world.resource::<Round>().number;
                ok(r == *n, format!("round is {r}, not {n}"))
            }
            ForestCheck::RoundScore(s, r, score) => {
                let got = seat_components::<Scores>(world, *s)
                    .rounds
                    .get(*r as usize - 1)
                    .copied();
                ok(
                    got == Some(*score),
                    format!("seat {s} round {r} score is {got:?}, not {score}"),
                )
            }
            ForestCheck::ShortHand(s, b) => {
                let got = seat_components::<Scores>(world, *s).short_hand;
                ok(got == *b, format!("seat {s} short hand is {got}, not {b}"))
            }
            ForestCheck::Score(..)
            | ForestCheck::Said(_)
            | ForestCheck::NotSaid(_)
            | ForestCheck::Told(..)
            | ForestCheck::NotTold(..)
            | ForestCheck::SaidInOrder(_)
            | ForestCheck::Sees(..)
            | ForestCheck::NotSees(..) => {
                crate::verify_common_check!(
                    world,
                    check,
                    ForestCheck,
                    Self,
                    ForestView,
                    result(world)
                )
            }
            ForestCheck::Places(places) => {
                let got = result(world).map(|r| r.places);
                ok(
                    got.as_ref() == Some(places),
                    format!("places are {got:?}, not {places:?}"),
                )
            }
        }
    }
}
