//! The narrator: Wanning Beast Chess's news in words, from
//! `rules/i18n/{en,zh}/wanning.ftl`. Levels, animals, instincts, sensing,
//! 預知's answers, wisdom's feedback and talk go only to their seat; the
//! table hears the bans, the forms' comparison and the HP.

use bevy_ecs::prelude::*;

use super::data::{InstinctId, Kind, data};
use super::moves::{Refusal, SAY_CHARS};
use super::settings::{TALK_BURST, TALK_WINDOW_MS};
use super::state::*;
use crate::narrate::{Arg, Words};
use crate::table::{Amount, Announcements, Rejection, Said, SeatId, Seats, TableClock};
use crate::text::Bilingual;

crate::phrasebook!("wanning");

/// "Ann (1)".
fn name(seats: &Seats, seat: SeatId) -> Arg {
    Arg::Words(seats.words_numbered(seat))
}

pub fn instinct_name(id: InstinctId) -> Bilingual {
    data().instinct(id).name.clone()
}

pub fn kind_name(k: Kind) -> Bilingual {
    say(
        match k {
            Kind::Information => "kind-information",
            Kind::Defence => "kind-defence",
            Kind::Attack => "kind-attack",
            Kind::AllRound => "kind-all-round",
            Kind::Drawn => "kind-drawn",
        },
        &[],
    )
}

fn list(items: impl Iterator<Item = Bilingual>) -> Bilingual {
    let items: Vec<Bilingual> = items.collect();
    if items.is_empty() {
        return say("none", &[]);
    }
    Bilingual::new(
        items
            .iter()
            .map(|b| b.en.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        items
            .iter()
            .map(|b| b.zh.as_str())
            .collect::<Vec<_>>()
            .join("、"),
    )
}

/// Puts the step's news into words, in the order it happened.
pub fn narrate(
    mut news: MessageReader<WanningNews>,
    seats: Res<Seats>,
    clock: Res<TableClock>,
    mut said: ResMut<Announcements>,
) {
    let mut lines = Vec::new();
    for n in news.read() {
        words(n, &seats, &mut lines);
    }
    said.speak(clock.now_ms, lines);
}

/// The words for one piece of news, by the part of the game it belongs
/// to.
fn words(news: &WanningNews, seats: &Seats, out: &mut Vec<Said>) {
    let mut w = Words::new(seats, out, book(), name);
    use WanningNews::*;
    match news {
        Dealt { .. }
        | BansOpen
        | Banned(_)
        | PickOpen
        | Picked { .. }
        | Forms { .. }
        | Peeked { .. } => setup_words(&mut w, news),
        RoundBegins(_)
        | Sensed { .. }
        | Foreseen { .. }
        | InstinctInvalid(_)
        | LuckDrawn { .. }
        | Malice { .. }
        | Radical(_)
        | FoolWise { .. }
        | Wisdom { .. } => round_words(&mut w, news),
        Changed {
            seat,
            round,
            change,
        } => change_words(&mut w, *seat, *round, change),
        Announced { .. } | TrueHp { .. } | Said { .. } | GameOver { .. } => {
            announcement_words(&mut w, news)
        }
    }
}

/// A change to the seat's own HP or shields, told to it alone with its
/// amounts (issue 71): why, by how much, and where it left the seat.
fn change_words(w: &mut Words, seat: SeatId, round: u8, c: &Change) {
    let amounts = [Amount::hp(c.hp), Amount::shields(c.shields)]
        .into_iter()
        .filter(|a| a.by != 0)
        .collect();
    let (key, args) = change_args(round, c);
    w.counted(seat, key, &args, amounts);
}

/// A change's line as the seat was told it (its settlement, shown line by
/// line on its screen, says the same words).
pub fn change_line(round: u8, c: &Change) -> Bilingual {
    let (key, args) = change_args(round, c);
    say(key, &args)
}

fn change_args(round: u8, c: &Change) -> (&'static str, [(&'static str, Arg); 7]) {
    let key = match c.why {
        Why::Shielded => "change-shielded",
        Why::Soaked => "change-soaked",
        Why::Damage => "change-damage",
        Why::TrueDamage => "change-true-damage",
        Why::Locked => "change-locked",
        Why::Brutal if c.shields != 0 => "change-brutal-shields",
        Why::Brutal => "change-brutal",
        Why::Slain => "change-slain",
        Why::CupSaved => "change-cup-saved",
        Why::CupDamage if c.shields != 0 => "change-cup-damage-shield",
        Why::CupDamage => "change-cup-damage",
        Why::Scarecrows => "change-scarecrows",
        Why::Ambition => "change-ambition",
        Why::Sturdy => "change-sturdy",
    };
    let args = [
        ("n", round.into()),
        ("hp", c.hp.abs().into()),
        ("shields", c.shields.abs().into()),
        ("dealt", (c.hp.abs() + c.shields.abs()).into()),
        ("from", (c.hp_after - c.hp).into()),
        ("to", c.hp_after.into()),
        ("left", c.shields_after.into()),
    ];
    (key, args)
}

/// The set-up's words (rules.md §1): each seat's level and animal to it
/// alone; the bans, the pick's opening and the forms to everyone.
fn setup_words(w: &mut Words, news: &WanningNews) {
    match news {
        WanningNews::Dealt {
            seat,
            level,
            animal,
        } => w.to(
            *seat,
            "dealt",
            &[
                ("animal", data().animals[*animal].name.clone().into()),
                ("level", (*level).into()),
            ],
        ),
        WanningNews::BansOpen => w.all("bans-open", &[]),
        WanningNews::Banned(ids) => w.all(
            "banned",
            &[(
                "instincts",
                list(ids.iter().map(|i| instinct_name(*i))).into(),
            )],
        ),
        WanningNews::PickOpen => w.all("pick-open", &[]),
        WanningNews::Picked {
            seat,
            instinct,
            early_bird,
        } => {
            let args = [("instinct", instinct_name(*instinct).into())];
            if *early_bird {
                // 笨鳥先飛: 「獲得一個護盾」.
                w.counted(*seat, "picked-early-bird", &args, vec![Amount::shields(1)]);
            } else {
                w.to(*seat, "picked", &args);
            }
        }
        WanningNews::Forms { at, pt } => {
            let key = match FormsPicked::of(*at, *pt) {
                FormsPicked::MoreAt => "forms-at",
                FormsPicked::MorePt => "forms-pt",
                FormsPicked::Equal => "forms-equal",
            };
            w.all(key, &[]);
        }
        WanningNews::Peeked { seat, target, kind } => w.to(
            *seat,
            "peeked",
            &[("who", w.name(*target)), ("kind", kind_name(*kind).into())],
        ),
        _ => {}
    }
}

/// A round's words (rules.md §2 to §6): what an ability or instinct
/// showed, told to its holder; what the seed announces, to everyone.
fn round_words(w: &mut Words, news: &WanningNews) {
    match news {
        WanningNews::RoundBegins(n) => w.all("round-begins", &[("n", (*n).into())]),
        WanningNews::Sensed {
            seat,
            target,
            named,
        } => match named {
            Some(o) => w.to(
                *seat,
                "sensed",
                &[("who", w.name(*target)), ("object", w.name(*o))],
            ),
            None => w.to(*seat, "sensed-nobody", &[("who", w.name(*target))]),
        },
        WanningNews::Foreseen { seat, a, b, order } => {
            let key = match order {
                std::cmp::Ordering::Greater => "foreseen-higher",
                std::cmp::Ordering::Less => "foreseen-lower",
                std::cmp::Ordering::Equal => "foreseen-equal",
            };
            w.to(*seat, key, &[("a", w.name(*a)), ("b", w.name(*b))]);
        }
        WanningNews::InstinctInvalid(s) => w.to(*s, "instinct-invalid", &[]),
        WanningNews::LuckDrawn { seat, draw } => {
            let key = match draw {
                LuckDraw::Attack => "luck-attack",
                LuckDraw::Guard => "luck-guard",
                LuckDraw::Rest => "luck-rest",
            };
            w.to(*seat, key, &[]);
        }
        WanningNews::Malice { seat, count } => w.to(*seat, "malice", &[("count", (*count).into())]),
        WanningNews::Radical(s) => w.to(*s, "radical", &[]),
        WanningNews::FoolWise { seat, won } => w.to(
            *seat,
            if *won {
                "fool-wise-won"
            } else {
                "fool-wise-not"
            },
            &[],
        ),
        WanningNews::Wisdom { seat, right } => w.to(
            *seat,
            if *right {
                "wisdom-right"
            } else {
                "wisdom-wrong"
            },
            &[],
        ),
        _ => {}
    }
}

/// The end of a round and of the game (rules.md §2, §7 and §12): HP as
/// announced to everyone and true HP to its seat alone, a conversation to
/// its two sides, the result.
fn announcement_words(w: &mut Words, news: &WanningNews) {
    match news {
        WanningNews::Announced { round, hps, dead } => {
            let hps = crate::narrate::hp_list(
                hps.iter()
                    .enumerate()
                    .map(|(i, hp)| (w.seats.words(SeatId(i as u8)), i64::from(*hp))),
            );
            w.all("announced", &[("n", (*round).into()), ("hps", hps.into())]);
            for d in dead {
                w.all("died", &[("who", w.name(*d))]);
            }
        }
        WanningNews::TrueHp { seat, hp } => w.to(*seat, "true-hp", &[("hp", (*hp).into())]),
        WanningNews::Said {
            from,
            to: them,
            text,
        } => {
            let args = [
                ("from", w.name(*from)),
                ("to", w.name(*them)),
                ("text", Arg::Text(text.clone())),
            ];
            w.to(*them, "said", &args);
            w.to(*from, "said", &args);
        }
        WanningNews::GameOver { level, by } => {
            let key = match by {
                WinBy::LastLevel => "won-last-level",
                WinBy::Wisdom(_) => "won-wisdom",
                WinBy::FoolWise(_) => "won-fool-wise",
                WinBy::Cap => "won-cap",
            };
            w.all(key, &[("level", (*level).into())]);
        }
        _ => {}
    }
}

/// A refusal in words.
pub fn refusal(r: Refusal) -> Rejection {
    let reason = match r {
        Refusal::GameOver => return Rejection::game_over(),
        Refusal::UnknownSeat(s) => return Rejection::unknown_seat(s),
        Refusal::NotNow => say("no-not-now", &[]),
        Refusal::Dead => say("no-dead", &[]),
        Refusal::TooManyBans => say("no-too-many-bans", &[]),
        Refusal::BanTwice => say("no-ban-twice", &[]),
        Refusal::ForesightUnbannable => say("no-foresight-unbannable", &[]),
        Refusal::BannedAlready => say("no-banned-already", &[]),
        Refusal::Picked => say("no-picked", &[]),
        Refusal::InstinctBanned => say("no-instinct-banned", &[]),
        Refusal::TakenInstinct => say("no-taken-instinct", &[]),
        Refusal::Peeked => say("no-peeked", &[]),
        Refusal::NotYourself => say("no-not-yourself", &[]),
        Refusal::TargetDead => say("no-target-dead", &[]),
        Refusal::OrdersGiven => say("no-orders-given", &[]),
        Refusal::NoTargetForSecond => say("no-target-for-second", &[]),
        Refusal::NoSecondAttack => say("no-second-attack", &[]),
        Refusal::NotLevel4 => say("no-not-level-4", &[]),
        Refusal::SlaughterSpent => say("no-slaughter-spent", &[]),
        Refusal::SlaughterResting => say("no-slaughter-resting", &[]),
        Refusal::WisdomNotYours => say("no-wisdom-not-yours", &[]),
        Refusal::WisdomSpent => say("no-wisdom-spent", &[]),
        Refusal::WisdomTooEarly { from } => say("no-wisdom-too-early", &[("from", from.into())]),
        Refusal::WiseFoolTooEarly { from } => {
            say("no-wise-fool-too-early", &[("from", from.into())])
        }
        Refusal::WiseFoolAfterWisdom => say("no-wise-fool-after-wisdom", &[]),
        Refusal::WisdomShape => say("no-wisdom-shape", &[]),
        Refusal::NotYourInstinct => say("no-not-your-instinct", &[]),
        Refusal::InstinctSpent => say("no-instinct-spent", &[]),
        Refusal::InstinctResting => say("no-instinct-resting", &[]),
        Refusal::SameTargetTwice => say("no-same-target-twice", &[]),
        Refusal::TargetTooLow => say("no-target-too-low", &[]),
        Refusal::ConditionUnmet => say("no-condition-unmet", &[]),
        Refusal::MarkTwoPlayers => say("no-mark-two-players", &[]),
        Refusal::MarksFull => say("no-marks-full", &[]),
        Refusal::NoCurse => say("no-no-curse", &[]),
        Refusal::NameCurse => say("no-name-curse", &[]),
        Refusal::OmensEveryRound => say("no-omens-every-round", &[]),
        Refusal::GivesUpAction => say("no-gives-up-action", &[]),
        Refusal::BeastTarget => say("no-beast-target", &[]),
        Refusal::NoGuardOwed => say("no-guard-owed", &[]),
        Refusal::BadLevel => say("no-bad-level", &[]),
        Refusal::TalkNotYet => say("no-talk-not-yet", &[]),
        Refusal::SayLength => say("no-say-length", &[("chars", SAY_CHARS.into())]),
        Refusal::TalkRound { most } => say("no-talk-round", &[("most", most.into())]),
        Refusal::TalkGame { most } => say("no-talk-game", &[("most", most.into())]),
        Refusal::TalkFast => say(
            "no-talk-fast",
            &[
                ("lines", TALK_BURST.into()),
                ("secs", ((TALK_WINDOW_MS / 1000) as u32).into()),
            ],
        ),
    };
    Rejection { reason }
}
