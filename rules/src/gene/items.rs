//! Gene Survival's item cards, read from `data/items.ron`. 「1张道具卡占用1点
//! 负重」: every card takes one point of carry.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::map::ItemKind;
use crate::text::Bilingual;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub kind: ItemKind,
    pub name: Bilingual,
    /// Cards of this kind in the supply at the start.
    pub supply: u8,
    /// The settlement step that announces its use, if any.
    pub step: Option<u8>,
    pub effect: Bilingual,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Items {
    pub items: Vec<Item>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ItemsError {
    #[error("items file is not valid RON: {0}")]
    Parse(String),
    #[error("item {0:?} is listed twice")]
    Twice(ItemKind),
    #[error("item {0:?} is missing")]
    Missing(ItemKind),
    #[error("item {kind:?}: settlement step {step} is not one of 1 to 7")]
    Step { kind: ItemKind, step: u8 },
    #[error("item {0:?} has no cards in the supply")]
    Empty(ItemKind),
}

impl Items {
    pub fn from_ron(text: &str) -> Result<Self, ItemsError> {
        let items: Self = ron::from_str(text).map_err(|e| ItemsError::Parse(e.to_string()))?;
        for (i, item) in items.items.iter().enumerate() {
            if items.items[..i].iter().any(|o| o.kind == item.kind) {
                return Err(ItemsError::Twice(item.kind));
            }
            if let Some(step) = item.step
                && !(1..=7).contains(&step)
            {
                return Err(ItemsError::Step {
                    kind: item.kind,
                    step,
                });
            }
            if item.supply == 0 {
                return Err(ItemsError::Empty(item.kind));
            }
        }
        if let Some(kind) = ItemKind::ALL
            .into_iter()
            .find(|k| !items.items.iter().any(|i| i.kind == *k))
        {
            return Err(ItemsError::Missing(kind));
        }
        Ok(items)
    }

    pub fn get(&self, kind: ItemKind) -> &Item {
        self.items
            .iter()
            .find(|i| i.kind == kind)
            .expect("every kind was checked to be there")
    }

    /// The rules document's item table (a test keeps the two in step).
    pub fn table_markdown(&self) -> String {
        let mut out = String::from(
            "| card | in the supply | effect | settlement step |\n| --- | --- | --- | --- |\n",
        );
        for i in &self.items {
            let step = i.step.map_or("end".to_string(), |s| s.to_string());
            out += &format!(
                "| {} {} | {} | {} · {} | {} |\n",
                i.name.zh, i.name.en, i.supply, i.effect.en, i.effect.zh, step
            );
        }
        out
    }
}

/// The item cards the game ships with.
pub fn items() -> &'static Items {
    static ITEMS: OnceLock<Items> = OnceLock::new();
    ITEMS.get_or_init(|| {
        Items::from_ron(include_str!("data/items.ron")).expect("the shipped items are valid")
    })
}
