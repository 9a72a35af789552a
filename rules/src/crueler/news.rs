//! The narrator: Crueler World's news in words, from
//! `rules/i18n/{en,zh}/crueler.ftl`. What is said to the whole table and
//! what to one seat is decided here, by the rules of secrecy (rules.md
//! §9: the asking is private; an elimination names neither side).

use bevy_ecs::prelude::*;

use super::moves::{MAX_TRADE, Refusal};
use super::state::*;
use crate::narrate::Arg;
use crate::table::{Announcements, Rejection, Said, SeatEntities, SeatId, Seats, TableClock};
use crate::text::Bilingual;

crate::phrasebook!("crueler");

impl Beast {
    pub fn name(self) -> Bilingual {
        say(
            match self {
                Beast::Elephant => "beast-elephant",
                Beast::Tiger => "beast-tiger",
                Beast::Rat => "beast-rat",
            },
            &[],
        )
    }
}

/// "Ann (1)": the seat's name and number, the same in both languages.
fn name(seats: &Seats, seat: SeatId) -> Arg {
    Arg::Text(format!("{} ({seat})", seats.name(seat)))
}

/// Puts the step's news into words, in the order it happened.
pub fn narrate(
    mut news: MessageReader<CruelerNews>,
    seats: Res<Seats>,
    entities: Res<SeatEntities>,
    boxes: Query<(&LifeBox, &Standing)>,
    clock: Res<TableClock>,
    mut said: ResMut<Announcements>,
) {
    let mut lines = Vec::new();
    for n in news.read() {
        words(n, &seats, &mut lines, |s| {
            let (life, standing) = boxes.get(entities.get(s)).expect("a seat");
            standing.alive.then(|| life.life())
        });
    }
    said.speak(clock.now_ms, lines);
}

/// The words for one piece of news. `life` gives a living seat's life
/// (for the boxes opened at the end).
fn words(
    news: &CruelerNews,
    seats: &Seats,
    out: &mut Vec<Said>,
    life: impl Fn(SeatId) -> Option<i32>,
) {
    let name = |s: SeatId| name(seats, s);
    let all = |out: &mut Vec<Said>, key: &str, args: &[(&str, Arg)]| {
        out.push(Said::All(say(key, args)));
    };
    let to = |out: &mut Vec<Said>, seat: SeatId, key: &str, args: &[(&str, Arg)]| {
        out.push(Said::To(seat, say(key, args)));
    };
    match *news {
        CruelerNews::Opening { start_life } => {
            let boxes = match start_life {
                Some(life) => say("opening-boxes-hold", &[("life", life.into())]),
                None => say("opening-boxes-filled", &[]),
            };
            all(out, "opening", &[("boxes", boxes.into())]);
        }
        CruelerNews::OfferMade {
            from,
            to: them,
            give,
            want,
        } => to(
            out,
            them,
            "offer-made",
            &[
                ("from", name(from)),
                ("give", give.into()),
                ("want", want.into()),
            ],
        ),
        CruelerNews::OfferLapsed { from, to: them } => {
            to(out, from, "offer-lapsed", &[("to", name(them))])
        }
        CruelerNews::Traded {
            from,
            to: them,
            give,
            want,
        } => {
            for (a, b, gave, got) in [(from, them, give, want), (them, from, want, give)] {
                to(
                    out,
                    a,
                    "traded",
                    &[
                        ("other", name(b)),
                        ("gave", gave.into()),
                        ("got", got.into()),
                    ],
                );
            }
        }
        CruelerNews::Declined { from, by } => to(out, from, "declined", &[("by", name(by))]),
        CruelerNews::CardGiven {
            from,
            to: them,
            card,
        } => {
            all(
                out,
                "card-given",
                &[("from", name(from)), ("to", name(them))],
            );
            to(
                out,
                them,
                "card-received",
                &[("card", card.to_string().into())],
            );
        }
        CruelerNews::PredationOpened {
            round,
            phase_no,
            n,
            first,
        } => all(
            out,
            "predation-opened",
            &[
                ("round", round.into()),
                ("phase", phase_no.into()),
                ("n", n.into()),
                ("die", first.to_string().into()),
                ("first", name(first)),
            ],
        ),
        CruelerNews::Passed { seat } => to(out, seat, "passed", &[]),
        CruelerNews::Starved { seat, n, out: gone } => {
            let key = if gone { "starved-out" } else { "starved" };
            all(out, key, &[("seat", name(seat)), ("n", n.into())]);
        }
        CruelerNews::SecondAsking => all(out, "second-asking", &[]),
        CruelerNews::DuelBegan { predator, prey } => {
            // The asking is private: the room learns that a duel began,
            // and who fought only from its result (rules.md §9).
            all(out, "duel-began", &[]);
            to(out, prey, "preys-on-you", &[("predator", name(predator))]);
        }
        CruelerNews::Throw {
            predator,
            prey,
            beasts: (a, b),
            wins,
        } => {
            let result = say(
                if a.beats(b) {
                    "throw-predator"
                } else if b.beats(a) {
                    "throw-prey"
                } else {
                    "throw-tie"
                },
                &[],
            );
            for s in [predator, prey] {
                to(
                    out,
                    s,
                    "throw",
                    &[
                        ("a", a.name().into()),
                        ("b", b.name().into()),
                        ("result", result.clone().into()),
                        ("won", wins[0].into()),
                        ("lost", wins[1].into()),
                    ],
                );
            }
        }
        CruelerNews::Dice {
            predator,
            prey,
            rolls: (a, b),
        } => {
            for s in [predator, prey] {
                to(out, s, "dice", &[("a", a.into()), ("b", b.into())]);
            }
        }
        CruelerNews::Eliminated {
            winner,
            loser,
            n,
            bonus,
        } => {
            all(out, "eliminated", &[]);
            to(
                out,
                winner,
                "you-eliminated",
                &[("n", n.into()), ("bonus", bonus.into())],
            );
            to(out, loser, "you-are-out", &[]);
        }
        CruelerNews::DuelWon {
            predator,
            prey,
            winner,
            n,
            reserve,
        } => {
            all(
                out,
                "duel-won",
                &[
                    ("predator", name(predator)),
                    ("prey", name(prey)),
                    ("winner", name(winner)),
                    ("n", n.into()),
                ],
            );
            if reserve {
                let loser = if winner == predator { prey } else { predator };
                all(out, "enters-reserve", &[("loser", name(loser))]);
            }
        }
        CruelerNews::PhaseOver => all(out, "phase-over", &[]),
        CruelerNews::RoundBegins { round, reserve } => {
            let key = if reserve {
                "round-begins"
            } else {
                "round-begins-no-reserve"
            };
            all(out, key, &[("round", round.into())]);
        }
        CruelerNews::GameOver => {
            let boxes: Vec<Bilingual> = seats
                .ids()
                .map(|s| match life(s) {
                    Some(l) => say("box-life", &[("seat", name(s)), ("life", l.into())]),
                    None => say("box-out", &[("seat", name(s))]),
                })
                .collect();
            let join =
                |f: fn(&Bilingual) -> &str| boxes.iter().map(f).collect::<Vec<_>>().join(" · ");
            let boxes = Bilingual::new(join(|b| &b.en), join(|b| &b.zh));
            all(out, "game-over", &[("boxes", boxes.into())]);
        }
        CruelerNews::InterludeTimeUp { ref lapsed } => {
            all(out, "interlude-time-up", &[]);
            for &(from, them) in lapsed {
                for s in [from, them] {
                    to(out, s, "offer-time-up", &[]);
                }
            }
        }
        CruelerNews::AskTimeUp { seat } => to(out, seat, "ask-time-up", &[]),
        CruelerNews::BeastDrawn { seat, beast } => {
            to(out, seat, "beast-drawn", &[("beast", beast.name().into())])
        }
    }
}

/// A refusal in words.
impl From<Refusal> for Rejection {
    fn from(r: Refusal) -> Self {
        let reason = match r {
            Refusal::GameOver => return Rejection::game_over(),
            Refusal::NotYourTurn => return Rejection::not_your_turn(),
            Refusal::NotNow => say("no-not-now", &[]),
            Refusal::OnlyBetweenPhases => say("no-only-between-phases", &[]),
            Refusal::Eliminated => say("no-eliminated", &[]),
            Refusal::OnlyEliminatedGive => say("no-only-eliminated-give", &[]),
            Refusal::NotDuringDuel => say("no-not-during-duel", &[]),
            Refusal::NameAnother => say("no-name-another", &[]),
            Refusal::GiveToLiving => say("no-give-to-living", &[]),
            Refusal::NoSuchCard => say("no-no-such-card", &[]),
            Refusal::UselessCard => say("no-useless-card", &[]),
            Refusal::AlreadyReady => say("no-already-ready", &[]),
            Refusal::TargetOut => say("no-target-out", &[]),
            Refusal::TradesNothing => say("no-trades-nothing", &[]),
            Refusal::TooMuch => say("no-too-much", &[("most", MAX_TRADE.into())]),
            Refusal::HoldOnly(life) => say("no-hold-only", &[("life", life.into())]),
            Refusal::EmptyBox => say("no-empty-box", &[]),
            Refusal::Unaffordable => say("no-unaffordable", &[]),
            Refusal::Trade(t) => return t.into(),
            Refusal::CardGone(target) => {
                say("no-card-gone", &[("seat", target.to_string().into())])
            }
            Refusal::InReserve => say("no-in-reserve", &[]),
            Refusal::NoDuel => say("no-no-duel", &[]),
            Refusal::NotInDuel => say("no-not-in-duel", &[]),
            Refusal::ChosenAlready => say("no-chosen-already", &[]),
            Refusal::DiceNeedNoChoice => say("no-dice-need-no-choice", &[]),
        };
        Rejection { reason }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrate::Phrasebook;

    /// Chinese and English throughout: both files give every phrase.
    #[test]
    fn both_languages_have_every_phrase() {
        assert_eq!(Phrasebook::missing(EN, ZH), Vec::<String>::new());
        assert_eq!(Beast::Tiger.name(), Bilingual::new("Tiger", "虎"));
    }
}
