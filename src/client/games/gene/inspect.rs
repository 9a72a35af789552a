//! What Gene Survival's map and cards tell when inspected
//! (`scene::inspect`): a room's building and floor, what can be drawn
//! there, what it is for, how many steps it is from the viewer and whether
//! its floor is gassed; an item card's effect. From the seat's own marks.

use foodweb_rules::gene::{ItemKind, RoomFunction, RoomId, items, map};

use crate::client::I18n;
use crate::client::scene::inspect::Inspect;

/// Where a room stands for the viewer now.
pub struct Near {
    /// The viewer is in it.
    pub here: bool,
    /// The steps a move there costs, if the viewer may go there.
    pub steps: Option<u32>,
    /// Its floor is gassed.
    pub gassed: bool,
}

/// A room of the map.
pub fn room(id: RoomId, near: Near, i18n: &I18n) -> Inspect {
    let lang = i18n.lang;
    let m = map();
    let r = m.room(id);
    let mut card = Inspect::new(r.name.get(lang), m.floor_name(r.floor).get(lang));
    let draws: Vec<&str> = r
        .draws
        .iter()
        .map(|k| items().get(*k).name.get(lang))
        .collect();
    card.add(
        i18n.t("gene-inspect-draws"),
        if draws.is_empty() {
            i18n.t("gene-inspect-draws-none")
        } else {
            draws.join(if lang == foodweb_rules::Lang::Zh {
                "、"
            } else {
                ", "
            })
        },
    );
    if let Some(f) = r.function {
        card.add(
            i18n.t("inspect-does"),
            i18n.t(match f {
                RoomFunction::Surgery => "gene-inspect-surgery",
                RoomFunction::Morgue => "gene-inspect-morgue",
            }),
        );
    }
    let mut now = Vec::new();
    if near.here {
        now.push(i18n.t("gene-inspect-you-are-here"));
    } else if let Some(steps) = near.steps {
        now.push(i18n.ta("gene-inspect-steps", &[("n", steps.into())]));
    }
    if near.gassed {
        now.push(i18n.t("gene-inspect-gassed"));
    }
    card.add(i18n.t("crueler-inspect-now"), now.join("\n"));
    card
}

/// An item card of the viewer's hand.
pub fn item(kind: ItemKind, i18n: &I18n) -> Inspect {
    let it = items().get(kind);
    Inspect::new(it.name.get(i18n.lang), i18n.t("gene-inspect-item"))
        .with(i18n.t("inspect-does"), it.effect.get(i18n.lang))
        .with(
            i18n.t("gene-inspect-supply"),
            i18n.ta("gene-inspect-supply-n", &[("n", it.supply.into())]),
        )
}
