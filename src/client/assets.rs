//! The assets: the UI font, built into the program (the title needs it
//! and nothing else), and the asset collections (bevy_asset_loader with
//! iyes_progress) loaded later: the full font once the title shows, each
//! game's art when the game is chosen (each game's plugin registers its
//! collection with [`game_art`]; `screens::art` asks for it).

use bevy::prelude::*;
use bevy_asset_loader::prelude::*;
use iyes_progress::ProgressPlugin;

use foodweb_rules::GameId;

use super::Screen;
use super::game_setup::GameClients;

/// The UI font: Noto Sans CJK SC cut down to the characters of Foodweb's
/// own texts (`tools/subset-cjk-font.py`): every screen, in 0.6 MB. It is
/// built into the program, so the title shows on the first frames: a
/// browser fetches nothing before it but the page and the module, and
/// waits for no asset to load (issue 22).
pub const UI_FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/FoodwebUI.otf");

#[derive(Resource)]
pub struct UiAssets {
    /// [`UI_FONT_BYTES`] as a font asset.
    pub ui_font: Handle<Font>,
}

fn add_ui_font(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    let ui_font = fonts.add(Font::from_bytes(UI_FONT_BYTES.to_vec()));
    commands.insert_resource(UiAssets { ui_font });
}

/// The loading screen lasts until the UI font is in (the first update).
fn leave_loading(mut next: ResMut<NextState<Screen>>) {
    next.set(Screen::Title);
}

/// The game picker's pictures, one a game (`art/picker/`, at the path
/// each game registered: `game_setup::GameClient::picture`), loaded when
/// the picker first shows.
#[derive(Resource)]
pub struct PickerArt(Vec<(GameId, Handle<Image>)>);

impl PickerArt {
    pub fn of(&self, game: GameId) -> Option<&Handle<Image>> {
        self.0.iter().find(|(g, _)| *g == game).map(|(_, h)| h)
    }

    fn load_all(world: &mut World) -> Self {
        let clients = world.resource::<GameClients>();
        let server = world.resource::<AssetServer>();
        Self(
            clients
                .games()
                .filter_map(|g| Some((g, server.load(clients.get(g)?.picture))))
                .collect(),
        )
    }
}

/// By hand, as the pictures' paths are the games' (the derive wants them
/// written here).
impl AssetCollection for PickerArt {
    fn create(world: &mut World) -> Self {
        Self::load_all(world)
    }

    fn load(world: &mut World) -> Vec<UntypedHandle> {
        Self::load_all(world)
            .0
            .into_iter()
            .map(|(_, h)| h.untyped())
            .collect()
    }
}

/// The same font with GB2312's 6,763 hanzi (3.4 MB), for what players type:
/// names and chat, and egui's two symbol fonts (Noto Emoji and its icons:
/// ⏮ ⏸ ⚔ 🏆 …, 0.7 MB, once built into the module by egui). Loaded once the title
/// screen shows (`FontLoad`), so the first screen does not wait for them;
/// until they arrive a character outside the UI font draws as a box.
#[derive(AssetCollection, Resource)]
pub struct FullFont {
    #[asset(path = "fonts/FoodwebCJK.otf")]
    pub font: Handle<Font>,
    #[asset(path = "fonts/NotoEmoji-Regular.ttf")]
    pub emoji: Handle<Font>,
    /// egui's icon font (⏮ ⏸ ⏭ ⚔ ⏱, 0.3 MB).
    #[asset(path = "fonts/emoji-icon-font.ttf")]
    pub icons: Handle<Font>,
}

/// The full font's loading, begun when the title screen first shows.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FontLoad {
    #[default]
    Waiting,
    Loading,
    Done,
}

fn load_full_font(state: Res<State<FontLoad>>, mut next: ResMut<NextState<FontLoad>>) {
    if *state.get() == FontLoad::Waiting {
        next.set(FontLoad::Loading);
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

/// Each game's art loads when that game is chosen (its setup screen or
/// its table), behind its own progress bar, so the download before the
/// title screen stays small.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArtLoad {
    #[default]
    Idle,
    /// The game picker's pictures.
    Picker,
    /// A game's art collection.
    Game(GameId),
    /// What was asked for has loaded.
    Ready,
}

/// The games whose art has a collection, and those whose art is in.
#[derive(Resource, Default)]
pub struct GameArt {
    registered: Vec<GameId>,
    loaded: Vec<GameId>,
}

impl GameArt {
    /// Whether `game` has art still to load.
    pub fn missing(&self, game: GameId) -> bool {
        self.registered.contains(&game) && !self.loaded.contains(&game)
    }
}

/// Registers a game's art collection `A`: it loads in
/// `ArtLoad::Game(game)`, and once in, the game is marked loaded.
pub fn game_art<A: AssetCollection + Resource>(app: &mut App, game: GameId) {
    app.init_resource::<GameArt>()
        .add_loading_state(LoadingState::new(ArtLoad::Game(game)).load_collection::<A>())
        .add_systems(
            Update,
            (move |mut art: ResMut<GameArt>| art.loaded.push(game)).run_if(resource_added::<A>),
        );
    app.world_mut()
        .resource_mut::<GameArt>()
        .registered
        .push(game);
}

pub fn plugin(app: &mut App) {
    let mut art_progress =
        ProgressPlugin::<ArtLoad>::new().with_state_transition(ArtLoad::Picker, ArtLoad::Ready);
    for game in GameId::ALL {
        art_progress = art_progress.with_state_transition(ArtLoad::Game(game), ArtLoad::Ready);
    }
    app.init_state::<ArtLoad>()
        .init_state::<FontLoad>()
        .init_resource::<GameArt>()
        .add_plugins((
            ProgressPlugin::<FontLoad>::new()
                .with_state_transition(FontLoad::Loading, FontLoad::Done),
            art_progress,
        ))
        .add_loading_state(LoadingState::new(FontLoad::Loading).load_collection::<FullFont>())
        .add_loading_state(LoadingState::new(ArtLoad::Picker).load_collection::<PickerArt>())
        .add_systems(OnEnter(Screen::Title), load_full_font)
        .add_systems(Startup, add_ui_font)
        .add_systems(
            Update,
            leave_loading.run_if(in_state(Screen::Loading).and_then(resource_exists::<UiAssets>)),
        );
}
