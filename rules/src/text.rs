//! Text that a person reads, always in both of Foodweb's languages.

use serde::{Deserialize, Serialize};

/// A language the tables speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

/// One sentence in English and Chinese. Rules never build text for one
/// language only, so a client can switch language at any time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bilingual {
    pub en: String,
    pub zh: String,
}

impl Bilingual {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self {
            en: en.into(),
            zh: zh.into(),
        }
    }

    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

impl std::fmt::Display for Bilingual {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} / {}", self.en, self.zh)
    }
}

/// Builds a [`Bilingual`] with `format!` syntax for each language.
#[macro_export]
macro_rules! bi {
    ($en:expr, $zh:expr $(,)?) => {
        $crate::text::Bilingual::new(format!($en), format!($zh))
    };
}
