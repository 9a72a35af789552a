//! What a seat is called: a person's own name, or a bot's kind and
//! number, which each viewer reads in their own language. The two are
//! different types of name, so no person's name can pass for a bot's.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::text::{Bilingual, Lang};

/// A seat's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeatName {
    /// What the person typed (or the server's distinct default).
    Person(String),
    /// A bot of `kind` ("memory", "reasoning", ...) at seat `number`
    /// (1-based), worded in the viewer's language ("reasoning bot 4",
    /// "推理机器人 4"), or the name its table's owner gave it.
    Bot {
        kind: String,
        number: u16,
        name: Option<String>,
    },
}

/// An empty person's name (a view's seat before it is filled).
impl Default for SeatName {
    fn default() -> Self {
        Self::Person(String::new())
    }
}

impl SeatName {
    pub fn person(name: impl Into<String>) -> Self {
        Self::Person(name.into())
    }

    pub fn bot(kind: impl Into<String>, number: usize) -> Self {
        Self::Bot {
            kind: kind.into(),
            number: number as u16,
            name: None,
        }
    }

    pub fn is_bot(&self) -> bool {
        matches!(self, Self::Bot { .. })
    }

    /// The name in both languages.
    pub fn words(&self) -> Bilingual {
        match self {
            Self::Person(name)
            | Self::Bot {
                name: Some(name), ..
            } => Bilingual::new(name.clone(), name.clone()),
            Self::Bot {
                kind,
                number,
                name: None,
            } => {
                let kind = bot_kind_words(kind);
                Bilingual::new(
                    format!("{} bot {number}", kind.en),
                    format!("{}机器人 {number}", kind.zh),
                )
            }
        }
    }

    /// The name in `lang`.
    pub fn get(&self, lang: Lang) -> String {
        self.words().get(lang).to_string()
    }

    /// Whether the name says its seat's number already (a bot named by
    /// its kind), so nothing adds it again ("reasoning bot 4 (4)").
    pub fn numbered(&self) -> bool {
        matches!(self, Self::Bot { name: None, .. })
    }
}

/// A bot kind in words: "reasoning" is 「推理」.
pub fn bot_kind_words(kind: &str) -> Bilingual {
    let zh = match kind {
        "memory" => "过目不忘",
        "random" => "随机",
        "survivor" => "求生",
        "reasoning" => "推理",
        other => other,
    };
    Bilingual::new(kind, zh)
}

/// English, for logs, files and tests.
impl std::fmt::Display for SeatName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words().en)
    }
}

impl From<&str> for SeatName {
    fn from(name: &str) -> Self {
        Self::person(name)
    }
}

impl From<String> for SeatName {
    fn from(name: String) -> Self {
        Self::Person(name)
    }
}

/// On the wire (postcard, which is not self-describing) a name is a
/// tagged enum; in saved tables and scenario files (RON) a person's name
/// is a plain string, as every table saved before names had a type, and
/// a bot is `(bot: "memory", number: 3)`.
#[derive(Serialize, Deserialize)]
enum Tagged {
    Person(String),
    Bot {
        kind: String,
        number: u16,
        name: Option<String>,
    },
}

#[derive(Serialize, Deserialize)]
struct BotFields {
    bot: String,
    number: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

impl Serialize for SeatName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self, s.is_human_readable()) {
            (Self::Person(name), true) => s.serialize_str(name),
            (Self::Bot { kind, number, name }, true) => BotFields {
                bot: kind.clone(),
                number: *number,
                name: name.clone(),
            }
            .serialize(s),
            (Self::Person(name), false) => Tagged::Person(name.clone()).serialize(s),
            (Self::Bot { kind, number, name }, false) => Tagged::Bot {
                kind: kind.clone(),
                number: *number,
                name: name.clone(),
            }
            .serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for SeatName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !d.is_human_readable() {
            return Ok(match Tagged::deserialize(d)? {
                Tagged::Person(name) => Self::Person(name),
                Tagged::Bot { kind, number, name } => Self::Bot { kind, number, name },
            });
        }
        d.deserialize_any(ReadableName)
    }
}

struct ReadableName;

impl<'de> Visitor<'de> for ReadableName {
    type Value = SeatName;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a person's name, or (bot: kind, number: n)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SeatName, E> {
        Ok(SeatName::person(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<SeatName, E> {
        Ok(SeatName::Person(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SeatName, A::Error> {
        let b = BotFields::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(SeatName::Bot {
            kind: b.bot,
            number: b.number,
            name: b.name,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_worded_in_each_language_and_a_person_as_typed() {
        let bot = SeatName::bot("reasoning", 4);
        assert_eq!(bot.get(Lang::En), "reasoning bot 4");
        assert_eq!(bot.get(Lang::Zh), "推理机器人 4");
        assert_eq!(SeatName::person("小陈").get(Lang::En), "小陈");
    }

    /// Issue 66: "reasoning bot 4 4" in the HP line. A bot named by its
    /// kind and number is not numbered again; a person's name is.
    #[test]
    fn a_seat_is_numbered_once() {
        let seats = crate::table::Seats {
            names: vec![SeatName::person("Ann"), SeatName::bot("reasoning", 2)],
        };
        let numbered = |i| seats.words_numbered(crate::table::SeatId(i));
        assert_eq!(numbered(0), Bilingual::new("Ann (1)", "Ann (1)"));
        assert_eq!(
            numbered(1),
            Bilingual::new("reasoning bot 2", "推理机器人 2")
        );
    }

    #[test]
    fn a_saved_table_reads_back_names_and_old_plain_strings() {
        let names = vec![SeatName::person("Ana"), SeatName::bot("memory", 2)];
        let text = ron::to_string(&names).unwrap();
        assert_eq!(text, r#"["Ana",(bot:"memory",number:2)]"#);
        assert_eq!(ron::from_str::<Vec<SeatName>>(&text).unwrap(), names);
        // A table saved before names had a type.
        let old: Vec<SeatName> = ron::from_str(r#"["Ana","memory bot 2"]"#).unwrap();
        assert_eq!(old[1], SeatName::person("memory bot 2"));
    }
}
