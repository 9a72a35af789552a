//! Gene Survival's map as sprites: the two wings in cross-section, floor by
//! floor, with their rooms, stairs, the bridge (廊桥) and the helicopter
//! between the roofs, each an illustration from `art/table/gene-*.svg`;
//! tokens, item chips and gas are sprites on it. Drawn from the map data
//! and whatever the seat's view lets it mark ([`Marks`], set each frame by
//! the Gene table screen): its own token, where it can go and at what
//! cost, gassed floors, and the rooms a settlement names.
//!
//! What moves: the seat's own token walks its path room by room (over the
//! stairs and the bridge) when its room changes; gas rolls over a floor
//! that has just been gassed; the rooms a settlement line names pulse.
//! Another seat's token shows only on the host seat, which sees everyone.
//! A phone pans the map sideways by dragging it: it is never drawn
//! narrower than its room names need.

use std::collections::{BTreeMap, BTreeSet};

use crate::client::scene::SceneInputs;
use crate::client::scene::{SceneSystems, reset};
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{LineBreak, TextBounds, TextLayout};
use bevy_asset_loader::prelude::*;
use bevy_egui::egui::Color32;
use foodweb_rules::GameId;
use foodweb_rules::Lang;
use foodweb_rules::gene::{FloorId, ItemKind, RoomFunction, RoomId, items, map};

use super::inspect;
use crate::client::reach::{Does, Target};
use crate::client::scene::{Home, Motion, SceneItem, SceneRect, Walk, motion_secs};
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen};

/// The narrowest the map is laid out, in world units (logical pixels).
pub const MIN_WIDTH: f32 = 660.0;

/// On a screen narrower than [`MIN_WIDTH`] (a phone): the whole map fitted
/// to the width (`false`, where every room can be seen and tapped), or a
/// closer view at [`MIN_WIDTH`] that a drag moves along.
#[derive(Resource, Default, Clone, Copy, PartialEq)]
pub struct MapClose(pub bool);

/// Gene Survival's art: loaded when a Gene table is chosen.
#[derive(AssetCollection, Resource)]
pub struct GeneArt {
    #[asset(path = "table/gene-room.png")]
    pub room: Handle<Image>,
    #[asset(path = "table/gene-stairs.png")]
    pub stairs: Handle<Image>,
    #[asset(path = "table/gene-surgery.png")]
    pub surgery: Handle<Image>,
    #[asset(path = "table/gene-morgue.png")]
    pub morgue: Handle<Image>,
    #[asset(path = "table/gene-roof.png")]
    pub roof: Handle<Image>,
    #[asset(path = "table/gene-bridge.png")]
    pub bridge: Handle<Image>,
    #[asset(path = "table/gene-helicopter.png")]
    pub helicopter: Handle<Image>,
    #[asset(path = "table/gene-token.png")]
    pub token: Handle<Image>,
    #[asset(path = "table/gene-gas.png")]
    pub gas: Handle<Image>,
    #[asset(path = "table/gene-chip.png")]
    pub chip: Handle<Image>,
    #[asset(path = "table/gene-card.png")]
    pub card: Handle<Image>,
}

/// What to mark on the map this frame (the Gene table screen sets it).
#[derive(Resource, Default, Clone, PartialEq, Debug)]
pub struct Marks {
    /// The viewer's room and whether it is a shadow.
    pub me: Option<(RoomId, bool)>,
    /// The viewer's seat number, shown on its token.
    pub my_number: Option<usize>,
    /// Rooms the viewer may click, with the steps each costs.
    pub reach: BTreeMap<RoomId, u32>,
    /// Clickable without a cost (choosing a spawn or a rocket's target).
    pub pickable: Vec<RoomId>,
    pub selected: Option<RoomId>,
    pub gassed: Vec<FloorId>,
    /// Floors that can be voted for (drawn with a ballot).
    pub votable: Vec<FloorId>,
    pub my_vote: Option<FloorId>,
    /// A settlement line being played: rooms and floors to flash.
    pub flash_rooms: Vec<RoomId>,
    pub flash_floors: Vec<FloorId>,
    pub flash_colour: Option<Color32>,
    /// Other tokens to draw (the host seat sees everyone): room, number, shadow.
    pub others: Vec<(RoomId, usize, bool)>,
    /// The seat's item cards, under the map, and whether a click leaves one.
    pub hand: Vec<ItemKind>,
    pub hand_clickable: bool,
    /// At a lesson's table, while a step of the learner's shows: what it
    /// points at (`foodweb_rules::lesson::matches` patterns). Only the
    /// rooms it names are framed (a room marks itself, `OwnMark`), and
    /// when it names a room the others are dimmed: the one room to tap.
    pub lesson: Option<Vec<String>>,
}

impl Marks {
    /// Whether the lesson's step (if any) points at the piece so named.
    fn pointed(&self, name: &str) -> bool {
        self.lesson
            .as_ref()
            .is_none_or(|p| p.iter().any(|p| foodweb_rules::lesson::matches(p, name)))
    }

    /// Whether the lesson's step points at a room.
    fn points_at_a_room(&self) -> bool {
        self.lesson
            .as_ref()
            .is_some_and(|p| p.iter().any(|p| p.starts_with("room:")))
    }
}

/// What the player clicked on the map, for the table screen to act on.
#[derive(Resource, Default)]
pub struct MapClicks {
    pub room: Option<RoomId>,
    pub floor: Option<FloorId>,
    /// A card of the hand, to leave it in the room.
    pub card: Option<ItemKind>,
}

pub fn item_colour(kind: ItemKind) -> Color32 {
    match kind {
        ItemKind::Water => Color32::from_rgb(80, 150, 230),
        ItemKind::Food => Color32::from_rgb(210, 150, 60),
        ItemKind::Gold => Color32::from_rgb(240, 200, 60),
        ItemKind::Medicine => Color32::from_rgb(230, 80, 90),
        ItemKind::Alcohol => Color32::from_rgb(160, 90, 200),
        ItemKind::Adrenaline => Color32::from_rgb(250, 120, 40),
        ItemKind::Rocket => Color32::from_rgb(90, 110, 80),
    }
}

/// A card's short mark: one character in Chinese, a letter or two in English.
pub fn item_glyph(kind: ItemKind, i18n: &I18n) -> String {
    i18n.t(match kind {
        ItemKind::Water => "gene-glyph-water",
        ItemKind::Food => "gene-glyph-food",
        ItemKind::Gold => "gene-glyph-gold",
        ItemKind::Medicine => "gene-glyph-medicine",
        ItemKind::Alcohol => "gene-glyph-alcohol",
        ItemKind::Adrenaline => "gene-glyph-adrenaline",
        ItemKind::Rocket => "gene-glyph-rocket",
    })
}

pub fn floor_label(f: FloorId, lang: Lang) -> String {
    map().floor_name(f).get(lang).to_string()
}

use crate::client::scene::colour;

/// Where each room and floor sits in a map `w` by `h`, y down from the
/// map's top-left corner.
pub struct Layout {
    pub rooms: Vec<Rect>,
    pub floors: BTreeMap<FloorId, Rect>,
    pub ground: f32,
}

pub fn layout(w: f32, h: f32) -> Layout {
    let m = map();
    let buildings = m.buildings.len().max(1) as f32;
    let top_floor = m.rooms.iter().map(|r| r.floor.floor).max().unwrap_or(1) as f32;
    let cols = m.rooms.iter().map(|r| r.x).max().unwrap_or(0) as f32 + 1.0;
    let ground = h * 0.06;
    let sky = h * 0.12;
    // Room beside each wing for the floor names (which are the ballot).
    let margin = 86.0_f32.min(w * 0.1);
    let (left0, width) = (margin, w - 2.0 * margin);
    let gap = width * 0.12;
    let bw = (width - gap * (buildings - 1.0)) / buildings;
    let fh = (h - ground - sky) / top_floor;
    let cw = bw / cols;
    let mut rooms = Vec::with_capacity(m.rooms.len());
    let mut floors = BTreeMap::new();
    for r in &m.rooms {
        let b = r.floor.building as f32;
        // The first wing has its stairs on the left, the second on the
        // right: the bridge ends face each other across the gap.
        let col = if r.floor.building % 2 == 1 {
            cols - 1.0 - r.x as f32
        } else {
            r.x as f32
        };
        let left = left0 + b * (bw + gap);
        let bottom = h - ground - (r.floor.floor as f32 - 1.0) * fh;
        let rect = Rect::new(
            left + col * cw,
            bottom - fh,
            left + (col + 1.0) * cw,
            bottom,
        );
        rooms.push(Rect::from_center_size(
            rect.center(),
            rect.size() - Vec2::new(6.0, 8.0),
        ));
        // A floor spans its rooms (a roof is only its helipad).
        floors
            .entry(r.floor)
            .and_modify(|band: &mut Rect| *band = band.union(rect))
            .or_insert(rect);
    }
    Layout {
        rooms,
        floors,
        ground,
    }
}

/// The map's root: every map piece is its child, so panning moves one
/// transform.
#[derive(Component)]
struct MapRoot;

/// A piece of the map, rebuilt with the marks.
#[derive(Component)]
struct MapPiece;

/// A room: click it to go, spawn or aim there.
#[derive(Component, Clone, Copy)]
struct RoomSpot(RoomId);

/// A floor's ballot.
#[derive(Component, Clone, Copy)]
struct Ballot(FloorId);

/// A token, by seat number (kept across rebuilds so it can walk).
#[derive(Component, Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Token(usize);

/// A sprite whose alpha pulses (what a settlement line names, reach).
#[derive(Component, Clone, Copy)]
struct Pulse {
    base: f32,
    amp: f32,
}

/// What the pointer is on: a room or a card of the hand.
#[derive(Resource, Default, Clone, Copy, PartialEq, Debug)]
pub enum Hover {
    #[default]
    Nothing,
    Room(RoomId),
    Card(ItemKind),
}

/// A card of the seat's hand, by its place in the hand.
#[derive(Component, Clone, Copy)]
struct HandCard(ItemKind);

/// The height of the strip under the map that holds the hand.
const HAND_STRIP: f32 = 92.0;

/// How far the map is panned (a phone), and what it was built from.
#[derive(Resource, Default)]
struct Built {
    marks: Option<Marks>,
    rect: Option<Rect>,
    lang: Option<Lang>,
    /// The map's size and the pan's range.
    size: Vec2,
    pan: f32,
    /// Where each token stood, by seat number.
    tokens: BTreeMap<usize, RoomId>,
}

const INK: Color = Color::srgb(0.16, 0.13, 0.12);
const GOLD: Color = Color::srgb(0.925, 0.745, 0.36);

/// Map coordinates (y down from the map's top-left) in the root's space.
fn at(size: Vec2, p: Vec2) -> Vec2 {
    Vec2::new(p.x - size.x / 2.0, size.y / 2.0 - p.y)
}

fn text(
    font: &Handle<Font>,
    lang: Lang,
    s: impl Into<String>,
    size: f32,
    colour: Color,
) -> impl Bundle {
    (
        Text2d::new(s.into()),
        TextFont::from(font.clone()).with_font_size(size),
        TextColor(colour),
        TextLayout::new(
            Justify::Left,
            if lang == Lang::Zh {
                LineBreak::AnyCharacter
            } else {
                LineBreak::WordOrCharacter
            },
        ),
        Pickable::IGNORE,
    )
}

fn token_colour(shadow: bool, mine: bool) -> Color {
    match (shadow, mine) {
        (true, _) => Color::srgba(0.42, 0.33, 0.6, 0.85),
        (false, true) => Color::srgb(0.9, 0.27, 0.24),
        (false, false) => Color::srgb(0.27, 0.43, 0.78),
    }
}

/// Where a token stands in its room (`slot` counts tokens already there).
fn token_spot(size: Vec2, room: Rect, slot: usize) -> Vec2 {
    at(
        size,
        Vec2::new(room.max.x - 18.0 - 26.0 * slot as f32, room.min.y + 34.0),
    )
}

/// What every part of the map is drawn from.
struct Draw<'a> {
    art: &'a GeneArt,
    font: &'a Handle<Font>,
    i18n: &'a I18n,
    lang: Lang,
    marks: &'a Marks,
    /// The map's size.
    size: Vec2,
    lay: &'a Layout,
    /// The size of room and floor names.
    name_size: f32,
}

impl<'a> Draw<'a> {
    /// What to draw the map `size` (laid out as `lay`) from.
    fn new(
        (art, font, i18n): (&'a GeneArt, &'a Handle<Font>, &'a I18n),
        marks: &'a Marks,
        (size, lay): (Vec2, &'a Layout),
    ) -> Self {
        let lang = i18n.lang;
        Self {
            art,
            font,
            i18n,
            lang,
            marks,
            size,
            lay,
            name_size: if lang == Lang::Zh { 13.0 } else { 12.0 },
        }
    }
}

/// The map pieces spawned so far, to be made the root's children.
struct Pieces<'c, 'w, 's> {
    commands: &'c mut Commands<'w, 's>,
    spawned: Vec<Entity>,
}

impl Pieces<'_, '_, '_> {
    /// Spawns a map piece and keeps it for the root.
    fn spawn(&mut self, b: impl Bundle) -> Entity {
        let e = self.commands.spawn((MapPiece, b)).id();
        self.spawned.push(e);
        e
    }
}

/// A sprite filling `r` (map coordinates) at depth `z`: an image, or plain
/// colour without one.
fn rect_sprite(
    size: Vec2,
    image: Option<&Handle<Image>>,
    c: Color,
    r: Rect,
    z: f32,
) -> impl Bundle {
    let mut s = match image {
        Some(i) => Sprite::from_image(i.clone()),
        None => Sprite::from_color(Color::WHITE, Vec2::ONE),
    };
    s.color = c;
    s.custom_size = Some(r.size());
    (
        s,
        Transform::from_translation(at(size, r.center()).extend(z)),
    )
}

/// Draws the map's pieces under `root`: sky, walls, bridge, helicopter,
/// rooms, gas and floor names.
fn build(
    commands: &mut Commands,
    root: Entity,
    d: &Draw,
    gassed_before: &[FloorId],
    secs: f32,
    now: f32,
) {
    let (marks, lay) = (d.marks, d.lay);
    let mut pieces = Pieces {
        commands,
        spawned: Vec::new(),
    };
    sky_and_ground(&mut pieces, d);
    walls(&mut pieces, d);
    bridge(&mut pieces, d);
    helicopter(&mut pieces, d);
    for id in map().ids() {
        room(&mut pieces, d, id);
    }
    // Gas hangs over whole floors; a floor just gassed fills from one end.
    for (f, band) in &lay.floors {
        if marks.gassed.contains(f) {
            gas(
                &mut pieces,
                d,
                *band,
                secs > 0.0 && !gassed_before.contains(f),
                secs,
                now,
            );
        }
        if marks.flash_floors.contains(f) {
            floor_flash(&mut pieces, d, *band);
        }
    }
    // Floor names beside each wing; a floor that can be voted for is a
    // ballot to click.
    for (f, band) in &lay.floors {
        floor_name(&mut pieces, d, *f, *band);
    }
    let Pieces { commands, spawned } = pieces;
    commands.entity(root).add_children(&spawned);
}

/// The sky (dragging it pans the map) and the ground.
fn sky_and_ground(pieces: &mut Pieces, d: &Draw) {
    let size = d.size;
    let sky = pieces.spawn(rect_sprite(
        size,
        None,
        Color::srgb(0.094, 0.133, 0.2),
        Rect::new(0.0, 0.0, size.x, size.y),
        0.0,
    ));
    pieces
        .commands
        .entity(sky)
        .insert(Pickable::default())
        .observe(pan_map);
    pieces.spawn(rect_sprite(
        size,
        None,
        Color::srgb(0.18, 0.23, 0.16),
        Rect::new(0.0, size.y - d.lay.ground, size.x, size.y),
        0.5,
    ));
}

/// Walls: each floor's band; a roof is only its helipad.
fn walls(pieces: &mut Pieces, d: &Draw) {
    let m = map();
    for (f, band) in &d.lay.floors {
        if m.rooms_on(*f).count() > 1 {
            let e = pieces.spawn(rect_sprite(
                d.size,
                None,
                Color::srgb(0.47, 0.36, 0.3),
                *band,
                1.0,
            ));
            pieces.commands.entity(e).insert(Pickable::IGNORE);
        }
    }
}

/// The bridge between the two bridge ends.
fn bridge(pieces: &mut Pieces, d: &Draw) {
    let m = map();
    let bridges: Vec<RoomId> = m
        .ids()
        .filter(|&r| m.room(r).key.ends_with("bridge"))
        .collect();
    let [a, b] = bridges[..] else {
        return;
    };
    let (ra, rb) = (d.lay.rooms[a.0 as usize], d.lay.rooms[b.0 as usize]);
    let (l, r) = if ra.center().x < rb.center().x {
        (ra, rb)
    } else {
        (rb, ra)
    };
    let y = l.center().y + l.height() * 0.15;
    let deck = Rect::new(l.max.x, y - 14.0, r.min.x, y + 14.0);
    let e = pieces.spawn(rect_sprite(
        d.size,
        Some(&d.art.bridge),
        Color::WHITE,
        deck,
        2.0,
    ));
    pieces
        .commands
        .entity(e)
        .insert(Pickable::IGNORE)
        .with_children(|c| {
            c.spawn((
                text(d.font, d.lang, d.i18n.t("gene-map-bridge"), 11.0, INK),
                Transform::from_xyz(0.0, -6.0, 0.5),
            ));
        });
}

/// The helicopter above the roofs, with its route dotted between them.
fn helicopter(pieces: &mut Pieces, d: &Draw) {
    let m = map();
    let roofs: Vec<Rect> = d
        .lay
        .floors
        .keys()
        .filter(|f| m.rooms_on(**f).count() == 1)
        .filter_map(|f| m.rooms_on(*f).next())
        .map(|r| d.lay.rooms[r.0 as usize])
        .collect();
    let [a, b] = roofs[..] else {
        return;
    };
    let lift = d.size.y * 0.07;
    let (p0, p1) = (
        Vec2::new(a.center().x, a.min.y),
        Vec2::new(b.center().x, b.min.y),
    );
    let mid = Vec2::new((p0.x + p1.x) / 2.0, p0.y.min(p1.y) - lift);
    // The route: dots along the arc.
    for i in 1..24 {
        let t = i as f32 / 24.0;
        let u = 1.0 - t;
        let p = p0 * u * u + mid * 2.0 * u * t + p1 * t * t;
        let e = pieces.spawn(rect_sprite(
            d.size,
            None,
            Color::srgb(0.78, 0.82, 0.9),
            Rect::from_center_size(p, Vec2::splat(3.0)),
            2.0,
        ));
        pieces.commands.entity(e).insert(Pickable::IGNORE);
    }
    let h = Vec2::new(mid.x, mid.y + lift * 0.5);
    let e = pieces.spawn(rect_sprite(
        d.size,
        Some(&d.art.helicopter),
        Color::WHITE,
        Rect::from_center_size(h, Vec2::new(58.0, 34.0)),
        3.0,
    ));
    let words = d
        .i18n
        .ta("gene-map-helicopter", &[("n", m.costs.helicopter.into())]);
    pieces
        .commands
        .entity(e)
        .insert(Pickable::IGNORE)
        .with_children(|c| {
            c.spawn((
                text(d.font, d.lang, words, 11.0, Color::srgb(0.9, 0.9, 0.9)),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, -20.0, 0.5),
            ));
        });
}

/// A room: its illustration (dimmed when out of reach), to click, with its
/// name, what it gives, its reach frame, cost and flash.
fn room(pieces: &mut Pieces, d: &Draw, id: RoomId) {
    let marks = d.marks;
    let room = map().room(id);
    let r = d.lay.rooms[id.0 as usize];
    let roof = room.key.ends_with("roof");
    let target = room_target(marks, id);
    // At a lesson's table only the room its step names is framed.
    let pointed = marks.pointed(&target.name);
    let e = pieces.spawn(rect_sprite(
        d.size,
        Some(room_image(d.art, id)),
        room_tint(marks, id, pointed),
        r,
        4.0,
    ));
    pieces
        .commands
        .entity(e)
        .insert((
            RoomSpot(id),
            Pickable::default(),
            target,
            // Its reach frame, with the cost, is its mark.
            crate::client::scene::marks::OwnMark,
        ))
        .observe(click_room)
        .observe(hover_room)
        .observe(unhover_room)
        .observe(pan_map);
    let name_colour = match room.function {
        Some(RoomFunction::Morgue) => Color::srgb(0.94, 0.94, 0.94),
        _ if roof => Color::srgb(0.92, 0.92, 0.92),
        _ => INK,
    };
    let (w, h) = (r.width(), r.height());
    let cost = marks.reach.get(&id).copied().filter(|_| pointed);
    let flash = marks.flash_rooms.contains(&id).then(|| {
        colour(
            marks
                .flash_colour
                .unwrap_or(Color32::from_rgb(230, 120, 100)),
        )
    });
    pieces.commands.entity(e).with_children(|c| {
        // The whole map on a phone has room for no names (its closer view
        // shows them).
        let roomy = w >= 44.0;
        if roomy {
            room_name(c, d, room.name.get(d.lang), name_colour, w, h);
        }
        for (i, kind) in room.draws.iter().enumerate().filter(|_| roomy) {
            room_item_chip(c, d, *kind, i, w, h);
        }
        if let Some((col, width, amp)) = frame_style(
            marks.selected == Some(id),
            cost,
            pointed && marks.pickable.contains(&id),
        ) {
            reach_frame(c, col, width, amp, w, h);
        }
        if let Some(cost) = cost {
            cost_badge(c, d, cost, w, h);
        }
        if let Some(col) = flash {
            c.spawn(room_flash(col, w, h));
        }
    });
}

/// What a tap on a room does: go there (in reach), pick it (a spawn, a
/// rocket's target) or nothing.
fn room_target(marks: &Marks, id: RoomId) -> Target {
    let does = if marks.reach.contains_key(&id) {
        Does::Move
    } else if marks.pickable.contains(&id) {
        Does::Pick
    } else {
        Does::Nothing
    };
    Target::new(format!("room:{}", map().room(id).key), does)
}

/// A floor's ballot, when the floor can be voted for: a tap votes.
fn ballot_target(marks: &Marks, f: FloorId) -> Option<Target> {
    marks
        .votable
        .contains(&f)
        .then(|| Target::new(format!("ballot:{}-{}", f.building, f.floor), Does::Move))
}

/// What a tap on a card of the hand does: leave it in the room, or nothing.
fn hand_card_target(marks: &Marks, kind: ItemKind) -> Target {
    Target::new(
        format!("card:{kind:?}").to_lowercase(),
        if marks.hand_clickable {
            Does::Move
        } else {
            Does::Nothing
        },
    )
}

/// A room's illustration, by its function or kind.
fn room_image(art: &GeneArt, id: RoomId) -> &Handle<Image> {
    let room = map().room(id);
    let stairs = room.key.ends_with("stairs");
    let roof = room.key.ends_with("roof");
    match room.function {
        Some(RoomFunction::Surgery) => &art.surgery,
        Some(RoomFunction::Morgue) => &art.morgue,
        None if stairs => &art.stairs,
        None if roof => &art.roof,
        None => &art.room,
    }
}

/// A room's tint: dimmed when the viewer has a reach and this room is out
/// of it, or when a lesson's step points at another room (`pointed`: this
/// one is named, or no lesson step shows).
fn room_tint(marks: &Marks, id: RoomId, pointed: bool) -> Color {
    let reachable = marks.reach.contains_key(&id) || marks.pickable.contains(&id);
    let mine = marks.me.map(|m| m.0) == Some(id);
    let dim = !mine
        && ((!marks.reach.is_empty() && !reachable) || (marks.points_at_a_room() && !pointed));
    if dim {
        Color::srgb(0.55, 0.55, 0.55)
    } else {
        Color::WHITE
    }
}

/// A room's name in its top-left corner.
fn room_name(c: &mut ChildSpawnerCommands, d: &Draw, name: &str, col: Color, w: f32, h: f32) {
    // A narrow room (a phone's) gets a smaller name, broken only between
    // words.
    let size = if w < 72.0 {
        d.name_size * 0.82
    } else {
        d.name_size
    };
    c.spawn((
        text(d.font, d.lang, name, size, col),
        TextBounds::new_horizontal(w - 8.0),
        Anchor::TOP_LEFT,
        Transform::from_xyz(-w / 2.0 + 4.0, h / 2.0 - 3.0, 0.3),
    ))
    .insert(TextLayout::new(
        Justify::Left,
        crate::client::scene::line_break(d.lang),
    ));
}

/// What the room gives, as a coloured chip (the `i`th along its bottom).
fn room_item_chip(
    c: &mut ChildSpawnerCommands,
    d: &Draw,
    kind: ItemKind,
    i: usize,
    w: f32,
    h: f32,
) {
    let mut chip = Sprite::from_image(d.art.chip.clone());
    chip.color = colour(item_colour(kind));
    chip.custom_size = Some(Vec2::splat(20.0));
    c.spawn((
        chip,
        Transform::from_xyz(-w / 2.0 + 13.0 + 24.0 * i as f32, -h / 2.0 + 13.0, 0.2),
        Pickable::IGNORE,
    ))
    .with_children(|c| {
        c.spawn((
            text(d.font, d.lang, item_glyph(kind, d.i18n), 11.0, Color::BLACK),
            Transform::from_xyz(0.0, 0.0, 0.1),
        ));
    });
}

/// A room's frame, if any: colour, width and how much it pulses. Where
/// the viewer can go (and what it costs) pulses.
fn frame_style(selected: bool, cost: Option<u32>, picked: bool) -> Option<(Color, f32, f32)> {
    if selected {
        Some((Color::WHITE, 4.0, 0.0))
    } else if cost.is_some() {
        Some((GOLD, 3.0, 0.35))
    } else if picked {
        Some((GOLD.with_alpha(0.7), 2.0, 0.0))
    } else {
        None
    }
}

/// A frame's four edges around a room `w` by `h`.
fn reach_frame(c: &mut ChildSpawnerCommands, col: Color, width: f32, amp: f32, w: f32, h: f32) {
    for (dx, dy, fw, fh) in [
        (0.0, h / 2.0 - width / 2.0, w, width),
        (0.0, -h / 2.0 + width / 2.0, w, width),
        (-w / 2.0 + width / 2.0, 0.0, width, h),
        (w / 2.0 - width / 2.0, 0.0, width, h),
    ] {
        let mut edge = c.spawn((
            Sprite::from_color(col, Vec2::new(fw, fh)),
            Transform::from_xyz(dx, dy, 0.4),
            Pickable::IGNORE,
        ));
        if amp > 0.0 {
            edge.insert(Pulse {
                base: 1.0 - amp,
                amp,
            });
        }
    }
}

/// The steps a room costs, on a gold badge in its bottom-right corner.
fn cost_badge(c: &mut ChildSpawnerCommands, d: &Draw, cost: u32, w: f32, h: f32) {
    let mut badge = Sprite::from_image(d.art.chip.clone());
    badge.color = GOLD;
    badge.custom_size = Some(Vec2::splat(22.0));
    c.spawn((
        badge,
        Transform::from_xyz(w / 2.0 - 14.0, -h / 2.0 + 13.0, 0.5),
        Pickable::IGNORE,
    ))
    .with_children(|c| {
        c.spawn((
            text(d.font, d.lang, cost.to_string(), 13.0, Color::BLACK),
            Transform::from_xyz(0.0, 0.0, 0.1),
        ));
    });
}

/// A pulsing wash over a room a settlement line names.
fn room_flash(col: Color, w: f32, h: f32) -> impl Bundle {
    (
        Sprite::from_color(col.with_alpha(0.4), Vec2::new(w, h)),
        Transform::from_xyz(0.0, 0.0, 0.35),
        Pulse {
            base: 0.25,
            amp: 0.35,
        },
        Pickable::IGNORE,
    )
}

/// Gas over a floor's band; `rolls` when just gassed (it fills from the
/// left end).
fn gas(pieces: &mut Pieces, d: &Draw, band: Rect, rolls: bool, secs: f32, now: f32) {
    let mut s = Sprite::from_image(d.art.gas.clone());
    s.custom_size = Some(band.size());
    let left = at(d.size, Vec2::new(band.min.x, band.center().y));
    let home = Transform::from_translation(left.extend(8.0));
    let e = pieces.spawn((s, Anchor::CENTER_LEFT, home, Home(home), Pickable::IGNORE));
    if rolls {
        let mut from = home;
        from.scale.x = 0.02;
        pieces
            .commands
            .entity(e)
            .insert(Motion::from(from, now, 0.0, secs));
    }
}

/// A pulsing wash over a floor a settlement line names.
fn floor_flash(pieces: &mut Pieces, d: &Draw, band: Rect) {
    let e = pieces.spawn(rect_sprite(
        d.size,
        None,
        Color::srgba(0.47, 0.9, 0.35, 0.25),
        band,
        8.5,
    ));
    pieces.commands.entity(e).insert((
        Pickable::IGNORE,
        Pulse {
            base: 0.15,
            amp: 0.25,
        },
    ));
}

/// A floor's name beside its wing, on a chip that is a ballot when the
/// floor can be voted for.
fn floor_name(pieces: &mut Pieces, d: &Draw, f: FloorId, band: Rect) {
    let marks = d.marks;
    let left_side = f.building.is_multiple_of(2);
    let gassed = marks.gassed.contains(&f);
    // On a phone's whole map the margin beside a wing is narrow: the
    // floor is named short ("E3", "东3"), in a chip that fits it.
    let margin = if left_side {
        band.min.x
    } else {
        d.size.x - band.max.x
    };
    let short = margin < 80.0;
    let label = floor_words(d, f, short, gassed);
    let colour_text = if gassed {
        Color::srgb(0.55, 0.9, 0.43)
    } else {
        Color::srgb(0.86, 0.86, 0.86)
    };
    let (half, chip_w) = if short {
        (margin / 2.0, (margin - 6.0).max(24.0))
    } else {
        (40.0, 72.0)
    };
    let x = if left_side {
        band.min.x - half
    } else {
        band.max.x + half
    };
    let chip = Rect::from_center_size(Vec2::new(x, band.center().y), Vec2::new(chip_w, 34.0));
    let ballot = ballot_target(marks, f);
    let votable = ballot.is_some();
    let voted = marks.my_vote == Some(f);
    let fill = if voted {
        GOLD.with_alpha(0.45)
    } else if votable {
        Color::srgba(0.93, 0.75, 0.36, 0.18)
    } else {
        Color::NONE
    };
    let e = pieces.spawn(rect_sprite(d.size, None, fill, chip, 9.0));
    pieces.commands.entity(e).with_children(|c| {
        c.spawn((
            text(d.font, d.lang, label, d.name_size, colour_text),
            TextBounds::new_horizontal(70.0),
            Transform::from_xyz(0.0, 0.0, 0.1),
        ))
        .insert(TextLayout::new(Justify::Center, LineBreak::AnyCharacter));
    });
    if let Some(target) = ballot {
        pieces
            .commands
            .entity(e)
            .insert((Ballot(f), Pickable::default(), target))
            .observe(click_ballot);
    } else {
        pieces.commands.entity(e).insert(Pickable::IGNORE);
    }
}

/// A floor's name, short or whole, with a line saying it is gassed.
fn floor_words(d: &Draw, f: FloorId, short: bool, gassed: bool) -> String {
    let mut label = if short {
        let wing = map().buildings[f.building as usize].get(d.lang);
        format!("{}{}", wing.chars().next().unwrap_or(' '), f.floor)
    } else {
        floor_label(f, d.lang)
    };
    if gassed {
        label = format!("{label}\n{}", d.i18n.t("gene-map-gas"));
    }
    label
}

/// Puts the tokens where the marks say; the seat's own walks its path.
#[allow(clippy::too_many_arguments)]
fn place_tokens(
    commands: &mut Commands,
    root: Entity,
    art: &GeneArt,
    font: &Handle<Font>,
    marks: &Marks,
    (size, lay): (Vec2, &Layout),
    tokens: &mut BTreeMap<usize, RoomId>,
    existing: &Query<(Entity, &Token, &Transform)>,
    renew: bool,
    secs: f32,
    now: f32,
    lang: Lang,
) {
    let mut wanted: Vec<(usize, RoomId, bool, bool, usize)> = Vec::new();
    let mut slots: BTreeMap<RoomId, usize> = BTreeMap::new();
    if let Some((room, _)) = marks.me {
        slots.insert(room, 1);
    }
    for (room, number, shadow) in &marks.others {
        let slot = slots.entry(*room).or_default();
        wanted.push((*number, *room, *shadow, false, *slot));
        *slot += 1;
    }
    if let Some((room, shadow)) = marks.me {
        wanted.push((marks.my_number.unwrap_or(0), room, shadow, true, 0));
    }
    let mut seen = BTreeSet::new();
    for (number, room, shadow, mine, slot) in wanted {
        seen.insert(number);
        let spot = token_spot(size, lay.rooms[room.0 as usize], slot);
        let home = Transform::from_translation(spot.extend(if mine { 21.0 } else { 20.0 }));
        let was = tokens.insert(number, room);
        let found = existing
            .iter()
            .filter(|_| !renew)
            .find(|(_, t, _)| t.0 == number);
        let e = match found {
            Some((e, _, _)) => {
                commands.entity(e).insert(Home(home));
                e
            }
            None => {
                let mut s = Sprite::from_image(art.token.clone());
                s.custom_size = Some(Vec2::splat(28.0));
                s.color = token_colour(shadow, mine);
                let e = commands
                    .spawn((
                        MapPiece,
                        Token(number),
                        s,
                        home,
                        Home(home),
                        Pickable::IGNORE,
                    ))
                    .with_children(|c| {
                        c.spawn((
                            text(font, lang, number.to_string(), 13.0, Color::WHITE),
                            Transform::from_xyz(0.0, 2.0, 0.1),
                        ));
                    })
                    .id();
                commands.entity(root).add_child(e);
                e
            }
        };
        commands.entity(e).insert(Sprite {
            image: art.token.clone(),
            custom_size: Some(Vec2::splat(28.0)),
            color: token_colour(shadow, mine),
            ..default()
        });
        // Only the seat's own token walks (another's path is its secret;
        // the host seat sees where they are, not how they went).
        if mine
            && secs > 0.0
            && let Some(from) = was.filter(|w| *w != room)
            && let Some(path) = map().path(from, room, shadow)
        {
            let points = path
                .iter()
                .map(|r| token_spot(size, lay.rooms[r.0 as usize], 0))
                .collect();
            commands.entity(e).insert(Walk {
                points,
                start: now,
                secs,
            });
        }
    }
    for (e, t, _) in existing.iter().filter(|_| !renew) {
        if !seen.contains(&t.0) {
            commands.entity(e).despawn();
            tokens.remove(&t.0);
        }
    }
}

/// One item card of the hand: its colour band with the item's mark, and
/// its name.
#[allow(clippy::too_many_arguments)]
fn spawn_hand_card(
    commands: &mut Commands,
    art: &GeneArt,
    font: &Handle<Font>,
    i18n: &I18n,
    kind: ItemKind,
    size: Vec2,
    home: Transform,
) -> Entity {
    let lang = i18n.lang;
    let mut base = Sprite::from_image(art.card.clone());
    base.custom_size = Some(size);
    let tint = colour(item_colour(kind));
    commands
        .spawn((
            SceneItem,
            HandCard(kind),
            base,
            home,
            Home(home),
            Pickable::default(),
        ))
        .with_children(|c| {
            c.spawn((
                Sprite::from_color(tint, Vec2::new(size.x * 0.83, size.y * 0.6)),
                Transform::from_xyz(0.0, size.y * 0.12, 0.1),
                Pickable::IGNORE,
            ));
            c.spawn((
                text(font, lang, item_glyph(kind, i18n), 20.0, Color::BLACK),
                Transform::from_xyz(0.0, size.y * 0.12, 0.2),
            ));
            c.spawn((
                text(font, lang, items().get(kind).name.get(lang), 11.0, INK),
                TextBounds::new_horizontal(size.x - 6.0),
                Transform::from_xyz(0.0, -size.y * 0.33, 0.2),
            ))
            .insert(TextLayout::new(Justify::Center, LineBreak::AnyCharacter));
        })
        .observe(click_card)
        .observe(hover_room)
        .observe(unhover_room)
        .id()
}

/// The marks' newest map.
#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    mut scene: SceneInputs,
    marks: Option<Res<Marks>>,
    art: Option<Res<GeneArt>>,
    mut built: ResMut<Built>,
    roots: Query<Entity, With<MapRoot>>,
    pieces: Query<Entity, (With<MapPiece>, Without<Token>)>,
    hand: Query<Entity, With<HandCard>>,
    tokens: Query<(Entity, &Token, &Transform)>,
    mut root_t: Query<&mut Transform, (With<MapRoot>, Without<Token>)>,
    close: Res<MapClose>,
    mut hover: ResMut<Hover>,
) {
    let (Some(marks), Some(art), Some(r)) = (marks, art, scene.rect.0) else {
        return;
    };
    // The hand takes a strip under the map.
    let map_rect = Rect::new(r.min.x, r.min.y + HAND_STRIP, r.max.x, r.max.y);
    let min_width = if close.0 { MIN_WIDTH } else { 0.0 };
    let size = Vec2::new(map_rect.width().max(min_width), map_rect.height());
    let pan_max = (size.x - r.width()).max(0.0);
    built.pan = built.pan.clamp(0.0, pan_max);
    // The map's centre sits at the rect's centre, shifted by the pan.
    let centre = Vec2::new(r.min.x + size.x / 2.0 - built.pan, map_rect.center().y);
    let root = place_root(&mut commands, &roots, &mut root_t, centre);
    let relaid = built.rect != Some(r) || built.lang != Some(scene.i18n.lang) || built.size != size;
    if !relaid && built.marks.as_ref() == Some(&*marks) {
        return;
    }
    let font = scene.fonts.typed();
    let first = built.marks.is_none();
    let secs = if first || relaid {
        0.0
    } else {
        motion_secs(&scene.settings)
    };
    let now = scene.time.elapsed_secs();
    if !relaid {
        scene.settling.update_at = Some(now);
    }
    // Tokens in another language (their numbers' font) are made anew.
    let renew = built.lang.is_some_and(|l| l != scene.i18n.lang);
    clear_map(&mut commands, &pieces, &tokens, renew);
    // The room under the pointer goes with the old map, and no pointer
    // event says so: its words go too (the new room under a resting
    // pointer is hovered anew).
    if matches!(*hover, Hover::Room(_)) {
        *hover = Hover::Nothing;
    }
    let gassed_before = built
        .marks
        .as_ref()
        .map(|m| m.gassed.clone())
        .unwrap_or_default();
    // Where every room and floor sits: laid out once for the whole build.
    let lay = layout(size.x, size.y);
    let d = Draw::new((&art, &font, &scene.i18n), &marks, (size, &lay));
    build(&mut commands, root, &d, &gassed_before, secs, now);
    let mut placed = std::mem::take(&mut built.tokens);
    if relaid {
        placed.clear();
    }
    let fresh_tokens: Query<(Entity, &Token, &Transform)> = tokens;
    place_tokens(
        &mut commands,
        root,
        &art,
        &font,
        &marks,
        (size, &lay),
        &mut placed,
        &fresh_tokens,
        renew,
        secs,
        now,
        scene.i18n.lang,
    );
    built.tokens = placed;
    let token_at = marks
        .me
        .map(|(room, _)| centre + token_spot(size, lay.rooms[room.0 as usize], 0));
    let had = built.marks.as_ref().map_or(&[][..], |m| m.hand.as_slice());
    lay_hand(&mut commands, &hand, &d, had, r, token_at, (secs, now));
    built.marks = Some(marks.clone());
    built.rect = Some(r);
    built.lang = Some(scene.i18n.lang);
    built.size = size;
}

/// Despawns the map's pieces, and its tokens too when they are to be made
/// anew.
fn clear_map(
    commands: &mut Commands,
    pieces: &Query<Entity, (With<MapPiece>, Without<Token>)>,
    tokens: &Query<(Entity, &Token, &Transform)>,
    renew: bool,
) {
    for e in pieces {
        commands.entity(e).despawn();
    }
    if renew {
        for (e, _, _) in tokens {
            commands.entity(e).despawn();
        }
    }
}

/// The map's root, spawned if there is none yet, with its centre at
/// `centre`.
fn place_root(
    commands: &mut Commands,
    roots: &Query<Entity, With<MapRoot>>,
    root_t: &mut Query<&mut Transform, (With<MapRoot>, Without<Token>)>,
    centre: Vec2,
) -> Entity {
    let root = match roots.iter().next() {
        Some(e) => e,
        None => commands
            .spawn((
                SceneItem,
                MapRoot,
                Transform::default(),
                Visibility::default(),
            ))
            .id(),
    };
    if let Ok(mut t) = root_t.get_mut(root)
        && t.translation.truncate() != centre
    {
        t.translation = centre.extend(0.0);
    } else if roots.is_empty() {
        commands
            .entity(root)
            .insert(Transform::from_translation(centre.extend(0.0)));
    }
    root
}

/// The hand: a row of cards under the map, in place of the `old` ones; a
/// new card (one more of its kind than the hand `had`) flies in from the
/// seat's own token.
fn lay_hand(
    commands: &mut Commands,
    old: &Query<Entity, With<HandCard>>,
    d: &Draw,
    had: &[ItemKind],
    r: Rect,
    token_at: Option<Vec2>,
    (secs, now): (f32, f32),
) {
    for e in old {
        commands.entity(e).despawn();
    }
    let (art, font, i18n, marks) = (d.art, d.font, d.i18n, d.marks);
    let n = marks.hand.len();
    let card = Vec2::new(60.0, 80.0);
    let step = ((r.width() - 16.0 - card.x) / n.saturating_sub(1).max(1) as f32).min(card.x + 8.0);
    let total = card.x + step * n.saturating_sub(1) as f32;
    for (i, kind) in marks.hand.iter().enumerate() {
        let x = r.center().x - total / 2.0 + card.x / 2.0 + step * i as f32;
        let home = Transform::from_xyz(x, r.min.y + HAND_STRIP / 2.0, 40.0 + i as f32);
        let e = spawn_hand_card(commands, art, font, i18n, *kind, card, home);
        commands.entity(e).insert(hand_card_target(marks, *kind));
        let new = had.iter().filter(|k| *k == kind).count()
            < marks.hand[..=i].iter().filter(|k| *k == kind).count();
        if new
            && secs > 0.0
            && let Some(from) = token_at
        {
            let from = Transform::from_translation(from.extend(45.0)).with_scale(Vec3::splat(0.3));
            commands
                .entity(e)
                .insert(Motion::from(from, now, 0.0, secs));
        }
    }
}

fn pulse(
    time: Res<Time<Real>>,
    mut sprites: Query<(&Pulse, &mut Sprite)>,
    alarm: Res<crate::client::wake::Alarm>,
) {
    if !sprites.is_empty() {
        alarm.after(crate::client::scene::marks::BREATH_STEP);
    }
    let wave = (time.elapsed_secs() * 3.0).sin() * 0.5 + 0.5;
    for (p, mut s) in &mut sprites {
        let a = p.base + p.amp * wave;
        s.color = s.color.with_alpha(a);
    }
}

fn click_room(
    ev: On<crate::client::scene::Tap>,
    rooms: Query<&RoomSpot>,
    marks: Option<Res<Marks>>,
    mut clicks: ResMut<MapClicks>,
    drag: Res<PanDrag>,
) {
    if drag.0 > 8.0 {
        return;
    }
    let (Ok(room), Some(marks)) = (rooms.get(ev.entity), marks) else {
        return;
    };
    if room_target(&marks, room.0).does != Does::Nothing {
        clicks.room = Some(room.0);
    }
}

fn click_ballot(
    ev: On<crate::client::scene::Tap>,
    ballots: Query<&Ballot>,
    mut clicks: ResMut<MapClicks>,
) {
    if let Ok(b) = ballots.get(ev.entity) {
        clicks.floor = Some(b.0);
    }
}

/// How far the current drag went (a drag pans; it is not a click).
#[derive(Resource, Default)]
struct PanDrag(f32);

fn pan_map(
    ev: On<Pointer<Drag>>,
    mut built: ResMut<Built>,
    rect: Res<SceneRect>,
    mut drag: ResMut<PanDrag>,
) {
    let p = ev.event();
    drag.0 = p.event.distance.length();
    let Some(r) = rect.0 else { return };
    let pan_max = (built.size.x - r.width()).max(0.0);
    built.pan = (built.pan - p.event.delta.x).clamp(0.0, pan_max);
}

fn drag_done(_ev: On<Pointer<DragEnd>>, mut drag: ResMut<PanDrag>) {
    drag.0 = 0.0;
}

fn hover_room(
    ev: On<Pointer<Over>>,
    rooms: Query<&RoomSpot>,
    cards: Query<&HandCard>,
    mut hover: ResMut<Hover>,
) {
    if let Ok(r) = rooms.get(ev.entity) {
        *hover = Hover::Room(r.0);
    } else if let Ok(c) = cards.get(ev.entity) {
        *hover = Hover::Card(c.0);
    }
}

fn unhover_room(
    ev: On<Pointer<Out>>,
    rooms: Query<&RoomSpot>,
    cards: Query<&HandCard>,
    mut hover: ResMut<Hover>,
) {
    let was = match (rooms.get(ev.entity), cards.get(ev.entity)) {
        (Ok(r), _) => Hover::Room(r.0),
        (_, Ok(c)) => Hover::Card(c.0),
        _ => return,
    };
    if *hover == was {
        *hover = Hover::Nothing;
    }
}

fn click_card(
    ev: On<crate::client::scene::Tap>,
    cards: Query<&HandCard>,
    marks: Option<Res<Marks>>,
    mut clicks: ResMut<MapClicks>,
) {
    if let (Ok(c), Some(marks)) = (cards.get(ev.entity), marks)
        && hand_card_target(&marks, c.0).does != Does::Nothing
    {
        clicks.card = Some(c.0);
    }
}

/// The hovered room's name, what it gives and its cost, for the screen's
/// status line.
pub fn hovered_words(hover: Hover, marks: &Marks, i18n: &I18n) -> Option<String> {
    let lang = i18n.lang;
    let id = match hover {
        Hover::Nothing => return None,
        // A card left or used is gone from under the pointer (no pointer
        // event says so): its words go with it.
        Hover::Card(kind) if !marks.hand.contains(&kind) => return None,
        Hover::Card(kind) => {
            let item = items().get(kind);
            return Some(format!(
                "{}: {}",
                item.name.get(lang),
                item.effect.get(lang)
            ));
        }
        Hover::Room(id) => id,
    };
    let m = map();
    let room = m.room(id);
    let mut tip = vec![room.name.get(lang).to_string()];
    if !room.draws.is_empty() {
        let names: Vec<&str> = room
            .draws
            .iter()
            .map(|k| items().get(*k).name.get(lang))
            .collect();
        tip.push(i18n.ta("gene-hover-draws", &[("items", names.join(", ").into())]));
    }
    if let Some(cost) = marks.reach.get(&id) {
        tip.push(i18n.ta("gene-hover-steps", &[("n", (*cost).into())]));
    }
    Some(tip.join(" · "))
}

/// Each room's and card's words when inspected: made when the piece is,
/// and anew when the marks (the steps from the viewer, gas) or the
/// language change.
fn tell(
    mut commands: Commands,
    rooms: Query<(Entity, Ref<RoomSpot>)>,
    cards: Query<(Entity, Ref<HandCard>)>,
    marks: Option<Res<Marks>>,
    i18n: Res<I18n>,
) {
    let Some(marks) = marks else { return };
    let all = marks.is_changed() || i18n.is_changed();
    for (e, r) in &rooms {
        if all || r.is_added() {
            let near = inspect::Near {
                here: marks.me.is_some_and(|(at, _)| at == r.0),
                steps: marks.reach.get(&r.0).copied(),
                gassed: marks.gassed.contains(&map().room(r.0).floor),
            };
            commands.entity(e).insert(inspect::room(r.0, near, &i18n));
        }
    }
    for (e, c) in &cards {
        if all || c.is_added() {
            commands.entity(e).insert(inspect::item(c.0, &i18n));
        }
    }
}

/// The panel's marks go with the table: the next is drawn from its own.
fn forget_marks(mut commands: Commands) {
    commands.remove_resource::<Marks>();
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Built>()
        .init_resource::<MapClicks>()
        .init_resource::<Hover>()
        .init_resource::<PanDrag>()
        .init_resource::<MapClose>()
        .add_observer(drag_done)
        .add_systems(
            Update,
            (sync, pulse, tell.after(sync))
                .in_set(SceneSystems::Sync)
                .run_if(in_state(TableScreen::Game(GameId::Gene))),
        )
        .add_systems(
            OnExit(Screen::Table),
            (reset::<Built>, reset::<Hover>, forget_marks),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::gene::{GeneAction, GeneGame, GeneSettings, GeneView};
    use foodweb_rules::table::{Seats, TableConfig};

    /// The pieces the seat's map marks as usable with no choice made yet (no
    /// spawn or rocket target picked), by their `reach::Target` names as
    /// [`marks`](crate::client::games::marks) compares them: `room:KEY`,
    /// `ballot:B-F`, `card:KIND`. Drawn from the same [`Marks`] the screen
    /// makes of the view and the same targets the pieces get.
    fn marked(view: &foodweb_rules::gene::GeneView) -> BTreeSet<String> {
        let marks =
            super::super::panels::view_marks(view, &super::super::panels::GeneUi::default());
        let rooms = map().ids().map(|id| room_target(&marks, id));
        let ballots = map()
            .floors()
            .into_iter()
            .filter_map(|f| ballot_target(&marks, f));
        let cards = marks.hand.iter().map(|&k| hand_card_target(&marks, k));
        rooms
            .chain(ballots)
            .chain(cards)
            .filter(|t| t.does != Does::Nothing)
            .map(|t| t.name)
            .collect()
    }

    use crate::client::games::marks::marks_and_now_are_the_judges;

    /// The map fits the area it is given, and no two rooms overlap.
    #[test]
    fn rooms_fit_and_do_not_overlap() {
        let lay = layout(900.0, 520.0);
        for (i, a) in lay.rooms.iter().enumerate() {
            assert!(a.min.x >= 0.0 && a.max.x <= 900.0 && a.min.y >= 0.0 && a.max.y <= 520.0);
            for b in &lay.rooms[i + 1..] {
                assert!(a.intersect(*b).is_empty(), "{a:?} overlaps {b:?}");
            }
        }
    }

    /// The piece of the map a legal action uses, by its `reach::Target`
    /// name; `None` for what the panels do (ready, trades, draws, cards
    /// used, surgery, the turn's end, a card left within the carry from
    /// the "leave a card" menu).
    fn piece(view: &GeneView, action: &GeneAction) -> Option<String> {
        match action {
            GeneAction::Prepare { spawn: r, .. } | GeneAction::Move { to: r } => {
                Some(format!("room:{}", map().room(*r).key))
            }
            GeneAction::Vote { floor } => {
                Some(format!("ballot:{}-{}", floor.building, floor.floor))
            }
            GeneAction::Discard { kind } if view.hand.len() > view.carry => {
                Some(format!("card:{kind:?}").to_lowercase())
            }
            _ => None,
        }
    }

    /// Issue 38: what the map marks (a spawn room, a room in reach, a
    /// ballot, a card of the hand to leave) is what the judge accepts,
    /// over whole games of both bots. rules.md §1: "Each player picks a
    /// spawn room in secret ... any room but the morgue"; §2: "A move must
    /// end in another room within the player's speed"; §5:
    /// 「若已成为“毒气”楼层，不能重复被投。」 and "shadows do not vote"; §6:
    /// "until they have left enough, [the player] may only leave cards ...
    /// and talk".
    #[test]
    fn the_marked_pieces_are_the_judges_legal_moves() {
        for bot in ["random", "survivor"] {
            let configs = (1..=12).map(|seed| TableConfig::<GeneGame> {
                seed,
                seats: Seats::numbered(6),
                settings: GeneSettings::default(),
            });
            let i18n = I18n::default();
            let now = |v: &_| super::super::panels::now(v, &Default::default(), &i18n);
            let (compared, marking) =
                marks_and_now_are_the_judges(configs, bot, marked, piece, now);
            assert!(
                marking > 500,
                "{bot}: {marking} of {compared} seat-steps marked a piece"
            );
        }
    }

    /// The free phase's cards over the carry, which bot games never reach:
    /// rules.md §5, "A player over the carry may leave cards during the
    /// free phase, but only if they stand in a room that gives cards". The
    /// hand's cards are marked exactly when the judge lets them be left.
    #[test]
    fn cards_over_the_carry_are_marked_where_the_judge_lets_them_go() {
        use foodweb_rules::gene::{GeneSetup, Genes, ItemKind, SeatSetup};
        use foodweb_rules::table::Table;
        let room = |key| map().by_key(key).expect("a room of the map");
        let seat = |carry, key, hand: &[ItemKind]| SeatSetup {
            genes: Genes {
                strength: 6 - carry,
                speed: 4,
                carry,
            },
            room: room(key),
            hand: hand.to_vec(),
            hp: None,
            shadow: false,
            drained: 0,
            immune: false,
        };
        let three = [ItemKind::Water, ItemKind::Food, ItemKind::Gold];
        let setup = GeneSetup {
            players: vec![
                seat(1, "e1-canteen", &three), // over, where cards are drawn
                seat(1, "e1-lobby", &three),   // over, where none are
                seat(3, "e1-canteen", &three), // within the carry
                seat(3, "w1-store", &[]),
                seat(3, "w1-garage", &[]),
                seat(3, "e3-lab", &[]),
            ],
            round: None,
            gassed: Vec::new(),
            order: None,
            lying: Vec::new(),
            later_orders: Vec::new(),
        };
        let config = TableConfig::<GeneGame> {
            seed: 1,
            seats: Seats::numbered(6),
            settings: GeneSettings::default(),
        };
        let table = Table::with_setup(config, Some(&setup)).expect("the table is set");
        let mut marking = 0;
        for s in table.config().seats.ids() {
            let view = table.view(s);
            assert_eq!(view.phase, foodweb_rules::gene::GenePhase::Free);
            let want: BTreeSet<String> = table
                .legal(s)
                .iter()
                .filter_map(|a| piece(&view, a))
                .collect();
            assert_eq!(marked(&view), want, "seat {s}");
            marking += usize::from(!want.is_empty());
        }
        assert_eq!(
            marking, 1,
            "only the seat over its carry where cards are drawn"
        );
    }
}
