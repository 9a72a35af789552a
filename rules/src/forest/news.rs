//! The narrator: Forest Showdown's news in words, from
//! `rules/i18n/{en,zh}/forest.ftl`. A seat's dealt hand and its face-down
//! card are told to that seat only; everything else is public.

use bevy_ecs::prelude::*;

use super::deck::{CardId, deck};
use super::judge::{ChallengeRefusal, Refusal};
use super::state::*;
use crate::narrate::Arg;
use crate::table::{Amount, Announcements, Rejection, Said, SeatId, Seats, TableClock};
use crate::text::Bilingual;

crate::phrasebook!("forest");

/// "Seat 2 (Bob)" in both languages.
pub fn seat_name(seats: &Seats, seat: SeatId) -> Bilingual {
    say(
        "seat",
        &[
            ("n", seat.to_string().into()),
            ("name", seats.words(seat).into()),
        ],
    )
}

pub fn card_name(card: CardId) -> &'static Bilingual {
    &deck().card(card).name
}

fn card(card: CardId) -> Arg {
    card_name(card).clone().into()
}

/// A list: "a, b" in English, "a、b" in Chinese.
fn list(items: impl IntoIterator<Item = Bilingual>, en: &str, zh: &str) -> Bilingual {
    let items: Vec<Bilingual> = items.into_iter().collect();
    Bilingual::new(
        items
            .iter()
            .map(|b| b.en.as_str())
            .collect::<Vec<_>>()
            .join(en),
        items
            .iter()
            .map(|b| b.zh.as_str())
            .collect::<Vec<_>>()
            .join(zh),
    )
}

/// "Seat 1 (Ann) wins the round with 35." or "Seat 1 (Ann) and Seat 3
/// (Cy) share the round, with 35.": the seats with the highest score.
fn winners(seats: &Seats, scores: &[i64], what: &str) -> Bilingual {
    let top = scores.iter().copied().max().unwrap_or(0);
    let names: Vec<Bilingual> = seats
        .ids()
        .filter(|s| scores[s.index()] == top)
        .map(|s| seat_name(seats, s))
        .collect();
    let (key, who) = match names.len() {
        1 => ("wins", names[0].clone()),
        _ => ("share", list(names, " and ", "、")),
    };
    say(
        key,
        &[
            ("who", who.into()),
            ("what", say(what, &[]).into()),
            ("top", top.into()),
        ],
    )
}

/// Why two cards met as they did, in words (`challenge`: a challenge's
/// taking card `a` and the card `b` it named, where the challenger wins
/// what a showdown would leave standing).
pub fn meeting_words(meeting: Meeting, a: CardId, b: CardId, challenge: bool) -> Bilingual {
    let (a, b) = (card(a), card(b));
    match (meeting, challenge) {
        (Meeting::Eats, _) => say("f-why-eats", &[("a", a), ("b", b)]),
        (Meeting::Eaten, _) => say("f-why-eats", &[("a", b), ("b", a)]),
        (Meeting::Mutual, false) => say("f-why-mutual", &[("a", a), ("b", b)]),
        (Meeting::Mutual, true) => say("f-cwhy-mutual", &[("a", a), ("b", b)]),
        (Meeting::Neither, _) => say("f-why-neither", &[("a", a), ("b", b)]),
        (Meeting::DecayTaker, false) => say("f-why-decay", &[("a", a), ("b", b)]),
        (Meeting::DecayTaker, true) => say("f-cwhy-decay", &[("a", a), ("b", b)]),
    }
}

/// A change to a seat's own hand as that seat is told it (its screen
/// shows the same words).
pub fn change_line(c: &ForestChange, seats: &Seats) -> Bilingual {
    let (key, args) = change_args(c, |s| seat_name(seats, s));
    say(key, &args)
}

/// The words' key and arguments of a change (rules.md §8): the cards, how
/// they met and why, the energy gained or lost and the hand's after.
fn change_args(
    c: &ForestChange,
    name: impl Fn(SeatId) -> Bilingual,
) -> (&'static str, Vec<(&'static str, Arg)>) {
    let mut args: Vec<(&'static str, Arg)> = vec![
        ("e", c.energy.abs().into()),
        ("from", (c.energy_after - i64::from(c.energy)).into()),
        ("to", c.energy_after.into()),
    ];
    let key = match c.why {
        ForestWhy::Dealt {
            round,
            cards,
            short,
        } => {
            args.extend([
                ("round", round.into()),
                ("count", cards.into()),
                ("energy", c.energy_after.into()),
            ]);
            if short { "f-dealt-short" } else { "f-dealt" }
        }
        ForestWhy::Showdown {
            other,
            mine,
            theirs,
            meeting,
        } => {
            args.extend([
                ("other", name(other).into()),
                ("mine", card(mine)),
                ("theirs", card(theirs)),
                ("why", meeting_words(meeting, mine, theirs, false).into()),
            ]);
            match c.cards {
                1.. => "f-showdown-eats",
                ..0 => "f-showdown-eaten",
                0 => "f-showdown-stand-off",
            }
        }
        ForestWhy::Challenge {
            other,
            challenger,
            named,
            with,
            right,
            meeting,
        } => {
            args.extend([
                ("other", name(other).into()),
                ("named", card(named)),
                ("with", card(with)),
                ("why", meeting_words(meeting, with, named, true).into()),
            ]);
            match (challenger, right) {
                (true, true) => "f-challenge-right",
                (true, false) => "f-challenge-wrong",
                (false, true) => "f-challenged-right",
                (false, false) => "f-challenged-wrong",
            }
        }
    };
    (key, args)
}

/// Puts the step's news into words, in the order it happened.
pub fn narrate(
    mut news: MessageReader<ForestNews>,
    seats: Res<Seats>,
    clock: Res<TableClock>,
    mut said: ResMut<Announcements>,
) {
    let lines: Vec<Said> = news.read().flat_map(|n| words(n, &seats)).collect();
    said.speak(clock.now_ms, lines);
}

fn words(news: &ForestNews, seats: &Seats) -> Vec<Said> {
    let name = |s: SeatId| Arg::from(seat_name(seats, s));
    let all = |key: &str, args: &[(&str, Arg)]| Said::All(say(key, args));
    match news {
        ForestNews::Dealt { seat, cards } => {
            let cards = list(cards.iter().map(|&c| card_name(c).clone()), ", ", "、");
            vec![Said::To(*seat, say("dealt", &[("cards", cards.into())]))]
        }
        ForestNews::Changed { seat, change } => {
            let (key, args) = change_args(change, |s| seat_name(seats, s));
            let amounts = [Amount::cards(change.cards), Amount::energy(change.energy)]
                .into_iter()
                .filter(|a| a.by != 0)
                .collect();
            vec![Said::Counted(*seat, say(key, &args), amounts)]
        }
        ForestNews::RoundDealt { round } => vec![all("round-dealt", &[("n", (*round).into())])],
        ForestNews::ShortHand {
            seats: short,
            bonus,
        } => {
            let names = list(short.iter().map(|&s| seat_name(seats, s)), ", ", "、");
            vec![all(
                "short-hand",
                &[("bonus", (*bonus).into()), ("names", names.into())],
            )]
        }
        ForestNews::TurnBegins { seat, opening } => {
            let key = if *opening { "turn-opening" } else { "turn" };
            vec![all(key, &[("who", name(*seat))])]
        }
        ForestNews::ShowdownAsked { asker, target } => vec![all(
            "showdown-asked",
            &[("asker", name(*asker)), ("target", name(*target))],
        )],
        ForestNews::CardLaid { seat, card: c } => vec![
            Said::To(*seat, say("card-laid", &[("card", card(*c))])),
            all("card-chosen", &[("who", name(*seat))]),
        ],
        ForestNews::ShowdownRevealed(r) => {
            let result = match r.outcome {
                ShowdownOutcome::AskerTakes => say(
                    "takes",
                    &[("who", name(r.asker)), ("card", card(r.target_card))],
                ),
                ShowdownOutcome::TargetTakes => say(
                    "takes",
                    &[("who", name(r.target)), ("card", card(r.asker_card))],
                ),
                ShowdownOutcome::StandOff => say("stand-off", &[]),
            };
            vec![all(
                "showdown",
                &[
                    ("asker", name(r.asker)),
                    ("asker-card", card(r.asker_card)),
                    ("target", name(r.target)),
                    ("target-card", card(r.target_card)),
                    ("result", result.into()),
                ],
            )]
        }
        ForestNews::Challenged(c) => {
            let result = if c.right {
                say(
                    "challenge-right",
                    &[("challenger", name(c.challenger)), ("named", card(c.named))],
                )
            } else {
                say(
                    "challenge-wrong",
                    &[
                        ("challenger", name(c.challenger)),
                        ("with", card(c.with)),
                        ("target", name(c.target)),
                    ],
                )
            };
            vec![all(
                "challenge",
                &[
                    ("challenger", name(c.challenger)),
                    ("target", name(c.target)),
                    ("named", card(c.named)),
                    ("with", card(c.with)),
                    ("result", result.into()),
                ],
            )]
        }
        ForestNews::RoundTimeUp => vec![all("round-time-up", &[])],
        ForestNews::TurnTimedOut { seat } => {
            vec![all("timed-out-turn-over", &[("who", name(*seat))])]
        }
        ForestNews::ShowdownForced { seat } => {
            vec![all("timed-out-showdown", &[("who", name(*seat))])]
        }
        ForestNews::RandomCard { seat } => {
            vec![all("timed-out-random-card", &[("who", name(*seat))])]
        }
        ForestNews::RoundOver { round, scores } => {
            let energy = seats.ids().map(|s| {
                say(
                    "energy",
                    &[("who", name(s)), ("score", scores[s.index()].into())],
                )
            });
            let energy = list(energy, ", ", "，");
            vec![all(
                "round-over",
                &[
                    ("n", (*round).into()),
                    ("energy", energy.into()),
                    ("won", winners(seats, scores, "the-round").into()),
                ],
            )]
        }
        ForestNews::GameOver { totals } => vec![all(
            "game-over",
            &[("won", winners(seats, totals, "the-game").into())],
        )],
    }
}

/// A refusal in words.
pub fn refusal(r: Refusal, seats: &Seats) -> Rejection {
    let reason = match r {
        Refusal::GameOver => return Rejection::game_over(),
        Refusal::NotYourTurn => return Rejection::not_your_turn(),
        Refusal::UnknownSeat(s) => return Rejection::unknown_seat(s),
        Refusal::Card(c) => return c.into(),
        Refusal::NotStarted => say("no-not-started", &[]),
        Refusal::ShowdownUnderWay => say("no-showdown-under-way", &[]),
        Refusal::ChallengeOnYourTurn => say("no-challenge-on-your-turn", &[]),
        Refusal::NoShowdown => say("no-no-showdown", &[]),
        Refusal::NotYourself => say("no-not-yourself", &[]),
        Refusal::HoldsNoCards(s) => {
            say("no-holds-no-cards", &[("who", seat_name(seats, s).into())])
        }
        Refusal::OpeningShowdown => say("no-opening-showdown", &[]),
        Refusal::NotHolding(c) => say("no-not-holding", &[("card", card(c))]),
        Refusal::NotInShowdown => say("no-not-in-showdown", &[]),
        Refusal::AlreadyLaid => say("no-already-laid", &[]),
    };
    Rejection { reason }
}

/// The card rules' refusal of a challenge, in words.
impl From<ChallengeRefusal> for Rejection {
    fn from(refusal: ChallengeRefusal) -> Self {
        let reason = match refusal {
            ChallengeRefusal::DoesNotEat { with, named } => say(
                "no-does-not-eat",
                &[("with", card(with)), ("named", card(named))],
            ),
            ChallengeRefusal::DeathDecayChallengeUsed => say("no-death-decay-challenge-used", &[]),
            ChallengeRefusal::DeathDecayCaptured => say("no-death-decay-captured", &[]),
        };
        Rejection { reason }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A phrase reads in both languages.
    #[test]
    fn a_phrase_reads_in_both_languages() {
        let seats = Seats {
            names: vec!["Ann".into(), "Bo".into()],
        };
        assert_eq!(
            seat_name(&seats, SeatId(1)),
            Bilingual::new("Seat 2 (Bo)", "2 号（Bo）")
        );
    }
}
