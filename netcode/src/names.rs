//! What a name shown at a table may be (issue 70): a name must read as
//! what it is. Every name (a person's, a bot's its owner named, a lesson
//! player's) is refused, with the reason in both languages, if it holds
//! what shows as nothing or turns text around: control and formatting
//! characters (direction overrides and isolates, LRM/RLM, zero-width
//! characters, the BOM), line and paragraph breaks, spaces other than the
//! plain and the ideographic one, blank-looking letters, unassigned and
//! private characters, more than two accents on one letter; or if it has
//! no letter or digit at all. A person's name may besides not pass for a
//! bot's ("bot", 机器人) or carry the brackets the table marks seats with
//! ("(host)", "(you)").

use foodweb_rules::table::Rejection;
use unicode_general_category::{GeneralCategory as Gc, get_general_category};

/// Longest name one may take, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Letters and symbols that show as blank (Hangul fillers, the blank
/// Braille pattern, the Mongolian vowel separator).
const BLANK_LOOKING: [char; 6] = [
    '\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}', '\u{180E}',
];

/// Accents one letter may carry (Vietnamese stacks two: "ệ" spelled out).
const MARKS_ON_A_LETTER: usize = 2;

/// The brackets the table marks a seat with.
const MARK_BRACKETS: [char; 8] = ['(', ')', '（', '）', '[', ']', '【', '】'];

fn refuse(en: &str, zh: &str) -> Rejection {
    Rejection::new(en, zh)
}

/// Any name shown at a table, trimmed; or why not.
pub fn valid_name(name: &str) -> Result<String, Rejection> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(Rejection::new(
            format!("a name has 1 to {MAX_NAME_CHARS} characters"),
            format!("名字须为 1 到 {MAX_NAME_CHARS} 个字符"),
        ));
    }
    let mut marks = 0;
    for (i, c) in name.chars().enumerate() {
        let category = get_general_category(c);
        if let Some(why) = unshowable(c, category) {
            return Err(why);
        }
        if matches!(
            category,
            Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
        ) {
            marks += 1;
            if i == 0 {
                return Err(refuse(
                    "a name cannot begin with an accent",
                    "名字不能以附加符号开头",
                ));
            }
            if marks > MARKS_ON_A_LETTER {
                return Err(refuse(
                    "a letter in a name carries at most two accents",
                    "名字中的一个字母最多带两个附加符号",
                ));
            }
        } else {
            marks = 0;
        }
    }
    if !name.chars().any(|c| c.is_alphanumeric()) {
        return Err(refuse(
            "a name needs a letter or a digit",
            "名字至少要有一个字母、汉字或数字",
        ));
    }
    Ok(name.to_string())
}

/// Why `c` cannot be in a name, if it cannot.
fn unshowable(c: char, category: Gc) -> Option<Rejection> {
    Some(match category {
        Gc::Control => refuse(
            "a name cannot hold control characters",
            "名字不能含控制字符",
        ),
        Gc::Format => refuse(
            "a name cannot hold invisible formatting characters (direction marks, zero-width characters)",
            "名字不能含不可见的格式字符（方向标记、零宽字符）",
        ),
        Gc::LineSeparator | Gc::ParagraphSeparator => {
            refuse("a name cannot hold a line break", "名字不能含换行")
        }
        Gc::SpaceSeparator if c != ' ' && c != '\u{3000}' => {
            refuse("a name's spaces are plain spaces", "名字中只能用普通空格")
        }
        Gc::PrivateUse | Gc::Surrogate | Gc::Unassigned => refuse(
            "a name cannot hold characters that show as boxes or as nothing",
            "名字不能含显示为方框或空白的字符",
        ),
        _ if BLANK_LOOKING.contains(&c) => refuse(
            "a name cannot hold characters that look blank",
            "名字不能含看起来空白的字符",
        ),
        _ => return None,
    })
}

/// A person's name: a valid name that does not pass for a bot's or carry
/// a seat's mark.
pub fn valid_person_name(name: &str) -> Result<String, Rejection> {
    let name = valid_name(name)?;
    let says_bot = name
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| word.eq_ignore_ascii_case("bot") || word.eq_ignore_ascii_case("bots"))
        || name.contains("机器人");
    if says_bot {
        return Err(refuse(
            "a person's name cannot say \"bot\": the table marks its bots itself",
            "真人的名字不能含“机器人”或 bot：牌桌会自己标出机器人",
        ));
    }
    if name.contains(MARK_BRACKETS) || name.contains("主持人") {
        return Err(refuse(
            "a name cannot hold brackets or \"主持人\": the table marks the host and you with them",
            "名字不能含括号或“主持人”：牌桌用它们标出主持人和你自己",
        ));
    }
    Ok(name)
}

/// What a name looks like, whatever its case, width and letters that
/// look alike (UTS #39's skeleton of its lower case): two names with one
/// key cannot be told apart at a glance ("Аna" with a Cyrillic А, "Ana",
/// "ANA", "Ａna").
#[cfg(not(target_family = "wasm"))]
pub fn look_alike_key(name: &str) -> String {
    unicode_security::skeleton(&name.to_lowercase())
        .flat_map(char::to_lowercase)
        .collect()
}

/// In a browser the hall seats one person among bots, whose names the
/// person chose: the lower case alone, without the confusables' tables.
#[cfg(target_family = "wasm")]
pub fn look_alike_key(name: &str) -> String {
    name.to_lowercase()
}

/// Refused at a table where `other` is already seated: `name` looks like
/// it but is not it (the same name is numbered instead: "Ana 2").
pub fn looks_like(name: &str, other: &str) -> Option<Rejection> {
    let same = name.to_lowercase() == other.to_lowercase();
    (!same && look_alike_key(name) == look_alike_key(other)).then(|| {
        Rejection::new(
            format!("\"{name}\" looks like \"{other}\", who is at this table: choose another name"),
            format!("“{name}”看起来和本桌的“{other}”一样：请换个名字"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 70, 3: each name of the attack's list is refused, with its
    /// own reason; the names people have are taken.
    #[test]
    fn names_that_impersonate_or_hide_are_refused() {
        let refused = [
            ("\u{202e}anA", "formatting"),
            ("\u{200e}Ann", "formatting"),
            ("Ann\u{200f}", "formatting"),
            ("\u{2066}Ann\u{2069}", "formatting"),
            ("\u{200b}", "formatting"),
            ("A\u{200d}B", "formatting"),
            ("\u{feff}Ann", "formatting"),
            ("\u{2800}", "look blank"),
            ("\u{3164}", "look blank"),
            ("A\u{3164}", "look blank"),
            ("A\u{2028}B", "line break"),
            ("A\u{2029}B", "line break"),
            ("Ann\u{2003}Lee", "plain spaces"),
            ("Ann\u{e000}", "boxes"),
            ("a\u{301}\u{301}\u{301}", "at most two accents"),
            ("\u{301}Ann", "begin with an accent"),
            ("!!!", "letter or a digit"),
            ("🙂", "letter or a digit"),
            ("   ", "1 to 24"),
            ("Ann\u{7}", "control"),
            ("memory bot 3", "say \"bot\""),
            ("Bot 2", "say \"bot\""),
            ("BOT", "say \"bot\""),
            ("随机机器人 2", "say \"bot\""),
            ("(host)", "brackets"),
            ("Ana (host)", "brackets"),
            ("Ana（主持人）", "brackets"),
            ("主持人", "brackets"),
        ];
        for (name, why) in refused {
            let said = valid_person_name(name).expect_err(name).to_string();
            assert!(said.contains(why), "{name:?}: {said}");
        }
        a_name_of(24);
        let taken = [
            "Ann",
            "小陈",
            "José",
            "Jose\u{301}",
            "Nguye\u{323}\u{302}n",
            "Zoë",
            "O'Brien",
            "Anne-Marie",
            "李 雷",
            "李\u{3000}雷",
            "Ann Lee",
            "Player 2",
            "R2D2",
            "Robot Rosie",
            "Botticelli",
            "Аna",
            "Ann 🙂",
        ];
        for name in taken {
            assert_eq!(valid_person_name(name).as_deref(), Ok(name), "{name:?}");
        }
        assert_eq!(valid_person_name("  Bo  ").as_deref(), Ok("Bo"));
    }

    fn a_name_of(chars: usize) {
        let name = "x".repeat(chars);
        assert!(valid_name(&name).is_ok());
        assert!(valid_name(&format!("{name}x")).is_err());
    }

    /// Issue 70, 3: "a Cyrillic 'Аna'", and the same name in other widths
    /// or cases, look like "Ana": refused beside her; a name that only
    /// shares letters is not.
    #[test]
    #[cfg(not(target_family = "wasm"))]
    fn names_that_look_alike_are_told() {
        for alike in ["Аna", "АNА", "Ａna", "Αna"] {
            assert!(looks_like(alike, "Ana").is_some(), "{alike:?}");
        }
        assert!(looks_like("rn", "m").is_some(), "rn reads as m");
        assert!(
            looks_like("Ana", "Ana").is_none(),
            "the same name is numbered"
        );
        assert!(
            looks_like("ana", "Ana").is_none(),
            "the same name is numbered"
        );
        assert!(looks_like("Anna", "Ana").is_none());
        assert!(looks_like("小陈", "小陳").is_none());
        let said = looks_like("Аna", "Ana").unwrap().to_string();
        assert!(said.contains("looks like \"Ana\""), "{said}");
    }

    /// A bot's and a lesson player's name is a name like any other, but
    /// may say it is a bot.
    #[test]
    fn a_bot_may_say_it_is_one() {
        assert_eq!(valid_name("Bot 2").as_deref(), Ok("Bot 2"));
        assert_eq!(valid_name("机器人 3").as_deref(), Ok("机器人 3"));
        assert!(valid_name("Bot\u{202e}2").is_err());
    }
}
