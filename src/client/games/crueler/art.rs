//! Crueler World's art: the table, plates, boxes, tokens, die, cards and
//! beasts, loaded when a Crueler World table is chosen.

use crate::client::scene::pieces::PieceArt;
use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use foodweb_rules::crueler::Beast;

/// Crueler World's art: loaded when a Crueler World table is chosen.
#[derive(AssetCollection, Resource)]
pub struct CruelerArt {
    #[asset(path = "table/crueler-table.png")]
    pub table: Handle<Image>,
    #[asset(path = "table/crueler-plate.png")]
    pub plate: Handle<Image>,
    #[asset(path = "table/crueler-box.png")]
    pub life_box: Handle<Image>,
    #[asset(path = "table/crueler-tray.png")]
    pub tray: Handle<Image>,
    #[asset(path = "table/crueler-token.png")]
    pub token: Handle<Image>,
    #[asset(path = "table/crueler-die.png")]
    pub die: Handle<Image>,
    #[asset(path = "table/crueler-n.png")]
    pub n: Handle<Image>,
    #[asset(path = "table/crueler-card.png")]
    pub card: Handle<Image>,
    /// One duel token per beast, in `Beast::ALL` order.
    #[asset(
        paths(
            "table/crueler-beast-elephant.png",
            "table/crueler-beast-tiger.png",
            "table/crueler-beast-rat.png"
        ),
        collection(typed)
    )]
    pub beasts: Vec<Handle<Image>>,
}

/// Which picture a piece shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Img {
    /// Text only.
    None,
    Table,
    Plate,
    Box,
    Tray,
    Token,
    Die,
    N,
    Card,
    Beast(Beast),
}

/// The picture for each piece of the scene.
impl PieceArt for CruelerArt {
    type Img = Img;

    fn image(&self, img: Img) -> Option<Handle<Image>> {
        Some(
            match img {
                Img::None => return None,
                Img::Table => &self.table,
                Img::Plate => &self.plate,
                Img::Box => &self.life_box,
                Img::Tray => &self.tray,
                Img::Token => &self.token,
                Img::Die => &self.die,
                Img::N => &self.n,
                Img::Card => &self.card,
                Img::Beast(b) => &self.beasts[Beast::ALL.iter().position(|x| *x == b).unwrap_or(0)],
            }
            .clone(),
        )
    }
}
