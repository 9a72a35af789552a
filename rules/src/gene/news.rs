//! The narrator: Gene Survival's news in words, from
//! `rules/i18n/{en,zh}/gene.ftl`. Secrets (a spawn room, a hand, an order
//! card, a trade) are told only to their seats; in the action phase table
//! talk reaches only those on the same side of the action room.

use bevy_ecs::prelude::*;

use super::items::items;
use super::map::{FloorId, ItemKind, RoomId, map};
use super::state::*;
use crate::narrate::{Arg, Words};
use crate::table::{Amount, Announcements, Rejection, Said, SeatId, Seats, TableClock};
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
pub fn settle_words(line: &SettleLine, name: impl Fn(SeatId) -> Bilingual) -> Bilingual {
    let room = |r: RoomId| [("room", Arg::from(room_name(r)))];
    let who = |s: SeatId| [("name", Arg::Words(name(s)))];
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
            let hps = crate::narrate::hp_list(hps.iter().map(|(s, hp)| (name(*s), i64::from(*hp))));
            say("s-hp", &[("round", line.round.into()), ("hps", hps.into())])
        }
    }
}

/// A change to a seat's own HP as that seat is told it (its settlement on
/// its screen says the same words).
pub fn change_line(c: &GeneChange) -> Bilingual {
    let (key, args) = change_args(c);
    say(key, &args)
}

fn change_args(c: &GeneChange) -> (&'static str, Vec<(&'static str, Arg)>) {
    let mut args: Vec<(&'static str, Arg)> = vec![
        ("n", c.round.into()),
        ("from", (c.hp_after - c.hp).into()),
        ("to", c.hp_after.into()),
    ];
    let key = match c.why {
        GeneWhy::Battle {
            room,
            brawl,
            strongest,
            yours,
        } => {
            args.extend([
                ("room", room_name(room).into()),
                ("strongest", strongest.into()),
                ("yours", yours.into()),
            ]);
            match (brawl, c.hp == 0) {
                (false, false) => "c-battle",
                (true, false) => "c-brawl",
                (false, true) => "c-battle-strongest",
                (true, true) => "c-brawl-strongest",
            }
        }
        GeneWhy::Drained { room, shadows } => {
            args.extend([
                ("room", room_name(room).into()),
                ("shadows", shadows.into()),
            ]);
            "c-drained"
        }
        GeneWhy::Gas { floor } => {
            args.push(("floor", floor_name(floor).into()));
            "c-gas"
        }
        GeneWhy::Upkeep { water, food } => match (water, food) {
            (true, true) => "c-upkeep-paid",
            (false, true) => "c-upkeep-no-water",
            (true, false) => "c-upkeep-no-food",
            (false, false) => "c-upkeep-none",
        },
        GeneWhy::Rocket { room } => {
            args.push(("room", room_name(room).into()));
            "c-rocket"
        }
        GeneWhy::OwnState => "c-own-state",
        GeneWhy::Revived => "c-revived",
        GeneWhy::Gold { bars } => {
            args.push(("bars", bars.into()));
            "c-gold"
        }
    };
    (key, args)
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

/// A seat by its name alone.
fn seat_name(seats: &Seats, seat: SeatId) -> Arg {
    Arg::Words(seats.words(seat))
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

/// The words for one piece of news, by the part of the game it belongs
/// to.
fn tell(news: &GeneNews, seats: &Seats, out: &mut Vec<Said>) {
    let mut tell = Words::new(seats, out, book(), seat_name);
    use GeneNews::*;
    match news {
        Opening | Spawned { .. } | SetupTimeUp { .. } | OrderCard { .. } => {
            setup_words(&mut tell, news)
        }
        FreePhase { .. } | FreeTimeUp | SurplusLeft { .. } | SurplusReturned { .. } => {
            free_words(&mut tell, news)
        }
        Offered(_)
        | Traded { .. }
        | OfferLapsed { .. }
        | Declined { .. }
        | Withdrawn { .. }
        | Chat { .. } => talk_words(&mut tell, news),
        ActionPhase { .. }
        | Moved { .. }
        | Received { .. }
        | OverCarry { .. }
        | DroppedOldest { .. }
        | Used { .. }
        | Operated { .. }
        | TurnTimeUp { .. }
        | Settled(_)
        | Changed { .. }
        | GameOver => action_words(&mut tell, news),
    }
}

/// The start's words (rules.md §1 and §5): where each seat wakes, its
/// genes when its clock ran out, its order card: each to that seat alone.
fn setup_words(tell: &mut Words, news: &GeneNews) {
    match news {
        GeneNews::Opening => tell.all(
            "opening",
            &[("points", super::settle::numbers().gene_points.into())],
        ),
        GeneNews::Spawned { seat, room } => {
            tell.to(*seat, "spawned", &[("room", room_name(*room).into())])
        }
        GeneNews::SetupTimeUp { seat, genes, room } => tell.to(
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
        } => tell.to(
            *seat,
            "order-card",
            &[("round", (*round).into()), ("n", (*n).into())],
        ),
        _ => {}
    }
}

/// The free phase's words (rules.md §5 and §6).
fn free_words(tell: &mut Words, news: &GeneNews) {
    match news {
        GeneNews::FreePhase { round } => tell.all("free-phase", &[("round", (*round).into())]),
        GeneNews::FreeTimeUp => tell.all("free-time-up", &[]),
        GeneNews::SurplusLeft { seat, cards, room } => tell.to(
            *seat,
            "surplus-left",
            &[
                ("cards", card_list(cards).into()),
                ("room", room_name(*room).into()),
            ],
        ),
        GeneNews::SurplusReturned { seat, cards } => tell.to(
            *seat,
            "surplus-returned",
            &[("cards", card_list(cards).into())],
        ),
        _ => {}
    }
}

/// Offers, trades and talk (rules.md §5): each to the seats it concerns.
fn talk_words(tell: &mut Words, news: &GeneNews) {
    match news {
        GeneNews::Offered(o) => {
            let swap = if o.swaps_order() {
                say("swap", &[])
            } else {
                Bilingual::new("", "")
            };
            let (g, w) = (card_list(&o.give.cards), card_list(&o.want.cards));
            tell.to(
                o.to,
                "offer-to-you",
                &[
                    ("from", tell.name(o.from)),
                    ("give", g.clone().into()),
                    ("want", w.clone().into()),
                    ("swap", swap.clone().into()),
                ],
            );
            tell.to(
                o.from,
                "offer-you-made",
                &[
                    ("to", tell.name(o.to)),
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
                    ("other", tell.name(them)),
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
                tell.to(me, key, &args);
            }
        }
        GeneNews::OfferLapsed { a, b } => {
            for (s, other) in [(*a, *b), (*b, *a)] {
                tell.to(s, "offer-lapsed", &[("other", tell.name(other))]);
            }
        }
        GeneNews::Declined { from, by } => tell.to(*from, "declined", &[("by", tell.name(*by))]),
        GeneNews::Withdrawn { from, to: them } => {
            tell.to(*them, "withdrawn", &[("from", tell.name(*from))])
        }
        GeneNews::Chat {
            from,
            text,
            to: audience,
        } => {
            let line = say(
                "chat",
                &[
                    ("name", tell.name(*from)),
                    ("text", Arg::Text(text.clone())),
                ],
            );
            match audience {
                Some(to) => tell
                    .out
                    .extend(to.iter().map(|s| Said::To(*s, line.clone()))),
                None => tell.out.push(Said::All(line)),
            }
        }
        _ => {}
    }
}

/// The action phase's words and the settlement's (rules.md §5 and §8):
/// the order is public, each move is told to its mover.
fn action_words(tell: &mut Words, news: &GeneNews) {
    match news {
        GeneNews::ActionPhase { order } => {
            let names: Vec<Bilingual> = order.iter().map(|s| tell.seats.words(*s)).collect();
            let en: Vec<&str> = names.iter().map(|n| n.en.as_str()).collect();
            let zh: Vec<&str> = names.iter().map(|n| n.zh.as_str()).collect();
            let order = Bilingual::new(en.join(", "), zh.join("、"));
            tell.all("action-phase", &[("order", order.into())]);
        }
        GeneNews::Moved { seat, room } => {
            tell.to(*seat, "moved", &[("room", room_name(*room).into())])
        }
        GeneNews::Received {
            seat,
            card: k,
            took,
        } => {
            let key = if *took { "took" } else { "drew" };
            tell.to(*seat, key, &[("card", card(*k))]);
        }
        GeneNews::OverCarry { seat, surplus } => {
            tell.to(*seat, "over-carry", &[("n", (*surplus).into())])
        }
        GeneNews::DroppedOldest { seat, cards, room } => tell.to(
            *seat,
            "dropped-oldest",
            &[
                ("cards", card_list(cards).into()),
                ("room", room_name(*room).into()),
            ],
        ),
        GeneNews::Used { seat, card: k } => tell.to(*seat, "used", &[("card", card(*k))]),
        GeneNews::Operated { seat, genes } => tell.to(
            *seat,
            "operated",
            &[
                ("strength", genes.strength.into()),
                ("speed", genes.speed.into()),
                ("carry", genes.carry.into()),
            ],
        ),
        GeneNews::TurnTimeUp { seat } => tell.all("turn-time-up", &[("name", tell.name(*seat))]),
        GeneNews::Settled(line) => tell
            .out
            .push(Said::All(settle_words(line, |s| tell.seats.words(s)))),
        GeneNews::Changed { seat, change } => {
            let (key, args) = change_args(change);
            let amounts = vec![Amount::hp(change.hp)]
                .into_iter()
                .filter(|a| a.by != 0)
                .collect();
            tell.counted(*seat, key, &args, amounts);
        }
        GeneNews::GameOver => tell.all("game-over", &[]),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A phrase reads in both languages.
    #[test]
    fn a_phrase_reads_in_both_languages() {
        assert_eq!(say("nothing", &[]), Bilingual::new("nothing", "无"));
    }
}
