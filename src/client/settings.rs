//! The player's settings (language, name, text size), kept between runs in
//! a RON file in the user's config folder (`FOODWEB_CONFIG_DIR` overrides).
//! A file that cannot be read is set aside with a warning, never a crash.

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
}

impl Default for UserSettings {
    fn default() -> Self {
        Self {
            lang: Lang::Zh,
            name: String::new(),
            ui_scale: 1.0,
        }
    }
}

pub fn config_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("FOODWEB_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("org", "Foodweb", "foodweb")
        .map(|d| d.config_dir().to_path_buf())
}

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
        Ok(s)
    }

    pub fn load() -> Self {
        let Some(path) = settings_path() else {
            return Self::default();
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(&text).unwrap_or_else(|e| {
                warn!(
                    "settings file {} is unreadable ({e}); using defaults",
                    path.display()
                );
                Self::default()
            }),
            Err(_) => Self::default(),
        }
    }

    pub fn save(&self) {
        let Some(path) = settings_path() else { return };
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("settings serialize");
        let tmp = path.with_extension("ron.tmp");
        let result = std::fs::create_dir_all(path.parent().unwrap())
            .and_then(|_| std::fs::write(&tmp, text))
            .and_then(|_| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            warn!("could not save settings to {}: {e}", path.display());
        }
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

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        let text = ron::to_string(&good).unwrap();
        assert_eq!(UserSettings::parse(&text).unwrap(), good);
    }
}
