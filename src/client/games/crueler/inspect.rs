//! What Crueler World's pieces tell when inspected (`scene::inspect`): a
//! predator card (whose number it bears and what handing it in does at
//! this N), each beast of a duel (what it beats and loses to, how many
//! throws win), a seat's plate, the die, N and the viewer's life tokens.
//! From the seat's own view and the table's settings.

use foodweb_rules::crueler::{Beast, CruelerSettings, CruelerView};
use foodweb_rules::table::SeatId;

use crate::client::I18n;
use crate::client::scene::inspect::Inspect;

fn name(i18n: &I18n, view: &CruelerView, s: SeatId) -> String {
    view.names
        .get(s.index())
        .map(|n| i18n.name(n))
        .unwrap_or_default()
}

/// The seat's number and name ("2 Ann"; "survivor bot 2" as it is).
fn numbered(i18n: &I18n, view: &CruelerView, s: SeatId) -> String {
    view.names
        .get(s.index())
        .map_or_else(|| s.to_string(), |n| i18n.numbered(s, n))
}

/// A predator card of the viewer's: whose number it bears, what handing it
/// in does at this N, and whether that player can be preyed on now.
pub fn card(s: SeatId, view: &CruelerView, i18n: &I18n) -> Inspect {
    let who = numbered(i18n, view, s);
    let mut card = Inspect::new(
        i18n.ta("crueler-inspect-card", &[("who", who.clone().into())]),
        i18n.t("crueler-inspect-card-kind"),
    )
    .with(
        i18n.t("inspect-does"),
        i18n.ta(
            "crueler-inspect-card-does",
            &[("who", who.into()), ("n", view.n.into())],
        ),
    );
    let now = if !view.alive.get(s.index()).copied().unwrap_or(false) {
        i18n.t("crueler-inspect-card-out")
    } else if view.reserve.get(s.index()).copied().unwrap_or(false) {
        i18n.t("crueler-inspect-card-reserve")
    } else {
        String::new()
    };
    card.add(i18n.t("crueler-inspect-now"), now);
    card
}

/// The die in the middle.
pub fn die(i18n: &I18n) -> Inspect {
    Inspect::new(i18n.t("crueler-die"), "")
        .with(i18n.t("inspect-does"), i18n.t("crueler-inspect-die"))
}

/// N, what a duel or starving moves now.
pub fn n(n: i32, i18n: &I18n) -> Inspect {
    Inspect::new(format!("N = {n}"), "").with(
        i18n.t("inspect-does"),
        i18n.ta("crueler-inspect-n", &[("n", n.into())]),
    )
}

/// A life token of the viewer's box, and whose mark it bears.
pub fn token(from: Option<SeatId>, view: &CruelerView, i18n: &I18n) -> Inspect {
    let from = match from {
        Some(s) => name(i18n, view, s),
        None => i18n.t("crueler-bank"),
    };
    Inspect::new(i18n.t("crueler-inspect-token"), "").with(
        i18n.t("inspect-does"),
        i18n.ta("crueler-inspect-token-does", &[("from", from.into())]),
    )
}

/// A beast of a duel: what it beats and loses to, and how a duel is won.
pub fn beast(b: Beast, settings: &CruelerSettings, i18n: &I18n) -> Inspect {
    let lang = i18n.lang;
    let beats = Beast::ALL
        .into_iter()
        .find(|o| b.beats(*o))
        .expect("one each");
    let loses = Beast::ALL
        .into_iter()
        .find(|o| o.beats(b))
        .expect("one each");
    Inspect::new(b.name().get(lang), i18n.t("crueler-inspect-beast-kind"))
        .pictured()
        .with(
            i18n.t("inspect-does"),
            i18n.ta(
                "crueler-inspect-beast",
                &[
                    ("beats", beats.name().get(lang).to_string().into()),
                    ("loses", loses.name().get(lang).to_string().into()),
                ],
            ),
        )
        .with(
            i18n.t("crueler-inspect-duel"),
            i18n.ta(
                "crueler-inspect-wins",
                &[("n", settings.wins_needed.into())],
            ),
        )
}

/// A seat's plate: what the table knows of the player (in or out, in the
/// Nature Reserve), never their life.
pub fn seat(view: &CruelerView, s: SeatId, i18n: &I18n) -> Inspect {
    let mut state = vec![if view.alive.get(s.index()).copied().unwrap_or(false) {
        i18n.t("crueler-inspect-in")
    } else {
        i18n.t("crueler-inspect-out")
    }];
    if view.reserve.get(s.index()).copied().unwrap_or(false) {
        state.push(i18n.t("crueler-inspect-reserve"));
    }
    if view.me == Some(s) {
        if let Some(life) = view.my_life {
            state.push(i18n.ta("crueler-your-life", &[("life", life.into())]));
        }
    } else {
        state.push(i18n.t("crueler-inspect-life-secret"));
    }
    Inspect::new(numbered(i18n, view, s), "")
        .with(i18n.t("crueler-inspect-known"), state.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::Lang;
    use foodweb_rules::crueler::CruelerGame;
    use foodweb_rules::table::{Table, TableConfig};

    fn english() -> I18n {
        let mut i = I18n::default();
        i.lang = Lang::En;
        i
    }

    /// rules.md §5: "the elephant tramples the tiger, the tiger eats the
    /// rat, the rat creeps into the elephant's trunk … the first to win
    /// **2** throws (setting `wins_needed`)".
    #[test]
    fn each_beast_says_what_it_beats_and_how_a_duel_is_won() {
        let mut s = CruelerSettings::default();
        let text = |s: &CruelerSettings, b| beast(b, s, &english()).text();
        assert!(text(&s, Beast::Elephant).contains("beats the Tiger and loses to the Rat"));
        assert!(text(&s, Beast::Tiger).contains("beats the Rat and loses to the Elephant"));
        assert!(text(&s, Beast::Rat).contains("beats the Elephant and loses to the Tiger"));
        assert!(text(&s, Beast::Rat).contains("first to win 2 throws"));
        s.wins_needed = 3;
        assert!(text(&s, Beast::Rat).contains("first to win 3 throws"));
    }

    /// rules.md §3 and §5: a predator card preys on the seat it bears, and
    /// the duel moves N (2 in round 1); §6: "Nobody ever sees another
    /// player's life": another seat's plate says it is secret, the
    /// viewer's own says it.
    #[test]
    fn a_card_names_its_prey_and_n_and_no_plate_tells_anothers_life() {
        let t = Table::<CruelerGame>::new(TableConfig::new(3, 5)).expect("a table");
        let view = t.view(SeatId(0));
        let i18n = english();
        let card = card(SeatId(2), &view, &i18n).text();
        assert!(
            card.contains(&format!("prey on 3 {}", view.names[2])),
            "{card}"
        );
        assert!(card.contains(&format!("N = {}", view.n)), "{card}");
        let theirs = seat(&view, SeatId(3), &i18n).text();
        assert!(theirs.contains("Their life is secret"), "{theirs}");
        let mine = seat(&view, SeatId(0), &i18n).text();
        assert!(
            mine.contains(&format!("Your life: {}", view.my_life.unwrap())),
            "{mine}"
        );
    }
}
