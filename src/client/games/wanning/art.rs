//! Wanning Beast Chess's art: the board, the plates, an illustration per
//! animal, a frame per instinct type and the status icons, loaded when a
//! Wanning table is chosen.

use crate::client::scene::pieces::PieceArt;
use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use foodweb_rules::wanning::Kind;

/// Wanning Beast Chess's art: loaded when a Wanning table is chosen.
#[derive(AssetCollection, Resource)]
pub struct WanningArt {
    #[asset(path = "table/wanning-table.png")]
    pub board: Handle<Image>,
    #[asset(path = "table/wanning-seat.png")]
    pub seat: Handle<Image>,
    #[asset(path = "table/wanning-back.png")]
    pub back: Handle<Image>,
    /// One card per animal, in the data's order.
    #[asset(
        paths(
            "table/wanning-animal-squirrel.png",
            "table/wanning-animal-tutu.png",
            "table/wanning-animal-sloth.png",
            "table/wanning-animal-gorilla.png",
            "table/wanning-animal-bison.png",
            "table/wanning-animal-bear.png",
            "table/wanning-animal-sabre-tooth.png",
            "table/wanning-animal-mammoth.png"
        ),
        collection(typed)
    )]
    pub animals: Vec<Handle<Image>>,
    /// One frame per instinct type: information, defence, attack, all-round.
    #[asset(
        paths(
            "table/wanning-instinct-information.png",
            "table/wanning-instinct-defence.png",
            "table/wanning-instinct-attack.png",
            "table/wanning-instinct-allround.png"
        ),
        collection(typed)
    )]
    pub frames: Vec<Handle<Image>>,
    #[asset(path = "table/wanning-shield.png")]
    pub shield: Handle<Image>,
    #[asset(path = "table/wanning-heart.png")]
    pub heart: Handle<Image>,
    #[asset(path = "table/wanning-lock.png")]
    pub lock: Handle<Image>,
    #[asset(path = "table/wanning-skull.png")]
    pub skull: Handle<Image>,
    #[asset(path = "table/wanning-scarecrow.png")]
    pub scarecrow: Handle<Image>,
    #[asset(path = "table/wanning-talk.png")]
    pub talk: Handle<Image>,
    #[asset(path = "table/wanning-eye.png")]
    pub eye: Handle<Image>,
    #[asset(path = "table/wanning-claw.png")]
    pub claw: Handle<Image>,
}

/// Which picture a piece shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Img {
    /// Text only.
    None,
    Board,
    Seat,
    Back,
    Animal(usize),
    Frame(Kind),
    Shield,
    Heart,
    Lock,
    Skull,
    Scarecrow,
    Talk,
    Eye,
    Claw,
}

/// The picture for each piece of the scene.
impl PieceArt for WanningArt {
    type Img = Img;

    fn image(&self, img: Img) -> Option<Handle<Image>> {
        let frame = |k: Kind| match k {
            Kind::Information | Kind::Drawn => 0,
            Kind::Defence => 1,
            Kind::Attack => 2,
            Kind::AllRound => 3,
        };
        Some(
            match img {
                Img::None => return None,
                Img::Board => &self.board,
                Img::Seat => &self.seat,
                Img::Back => &self.back,
                Img::Animal(a) => self.animals.get(a).unwrap_or(&self.back),
                Img::Frame(k) => &self.frames[frame(k)],
                Img::Shield => &self.shield,
                Img::Heart => &self.heart,
                Img::Lock => &self.lock,
                Img::Skull => &self.skull,
                Img::Scarecrow => &self.scarecrow,
                Img::Talk => &self.talk,
                Img::Eye => &self.eye,
                Img::Claw => &self.claw,
            }
            .clone(),
        )
    }
}
