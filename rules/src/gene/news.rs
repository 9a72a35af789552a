//! The narrator: Gene Survival's news in words, from
//! `rules/i18n/{en,zh}/gene.ftl`. Secrets (a spawn room, a hand, an order
//! card, a trade) are told only to their seats; in the action phase table
//! talk reaches only those on the same side of the action room.

use bevy_ecs::prelude::*;

use super::items::items;
use super::map::{FloorId, ItemKind, RoomId, map};
use super::state::*;
use crate::narrate::Arg;
use crate::table::{Announcements, Rejection, Said, SeatId, Seats, TableClock};
use crate::text::Bilingual;

crate::phrasebook!("gene");

pub fn room_name(r: RoomId) -> Bilingual {
    map().room(r).name.clone()
}

pub fn floor_name(f: FloorId) -> Bilingual {
    map().floor_name(f)
}

fn card(k: ItemKind) -> Arg {
    items().get(k).name.clone().into()
}

/// A settlement line in words; `name` names a seat (the table's names, or
/// a view's).
pub fn settle_words(line: &SettleLine, name: impl Fn(SeatId) -> String) -> Bilingual {
    let room = |r: RoomId| [("room", Arg::from(room_name(r)))];
    let who = |s: SeatId| [("name", Arg::Text(name(s)))];
    match &line.fact {
        SettleFact::Surgery(true) => say("s-surgery", &[]),
        SettleFact::Surgery(false) => say("s-no-surgery", &[]),
        SettleFact::Battle(r) => say("s-battle", &room(*r)),
        SettleFact::Brawl(r) => say("s-brawl", &room(*r)),
        SettleFact::ShadowMet(r) => say("s-shadow-met", &room(*r)),
        SettleFact::NoBattles => say("s-no-battles", &[]),
        SettleFact::Gassed(f) => say("s-gassed", &[("floor", floor_name(*f).into())]),
        SettleFact::Rocket(r) => say("s-rocket", &room(*r)),
        SettleFact::StateChanged(true) => say("s-state-changed", &[]),
        SettleFact::StateChanged(false) => say("s-state-unchanged", &[]),
        SettleFact::Shadow(s) => say("s-shadow", &who(*s)),
        SettleFact::Revived(s) => say("s-revived", &who(*s)),
        SettleFact::LastLiving(s) => say("s-last-living", &who(*s)),
        SettleFact::Hps(hps) => {
            let hps = hps
                .iter()
                .map(|(s, hp)| format!("{} {hp}", name(*s)))
                .collect::<Vec<_>>()
                .join(" · ");
            say("s-hp", &[("round", line.round.into()), ("hps", hps.into())])
        }
    }
}

/// A refusal in words.
pub fn refusal(r: Refusal) -> Rejection {
    let reason = match &r {
        Refusal::GameOver => return Rejection::game_over(),
        Refusal::NotYourTurn => return Rejection::not_your_turn(),
        Refusal::Trade(t) => return (*t).into(),
        Refusal::Genes(g) => genes_refusal(*g),
        Refusal::AloneInActionRoom => say("no-alone-in-action-room", &[]),
        Refusal::NoSuchCard => say("no-no-such-card", &[]),
        Refusal::OverCarry { n } => say("no-over-carry", &[("n", (*n).into())]),
        Refusal::PreparedAlready => say("no-prepared-already", &[]),
        Refusal::NoSuchRoom => say("no-no-such-room", &[]),
        Refusal::SpawnInMorgue => say("no-spawn-in-morgue", &[]),
        Refusal::ChatLength => say("no-chat-length", &[("chars", CHAT_CHARS.into())]),
        Refusal::ChatControl => say("no-chat-control", &[]),
        Refusal::NotNow => say("no-not-now", &[]),
        Refusal::OfferToAnother => say("no-offer-to-another", &[]),
        Refusal::TradesNothing => say("no-trades-nothing", &[]),
        Refusal::TooManyTradeCards => {
            say("no-too-many-trade-cards", &[("cards", TRADE_CARDS.into())])
        }
        Refusal::ShadowTradesCards => say("no-shadow-trades-cards", &[]),
        Refusal::OfferNotHeld => say("no-offer-not-held", &[]),
        Refusal::OfferStale => say("no-offer-stale", &[]),
        Refusal::FreeDropWithinCarry => say("no-free-drop-within-carry", &[]),
        Refusal::ReadyAlready => say("no-ready-already", &[]),
        Refusal::MovedAlready => say("no-moved-already", &[]),
        Refusal::OutOfReach => say("no-out-of-reach", &[]),
        Refusal::MoveFirst => say("no-move-first", &[]),
        Refusal::ShadowTakes => say("no-shadow-takes", &[]),
        Refusal::DrewAlready => say("no-drew-already", &[]),
        Refusal::NotLyingHere => say("no-not-lying-here", &[]),
        Refusal::ShadowUsesRoom => say("no-shadow-uses-room", &[]),
        Refusal::NotInSurgery => say("no-not-in-surgery", &[]),
        Refusal::SurgeryDone => say("no-surgery-done", &[]),
        Refusal::SurgeryPoints => say("no-surgery-points", &[("points", SURGERY_POINTS.into())]),
        Refusal::ShadowDraws => say("no-shadow-draws", &[]),
        Refusal::RoomDoesNotGive => say("no-room-does-not-give", &[]),
        Refusal::NoneLeft => say("no-none-left", &[]),
        Refusal::ShadowVotes => say("no-shadow-votes", &[]),
        Refusal::NoSuchFloor => say("no-no-such-floor", &[]),
        Refusal::FloorGassed => say("no-floor-gassed", &[]),
        Refusal::EndByVoting => say("no-end-by-voting", &[]),
        Refusal::LeaveOnlyWhereDrawn => say("no-leave-only-where-drawn", &[]),
        Refusal::ShadowHoldsNoCards => say("no-shadow-holds-no-cards", &[]),
        Refusal::NotUsable => say("no-not-usable", &[]),
        Refusal::AdrenalineAfterMove => say("no-adrenaline-after-move", &[]),
        Refusal::StateCardsSpent { n } => say("no-state-cards-spent", &[("n", (*n).into())]),
        Refusal::RocketNeedsRoom => say("no-rocket-needs-room", &[]),
        Refusal::NotStarted => say("no-not-started", &[]),
        Refusal::TradesClosed => say("no-trades-closed", &[]),
        Refusal::SetupOver => say("no-setup-over", &[]),
        Refusal::NothingToBeReadyFor => say("no-nothing-to-be-ready-for", &[]),
        Refusal::ActionPhaseOnly => say("no-action-phase-only", &[]),
        Refusal::NoCardsYet => say("no-no-cards-yet", &[]),
    };
    Rejection { reason }
}

/// Why genes are refused, in words (the set-up screen shows it too).
pub fn genes_refusal(g: GenesRefusal) -> Bilingual {
    match g {
        GenesRefusal::Unspent { points, total } => say(
            "no-genes-unspent",
            &[("points", points.into()), ("total", total.into())],
        ),
        GenesRefusal::NoSpeed => say("no-genes-no-speed", &[]),
    }
}

/// "Water, Food" / "水、粮", or "nothing".
pub fn card_list(cards: &[ItemKind]) -> Bilingual {
    if cards.is_empty() {
        return say("nothing", &[]);
    }
    let names: Vec<&Bilingual> = cards.iter().map(|k| &items().get(*k).name).collect();
    Bilingual::new(
        names
            .iter()
            .map(|n| n.en.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        names
            .iter()
            .map(|n| n.zh.as_str())
            .collect::<Vec<_>>()
            .join("、"),
    )
}

/// Puts the step's news into words, in the order it happened.
pub fn narrate(
    mut news: MessageReader<GeneNews>,
    seats: Res<Seats>,
    clock: Res<TableClock>,
    mut said: ResMut<Announcements>,
) {
    let mut lines = Vec::new();
    for n in news.read() {
        tell(n, &seats, &mut lines);
    }
    said.speak(clock.now_ms, lines);
}

#[allow(clippy::too_many_lines)] // issue 36: to be split
fn tell(news: &GeneNews, seats: &Seats, out: &mut Vec<Said>) {
    let name = |s: SeatId| Arg::Text(seats.name(s).to_string());
    let to = |out: &mut Vec<Said>, seat: SeatId, key: &str, args: &[(&str, Arg)]| {
        out.push(Said::To(seat, say(key, args)));
    };
    let all = |out: &mut Vec<Said>, key: &str, args: &[(&str, Arg)]| {
        out.push(Said::All(say(key, args)));
    };
    match news {
        GeneNews::Opening => all(
            out,
            "opening",
            &[("points", super::settle::numbers().gene_points.into())],
        ),
        GeneNews::Spawned { seat, room } => {
            to(out, *seat, "spawned", &[("room", room_name(*room).into())])
        }
        GeneNews::SetupTimeUp { seat, genes, room } => to(
            out,
            *seat,
            "setup-time-up",
            &[
                ("strength", genes.strength.into()),
                ("speed", genes.speed.into()),
                ("carry", genes.carry.into()),
                ("room", room_name(*room).into()),
            ],
        ),
        GeneNews::OrderCard {
            seat,
            round,
            card: n,
        } => to(
            out,
            *seat,
            "order-card",
            &[("round", (*round).into()), ("n", (*n).into())],
        ),
        GeneNews::FreePhase { round } => all(out, "free-phase", &[("round", (*round).into())]),
        GeneNews::FreeTimeUp => all(out, "free-time-up", &[]),
        GeneNews::SurplusLeft { seat, cards, room } => to(
            out,
            *seat,
            "surplus-left",
            &[
                ("cards", card_list(cards).into()),
                ("room", room_name(*room).into()),
            ],
        ),
        GeneNews::SurplusReturned { seat, cards } => to(
            out,
            *seat,
            "surplus-returned",
            &[("cards", card_list(cards).into())],
        ),
        GeneNews::ActionPhase { order } => {
            let names: Vec<&str> = order.iter().map(|s| seats.name(*s)).collect();
            let order = Bilingual::new(names.join(", "), names.join("、"));
            all(out, "action-phase", &[("order", order.into())]);
        }
        GeneNews::Moved { seat, room } => {
            to(out, *seat, "moved", &[("room", room_name(*room).into())])
        }
        GeneNews::Received {
            seat,
            card: k,
            took,
        } => {
            let key = if *took { "took" } else { "drew" };
            to(out, *seat, key, &[("card", card(*k))]);
        }
        GeneNews::OverCarry { seat, surplus } => {
            to(out, *seat, "over-carry", &[("n", (*surplus).into())])
        }
        GeneNews::DroppedOldest { seat, cards, room } => to(
            out,
            *seat,
            "dropped-oldest",
            &[
                ("cards", card_list(cards).into()),
                ("room", room_name(*room).into()),
            ],
        ),
        GeneNews::Used { seat, card: k } => to(out, *seat, "used", &[("card", card(*k))]),
        GeneNews::Operated { seat, genes } => to(
            out,
            *seat,
            "operated",
            &[
                ("strength", genes.strength.into()),
                ("speed", genes.speed.into()),
                ("carry", genes.carry.into()),
            ],
        ),
        GeneNews::Offered(o) => {
            let swap = if o.swaps_order() {
                say("swap", &[])
            } else {
                Bilingual::new("", "")
            };
            let (g, w) = (card_list(&o.give.cards), card_list(&o.want.cards));
            to(
                out,
                o.to,
                "offer-to-you",
                &[
                    ("from", name(o.from)),
                    ("give", g.clone().into()),
                    ("want", w.clone().into()),
                    ("swap", swap.clone().into()),
                ],
            );
            to(
                out,
                o.from,
                "offer-you-made",
                &[
                    ("to", name(o.to)),
                    ("give", g.into()),
                    ("want", w.into()),
                    ("swap", swap.into()),
                ],
            );
        }
        GeneNews::Traded { offer: o, orders } => {
            let sides = [
                (
                    o.from,
                    o.to,
                    &o.give.cards,
                    &o.want.cards,
                    orders.map(|(a, _)| a),
                ),
                (
                    o.to,
                    o.from,
                    &o.want.cards,
                    &o.give.cards,
                    orders.map(|(_, b)| b),
                ),
            ];
            for (me, them, gave, got, order) in sides {
                let mut args = vec![
                    ("other", name(them)),
                    ("gave", card_list(gave).into()),
                    ("got", card_list(got).into()),
                ];
                let key = match order {
                    Some(n) => {
                        args.push(("n", n.into()));
                        "traded-order"
                    }
                    None => "traded",
                };
                to(out, me, key, &args);
            }
        }
        GeneNews::OfferLapsed { a, b } => {
            for (s, other) in [(*a, *b), (*b, *a)] {
                to(out, s, "offer-lapsed", &[("other", name(other))]);
            }
        }
        GeneNews::Declined { from, by } => to(out, *from, "declined", &[("by", name(*by))]),
        GeneNews::Withdrawn { from, to: them } => {
            to(out, *them, "withdrawn", &[("from", name(*from))])
        }
        GeneNews::Chat {
            from,
            text,
            to: audience,
        } => {
            let line = say(
                "chat",
                &[("name", name(*from)), ("text", Arg::Text(text.clone()))],
            );
            match audience {
                Some(seats) => out.extend(seats.iter().map(|s| Said::To(*s, line.clone()))),
                None => out.push(Said::All(line)),
            }
        }
        GeneNews::TurnTimeUp { seat } => all(out, "turn-time-up", &[("name", name(*seat))]),
        GeneNews::Settled(line) => {
            out.push(Said::All(settle_words(line, |s| seats.name(s).to_string())))
        }
        GeneNews::GameOver => all(out, "game-over", &[]),
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
        assert_eq!(say("nothing", &[]), Bilingual::new("nothing", "无"));
    }
}
