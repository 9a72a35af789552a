//! The Gene Survival map and movement. Clauses quoted from the seed
//! (`gene-survival.txt`) and the issue; choices from `rules/src/gene/rules.md`.

use foodweb_rules::gene::{ItemKind, Map, MapError, RoomFunction, map};

fn id(key: &str) -> foodweb_rules::gene::RoomId {
    map().by_key(key).unwrap_or_else(|| panic!("no room {key}"))
}

/// Issue: "at least two buildings of at least three floors, several rooms
/// per floor with adjacency, stairs between floors, a bridge (廊桥) between
/// buildings, and a helicopter route between roofs"; the seed's special
/// rooms: 手术室 and 停尸间; every item has a room it is drawn in.
#[test]
fn the_shipped_map_has_what_the_rules_need() {
    let m = map();
    assert!(m.buildings.len() >= 2);
    for b in 0..m.buildings.len() as u8 {
        let floors: Vec<_> = m.floors().into_iter().filter(|f| f.building == b).collect();
        assert!(
            floors.len() >= 3,
            "building {b} has {} floors",
            floors.len()
        );
        for f in floors.iter().filter(|f| f.floor <= 3) {
            assert!(m.rooms_on(*f).count() >= 3, "floor {f:?} has too few rooms");
        }
    }
    assert_eq!(
        m.rooms
            .iter()
            .filter(|r| r.function == Some(RoomFunction::Surgery))
            .count(),
        1
    );
    assert_eq!(
        m.rooms
            .iter()
            .filter(|r| r.function == Some(RoomFunction::Morgue))
            .count(),
        1
    );
    for kind in [
        ItemKind::Water,
        ItemKind::Food,
        ItemKind::Gold,
        ItemKind::Medicine,
        ItemKind::Alcohol,
        ItemKind::Adrenaline,
        ItemKind::Rocket,
    ] {
        assert!(m.rooms.iter().any(|r| r.draws.contains(&kind)), "{kind:?}");
    }
}

/// Seed: "相邻的房间需消耗一步" — one step reaches the neighbours only.
#[test]
fn one_step_reaches_the_neighbouring_rooms() {
    let m = map();
    let mut one = m.destinations(id("e1-lobby"), 1, false);
    one.sort();
    let mut expected = vec![id("e1-stairs"), id("e1-canteen")];
    expected.sort();
    assert_eq!(one, expected);
}

/// Seed: "不同楼层需要通过楼梯上下" — floors change only at the stairs, one
/// step a floor.
#[test]
fn floors_change_only_by_the_stairs() {
    let m = map();
    let reach = m.reachable(id("e1-lobby"), 2, false);
    assert_eq!(reach.get(&id("e2-stairs")), Some(&2), "lobby → stairs → up");
    assert!(
        !reach.contains_key(&id("e2-ward")),
        "the room above is not a stair"
    );
    // The canteen is two rooms from the stairs either way round the floor's
    // ring: two steps, then one up.
    assert_eq!(m.reachable(id("e1-canteen"), 9, false)[&id("e2-stairs")], 3);
}

/// Seed: "不同楼栋，需要通过廊桥或搭乘直升机前往"; the rules document: the
/// bridge costs 1 step, the helicopter 2.
#[test]
fn wings_are_joined_by_the_bridge_and_the_helicopter_only() {
    let m = map();
    assert_eq!(
        m.reachable(id("e2-bridge"), 1, false).get(&id("w2-bridge")),
        Some(&1)
    );
    assert_eq!(
        m.reachable(id("e4-roof"), 2, false).get(&id("w4-roof")),
        Some(&2)
    );
    assert!(
        !m.reachable(id("e4-roof"), 1, false)
            .contains_key(&id("w4-roof"))
    );
    // From the east lobby the west wing is out of reach in 3 steps.
    let reach = m.reachable(id("e1-lobby"), 3, false);
    assert!(reach.keys().all(|&r| m.room(r).floor.building == 0));
}

/// Seed: shadows "可不需楼梯上下楼" — straight up or down from any room.
#[test]
fn shadows_change_floors_anywhere() {
    let m = map();
    assert!(
        m.destinations(id("e1-canteen"), 1, true)
            .contains(&id("e2-office"))
    );
    assert!(
        !m.destinations(id("e1-canteen"), 1, false)
            .contains(&id("e2-office"))
    );
}

/// Seed: "每轮每个玩家必须移动，步数可以不用完" — a move ends in another room
/// within the speed; staying is not a move.
#[test]
fn a_move_ends_elsewhere_within_the_speed() {
    let m = map();
    for from in m.ids() {
        for speed in 1..=6 {
            let to = m.destinations(from, speed, false);
            assert!(!to.contains(&from));
            assert!(!to.is_empty(), "{} has nowhere to go", m.room(from).key);
            let reach = m.reachable(from, speed, false);
            assert!(to.iter().all(|r| reach[r] <= speed));
        }
    }
}

/// DEVELOPERS.md: a bad data file is refused, naming the entry and the reason.
#[test]
fn a_bad_map_is_refused_with_a_reason() {
    let good = include_str!("../src/gene/data/map.ron");
    let cases = [
        (good.replacen("corridor: 1", "corridor: 0", 1), "free"),
        (
            good.replacen("(key: \"e1-lobby\"", "(key: \"e1-stairs\"", 1),
            "appears twice",
        ),
        (
            good.replacen(
                "(a: \"e2-bridge\", b: \"w2-bridge\", kind: Bridge)",
                "(a: \"e2-bridge\", b: \"e3-lab\", kind: Bridge)",
                1,
            ),
            "joins two wings",
        ),
        (
            good.replacen(
                "(a: \"e1-stairs\", b: \"e2-stairs\", kind: Stairs)",
                "(a: \"e1-stairs\", b: \"e3-stairs\", kind: Stairs)",
                1,
            ),
            "neighbouring floors",
        ),
        (
            good.replacen("function: Some(Surgery)", "function: None", 1),
            "Surgery",
        ),
        (good.replacen("draws: [Rocket]", "draws: []", 1), "Rocket"),
        (
            good.replacen(
                "building: \"west\", floor: 3, x: 3",
                "building: \"north\", floor: 3, x: 3",
                1,
            ),
            "unknown building",
        ),
        ("(".to_string(), "not valid RON"),
    ];
    for (text, expect) in cases {
        assert_ne!(text, good, "the case for '{expect}' changed nothing");
        let err: MapError = Map::from_ron(&text).unwrap_err();
        assert!(
            err.to_string().contains(expect),
            "'{err}' should say '{expect}'"
        );
    }
}

/// Seed: "不同楼层需要通过楼梯上下" — a walk from a ground-floor room to a room
/// upstairs (what a token's walk on the screen follows, `Map::path`) goes
/// through the stairs, one linked room at a time, and costs what
/// `reachable` says.
#[test]
fn a_path_walks_linked_rooms_through_the_stairs() {
    let m = map();
    let (from, to) = (id("e1-lobby"), id("e2-ward"));
    let path = m.path(from, to, false).expect("the ward can be walked to");
    assert_eq!(path.first(), Some(&from));
    assert_eq!(path.last(), Some(&to));
    assert!(path.contains(&id("e1-stairs")) && path.contains(&id("e2-stairs")));
    let mut cost = 0;
    for leg in path.windows(2) {
        let step = m
            .neighbours(leg[0], false)
            .iter()
            .find(|(r, _)| *r == leg[1])
            .map(|(_, c)| *c);
        cost += step.expect("each leg joins linked rooms");
    }
    assert_eq!(Some(&cost), m.reachable(from, 99, false).get(&to));
}
