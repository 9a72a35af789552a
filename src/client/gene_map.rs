//! The Gene Survival map as an illustration: the two wings in
//! cross-section, floor by floor, with their rooms, stairs, the bridge
//! (廊桥) and the helicopter between the roofs. Drawn from the map data and
//! whatever the seat's view lets it mark: its own token, where it can go
//! and at what cost, gassed floors, and the rooms a settlement names.

use std::collections::BTreeMap;

use bevy_egui::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2,
};
use foodweb_rules::Lang;
use foodweb_rules::gene::{FloorId, ItemKind, RoomFunction, RoomId, items, map};

use crate::client::theme;

/// What to mark on the map this frame.
#[derive(Default)]
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
}

/// What the player did on the map.
#[derive(Default)]
pub struct MapInput {
    pub room: Option<RoomId>,
    pub floor: Option<FloorId>,
}

const SKY: Color32 = Color32::from_rgb(24, 34, 52);
const GROUND: Color32 = Color32::from_rgb(46, 58, 40);
const WALL: Color32 = Color32::from_rgb(120, 92, 76);
const ROOM: Color32 = Color32::from_rgb(226, 214, 190);
const STAIRS: Color32 = Color32::from_rgb(176, 184, 196);
const SURGERY: Color32 = Color32::from_rgb(232, 240, 244);
const MORGUE: Color32 = Color32::from_rgb(120, 108, 140);
const ROOF: Color32 = Color32::from_rgb(88, 96, 104);
const GAS: Color32 = Color32::from_rgba_premultiplied(60, 140, 40, 110);
const INK: Color32 = Color32::from_rgb(40, 34, 30);

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
pub fn item_glyph(kind: ItemKind, lang: Lang) -> &'static str {
    match (kind, lang) {
        (ItemKind::Water, Lang::Zh) => "水",
        (ItemKind::Food, Lang::Zh) => "粮",
        (ItemKind::Gold, Lang::Zh) => "金",
        (ItemKind::Medicine, Lang::Zh) => "药",
        (ItemKind::Alcohol, Lang::Zh) => "酒",
        (ItemKind::Adrenaline, Lang::Zh) => "肾",
        (ItemKind::Rocket, Lang::Zh) => "火",
        (ItemKind::Water, _) => "W",
        (ItemKind::Food, _) => "F",
        (ItemKind::Gold, _) => "G",
        (ItemKind::Medicine, _) => "M",
        (ItemKind::Alcohol, _) => "Al",
        (ItemKind::Adrenaline, _) => "Ad",
        (ItemKind::Rocket, _) => "R",
    }
}

/// The floor's name as players say it ("East 2F", "东楼2层", "West roof").
pub fn floor_label(f: FloorId, lang: Lang) -> String {
    map().floor_name(f).get(lang).to_string()
}

/// Where each room and floor sits inside `area`.
pub struct Layout {
    pub rooms: Vec<Rect>,
    pub floors: BTreeMap<FloorId, Rect>,
}

pub fn layout(area: Rect) -> Layout {
    let m = map();
    let buildings = m.buildings.len().max(1) as f32;
    let top_floor = m.rooms.iter().map(|r| r.floor.floor).max().unwrap_or(1) as f32;
    let cols = m.rooms.iter().map(|r| r.x).max().unwrap_or(0) as f32 + 1.0;
    let ground = area.height() * 0.06;
    let sky = area.height() * 0.10;
    // Room beside each wing for the floor names (which are the ballot).
    let margin = 86.0_f32.min(area.width() * 0.1);
    let area = area.shrink2(Vec2::new(margin, 0.0));
    let gap = area.width() * 0.12;
    let bw = (area.width() - gap * (buildings - 1.0)) / buildings;
    let fh = (area.height() - ground - sky) / top_floor;
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
        let left = area.left() + b * (bw + gap);
        let bottom = area.bottom() - ground - (r.floor.floor as f32 - 1.0) * fh;
        let rect = Rect::from_min_max(
            Pos2::new(left + col * cw, bottom - fh),
            Pos2::new(left + (col + 1.0) * cw, bottom),
        );
        rooms.push(rect.shrink2(Vec2::new(3.0, 4.0)));
        // A floor spans its rooms (a roof is only its helipad).
        floors
            .entry(r.floor)
            .and_modify(|band: &mut Rect| *band = band.union(rect))
            .or_insert(rect);
    }
    Layout { rooms, floors }
}

/// The narrowest the map is drawn, in points.
pub const MIN_WIDTH: f32 = 660.0;

/// Draws the map into the space left in `ui`; returns what was clicked.
pub fn draw(ui: &mut egui::Ui, marks: &Marks, lang: Lang, pulse: f32) -> MapInput {
    // Never so narrow that room names break letter by letter: a phone
    // scrolls it (see the Gene table screen).
    let size = ui.available_size().max(Vec2::new(MIN_WIDTH, 300.0));
    let (area, response) = ui.allocate_exact_size(size, Sense::click());
    let painter = ui.painter_at(area);
    let lay = layout(area);
    let m = map();
    let mut input = MapInput::default();
    let small = FontId::proportional(if lang == Lang::Zh { 13.0 } else { 12.0 });
    let tiny = FontId::proportional(11.0);

    // Sky and ground.
    painter.rect_filled(area, CornerRadius::same(6), SKY);
    let ground = Rect::from_min_max(
        Pos2::new(area.left(), area.bottom() - area.height() * 0.06),
        area.max,
    );
    painter.rect_filled(ground, CornerRadius::ZERO, GROUND);

    // Walls: each floor's band, roofs lighter.
    for (f, band) in &lay.floors {
        let roof = m.rooms_on(*f).count() == 1;
        if roof {
            painter.rect_filled(
                Rect::from_min_max(
                    Pos2::new(band.left(), band.bottom() - 6.0),
                    Pos2::new(band.right(), band.bottom()),
                ),
                CornerRadius::ZERO,
                ROOF,
            );
        } else {
            painter.rect_filled(*band, CornerRadius::ZERO, WALL);
        }
    }

    // The bridge: a covered walkway between the two bridge ends.
    let bridges: Vec<RoomId> = m
        .ids()
        .filter(|&r| m.room(r).key.ends_with("bridge"))
        .collect();
    if let [a, b] = bridges[..] {
        let (ra, rb) = (lay.rooms[a.0 as usize], lay.rooms[b.0 as usize]);
        let (l, r) = if ra.center().x < rb.center().x {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let y = l.center().y + l.height() * 0.15;
        let deck = Rect::from_min_max(
            Pos2::new(l.right(), y - 10.0),
            Pos2::new(r.left(), y + 10.0),
        );
        painter.rect_filled(
            deck,
            CornerRadius::same(2),
            Color32::from_rgb(150, 150, 160),
        );
        painter.line_segment(
            [deck.left_top(), deck.right_top()],
            Stroke::new(2.0, Color32::from_rgb(210, 210, 220)),
        );
        for i in 0..=6 {
            let x = deck.left() + deck.width() * i as f32 / 6.0;
            painter.line_segment(
                [Pos2::new(x, deck.top()), Pos2::new(x, deck.top() - 8.0)],
                Stroke::new(1.5, Color32::from_rgb(210, 210, 220)),
            );
        }
        painter.text(
            deck.center(),
            Align2::CENTER_CENTER,
            if lang == Lang::Zh { "廊桥" } else { "bridge" },
            tiny.clone(),
            INK,
        );
    }

    // The helicopter route between the roofs.
    let roofs: Vec<Rect> = lay
        .floors
        .keys()
        .filter(|f| m.rooms_on(**f).count() == 1)
        .filter_map(|f| m.rooms_on(*f).next())
        .map(|r| lay.rooms[r.0 as usize])
        .collect();
    if let [a, b] = roofs[..] {
        let lift = area.height() * 0.07;
        let (p0, p1) = (a.center_top(), b.center_top());
        let mid = Pos2::new((p0.x + p1.x) / 2.0, p0.y.min(p1.y) - lift);
        let points: Vec<Pos2> = (0..=24)
            .map(|i| {
                let t = i as f32 / 24.0;
                let u = 1.0 - t;
                Pos2::new(
                    u * u * p0.x + 2.0 * u * t * mid.x + t * t * p1.x,
                    u * u * p0.y + 2.0 * u * t * mid.y + t * t * p1.y,
                )
            })
            .collect();
        painter.extend(Shape::dashed_line(
            &points,
            Stroke::new(2.0, Color32::from_rgb(200, 210, 230)),
            7.0,
            5.0,
        ));
        // A small helicopter at the top of the arc.
        let h = Pos2::new(mid.x, mid.y + lift * 0.5);
        painter.circle_filled(h, 7.0, Color32::from_rgb(220, 80, 60));
        painter.line_segment(
            [h + Vec2::new(-14.0, -9.0), h + Vec2::new(14.0, -9.0)],
            Stroke::new(2.0, Color32::from_gray(230)),
        );
        painter.line_segment(
            [h + Vec2::new(0.0, -9.0), h + Vec2::new(0.0, -6.0)],
            Stroke::new(2.0, Color32::from_gray(230)),
        );
        painter.line_segment(
            [h + Vec2::new(6.0, 0.0), h + Vec2::new(18.0, -3.0)],
            Stroke::new(2.0, Color32::from_rgb(220, 80, 60)),
        );
        painter.text(
            h + Vec2::new(0.0, 14.0),
            Align2::CENTER_TOP,
            if lang == Lang::Zh {
                format!("直升机 · {} 步", m.costs.helicopter)
            } else {
                format!("helicopter · {} steps", m.costs.helicopter)
            },
            tiny.clone(),
            Color32::from_gray(230),
        );
    }

    // Rooms.
    let pointer = response.hover_pos();
    let mut hovered = None;
    for id in m.ids() {
        let room = m.room(id);
        let rect = lay.rooms[id.0 as usize];
        let stairs = room.key.ends_with("stairs");
        let fill = match room.function {
            Some(RoomFunction::Surgery) => SURGERY,
            Some(RoomFunction::Morgue) => MORGUE,
            None if stairs => STAIRS,
            None if room.key.ends_with("roof") => ROOF.gamma_multiply(1.6),
            None => ROOM,
        };
        let reachable = marks.reach.contains_key(&id) || marks.pickable.contains(&id);
        let dim = !marks.reach.is_empty() && !reachable && marks.me.map(|m| m.0) != Some(id);
        let fill = if dim { fill.gamma_multiply(0.55) } else { fill };
        painter.rect_filled(rect, CornerRadius::same(4), fill);
        if stairs {
            // A flight of stairs drawn in the corner.
            let s = rect.height().min(rect.width()) * 0.45;
            let base = rect.right_bottom() + Vec2::new(-6.0, -4.0);
            let mut pts = vec![base];
            for i in 0..4 {
                let step = s / 4.0;
                let p = base + Vec2::new(-step * (i as f32 + 1.0), -step * i as f32);
                pts.push(p);
                pts.push(p + Vec2::new(0.0, -step));
            }
            painter.add(Shape::line(pts, Stroke::new(1.5, INK.gamma_multiply(0.6))));
        }
        if room.key.ends_with("roof") {
            // The helipad.
            let c = rect.center() + Vec2::new(0.0, 4.0);
            let r = rect.height().min(rect.width()) * 0.28;
            painter.circle_stroke(c, r, Stroke::new(2.0, Color32::from_rgb(240, 220, 90)));
            painter.text(
                c,
                Align2::CENTER_CENTER,
                "H",
                FontId::proportional(r * 1.1),
                Color32::from_rgb(240, 220, 90),
            );
        }
        if room.function == Some(RoomFunction::Surgery) {
            let c = rect.right_top() + Vec2::new(-14.0, 14.0);
            painter.rect_filled(
                Rect::from_center_size(c, Vec2::new(14.0, 4.0)),
                CornerRadius::ZERO,
                Color32::from_rgb(220, 50, 50),
            );
            painter.rect_filled(
                Rect::from_center_size(c, Vec2::new(4.0, 14.0)),
                CornerRadius::ZERO,
                Color32::from_rgb(220, 50, 50),
            );
        }
        // The room's name.
        let name_colour = match room.function {
            Some(RoomFunction::Morgue) => Color32::from_gray(240),
            _ if room.key.ends_with("roof") => Color32::from_gray(235),
            _ => INK,
        };
        let galley = painter.layout(
            room.name.get(lang).to_string(),
            small.clone(),
            name_colour,
            rect.width() - 8.0,
        );
        painter.galley(rect.left_top() + Vec2::new(4.0, 3.0), galley, name_colour);
        // What the room gives, as coloured chips.
        for (i, kind) in room.draws.iter().enumerate() {
            let c = rect.left_bottom() + Vec2::new(13.0 + 24.0 * i as f32, -13.0);
            painter.circle_filled(c, 10.0, item_colour(*kind));
            painter.text(
                c,
                Align2::CENTER_CENTER,
                item_glyph(*kind, lang),
                tiny.clone(),
                Color32::BLACK,
            );
        }
        // Where the viewer can go, and what it costs.
        if let Some(cost) = marks.reach.get(&id) {
            let glow = theme::ACCENT.gamma_multiply(0.6 + 0.4 * pulse);
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(3.0, glow),
                StrokeKind::Inside,
            );
            let badge = rect.right_bottom() + Vec2::new(-14.0, -13.0);
            painter.circle_filled(badge, 11.0, theme::ACCENT);
            painter.text(
                badge,
                Align2::CENTER_CENTER,
                cost.to_string(),
                FontId::proportional(13.0),
                Color32::BLACK,
            );
        } else if marks.pickable.contains(&id) {
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(2.0, theme::ACCENT.gamma_multiply(0.7)),
                StrokeKind::Inside,
            );
        }
        if marks.selected == Some(id) {
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(4.0, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
        if marks.flash_rooms.contains(&id) {
            let c = marks.flash_colour.unwrap_or(theme::BAD);
            painter.rect_filled(
                rect,
                CornerRadius::same(4),
                c.gamma_multiply(0.25 + 0.35 * pulse),
            );
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(3.0, c),
                StrokeKind::Inside,
            );
        }
        if pointer.is_some_and(|p| rect.contains(p)) {
            hovered = Some(id);
        }
    }

    // Gas hangs over whole floors.
    for (f, band) in &lay.floors {
        if marks.gassed.contains(f) {
            painter.rect_filled(*band, CornerRadius::ZERO, GAS);
            for i in 0..5 {
                let x = band.left() + band.width() * (0.1 + 0.2 * i as f32);
                let y = band.top() + band.height() * (0.3 + 0.15 * ((i % 2) as f32));
                painter.circle_filled(
                    Pos2::new(x, y),
                    band.height() * 0.12,
                    GAS.gamma_multiply(0.6),
                );
            }
        }
        if marks.flash_floors.contains(f) {
            painter.rect_stroke(
                *band,
                CornerRadius::same(2),
                Stroke::new(
                    4.0,
                    Color32::from_rgb(120, 230, 90).gamma_multiply(0.5 + 0.5 * pulse),
                ),
                StrokeKind::Inside,
            );
        }
    }

    // Floor labels and the ballot, outside each wing.
    for (f, band) in &lay.floors {
        let left_side = f.building % 2 == 0;
        let anchor = if left_side {
            band.left_center() + Vec2::new(-6.0, 0.0)
        } else {
            band.right_center() + Vec2::new(6.0, 0.0)
        };
        let align = if left_side {
            Align2::RIGHT_CENTER
        } else {
            Align2::LEFT_CENTER
        };
        let gassed = marks.gassed.contains(f);
        let mut label = floor_label(*f, lang);
        if gassed {
            label = format!("{label}\n{}", if lang == Lang::Zh { "毒气" } else { "gas" });
        }
        let colour = if gassed {
            Color32::from_rgb(140, 230, 110)
        } else {
            Color32::from_gray(220)
        };
        let text_rect = painter.text(anchor, align, label, small.clone(), colour);
        if marks.votable.contains(f) || marks.my_vote == Some(*f) {
            let chip = text_rect.expand(4.0);
            let voted = marks.my_vote == Some(*f);
            painter.rect_stroke(
                chip,
                CornerRadius::same(4),
                Stroke::new(if voted { 3.0 } else { 1.5 }, theme::ACCENT),
                StrokeKind::Outside,
            );
            if response.clicked()
                && marks.votable.contains(f)
                && response
                    .interact_pointer_pos()
                    .is_some_and(|p| chip.contains(p))
            {
                input.floor = Some(*f);
            }
        }
    }

    // Tokens: others first (the host seat), then the viewer's own.
    let mut slots: BTreeMap<RoomId, usize> = BTreeMap::new();
    if let Some((room, _)) = marks.me {
        slots.insert(room, 1);
    }
    for (room, number, shadow) in &marks.others {
        let slot = slots.entry(*room).or_default();
        token(
            &painter,
            lay.rooms[room.0 as usize],
            *number,
            *shadow,
            false,
            *slot,
        );
        *slot += 1;
    }
    if let Some((room, shadow)) = marks.me {
        token(
            &painter,
            lay.rooms[room.0 as usize],
            marks.my_number.unwrap_or(0),
            shadow,
            true,
            0,
        );
    }

    if let Some(id) = hovered {
        let room = m.room(id);
        let mut tip = room.name.get(lang).to_string();
        if !room.draws.is_empty() {
            let names: Vec<&str> = room
                .draws
                .iter()
                .map(|k| items().get(*k).name.get(lang))
                .collect();
            tip.push_str(&format!(
                "\n{}{}",
                if lang == Lang::Zh {
                    "可抽："
                } else {
                    "Draws: "
                },
                names.join(", ")
            ));
        }
        if let Some(cost) = marks.reach.get(&id) {
            tip.push_str(&if lang == Lang::Zh {
                format!("\n{cost} 步可达")
            } else {
                format!("\n{cost} step(s) away")
            });
        }
        let response = response.clone().on_hover_text(tip);
        if response.clicked() && (marks.reach.contains_key(&id) || marks.pickable.contains(&id)) {
            input.room = Some(id);
        }
    }
    input
}

fn token(
    painter: &egui::Painter,
    rect: Rect,
    number: usize,
    shadow: bool,
    mine: bool,
    slot: usize,
) {
    let c = rect.right_top() + Vec2::new(-16.0 - 22.0 * slot as f32, 30.0);
    let fill = match (shadow, mine) {
        (true, _) => Color32::from_rgba_premultiplied(90, 70, 130, 200),
        (false, true) => Color32::from_rgb(230, 70, 60),
        (false, false) => Color32::from_rgb(70, 110, 200),
    };
    painter.circle_filled(c + Vec2::new(1.5, 2.0), 12.0, Color32::from_black_alpha(90));
    painter.circle_filled(c, 12.0, fill);
    painter.circle_stroke(
        c,
        12.0,
        Stroke::new(if mine { 2.5 } else { 1.5 }, Color32::WHITE),
    );
    painter.text(
        c,
        Align2::CENTER_CENTER,
        number.to_string(),
        FontId::proportional(13.0),
        Color32::WHITE,
    );
}
