//! Gene Survival's settlement arithmetic against the seed's clauses.

use foodweb_rules::gene::settle::{GeneNumbers, NumbersError};
use foodweb_rules::gene::{Genes, GenesRefusal, Standing, battle_losses, numbers, places};

/// 「武力值最高的玩家生命值不变，其余玩家将扣除与该玩家武力值之差的等量生命值」
#[test]
fn the_strongest_loses_nothing_and_the_rest_lose_the_difference() {
    assert_eq!(battle_losses(&[5, 3]), vec![0, 2]);
    assert_eq!(battle_losses(&[2, 6, 4, 6]), vec![4, 0, 2, 0]);
    // One player alone in a room does not fight.
    assert_eq!(battle_losses(&[7]), vec![0]);
}

/// 「第一轮1点，第二、三轮2点，第四、五轮3点，第六轮4点」
#[test]
fn gas_hurts_more_as_the_rounds_go() {
    let n = numbers();
    assert_eq!(
        (1..=6).map(|r| n.gas(r)).collect::<Vec<_>>(),
        vec![1, 2, 2, 3, 3, 4]
    );
    assert_eq!(n.rounds, 6);
}

/// 「从第二轮开始玩家需上交1水1粮（若只上交其一，则会扣除一点生命值，若都未上交，
/// 则会扣除两点生命值）」
#[test]
fn upkeep_starts_in_round_two_and_costs_a_point_per_missing_card() {
    let n = numbers();
    assert_eq!(n.upkeep_loss(1, false, false), 0);
    assert_eq!(n.upkeep_loss(2, true, true), 0);
    assert_eq!(n.upkeep_loss(2, true, false), 1);
    assert_eq!(n.upkeep_loss(3, false, true), 1);
    assert_eq!(n.upkeep_loss(6, false, false), 2);
}

/// 「每位玩家初始有10点基因……点数需全部用完」; speed ≥ 1 (rules.md §1).
#[test]
fn a_gene_panel_spends_every_point_and_can_move() {
    let points = numbers().gene_points;
    assert_eq!(points, 10);
    assert!(
        Genes {
            strength: 4,
            speed: 3,
            carry: 3
        }
        .check(points)
        .is_ok()
    );
    assert!(
        Genes {
            strength: 0,
            speed: 10,
            carry: 0
        }
        .check(points)
        .is_ok()
    );
    let short = Genes {
        strength: 4,
        speed: 3,
        carry: 2,
    }
    .check(points)
    .unwrap_err();
    assert_eq!(short, GenesRefusal::Unspent { points, total: 9 });
    let still = Genes {
        strength: 5,
        speed: 0,
        carry: 5,
    }
    .check(points)
    .unwrap_err();
    assert_eq!(still, GenesRefusal::NoSpeed);
}

/// 「暗影玩家排名在存活玩家之后，若存活玩家生命值相同，则比较武力，暗影玩家之间
/// 比较生前武力，武力高的玩家排名靠前」 and 「分别获得九到一个金魔方积分」
#[test]
fn the_living_rank_by_hp_then_strength_and_shadows_by_strength_in_life() {
    let s = |alive, hp, strength| Standing {
        alive,
        hp,
        strength,
    };
    let standings = [
        s(true, 6, 2),
        s(false, 0, 7),
        s(true, 6, 5),
        s(true, 9, 1),
        s(false, 0, 3),
    ];
    assert_eq!(places(&standings), vec![3, 4, 2, 1, 5]);
    assert_eq!(numbers().place_cubes, vec![9, 8, 7, 6, 5, 4, 3, 2, 1]);
}

/// DEVELOPERS.md: a bad data file is refused with the reason.
#[test]
fn a_bad_rules_file_is_refused() {
    let good = include_str!("../src/gene/data/rules.ron");
    assert!(matches!(
        GeneNumbers::from_ron(&good.replace("[1, 2, 2, 3, 3, 4]", "[1, 2, 2]")),
        Err(NumbersError::GasRounds {
            found: 3,
            rounds: 6
        })
    ));
    assert!(matches!(
        GeneNumbers::from_ron(&good.replace("start_hp: 10", "start_hp: 12")),
        Err(NumbersError::StartAboveMax { .. })
    ));
    assert!(matches!(
        GeneNumbers::from_ron("(rounds: 6"),
        Err(NumbersError::Parse(_))
    ));
}
