//! The list of legal challenges a table offers (and greys out) and bots
//! choose among: `ForestView::challengeable`.

use foodweb_rules::forest::{ForestAction, ForestGame, ForestSetup, Role, deck};
use foodweb_rules::table::{SeatId, Table, TableConfig};

/// Seed, Death & Decay 2: "In a Showdown they provide a stand-off with
/// Death & Decay. In a Challenge the challenger wins." Death & Decay may be
/// named against each of its takers, a taker may name Death & Decay, and
/// after one Death & Decay challenge in a turn none is offered again
/// ("Death & Decay may be used as a challenging card only once").
#[test]
fn death_decay_may_challenge_for_its_takers_once_a_turn() {
    let d = deck();
    let key = |k: &str| d.by_key(k).unwrap();
    let setup = ForestSetup {
        hands: vec![
            vec![key("moss")],
            vec![key("death_decay"), key("crow"), key("pine")],
            vec![key("mushroom"), key("slug"), key("oak")],
        ],
        deal_rest: Some(false),
        first: None,
        later: Vec::new(),
    };
    let mut t =
        Table::<ForestGame>::with_setup(TableConfig::new(1, 3), Some(&setup)).expect("a table");
    t.submit(SeatId(0), ForestAction::AskShowdown { target: SeatId(1) })
        .unwrap();
    t.submit(SeatId(0), ForestAction::PlayCard { card: key("moss") })
        .unwrap();
    t.submit(SeatId(1), ForestAction::PlayCard { card: key("pine") })
        .unwrap();
    let view = t.view(SeatId(1));
    assert_eq!(view.active, SeatId(1));
    let with_dd = view.challengeable(key("death_decay"));
    // Every card but Death & Decay itself: its takers included.
    for c in d.ids() {
        let taker = d.card(c).role == Role::Decomposer;
        assert_eq!(
            with_dd.contains(&c),
            !d.is_death_decay(c),
            "{}",
            d.card(c).key
        );
        if taker {
            assert!(with_dd.contains(&c), "{} is offered", d.card(c).key);
        }
    }
    // The crow, a taker, may name Death & Decay.
    assert!(
        view.challengeable(key("crow"))
            .contains(&key("death_decay"))
    );
    // The pine eats nothing: nothing to name.
    assert!(view.challengeable(key("pine")).is_empty());
    // One Death & Decay challenge: none is offered again this turn.
    t.submit(
        SeatId(1),
        ForestAction::Challenge {
            target: SeatId(2),
            named: key("mushroom"),
            with: key("death_decay"),
        },
    )
    .expect("Death & Decay challenges for the mushroom");
    let view = t.view(SeatId(1));
    assert!(view.hand.contains(&key("mushroom")));
    assert!(view.challengeable(key("death_decay")).is_empty());
}
