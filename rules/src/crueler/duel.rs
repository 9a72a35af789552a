//! The duel (rules.md §5, §10): in secret each side chooses a beast for
//! each throw, first to the needed wins; or, with dice duels, the referee
//! rolls for both until one is higher. The winner takes N from the
//! loser's box (the loser's own tokens first); an elimination earns the
//! bonus and names nobody.

use bevy_ecs::prelude::*;

use super::numbers::numbers;
use super::predation::eliminate;
use super::settings::CruelerGame;
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId, Settings, TableRng};

/// A side's beast for this throw.
pub fn choose(mut acts: MessageReader<Accepted<CruelerAction>>, mut duels: Query<&mut Duel>) {
    for a in acts.read() {
        let CruelerAction::Choose { beast } = a.action else {
            continue;
        };
        for mut d in &mut duels {
            if let Some(side) = d.side(a.seat) {
                d.choice[side] = Some(beast);
            }
        }
    }
}

/// Whether a duel's two sides have both chosen ([`throw`]'s condition).
pub fn both_chosen(duels: Query<&Duel>) -> bool {
    duels
        .iter()
        .any(|d| d.choice[0].is_some() && d.choice[1].is_some())
}

/// Whether a duel has a winner ([`settle`]'s condition).
pub fn decided(duels: Query<&Duel>) -> bool {
    duels.iter().any(|d| d.winner.is_some())
}

/// Whether duels are fought with dice at this table.
pub fn with_dice(settings: Res<Settings<CruelerGame>>) -> bool {
    settings.0.duel == DuelKind::Dice
}

/// Dice duels: the referee rolls for both until one is higher.
pub fn roll_dice(
    mut duels: Query<&mut Duel>,
    mut rng: ResMut<TableRng>,
    mut script: Option<ResMut<super::state::ScriptedDice>>,
    mut news: MessageWriter<CruelerNews>,
) {
    use super::state::ScriptedDice;
    for mut d in &mut duels {
        while d.winner.is_none() {
            let predator = ScriptedDice::throw(script.as_deref_mut(), &mut rng, 6);
            let rolls = (
                predator,
                ScriptedDice::throw(script.as_deref_mut(), &mut rng, 6),
            );
            news.write(CruelerNews::Dice {
                predator: d.predator,
                prey: d.prey,
                rolls,
            });
            if rolls.0 != rolls.1 {
                d.winner = Some(if rolls.0 > rolls.1 {
                    d.predator
                } else {
                    d.prey
                });
            }
        }
    }
}

/// Both have chosen: the throw is shown to both sides (and nobody else),
/// and a side with the needed wins has won.
pub fn throw(
    mut duels: Query<&mut Duel>,
    settings: Res<Settings<CruelerGame>>,
    mut news: MessageWriter<CruelerNews>,
) {
    for mut d in &mut duels {
        let (Some(a), Some(b)) = (d.choice[0], d.choice[1]) else {
            continue;
        };
        d.choice = [None, None];
        d.throws.push((a, b));
        if a.beats(b) {
            d.wins[0] += 1;
        } else if b.beats(a) {
            d.wins[1] += 1;
        }
        news.write(CruelerNews::Throw {
            predator: d.predator,
            prey: d.prey,
            beasts: (a, b),
            wins: d.wins,
        });
        let needed = settings.0.wins_needed;
        if d.wins[0] >= needed {
            d.winner = Some(d.predator);
        } else if d.wins[1] >= needed {
            d.winner = Some(d.prey);
        }
    }
}

/// A decided duel is settled: winner +N, loser -N (the loser's own tokens
/// first, the bank makes up what the box lacks); a loser left with life
/// enters the Nature Reserve in its rounds; a loser left with nothing is
/// out and the winner gets the elimination bonus.
pub fn settle(
    duels: Query<(Entity, &Duel)>,
    seats: Res<SeatEntities>,
    calendar: Res<Calendar>,
    mut players: Query<(&mut LifeBox, &mut Standing, &mut InReserve)>,
    mut fallen: ResMut<Fallen>,
    mut offers: ResMut<LifeOffers>,
    mut history: ResMut<History>,
    mut told: Query<&mut Told>,
    mut news: MessageWriter<CruelerNews>,
    mut answered: MessageWriter<Answered>,
    mut dueling: ResMut<Dueling>,
    mut commands: Commands,
) {
    for (entity, d) in &duels {
        let (Some(winner), Some(loser)) = (d.winner, d.loser()) else {
            continue;
        };
        commands.entity(entity).despawn();
        dueling.0 = None;
        let (round, n) = (calendar.round, calendar.n());
        let taken = players
            .get_mut(seats.get(loser))
            .expect("a seat")
            .0
            .take(loser, n);
        let lost = taken.len() as i32;
        let short = n as usize - taken.len();
        {
            let mut w = players.get_mut(seats.get(winner)).expect("a seat");
            w.0.0.extend(taken);
            w.0.0.extend(std::iter::repeat_n(None, short));
        }
        let (mut life, mut standing, mut reserve) =
            players.get_mut(seats.get(loser)).expect("a seat");
        if calendar.reserve_open() && life.life() > 0 {
            reserve.0 = true;
        }
        if life.life() <= 0 {
            let how = Fall {
                round,
                by: Some(winner),
            };
            eliminate(
                loser,
                how,
                &mut standing,
                &mut life,
                &mut fallen,
                &mut offers,
            );
            let bonus = numbers().elimination_bonus;
            players
                .get_mut(seats.get(winner))
                .expect("a seat")
                .0
                .0
                .extend(std::iter::repeat_n(None, bonus as usize));
            history.0.push(Outcome::Elimination { round, n });
            news.write(CruelerNews::Eliminated {
                winner,
                loser,
                n,
                bonus,
            });
            let winner_life = players.get(seats.get(winner)).expect("a seat").0.life();
            let why = LifeWhy::Eliminated {
                against: loser,
                bonus,
            };
            let won = calendar.change(why, n + bonus, 0, winner_life);
            tell(&mut told, &seats, &mut news, winner, won);
            let out = calendar.change(LifeWhy::Out { by: winner }, -lost, 0, 0);
            tell(&mut told, &seats, &mut news, loser, out);
        } else {
            history.0.push(Outcome::Duel {
                round,
                n,
                predator: d.predator,
                prey: d.prey,
                winner,
            });
            news.write(CruelerNews::DuelWon {
                predator: d.predator,
                prey: d.prey,
                winner,
                n,
                reserve: calendar.reserve_open(),
            });
            let life = |s: SeatId| players.get(seats.get(s)).expect("a seat").0.life();
            let why = LifeWhy::Won {
                against: loser,
                preyed: winner == d.predator,
            };
            let won = calendar.change(why, n, 0, life(winner));
            let why = LifeWhy::Lost {
                against: winner,
                preyed: loser == d.predator,
                reserve: calendar.reserve_open(),
            };
            let lost_change = calendar.change(why, -lost, 0, life(loser));
            tell(&mut told, &seats, &mut news, winner, won);
            tell(&mut told, &seats, &mut news, loser, lost_change);
        }
        answered.write(Answered);
    }
}
