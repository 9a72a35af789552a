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

use crate::client::scene::SceneInputs;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{TextBounds, TextLayout};
use foodweb_rules::GameId;
use foodweb_rules::forest::ForestGame;
use foodweb_rules::forest::{CardId, ForestAction, ForestPhase, ForestView, deck};
use foodweb_rules::table::SeatId;

use super::art::ForestArt;
use super::layout::{CARD, Deco, Place, Want, layout, my_turn, place_at, seat_does};
use super::panels::{TableUi, submit};
use crate::client::net::SeatSide;
use crate::client::reach::{Does, Target, Zones};
use crate::client::scene::{
    Dragging, FaceOnly, Flip, Home, Lift, Motion, SceneItem, SceneSystems, finish_motions,
    motion_secs, reset,
};
use crate::client::screens::table::TableScreen;
use crate::client::{Screen, UserSettings};
use foodweb_netcode::client::{ClientModel, Outbox};

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

/// A card's name for the screen's account (what its face shows this seat,
/// or only its place) and what tapping it does now.
fn card_target(view: &ForestView, ui: &TableUi, want: &Want) -> Target {
    let face =
        |c: Option<CardId>| c.map_or_else(|| "back".to_string(), |c| deck().card(c).key.clone());
    let (name, does) = match want.place {
        Place::Mine(c) => {
            let does = if view.phase == ForestPhase::Showdown && view.to_act {
                Does::Move
            } else if my_turn(view)
                && !view.opening_turn
                && view.opponents_with_cards().next().is_some()
                && !view.challengeable(c).is_empty()
            {
                // A taking card for a challenge: one that may take some card.
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

/// The pieces the seat's screen marks as usable with no choice made yet,
/// named as [`marks`](crate::client::games::marks) compares them: `card:N`
/// for a card of the hand, `seat:N` for another seat's area (its cards
/// do what the area does).
#[cfg(test)]
pub(super) fn marked(view: &ForestView) -> std::collections::BTreeSet<String> {
    let ui = TableUi::default();
    let i18n = crate::client::I18n::default();
    let (cards, decos, _) = layout(view, &ui, &i18n, Rect::new(-640.0, -300.0, 640.0, 320.0));
    let mut out = std::collections::BTreeSet::new();
    for want in &cards {
        if card_target(view, &ui, want).does == Does::Nothing {
            continue;
        }
        out.insert(match want.place {
            Place::Mine(c) => format!("card:{}", c.0),
            Place::Known(seat, _) => format!("seat:{}", seat.0),
            other => format!("{other:?}"),
        });
    }
    for deco in &decos {
        if let Deco::Area {
            seat: Some((seat, does)),
            ..
        } = deco
            && *does != Does::Nothing
        {
            out.insert(format!("seat:{}", seat.0));
        }
    }
    out
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
        Deco::Text(words) => {
            commands.spawn((
                SceneItem,
                Decor,
                words.label(font.clone(), lang, false),
                Transform::from_translation(words.at.extend(200.0)),
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

/// Why the scene is built anew, and how fast it moves into place.
struct Rebuild {
    /// A new update from the server, not only a new size, language or pick.
    new_update: bool,
    /// How long a move takes; 0 to lay the table out where it is.
    secs: f32,
}

impl Built {
    /// Whether the scene is built anew: `None` when nothing it was built
    /// from changed.
    fn rebuild(
        &self,
        revision: u64,
        r: Rect,
        lang: foodweb_rules::Lang,
        ui: &TableUi,
        settings: &UserSettings,
    ) -> Option<Rebuild> {
        let new_update = self.revision != revision;
        let moved = self.rect != Some(r) || self.lang != Some(lang);
        if !new_update && !moved && self.selected == ui.selected && self.target == ui.target {
            return None;
        }
        // A table seen for the first time, resized, or relabelled is laid out
        // where it is: nothing flies in when a player joins mid-game.
        let first = self.cards.is_empty() && self.rect.is_none();
        let secs = if first || moved {
            0.0
        } else {
            motion_secs(settings)
        };
        Some(Rebuild { new_update, secs })
    }
}

/// Where the new cards of a layout may come from.
struct Sources {
    /// Where each face was before this layout.
    was: HashMap<CardId, Transform>,
    /// Each seat's card put down for the showdown.
    staged: HashMap<SeatId, Transform>,
    /// Where faces now show up in the middle (a flight starts after the
    /// middle card turns over).
    revealed: HashMap<CardId, Transform>,
    /// The last showdown's asker and target.
    reveal_sides: Option<[SeatId; 2]>,
    /// The deck, that dealt cards fly from.
    deck_at: Transform,
    /// How many cards the hand holds (at least one), to space the deal.
    hand_count: usize,
}

impl Sources {
    /// Reads where the scene's cards are and what the layout turns over.
    fn new(view: &ForestView, cards: &Cards, wants: &[Want], built: &Built, middle: Rect) -> Self {
        let mut was: HashMap<CardId, Transform> = HashMap::new();
        let mut staged: HashMap<SeatId, Transform> = HashMap::new();
        for (_, card, t, _, _) in cards {
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
        let hand_count = wants
            .iter()
            .filter(|w| matches!(w.place, Place::Mine(_)))
            .count()
            .max(1);
        Self {
            was,
            staged,
            revealed,
            reveal_sides: view.last_showdown.as_ref().map(|s| [s.asker, s.target]),
            deck_at: place_at(middle.center(), 300.0, 0.6, 0.0),
            hand_count,
        }
    }
}

/// How a new card arrives: from where, after how long, and whether it
/// turns over on the way.
#[derive(Default)]
struct Arrival {
    from: Option<Transform>,
    delay: f32,
    flip: bool,
}

/// What putting the layout's cards in place reads.
struct Placer<'a> {
    view: &'a ForestView,
    ui: &'a TableUi,
    art: &'a ForestArt,
    font: &'a Handle<Font>,
    lang: foodweb_rules::Lang,
    now: f32,
    /// How long a move takes; 0 to lay the table out where it is.
    secs: f32,
}

impl Placer<'_> {
    /// Puts every wanted card in place, in order: a card already there
    /// moves, a new one is made. Returns the cards by place.
    fn place_all(
        &self,
        commands: &mut Commands,
        current: &HashMap<Place, (Entity, Card, Transform)>,
        wants: &[Want],
        src: &Sources,
    ) -> HashMap<Place, Entity> {
        let mut keep: HashMap<Place, Entity> = HashMap::new();
        for (k, want) in wants.iter().enumerate() {
            let e = match current.get(&want.place) {
                Some(&(e, card, t)) if card.face == want.face => {
                    self.move_card(commands, e, t, want);
                    e
                }
                _ => self.spawn_new(commands, src, k, want),
            };
            keep.insert(want.place, e);
        }
        keep
    }

    /// A card already on the table: its new home, and a move there from
    /// `t`.
    fn move_card(&self, commands: &mut Commands, e: Entity, t: Transform, want: &Want) {
        commands
            .entity(e)
            .insert((Home(want.at), card_target(self.view, self.ui, want)));
        if self.secs > 0.0 && t.translation.truncate() != want.at.translation.truncate() {
            commands.entity(e).insert(Motion {
                from: t,
                start: self.now,
                delay: 0.0,
                secs: self.secs * 0.6,
            });
        }
    }

    /// Where the `k`th wanted card, a new one, comes from.
    fn arrival(&self, src: &Sources, k: usize, want: &Want) -> Arrival {
        let mut a = Arrival::default();
        if self.secs > 0.0 {
            match want.place {
                Place::Reveal(side) => {
                    let seat = src.reveal_sides.map(|s| s[side as usize]);
                    a.from = seat.and_then(|s| src.staged.get(&s).copied());
                    a.flip = want.face.is_some() && seat != self.view.me;
                }
                Place::Challenge(_) => {
                    a.from = want.face.and_then(|c| src.was.get(&c).copied());
                    a.flip = a.from.is_none();
                }
                _ => {
                    if let Some(c) = want.face
                        && let Some(t) = src.revealed.get(&c)
                    {
                        // Captured: it leaves the middle once turned over.
                        a.from = Some(*t);
                        a.delay = self.secs * 0.45;
                    } else if let Some(c) = want.face {
                        a.from = src.was.get(&c).copied();
                    }
                    if a.from.is_none() && matches!(want.place, Place::Mine(_) | Place::Back(..)) {
                        // Dealt: from the deck, one after another.
                        a.from = Some(src.deck_at);
                        a.delay =
                            self.secs * 0.4 * k.min(src.hand_count) as f32 / src.hand_count as f32;
                    }
                }
            }
        }
        a
    }

    /// Makes the `k`th wanted card, a new one, flying in from where it
    /// comes from.
    fn spawn_new(&self, commands: &mut Commands, src: &Sources, k: usize, want: &Want) -> Entity {
        let Arrival { from, delay, flip } = self.arrival(src, k, want);
        let e = spawn_card(commands, self.art, self.font, self.lang, want, !flip);
        commands
            .entity(e)
            .insert(card_target(self.view, self.ui, want));
        make_pickable(commands, e, want);
        if let Some(from) = from {
            let rest = self.secs - delay;
            commands
                .entity(e)
                .insert(Motion::from(from, self.now, delay, rest.max(0.05)));
        }
        if flip {
            commands.entity(e).insert(Flip {
                start: self.now,
                delay: 0.0,
                secs: (self.secs * 0.45).max(0.05),
                face: want.face.map(|c| self.art.frame(c)),
            });
            if self.secs == 0.0 {
                commands.entity(e).remove::<Flip>();
            }
        }
        e
    }
}

/// Lets a new card be tapped: the seat's own hand also dragged, and any
/// face lifted while the pointer is on it.
fn make_pickable(commands: &mut Commands, e: Entity, want: &Want) {
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
}

/// Whatever still moves from the last update goes where it was going.
fn finish_moving(
    commands: &mut Commands,
    cards: &Cards,
    sprites: &mut Query<&mut Sprite>,
    faces: &mut Query<(&mut Visibility, &ChildOf), With<FaceOnly>>,
) {
    let moving = cards
        .iter()
        .filter(|(_, _, _, f, m)| f.is_some() || m.is_some())
        .map(|(e, _, _, f, _)| (e, f.cloned()))
        .collect::<Vec<_>>();
    finish_motions(commands, moving.into_iter(), sprites, faces);
}

/// The scene's cards by place; with `relabel` (another language) none,
/// all despawned to be made anew.
fn current_cards(
    commands: &mut Commands,
    cards: &Cards,
    relabel: bool,
) -> HashMap<Place, (Entity, Card, Transform)> {
    cards
        .iter()
        .map(|(e, c, t, _, _)| (c.place, (e, *c, *t)))
        .filter(|(_, (e, _, _))| {
            if relabel {
                commands.entity(*e).despawn();
            }
            !relabel
        })
        .collect()
}

/// Despawns the cards the layout no longer keeps.
fn despawn_gone(
    commands: &mut Commands,
    current: &HashMap<Place, (Entity, Card, Transform)>,
    keep: &HashMap<Place, Entity>,
) {
    for (place, (e, _, _)) in current {
        if keep.get(place) != Some(e) {
            commands.entity(*e).despawn();
        }
    }
}

/// Makes the labels and areas anew.
fn redecorate(
    commands: &mut Commands,
    decor: &Query<Entity, With<Decor>>,
    font: &Handle<Font>,
    lang: foodweb_rules::Lang,
    decos: &[Deco],
) {
    for e in decor {
        commands.entity(e).despawn();
    }
    for d in decos {
        spawn_deco(commands, font, lang, d);
    }
}

/// Each seat's area, where a card dropped challenges that seat.
fn seat_rects(decos: &[Deco]) -> Vec<(SeatId, Rect)> {
    decos
        .iter()
        .filter_map(|d| match d {
            Deco::Area {
                seat: Some((s, _)),
                rect,
                ..
            } => Some((*s, *rect)),
            _ => None,
        })
        .collect()
}

/// The view's newest layout, moved into place.
#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    mut scene: SceneInputs,
    ui: Res<TableUi>,
    art: Option<Res<ForestArt>>,
    mut built: ResMut<Built>,
    cards: Cards,
    decor: Query<Entity, With<Decor>>,
    mut sprites: Query<&mut Sprite>,
    mut faces: Query<(&mut Visibility, &ChildOf), With<FaceOnly>>,
    mut zones_now: ResMut<Zones>,
) {
    let (Some(view), Some(art), Some(r)) = (scene.model.view_of::<ForestGame>(), art, scene.rect.0)
    else {
        return;
    };
    let Some(Rebuild { new_update, secs }) = built.rebuild(
        scene.model.revision,
        r,
        scene.i18n.lang,
        &ui,
        &scene.settings,
    ) else {
        return;
    };
    let font = scene.fonts.typed();
    if new_update {
        finish_moving(&mut commands, &cards, &mut sprites, &mut faces);
        scene.settling.update_at = Some(scene.time.elapsed_secs());
    }
    let (wants, decos, middle) = layout(view, &ui, &scene.i18n, r);
    let sources = Sources::new(view, &cards, &wants, &built, middle);
    // Cards in another language are made anew.
    let relabel = built.lang.is_some_and(|l| l != scene.i18n.lang);
    let current = current_cards(&mut commands, &cards, relabel);
    let placer = Placer {
        view,
        ui: &ui,
        art: &art,
        font: &font,
        lang: scene.i18n.lang,
        now: scene.time.elapsed_secs(),
        secs,
    };
    let keep = placer.place_all(&mut commands, &current, &wants, &sources);
    despawn_gone(&mut commands, &current, &keep);
    redecorate(&mut commands, &decor, &font, scene.i18n.lang, &decos);
    let zones = Zones(vec![("middle".into(), middle)]);
    if *zones_now != zones {
        *zones_now = zones;
    }
    *built = Built {
        revision: scene.model.revision,
        rect: Some(r),
        lang: Some(scene.i18n.lang),
        selected: ui.selected,
        target: ui.target,
        cards: keep,
        middle: Some(middle),
        seats: seat_rects(&decos),
    };
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
    let (Ok(card), Some(view)) = (cards.get(ev.entity), model.view_of::<ForestGame>()) else {
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
    let (Some(view), Some(c)) = (model.view_of::<ForestGame>(), card.face) else {
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
    if let (Ok(s), Some(view)) = (seats.get(ev.entity), model.view_of::<ForestGame>()) {
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

pub fn plugin(app: &mut App) {
    app.init_resource::<Built>()
        .add_systems(
            Update,
            sync.in_set(SceneSystems::Sync)
                .run_if(in_state(TableScreen::Game(GameId::Forest))),
        )
        .add_systems(OnExit(Screen::Table), (reset::<Built>, reset::<Zones>));
}

#[cfg(test)]
mod tests {
    use foodweb_rules::forest::{ForestAction, ForestGame, ForestSettings};
    use foodweb_rules::table::{Seats, TableConfig};

    use super::{TableUi, marked};
    use crate::client::games::marks::marks_and_now_are_the_judges;

    /// Issue 38: what the table marks (a seat's area to ask, a card of the
    /// hand to challenge with or to lay down) is what the judge accepts.
    /// rules.md §3: "the player whose turn it is either challenges or asks
    /// for a showdown"; "players with no cards ... cannot be asked or
    /// challenged"; §5: "a card from the challenger's hand that eats it";
    /// §4: "both players choose a card in secret".
    #[test]
    fn the_marked_pieces_are_the_judges_legal_moves() {
        let configs = (1..=3).map(|seed| TableConfig::<ForestGame> {
            seed,
            seats: Seats::numbered(4),
            settings: ForestSettings::default(),
        });
        let piece = |_: &_, a: &ForestAction| {
            Some(match *a {
                ForestAction::AskShowdown { target } => format!("seat:{}", target.0),
                ForestAction::Challenge { with, .. } => format!("card:{}", with.0),
                ForestAction::PlayCard { card } => format!("card:{}", card.0),
            })
        };
        let i18n = crate::client::I18n::default();
        let now = |v: &_| super::super::panels::now(v, &TableUi::default(), &i18n);
        let (compared, marking) =
            marks_and_now_are_the_judges(configs, "random", marked, piece, now);
        assert!(
            marking > 50,
            "{marking} of {compared} seat-steps marked a piece"
        );
    }
}
