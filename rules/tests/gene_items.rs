//! Gene Survival's item cards: the seed's names, one card one point of
//! carry, the document's table in step with the data.

use foodweb_rules::gene::items::ItemsError;
use foodweb_rules::gene::{ItemKind, Items, items};

/// Issue: "at least water, food, gold bar, medicine, alcohol, adrenaline and
/// rocket launcher (the seed names them all), each with a written effect
/// and its settlement step".
#[test]
fn every_card_the_seed_names_is_there_with_an_effect_and_a_step() {
    let it = items();
    let names: Vec<&str> = it.items.iter().map(|i| i.name.zh.as_str()).collect();
    for zh in ["水", "粮", "金条", "药品", "酒", "肾上腺素", "火箭筒"] {
        assert!(names.contains(&zh), "{zh} is missing");
    }
    for kind in ItemKind::ALL {
        let item = it.get(kind);
        assert!(!item.effect.en.is_empty() && !item.effect.zh.is_empty());
    }
    // 「5.火箭筒袭击了哪个房间」「6.是否有玩家使用药品、酒、肾上腺素道具卡改变自身状态」
    assert_eq!(it.get(ItemKind::Rocket).step, Some(5));
    for k in [ItemKind::Medicine, ItemKind::Alcohol, ItemKind::Adrenaline] {
        assert_eq!(it.get(k).step, Some(6), "{k:?}");
    }
    // 「4.从第二轮开始玩家需上交1水1粮」
    assert_eq!(it.get(ItemKind::Water).step, Some(4));
    assert_eq!(it.get(ItemKind::Food).step, Some(4));
}

#[test]
fn the_rules_document_shows_the_items_as_they_are() {
    let table = items().table_markdown();
    assert!(
        foodweb_rules::gene::RULES_MD.contains(&table),
        "rules.md's item table is stale; it should read:\n{table}"
    );
}

#[test]
fn a_bad_items_file_is_refused_with_the_reason() {
    let good = include_str!("../src/gene/data/items.ron");
    let cases = [
        (
            good.replacen("step: Some(5)", "step: Some(9)", 1),
            "not one of 1 to 7",
        ),
        (good.replacen("supply: 3", "supply: 0", 1), "no cards"),
        (
            good.replacen("kind: Rocket", "kind: Water", 1),
            "listed twice",
        ),
        ("(items: [])".to_string(), "missing"),
        ("(items: [".to_string(), "not valid RON"),
    ];
    for (text, expect) in cases {
        let err: ItemsError = Items::from_ron(&text).unwrap_err();
        assert!(
            err.to_string().contains(expect),
            "'{err}' should say '{expect}'"
        );
    }
}
