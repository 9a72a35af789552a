//! Pieces laid out from a view and matched, by key, to the sprites already
//! in the scene: what every game whose layout is a list of wanted pieces
//! shares.
//!
//! A game's layout returns [`Want`]s: a key, a picture, where it rests, the
//! texts and pictures drawn on it and what tapping it picks. [`spawn_want`]
//! makes one. At each update a [`Matcher`] keeps the pieces that look the
//! same (sending them home with a [`Motion`]), makes anew the ones whose
//! look changed or that are new, and leaves the game the ones no want kept.
//! [`Stamp`] says whether anything a layout reads changed since the last.

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;

use bevy::ecs::system::IntoObserverSystem;
use bevy::prelude::*;
use foodweb_netcode::client::AwaySeats;
use foodweb_rules::Lang;
use foodweb_rules::table::SeatId;

use super::inspect::Inspect;
use super::{
    Home, Lift, Motion, SceneInputs, Tap, Words, lift_off, lift_on, motion_secs, picture,
    spawn_piece,
};
use crate::client::UserSettings;

/// A game's pictures, by its own image key.
pub trait PieceArt {
    type Img: Copy + Debug + PartialEq;
    /// The picture for `img`, if it has one.
    fn image(&self, img: Self::Img) -> Option<Handle<Image>>;
}

/// What tapping a piece picks: the game's own enum, as a component of the
/// piece.
pub trait PiecePick: Component + Copy + Debug + PartialEq {
    /// How the piece rises under the pointer.
    fn lift(&self) -> Lift;
}

/// A piece of the scene: its key, and what it showed when made (a piece
/// whose look changes is made anew).
#[derive(Component, Clone, Debug)]
pub struct Piece<K: Send + Sync + 'static> {
    pub key: K,
    look: String,
}

/// Text on a piece hidden while the piece rolls (a die's number).
#[derive(Component)]
pub struct Veiled;

/// A part drawn on a piece, relative to its centre.
#[derive(Clone, Debug, PartialEq)]
pub enum Part<I> {
    Text {
        words: Words,
        /// Left-aligned from `at` (otherwise centred on it).
        left: bool,
        /// A player's name or words: the full font once it has loaded.
        typed: bool,
        /// Hidden while its piece rolls ([`Veiled`]).
        veiled: bool,
    },
    Sprite {
        img: I,
        at: Vec2,
        size: Vec2,
        tint: Color,
        z: f32,
    },
}

impl<I> Part<I> {
    /// A line of text centred on `at`, wrapped to `width`.
    pub fn text(text: impl Into<String>, at: Vec2, size: f32, colour: Color, width: f32) -> Self {
        Part::Text {
            words: Words {
                text: text.into(),
                at,
                size,
                colour,
                width,
            },
            left: false,
            typed: false,
            veiled: false,
        }
    }
}

/// One piece as the layout wants it.
#[derive(Clone, Debug)]
pub struct Want<K, I, P> {
    pub key: K,
    pub img: I,
    pub size: Vec2,
    pub tint: Color,
    pub at: Transform,
    pub parts: Vec<Part<I>>,
    pub pick: Option<P>,
    /// What the piece tells when inspected (not part of its look: a kept
    /// piece takes the new words, see [`dress`]).
    pub inspect: Option<Inspect>,
}

impl<K, I: Debug, P: Debug> Want<K, I, P> {
    /// A piece showing `img` at `size`, resting at `at` on layer `z`.
    pub fn new(key: K, img: I, size: Vec2, at: Vec2, z: f32) -> Self {
        Self {
            key,
            img,
            size,
            tint: Color::WHITE,
            at: Transform::from_translation(at.extend(z)),
            parts: Vec::new(),
            pick: None,
            inspect: None,
        }
    }

    /// Everything the piece shows: a piece whose look changed is made anew.
    pub fn look(&self) -> String {
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}",
            self.img, self.size, self.tint, self.parts, self.pick
        )
    }

    /// Adds a centred line of text.
    pub fn text(
        &mut self,
        text: impl Into<String>,
        at: Vec2,
        size: f32,
        colour: Color,
        width: f32,
    ) {
        self.parts.push(Part::text(text, at, size, colour, width));
    }

    /// Adds a square picture: an outline (at the centre) goes under the
    /// piece, an icon over it.
    pub fn icon(&mut self, img: I, at: Vec2, size: f32) {
        let z = if at == Vec2::ZERO { -0.5 } else { 0.2 };
        self.parts.push(Part::Sprite {
            img,
            at,
            size: Vec2::splat(size),
            tint: Color::WHITE,
            z,
        });
    }
}

/// The scene's two fonts: Foodweb's own texts, and what players typed.
pub struct PieceFonts {
    pub ui: Handle<Font>,
    pub typed: Handle<Font>,
}

/// Makes `want`'s piece: its picture, its parts, and if it can be picked,
/// its lift and `tap`. Veiled texts start hidden when `veil` is set.
pub fn spawn_want<K, A, P, M>(
    commands: &mut Commands,
    art: &A,
    fonts: &PieceFonts,
    lang: Lang,
    want: &Want<K, A::Img, P>,
    veil: bool,
    tap: impl IntoObserverSystem<Tap, (), M>,
) -> Entity
where
    K: Copy + Send + Sync + 'static,
    A: PieceArt,
    P: PiecePick,
{
    let piece = Piece {
        key: want.key,
        look: want.look(),
    };
    let image = art.image(want.img).map(|i| (i, want.size, want.tint));
    let mut e = spawn_piece(commands, piece, want.at, image);
    match want.pick {
        Some(p) => {
            e.insert((p, Pickable::default(), p.lift()))
                .observe(lift_on)
                .observe(lift_off)
                .observe(tap);
        }
        None => {
            e.insert(Pickable::IGNORE);
        }
    }
    e.with_children(|c| {
        for (k, part) in want.parts.iter().enumerate() {
            match part {
                Part::Text {
                    words,
                    left,
                    typed,
                    veiled,
                } => {
                    let font = if *typed { &fonts.typed } else { &fonts.ui };
                    let mut t = c.spawn((
                        words.label(font.clone(), lang, *left),
                        Transform::from_translation(words.at.extend(0.3 + k as f32 * 0.01)),
                    ));
                    if *veiled {
                        t.insert(Veiled);
                        if veil {
                            t.insert(Visibility::Hidden);
                        }
                    }
                }
                Part::Sprite {
                    img,
                    at,
                    size,
                    tint,
                    z,
                } => {
                    if let Some(image) = art.image(*img) {
                        c.spawn((
                            picture(image, *size, *tint),
                            Transform::from_translation(at.extend(*z)),
                        ));
                    }
                }
            }
        }
    });
    e.id()
}

/// Gives a placed piece, kept or new, its want's [`Inspect`] (with the
/// piece's own picture where it asks for it): a piece that only shows
/// becomes one the pointer can rest on, under any piece that is used.
pub fn dress<K, A: PieceArt, P>(
    commands: &mut Commands,
    art: &A,
    entity: Entity,
    want: &Want<K, A::Img, P>,
) {
    let mut e = commands.entity(entity);
    let Some(mut inspect) = want.inspect.clone() else {
        e.remove::<Inspect>();
        return;
    };
    if inspect.own_picture && inspect.picture.is_none() {
        inspect.picture = art
            .image(want.img)
            .map(|i| (i, want.size.x / want.size.y.max(1.0)));
    }
    e.insert(inspect);
    if want.pick.is_none() {
        e.insert(Pickable {
            should_block_lower: false,
            is_hoverable: true,
        });
    }
}

/// Marks the plates (the wants `plate_of` names) of the seats in `away`
/// (`ClientModel::away_seats`) with `words` over the plate: their person is
/// away, and a bot plays the seat until they return (issue 68).
pub fn mark_away<K, I: Debug, P: Debug>(
    wants: &mut [Want<K, I, P>],
    away: AwaySeats,
    plate_of: impl Fn(&K) -> Option<SeatId>,
    words: &str,
) {
    for want in wants {
        let Some(seat) = plate_of(&want.key) else {
            continue;
        };
        if away.contains(seat) {
            let size = want.size;
            want.text(
                words,
                Vec2::new(0.0, size.y / 2.0 + 9.0),
                13.0,
                super::colour(crate::client::theme::BAD),
                size.x + 40.0,
            );
        }
    }
}

impl SceneInputs<'_> {
    /// What a layout in `r` reads now, to compare with the last one's.
    pub fn stamp(&self, r: Rect) -> Stamp {
        Stamp {
            revision: self.model.revision,
            rect: Some(r),
            lang: Some(self.i18n.lang),
            typed_font: self.fonts.typed_ready(),
            away: self.model.away_seats(),
        }
    }

    /// The two fonts pieces are drawn with.
    pub fn piece_fonts(&self) -> PieceFonts {
        PieceFonts {
            ui: self.fonts.ui(),
            typed: self.fonts.typed(),
        }
    }
}

/// What a scene was last laid out from, of what every layout reads: the
/// update, the room on screen, the language and whether the full font had
/// loaded.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub struct Stamp {
    pub revision: u64,
    pub rect: Option<Rect>,
    pub lang: Option<Lang>,
    pub typed_font: bool,
    /// Whose plates say "away" (`ClientModel::away_seats`).
    pub away: AwaySeats,
}

/// How the stamp changed, and so how the new layout moves in.
#[derive(Clone, Copy, Debug)]
pub struct Change {
    /// A new update from the server.
    pub new_update: bool,
    /// Texts must be drawn anew (another language or font).
    pub relabel: bool,
    /// How long motions take: none for a table seen for the first time,
    /// resized or relabelled (nothing flies in when a player joins
    /// mid-game).
    pub secs: f32,
}

impl Stamp {
    /// How `now` differs from this stamp, or `None` when nothing did and
    /// nothing else the layout reads changed (`other`).
    pub fn change(&self, now: &Stamp, other: bool, settings: &UserSettings) -> Option<Change> {
        let new_update = self.revision != now.revision;
        let moved = self.rect != now.rect || self.lang != now.lang;
        let same_look = self.typed_font == now.typed_font && self.away == now.away;
        if !new_update && !moved && !other && same_look {
            return None;
        }
        let first = self.rect.is_none();
        Some(Change {
            new_update,
            relabel: self.lang.is_some_and(|l| Some(l) != now.lang)
                || self.typed_font != now.typed_font,
            secs: if first || moved {
                0.0
            } else {
                motion_secs(settings)
            },
        })
    }
}

/// A kept or new piece for a want.
#[derive(Clone, Copy, Debug)]
pub enum Placed {
    /// The piece there, sent home.
    Kept(Entity),
    /// Made anew; `was` is where the piece it replaces stood.
    Made {
        entity: Entity,
        was: Option<Transform>,
    },
}

impl Placed {
    pub fn entity(self) -> Entity {
        match self {
            Placed::Kept(e) | Placed::Made { entity: e, .. } => e,
        }
    }
}

/// The scene's pieces matched to a new layout by key.
pub struct Matcher<K> {
    current: HashMap<K, (Entity, String, Transform)>,
    kept: HashSet<K>,
    /// How long motions take (0: none).
    pub secs: f32,
    /// The time motions start from.
    pub now: f32,
}

impl<K: Copy + Eq + Hash + Send + Sync + 'static> Matcher<K> {
    /// The pieces there now, to be matched.
    pub fn new<'a>(
        pieces: impl Iterator<Item = (Entity, &'a Piece<K>, &'a Transform)>,
        secs: f32,
        now: f32,
    ) -> Self {
        Self {
            current: pieces
                .map(|(e, p, t)| (p.key, (e, p.look.clone(), *t)))
                .collect(),
            kept: HashSet::new(),
            secs,
            now,
        }
    }

    /// `want`'s piece: the one there, sent home, if it looks the same and
    /// need not be made anew (`remake`); otherwise made by `spawn` in place
    /// of the old one.
    pub fn place<I: Debug, P: Debug>(
        &mut self,
        commands: &mut Commands,
        want: &Want<K, I, P>,
        remake: bool,
        spawn: impl FnOnce(&mut Commands) -> Entity,
    ) -> Placed {
        self.kept.insert(want.key);
        match self.current.get(&want.key) {
            Some((e, look, t)) if *look == want.look() && !remake => {
                commands.entity(*e).insert(Home(want.at));
                if t.translation.truncate() != want.at.translation.truncate() {
                    self.glide(commands, *e, *t, 0.0, want.at);
                }
                Placed::Kept(*e)
            }
            old => {
                let was = old.map(|(e, _, t)| {
                    commands.entity(*e).despawn();
                    *t
                });
                Placed::Made {
                    entity: spawn(commands),
                    was,
                }
            }
        }
    }

    /// Sends piece `e` home from `from`, `delay` seconds from now, when
    /// motion is on and it is not there already.
    pub fn glide(
        &self,
        commands: &mut Commands,
        e: Entity,
        from: Transform,
        delay: f32,
        home: Transform,
    ) {
        if self.secs > 0.0 && from != home {
            commands
                .entity(e)
                .insert(Motion::from(from, self.now, delay, self.secs));
        }
    }

    /// The pieces no want kept: their keys, entities and places.
    pub fn gone(self) -> impl Iterator<Item = (K, Entity, Transform)> {
        let kept = self.kept;
        self.current
            .into_iter()
            .filter(move |(k, _)| !kept.contains(k))
            .map(|(k, (e, _, t))| (k, e, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 68: "while the person is away the seat shows as away on the
    /// plates". The plate of a seat in `away` gets the words over it; no
    /// other plate, and no piece that is not a plate, does.
    #[test]
    fn only_an_away_seats_plate_says_so() {
        let piece = |plate: bool, s: u8| {
            Want::<(bool, u8), (), ()>::new((plate, s), (), Vec2::new(120.0, 60.0), Vec2::ZERO, 1.0)
        };
        let mut wants = vec![
            piece(true, 0),
            piece(true, 1),
            piece(true, 2),
            piece(false, 1),
        ];
        let away = [SeatId(1)].into_iter().collect();
        mark_away(&mut wants, away, |k| k.0.then_some(SeatId(k.1)), "away");
        let says = |w: &Want<(bool, u8), (), ()>| {
            w.parts.iter().any(|p| {
                matches!(p, Part::Text { words, .. } if words.text == "away" && words.at.y > w.size.y / 2.0)
            })
        };
        let marked: Vec<_> = wants.iter().map(says).collect();
        assert_eq!(
            marked,
            [false, true, false, false],
            "only seat 1's plate, over it"
        );
    }
}
