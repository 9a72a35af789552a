//! Crueler World's table as sprites: the seats' plates round a wooden oval
//! (yours at the bottom), each with its closed life box; the 13-sided die
//! and N on the felt; your own box opened between phases with its tokens;
//! your predator cards along the bottom; in a duel of yours, the beasts to
//! choose from and the last throw in the middle.
//!
//! What moves, from the view alone: the die rolls when the view shows a
//! new number; the two beasts of a new throw clash; your tokens come from
//! the referee (the middle) when your box shows more of them and go back
//! when it shows fewer (the referee keeps every box during a phase, so the
//! view shows none then). Nothing moves for what the view does not show.

use std::f32::consts::{PI, TAU};

use crate::client::scene::SceneInputs;
use bevy::prelude::*;
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::HostGame;
use foodweb_rules::GameId;
use foodweb_rules::crueler::{Beast, CruelerAction, CruelerPhase, CruelerView, DuelView};
use foodweb_rules::crueler::{CruelerGame, CruelerSettings};
use foodweb_rules::table::SeatId;

use super::art::{CruelerArt, Img};
use super::inspect;
use super::panels::{CruelerUi, act};
use crate::client::net::SeatSide;
use crate::client::reach::{Does, Target};
use crate::client::scene::inspect::Inspect;
use crate::client::scene::pieces::{
    self, Change, Matcher, PiecePick, Placed, Stamp, Veiled, spawn_want,
};
use crate::client::scene::{
    Home, Lift, Motion, SceneSystems, Settling, Words, finish_motions, reset,
};
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme};

/// A predator card at its full size, in world units.
pub const CARD: Vec2 = Vec2::new(74.0, 104.0);

/// Every piece of the scene has a key: the layout's pieces are matched to
/// the sprites already there by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Table,
    Seat(SeatId),
    Die,
    N,
    Tray,
    /// One token of the viewer's box: its mark (`None` the bank's) and its
    /// place in that mark's stack.
    Token(Option<SeatId>, u32),
    Card(SeatId),
    /// A beast to choose in the viewer's duel.
    Choice(Beast),
    /// The last throw of the viewer's duel: 0 the viewer's beast, 1 the
    /// opponent's.
    Throw(u8),
    /// A caption.
    Label(u8),
}

/// What tapping a piece does.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    Seat(SeatId),
    Card(SeatId),
    Beast(Beast),
}

/// The die rolling: it spins and swells, its number hidden until it ends.
#[derive(Component, Clone, Copy, Debug)]
pub struct Roll {
    start: f32,
    secs: f32,
}

/// A beast of a new throw rushing at the other and back.
#[derive(Component, Clone, Copy, Debug)]
pub struct Clash {
    start: f32,
    secs: f32,
    toward: Vec2,
}

/// A token leaving the box: it goes when its motion ends.
#[derive(Component)]
pub struct Leaving;

type Want = pieces::Want<Key, Img, Pick>;
type Part = pieces::Part<Img>;
type Piece = pieces::Piece<Key>;

impl PiecePick for Pick {
    fn lift(&self) -> Lift {
        Lift {
            on: false,
            rise: if matches!(self, Pick::Seat(_)) {
                0.0
            } else {
                8.0
            },
            zoom: 1.06,
        }
    }
}

use crate::client::scene::colour;

const CREAM: Color = Color::srgb(0.98, 0.925, 0.82);
const OUT_GREY: Color = Color::srgb(0.67, 0.67, 0.67);

fn name(i18n: &I18n, view: &CruelerView, seat: SeatId) -> String {
    view.names
        .get(seat.index())
        .map_or_else(|| format!("{seat}"), |n| i18n.name(n))
}

/// Whether the viewer, out of the game, may give a predator card away.
pub fn giving(view: &CruelerView) -> bool {
    let alive = view.me.is_some_and(|s| view.alive[s.index()]);
    view.me.is_some()
        && !alive
        && view.phase != CruelerPhase::GameOver
        && view.phase != CruelerPhase::Duel
}

/// Whether the viewer, out of the game, may give away the card engraved
/// with `c`: a card of a living player, to some other living player
/// (rules.md §3: "a card that could prey on nobody ... is refused").
pub fn givable(view: &CruelerView, c: SeatId) -> bool {
    let alive = |s: SeatId| view.alive.get(s.index()).copied().unwrap_or(false);
    giving(view)
        && alive(c)
        && (0..view.alive.len()).any(|i| SeatId(i as u8) != c && alive(SeatId(i as u8)))
}

/// The seats a tap on a plate acts on: those the viewer may prey on, or,
/// with a card picked to give away, every other living seat.
pub fn clickable(view: &CruelerView, card: Option<SeatId>) -> Vec<SeatId> {
    if giving(view) && card.is_some() {
        (0..view.alive.len())
            .map(|i| SeatId(i as u8))
            .filter(|s| view.alive[s.index()] && card != Some(*s))
            .collect()
    } else {
        view.targets.clone()
    }
}

/// What the layout places, with where the referee sits (the middle).
struct Layout {
    wants: Vec<Want>,
    middle: Vec2,
}

/// Lays the view out in `r`: the bottom strip (the beasts to choose in a
/// duel, else the viewer's cards), then the table in the rest.
fn layout(view: &CruelerView, card: Option<SeatId>, i18n: &I18n, r: Rect) -> Layout {
    let mut wants = Vec::new();
    let narrow = r.width() < 600.0;
    let choosing = view.duel.as_ref().is_some_and(|d| !d.chosen);
    let strip_top = if choosing {
        beast_choices(i18n, r, &mut wants)
    } else if view.me.is_some() && view.phase != CruelerPhase::GameOver {
        my_cards(view, card, i18n, r, &mut wants)
    } else {
        r.min.y
    };
    let oval = Oval::new(
        view,
        Rect::new(r.min.x, strip_top, r.max.x, r.max.y),
        narrow,
    );
    wants.push(Want::new(
        Key::Table,
        Img::Table,
        Vec2::new(oval.rx * 2.0 * 400.0 / 352.0, oval.ry * 2.0 * 260.0 / 214.0),
        oval.c,
        0.0,
    ));
    let my_plate = plates(view, card, i18n, &oval, &mut wants);
    match &view.duel {
        Some(d) => duel(view, i18n, d, &oval, &mut wants),
        None => die_and_n(view, i18n, &oval, &mut wants),
    }
    if !view.my_tokens.is_empty() {
        tray(view, i18n, &oval, my_plate, narrow, &mut wants);
    }
    Layout {
        wants,
        middle: oval.c,
    }
}

/// The three beasts to choose from in the viewer's duel, along the bottom;
/// returns the strip's top.
fn beast_choices(i18n: &I18n, r: Rect, wants: &mut Vec<Want>) -> f32 {
    let lang = i18n.lang;
    let s = ((r.width() - 24.0) / 3.0 - 10.0).clamp(64.0, 110.0);
    let y = r.min.y + 8.0 + 14.0 + s / 2.0;
    for (k, b) in Beast::ALL.into_iter().enumerate() {
        let x = r.center().x + (k as f32 - 1.0) * (s + 12.0);
        let mut w = Want::new(
            Key::Choice(b),
            Img::Beast(b),
            Vec2::splat(s),
            Vec2::new(x, y),
            40.0,
        );
        let n = b.name();
        w.parts.push(Part::text(
            n.zh.clone(),
            Vec2::new(0.0, s * 0.06),
            s * 0.36,
            Color::BLACK,
            s,
        ));
        w.parts.push(Part::text(
            n.en.clone(),
            Vec2::new(0.0, -s * 0.27),
            s * 0.13,
            Color::BLACK,
            s,
        ));
        let beats = Beast::ALL
            .into_iter()
            .find(|o| b.beats(*o))
            .expect("each beast beats one");
        w.parts.push(Part::text(
            i18n.ta(
                "crueler-beats",
                &[("beast", beats.name().get(lang).to_string().into())],
            ),
            Vec2::new(0.0, -s / 2.0 - 10.0),
            12.0,
            theme_text(),
            s + 10.0,
        ));
        w.pick = Some(Pick::Beast(b));
        wants.push(w);
    }
    y + s / 2.0 + 6.0
}

/// The viewer's predator cards along the bottom (two rows on a phone),
/// with their caption; returns the strip's top.
fn my_cards(
    view: &CruelerView,
    card: Option<SeatId>,
    i18n: &I18n,
    r: Rect,
    wants: &mut Vec<Want>,
) -> f32 {
    let narrow = r.width() < 600.0;
    let n = view.my_cards.len();
    let span = r.width() - 16.0;
    let rows = if narrow && n > 6 { 2 } else { 1 };
    let per_row = n.div_ceil(rows).max(1);
    let scale = if narrow {
        ((span / per_row as f32 - 6.0) / CARD.x).clamp(0.5, 0.8)
    } else {
        1.0
    };
    let size = CARD * scale;
    let row_h = size.y + 6.0;
    let preying = view.phase == CruelerPhase::Predation && view.to_act;
    for (k, &c) in view.my_cards.iter().enumerate() {
        let (row, k_in) = (k / per_row, k % per_row);
        let in_row = if row + 1 < rows {
            per_row
        } else {
            n - row * per_row
        };
        let step = if in_row > 1 {
            ((span - size.x) / (in_row - 1) as f32).min(size.x + 6.0)
        } else {
            0.0
        };
        let total = size.x + step * in_row.saturating_sub(1) as f32;
        let x = r.center().x - total / 2.0 + size.x / 2.0 + step * k_in as f32;
        let y = r.min.y + 6.0 + size.y / 2.0 + (rows - 1 - row) as f32 * row_h;
        let preyable = view.targets.contains(&c);
        let enabled = preyable || givable(view, c);
        let mut w = Want::new(
            Key::Card(c),
            Img::Card,
            size,
            Vec2::new(x, y),
            40.0 + k as f32,
        );
        if !enabled {
            w.tint = if preying {
                Color::srgb(0.55, 0.5, 0.5)
            } else {
                Color::srgb(0.85, 0.82, 0.8)
            };
        }
        card_face(&mut w, view, i18n, c, card == Some(c), scale);
        if enabled {
            w.pick = Some(Pick::Card(c));
        }
        wants.push(w);
    }
    let cards_top = r.min.y + 6.0 + rows as f32 * row_h;
    let caption = if n == 0 {
        format!(
            "{}: {}",
            i18n.t("crueler-your-cards"),
            i18n.t("crueler-none-left")
        )
    } else {
        i18n.t("crueler-your-cards")
    };
    let mut w = Want::new(
        Key::Label(0),
        Img::None,
        Vec2::ZERO,
        Vec2::new(
            r.center().x,
            if n == 0 {
                r.min.y + 14.0
            } else {
                cards_top + 8.0
            },
        ),
        45.0,
    );
    w.parts.push(Part::text(
        caption,
        Vec2::ZERO,
        13.0,
        colour(theme::MUTED),
        r.width() - 16.0,
    ));
    wants.push(w);
    if n == 0 {
        r.min.y + 26.0
    } else {
        cards_top + 18.0
    }
}

/// A predator card's face: its seat number in the corner and the middle,
/// the seat's name, and an outline when it is picked to give away.
fn card_face(w: &mut Want, view: &CruelerView, i18n: &I18n, c: SeatId, picked: bool, scale: f32) {
    let size = w.size;
    if picked {
        w.parts.push(Part::Sprite {
            img: Img::Card,
            at: Vec2::ZERO,
            size: size + Vec2::splat(8.0),
            tint: colour(theme::ACCENT),
            z: -0.5,
        });
    }
    w.parts.push(Part::text(
        c.to_string(),
        Vec2::new(-size.x / 2.0 + 18.0 * scale, size.y / 2.0 - 22.0 * scale),
        24.0 * scale,
        CREAM,
        30.0 * scale,
    ));
    w.parts.push(Part::text(
        c.to_string(),
        Vec2::new(0.0, -2.0 * scale),
        34.0 * scale,
        CREAM,
        size.x,
    ));
    w.parts.push(Part::Text {
        words: Words {
            text: name(i18n, view, c),
            at: Vec2::new(0.0, -size.y / 2.0 + 16.0 * scale),
            size: (12.0 * scale).max(9.0),
            colour: CREAM,
            width: size.x - 8.0,
        },
        left: false,
        typed: true,
        veiled: false,
    });
}

/// The wooden oval in the room the strip left, and the plates round it.
struct Oval {
    area: Rect,
    c: Vec2,
    plate: Vec2,
    /// The plates' scale against their full size.
    k: f32,
    /// The radii the plates' centres stand on.
    prx: f32,
    pry: f32,
    /// The oval's radii.
    rx: f32,
    ry: f32,
}

impl Oval {
    /// The largest plates that do not cover each other (smaller with many
    /// seats on a phone) round the largest oval that leaves them room.
    fn new(view: &CruelerView, area: Rect, narrow: bool) -> Self {
        let c = area.center();
        let seats = view.alive.len().max(1);
        let smallest = if narrow { 96.0 } else { 128.0 };
        let radii = |plate: Vec2| {
            (
                (area.width() * 0.40).min(area.width() / 2.0 - plate.x / 2.0 - 4.0),
                (area.height() * 0.38).min(area.height() / 2.0 - plate.y / 2.0 - 4.0),
            )
        };
        // Smaller plates while they would cover each other (many seats on a
        // phone).
        let mut plate_w = (area.width() * 0.11).clamp(smallest, 180.0);
        for _ in 0..8 {
            let plate = Vec2::new(plate_w, 74.0 * plate_w / 128.0);
            let (a, b) = radii(plate);
            let room = plate_run(a, b, plate)[PLATE_STEPS] / seats as f32;
            if room >= 1.2 || plate_w < 60.0 {
                break;
            }
            plate_w *= (room / 1.2).max(0.9);
        }
        let plate = Vec2::new(plate_w, 74.0 * plate_w / 128.0);
        let k = plate_w / 128.0;
        let (prx, pry) = radii(plate);
        let (rx, ry) = (
            (prx - plate.x * 0.2).max(60.0),
            (pry - plate.y * 0.35).max(50.0),
        );
        Self {
            area,
            c,
            plate,
            k,
            prx,
            pry,
            rx,
            ry,
        }
    }
}

/// Every seat's plate round the oval, the viewer's at the bottom; returns
/// where the viewer's plate stands.
fn plates(
    view: &CruelerView,
    card: Option<SeatId>,
    i18n: &I18n,
    oval: &Oval,
    wants: &mut Vec<Want>,
) -> Vec2 {
    let Oval {
        c, plate, prx, pry, ..
    } = *oval;
    let me = view.me;
    let seats = view.alive.len().max(1);
    let duelists: Vec<SeatId> = view
        .duel
        .as_ref()
        .map(|d| vec![d.predator, d.prey])
        .unwrap_or_default();
    let picks = clickable(view, card);
    let me_index = me.map_or(0, |s| s.index());
    let mut my_plate = Vec2::new(c.x, c.y - pry);
    let angles = seat_angles(seats, prx, pry, plate);
    for i in 0..view.alive.len() {
        let seat = SeatId(i as u8);
        let turn = (i + seats - me_index) % seats;
        let a = angles[turn];
        let at = Vec2::new(c.x + prx * a.cos(), c.y + pry * a.sin());
        let mine = me == Some(seat);
        if mine {
            my_plate = at;
        }
        let mut w = plate_of(view, i18n, oval, seat, at, &picks, &duelists);
        if picks.contains(&seat) {
            w.pick = Some(Pick::Seat(seat));
        }
        wants.push(w);
    }
    my_plate
}

/// One seat's plate: its number, name and life box, tinted and bordered
/// by what it is to the viewer.
fn plate_of(
    view: &CruelerView,
    i18n: &I18n,
    oval: &Oval,
    seat: SeatId,
    at: Vec2,
    picks: &[SeatId],
    duelists: &[SeatId],
) -> Want {
    let Oval { plate, k, .. } = *oval;
    let i = seat.index();
    let mine = view.me == Some(seat);
    let alive = view.alive[i];
    let mut w = Want::new(
        Key::Seat(seat),
        Img::Plate,
        plate,
        at,
        10.0 + i as f32 * 0.1,
    );
    w.tint = if !alive {
        Color::srgb_u8(60, 60, 60)
    } else if mine {
        Color::srgb_u8(96, 80, 50)
    } else {
        Color::srgb_u8(48, 58, 50)
    };
    let can_click = picks.contains(&seat);
    let border = if view.asked == Some(seat) {
        Some(colour(theme::ACCENT))
    } else if duelists.contains(&seat) {
        Some(colour(theme::BAD))
    } else if can_click {
        Some(Color::srgb_u8(240, 120, 90))
    } else {
        None
    };
    if let Some(b) = border {
        w.parts.push(Part::Sprite {
            img: Img::Plate,
            at: Vec2::ZERO,
            size: plate + Vec2::splat(7.0),
            tint: b,
            z: -0.05,
        });
    }
    let top_left = Vec2::new(-plate.x / 2.0, plate.y / 2.0);
    let disc = top_left + Vec2::new(16.0, -16.0) * k;
    w.parts.push(Part::Sprite {
        img: Img::N,
        at: disc,
        size: Vec2::splat(24.0 * k),
        tint: if alive { Color::WHITE } else { OUT_GREY },
        z: 0.1,
    });
    w.parts.push(Part::text(
        seat.to_string(),
        disc,
        14.0 * k,
        Color::BLACK,
        24.0 * k,
    ));
    w.parts.push(Part::Text {
        words: Words {
            text: name(i18n, view, seat),
            at: top_left + Vec2::new(32.0, -16.0) * k,
            size: (14.0 * k).max(9.0),
            colour: if alive { colour(theme::TEXT) } else { OUT_GREY },
            width: plate.x - 36.0 * k,
        },
        left: true,
        typed: true,
        veiled: false,
    });
    life_box(view, i18n, &mut w, seat, mine, top_left, k);
    let mut marks = Vec::new();
    if view.reserve[i] {
        marks.push(i18n.t("crueler-reserve"));
    }
    // Card counts are secret (rules.md §3): only your own is shown.
    if mine {
        marks.push(i18n.ta("crueler-card-count", &[("n", view.my_cards.len().into())]));
    }
    if !marks.is_empty() {
        w.parts.push(Part::Text {
            words: Words {
                text: marks.join("\n"),
                at: top_left + Vec2::new(62.0, -48.0) * k,
                size: (11.0 * k).max(9.0),
                colour: colour(theme::MUTED),
                width: plate.x - 64.0 * k,
            },
            left: true,
            typed: false,
            veiled: false,
        });
    }
    w
}

/// A plate's life box: the viewer's own life, everyone's score at the
/// end, "?" otherwise; "out" once the seat is out.
fn life_box(
    view: &CruelerView,
    i18n: &I18n,
    w: &mut Want,
    seat: SeatId,
    mine: bool,
    top_left: Vec2,
    k: f32,
) {
    let i = seat.index();
    let alive = view.alive[i];
    let bx = top_left + Vec2::new(8.0 + 23.0, -34.0 - 15.0) * k;
    if alive {
        w.parts.push(Part::Sprite {
            img: Img::Box,
            at: bx,
            size: Vec2::new(46.0, 30.0) * k,
            tint: Color::WHITE,
            z: 0.1,
        });
        // Your own box shows your life; at the end every box is opened.
        let label = match (&view.result, mine, view.my_life) {
            (Some(res), _, _) => res.scores[i].to_string(),
            (None, true, Some(l)) => l.to_string(),
            _ => "?".into(),
        };
        w.parts.push(Part::text(
            label,
            bx + Vec2::new(0.0, -3.0 * k),
            16.0 * k,
            CREAM,
            46.0 * k,
        ));
    } else {
        w.parts.push(Part::text(
            i18n.t("crueler-out"),
            bx,
            14.0 * k,
            OUT_GREY,
            60.0 * k,
        ));
    }
}

/// The viewer's duel in the middle: the score, the two names, and the
/// last throw's beasts.
fn duel(view: &CruelerView, i18n: &I18n, d: &DuelView, oval: &Oval, wants: &mut Vec<Want>) {
    let Oval {
        c,
        plate,
        prx,
        rx,
        ry,
        ..
    } = *oval;
    let me = view.me;
    let gap = (rx * 0.28).clamp(36.0, 60.0);
    let mine_side = if Some(d.predator) == me { 0 } else { 1 };
    let opponent = if mine_side == 0 { d.prey } else { d.predator };
    // Between the middle and the plates at its sides, whole.
    let room = prx - plate.x / 2.0 - 6.0 - gap;
    let s = (ry * 0.7).min(room).clamp(36.0, 80.0);
    let mut score = Want::new(Key::Label(1), Img::None, Vec2::ZERO, c, 35.0);
    score.parts.push(Part::text(
        format!("{} : {}", d.wins[mine_side], d.wins[1 - mine_side]),
        Vec2::ZERO,
        20.0,
        colour(theme::ACCENT),
        60.0,
    ));
    score.parts.push(Part::Text {
        words: Words {
            text: format!(
                "{} · {}",
                me.map(|s| name(i18n, view, s)).unwrap_or_default(),
                name(i18n, view, opponent)
            ),
            at: Vec2::new(0.0, s / 2.0 + 14.0),
            size: 13.0,
            colour: colour(theme::TEXT),
            width: rx * 1.6,
        },
        left: false,
        typed: true,
        veiled: false,
    });
    wants.push(score);
    if let Some(&(a, b)) = d.throws.last() {
        let (mine, theirs) = if mine_side == 0 { (a, b) } else { (b, a) };
        for (side, beast, x) in [(0u8, mine, -1.0), (1u8, theirs, 1.0)] {
            let mut w = Want::new(
                Key::Throw(side),
                Img::Beast(beast),
                Vec2::splat(s),
                c + Vec2::new(x * (gap + s / 2.0), 0.0),
                36.0,
            );
            let n = beast.name();
            w.parts.push(Part::text(
                n.zh.clone(),
                Vec2::new(0.0, s * 0.04),
                s * 0.4,
                Color::BLACK,
                s,
            ));
            // The throw's number in the look: each throw clashes anew.
            w.parts.push(Part::text(
                String::new(),
                Vec2::ZERO,
                1.0,
                Color::NONE,
                d.throws.len() as f32,
            ));
            wants.push(w);
        }
    }
}

/// The middle out of a duel: the die, N at stake, and whether a duel is
/// under way elsewhere.
fn die_and_n(view: &CruelerView, i18n: &I18n, oval: &Oval, wants: &mut Vec<Want>) {
    let Oval { c, rx, ry, .. } = *oval;
    let gap = (rx * 0.28).clamp(36.0, 60.0);
    if let Some(die) = view.die {
        let mut w = Want::new(
            Key::Die,
            Img::Die,
            Vec2::splat(62.0),
            c - Vec2::new(gap, 0.0),
            30.0,
        );
        w.parts.push(Part::Text {
            words: Words {
                text: die.to_string(),
                at: Vec2::ZERO,
                size: 28.0,
                colour: Color::srgb_u8(150, 30, 30),
                width: 50.0,
            },
            left: false,
            typed: false,
            veiled: true,
        });
        w.parts.push(Part::text(
            i18n.t("crueler-die"),
            Vec2::new(0.0, -44.0),
            11.0,
            Color::srgb_u8(220, 220, 220),
            90.0,
        ));
        wants.push(w);
    }
    let mut w = Want::new(
        Key::N,
        Img::N,
        Vec2::splat(62.0),
        c + Vec2::new(gap, 0.0),
        30.0,
    );
    w.parts.push(Part::text(
        format!("N={}", view.n),
        Vec2::new(0.0, 6.0),
        19.0,
        Color::BLACK,
        60.0,
    ));
    w.parts.push(Part::text(
        i18n.t("crueler-at-stake"),
        Vec2::new(0.0, -14.0),
        10.0,
        Color::BLACK,
        56.0,
    ));
    wants.push(w);
    if view.dueling {
        let mut w = Want::new(
            Key::Label(2),
            Img::None,
            Vec2::ZERO,
            c + Vec2::new(0.0, ry * 0.6),
            35.0,
        );
        w.parts.push(Part::text(
            i18n.t("crueler-duel-under-way"),
            Vec2::ZERO,
            15.0,
            colour(theme::BAD),
            rx * 1.6,
        ));
        wants.push(w);
    }
}

/// The viewer's open box, between the middle and the viewer's plate: one
/// stack of tokens per mark.
fn tray(
    view: &CruelerView,
    i18n: &I18n,
    oval: &Oval,
    my_plate: Vec2,
    narrow: bool,
    wants: &mut Vec<Want>,
) {
    let Oval {
        area,
        c,
        plate,
        rx,
        ry,
        ..
    } = *oval;
    let me = view.me;
    let groups = view.my_tokens.len();
    let token = if narrow { 16.0 } else { 20.0 };
    let room = (rx * 1.5).min(area.width() - 16.0);
    // Room for a label such as "bank ×6" under each stack.
    let pitch = ((room - 16.0) / groups as f32).min(token + 26.0);
    let tray = Vec2::new((pitch * groups as f32 + 16.0).max(84.0), token + 44.0);
    let y = (my_plate.y + plate.y / 2.0 + tray.y / 2.0 + 4.0).max(c.y - ry + tray.y / 2.0);
    let at = Vec2::new(
        c.x,
        y.min(c.y - 44.0 - tray.y / 2.0)
            .max(my_plate.y + tray.y / 2.0),
    );
    wants.push(Want::new(Key::Tray, Img::Tray, tray, at, 18.0));
    for (g, (mark, count)) in view.my_tokens.iter().enumerate() {
        let x = at.x - tray.x / 2.0 + 8.0 + pitch * (g as f32 + 0.5);
        let lift = (18.0 / *count as f32).min(2.5);
        let base = Vec2::new(x, at.y - tray.y / 2.0 + 12.0 + token / 2.0);
        let tint = match mark {
            None => colour(theme::ACCENT),
            Some(s) if Some(*s) == me => Color::WHITE,
            Some(_) => Color::srgb(0.75, 0.85, 1.0),
        };
        for t in 0..*count {
            let mut w = Want::new(
                Key::Token(*mark, t),
                Img::Token,
                Vec2::splat(token),
                base + Vec2::new(0.0, lift * t as f32),
                20.0 + t as f32 * 0.01,
            );
            w.tint = tint;
            wants.push(w);
        }
        let label = match mark {
            None => i18n.t("crueler-bank"),
            Some(s) => s.to_string(),
        };
        let mut w = Want::new(
            Key::Label(10 + g as u8),
            Img::None,
            Vec2::ZERO,
            Vec2::new(x, at.y - tray.y / 2.0 + 6.0),
            21.0,
        );
        w.parts.push(Part::text(
            format!("{label} ×{count}"),
            Vec2::ZERO,
            10.0,
            CREAM,
            pitch + 4.0,
        ));
        wants.push(w);
    }
}

const PLATE_STEPS: usize = 720;

/// The way round the oval from the bottom, clockwise, in plates (a step
/// across counts a plate's width, a step up a plate's height), at each of
/// `PLATE_STEPS` equal turns.
fn plate_run(rx: f32, ry: f32, plate: Vec2) -> Vec<f32> {
    let at = |k: usize| {
        let a = -TAU / 4.0 - TAU * k as f32 / PLATE_STEPS as f32;
        Vec2::new(rx * a.cos(), ry * a.sin())
    };
    let mut run = vec![0.0f32; PLATE_STEPS + 1];
    for k in 1..=PLATE_STEPS {
        let d = (at(k) - at(k - 1)).abs() / plate;
        run[k] = run[k - 1] + d.x.max(d.y);
    }
    run
}

/// The seats' angles round the oval, the viewer's (0) at the bottom, then
/// clockwise: spaced evenly in plates rather than in degrees, so that the
/// plates along a narrow oval's top and bottom do not cover each other.
fn seat_angles(seats: usize, rx: f32, ry: f32, plate: Vec2) -> Vec<f32> {
    let run = plate_run(rx, ry, plate);
    let total = run[PLATE_STEPS];
    let mut k = 0;
    (0..seats)
        .map(|s| {
            let goal = total * s as f32 / seats as f32;
            while k < PLATE_STEPS && run[k + 1] <= goal {
                k += 1;
            }
            -TAU / 4.0 - TAU * k as f32 / PLATE_STEPS as f32
        })
        .collect()
}

fn theme_text() -> Color {
    colour(theme::TEXT)
}

/// What the scene was last built from.
#[derive(Resource, Default)]
struct Built {
    stamp: Stamp,
    card: Option<SeatId>,
    die: Option<u8>,
    phase: Option<CruelerPhase>,
    throws: usize,
}

type Pieces<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Piece,
        &'static Transform,
        Has<Motion>,
        Has<Roll>,
        Has<Clash>,
        Has<Leaving>,
    ),
>;

/// The die's number (hidden while it rolls) and its piece.
type RollTexts<'w, 's> = Query<
    'w,
    's,
    (&'static mut Visibility, &'static ChildOf),
    (With<Veiled>, Without<crate::client::scene::FaceOnly>),
>;

/// What moves in with a new layout: whether the die rolls and the duel's
/// beasts clash.
struct Moves {
    rolls: bool,
    clashes: bool,
    middle: Vec2,
}

/// The view's newest layout, moved into place.
#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    mut scene: SceneInputs,
    ui: Res<CruelerUi>,
    art: Option<Res<CruelerArt>>,
    mut built: ResMut<Built>,
    pieces: Pieces,
    mut sprites: Query<&mut Sprite>,
    mut faces: Query<(&mut Visibility, &ChildOf), With<crate::client::scene::FaceOnly>>,
    mut hidden: RollTexts,
) {
    let (Some(view), Some(art), Some(r)) =
        (scene.model.view_of::<CruelerGame>(), art, scene.rect.0)
    else {
        return;
    };
    let stamp = scene.stamp(r);
    let Some(change) = built
        .stamp
        .change(&stamp, built.card != ui.card, &scene.settings)
    else {
        return;
    };
    let fonts = scene.piece_fonts();
    let now = scene.time.elapsed_secs();
    if change.new_update {
        // Whatever still moves from the last update goes where it was going.
        let moving: Vec<(Entity, Option<crate::client::scene::Flip>)> = pieces
            .iter()
            .filter(|p| p.3 || p.4 || p.5)
            .map(|p| (p.0, None))
            .collect();
        for (e, ..) in pieces.iter().filter(|p| p.4 || p.5) {
            commands.entity(e).remove::<(Roll, Clash)>();
        }
        for (mut v, parent) in &mut hidden {
            if moving.iter().any(|(e, _)| *e == parent.parent()) {
                *v = Visibility::Inherited;
            }
        }
        finish_motions(&mut commands, moving.into_iter(), &mut sprites, &mut faces);
        scene.settling.update_at = Some(now);
    }
    let Layout { mut wants, middle } = layout(view, ui.card, &scene.i18n, r);
    let seat_of = |k: &Key| match k {
        Key::Seat(s) => Some(*s),
        _ => None,
    };
    let away = &scene.i18n.t("lobby-away");
    crate::client::scene::pieces::mark_away(&mut wants, stamp.away, seat_of, away);
    let defaults = CruelerSettings::default();
    let settings = scene
        .model
        .lobby
        .as_ref()
        .and_then(|l| CruelerGame::unwrap_settings(&l.settings))
        .unwrap_or(&defaults);
    for want in &mut wants {
        want.inspect = inspect_of(want.key, view, settings, &scene.i18n);
    }
    let moves = moves(view, &built, &change, middle);
    // A token leaving the box is gone at once when a newer update arrives;
    // a resize lets it finish its way.
    for (e, ..) in pieces.iter().filter(|p| p.6 && change.new_update) {
        commands.entity(e).despawn();
    }
    let mut matcher = Matcher::new(
        pieces.iter().filter(|p| !p.6).map(|p| (p.0, p.1, p.2)),
        change.secs,
        now,
    );
    for want in &wants {
        let rolling = moves.rolls && want.key == Key::Die;
        let placed = matcher.place(&mut commands, want, change.relabel, |c| {
            spawn_want(c, &*art, &fonts, scene.i18n.lang, want, rolling, tap)
        });
        if let Placed::Made { entity, was } = placed {
            let from = match (was, want.key) {
                (Some(t), _) => Some(t),
                // A token put in the box: from the referee.
                (None, Key::Token(..)) => Some(from_referee(middle, want.at)),
                _ => None,
            };
            if let Some(from) = from {
                matcher.glide(&mut commands, entity, from, 0.0, want.at);
            }
        }
        let entity = placed.entity();
        if let Some(t) = target_of(view, ui.card, want) {
            commands.entity(entity).insert(t);
        }
        pieces::dress(&mut commands, &*art, entity, want);
        start_moves(
            &mut commands,
            entity,
            want,
            &moves,
            rolling,
            now,
            change.secs,
        );
    }
    for (key, e, t) in matcher.gone() {
        if change.secs > 0.0 && matches!(key, Key::Token(..)) {
            // A token taken from the box: back to the referee.
            let to = from_referee(middle, t);
            commands.entity(e).insert((
                Leaving,
                Home(to),
                Motion {
                    from: t,
                    start: now,
                    delay: 0.0,
                    secs: change.secs,
                },
            ));
        } else {
            commands.entity(e).despawn();
        }
    }
    *built = Built {
        stamp,
        card: ui.card,
        die: view.die,
        phase: Some(view.phase),
        throws: view.duel.as_ref().map_or(0, |d| d.throws.len()),
    };
}

/// Where the referee hands a token from (and takes it back to): the
/// middle, small, on the token's layer.
fn from_referee(middle: Vec2, at: Transform) -> Transform {
    Transform::from_translation(middle.extend(at.translation.z)).with_scale(Vec3::splat(0.6))
}

/// Whether the die rolls (the view shows a new number, or a predation
/// phase begins) and the beasts of a new throw clash: only with motion on
/// and for a new update.
fn moves(view: &CruelerView, built: &Built, change: &Change, middle: Vec2) -> Moves {
    let phase_begins = view.phase == CruelerPhase::Predation
        && !matches!(
            built.phase,
            Some(CruelerPhase::Predation | CruelerPhase::Duel)
        );
    let fresh = change.secs > 0.0 && change.new_update;
    let throws = view.duel.as_ref().map_or(0, |d| d.throws.len());
    Moves {
        rolls: fresh && view.die.is_some() && (view.die != built.die || phase_begins),
        clashes: fresh && throws > built.throws,
        middle,
    }
}

/// Starts the die's roll and a throw's clash on their pieces.
fn start_moves(
    commands: &mut Commands,
    entity: Entity,
    want: &Want,
    moves: &Moves,
    rolling: bool,
    now: f32,
    secs: f32,
) {
    if rolling {
        commands.entity(entity).insert(Roll { start: now, secs });
    }
    if moves.clashes
        && let Key::Throw(_) = want.key
    {
        let toward = moves.middle - want.at.translation.truncate();
        commands.entity(entity).insert(Clash {
            start: now,
            secs,
            toward: toward - toward.normalize_or_zero() * want.size.x * 0.45,
        });
    }
}

/// The die's roll and the beasts' clash, on top of the shared motion; a
/// token that left the box goes once it reached the referee.
#[allow(clippy::type_complexity)]
fn animate(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut rolls: Query<(Entity, &mut Transform, &Roll, &Children), Without<Clash>>,
    mut clashes: Query<(Entity, &mut Transform, &Clash), Without<Roll>>,
    mut hidden: Query<&mut Visibility, With<Veiled>>,
    gone: Query<Entity, (With<Leaving>, Without<Motion>)>,
    mut settling: ResMut<Settling>,
) {
    let now = time.elapsed_secs();
    for (e, mut t, roll, children) in &mut rolls {
        let p = (now - roll.start) / roll.secs.max(1e-3);
        if p >= 1.0 {
            commands.entity(e).remove::<Roll>();
            for child in children {
                if let Ok(mut v) = hidden.get_mut(*child) {
                    *v = Visibility::Inherited;
                }
            }
        } else {
            t.rotate_z(p * TAU * 1.5);
            t.scale *= 1.0 + 0.3 * (PI * p).sin();
            settling.moving = true;
        }
    }
    for (e, mut t, clash) in &mut clashes {
        let p = (now - clash.start) / clash.secs.max(1e-3);
        if p >= 1.0 {
            commands.entity(e).remove::<Clash>();
        } else {
            let off = clash.toward * (PI * p).sin();
            t.translation += off.extend(0.0);
            settling.moving = true;
        }
    }
    for e in &gone {
        commands.entity(e).despawn();
    }
}

/// A tap on a seat preys on it (or gives it the picked card); on a card,
/// preys with it (or picks it to give away); on a beast, chooses it.
fn tap(
    ev: On<crate::client::scene::Tap>,
    picks: Query<&Pick>,
    model: Res<ClientModel>,
    mut ui: ResMut<CruelerUi>,
    mut outbox: ResMut<Outbox>,
) {
    let (Ok(pick), Some(view)) = (picks.get(ev.entity), model.view_of::<CruelerGame>()) else {
        return;
    };
    let action = match *pick {
        Pick::Seat(seat) => {
            if !clickable(view, ui.card).contains(&seat) {
                return;
            }
            match ui.card {
                Some(card) if giving(view) => {
                    ui.card = None;
                    CruelerAction::GiveCard { to: seat, card }
                }
                _ => CruelerAction::Prey { target: seat },
            }
        }
        Pick::Card(card) => {
            if view.targets.contains(&card) {
                CruelerAction::Prey { target: card }
            } else {
                if giving(view) {
                    ui.card = Some(card);
                }
                return;
            }
        }
        Pick::Beast(beast) => CruelerAction::Choose { beast },
    };
    act(&mut outbox, &mut ui, action);
}

/// What the piece of `key` tells when inspected (`inspect.rs`).
fn inspect_of(
    key: Key,
    view: &CruelerView,
    settings: &CruelerSettings,
    i18n: &I18n,
) -> Option<Inspect> {
    Some(match key {
        Key::Card(s) => inspect::card(s, view, i18n),
        Key::Choice(b) => inspect::beast(b, settings, i18n),
        Key::Throw(k) => {
            let (a, b) = *view.duel.as_ref()?.throws.last()?;
            inspect::beast(if k == 0 { a } else { b }, settings, i18n)
        }
        Key::Seat(s) => inspect::seat(view, s, i18n),
        Key::Die => inspect::die(i18n),
        Key::N => inspect::n(view.n, i18n),
        Key::Token(from, _) => inspect::token(from, view, i18n),
        Key::Table | Key::Tray | Key::Label(_) => return None,
    })
}

/// A piece a tap means something for, named for the screen's account: a
/// seat's plate, a seat's card, a beast to fight with.
fn target_of(view: &CruelerView, card: Option<SeatId>, want: &Want) -> Option<Target> {
    Some(match want.pick? {
        Pick::Seat(s) => Target::new(
            format!("seat:{}", s.0),
            if clickable(view, card).contains(&s) {
                Does::Move
            } else {
                Does::Nothing
            },
        ),
        Pick::Card(s) => Target::new(
            format!("card:{}", s.0),
            if view.targets.contains(&s) {
                Does::Move
            } else if givable(view, s) {
                Does::Pick
            } else {
                Does::Nothing
            },
        ),
        Pick::Beast(b) => Target::new(format!("beast:{b:?}").to_lowercase(), Does::Move),
    })
}

/// The pieces the seat's screen marks as usable with no choice made yet,
/// named as [`marks`](crate::client::games::marks) compares them: `seat:N`
/// for a seat to prey on (its plate, or the card engraved with it),
/// `card:N` for a card to give away, `beast:x` for a beast to throw.
#[cfg(test)]
pub(super) fn marked(view: &CruelerView) -> std::collections::BTreeSet<String> {
    let i18n = I18n::default();
    let area = Rect::new(-640.0, -300.0, 640.0, 320.0);
    layout(view, None, &i18n, area)
        .wants
        .iter()
        .filter_map(|w| Some((w.pick?, target_of(view, None, w)?)))
        .filter(|(_, t)| t.does != Does::Nothing)
        .map(|(pick, t)| match pick {
            Pick::Card(s) if t.does == Does::Move => format!("seat:{}", s.0),
            _ => t.name,
        })
        .collect()
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Built>()
        .add_systems(
            Update,
            (
                sync.in_set(SceneSystems::Sync),
                animate.in_set(SceneSystems::Flourish),
            )
                .run_if(in_state(TableScreen::Game(GameId::Crueler))),
        )
        .add_systems(OnExit(Screen::Table), reset::<Built>);
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::crueler::{CruelerGame, DuelView};
    use foodweb_rules::table::{Table, TableConfig};

    /// A real 13-seat view, seen from seat 0.
    fn thirteen() -> CruelerView {
        let table = Table::<CruelerGame>::new(TableConfig::new(7, 13)).expect("a table");
        table.view(SeatId(0))
    }

    /// The part of a phone's window the screen leaves to the table.
    fn phone() -> Rect {
        Rect::from_corners(Vec2::new(-195.0, -230.0), Vec2::new(195.0, 330.0))
    }

    fn bounds(w: &Want) -> Rect {
        let half = w.size * w.at.scale.truncate() / 2.0;
        let at = w.at.translation.truncate();
        Rect::from_corners(at - half, at + half)
    }

    fn whole_inside(wants: &[Want], r: Rect) {
        for w in wants.iter().filter(|w| w.img != Img::None) {
            let b = bounds(w);
            assert!(
                b.min.x >= r.min.x
                    && b.min.y >= r.min.y
                    && b.max.x <= r.max.x
                    && b.max.y <= r.max.y,
                "{:?} at {b:?} leaves {r:?}",
                w.key
            );
        }
    }

    /// The duel's beasts cover no seat's plate.
    fn beasts_clear_of_plates(wants: &[Want]) {
        let plates: Vec<Rect> = wants
            .iter()
            .filter(|w| matches!(w.key, Key::Seat(_)))
            .map(bounds)
            .collect();
        for w in wants
            .iter()
            .filter(|w| matches!(w.key, Key::Throw(_) | Key::Choice(_)))
        {
            let b = bounds(w);
            for p in &plates {
                assert!(b.intersect(*p).is_empty(), "{:?} covers a plate", w.key);
            }
        }
    }

    /// Issue 19: "phone width (390x844) must work: nothing cut in half":
    /// thirteen plates, the cards, a full box, or the duel's beasts, all
    /// whole inside a phone's table area, the beasts clear of the plates.
    #[test]
    fn a_phone_shows_every_piece_whole() {
        let i18n = I18n::default();
        let mut view = thirteen();
        view.my_cards = (1..13).map(SeatId).collect();
        view.my_tokens = (0..13).map(|s| (Some(SeatId(s)), 3)).collect();
        whole_inside(&layout(&view, None, &i18n, phone()).wants, phone());
        view.duel = Some(DuelView {
            predator: SeatId(0),
            prey: SeatId(5),
            wins: [1, 0],
            throws: vec![(Beast::Tiger, Beast::Rat)],
            chosen: false,
        });
        let wants = layout(&view, None, &i18n, phone()).wants;
        whole_inside(&wants, phone());
        beasts_clear_of_plates(&wants);
    }

    /// Issue 19's "nothing cut in half" for the seats: from five to
    /// thirteen players, on a phone and on a desktop, no plate covers
    /// another.
    #[test]
    fn plates_never_cover_each_other() {
        let i18n = I18n::default();
        let desktop = Rect::from_corners(Vec2::new(-475.0, -250.0), Vec2::new(475.0, 320.0));
        for n in 5..=13 {
            let table = Table::<CruelerGame>::new(TableConfig::new(7, n)).expect("a table");
            let view = table.view(SeatId(0));
            for r in [phone(), desktop] {
                let wants = layout(&view, None, &i18n, r).wants;
                whole_inside(&wants, r);
                let plates: Vec<Rect> = wants
                    .iter()
                    .filter(|w| matches!(w.key, Key::Seat(_)))
                    .map(bounds)
                    .collect();
                for (i, a) in plates.iter().enumerate() {
                    for b in &plates[i + 1..] {
                        assert!(
                            a.intersect(*b).is_empty(),
                            "{n} seats in {r:?}: {a:?} {b:?}"
                        );
                    }
                }
            }
        }
    }

    /// Tokens show only where the view shows them: the viewer's own box,
    /// one per token it holds, and none while the referee keeps the boxes.
    #[test]
    fn tokens_are_the_views_own() {
        let i18n = I18n::default();
        let mut view = thirteen();
        let r = Rect::from_corners(Vec2::new(-480.0, -280.0), Vec2::new(480.0, 320.0));
        let tokens = |v: &CruelerView| {
            layout(v, None, &i18n, r)
                .wants
                .iter()
                .filter(|w| matches!(w.key, Key::Token(..)))
                .count() as u32
        };
        view.my_tokens = vec![(None, 2), (Some(SeatId(0)), 7)];
        assert_eq!(tokens(&view), 9);
        view.my_tokens.clear();
        assert_eq!(tokens(&view), 0);
    }

    /// Issue 38: what the table marks is what the judge accepts. rules.md
    /// §3: "preying needs that card, which is gone afterwards"; "an
    /// eliminated player ... may give any of them to a living player at
    /// any time but during a duel"; §5: "both duelists secretly choose one
    /// of three beasts"; §8: a loser of round 1 or 2 "cannot be preyed upon
    /// again that round"; §9: the eliminated "are never asked again".
    #[test]
    fn the_marked_pieces_are_the_judges_legal_moves() {
        use foodweb_rules::crueler::CruelerAction;
        let configs = (1..=3).map(|seed| TableConfig::<CruelerGame>::new(seed, 7));
        let piece = |_: &_, a: &CruelerAction| match *a {
            CruelerAction::Prey { target } => Some(format!("seat:{}", target.0)),
            CruelerAction::GiveCard { card, .. } => Some(format!("card:{}", card.0)),
            CruelerAction::Choose { beast } => Some(format!("beast:{beast:?}").to_lowercase()),
            _ => None,
        };
        let i18n = I18n::default();
        let now = |v: &_| super::super::panels::now(v, &Default::default(), &i18n);
        let (compared, marking) = crate::client::games::marks::marks_and_now_are_the_judges(
            configs, "random", marked, piece, now,
        );
        assert!(
            marking > 50,
            "{marking} of {compared} seat-steps marked a piece"
        );
    }
}
