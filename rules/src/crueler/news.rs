//! The narrator: Crueler World's news in words, from
//! `rules/i18n/{en,zh}/crueler.ftl`. What is said to the whole table and
//! what to one seat is decided here, by the rules of secrecy (rules.md
//! §9: the asking is private; an elimination names neither side).

use bevy_ecs::prelude::*;

use super::moves::{MAX_TRADE, Refusal};
use super::state::*;
use crate::narrate::{Arg, Words};
use crate::table::{
    Amount, Announcements, Rejection, Said, SeatEntities, SeatId, Seats, TableClock,
};
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
    Arg::Words(seats.words_numbered(seat))
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

/// The words for one piece of news, by the phase it belongs to. `life`
/// gives a living seat's life (for the boxes opened at the end).
fn words(
    news: &CruelerNews,
    seats: &Seats,
    out: &mut Vec<Said>,
    life: impl Fn(SeatId) -> Option<i32>,
) {
    let mut w = Words::new(seats, out, book(), name);
    use CruelerNews::*;
    match news {
        Opening { .. }
        | OfferMade { .. }
        | OfferLapsed { .. }
        | Declined { .. }
        | CardGiven { .. }
        | InterludeTimeUp { .. } => interlude_words(&mut w, news),
        PredationOpened { .. }
        | Passed { .. }
        | Starved { .. }
        | SecondAsking
        | AskTimeUp { .. } => predation_words(&mut w, news),
        DuelBegan { .. }
        | Throw { .. }
        | Dice { .. }
        | Eliminated { .. }
        | DuelWon { .. }
        | BeastDrawn { .. } => duel_words(&mut w, news),
        PhaseOver | RoundBegins { .. } | GameOver => calendar_words(&mut w, news, life),
        Changed { seat, change } => {
            let (key, args) = change_args(change, |s| w.name(s));
            let amounts = [Amount::life(change.life), Amount::cards(change.cards)]
                .into_iter()
                .filter(|a| a.by != 0)
                .collect();
            w.counted(*seat, key, &args, amounts);
        }
    }
}

/// A change to a seat's own life or cards as that seat is told it (its
/// screen's settlement says the same words): `names` words a seat.
pub fn change_line(c: &LifeChange, names: &Seats) -> Bilingual {
    let (key, args) = change_args(c, |s| name(names, s));
    say(key, &args)
}

/// The words' key and arguments of a change (rules.md §6): the round, N,
/// the amount and the life before and after; the duel's other side.
fn change_args(
    c: &LifeChange,
    name: impl Fn(SeatId) -> Arg,
) -> (&'static str, Vec<(&'static str, Arg)>) {
    let mut args: Vec<(&'static str, Arg)> = vec![
        ("round", c.round.into()),
        ("n", c.n.into()),
        ("by", c.life.abs().into()),
        ("from", (c.life_after - c.life).into()),
        ("to", c.life_after.into()),
    ];
    let key = match c.why {
        LifeWhy::Traded { with, gave, got } => {
            args.extend([
                ("other", name(with)),
                ("gave", gave.into()),
                ("got", got.into()),
            ]);
            "c-traded"
        }
        LifeWhy::Won { against, preyed } => {
            args.push(("other", name(against)));
            if preyed {
                "c-won-preying"
            } else {
                "c-won-preyed"
            }
        }
        LifeWhy::Lost {
            against,
            preyed,
            reserve,
        } => {
            args.push(("other", name(against)));
            match (preyed, reserve) {
                (true, false) => "c-lost-preying",
                (false, false) => "c-lost-preyed",
                (true, true) => "c-lost-preying-reserve",
                (false, true) => "c-lost-preyed-reserve",
            }
        }
        LifeWhy::Eliminated { against, bonus } => {
            args.extend([("other", name(against)), ("bonus", bonus.into())]);
            "c-eliminated"
        }
        LifeWhy::Out { by } => {
            args.push(("other", name(by)));
            "c-out"
        }
        LifeWhy::Starved { out } => {
            if out {
                "c-starved-out"
            } else {
                "c-starved"
            }
        }
        LifeWhy::CardHandedIn { card } => {
            args.push(("card", card.to_string().into()));
            "c-card-handed-in"
        }
        LifeWhy::CardGiven { to, card } => {
            args.extend([("other", name(to)), ("card", card.to_string().into())]);
            "c-card-given"
        }
        LifeWhy::CardReceived { from, card } => {
            args.extend([("other", name(from)), ("card", card.to_string().into())]);
            "c-card-received"
        }
    };
    (key, args)
}

/// The interlude's words (rules.md §2 and §3): offers and trades are told
/// to the two sides only; a card given is public, which card only to its
/// taker.
fn interlude_words(w: &mut Words, news: &CruelerNews) {
    match *news {
        CruelerNews::Opening { start_life } => {
            let boxes = match start_life {
                Some(life) => say("opening-boxes-hold", &[("life", life.into())]),
                None => say("opening-boxes-filled", &[]),
            };
            w.all("opening", &[("boxes", boxes.into())]);
        }
        CruelerNews::OfferMade {
            from,
            to: them,
            give,
            want,
        } => w.to(
            them,
            "offer-made",
            &[
                ("from", w.name(from)),
                ("give", give.into()),
                ("want", want.into()),
            ],
        ),
        CruelerNews::OfferLapsed { from, to: them } => {
            w.to(from, "offer-lapsed", &[("to", w.name(them))])
        }
        CruelerNews::Declined { from, by } => w.to(from, "declined", &[("by", w.name(by))]),
        CruelerNews::CardGiven { from, to: them, .. } => {
            w.all(
                "card-given",
                &[("from", w.name(from)), ("to", w.name(them))],
            );
        }
        CruelerNews::InterludeTimeUp { ref lapsed } => {
            w.all("interlude-time-up", &[]);
            for &(from, them) in lapsed {
                for s in [from, them] {
                    w.to(s, "offer-time-up", &[]);
                }
            }
        }
        _ => {}
    }
}

/// The predation phase's words (rules.md §4, §7 and §9: the asking is
/// private).
fn predation_words(w: &mut Words, news: &CruelerNews) {
    match *news {
        CruelerNews::PredationOpened {
            round,
            phase_no,
            n,
            first,
        } => w.all(
            "predation-opened",
            &[
                ("round", round.into()),
                ("phase", phase_no.into()),
                ("n", n.into()),
                ("die", first.to_string().into()),
                ("first", w.name(first)),
            ],
        ),
        CruelerNews::Passed { seat } => w.to(seat, "passed", &[]),
        CruelerNews::Starved { seat, n, out: gone } => {
            let key = if gone { "starved-out" } else { "starved" };
            w.all(key, &[("seat", w.name(seat)), ("n", n.into())]);
        }
        CruelerNews::SecondAsking => w.all("second-asking", &[]),
        CruelerNews::AskTimeUp { seat } => w.to(seat, "ask-time-up", &[]),
        _ => {}
    }
}

/// A duel's words (rules.md §5 and §9): the throws and dice only to the
/// duelists; an elimination names neither side to the room.
fn duel_words(w: &mut Words, news: &CruelerNews) {
    match *news {
        CruelerNews::DuelBegan { predator, prey } => {
            // The asking is private: the room learns that a duel began,
            // and who fought only from its result (rules.md §9).
            w.all("duel-began", &[]);
            w.to(prey, "preys-on-you", &[("predator", w.name(predator))]);
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
                w.to(
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
                w.to(s, "dice", &[("a", a.into()), ("b", b.into())]);
            }
        }
        // Each side hears its own line (`Changed`, after this).
        CruelerNews::Eliminated { .. } => {
            w.all("eliminated", &[]);
        }
        CruelerNews::DuelWon {
            predator,
            prey,
            winner,
            n,
            reserve,
        } => {
            w.all(
                "duel-won",
                &[
                    ("predator", w.name(predator)),
                    ("prey", w.name(prey)),
                    ("winner", w.name(winner)),
                    ("n", n.into()),
                ],
            );
            if reserve {
                let loser = if winner == predator { prey } else { predator };
                w.all("enters-reserve", &[("loser", w.name(loser))]);
            }
        }
        CruelerNews::BeastDrawn { seat, beast } => {
            w.to(seat, "beast-drawn", &[("beast", beast.name().into())])
        }
        _ => {}
    }
}

/// The calendar's words: a phase or round ends; the game ends with every
/// box opened (`life`: a living seat's life).
fn calendar_words(w: &mut Words, news: &CruelerNews, life: impl Fn(SeatId) -> Option<i32>) {
    match *news {
        CruelerNews::PhaseOver => w.all("phase-over", &[]),
        CruelerNews::RoundBegins { round, reserve } => {
            let key = if reserve {
                "round-begins"
            } else {
                "round-begins-no-reserve"
            };
            w.all(key, &[("round", round.into())]);
        }
        CruelerNews::GameOver => {
            let boxes: Vec<Bilingual> = w
                .seats
                .ids()
                .map(|s| match life(s) {
                    Some(l) => say("box-life", &[("seat", w.name(s)), ("life", l.into())]),
                    None => say("box-out", &[("seat", w.name(s))]),
                })
                .collect();
            let join =
                |f: fn(&Bilingual) -> &str| boxes.iter().map(f).collect::<Vec<_>>().join(" · ");
            let boxes = Bilingual::new(join(|b| &b.en), join(|b| &b.zh));
            w.all("game-over", &[("boxes", boxes.into())]);
        }
        _ => {}
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

    /// A beast's name in both languages.
    #[test]
    fn beasts_are_named_in_both_languages() {
        assert_eq!(Beast::Tiger.name(), Bilingual::new("Tiger", "虎"));
    }
}
