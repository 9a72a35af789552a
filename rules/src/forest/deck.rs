//! The Forest Showdown deck, read from `data/deck.ron` and checked against
//! what the rules need of it.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::text::Bilingual;

/// Cards in the deck, Death & Decay included (seed: "there are 41 cards").
pub const DECK_SIZE: usize = 41;
/// Copies of Death & Decay (seed: "The two Death & Decay cards").
pub const DEATH_DECAY_COPIES: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    Producer,
    Herbivore,
    InsectEater,
    Predator,
    /// Consumes decaying matter: takes Death & Decay.
    Decomposer,
    DeathAndDecay,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Producer,
        Role::Herbivore,
        Role::InsectEater,
        Role::Predator,
        Role::Decomposer,
        Role::DeathAndDecay,
    ];

    pub fn name(self) -> Bilingual {
        match self {
            Role::Producer => Bilingual::new("producer", "生产者"),
            Role::Herbivore => Bilingual::new("herbivore", "植食动物"),
            Role::InsectEater => Bilingual::new("insect-eater", "食虫动物"),
            Role::Predator => Bilingual::new("predator", "捕食者"),
            Role::Decomposer => Bilingual::new("decomposer / scavenger", "分解者 / 食腐者"),
            Role::DeathAndDecay => Bilingual::new("Death & Decay", "死亡与腐朽"),
        }
    }
}

/// One kind of card. The two Death & Decay cards share one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardId(pub u8);

#[derive(Clone, Debug, PartialEq)]
pub struct Species {
    pub key: String,
    pub name: Bilingual,
    pub icon: String,
    pub energy: i64,
    pub role: Role,
    pub copies: u8,
}

#[derive(Debug)]
pub struct Deck {
    pub species: Vec<Species>,
    eats: Vec<Vec<bool>>,
    death_decay: CardId,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    #[error("deck file is not readable: {0}")]
    Parse(String),
    #[error("card '{card}': {reason}")]
    Card { card: String, reason: String },
    #[error("deck: {0}")]
    Deck(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckFile {
    cards: Vec<CardSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardSpec {
    id: String,
    en: String,
    zh: String,
    /// A glyph drawn until the card has its illustration.
    #[serde(default)]
    icon: String,
    energy: i64,
    role: Role,
    eats: Vec<String>,
    #[serde(default = "one")]
    copies: u8,
}

fn one() -> u8 {
    1
}

impl Deck {
    /// Reads and checks a deck file. Every rule the game relies on is
    /// checked here, so a bad file is refused with the card and the reason.
    pub fn from_ron(text: &str) -> Result<Self, DeckError> {
        let file: DeckFile = ron::from_str(text).map_err(|e| DeckError::Parse(e.to_string()))?;
        let card_err = |card: &str, reason: String| DeckError::Card {
            card: card.to_string(),
            reason,
        };
        let keys: Vec<&str> = file.cards.iter().map(|c| c.id.as_str()).collect();
        if keys.len() > u8::MAX as usize {
            return Err(DeckError::Deck(format!(
                "{} kinds of card is too many",
                keys.len()
            )));
        }
        for (i, c) in file.cards.iter().enumerate() {
            if c.id.is_empty() || c.en.trim().is_empty() || c.zh.trim().is_empty() {
                return Err(card_err(
                    &c.id,
                    "needs an id and names in both languages".into(),
                ));
            }
            if keys[..i].contains(&c.id.as_str()) {
                return Err(card_err(&c.id, "appears twice".into()));
            }
            if c.energy < 0 {
                return Err(card_err(&c.id, format!("energy {} is negative", c.energy)));
            }
        }
        let dd: Vec<usize> = (0..file.cards.len())
            .filter(|&i| file.cards[i].role == Role::DeathAndDecay)
            .collect();
        let [dd] = dd[..] else {
            return Err(DeckError::Deck(format!(
                "needs exactly one Death & Decay kind, found {}",
                dd.len()
            )));
        };
        let n = file.cards.len();
        let mut eats = vec![vec![false; n]; n];
        for (i, c) in file.cards.iter().enumerate() {
            let want = if i == dd { DEATH_DECAY_COPIES } else { 1 };
            if c.copies != want {
                return Err(card_err(
                    &c.id,
                    format!("has {} copies, the game needs {want}", c.copies),
                ));
            }
            if i == dd && !c.eats.is_empty() {
                return Err(card_err(
                    &c.id,
                    "Death & Decay's prey come from the rules (every card but its takers); leave `eats` empty".into(),
                ));
            }
            for prey in &c.eats {
                let Some(j) = keys.iter().position(|k| k == prey) else {
                    return Err(card_err(
                        &c.id,
                        format!("eats '{prey}', which is not in the deck"),
                    ));
                };
                if j == i {
                    return Err(card_err(&c.id, "eats itself".into()));
                }
                eats[i][j] = true;
            }
            let takes_dd = eats[i][dd];
            if takes_dd != (c.role == Role::Decomposer) {
                return Err(card_err(
                    &c.id,
                    if takes_dd {
                        "takes Death & Decay but is not a decomposer or scavenger".into()
                    } else {
                        "is a decomposer or scavenger but does not take Death & Decay".into()
                    },
                ));
            }
        }
        // Seed: Death & Decay eats everything but the cards that take it.
        let takers: Vec<bool> = (0..n).map(|j| eats[j][dd]).collect();
        for (j, taker) in takers.into_iter().enumerate() {
            eats[dd][j] = j != dd && !taker;
        }
        let total: usize = file.cards.iter().map(|c| c.copies as usize).sum();
        if total != DECK_SIZE {
            return Err(DeckError::Deck(format!(
                "has {total} cards, the game needs {DECK_SIZE}"
            )));
        }
        for (j, c) in file.cards.iter().enumerate() {
            if !(0..n).any(|i| eats[i][j]) {
                return Err(card_err(&c.id, "is eaten by nothing".into()));
            }
        }
        for role in Role::ALL {
            if !file.cards.iter().any(|c| c.role == role) {
                return Err(DeckError::Deck(format!("has no {}", role.name().en)));
            }
        }
        if !(0..n).any(|i| (0..n).any(|j| eats[i][j] && eats[j][i])) {
            return Err(DeckError::Deck(
                "needs at least one pair that eat each other (the seed's spiders and preying insects)".into(),
            ));
        }
        let species = file
            .cards
            .into_iter()
            .map(|c| Species {
                key: c.id,
                name: Bilingual::new(c.en, c.zh),
                icon: c.icon,
                energy: c.energy,
                role: c.role,
                copies: c.copies,
            })
            .collect();
        Ok(Self {
            species,
            eats,
            death_decay: CardId(dd as u8),
        })
    }

    pub fn card(&self, id: CardId) -> &Species {
        &self.species[id.0 as usize]
    }

    pub fn by_key(&self, key: &str) -> Option<CardId> {
        self.species
            .iter()
            .position(|s| s.key == key)
            .map(|i| CardId(i as u8))
    }

    pub fn ids(&self) -> impl Iterator<Item = CardId> {
        (0..self.species.len()).map(|i| CardId(i as u8))
    }

    /// Does `eater` eat `eaten`?
    pub fn eats(&self, eater: CardId, eaten: CardId) -> bool {
        self.eats[eater.0 as usize][eaten.0 as usize]
    }

    /// Whether a challenge with `with` may name `named`: `with` eats it, or
    /// the two are Death & Decay and one of its takers, which, like the
    /// spider and the mantis, fall to whichever is the challenger (seed:
    /// "In a Showdown they provide a stand-off with Death & Decay. In a
    /// Challenge the challenger wins.").
    pub fn takes_in_challenge(&self, with: CardId, named: CardId) -> bool {
        self.eats(with, named) || (self.is_death_decay(with) && self.takes_death_decay(named))
    }

    pub fn death_decay(&self) -> CardId {
        self.death_decay
    }

    pub fn is_death_decay(&self, card: CardId) -> bool {
        card == self.death_decay
    }

    /// Cards that take Death & Decay (those that consume decaying matter).
    pub fn takes_death_decay(&self, card: CardId) -> bool {
        self.eats(card, self.death_decay)
    }

    /// Every card of the deck, copies included, in deck order.
    pub fn all_cards(&self) -> Vec<CardId> {
        self.ids()
            .flat_map(|id| std::iter::repeat_n(id, self.card(id).copies as usize))
            .collect()
    }

    pub fn energy(&self, cards: &[CardId]) -> i64 {
        cards.iter().map(|&c| self.card(c).energy).sum()
    }
}

pub const DECK_RON: &str = include_str!("data/deck.ron");

/// The deck the game is played with.
pub fn deck() -> &'static Deck {
    static DECK: OnceLock<Deck> = OnceLock::new();
    DECK.get_or_init(|| Deck::from_ron(DECK_RON).expect("data/deck.ron is checked by the tests"))
}

impl Serialize for CardId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&deck().card(*self).key)
    }
}

impl<'de> Deserialize<'de> for CardId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        deck()
            .by_key(&key)
            .ok_or_else(|| serde::de::Error::custom(format!("no card '{key}' in the Forest deck")))
    }
}

/// The food web as a Markdown table (the rules document holds a copy; a
/// test keeps the two in step).
pub fn web_table_markdown(d: &Deck) -> String {
    let mut out = String::from(
        "| card · 牌 | energy · 能量 | role · 类别 | eats · 吃 | eaten by · 被吃 |\n| --- | --- | --- | --- | --- |\n",
    );
    let names = |ids: Vec<CardId>| -> String {
        if ids.len() + 1 >= d.species.len() {
            return "every card but its takers · 除拿取者外所有牌".to_string();
        }
        ids.iter()
            .map(|&c| d.card(c).name.en.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for c in d.ids() {
        let s = d.card(c);
        let eats: Vec<CardId> = d.ids().filter(|&o| d.eats(c, o)).collect();
        let eaten: Vec<CardId> = d.ids().filter(|&o| d.eats(o, c)).collect();
        let eats_text = if d.is_death_decay(c) {
            "every card but its takers and itself · 除拿取者和自身外所有牌".to_string()
        } else if eats.is_empty() {
            "–".to_string()
        } else {
            names(eats)
        };
        out += &format!(
            "| {} · {}{} | {} | {} | {} | {} |\n",
            s.name.en,
            s.name.zh,
            if s.copies > 1 {
                format!(" ×{}", s.copies)
            } else {
                String::new()
            },
            s.energy,
            s.role.name().en,
            eats_text,
            names(eaten)
        );
    }
    out
}
