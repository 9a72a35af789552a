//! What Wanning's pieces tell when inspected (`scene::inspect`): an
//! instinct's name, form, type, what it does and what it means at this
//! table (its uses, rest and numbers at this player count, the table's
//! house rules); the viewer's level card and its abilities with this
//! table's numbers; a seat's plate; the viewer's chips. Everything from the
//! seat's own view and the table's settings.

use foodweb_rules::table::SeatId;
use foodweb_rules::wanning::news::change_line;
use foodweb_rules::wanning::{
    EarlyBirdForm, Form, InstinctId, LastStandUses, SlaughterRest, WanningSettings, WanningView,
    data,
};

use crate::client::I18n;
use crate::client::scene::inspect::Inspect;

/// What the table is: how many play, and its settings (the defaults when
/// the lobby has not said).
pub struct Here<'a> {
    pub players: usize,
    pub settings: &'a WanningSettings,
}

/// The viewer's instinct card: its instinct's, or a note while none is
/// picked.
pub fn mine(view: &WanningView, here: &Here, i18n: &I18n) -> Inspect {
    match view.instinct {
        Some(id) => instinct(id, view, here, i18n, true),
        None => Inspect::new(i18n.t("wanning-inspect-no-instinct"), "").with(
            i18n.t("inspect-does"),
            i18n.t("wanning-inspect-no-instinct-yet"),
        ),
    }
}

/// A chip of the viewer's last settlement.
pub fn settlement(view: &WanningView, i18n: &I18n) -> Option<Inspect> {
    view.settled.as_ref().map(|s| {
        Inspect::new(
            i18n.ta("wanning-inspect-settled", &[("round", s.round.into())]),
            "",
        )
        .with(i18n.t("inspect-does"), i18n.t("wanning-inspect-steps"))
        .with(
            i18n.t("wanning-inspect-lines"),
            s.lines
                .iter()
                .map(|c| i18n.pick(&change_line(s.round, c)).to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })
}

fn form_name(form: Option<Form>) -> &'static str {
    match form {
        Some(Form::At) => "AT",
        Some(Form::Pt) => "PT",
        None => "AT/PT?",
    }
}

/// An instinct card: its words, then what it is at this table, then (the
/// viewer's own) its uses left.
pub fn instinct(
    id: InstinctId,
    view: &WanningView,
    here: &Here,
    i18n: &I18n,
    mine: bool,
) -> Inspect {
    let info = data().instinct(id);
    let lang = i18n.lang;
    let kind = i18n.ta(
        "wanning-inspect-instinct",
        &[
            ("form", form_name(info.form).into()),
            ("kind", i18n.t(super::board::kind_key(info.kind)).into()),
        ],
    );
    let mut card =
        Inspect::new(info.name.get(lang), kind).with(i18n.t("inspect-does"), info.effect.get(lang));
    let n = here.players;
    let mut table = vec![match data().uses(id, n) {
        Some(u) => i18n.ta("wanning-inspect-uses", &[("n", u.into())]),
        None => i18n.t("wanning-inspect-no-limit"),
    }];
    if info.rest {
        table.push(i18n.t("wanning-inspect-rest"));
    }
    if let Some(x) = data().number(id, n) {
        table.push(i18n.ta("wanning-inspect-number", &[("n", x.into())]));
    }
    match id {
        InstinctId::Foresight => table.push(i18n.t("wanning-inspect-unbannable")),
        InstinctId::Sturdy if here.settings.sturdy_rest => {
            table.push(i18n.t("wanning-inspect-sturdy-rests"))
        }
        InstinctId::EarlyBird => table.push(i18n.t(match here.settings.early_bird_form {
            EarlyBirdForm::Drawn => "wanning-inspect-early-drawn",
            EarlyBirdForm::Neither => "wanning-inspect-early-neither",
        })),
        InstinctId::LastStand => table.push(i18n.t(match here.settings.last_stand {
            LastStandUses::Once => "wanning-inspect-last-once",
            LastStandUses::Unlimited => "wanning-inspect-last-any",
        })),
        _ => {}
    }
    if view.banned.contains(&id) {
        table.push(i18n.t("wanning-inspect-banned"));
    } else if !here.settings.same_instinct && !mine {
        table.push(i18n.t("wanning-inspect-one-each"));
    }
    card.add(
        i18n.ta("inspect-here", &[("n", n.into())]),
        table.join("\n"),
    );
    if mine {
        let mut yours = Vec::new();
        if let Some(left) = view.instinct_uses_left {
            yours.push(i18n.ta("wanning-inspect-left", &[("n", left.into())]));
        }
        if view.instinct_resting {
            yours.push(i18n.t("wanning-inspect-resting"));
        }
        card.add(i18n.t("inspect-yours"), yours.join("\n"));
    }
    let quote = match lang {
        foodweb_rules::Lang::Zh => format!("「{}」", info.quote.zh),
        foodweb_rules::Lang::En => format!("“{}”", info.quote.en),
    };
    card.with(i18n.t("inspect-quote"), quote)
}

/// The viewer's animal card: its level's abilities, with this table's
/// numbers.
pub fn level_card(view: &WanningView, here: &Here, i18n: &I18n) -> Option<Inspect> {
    let (animal, level) = (view.animal?, view.level?);
    let name = data().animals.get(animal)?.name.get(i18n.lang).to_string();
    let n = here.players;
    let mut card =
        Inspect::new(name, i18n.ta("wanning-level", &[("level", level.into())])).pictured();
    let attack = if level == 1 {
        i18n.t("wanning-inspect-sense")
    } else {
        i18n.t("wanning-inspect-attack")
    };
    card.add(i18n.t("wanning-inspect-action"), attack);
    let mut abilities = Vec::new();
    if level <= 2 {
        let from = if level == 1 {
            1
        } else {
            data().wisdom_from_round(n)
        };
        abilities.push(i18n.ta(
            "wanning-inspect-wisdom",
            &[("round", from.into()), ("forms", (n / 2).into())],
        ));
        abilities.push(i18n.t("wanning-inspect-fear"));
    }
    if level == 4 {
        let rest = match here.settings.slaughter_rest {
            SlaughterRest::NotFirstRound => "setup-wanning-slaughter-first",
            SlaughterRest::NotTwiceInARow => "setup-wanning-slaughter-twice",
        };
        abilities.push(i18n.ta(
            "wanning-inspect-slaughter",
            &[
                ("n", data().slaughter_uses(n).into()),
                ("rest", i18n.t(rest).into()),
            ],
        ));
        abilities.push(i18n.ta("wanning-inspect-ambition", &[("half", (n / 2).into())]));
        abilities.push(i18n.ta(
            "wanning-inspect-brutal",
            &[("n", data().brutal_threshold(n).into())],
        ));
    }
    if level == 4 {
        abilities.push(i18n.ta(
            "wanning-slaughter-left",
            &[("n", view.slaughters_left.into())],
        ));
    }
    card.add(i18n.t("wanning-inspect-abilities"), abilities.join("\n"));
    Some(card.with(
        i18n.ta("inspect-here", &[("n", n.into())]),
        i18n.ta("wanning-inspect-levels", &[("level", level.into())]),
    ))
}

/// A seat's plate: the name, the HP the table heard, and whether the seat
/// has given its orders.
pub fn plate(view: &WanningView, seat: SeatId, i18n: &I18n) -> Option<Inspect> {
    let p = view.seats.iter().find(|p| p.seat == seat)?;
    let kind = if view.me == Some(seat) {
        i18n.t("wanning-you")
    } else {
        String::new()
    };
    let state = if p.dead {
        i18n.t("wanning-inspect-dead")
    } else {
        i18n.ta("wanning-inspect-hp", &[("hp", p.hp.into())])
    };
    Some(Inspect::new(i18n.name(&p.name), kind).with(i18n.t("wanning-inspect-heard"), state))
}

/// The viewer's shields, scarecrows and HP.
pub fn status(k: u8, view: &WanningView, i18n: &I18n) -> Inspect {
    let (title, text) = match k {
        0 => (
            i18n.ta("wanning-shields", &[("n", view.shields.into())]),
            "wanning-inspect-shields",
        ),
        1 => (
            i18n.ta("wanning-scarecrows", &[("n", view.scarecrows.into())]),
            "wanning-inspect-scarecrows",
        ),
        _ => (
            i18n.ta(
                "wanning-your-hp",
                &[("hp", view.hp.unwrap_or(0).max(0).into())],
            ),
            "wanning-inspect-your-hp",
        ),
    };
    Inspect::new(title, "").with(i18n.t("inspect-does"), i18n.t(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::prelude::{Rect, Vec2};
    use foodweb_rules::Lang;
    use foodweb_rules::table::{Table, TableConfig};
    use foodweb_rules::wanning::{WanningGame, WanningPhase};

    use super::super::board::Marks;
    use super::super::scene::{Key, inspect_of, layout};

    fn english() -> I18n {
        let mut i = I18n::default();
        i.lang = Lang::En;
        i
    }

    /// A table of `n` past the ban and the pick, so every seat holds its
    /// animal, its instinct and a plate.
    fn dealt(n: usize) -> Table<WanningGame> {
        let mut t = Table::<WanningGame>::new(TableConfig::new(7, n)).expect("a table");
        for _ in 0..3 {
            t.advance_to(t.now_ms() + 3_600_000);
        }
        t
    }

    fn card(key: Key, view: &WanningView, players: usize, settings: &WanningSettings) -> String {
        let here = Here { players, settings };
        inspect_of(key, view, &here, &english())
            .expect("a card")
            .text()
    }

    /// Data (rules.md §6): 合縱連橫's 「最大受到傷害為2/3/4」 at 4-5/6-8/9-10
    /// players, and 預知's uses 1/2/3 at the same counts: the card says the
    /// number of this table, not the three.
    #[test]
    fn an_instinct_card_tells_this_tables_numbers() {
        let s = WanningSettings::default();
        for (n, cap, uses) in [(4, 2, 1), (7, 3, 2), (9, 4, 3)] {
            let view = dealt(n).view(SeatId(0));
            let alliance = card(Key::Choice(InstinctId::Alliance), &view, n, &s);
            assert!(
                alliance.contains(&format!("at this many players: {cap}.")),
                "{alliance}"
            );
            let foresight = card(Key::Choice(InstinctId::Foresight), &view, n, &s);
            let said = if uses == 1 {
                "At most one use a game.".to_string()
            } else {
                format!("At most {uses} uses a game.")
            };
            assert!(foresight.contains(&said), "{foresight}");
            assert!(foresight.contains("cannot be banned"), "{foresight}");
        }
    }

    /// rules.md §8: the house rules change what a card says: 強健 rests a
    /// round (`sturdy_rest`), 垂死抗爭 once or whenever (`last_stand`).
    #[test]
    fn the_tables_house_rules_show_on_the_card() {
        let view = dealt(5).view(SeatId(0));
        let mut s = WanningSettings::default();
        let sturdy = |s: &WanningSettings| card(Key::Choice(InstinctId::Sturdy), &view, 5, s);
        let last = |s: &WanningSettings| card(Key::Choice(InstinctId::LastStand), &view, 5, s);
        assert!(!sturdy(&s).contains("House rule"));
        assert!(last(&s).contains("Once a game."));
        s.sturdy_rest = true;
        s.last_stand = LastStandUses::Unlimited;
        assert!(sturdy(&s).contains("it rests a round after each use"));
        assert!(last(&s).contains("whenever its condition holds"));
    }

    /// 殺戮: 「每名4級玩家每局游戲至多發動2次，人數為7或8時可額外發動一次」:
    /// the level 4's own card says 3 at 7 players and 2 at 6; 智慧 for a
    /// level 2 from round 3 at 6-8 players.
    #[test]
    fn a_level_card_tells_its_abilities_at_this_table() {
        let s = WanningSettings::default();
        for (n, times) in [(6, 2), (7, 3)] {
            let t = dealt(n);
            let seat = (0..n)
                .map(|i| SeatId(i as u8))
                .find(|s| t.view(*s).level == Some(4))
                .expect("a level 4");
            let text = card(Key::MyAnimal, &t.view(seat), n, &s);
            assert!(
                text.contains(&format!("Slaughter, {times} times a game")),
                "{text}"
            );
            let two = (0..n)
                .map(|i| SeatId(i as u8))
                .find(|s| t.view(*s).level == Some(2))
                .expect("a level 2");
            let text = card(Key::MyAnimal, &t.view(two), n, &s);
            assert!(text.contains("Wisdom, once a game from round 3"), "{text}");
            assert!(!text.contains("Slaughter"), "{text}");
        }
    }

    /// 「玩家只能得知自己的等級」 and each knows only their own instinct:
    /// what any piece of a seat's screen tells when inspected names no
    /// other seat's animal, level or instinct.
    #[test]
    fn no_card_tells_another_seats_secret() {
        let n = 7;
        let t = dealt(n);
        let s = WanningSettings::default();
        let here = Here {
            players: n,
            settings: &s,
        };
        let i18n = english();
        let r = Rect::from_corners(Vec2::new(-600.0, -350.0), Vec2::new(600.0, 350.0));
        for me in 0..n {
            let view = t.view(SeatId(me as u8));
            assert!(view.phase != WanningPhase::Ban && view.phase != WanningPhase::Pick);
            let mine = view.instinct.expect("picked");
            let texts: Vec<String> = layout(&view, &Marks::default(), &i18n, r)
                .wants
                .iter()
                .filter_map(|w| inspect_of(w.key, &view, &here, &i18n))
                .map(|c| c.text())
                .collect();
            for other in (0..n).filter(|o| *o != me) {
                let theirs = t.view(SeatId(other as u8));
                let (animal, instinct) = (theirs.animal.unwrap(), theirs.instinct.unwrap());
                let animal = &data().animals[animal].name.en;
                let instinct_name = &data().instinct(instinct).name.en;
                for text in &texts {
                    if theirs.animal != view.animal {
                        assert!(
                            !text.contains(animal.as_str()),
                            "seat {me} reads {animal}: {text}"
                        );
                    }
                    if instinct != mine {
                        assert!(
                            !text.contains(instinct_name.as_str()),
                            "seat {me} reads {instinct_name}: {text}"
                        );
                    }
                }
            }
        }
    }
}
