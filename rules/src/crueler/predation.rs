//! Predation (rules.md §9-§10): the referee asks the living in turn, from
//! the die's number, whether they prey; then asks those who have not
//! preyed once more, and a refusal then, unless preyed upon, is starving.
//! When everyone has been asked, the phase ends.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::numbers::numbers;
use super::settings::CruelerGame;
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId, Settings};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<CruelerAction>>;

/// A player leaves play: out of the box ("loses the Life Point Wooden
/// Box"), their offers gone, their place in the order of falling kept.
pub fn eliminate(
    seat: SeatId,
    how: Fall,
    standing: &mut Standing,
    life: &mut LifeBox,
    fallen: &mut Fallen,
    offers: &mut LifeOffers,
) {
    fallen.0 += 1;
    standing.alive = false;
    standing.fell = Some(fallen.0);
    standing.how = Some(how);
    life.0.clear();
    offers.drop_seat(seat);
}

/// The asked player hands in the predator card engraved with the
/// target's number: a duel begins (an entity while it lasts).
pub fn prey(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    settings: Res<Settings<CruelerGame>>,
    mut players: Query<(&mut PredatorCards, &mut Hunger, &LifeBox)>,
    calendar: Res<Calendar>,
    mut told: Query<&mut Told>,
    mut news: MessageWriter<CruelerNews>,
    mut next: ResMut<NextState<CruelerPhase>>,
    mut dueling: ResMut<Dueling>,
    mut commands: Commands,
) {
    for a in acts.read() {
        let CruelerAction::Prey { target } = a.action else {
            continue;
        };
        let (mut cards, mut hunger, life) = players.get_mut(seats.get(a.seat)).expect("a seat");
        let at = cards.0.iter().position(|c| *c == target).expect("judged");
        cards.0.remove(at);
        hunger.preyed = true;
        let life = life.life();
        players
            .get_mut(seats.get(target))
            .expect("a seat")
            .1
            .preyed_upon = true;
        let handed = calendar.change(LifeWhy::CardHandedIn { card: target }, 0, -1, life);
        tell(&mut told, &seats, &mut news, a.seat, handed);
        news.write(CruelerNews::DuelBegan {
            predator: a.seat,
            prey: target,
        });
        dueling.0 = Some(commands.spawn(Duel::new(a.seat, target)).id());
        // Dice duels are rolled at once (`duel::roll_dice`).
        if settings.0.duel == DuelKind::Beasts {
            next.set(CruelerPhase::Duel);
        }
    }
}

/// The asked player does not prey. On the second asking, unless preyed
/// upon, that is starving: -N, and out at 0 (named, since nobody
/// eliminated them).
pub fn pass(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    asking: Res<Asking>,
    calendar: Res<Calendar>,
    mut players: Query<(&mut LifeBox, &mut Standing, &Hunger)>,
    mut fallen: ResMut<Fallen>,
    mut offers: ResMut<LifeOffers>,
    mut history: ResMut<History>,
    mut told: Query<&mut Told>,
    mut news: MessageWriter<CruelerNews>,
    mut answered: MessageWriter<Answered>,
) {
    for a in acts.read() {
        if a.action != CruelerAction::Pass {
            continue;
        }
        let seat = a.seat;
        let (mut life, mut standing, hunger) = players.get_mut(seats.get(seat)).expect("a seat");
        let (round, n) = (calendar.round, calendar.n());
        if asking.second && !hunger.preyed_upon {
            let lost = life.take(seat, n).len() as i32;
            let out = life.life() <= 0;
            if out {
                let how = Fall { round, by: None };
                eliminate(
                    seat,
                    how,
                    &mut standing,
                    &mut life,
                    &mut fallen,
                    &mut offers,
                );
                history.0.push(Outcome::StarvedOut { round, n, seat });
            } else {
                history.0.push(Outcome::Starved { round, n, seat });
            }
            news.write(CruelerNews::Starved { seat, n, out });
            let starved = calendar.change(LifeWhy::Starved { out }, -lost, 0, life.life());
            tell(&mut told, &seats, &mut news, seat, starved);
        } else {
            news.write(CruelerNews::Passed { seat });
        }
        answered.write(Answered);
    }
}

/// Fewer than two living: the game is over at once.
pub fn last_one_standing(players: Query<&Standing>, mut next: ResMut<NextState<CruelerPhase>>) {
    if players.iter().filter(|s| s.alive).count() <= 1 {
        next.set(CruelerPhase::GameOver);
    }
}

/// The next player to ask; after the last, the second asking of those who
/// have not preyed; after that, the phase is over.
pub fn next_to_ask(
    seats: Res<SeatEntities>,
    mut asking: ResMut<Asking>,
    players: Query<(&Standing, &Hunger)>,
    mut news: MessageWriter<CruelerNews>,
    mut over: MessageWriter<PhaseOver>,
    mut next: ResMut<NextState<CruelerPhase>>,
) {
    let state = |s: SeatId| players.get(seats.get(s)).expect("a seat");
    if players.iter().filter(|(s, _)| s.alive).count() <= 1 {
        return;
    }
    loop {
        asking.turn += 1;
        match asking.asked() {
            Some(s) if state(s).0.alive && !(asking.second && state(s).1.preyed) => {
                NextState::set_if_neq(&mut next, CruelerPhase::Predation);
                return;
            }
            Some(_) => continue,
            None => {}
        }
        if !asking.second {
            asking.second = true;
            asking.turn = 0;
            asking
                .order
                .retain(|s| state(*s).0.alive && !state(*s).1.preyed);
            news.write(CruelerNews::SecondAsking);
            if asking.asked().is_some_and(|s| state(s).0.alive) {
                NextState::set_if_neq(&mut next, CruelerPhase::Predation);
                return;
            }
            continue;
        }
        over.write(PhaseOver);
        return;
    }
}

/// The boxes are returned; the next phase, the next round (the Nature
/// Reserve empties), or the end of the game.
pub fn end_phase(
    mut calendar: ResMut<Calendar>,
    mut asking: ResMut<Asking>,
    mut reserve: Query<&mut InReserve>,
    mut news: MessageWriter<CruelerNews>,
    mut next: ResMut<NextState<CruelerPhase>>,
) {
    let nums = numbers();
    news.write(CruelerNews::PhaseOver);
    if calendar.phase_no < nums.phases_in(calendar.round) {
        calendar.phase_no += 1;
    } else if (calendar.round as usize) < nums.rounds.len() {
        calendar.round += 1;
        calendar.phase_no = 1;
        for mut r in &mut reserve {
            r.0 = false;
        }
        news.write(CruelerNews::RoundBegins {
            round: calendar.round,
            reserve: calendar.reserve_open(),
        });
    } else {
        next.set(CruelerPhase::GameOver);
        return;
    }
    asking.order.clear();
    asking.turn = 0;
    next.set(CruelerPhase::Interlude);
}

/// The game is over: the duel, if any, is over too, and the boxes are
/// opened (`OnEnter(GameOver)`).
pub fn open_boxes(
    mut dueling: ResMut<Dueling>,
    mut commands: Commands,
    mut news: MessageWriter<CruelerNews>,
) {
    if let Some(e) = dueling.0.take() {
        commands.entity(e).despawn();
    }
    news.write(CruelerNews::GameOver);
}
