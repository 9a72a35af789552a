//! Words for what happened at a table. Rule systems say *what* happened
//! (a game's domain events and typed refusals); a game's narrator says it
//! in both languages from the Fluent files in `rules/i18n/`. Rule code
//! formats no text.
//!
//! A table narrates only when someone will read the words: a simulated
//! game (`foodweb sim`) leaves the narrator out and pays nothing for text.

use std::collections::HashMap;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use crate::table::{Amount, Said, SeatId, Seats};
use crate::text::Bilingual;

/// One game's words in English and Chinese.
pub struct Phrasebook {
    en: FluentBundle<FluentResource>,
    zh: FluentBundle<FluentResource>,
}

fn bundle(text: &'static str, lang: &str) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(text.to_string())
        .unwrap_or_else(|(_, errors)| panic!("{lang} rules text does not parse: {errors:?}"));
    let id: unic_langid::LanguageIdentifier = lang.parse().expect("a language tag");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Plain text: the words end up in logs, files and terminals too.
    bundle.set_use_isolating(false);
    bundle
        .add_resource(resource)
        .expect("rules text keys are unique");
    bundle
}

/// Each seat's HP in a line, "Ann: 3 · reasoning bot 4: 2" (a name may
/// end in a number of its own, so the HP follows a colon).
pub fn hp_list(hps: impl Iterator<Item = (Bilingual, i64)>) -> Bilingual {
    let (en, zh): (Vec<String>, Vec<String>) = hps
        .map(|(name, hp)| (format!("{}: {hp}", name.en), format!("{}：{hp}", name.zh)))
        .unzip();
    Bilingual::new(en.join(" · "), zh.join(" · "))
}

/// A value to put into a phrase.
pub enum Arg {
    Text(String),
    Number(i64),
    /// Words that differ by language (a seat's name, a card's name).
    Words(Bilingual),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_string())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}

impl From<Bilingual> for Arg {
    fn from(b: Bilingual) -> Self {
        Arg::Words(b)
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Self {
                Arg::Number(n as i64)
            }
        }
    )*};
}
number_arg!(i32, i64, u8, u16, u32, usize);

impl Phrasebook {
    /// Reads both languages' files; every key must be in both
    /// (checked by [`Phrasebook::missing`] in each game's tests).
    pub fn new(en: &'static str, zh: &'static str) -> Self {
        Self {
            en: bundle(en, "en"),
            zh: bundle(zh, "zh-CN"),
        }
    }

    /// The phrase `key` in both languages.
    pub fn say(&self, key: &str, args: &[(&str, Arg)]) -> Bilingual {
        Bilingual::new(
            Self::format(&self.en, key, args, false),
            Self::format(&self.zh, key, args, true),
        )
    }

    fn format(
        bundle: &FluentBundle<FluentResource>,
        key: &str,
        args: &[(&str, Arg)],
        zh: bool,
    ) -> String {
        let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) else {
            debug_assert!(false, "no rules text for {key}");
            return key.to_string();
        };
        let mut fa = FluentArgs::new();
        for (name, arg) in args {
            let value = match arg {
                Arg::Text(s) => FluentValue::from(s.as_str()),
                Arg::Number(n) => FluentValue::from(n.to_string()),
                Arg::Words(b) => FluentValue::from(if zh { b.zh.as_str() } else { b.en.as_str() }),
            };
            fa.set(*name, value);
        }
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, Some(&fa), &mut errors)
            .into_owned()
    }

    /// Keys one language has and the other lacks (tests: empty).
    pub fn missing(en: &str, zh: &str) -> Vec<String> {
        let keys = |text: &str| -> HashMap<String, ()> {
            text.lines()
                .filter(|l| !l.starts_with(['#', ' ', '\t']))
                .filter_map(|l| l.split_once(" = ").map(|(k, _)| (k.trim().to_string(), ())))
                .collect()
        };
        let (e, z) = (keys(en), keys(zh));
        let mut out: Vec<String> = e
            .keys()
            .filter(|k| !z.contains_key(*k))
            .chain(z.keys().filter(|k| !e.contains_key(*k)))
            .cloned()
            .collect();
        out.sort();
        out
    }
}

/// Where a piece of news's words go: to the whole table or to one seat,
/// from a game's phrasebook, naming seats as that game names them.
pub struct Words<'a> {
    pub seats: &'a Seats,
    pub out: &'a mut Vec<Said>,
    book: &'static Phrasebook,
    naming: fn(&Seats, SeatId) -> Arg,
}

impl<'a> Words<'a> {
    pub fn new(
        seats: &'a Seats,
        out: &'a mut Vec<Said>,
        book: &'static Phrasebook,
        naming: fn(&Seats, SeatId) -> Arg,
    ) -> Self {
        Self {
            seats,
            out,
            book,
            naming,
        }
    }

    /// A seat as the game names it.
    pub fn name(&self, s: SeatId) -> Arg {
        (self.naming)(self.seats, s)
    }

    /// Said to the whole table.
    pub fn all(&mut self, key: &str, args: &[(&str, Arg)]) {
        let line = self.book.say(key, args);
        self.out.push(Said::All(line));
    }

    /// Said to one seat alone.
    pub fn to(&mut self, seat: SeatId, key: &str, args: &[(&str, Arg)]) {
        let line = self.book.say(key, args);
        self.out.push(Said::To(seat, line));
    }

    /// Said to one seat alone, with the changes to its own things the
    /// line tells of (issue 71).
    pub fn counted(&mut self, seat: SeatId, key: &str, args: &[(&str, Arg)], amounts: Vec<Amount>) {
        let line = self.book.say(key, args);
        self.out.push(Said::Counted(seat, line, amounts));
    }
}

/// A game's phrasebook from `rules/i18n/{en,zh}/<name>.ftl`: the texts
/// (`EN`, `ZH`, for tests), `book()` reading them once, and `say(key,
/// args)`. One line in each game's narrator.
#[macro_export]
macro_rules! phrasebook {
    ($name:literal) => {
        pub const EN: &str = include_str!(concat!("../../i18n/en/", $name, ".ftl"));
        pub const ZH: &str = include_str!(concat!("../../i18n/zh/", $name, ".ftl"));

        /// The game's words, read once.
        pub fn book() -> &'static $crate::narrate::Phrasebook {
            static BOOK: std::sync::OnceLock<$crate::narrate::Phrasebook> =
                std::sync::OnceLock::new();
            BOOK.get_or_init(|| $crate::narrate::Phrasebook::new(EN, ZH))
        }

        fn say(key: &str, args: &[(&str, $crate::narrate::Arg)]) -> $crate::text::Bilingual {
            book().say(key, args)
        }

        /// Chinese and English throughout: both files give every phrase.
        #[cfg(test)]
        #[test]
        fn both_languages_have_every_phrase() {
            assert_eq!(
                $crate::narrate::Phrasebook::missing(EN, ZH),
                Vec::<String>::new()
            );
        }
    };
}
