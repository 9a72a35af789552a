//! Forest Showdown's art: the card back, a face per role and an
//! illustration per species, loaded when a Forest table is chosen.

use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use foodweb_rules::forest::{CardId, Role, deck};

/// Forest Showdown's art: loaded when a Forest table is chosen.
#[derive(AssetCollection, Resource)]
pub struct ForestArt {
    #[asset(path = "table/forest-back.png")]
    pub back: Handle<Image>,
    /// One face per role, in `Role` order.
    #[asset(
        paths(
            "table/forest-frame-producer.png",
            "table/forest-frame-herbivore.png",
            "table/forest-frame-insect-eater.png",
            "table/forest-frame-predator.png",
            "table/forest-frame-decomposer.png",
            "table/forest-frame-death-and-decay.png"
        ),
        collection(typed)
    )]
    pub frames: Vec<Handle<Image>>,
    /// One illustration per species, in the deck's order (`ART_KEYS`).
    #[asset(
        paths(
            "cards/forest/oak.png",
            "cards/forest/pine.png",
            "cards/forest/grass.png",
            "cards/forest/acorns.png",
            "cards/forest/blackberry.png",
            "cards/forest/wildflowers.png",
            "cards/forest/fern.png",
            "cards/forest/moss.png",
            "cards/forest/mushroom.png",
            "cards/forest/earthworm.png",
            "cards/forest/millipede.png",
            "cards/forest/slug.png",
            "cards/forest/woodlouse.png",
            "cards/forest/crow.png",
            "cards/forest/deer.png",
            "cards/forest/rabbit.png",
            "cards/forest/squirrel.png",
            "cards/forest/chipmunk.png",
            "cards/forest/deer_mouse.png",
            "cards/forest/caterpillar.png",
            "cards/forest/grasshopper.png",
            "cards/forest/aphid.png",
            "cards/forest/spider.png",
            "cards/forest/praying_mantis.png",
            "cards/forest/ladybug.png",
            "cards/forest/frog.png",
            "cards/forest/salamander.png",
            "cards/forest/bat.png",
            "cards/forest/woodpecker.png",
            "cards/forest/robin.png",
            "cards/forest/shrew.png",
            "cards/forest/fox.png",
            "cards/forest/owl.png",
            "cards/forest/hawk.png",
            "cards/forest/snake.png",
            "cards/forest/weasel.png",
            "cards/forest/raccoon.png",
            "cards/forest/bobcat.png",
            "cards/forest/bear.png",
            "cards/forest/death_decay.png"
        ),
        collection(typed)
    )]
    pub art: Vec<Handle<Image>>,
}

impl ForestArt {
    pub(super) fn frame(&self, card: CardId) -> Handle<Image> {
        let i = match deck().card(card).role {
            Role::Producer => 0,
            Role::Herbivore => 1,
            Role::InsectEater => 2,
            Role::Predator => 3,
            Role::Decomposer => 4,
            Role::DeathAndDecay => 5,
        };
        self.frames[i].clone()
    }

    pub(super) fn art(&self, card: CardId) -> Handle<Image> {
        let key = &deck().card(card).key;
        let i = art_keys().iter().position(|k| k == key).unwrap_or(0);
        self.art[i].clone()
    }
}

/// The species keys in the order of `ForestArt::art`: the deck's order,
/// each key once (Death & Decay's two cards share one illustration).
pub fn art_keys() -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for c in deck().ids() {
        let key = &deck().card(c).key;
        if !keys.contains(key) {
            keys.push(key.clone());
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The art collection lists each species' sprite once, in the deck's
    /// order, so `ForestArt::art` finds a card's illustration by its key.
    #[test]
    fn art_paths_follow_the_deck() {
        let source = include_str!("art.rs");
        let listed: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("\"cards/forest/"))
            .filter_map(|l| l.split(".png").next())
            .collect();
        let keys = art_keys();
        assert_eq!(listed, keys.iter().map(String::as_str).collect::<Vec<_>>());
    }
}
