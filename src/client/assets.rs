//! Loading screen work: the asset collections, loaded with a progress bar
//! (bevy_asset_loader with iyes_progress).

use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use iyes_progress::ProgressPlugin;

use super::Screen;

/// The UI font's path (as in [`UiAssets`]).
pub const UI_FONT: &str = "fonts/FoodwebUI.otf";

#[derive(AssetCollection, Resource)]
pub struct UiAssets {
    /// Noto Sans CJK SC cut down to the characters of Foodweb's own texts
    /// (`tools/subset-cjk-font.py`): every screen, in 0.6 MB.
    #[asset(path = "fonts/FoodwebUI.otf")]
    pub ui_font: Handle<Font>,
}

/// The same font with GB2312's 6,763 hanzi (3.4 MB), for what players type:
/// names and chat. Asked for once the title screen shows, so the first
/// screen does not wait for it; until it arrives a character outside the
/// UI font draws as a box.
#[derive(Resource)]
pub struct FullFont(pub Handle<Font>);

fn load_full_font(mut commands: Commands, server: Res<AssetServer>, have: Option<Res<FullFont>>) {
    if have.is_none() {
        commands.insert_resource(FullFont(server.load("fonts/FoodwebCJK.otf")));
    }
}

/// The assets folder: beside the executable's crate when run with cargo,
/// or `FOODWEB_ASSETS` when set.
pub fn asset_dir() -> String {
    // A browser fetches them beside the page.
    if cfg!(target_arch = "wasm32") {
        return "assets".into();
    }
    if let Ok(dir) = std::env::var("FOODWEB_ASSETS") {
        return dir;
    }
    // `cargo run` sets the manifest folder at run time; the one compiled in
    // may be another clone's that shared the target folder.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
    let manifest_assets = format!("{manifest}/assets");
    if std::path::Path::new(&manifest_assets).is_dir() {
        manifest_assets
    } else {
        "assets".to_string()
    }
}

pub fn plugin(app: &mut App) {
    app.add_plugins(
        ProgressPlugin::<Screen>::new().with_state_transition(Screen::Loading, Screen::Title),
    )
    .add_loading_state(LoadingState::new(Screen::Loading).load_collection::<UiAssets>())
    .add_systems(OnEnter(Screen::Title), load_full_font);
}
