//! Forest Showdown's table as sprites: the seat's hand as a fan at the
//! bottom, the other seats along the top (the cards the table has seen
//! them hold face up, the rest as backs), and in the middle the showdown
//! under way, the last showdown turned over, and the last challenge.
//!
//! What moves, from the view alone: dealt cards fly in from the deck; the
//! two cards of a showdown turn over together; the captured card flies to
//! the taker (into the hand, or face up among the taker's cards); a hand
//! card is played by tapping it or dragging it to the middle, and dragged
//! onto a player to challenge that player with it.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{TextBounds, TextLayout};
use foodweb_rules::forest::{CardId, ForestAction, ForestPhase, ForestView, deck};
use foodweb_rules::table::SeatId;

use super::art::ForestArt;
use super::panels::{TableUi, submit};
use crate::client::net::SeatSide;
use crate::client::reach::{Does, Target, Zones};
use crate::client::scene::{
    Dragging, FaceOnly, Flip, Home, Lift, Motion, SceneItem, SceneRect, Settling, finish_motions,
    motion_secs,
};
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, UserSettings};
use foodweb_netcode::client::{ClientModel, Outbox};

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

/// A card of the scene and what it shows.
#[derive(Component, Clone, Copy, Debug)]
pub struct Card {
    pub place: Place,
    pub face: Option<CardId>,
}

/// A seat's area along the top: tap it to pick that player.
#[derive(Component, Clone, Copy)]
pub struct SeatArea(pub SeatId);

/// Labels and areas, rebuilt with every layout.
#[derive(Component)]
struct Decor;

/// One card as the layout wants it.
#[derive(Clone, Copy, Debug)]
struct Want {
    place: Place,
    face: Option<CardId>,
    at: Transform,
    /// Tapped, dragged and lifted: the seat's own hand.
    playable: bool,
}

/// A label or area as the layout wants it.
enum Deco {
    Text {
        text: String,
        at: Vec2,
        size: f32,
        colour: Color,
        width: f32,
    },
    Area {
        /// A seat's area, and what tapping it does now.
        seat: Option<(SeatId, Does)>,
        rect: Rect,
        colour: Color,
        border: Option<Color>,
    },
}

/// What the scene was last built from.
#[derive(Resource, Default)]
struct Built {
    revision: u64,
    rect: Option<Rect>,
    lang: Option<foodweb_rules::Lang>,
    selected: Option<CardId>,
    target: Option<SeatId>,
    cards: HashMap<Place, Entity>,
    /// The centre zone a card is dropped on to play it.
    middle: Option<Rect>,
    seats: Vec<(SeatId, Rect)>,
}

const GOLD: Color = Color::srgb(0.925, 0.745, 0.36);
const MUTED: Color = Color::srgb(0.63, 0.67, 0.59);
const TEXT: Color = Color::srgb(0.93, 0.91, 0.85);

fn seat_name(view: &ForestView, seat: SeatId) -> String {
    view.seats
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |s| s.name.clone())
}

fn place_at(pos: Vec2, z: f32, scale: f32, angle: f32) -> Transform {
    Transform::from_translation(pos.extend(z))
        .with_rotation(Quat::from_rotation_z(angle))
        .with_scale(Vec3::splat(scale))
}

/// A seat's name over its card in the middle.
fn name_over(name: String, x: f32, y: f32, gap: f32) -> Deco {
    Deco::Text {
        text: name,
        at: Vec2::new(x, y),
        size: 14.0,
        colour: TEXT,
        width: gap * 2.0 - 8.0,
    }
}

/// Whether it is this seat's turn to ask or challenge.
fn my_turn(view: &ForestView) -> bool {
    view.phase == ForestPhase::Turn && view.me == Some(view.active) && view.to_act
}

/// What tapping another seat's area does now: asks that player for a
/// showdown; with a taking card picked (a challenge), makes them its
/// target.
fn seat_does(view: &ForestView, ui: &TableUi, seat: SeatId) -> Does {
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

/// A card's name for the screen's account (what its face shows this seat,
/// or only its place) and what tapping it does now.
fn card_target(view: &ForestView, ui: &TableUi, want: &Want) -> Target {
    let face =
        |c: Option<CardId>| c.map_or_else(|| "back".to_string(), |c| deck().card(c).key.clone());
    let (name, does) = match want.place {
        Place::Mine(c) => {
            let does = if view.phase == ForestPhase::Showdown && view.to_act {
                Does::Move
            } else if my_turn(view) && !view.opening_turn {
                Does::Pick
            } else {
                Does::Nothing
            };
            (format!("mine:{}:{}", c.0, face(Some(c))), does)
        }
        Place::Known(seat, c) => {
            let does = match ui.selected {
                Some(with) if my_turn(view) && !view.opening_turn => {
                    if view.challengeable(with).contains(&c) {
                        Does::Pick
                    } else {
                        Does::Nothing
                    }
                }
                _ => seat_does(view, ui, seat),
            };
            (format!("known:{}:{}:{}", seat.0, c.0, face(Some(c))), does)
        }
        Place::Back(seat, i) => (format!("back:{}:{i}", seat.0), Does::Nothing),
        Place::Staged(seat) => (
            format!("staged:{}:{}", seat.0, face(want.face)),
            Does::Nothing,
        ),
        Place::Reveal(i) => (format!("reveal:{i}:{}", face(want.face)), Does::Nothing),
        Place::Challenge(i) => (format!("challenge:{i}:{}", face(want.face)), Does::Nothing),
    };
    Target::new(name, does)
}

/// Lays the view out in `r`: every card's place, and the labels.
#[expect(clippy::too_many_lines, reason = "issue 36: to be split")]
fn layout(view: &ForestView, ui: &TableUi, i18n: &I18n, r: Rect) -> (Vec<Want>, Vec<Deco>, Rect) {
    let mut cards = Vec::new();
    let mut decos = Vec::new();
    let narrow = r.width() < 600.0;
    // A big screen (1920x1080) gets bigger cards, not more felt.
    let big = if narrow {
        1.0
    } else {
        (r.height() / 600.0).min(r.width() / 900.0).clamp(1.0, 1.5)
    };
    // The other seats, along the top: one row, or two on a phone.
    let others: Vec<_> = view
        .seats
        .iter()
        .filter(|s| Some(s.seat) != view.me)
        .collect();
    let per_row = if narrow {
        3.min(others.len()).max(1)
    } else {
        others.len().max(1)
    };
    let rows = others.len().div_ceil(per_row).max(1);
    let seat_h = if narrow { 96.0 } else { 128.0 * big };
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
        let active = seat.seat == view.active && view.phase == ForestPhase::Turn;
        let in_showdown = view
            .showdown
            .as_ref()
            .is_some_and(|s| s.asker == seat.seat || s.target == seat.seat);
        decos.push(Deco::Area {
            seat: Some((seat.seat, seat_does(view, ui, seat.seat))),
            rect: area,
            colour: if ui.target == Some(seat.seat) {
                Color::srgb(0.24, 0.33, 0.2)
            } else {
                Color::srgb(0.09, 0.15, 0.11)
            },
            border: (active || in_showdown).then_some(GOLD),
        });
        // A phone's narrow area: the name and the count only.
        let text = if narrow {
            format!("{} · {}", seat.name, seat.hand_size)
        } else {
            let bonus = if seat.short_hand {
                format!(" · {}", i18n.t("table-bonus"))
            } else {
                String::new()
            };
            format!(
                "{}  {}{bonus}",
                seat.name,
                i18n.ta("table-cards", &[("n", seat.hand_size.into())])
            )
        };
        decos.push(Deco::Text {
            text,
            at: Vec2::new(area.center().x, area.max.y - 12.0),
            size: if narrow { 12.0 } else { 15.0 },
            colour: if active { GOLD } else { TEXT },
            width: area.width() - 8.0,
        });
        // Known cards face up, then the unseen ones as backs, in a fan.
        let known: Vec<CardId> = seat.known.iter().copied().take(seat.hand_size).collect();
        let backs = seat.hand_size.saturating_sub(known.len());
        let n = known.len() + backs;
        let scale = if narrow { 0.42 } else { 0.58 * big };
        let w = CARD.x * scale;
        let span = area.width() - 12.0;
        let step = if n > 1 {
            ((span - w) / (n - 1) as f32).min(w * 0.7)
        } else {
            0.0
        };
        let total = w + step * n.saturating_sub(1) as f32;
        let y = area.min.y + CARD.y * scale / 2.0 + 4.0;
        for k in 0..n {
            let x = area.center().x - total / 2.0 + w / 2.0 + step * k as f32;
            let at = place_at(Vec2::new(x, y), 10.0 + k as f32, scale, 0.0);
            let (place, face) = match known.get(k) {
                Some(&c) => (Place::Known(seat.seat, c), Some(c)),
                None => (Place::Back(seat.seat, (k - known.len()) as u16), None),
            };
            cards.push(Want {
                place,
                face,
                at,
                playable: false,
            });
        }
    }
    let top = r.max.y - rows as f32 * seat_h;
    // The hand along the bottom: a fan that overlaps more as it grows; on
    // a phone, two rows of whole cards once it holds more than five.
    let n = view.hand.len();
    let hand_rows = if narrow && n > 5 { 2 } else { 1 };
    let per_row = n.div_ceil(hand_rows).max(1);
    let span = r.width() - 16.0;
    let hand_scale = if narrow {
        ((span / per_row as f32 - 4.0) / CARD.x).clamp(0.5, 0.8)
    } else {
        big
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
        let lift = if ui.selected == Some(c) {
            24.0
        } else {
            -8.0 * at_fan * at_fan
        };
        let x = r.center().x - total / 2.0 + w / 2.0 + step * k_in as f32;
        let y = hand_y + (hand_rows - 1 - row) as f32 * row_h;
        let angle = -at_fan * if step < w { 0.12 } else { 0.05 };
        cards.push(Want {
            place: Place::Mine(c),
            face: Some(c),
            at: place_at(Vec2::new(x, y + lift), 100.0 + k as f32, hand_scale, angle),
            playable: true,
        });
    }
    // The middle: between the seats and the hand.
    let bottom = hand_y + (hand_rows - 1) as f32 * row_h + CARD.y * hand_scale / 2.0 + 8.0;
    let middle = Rect::new(r.min.x, bottom, r.max.x, top);
    // With a challenge to show, the showdown sits left of centre; on a
    // phone, the challenge takes a strip at the top of the middle.
    let challenge_shown = view.last_challenge.is_some() && middle.width() > 520.0;
    let strip = if view.last_challenge.is_some() && !challenge_shown {
        96.0
    } else {
        0.0
    };
    let mid_scale =
        ((middle.height() - strip - 44.0) / CARD.y).clamp(0.45, if narrow { 0.8 } else { big });
    let gap = CARD.x * mid_scale * 0.75;
    let centre = Vec2::new(
        if challenge_shown {
            middle.min.x + middle.width() * 0.36
        } else {
            middle.center().x
        },
        (middle.min.y + middle.max.y - strip) / 2.0 - 8.0,
    );
    let left = centre - Vec2::new(gap, 0.0);
    let right = centre + Vec2::new(gap, 0.0);
    let caption_y = centre.y + CARD.y * mid_scale / 2.0 + 12.0;
    if let Some(sd) = &view.showdown {
        for (seat, ready, at) in [
            (sd.asker, sd.asker_ready, left),
            (sd.target, sd.target_ready, right),
        ] {
            decos.push(name_over(seat_name(view, seat), at.x, caption_y, gap));
            if ready {
                let face = if Some(seat) == view.me {
                    sd.my_card
                } else {
                    None
                };
                cards.push(Want {
                    place: Place::Staged(seat),
                    face,
                    at: place_at(at, 60.0, mid_scale, 0.0),
                    playable: false,
                });
            }
        }
        decos.push(Deco::Text {
            text: "VS".into(),
            at: centre,
            size: 26.0,
            colour: GOLD,
            width: 40.0,
        });
    } else if let Some(s) = &view.last_showdown {
        decos.push(Deco::Text {
            text: i18n.t("table-last-showdown"),
            at: Vec2::new(centre.x, caption_y + 18.0),
            size: 13.0,
            colour: MUTED,
            width: gap * 4.0,
        });
        for (i, (seat, card, at)) in [
            (s.asker, s.asker_card, left),
            (s.target, s.target_card, right),
        ]
        .into_iter()
        .enumerate()
        {
            decos.push(name_over(seat_name(view, seat), at.x, caption_y, gap));
            cards.push(Want {
                place: Place::Reveal(i as u8),
                face: Some(card),
                at: place_at(at, 40.0, mid_scale, 0.0),
                playable: false,
            });
        }
        let takes = |who: SeatId, card: CardId| {
            let card = i18n.pick(&deck().card(card).name).to_string();
            i18n.ta(
                "table-takes",
                &[("name", seat_name(view, who).into()), ("card", card.into())],
            )
        };
        let outcome = match s.outcome {
            foodweb_rules::forest::ShowdownOutcome::AskerTakes => takes(s.asker, s.target_card),
            foodweb_rules::forest::ShowdownOutcome::TargetTakes => takes(s.target, s.asker_card),
            foodweb_rules::forest::ShowdownOutcome::StandOff => i18n.t("table-stand-off"),
        };
        decos.push(Deco::Text {
            text: outcome,
            at: Vec2::new(centre.x, centre.y - CARD.y * mid_scale / 2.0 - 12.0),
            size: 14.0,
            colour: GOLD,
            width: (middle.width() * if challenge_shown { 0.6 } else { 0.95 }).max(120.0),
        });
    }
    if let Some(c) = &view.last_challenge {
        let (cx, scale) = if challenge_shown {
            (middle.min.x + middle.width() * 0.8, mid_scale * 0.8)
        } else {
            // A phone: small, centred under the seats.
            (middle.center().x, 0.45)
        };
        let dx = CARD.x * scale * 0.62;
        let cy = if challenge_shown {
            centre.y
        } else {
            middle.max.y - CARD.y * scale / 2.0 - 24.0
        };
        let caption = format!(
            "{} → {}  {}",
            seat_name(view, c.challenger),
            seat_name(view, c.target),
            if c.right {
                i18n.t("table-right")
            } else {
                i18n.t("table-wrong")
            }
        );
        decos.push(Deco::Text {
            text: caption,
            at: Vec2::new(cx, cy + CARD.y * scale / 2.0 + 12.0),
            size: if challenge_shown { 13.0 } else { 10.0 },
            colour: if c.right {
                Color::srgb(0.51, 0.78, 0.47)
            } else {
                Color::srgb(0.9, 0.47, 0.39)
            },
            width: if challenge_shown {
                middle.width() * 0.36
            } else {
                middle.width() - 16.0
            },
        });
        for (i, (card, x)) in [(c.with, cx - dx), (c.named, cx + dx)]
            .into_iter()
            .enumerate()
        {
            cards.push(Want {
                place: Place::Challenge(i as u8),
                face: Some(card),
                at: place_at(Vec2::new(x, cy), 30.0, scale, 0.0),
                playable: false,
            });
        }
    }
    (cards, decos, middle)
}

/// Spawns one card: the face's frame, art, name and energy, or a back.
fn spawn_card(
    commands: &mut Commands,
    art: &ForestArt,
    font: &Handle<Font>,
    lang: foodweb_rules::Lang,
    want: &Want,
    face_up: bool,
) -> Entity {
    let image = match want.face {
        Some(c) if face_up => art.frame(c),
        _ => art.back.clone(),
    };
    let mut sprite = Sprite::from_image(image);
    sprite.custom_size = Some(CARD);
    let root = commands
        .spawn((
            SceneItem,
            Card {
                place: want.place,
                face: want.face,
            },
            sprite,
            want.at,
            Home(want.at),
        ))
        .id();
    if want.playable {
        commands.entity(root).insert(Lift {
            on: false,
            rise: 18.0,
            zoom: 1.0,
        });
    } else if want.face.is_some() && want.at.scale.x < 0.9 {
        // Small cards grow to be read while the pointer is on them.
        let zoom = 1.0 / want.at.scale.x;
        commands.entity(root).insert(Lift {
            on: false,
            rise: 0.0,
            zoom,
        });
    }
    let Some(card) = want.face else {
        return root;
    };
    let species = deck().card(card);
    let shown = if face_up {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    let mut art_sprite = Sprite::from_image(art.art(card));
    art_sprite.custom_size = Some(Vec2::splat(78.0));
    let name = species.name.get(lang).to_string();
    let name_size = if lang == foodweb_rules::Lang::Zh {
        14.0
    } else if name.len() > 12 {
        10.5
    } else {
        12.0
    };
    commands.entity(root).with_children(|c| {
        c.spawn((
            FaceOnly,
            art_sprite,
            Transform::from_xyz(0.0, 12.0, 0.1),
            shown,
            Pickable::IGNORE,
        ));
        c.spawn((
            FaceOnly,
            Text2d::new(name),
            TextFont::from(font.clone()).with_font_size(name_size),
            TextColor(Color::WHITE),
            TextLayout::new(Justify::Center, crate::client::scene::line_break(lang)),
            TextBounds::new(CARD.x - 10.0, 28.0),
            Anchor::CENTER,
            Transform::from_xyz(0.0, -CARD.y / 2.0 + 18.0, 0.2),
            shown,
            Pickable::IGNORE,
        ));
        c.spawn((
            FaceOnly,
            Text2d::new(species.energy.to_string()),
            TextFont::from(font.clone()).with_font_size(15.0),
            TextColor(Color::BLACK),
            Transform::from_xyz(CARD.x / 2.0 - 15.0, CARD.y / 2.0 - 15.0, 0.2),
            shown,
            Pickable::IGNORE,
        ));
    });
    root
}

fn spawn_deco(
    commands: &mut Commands,
    font: &Handle<Font>,
    lang: foodweb_rules::Lang,
    deco: &Deco,
) {
    match deco {
        Deco::Text {
            text,
            at,
            size,
            colour,
            width,
        } => {
            commands.spawn((
                SceneItem,
                Decor,
                Text2d::new(text.clone()),
                TextFont::from(font.clone()).with_font_size(*size),
                TextColor(*colour),
                TextLayout::new(Justify::Center, crate::client::scene::line_break(lang)),
                TextBounds::new_horizontal(*width),
                Transform::from_translation(at.extend(200.0)),
                Pickable::IGNORE,
            ));
        }
        Deco::Area {
            seat,
            rect,
            colour,
            border,
        } => {
            let mut e = commands.spawn((
                SceneItem,
                Decor,
                Sprite::from_color(*colour, rect.size()),
                Transform::from_translation(rect.center().extend(1.0)),
            ));
            if let Some((seat, does)) = seat {
                e.insert((
                    SeatArea(*seat),
                    Pickable::default(),
                    Target::new(format!("seat:{}", seat.0), *does),
                ))
                .observe(pick_seat);
            }
            if let Some(b) = border {
                e.with_children(|c| {
                    c.spawn((
                        Sprite::from_color(*b, rect.size() + Vec2::splat(4.0)),
                        Transform::from_xyz(0.0, 0.0, -0.5),
                        Pickable::IGNORE,
                    ));
                });
            }
        }
    }
}

/// The scene's cards: where each is and whether it still moves.
type Cards<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Card,
        &'static Transform,
        Option<&'static Flip>,
        Option<&'static Motion>,
    ),
>;

/// The view's newest layout, moved into place.
#[allow(clippy::too_many_arguments)]
#[expect(clippy::too_many_lines, reason = "issue 36: to be split")]
fn sync(
    mut commands: Commands,
    model: Res<ClientModel>,
    rect: Res<SceneRect>,
    ui: Res<TableUi>,
    i18n: Res<I18n>,
    settings: Res<UserSettings>,
    art: Option<Res<ForestArt>>,
    fonts: crate::client::scene::SceneFonts,
    time: Res<Time<Real>>,
    mut built: ResMut<Built>,
    mut settling: ResMut<Settling>,
    cards: Cards,
    decor: Query<Entity, With<Decor>>,
    mut sprites: Query<&mut Sprite>,
    mut faces: Query<(&mut Visibility, &ChildOf), With<FaceOnly>>,
    mut zones_now: ResMut<Zones>,
) {
    let (Some(view), Some(art), Some(r)) = (model.forest_view(), art, rect.0) else {
        return;
    };
    let new_update = built.revision != model.revision;
    let moved = built.rect != Some(r) || built.lang != Some(i18n.lang);
    if !new_update && !moved && built.selected == ui.selected && built.target == ui.target {
        return;
    }
    let font = fonts.typed();
    // A table seen for the first time, resized, or relabelled is laid out
    // where it is: nothing flies in when a player joins mid-game.
    let first = built.cards.is_empty() && built.rect.is_none();
    let secs = if first || moved {
        0.0
    } else {
        motion_secs(&settings)
    };
    if new_update {
        // Whatever still moves from the last update goes where it was going.
        let moving = cards
            .iter()
            .filter(|(_, _, _, f, m)| f.is_some() || m.is_some())
            .map(|(e, _, _, f, _)| (e, f.cloned()))
            .collect::<Vec<_>>();
        finish_motions(&mut commands, moving.into_iter(), &mut sprites, &mut faces);
        settling.update_at = Some(time.elapsed_secs());
    }
    let (wants, decos, middle) = layout(view, &ui, &i18n, r);
    let now = time.elapsed_secs();
    // Where each face was before this layout, and where it now shows up in
    // the middle (a flight starts after the middle card turns over).
    let mut was: HashMap<CardId, Transform> = HashMap::new();
    let mut staged: HashMap<SeatId, Transform> = HashMap::new();
    for (_, card, t, _, _) in &cards {
        if let Some(c) = card.face {
            was.entry(c).or_insert(*t);
        }
        if let Place::Staged(s) = card.place {
            staged.insert(s, *t);
        }
    }
    let revealed: HashMap<CardId, Transform> = wants
        .iter()
        .filter(|w| matches!(w.place, Place::Reveal(_) | Place::Challenge(_)))
        .filter(|w| !built.cards.contains_key(&w.place))
        .filter_map(|w| Some((w.face?, w.at)))
        .collect();
    let reveal_sides = view.last_showdown.as_ref().map(|s| [s.asker, s.target]);
    let deck_at = place_at(middle.center(), 300.0, 0.6, 0.0);
    let hand_count = wants
        .iter()
        .filter(|w| matches!(w.place, Place::Mine(_)))
        .count()
        .max(1);
    let mut keep: HashMap<Place, Entity> = HashMap::new();
    // Cards in another language are made anew.
    let relabel = built.lang.is_some_and(|l| l != i18n.lang);
    let current: HashMap<Place, (Entity, Card, Transform)> = cards
        .iter()
        .map(|(e, c, t, _, _)| (c.place, (e, *c, *t)))
        .filter(|(_, (e, _, _))| {
            if relabel {
                commands.entity(*e).despawn();
            }
            !relabel
        })
        .collect();
    for (k, want) in wants.iter().enumerate() {
        if let Some((e, card, t)) = current.get(&want.place)
            && card.face == want.face
        {
            keep.insert(want.place, *e);
            commands
                .entity(*e)
                .insert((Home(want.at), card_target(view, &ui, want)));
            if secs > 0.0 && t.translation.truncate() != want.at.translation.truncate() {
                commands.entity(*e).insert(Motion {
                    from: *t,
                    start: now,
                    delay: 0.0,
                    secs: secs * 0.6,
                });
            }
            continue;
        }
        // A new card: where does it come from?
        let mut from = None;
        let mut delay = 0.0;
        let mut flip = false;
        if secs > 0.0 {
            match want.place {
                Place::Reveal(side) => {
                    let seat = reveal_sides.map(|s| s[side as usize]);
                    from = seat.and_then(|s| staged.get(&s).copied());
                    flip = want.face.is_some() && seat != view.me;
                }
                Place::Challenge(_) => {
                    from = want.face.and_then(|c| was.get(&c).copied());
                    flip = from.is_none();
                }
                _ => {
                    if let Some(c) = want.face
                        && let Some(t) = revealed.get(&c)
                    {
                        // Captured: it leaves the middle once turned over.
                        from = Some(*t);
                        delay = secs * 0.45;
                    } else if let Some(c) = want.face {
                        from = was.get(&c).copied();
                    }
                    if from.is_none() && matches!(want.place, Place::Mine(_) | Place::Back(..)) {
                        // Dealt: from the deck, one after another.
                        from = Some(deck_at);
                        delay = secs * 0.4 * k.min(hand_count) as f32 / hand_count as f32;
                    }
                }
            }
        }
        let e = spawn_card(&mut commands, &art, &font, i18n.lang, want, !flip);
        commands.entity(e).insert(card_target(view, &ui, want));
        if want.playable {
            commands
                .entity(e)
                .insert(Pickable::default())
                .observe(crate::client::scene::lift_on)
                .observe(crate::client::scene::lift_off)
                .observe(tap_card)
                .observe(drag_start)
                .observe(drag_move)
                .observe(drag_end);
        } else if want.face.is_some() {
            commands
                .entity(e)
                .insert(Pickable::default())
                .observe(crate::client::scene::lift_on)
                .observe(crate::client::scene::lift_off)
                .observe(tap_card);
        }
        if let Some(from) = from {
            let rest = secs - delay;
            commands
                .entity(e)
                .insert(Motion::from(from, now, delay, rest.max(0.05)));
        }
        if flip {
            commands.entity(e).insert(Flip {
                start: now,
                delay: 0.0,
                secs: (secs * 0.45).max(0.05),
                face: want.face.map(|c| art.frame(c)),
            });
            if secs == 0.0 {
                commands.entity(e).remove::<Flip>();
            }
        }
        keep.insert(want.place, e);
    }
    for (place, (e, _, _)) in &current {
        if keep.get(place) != Some(e) {
            commands.entity(*e).despawn();
        }
    }
    for e in &decor {
        commands.entity(e).despawn();
    }
    for d in &decos {
        spawn_deco(&mut commands, &font, i18n.lang, d);
    }
    built.revision = model.revision;
    built.rect = Some(r);
    built.lang = Some(i18n.lang);
    built.selected = ui.selected;
    built.target = ui.target;
    built.cards = keep;
    built.middle = Some(middle);
    let zones = Zones(vec![("middle".into(), middle)]);
    if *zones_now != zones {
        *zones_now = zones;
    }
    built.seats = decos
        .iter()
        .filter_map(|d| match d {
            Deco::Area {
                seat: Some((s, _)),
                rect,
                ..
            } => Some((*s, *rect)),
            _ => None,
        })
        .collect();
}

/// What the seat's own card does when tapped: in a showdown it is the
/// card played; otherwise it is picked (or put back) as the taking card.
fn tap_card(
    ev: On<crate::client::scene::Tap>,
    cards: Query<&Card>,
    model: Res<ClientModel>,
    mut ui: ResMut<TableUi>,
    mut outbox: ResMut<Outbox>,
) {
    let (Ok(card), Some(view)) = (cards.get(ev.entity), model.forest_view()) else {
        return;
    };
    let Some(c) = card.face else { return };
    match card.place {
        Place::Mine(_) if view.phase == ForestPhase::Showdown && view.to_act => {
            submit(&mut outbox, &mut ui, ForestAction::PlayCard { card: c });
        }
        Place::Mine(_) => {
            ui.selected = if ui.selected == Some(c) {
                None
            } else {
                Some(c)
            };
        }
        // A card the table saw in another hand: with a taking card picked,
        // the card named, and its holder the target, of the challenge;
        // otherwise a tap on that seat's area.
        Place::Known(seat, _) if ui.selected.is_some() && my_turn(view) && !view.opening_turn => {
            ui.named = Some(c);
            ui.target = Some(seat);
        }
        Place::Known(seat, _) => tap_seat(view, &mut ui, &mut outbox, seat),
        _ => {}
    }
}

fn drag_start(
    ev: On<Pointer<DragStart>>,
    mut commands: Commands,
    mut panels: crate::client::scene::Panels,
) {
    if panels.at(ev.pointer_location.position) {
        return;
    }
    commands
        .entity(ev.entity)
        .insert(Dragging)
        .remove::<Motion>();
}

fn drag_move(ev: On<Pointer<Drag>>, mut pieces: Query<&mut Transform, With<Dragging>>) {
    let p = ev.event();
    if let Ok(mut t) = pieces.get_mut(p.entity) {
        t.translation.x += p.event.delta.x;
        t.translation.y -= p.event.delta.y;
        t.translation.z = 500.0;
    }
}

/// A card let go over the middle is played (in a showdown); over a player,
/// it is the taking card of a challenge on that player. Anywhere else it
/// goes back to the hand.
#[allow(clippy::too_many_arguments)]
fn drag_end(
    ev: On<Pointer<DragEnd>>,
    mut commands: Commands,
    pieces: Query<(&Card, &Transform)>,
    built: Res<Built>,
    model: Res<ClientModel>,
    mut ui: ResMut<TableUi>,
    mut outbox: ResMut<Outbox>,
    time: Res<Time<Real>>,
    settings: Res<UserSettings>,
) {
    let Ok((card, t)) = pieces.get(ev.entity) else {
        return;
    };
    commands
        .entity(ev.entity)
        .remove::<Dragging>()
        .insert(Motion {
            from: *t,
            start: time.elapsed_secs(),
            delay: 0.0,
            secs: motion_secs(&settings).max(0.05),
        });
    let (Some(view), Some(c)) = (model.forest_view(), card.face) else {
        return;
    };
    let at = t.translation.truncate();
    if view.phase == ForestPhase::Showdown
        && view.to_act
        && built.middle.is_some_and(|m| m.contains(at))
    {
        submit(&mut outbox, &mut ui, ForestAction::PlayCard { card: c });
        return;
    }
    if let Some((seat, _)) = built.seats.iter().find(|(_, r)| r.contains(at)) {
        ui.target = Some(*seat);
        ui.selected = Some(c);
    }
}

/// A tap on another seat's area: on this seat's turn it asks that player
/// for a showdown, or, with a taking card picked, makes them the target
/// of the challenge.
fn pick_seat(
    ev: On<crate::client::scene::Tap>,
    seats: Query<&SeatArea>,
    model: Res<ClientModel>,
    mut ui: ResMut<TableUi>,
    mut outbox: ResMut<Outbox>,
) {
    if let (Ok(s), Some(view)) = (seats.get(ev.entity), model.forest_view()) {
        tap_seat(view, &mut ui, &mut outbox, s.0);
    }
}

/// What a tap on `seat`'s area (or a card in it) does: see [`seat_does`].
fn tap_seat(view: &ForestView, ui: &mut TableUi, outbox: &mut Outbox, seat: SeatId) {
    match seat_does(view, ui, seat) {
        Does::Move => submit(outbox, ui, ForestAction::AskShowdown { target: seat }),
        Does::Pick => ui.target = Some(seat),
        Does::Nothing => {}
    }
}

/// Leaving the table forgets what was built, so the next is laid out anew.
fn forget(mut commands: Commands) {
    commands.insert_resource(Built::default());
    commands.insert_resource(Zones::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Built>()
        .add_systems(
            Update,
            sync.run_if(in_state(TableScreen::Forest))
                .before(crate::client::scene::animate),
        )
        .add_systems(OnExit(Screen::Table), forget);
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
            name: format!("Seat {s}"),
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
