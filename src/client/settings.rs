//! The player's settings (language, name, text size), kept between runs in
//! a RON file in the user's config folder (`FOODWEB_CONFIG_DIR` overrides),
//! or in a browser in its local storage. A file that cannot be read is set
//! aside with a warning, never a crash. The first start speaks the system's
//! (or the browser's) language: Chinese for zh, English otherwise.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use bevy::prelude::*;
use foodweb_rules::Lang;
use serde::{Deserialize, Serialize};

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UserSettings {
    pub lang: Lang,
    pub name: String,
    pub ui_scale: f32,
    /// How much the table moves (cards flying, turning over).
    pub motion: MotionLevel,
    /// Whether the table sounds (issue 39): its own switch, apart from the
    /// motion.
    pub sound: bool,
    /// The sounds' volume, 0 to 100.
    pub volume: u8,
    /// Seats this player sat at, to replay their finished games from the
    /// lobby (newest last, at most `PAST_SEATS_KEPT`).
    pub past_seats: Vec<SavedSeat>,
}

/// A seat sat at: the server's name and its key's fingerprint, the table,
/// its game and the seat's token (which only its person has, and which
/// proves the seat).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedSeat {
    pub server: String,
    /// The fingerprint of the server's key (`Session::server_print`):
    /// empty in seats saved before issue 68, which go by the name alone.
    #[serde(default)]
    pub key: String,
    pub table: u32,
    pub game: foodweb_rules::GameId,
    pub token: String,
    /// Left by choice: not taken back by itself (issue 68), only when its
    /// person asks.
    #[serde(default)]
    pub left: bool,
}

/// Which server a seat is looked for at: its name (from `Welcome`) and
/// its key's fingerprint, when the connection showed one.
#[derive(Clone, Copy, Debug)]
pub struct ServerId<'a> {
    pub name: &'a str,
    pub key: Option<&'a str>,
}

impl<'a> ServerId<'a> {
    /// The server we are connected to, once it welcomed us.
    pub fn of(model: &'a foodweb_netcode::client::ClientModel) -> Option<Self> {
        Some(Self {
            name: model.server.as_deref()?,
            key: model.server_key.as_deref(),
        })
    }
}

impl SavedSeat {
    /// Whether the seat was taken at `at`: the same key (two desktop hosts
    /// are both "Foodweb desktop"); a seat saved with no key, the same
    /// name.
    pub fn at(&self, at: ServerId) -> bool {
        if self.key.is_empty() {
            self.server == at.name
        } else {
            at.key == Some(self.key.as_str())
        }
    }
}

/// The sounds' volume on a first start: loud enough to hear at a table,
/// under the speakers' full.
pub const DEFAULT_VOLUME: u8 = 70;

/// Past seats kept in the settings at most.
pub const PAST_SEATS_KEPT: usize = 40;

impl UserSettings {
    /// Remembers a seat (once).
    pub fn remember_seat(&mut self, seat: SavedSeat) {
        if self.past_seats.contains(&seat) {
            return;
        }
        if self.past_seats.len() >= PAST_SEATS_KEPT {
            self.past_seats.remove(0);
        }
        self.past_seats.push(seat);
    }

    /// Our seat at a finished table of the server we are connected to, as
    /// `GetReplay::past` proves it.
    pub fn past_seat_at(
        &self,
        model: &foodweb_netcode::client::ClientModel,
        table: &foodweb_netcode::messages::TableSummary,
    ) -> Option<foodweb_netcode::messages::PastSeat> {
        let token = self.past_seat(ServerId::of(model)?, table.id, table.game)?;
        if !table.over {
            return None;
        }
        model.past_seat(table.id, token)
    }

    /// The seat of ours at the server `at` to take back when we are there
    /// again (issue 68): the newest whose game still runs, unless we left
    /// it by choice; with none, the newest whose game ended while we were
    /// away (we never saw its end: its summary, its result and "Play
    /// again" are ours to see once).
    pub fn live_seat(
        &self,
        at: ServerId,
        tables: &[foodweb_netcode::messages::TableSummary],
    ) -> Option<&SavedSeat> {
        let newest = |over: bool| {
            self.past_seats.iter().rev().find(|s| {
                s.at(at)
                    && !s.left
                    && tables
                        .iter()
                        .any(|t| t.id == s.table && t.game == s.game && t.started && t.over == over)
            })
        };
        newest(false).or_else(|| newest(true))
    }

    /// Our seats at `at` whose game the table list shows ended, but for
    /// the one we are taking back (`except`, its token): none is to be
    /// taken back by itself (their replays stay ours).
    pub fn ended_seats(
        &self,
        at: ServerId,
        tables: &[foodweb_netcode::messages::TableSummary],
        except: Option<&str>,
    ) -> Vec<usize> {
        let ended = |s: &SavedSeat| {
            tables
                .iter()
                .any(|t| t.id == s.table && t.game == s.game && t.over)
        };
        (0..self.past_seats.len())
            .filter(|&i| {
                let s = &self.past_seats[i];
                !s.left && s.at(at) && ended(s) && except != Some(s.token.as_str())
            })
            .collect()
    }

    /// Whether a seat we did not leave by choice was taken at the server
    /// whose key has this fingerprint (a page knows it from its link).
    pub fn may_have_seat_at(&self, key: &str) -> bool {
        self.past_seats.iter().any(|s| s.key == key && !s.left)
    }

    /// Marks the seat our token proves at our table as left by choice
    /// (or not, when taken back).
    pub fn mark_left(&mut self, model: &foodweb_netcode::client::ClientModel, left: bool) {
        let (Some(token), Some(table)) = (&model.token, model.token_table) else {
            return;
        };
        for seat in &mut self.past_seats {
            if &seat.token == token && seat.table == table {
                seat.left = left;
            }
        }
    }

    /// Our seat at `at`'s `table`, taken back by hand: ours again, taken
    /// back by itself after a reload too.
    pub fn taken_back(&mut self, at: ServerId, table: u32) {
        for seat in &mut self.past_seats {
            if seat.at(at) && seat.table == table {
                seat.left = false;
            }
        }
    }

    /// The token of our seat at a server's table, if we sat there.
    pub fn past_seat(&self, at: ServerId, table: u32, game: foodweb_rules::GameId) -> Option<&str> {
        self.past_seats
            .iter()
            .rev()
            .find(|s| s.at(at) && s.table == table && s.game == game)
            .map(|s| s.token.as_str())
    }
}

impl Default for UserSettings {
    fn default() -> Self {
        Self {
            lang: system_lang(),
            name: String::new(),
            ui_scale: 1.0,
            motion: MotionLevel::Full,
            sound: true,
            volume: DEFAULT_VOLUME,
            past_seats: Vec::new(),
        }
    }
}

/// The language a locale name speaks: Chinese for zh ("zh-CN",
/// "zh_TW.UTF-8"), English otherwise.
pub fn lang_from_locale(locale: &str) -> Lang {
    if locale.trim().to_ascii_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// The system's language (a browser's, in a browser).
pub fn system_lang() -> Lang {
    #[cfg(not(target_arch = "wasm32"))]
    let locale = sys_locale::get_locale();
    #[cfg(target_arch = "wasm32")]
    let locale = web_sys::window().and_then(|w| w.navigator().language());
    locale.map_or(Lang::En, |l| lang_from_locale(&l))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn config_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("FOODWEB_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("org", "Foodweb", "foodweb")
        .map(|d| d.config_dir().to_path_buf())
}

#[cfg(not(target_arch = "wasm32"))]
fn settings_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("settings.ron"))
}

impl UserSettings {
    /// Reads settings text; `Err` names what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let s: Self = ron::from_str(text).map_err(|e| e.to_string())?;
        if !(0.5..=3.0).contains(&s.ui_scale) {
            return Err(format!("text size {} is outside 0.5 to 3", s.ui_scale));
        }
        if s.volume > 100 {
            return Err(format!("volume {} is outside 0 to 100", s.volume));
        }
        Ok(s)
    }

    pub fn load() -> Self {
        let Some((text, place)) = stored() else {
            return Self::default();
        };
        Self::parse(&text).unwrap_or_else(|e| {
            warn!("settings in {place} are unreadable ({e}); using defaults");
            Self::default()
        })
    }

    pub fn save(&self) {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("settings serialize");
        store(&text);
    }
}

/// The stored settings text, and where it was.
#[cfg(not(target_arch = "wasm32"))]
fn stored() -> Option<(String, String)> {
    let path = settings_path()?;
    let text = std::fs::read_to_string(&path).ok()?;
    Some((text, path.display().to_string()))
}

#[cfg(not(target_arch = "wasm32"))]
fn store(text: &str) {
    let Some(path) = settings_path() else { return };
    let tmp = path.with_extension("ron.tmp");
    let result = std::fs::create_dir_all(path.parent().unwrap())
        .and_then(|_| std::fs::write(&tmp, text))
        .and_then(|_| std::fs::rename(&tmp, &path));
    if let Err(e) = result {
        warn!("could not save settings to {}: {e}", path.display());
    }
}

/// The browser's local storage, under one key.
#[cfg(target_arch = "wasm32")]
const STORAGE_KEY: &str = "foodweb.settings";

#[cfg(target_arch = "wasm32")]
fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(target_arch = "wasm32")]
fn stored() -> Option<(String, String)> {
    let text = local_storage()?.get_item(STORAGE_KEY).ok().flatten()?;
    Some((text, "the browser's storage".to_string()))
}

#[cfg(target_arch = "wasm32")]
fn store(text: &str) {
    if let Some(storage) = local_storage()
        && storage.set_item(STORAGE_KEY, text).is_err()
    {
        warn!("could not save settings in the browser's storage");
    }
}

fn save_when_changed(settings: Res<UserSettings>) {
    if settings.is_changed() && !settings.is_added() {
        settings.save();
    }
}

pub fn plugin(app: &mut App) {
    app.insert_resource(UserSettings::load())
        .add_systems(Last, save_when_changed);
}

/// How much the table moves: the player's setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MotionLevel {
    #[default]
    Full,
    /// Half as long.
    Reduced,
    /// Pieces jump to their places.
    Off,
}

impl MotionLevel {
    /// The share of the scene's settling time (`scene::SETTLE_SECS`) a
    /// motion may take.
    pub fn factor(self) -> f32 {
        match self {
            MotionLevel::Full => 1.0,
            MotionLevel::Reduced => 0.5,
            MotionLevel::Off => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 68: "a saved seat is keyed by the server's name, which every
    /// desktop host shares ('Foodweb desktop')". A seat is found at the
    /// server whose key it was taken at, not at another of the same name;
    /// a seat saved before there were keys goes by the name.
    #[test]
    fn a_saved_seat_is_kept_under_the_servers_key() {
        let game = foodweb_rules::GameId::Wanning;
        let seat = |key: &str, token: &str| SavedSeat {
            server: "Foodweb desktop".into(),
            key: key.into(),
            table: 2,
            game,
            token: token.into(),
            left: false,
        };
        let mut settings = UserSettings::default();
        settings.remember_seat(seat("AAAAA-AAAAA-AAAAA", "01"));
        settings.remember_seat(seat("BBBBB-BBBBB-BBBBB", "02"));
        let at = |key| ServerId {
            name: "Foodweb desktop",
            key: Some(key),
        };
        assert_eq!(
            settings.past_seat(at("AAAAA-AAAAA-AAAAA"), 2, game),
            Some("01")
        );
        assert_eq!(
            settings.past_seat(at("BBBBB-BBBBB-BBBBB"), 2, game),
            Some("02")
        );
        assert_eq!(settings.past_seat(at("CCCCC-CCCCC-CCCCC"), 2, game), None);
        // Another table, another game: not ours.
        assert_eq!(settings.past_seat(at("AAAAA-AAAAA-AAAAA"), 3, game), None);
        let forest = foodweb_rules::GameId::Forest;
        assert_eq!(settings.past_seat(at("AAAAA-AAAAA-AAAAA"), 2, forest), None);
        // A settings file from before keys: its seat goes by the name.
        let old = UserSettings::parse(
            "(past_seats: [(server: \"Foodweb desktop\", table: 2, game: Wanning, token: \"03\")])",
        )
        .unwrap();
        assert_eq!(old.past_seats[0].key, "");
        assert_eq!(old.past_seat(at("CCCCC-CCCCC-CCCCC"), 2, game), Some("03"));
        let elsewhere = ServerId {
            name: "Party room",
            key: Some("CCCCC-CCCCC-CCCCC"),
        };
        assert_eq!(old.past_seat(elsewhere, 2, game), None);
    }

    /// A corrupt settings file is refused with a reason (DEVELOPERS.md:
    /// "a corrupt save file ... gets a clear error and changes nothing").
    #[test]
    fn corrupt_settings_are_refused_with_a_reason() {
        assert!(
            UserSettings::parse("(lang: Klingon)")
                .unwrap_err()
                .contains("Klingon")
        );
        assert!(
            UserSettings::parse("(ui_scale: 9.0)")
                .unwrap_err()
                .contains("text size")
        );
        let good = UserSettings {
            lang: Lang::En,
            name: "Ann".into(),
            ui_scale: 1.25,
            motion: MotionLevel::Reduced,
            sound: false,
            volume: 35,
            past_seats: vec![SavedSeat {
                server: "Foodweb".into(),
                key: "7K2QD-9XMDA-4HPAE".into(),
                table: 3,
                game: foodweb_rules::GameId::Gene,
                token: "00ff".into(),
                left: true,
            }],
        };
        let text = ron::to_string(&good).unwrap();
        assert_eq!(UserSettings::parse(&text).unwrap(), good);
        assert!(
            UserSettings::parse("(volume: 120)")
                .unwrap_err()
                .contains("volume")
        );
    }

    /// Issue 39: sound is on by default, and a settings file written
    /// before there was sound turns it on at the default volume; the
    /// switch and the volume are kept apart from the motion ("Motion: off"
    /// does not silence sound).
    #[test]
    fn sound_is_on_by_default_and_apart_from_motion() {
        let old = UserSettings::parse("(lang: En, name: \"Ann\", motion: Off)").unwrap();
        assert!(old.sound);
        assert_eq!(old.volume, DEFAULT_VOLUME);
        assert_eq!(old.motion, MotionLevel::Off);
        let quiet = UserSettings::parse("(sound: false, volume: 20)").unwrap();
        assert!(!quiet.sound);
        assert_eq!(quiet.volume, 20);
        assert_eq!(quiet.motion, MotionLevel::Full);
    }

    /// Issue 19: 「the client starts in the language of the system or
    /// browser (Chinese for zh, English otherwise)」.
    #[test]
    fn the_first_language_follows_the_locale() {
        assert_eq!(lang_from_locale("zh-CN"), Lang::Zh);
        assert_eq!(lang_from_locale("zh_TW.UTF-8"), Lang::Zh);
        assert_eq!(lang_from_locale("ZH"), Lang::Zh);
        assert_eq!(lang_from_locale("en-US"), Lang::En);
        assert_eq!(lang_from_locale("fr_FR"), Lang::En);
        assert_eq!(lang_from_locale(""), Lang::En);
    }
}
