//! What Forest Showdown's cards tell when inspected (`scene::inspect`):
//! a face the seat can see gives its energy, its role, what it eats and
//! what eats it (the deck's food web); a card face down says only whose
//! it is.

use bevy::prelude::*;
use foodweb_rules::GameId;
use foodweb_rules::forest::{CardId, ForestGame, ForestView, Role, deck};

use super::art::ForestArt;
use super::layout::Place;
use super::scene::Card;
use crate::client::I18n;
use crate::client::net::SeatSide;
use crate::client::scene::SceneSystems;
use crate::client::scene::inspect::Inspect;
use crate::client::screens::table::TableScreen;
use foodweb_netcode::client::ClientModel;

/// The names of the cards of the deck for which `test` holds, in deck
/// order, or `none` when there are none.
fn names(test: impl Fn(CardId) -> bool, i18n: &I18n, none: &str) -> String {
    let list: Vec<&str> = deck()
        .ids()
        .filter(|c| test(*c))
        .map(|c| deck().card(c).name.get(i18n.lang))
        .collect();
    if list.is_empty() {
        i18n.t(none)
    } else {
        list.join(if i18n.lang == foodweb_rules::Lang::Zh {
            "、"
        } else {
            ", "
        })
    }
}

/// A face's card: its energy and role, what it eats, what eats it.
pub fn face(card: CardId, i18n: &I18n) -> Inspect {
    let d = deck();
    let species = d.card(card);
    let lang = i18n.lang;
    let kind = i18n.ta(
        "forest-inspect-kind",
        &[
            ("role", species.role.name().get(lang).to_string().into()),
            ("energy", species.energy.into()),
        ],
    );
    let mut c = Inspect::new(species.name.get(lang), kind).pictured();
    if species.role == Role::DeathAndDecay {
        c.add(
            i18n.t("forest-inspect-eats"),
            i18n.t("forest-inspect-decay-eats"),
        );
        c.add(
            i18n.t("forest-inspect-takers"),
            names(|x| d.takes_death_decay(x), i18n, "forest-inspect-nothing"),
        );
    } else {
        c.add(
            i18n.t("forest-inspect-eats"),
            names(|x| d.eats(card, x), i18n, "forest-inspect-nothing"),
        );
        c.add(
            i18n.t("forest-inspect-eaten-by"),
            names(|x| d.eats(x, card), i18n, "forest-inspect-nothing"),
        );
    }
    c.with(
        i18n.t("forest-inspect-showdown"),
        i18n.t("forest-inspect-showdown-text"),
    )
}

/// A card face down: whose it is, nothing of its face.
fn back(place: Place, view: &ForestView, i18n: &I18n) -> Inspect {
    let holder = match place {
        Place::Back(s, _) | Place::Staged(s) => view
            .seats
            .iter()
            .find(|p| p.seat == s)
            .map(|p| i18n.name(&p.name)),
        _ => None,
    };
    let text = match holder {
        Some(name) => i18n.ta("forest-inspect-back-of", &[("name", name.into())]),
        None => i18n.t("forest-inspect-back-text"),
    };
    Inspect::new(i18n.t("forest-inspect-back"), "").with(i18n.t("inspect-does"), text)
}

/// Each card's words, made when the card is (or changes) and when the
/// language does; a face with its picture.
fn tell(
    mut commands: Commands,
    cards: Query<(Entity, Ref<Card>)>,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    art: Option<Res<ForestArt>>,
) {
    let (Some(view), Some(art)) = (model.view_of::<ForestGame>(), art) else {
        return;
    };
    for (e, card) in &cards {
        if !card.is_changed() && !i18n.is_changed() {
            continue;
        }
        match card.face {
            Some(c) => {
                let mut w = face(c, &i18n);
                w.picture = Some((art.art(c), 1.0));
                commands.entity(e).insert(w);
            }
            // A back is picked by nothing else: the pointer may rest on
            // it without blocking what lies under it.
            None => {
                commands.entity(e).insert((
                    back(card.place, view, &i18n),
                    Pickable {
                        should_block_lower: false,
                        is_hoverable: true,
                    },
                ));
            }
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        tell.after(SceneSystems::Sync)
            .before(SceneSystems::Animate)
            .run_if(in_state(TableScreen::Game(GameId::Forest))),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::Lang;

    fn english() -> I18n {
        let mut i = I18n::default();
        i.lang = Lang::En;
        i
    }

    fn section(card: &Inspect, head: &str) -> String {
        card.sections
            .iter()
            .find(|(h, _)| h == head)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    }

    /// The food web as rules.md §1 tabulates it, row "Oak Tree · 橡树 | 9 |
    /// producer | – | White-tailed Deer, Caterpillar, Death & Decay": an
    /// inspected oak says its energy, that it eats nothing, and who eats it.
    #[test]
    fn a_card_says_what_it_eats_and_what_eats_it() {
        let i18n = english();
        let oak = deck().by_key("oak").expect("the oak");
        let card = face(oak, &i18n);
        assert_eq!(card.title, "Oak Tree");
        assert!(card.kind.contains("9 energy"), "{}", card.kind);
        assert_eq!(section(&card, "Eats"), "Nothing.");
        assert_eq!(
            section(&card, "Eaten by"),
            "White-tailed Deer, Caterpillar, Death & Decay"
        );
    }

    /// rules.md §1: "Death & Decay eats every card except its takers and
    /// the other Death & Decay"; its takers are "the mushroom, earthworm,
    /// millipede, slug, woodlouse, crow".
    #[test]
    fn death_and_decay_names_its_takers() {
        let card = face(deck().death_decay(), &english());
        let takers = section(&card, "Its takers (it cannot eat them)");
        for t in [
            "Mushroom",
            "Earthworm",
            "Millipede",
            "Slug",
            "Woodlouse",
            "Crow",
        ] {
            assert!(takers.contains(t), "{t} missing from {takers}");
        }
        assert_eq!(takers.split(", ").count(), 6, "{takers}");
    }
}
