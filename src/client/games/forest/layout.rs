//! Forest Showdown's table laid out in the scene's rectangle: where each
//! card sits, and the labels and areas around them, by region of the
//! table. `scene.rs` puts the pieces on screen and moves them.

use bevy::prelude::*;
use foodweb_rules::forest::{
    CardId, ChallengeReveal, ForestPhase, ForestView, SeatPublic, ShowdownOutcome, ShowdownPublic,
    ShowdownReveal, deck,
};
use foodweb_rules::table::SeatId;

use super::panels::TableUi;
use crate::client::I18n;
use crate::client::reach::Does;
use crate::client::scene::Words;

/// One card as the layout wants it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Want {
    pub(super) place: Place,
    pub(super) face: Option<CardId>,
    pub(super) at: Transform,
    /// Tapped, dragged and lifted: the seat's own hand.
    pub(super) playable: bool,
}

/// A label or area as the layout wants it.
pub(super) enum Deco {
    Text(Words),
    Area {
        /// A seat's area, and what tapping it does now.
        seat: Option<(SeatId, Does)>,
        rect: Rect,
        colour: Color,
        border: Option<Color>,
    },
}

const GOLD: Color = Color::srgb(0.925, 0.745, 0.36);
const MUTED: Color = Color::srgb(0.63, 0.67, 0.59);
const TEXT: Color = Color::srgb(0.93, 0.91, 0.85);

/// A seat's name, or its number if the view has no such seat.
fn seat_name(i18n: &I18n, view: &ForestView, seat: SeatId) -> String {
    view.seats
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |s| i18n.name(&s.name))
}

/// A card's transform: at `pos` and depth `z`, scaled and turned.
pub(super) fn place_at(pos: Vec2, z: f32, scale: f32, angle: f32) -> Transform {
    Transform::from_translation(pos.extend(z))
        .with_rotation(Quat::from_rotation_z(angle))
        .with_scale(Vec3::splat(scale))
}

/// A seat's name over its card in the middle.
fn name_over(name: String, x: f32, y: f32, gap: f32) -> Deco {
    Deco::Text(Words {
        text: name,
        at: Vec2::new(x, y),
        size: 14.0,
        colour: TEXT,
        width: gap * 2.0 - 8.0,
    })
}

/// What every region of a layout reads.
struct Ctx<'a> {
    view: &'a ForestView,
    ui: &'a TableUi,
    i18n: &'a I18n,
    /// The scene's rectangle.
    r: Rect,
    /// A phone's width.
    narrow: bool,
    /// How much bigger than full size a big screen's cards are.
    big: f32,
}

impl<'a> Ctx<'a> {
    /// The context for laying `view` out in `r`.
    fn new(view: &'a ForestView, ui: &'a TableUi, i18n: &'a I18n, r: Rect) -> Self {
        let narrow = r.width() < 600.0;
        // A big screen (1920x1080) gets bigger cards, not more felt.
        let big = if narrow {
            1.0
        } else {
            (r.height() / 600.0).min(r.width() / 900.0).clamp(1.0, 1.5)
        };
        Self {
            view,
            ui,
            i18n,
            r,
            narrow,
            big,
        }
    }
}

/// The cards and the labels and areas made so far, in the order made.
#[derive(Default)]
struct Pieces {
    cards: Vec<Want>,
    decos: Vec<Deco>,
}

/// Lays the view out in `r`: every card's place, and the labels.
pub(super) fn layout(
    view: &ForestView,
    ui: &TableUi,
    i18n: &I18n,
    r: Rect,
) -> (Vec<Want>, Vec<Deco>, Rect) {
    let ctx = Ctx::new(view, ui, i18n, r);
    let mut out = Pieces::default();
    let top = seats(&ctx, &mut out);
    let bottom = hand(&ctx, &mut out);
    // The middle: between the seats and the hand.
    let m = Middle::new(&ctx, Rect::new(r.min.x, bottom, r.max.x, top));
    if let Some(sd) = &view.showdown {
        showdown(&ctx, &m, sd, &mut out);
    } else if let Some(s) = &view.last_showdown {
        last_showdown(&ctx, &m, s, &mut out);
    }
    if let Some(c) = &view.last_challenge {
        challenge(&ctx, &m, c, &mut out);
    }
    (out.cards, out.decos, m.rect)
}

/// The other seats, along the top: one row, or two on a phone. Returns
/// the bottom of the lowest row.
fn seats(ctx: &Ctx, out: &mut Pieces) -> f32 {
    let (view, r) = (ctx.view, ctx.r);
    let others: Vec<_> = view
        .seats
        .iter()
        .filter(|s| Some(s.seat) != view.me)
        .collect();
    let per_row = if ctx.narrow {
        3.min(others.len()).max(1)
    } else {
        others.len().max(1)
    };
    let rows = others.len().div_ceil(per_row).max(1);
    let seat_h = if ctx.narrow { 96.0 } else { 128.0 * ctx.big };
    let seat_w = r.width() / per_row as f32;
    for (i, seat) in others.iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let area = Rect::from_corners(
            Vec2::new(
                r.min.x + col as f32 * seat_w + 4.0,
                r.max.y - (row + 1) as f32 * seat_h + 4.0,
            ),
            Vec2::new(
                r.min.x + (col + 1) as f32 * seat_w - 4.0,
                r.max.y - row as f32 * seat_h - 4.0,
            ),
        );
        out.decos.extend(seat_decos(ctx, seat, area));
        out.cards.extend(seat_cards(ctx, seat, area));
    }
    r.max.y - rows as f32 * seat_h
}

/// A seat's area (edged in gold on its turn or in a showdown) and its
/// label.
fn seat_decos(ctx: &Ctx, seat: &SeatPublic, area: Rect) -> [Deco; 2] {
    let view = ctx.view;
    let active = seat.seat == view.active && view.phase == ForestPhase::Turn;
    let in_showdown = view
        .showdown
        .as_ref()
        .is_some_and(|s| s.asker == seat.seat || s.target == seat.seat);
    [
        Deco::Area {
            seat: Some((seat.seat, seat_does(view, ctx.ui, seat.seat))),
            rect: area,
            colour: if ctx.ui.target == Some(seat.seat) {
                Color::srgb(0.24, 0.33, 0.2)
            } else {
                Color::srgb(0.09, 0.15, 0.11)
            },
            border: (active || in_showdown).then_some(GOLD),
        },
        Deco::Text(Words {
            text: seat_label(ctx, seat),
            at: Vec2::new(area.center().x, area.max.y - 12.0),
            size: if ctx.narrow { 12.0 } else { 15.0 },
            colour: if active { GOLD } else { TEXT },
            width: area.width() - 8.0,
        }),
    ]
}

/// A seat's name, its card count, and whether it has the short-hand bonus.
fn seat_label(ctx: &Ctx, seat: &SeatPublic) -> String {
    // A phone's narrow area: the name and the count only.
    if ctx.narrow {
        return format!("{} · {}", seat.name, seat.hand_size);
    }
    let bonus = if seat.short_hand {
        format!(" · {}", ctx.i18n.t("table-bonus"))
    } else {
        String::new()
    };
    format!(
        "{}  {}{bonus}",
        seat.name,
        ctx.i18n.ta("table-cards", &[("n", seat.hand_size.into())])
    )
}

/// A seat's cards in its area: known cards face up, then the unseen ones
/// as backs, in a fan.
fn seat_cards(ctx: &Ctx, seat: &SeatPublic, area: Rect) -> Vec<Want> {
    let known: Vec<CardId> = seat.known.iter().copied().take(seat.hand_size).collect();
    let backs = seat.hand_size.saturating_sub(known.len());
    let n = known.len() + backs;
    let scale = if ctx.narrow { 0.42 } else { 0.58 * ctx.big };
    let w = CARD.x * scale;
    let span = area.width() - 12.0;
    let step = if n > 1 {
        ((span - w) / (n - 1) as f32).min(w * 0.7)
    } else {
        0.0
    };
    let total = w + step * n.saturating_sub(1) as f32;
    let y = area.min.y + CARD.y * scale / 2.0 + 4.0;
    (0..n)
        .map(|k| {
            let x = area.center().x - total / 2.0 + w / 2.0 + step * k as f32;
            let at = place_at(Vec2::new(x, y), 10.0 + k as f32, scale, 0.0);
            let (place, face) = match known.get(k) {
                Some(&c) => (Place::Known(seat.seat, c), Some(c)),
                None => (Place::Back(seat.seat, (k - known.len()) as u16), None),
            };
            Want {
                place,
                face,
                at,
                playable: false,
            }
        })
        .collect()
}

/// The hand along the bottom: a fan that overlaps more as it grows; on a
/// phone, two rows of whole cards once it holds more than five. Returns
/// the top of the hand, where the middle starts.
fn hand(ctx: &Ctx, out: &mut Pieces) -> f32 {
    let (view, r) = (ctx.view, ctx.r);
    let n = view.hand.len();
    let hand_rows = if ctx.narrow && n > 5 { 2 } else { 1 };
    let per_row = n.div_ceil(hand_rows).max(1);
    let span = r.width() - 16.0;
    let hand_scale = if ctx.narrow {
        ((span / per_row as f32 - 4.0) / CARD.x).clamp(0.5, 0.8)
    } else {
        ctx.big
    };
    let w = CARD.x * hand_scale;
    let row_h = CARD.y * hand_scale + 6.0;
    let hand_y = r.min.y + CARD.y * hand_scale / 2.0 + 10.0;
    for (k, &c) in view.hand.iter().enumerate() {
        let (row, k_in) = (k / per_row, k % per_row);
        let in_row = if row + 1 < hand_rows {
            per_row
        } else {
            n - row * per_row
        };
        let step = if in_row > 1 {
            ((span - w) / (in_row - 1) as f32).min(w + 6.0)
        } else {
            0.0
        };
        let total = w + step * in_row.saturating_sub(1) as f32;
        let mid = (in_row as f32 - 1.0) / 2.0;
        let at_fan = if mid > 0.0 {
            (k_in as f32 - mid) / mid
        } else {
            0.0
        };
        let lift = if ctx.ui.selected == Some(c) {
            24.0
        } else {
            -8.0 * at_fan * at_fan
        };
        let x = r.center().x - total / 2.0 + w / 2.0 + step * k_in as f32;
        let y = hand_y + (hand_rows - 1 - row) as f32 * row_h;
        let angle = -at_fan * if step < w { 0.12 } else { 0.05 };
        out.cards.push(Want {
            place: Place::Mine(c),
            face: Some(c),
            at: place_at(Vec2::new(x, y + lift), 100.0 + k as f32, hand_scale, angle),
            playable: true,
        });
    }
    hand_y + (hand_rows - 1) as f32 * row_h + CARD.y * hand_scale / 2.0 + 8.0
}

/// The middle's measures: where its two showdown cards sit, and how big.
struct Middle {
    rect: Rect,
    /// The last challenge shown beside the showdown (not in a strip).
    challenge_shown: bool,
    scale: f32,
    /// From the centre to each showdown card.
    gap: f32,
    centre: Vec2,
    left: Vec2,
    right: Vec2,
    /// Where the seats' names sit over their cards.
    caption_y: f32,
}

impl Middle {
    /// Measures the middle, `rect`.
    fn new(ctx: &Ctx, rect: Rect) -> Self {
        let view = ctx.view;
        // With a challenge to show, the showdown sits left of centre; on a
        // phone, the challenge takes a strip at the top of the middle.
        let challenge_shown = view.last_challenge.is_some() && rect.width() > 520.0;
        let strip = if view.last_challenge.is_some() && !challenge_shown {
            96.0
        } else {
            0.0
        };
        let scale = ((rect.height() - strip - 44.0) / CARD.y)
            .clamp(0.45, if ctx.narrow { 0.8 } else { ctx.big });
        let gap = CARD.x * scale * 0.75;
        let centre = Vec2::new(
            if challenge_shown {
                rect.min.x + rect.width() * 0.36
            } else {
                rect.center().x
            },
            (rect.min.y + rect.max.y - strip) / 2.0 - 8.0,
        );
        Self {
            rect,
            challenge_shown,
            scale,
            gap,
            centre,
            left: centre - Vec2::new(gap, 0.0),
            right: centre + Vec2::new(gap, 0.0),
            caption_y: centre.y + CARD.y * scale / 2.0 + 12.0,
        }
    }
}

/// The showdown under way: each side's name and, once put down, its card
/// (face down but the seat's own), with "VS" between.
fn showdown(ctx: &Ctx, m: &Middle, sd: &ShowdownPublic, out: &mut Pieces) {
    for (seat, ready, at) in [
        (sd.asker, sd.asker_ready, m.left),
        (sd.target, sd.target_ready, m.right),
    ] {
        out.decos.push(name_over(
            seat_name(ctx.i18n, ctx.view, seat),
            at.x,
            m.caption_y,
            m.gap,
        ));
        if ready {
            let face = if Some(seat) == ctx.view.me {
                sd.my_card
            } else {
                None
            };
            out.cards.push(Want {
                place: Place::Staged(seat),
                face,
                at: place_at(at, 60.0, m.scale, 0.0),
                playable: false,
            });
        }
    }
    out.decos.push(Deco::Text(Words {
        text: "VS".into(),
        at: m.centre,
        size: 26.0,
        colour: GOLD,
        width: 40.0,
    }));
}

/// The last showdown turned over: its heading, each side's name and card,
/// and who took what.
fn last_showdown(ctx: &Ctx, m: &Middle, s: &ShowdownReveal, out: &mut Pieces) {
    out.decos.push(Deco::Text(Words {
        text: ctx.i18n.t("table-last-showdown"),
        at: Vec2::new(m.centre.x, m.caption_y + 18.0),
        size: 13.0,
        colour: MUTED,
        width: m.gap * 4.0,
    }));
    for (i, (seat, card, at)) in [
        (s.asker, s.asker_card, m.left),
        (s.target, s.target_card, m.right),
    ]
    .into_iter()
    .enumerate()
    {
        out.decos.push(name_over(
            seat_name(ctx.i18n, ctx.view, seat),
            at.x,
            m.caption_y,
            m.gap,
        ));
        out.cards.push(Want {
            place: Place::Reveal(i as u8),
            face: Some(card),
            at: place_at(at, 40.0, m.scale, 0.0),
            playable: false,
        });
    }
    out.decos.push(Deco::Text(Words {
        text: showdown_outcome(ctx, s),
        at: Vec2::new(m.centre.x, m.centre.y - CARD.y * m.scale / 2.0 - 12.0),
        size: 14.0,
        colour: GOLD,
        width: (m.rect.width() * if m.challenge_shown { 0.6 } else { 0.95 }).max(120.0),
    }));
}

/// Who took which card in showdown `s`, or that neither did.
fn showdown_outcome(ctx: &Ctx, s: &ShowdownReveal) -> String {
    let i18n = ctx.i18n;
    let takes = |who: SeatId, card: CardId| {
        let card = i18n.pick(&deck().card(card).name).to_string();
        i18n.ta(
            "table-takes",
            &[
                ("name", seat_name(ctx.i18n, ctx.view, who).into()),
                ("card", card.into()),
            ],
        )
    };
    let result = match s.outcome {
        ShowdownOutcome::AskerTakes => takes(s.asker, s.target_card),
        ShowdownOutcome::TargetTakes => takes(s.target, s.asker_card),
        ShowdownOutcome::StandOff => i18n.t("table-stand-off"),
    };
    // Why (issue 71): which eats which, or why neither takes.
    let meeting = foodweb_rules::forest::showdown::meeting(s.asker_card, s.target_card);
    let why =
        foodweb_rules::forest::news::meeting_words(meeting, s.asker_card, s.target_card, false);
    i18n.ta(
        "table-showdown-why",
        &[("why", i18n.pick(&why).into()), ("result", result.into())],
    )
}

/// The last challenge: who challenged whom and whether rightly, over the
/// taking card and the card named.
fn challenge(ctx: &Ctx, m: &Middle, c: &ChallengeReveal, out: &mut Pieces) {
    let middle = m.rect;
    let (cx, scale) = if m.challenge_shown {
        (middle.min.x + middle.width() * 0.8, m.scale * 0.8)
    } else {
        // A phone: small, centred under the seats.
        (middle.center().x, 0.45)
    };
    let dx = CARD.x * scale * 0.62;
    let cy = if m.challenge_shown {
        m.centre.y
    } else {
        middle.max.y - CARD.y * scale / 2.0 - 24.0
    };
    out.decos.push(Deco::Text(Words {
        text: challenge_caption(ctx, c),
        at: Vec2::new(cx, cy + CARD.y * scale / 2.0 + 12.0),
        size: if m.challenge_shown { 13.0 } else { 10.0 },
        colour: if c.right {
            Color::srgb(0.51, 0.78, 0.47)
        } else {
            Color::srgb(0.9, 0.47, 0.39)
        },
        width: if m.challenge_shown {
            middle.width() * 0.36
        } else {
            middle.width() - 16.0
        },
    }));
    for (i, (card, x)) in [(c.with, cx - dx), (c.named, cx + dx)]
        .into_iter()
        .enumerate()
    {
        out.cards.push(Want {
            place: Place::Challenge(i as u8),
            face: Some(card),
            at: place_at(Vec2::new(x, cy), 30.0, scale, 0.0),
            playable: false,
        });
    }
}

/// Who challenged whom, and whether rightly.
fn challenge_caption(ctx: &Ctx, c: &ChallengeReveal) -> String {
    format!(
        "{} → {}  {}",
        seat_name(ctx.i18n, ctx.view, c.challenger),
        seat_name(ctx.i18n, ctx.view, c.target),
        if c.right {
            ctx.i18n.t("table-right")
        } else {
            ctx.i18n.t("table-wrong")
        }
    )
}

/// A card at its full size, in world units.
pub const CARD: Vec2 = Vec2::new(92.0, 128.0);

/// Where a card sits on the table; one sprite per place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// In the seat's own hand.
    Mine(CardId),
    /// Face up among another seat's cards (the table saw it there).
    Known(SeatId, CardId),
    /// One of another seat's unseen cards.
    Back(SeatId, u16),
    /// A showdown card put down, face down (the seat's own: face up).
    Staged(SeatId),
    /// The last showdown's cards: 0 the asker's, 1 the target's.
    Reveal(u8),
    /// The last challenge: 0 the taking card, 1 the card named.
    Challenge(u8),
}

/// Whether it is this seat's turn to ask or challenge.
pub(super) fn my_turn(view: &ForestView) -> bool {
    view.phase == ForestPhase::Turn && view.me == Some(view.active) && view.to_act
}

/// What tapping another seat's area does now: asks that player for a
/// showdown; with a taking card picked (a challenge), makes them its
/// target.
pub(super) fn seat_does(view: &ForestView, ui: &TableUi, seat: SeatId) -> Does {
    let has_cards = view
        .seats
        .get(seat.index())
        .is_some_and(|s| s.hand_size > 0);
    if !my_turn(view) || !has_cards {
        Does::Nothing
    } else if ui.selected.is_some() && !view.opening_turn {
        Does::Pick
    } else {
        Does::Move
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::forest::{SeatPublic, ShowdownOutcome, ShowdownReveal};

    /// A table of four in the middle of a round: the viewer holds twelve
    /// cards; seat 3 has fifteen, three of them seen by the table.
    fn view() -> ForestView {
        let ids: Vec<CardId> = deck().ids().collect();
        let seat = |s: u8, hand_size: usize, known: Vec<CardId>| SeatPublic {
            seat: SeatId(s),
            name: format!("Seat {s}").into(),
            hand_size,
            known,
            short_hand: false,
            round_scores: vec![],
            total: 0,
        };
        ForestView {
            me: Some(SeatId(0)),
            phase: ForestPhase::Turn,
            round: 1,
            rounds: 3,
            now_ms: 0,
            round_ends_ms: None,
            time_up: false,
            active: SeatId(0),
            opening_turn: false,
            death_decay_challenge_used: false,
            death_decay_captured: false,
            hand: ids[0..12].to_vec(),
            seats: vec![
                seat(0, 12, vec![]),
                seat(1, 8, vec![]),
                seat(2, 6, vec![ids[20]]),
                seat(3, 15, vec![ids[21], ids[22], ids[23]]),
            ],
            showdown: None,
            last_showdown: Some(ShowdownReveal {
                asker: SeatId(2),
                target: SeatId(3),
                asker_card: ids[20],
                target_card: ids[24],
                outcome: ShowdownOutcome::AskerTakes,
            }),
            last_challenge: None,
            my_deadline_ms: None,
            to_act: true,
            result: None,
            mine: vec![],
            mine_count: 0,
            revealed: vec![],
        }
    }

    /// Issue 19: "the hand fan and the map scale to fit ... nothing is cut
    /// in half on a phone": every card lies whole inside the scene, on a
    /// desktop's table area and on a phone's.
    #[test]
    fn every_card_fits_the_scene_on_a_desktop_and_a_phone() {
        let v = view();
        let i18n = I18n::default();
        for r in [
            Rect::new(-640.0, -300.0, 310.0, 320.0),
            Rect::new(-960.0, -470.0, 640.0, 510.0),
            Rect::new(-195.0, -200.0, 195.0, 320.0),
        ] {
            let (cards, _, _) = layout(&v, &TableUi::default(), &i18n, r);
            for c in &cards {
                let half = CARD * c.at.scale.truncate() / 2.0;
                let at = c.at.translation.truncate();
                // A fanned card may tilt a few units past its box.
                let slack = 12.0;
                assert!(
                    at.x - half.x >= r.min.x - slack && at.x + half.x <= r.max.x + slack,
                    "{:?} sticks out sideways in {r:?}",
                    c.place
                );
                assert!(
                    at.y - half.y >= r.min.y - slack && at.y + half.y <= r.max.y + slack,
                    "{:?} sticks out up or down in {r:?}",
                    c.place
                );
            }
        }
    }

    /// Rules document §8 (a seat knows its own hand and, of the others, the
    /// counts and the public record) and issue 19 ("motion must never
    /// reveal a secret"): another seat's cards are backs except those the
    /// table saw, and every card of the layout is one the view names.
    #[test]
    fn the_layout_shows_no_card_the_view_does_not_name() {
        let v = view();
        let (cards, _, _) = layout(
            &v,
            &TableUi::default(),
            &I18n::default(),
            Rect::new(-640.0, -300.0, 310.0, 320.0),
        );
        let backs = |s: u8| {
            cards
                .iter()
                .filter(|c| matches!(c.place, Place::Back(seat, _) if seat == SeatId(s)))
                .count()
        };
        assert_eq!(backs(1), 8);
        assert_eq!(backs(2), 5);
        assert_eq!(backs(3), 12);
        assert!(
            cards
                .iter()
                .filter(|c| matches!(c.place, Place::Back(..)))
                .all(|c| c.face.is_none())
        );
        let mut named: Vec<CardId> = v.hand.clone();
        named.extend(v.seats.iter().flat_map(|s| s.known.iter().copied()));
        named.extend([CardId(20), CardId(24)]);
        for c in &cards {
            if let Some(face) = c.face {
                assert!(named.contains(&face), "{:?} shows {face:?}", c.place);
            }
        }
        let mut places: Vec<_> = cards.iter().map(|c| format!("{:?}", c.place)).collect();
        places.sort();
        places.dedup();
        assert_eq!(places.len(), cards.len(), "one sprite a place");
    }
}
