//! The lobby of a server (hosted here or joined over the LAN): open
//! tables, opening one, taking a seat, the host seat or a spectator's
//! chair, readiness, bots for empty seats, and the start.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnySettings;
use foodweb_netcode::messages::{
    ClientMsg, LobbyState, PastSeat, Role, SeatInfo, SeatKind, TableSummary,
};
use foodweb_rules::GameId;
use foodweb_rules::table::{SeatId, SeatName, bot_kind_words};

use crate::client::game_setup::{FormAt, GameClients, SetupForm, grace_row};
use crate::client::net::{LinkState, Session, send};
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// The browser client's address while hosting here (and its QR code), if
/// the web build is there to serve.
#[derive(Resource, Default)]
pub struct WebAt(pub Option<(String, Vec<Vec<bool>>)>);

/// Where others join a game hosted here; empty when joined elsewhere.
#[derive(Resource, Default, Clone)]
pub struct HostedAt(pub Vec<std::net::SocketAddr>);

#[derive(Resource)]
struct NewTable {
    game: GameId,
    seats: u8,
    /// Each game's form, kept while the player looks at another game.
    forms: Vec<(GameId, Box<dyn SetupForm>)>,
    host_seat: bool,
    open_replays: bool,
    /// The seconds each clock of a move waits (`table::after_grace`).
    grace_secs: u32,
    bot: String,
    /// The host code typed to take a table's host seat.
    host_code: String,
}

impl FromWorld for NewTable {
    /// The first game the client lists, each game on its lobby defaults.
    fn from_world(world: &mut World) -> Self {
        let clients = world.resource::<GameClients>();
        let forms: Vec<_> = clients
            .games()
            .filter_map(|g| Some((g, clients.form(g, FormAt::Lobby)?)))
            .collect();
        Self {
            game: forms.first().map_or(GameId::ALL[0], |(g, _)| *g),
            seats: 4,
            forms,
            host_seat: false,
            open_replays: false,
            grace_secs: foodweb_rules::table::USUAL_GRACE_SECS,
            bot: "memory".into(),
            host_code: String::new(),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    model: Res<ClientModel>,
    session: Res<Session>,
    issuer: Res<foodweb_netcode::tokens::TokenIssuer>,
    hosted: Res<HostedAt>,
    web_at: Res<WebAt>,
    mut outbox: ResMut<Outbox>,
    mut form: ResMut<NewTable>,
    mut settings: ResMut<UserSettings>,
    mut next: ResMut<NextState<Screen>>,
    mut replay: ResMut<crate::client::replay::Replaying>,
    mut asking_leave: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    *asking_leave &= model.place.is_some();
    let mut msgs = Vec::new();
    let mut past = None;
    let mut back = false;
    egui::Panel::top("lobby-top").show(&mut screen, |ui| {
        back = top_bar(ui, &i18n, &model, &session);
        server_key(ui, &i18n, &session, &hosted, &issuer);
        if let Some(r) = &model.last_rejection {
            ui.label(egui::RichText::new(i18n.pick(r)).color(theme::BAD));
        }
        if *asking_leave {
            leave_question(ui, &i18n, &mut asking_leave, &mut msgs);
        }
    });
    // Where others join a game hosted here scrolls with the lobby, beside
    // the form to open a table on a wide screen: its QR code never pushes
    // "Open table" out of a short window.
    let hosting = |ui: &mut egui::Ui| {
        if !hosted.0.is_empty() {
            hosted_at(ui, &i18n, &hosted, &web_at);
            ui.separator();
        }
    };
    egui::CentralPanel::default().show(&mut screen, |ui| {
        // A bar says when more of the lobby is below.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        egui::ScrollArea::vertical().show(ui, |ui| match (&model.place, &model.lobby) {
            (Some((_, role)), Some(lobby)) => {
                hosting(ui);
                seating(ui, &i18n, &model, *role, lobby, &mut form, &mut msgs)
            }
            _ => tables(
                ui,
                (&i18n, &model),
                &hosting,
                &mut form,
                &mut settings,
                &mut msgs,
                &mut past,
            ),
        });
    });
    // The name typed here goes before anything that seats us (issue 54:
    // a name still being typed when "Take a seat" was tapped was never
    // sent).
    if msgs.iter().any(seats_us)
        && let Some(name) = unsent_name(&settings.name, &model.name)
    {
        msgs.insert(0, ClientMsg::SetName { name });
    }
    // A seat left by choice is not taken back by itself (issue 68); one
    // taken back by hand is ours again.
    if msgs.iter().any(|m| matches!(m, ClientMsg::Leave)) {
        settings.mark_left(&model, true);
    }
    if let Some(at) = crate::client::settings::ServerId::of(&model) {
        for m in &msgs {
            if let ClientMsg::Resume { table, .. } = m {
                settings.taken_back(at, *table);
            }
        }
    }
    for m in msgs {
        send(&mut outbox, m);
    }
    if let Some(seat) = past {
        replay.start_past(&mut outbox, seat);
        next.set(Screen::Table);
    }
    if back {
        // Seated, "Back" asks first (issue 66: it left the seat at once).
        if model.place.is_some() {
            *asking_leave = true;
        } else {
            next.set(Screen::Title);
        }
    }
    Ok(())
}

/// Asks whether "Back" is to leave our seat: leave, or stay.
fn leave_question(ui: &mut egui::Ui, i18n: &I18n, asking: &mut bool, msgs: &mut Vec<ClientMsg>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(i18n.t("lobby-leave-ask")).strong());
        let leave = ui.button(i18n.t("lobby-leave"));
        crate::client::reach::control(&leave, "lobby-leave-yes", crate::client::reach::Does::Move);
        if leave.clicked() {
            msgs.push(ClientMsg::Leave);
            *asking = false;
        }
        let stay = ui.button(i18n.t("lobby-stay"));
        crate::client::reach::control(&stay, "lobby-stay", crate::client::reach::Does::Move);
        if stay.clicked() {
            *asking = false;
        }
    });
}

/// Draws the back button, the lobby's title and the link's state; returns
/// whether back was pressed.
fn top_bar(ui: &mut egui::Ui, i18n: &I18n, model: &ClientModel, session: &Session) -> bool {
    let mut back = false;
    ui.horizontal(|ui| {
        let button = ui.button(i18n.t("menu-back"));
        crate::client::reach::control(&button, "lobby-back", crate::client::reach::Does::Move);
        back = button.clicked();
        ui.heading(format!(
            "{} · {}",
            i18n.t("lobby-title"),
            model.server.clone().unwrap_or_default()
        ));
        match &session.state {
            LinkState::Connected => {}
            LinkState::Lost(why) if why.contains(foodweb_netcode::seal::WRONG_KEY) => {
                ui.label(egui::RichText::new(i18n.t("lobby-wrong-key")).color(theme::BAD))
                    .on_hover_text(why.as_str());
            }
            LinkState::Lost(_) => {
                ui.label(egui::RichText::new(i18n.t("lobby-lost")).color(theme::BAD));
            }
            _ => {
                ui.label(egui::RichText::new(i18n.t("lobby-connecting")).color(theme::MUTED));
            }
        }
    });
    back
}

/// Draws the server key's fingerprint, if known.
fn server_key(
    ui: &mut egui::Ui,
    i18n: &I18n,
    session: &Session,
    hosted: &HostedAt,
    issuer: &foodweb_netcode::tokens::TokenIssuer,
) {
    // The key the server sealed our token with, for the players to
    // compare with the host's screen (the host's is its own).
    let key = if hosted.0.is_empty() {
        session.server_key
    } else {
        Some(issuer.public_key())
    };
    if let Some(key) = key {
        ui.label(
            egui::RichText::new(i18n.ta(
                "lobby-server-key",
                &[("key", foodweb_netcode::seal::fingerprint(&key).into())],
            ))
            .color(theme::MUTED),
        )
        .on_hover_text(i18n.t("lobby-server-key-hint"));
    }
}

/// Draws where others join a game hosted here: its addresses, and the
/// browser client's address with its QR code.
fn hosted_at(ui: &mut egui::Ui, i18n: &I18n, hosted: &HostedAt, web_at: &WebAt) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(i18n.t("lobby-host-at")).strong());
        for a in &hosted.0 {
            ui.label(
                egui::RichText::new(a.to_string())
                    .size(22.0)
                    .color(theme::ACCENT),
            );
        }
    });
    let Some((url, qr)) = &web_at.0 else {
        // Where the link would be, why there is none (issue 66: the link
        // and QR code vanished without a word).
        ui.add(
            egui::Label::new(egui::RichText::new(i18n.t("lobby-no-web")).color(theme::MUTED))
                .wrap(),
        );
        return;
    };
    {
        ui.horizontal(|ui| {
            qr_code(ui, qr, 160.0);
            ui.vertical(|ui| {
                ui.label(egui::RichText::new(i18n.t("lobby-web-at")).strong());
                // Long with its key: smaller, and it wraps.
                ui.add(
                    egui::Label::new(egui::RichText::new(url).size(16.0).color(theme::ACCENT))
                        .wrap(),
                );
            });
        });
    }
}

/// Draws the server's tables beside the form to open one, `head` (where
/// others join, when hosting) above the tables.
fn tables(
    ui: &mut egui::Ui,
    (i18n, model): (&I18n, &ClientModel),
    head: &dyn Fn(&mut egui::Ui),
    form: &mut NewTable,
    settings: &mut UserSettings,
    msgs: &mut Vec<ClientMsg>,
    past: &mut Option<PastSeat>,
) {
    // Side by side on a wide screen; one above the other on a phone.
    let narrow = ui.available_width() < 720.0;
    if narrow {
        head(ui);
        table_list(ui, i18n, model, form, settings, msgs, past);
        ui.separator();
        new_table(ui, i18n, model, form, settings, msgs);
    } else {
        ui.columns(2, |cols| {
            head(&mut cols[0]);
            table_list(&mut cols[0], i18n, model, form, settings, msgs, past);
            new_table(&mut cols[1], i18n, model, form, settings, msgs);
        });
    }
}

/// Draws the list of the server's tables, a card each.
fn table_list(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    form: &mut NewTable,
    settings: &UserSettings,
    msgs: &mut Vec<ClientMsg>,
    past: &mut Option<PastSeat>,
) {
    ui.heading(i18n.t("lobby-tables"));
    if model.tables.is_empty() {
        ui.label(egui::RichText::new(i18n.t("lobby-no-tables")).color(theme::MUTED));
    }
    for t in &model.tables {
        table_card(ui, i18n, model, t, form, settings, msgs, past);
    }
}

/// Draws one table's card: its number, game and state, players and buttons.
fn table_card(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    t: &TableSummary,
    form: &mut NewTable,
    settings: &UserSettings,
    msgs: &mut Vec<ClientMsg>,
    past: &mut Option<PastSeat>,
) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.vertical(|ui| {
            let state = table_state(i18n, t);
            ui.label(
                egui::RichText::new(format!(
                    "{} · {} · {state}",
                    i18n.ta("lobby-table", &[("n", t.id.into())]),
                    i18n.pick(&t.game.title()),
                ))
                .strong(),
            );
            let players: Vec<String> = t.players.iter().map(|p| i18n.name(p)).collect();
            ui.label(players.join(" · "));
            table_buttons(ui, i18n, model, t, form, settings, msgs, past);
        });
    });
}

/// A table's state as its card shows it: over, playing, or seats taken.
fn table_state(i18n: &I18n, t: &TableSummary) -> String {
    if t.over && t.open_replays {
        format!(
            "{} · {}",
            i18n.t("lobby-over"),
            i18n.t("lobby-replays-open")
        )
    } else if t.over {
        i18n.t("lobby-over")
    } else if t.started && t.away > 0 {
        // Issue 68: the table list says a bot plays someone's seat.
        format!(
            "{} · {}",
            i18n.t("lobby-playing"),
            i18n.ta("lobby-away-count", &[("n", t.away.into())])
        )
    } else if t.started {
        i18n.t("lobby-playing")
    } else {
        format!("{}/{}", t.seats - t.open_seats, t.seats)
    }
}

/// A game still running at which we have a seat, left (by choice, or
/// from another page): "Take your seat back" (issue 68), with our seat's
/// token as proof.
fn take_back_button(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    t: &TableSummary,
    settings: &UserSettings,
    msgs: &mut Vec<ClientMsg>,
) {
    if !t.started || t.over || model.place.is_some() {
        return;
    }
    let Some(at) = crate::client::settings::ServerId::of(model) else {
        return;
    };
    let (Some(token), Some(challenge)) = (settings.past_seat(at, t.id, t.game), &model.challenge)
    else {
        return;
    };
    let button = ui.button(i18n.t("lobby-take-back"));
    crate::client::reach::control(
        &button,
        &format!("lobby-take-back-{}", t.id),
        crate::client::reach::Does::Move,
    );
    if button.clicked() {
        use foodweb_netcode::seal::{ProofFor, seat_proof};
        msgs.push(ClientMsg::Resume {
            table: t.id,
            proof: seat_proof(token, challenge, t.id, ProofFor::Resume),
        });
    }
}

/// Draws a table's buttons in a row: take a seat, the host seat with its
/// code, watch, and our replay.
fn table_buttons(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    t: &TableSummary,
    form: &mut NewTable,
    settings: &UserSettings,
    msgs: &mut Vec<ClientMsg>,
    past: &mut Option<PastSeat>,
) {
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                !t.started && t.open_seats > 0,
                egui::Button::new(i18n.t("lobby-take-seat")),
            )
            .clicked()
        {
            msgs.push(ClientMsg::TakeSeat {
                table: t.id,
                seat: None,
            });
        }
        if t.host_seat_open && !t.started {
            widgets::line_field(
                ui,
                egui::TextEdit::singleline(&mut form.host_code)
                    .hint_text(i18n.t("lobby-host-code-hint"))
                    .desired_width(90.0)
                    .char_limit(6),
            );
            if ui
                .add_enabled(
                    form.host_code.trim().len() == 6,
                    egui::Button::new(i18n.t("lobby-host-seat")),
                )
                .clicked()
            {
                msgs.push(ClientMsg::TakeHostSeat {
                    table: t.id,
                    code: form.host_code.trim().to_uppercase(),
                });
            }
        }
        take_back_button(ui, i18n, model, t, settings, msgs);
        if ui.button(i18n.t("lobby-watch")).clicked() {
            msgs.push(ClientMsg::Watch { table: t.id });
        }
        // A finished game we sat at: its replay, with
        // our seat's token as proof.
        if let Some(seat) = settings.past_seat_at(model, t) {
            let button = ui.button(i18n.t("lobby-your-replay"));
            crate::client::reach::control(
                &button,
                &format!("lobby-replay-{}", t.id),
                crate::client::reach::Does::Move,
            );
            if button.clicked() {
                *past = Some(seat);
            }
        }
    });
}

/// Draws the form to open a table: our name, the game, its seats and
/// settings, and the open button.
fn new_table(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    form: &mut NewTable,
    settings: &mut UserSettings,
    msgs: &mut Vec<ClientMsg>,
) {
    ui.heading(i18n.t("lobby-open-table"));
    name_row(ui, i18n, model, settings, msgs);
    // Wrapped, so every game can be chosen on a phone in either language
    // (issue 66: "Cruele…" cut off at 390 px, Wanning out of reach).
    ui.horizontal_wrapped(|ui| {
        let games: Vec<_> = form.forms.iter().map(|(g, _)| *g).collect();
        for game in games.into_iter().filter(|g| g.playable()) {
            let tab = ui.selectable_value(&mut form.game, game, i18n.pick(&game.title()));
            crate::client::reach::control(
                &tab,
                &format!("lobby-game-{}", game.key()),
                crate::client::reach::Does::Pick,
            );
        }
    });
    let range = form.game.seats();
    form.seats = form.seats.clamp(*range.start() as u8, *range.end() as u8);
    ui.add(
        egui::Slider::new(&mut form.seats, *range.start() as u8..=*range.end() as u8)
            .text(i18n.t("lobby-seats")),
    );
    let game = form.game;
    let settings = match form.forms.iter_mut().find(|(g, _)| *g == game) {
        Some((_, chosen)) => {
            chosen.lobby_rows(ui, i18n);
            Some(chosen.settings())
        }
        None => AnySettings::default_for(game),
    };
    grace_row(ui, i18n, &mut form.grace_secs);
    let settings = settings.map(|mut s| {
        *s.grace_secs_mut() = form.grace_secs;
        s
    });
    ui.checkbox(&mut form.host_seat, i18n.t("lobby-with-host-seat"));
    ui.checkbox(&mut form.open_replays, i18n.t("lobby-open-replays"));
    let open = widgets::menu_button(ui, &i18n.t("lobby-open"), true);
    crate::client::reach::control(&open, "lobby-open", crate::client::reach::Does::Move);
    if open.clicked()
        && let Some(settings) = settings
    {
        msgs.push(ClientMsg::CreateTable {
            settings,
            seats: form.seats,
            host_seat: form.host_seat,
            seed: None,
            open_replays: form.open_replays,
        });
    }
}

/// Draws the row of our name, sent to the server when it is left or
/// Enter is pressed (and before a seat is taken: `draw`).
fn name_row(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    settings: &mut UserSettings,
    msgs: &mut Vec<ClientMsg>,
) {
    ui.horizontal(|ui| {
        ui.label(i18n.t("lobby-your-name"));
        // The name the server knows us by, until we change it here; not
        // while the field is being typed in (a name cleared to type
        // another came back at once: "BoPlayer"). The field's own focus,
        // not the window's: on a phone the keyboard's hidden input holds
        // the page's focus while the field is typed in, and a name
        // cleared came back in front of the cursor ("Bo小陈Player").
        let id = egui::Id::new("lobby-name");
        let editing = ui.memory(|m| m.has_focus(id));
        if !editing && settings.name.trim().is_empty() && !model.name.is_empty() {
            settings.name = model.name.clone();
        }
        let mut name = settings.name.clone();
        let field = widgets::line_field(
            ui,
            egui::TextEdit::singleline(&mut name)
                .id(id)
                .desired_width(180.0)
                .char_limit(foodweb_netcode::hall::MAX_NAME_CHARS),
        );
        crate::client::reach::control(&field, "name", crate::client::reach::Does::Pick);
        if name != settings.name {
            settings.name = name;
        }
        // Compared with the name the server holds, not with the field's
        // text a frame ago (which the field had already changed: the name
        // was never sent).
        if field.lost_focus()
            && let Some(name) = unsent_name(&settings.name, &model.name)
        {
            msgs.push(ClientMsg::SetName { name });
        }
    });
}

/// The name to send: the typed one, when it is a name and not the one the
/// server already knows us by.
fn unsent_name(typed: &str, known: &str) -> Option<String> {
    let typed = typed.trim();
    (!typed.is_empty() && typed != known).then(|| typed.to_string())
}

/// Whether a message puts us at a table (so our name must be there first).
fn seats_us(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::TakeSeat { .. }
            | ClientMsg::CreateTable { .. }
            | ClientMsg::TakeHostSeat { .. }
            | ClientMsg::Watch { .. }
    )
}

/// Draws our table's seating: its heading, seats, host and watchers, the
/// controls before the start, and the leave button.
fn seating(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    role: Role,
    lobby: &LobbyState,
    form: &mut NewTable,
    msgs: &mut Vec<ClientMsg>,
) {
    seating_heading(ui, i18n, role, lobby);
    let owner = model.is_owner();
    // The bot offered is one this game has.
    if !lobby.bot_kinds.contains(&form.bot)
        && let Some(best) = lobby.bot_kinds.first()
    {
        form.bot = best.clone();
    }
    for s in &lobby.seats {
        seat_card(ui, i18n, lobby, s, owner, &form.bot, msgs);
    }
    host_and_watchers(ui, i18n, lobby);
    ui.add_space(12.0);
    if !lobby.started {
        host_code(ui, i18n, model, lobby, owner, msgs);
        if owner {
            owner_controls(ui, i18n, lobby, form, msgs);
        } else if let Role::Player(seat) = role {
            ready_toggle(ui, i18n, lobby, seat, msgs);
        }
    }
    let leave = widgets::menu_button(ui, &i18n.t("lobby-leave"), true);
    crate::client::reach::control(&leave, "lobby-leave", crate::client::reach::Does::Move);
    if leave.clicked() {
        msgs.push(ClientMsg::Leave);
    }
}

/// Draws the table's number and game, and whether we host or watch it.
fn seating_heading(ui: &mut egui::Ui, i18n: &I18n, role: Role, lobby: &LobbyState) {
    ui.heading(format!(
        "{} · {}",
        i18n.ta("lobby-table", &[("n", lobby.id.into())]),
        i18n.pick(&lobby.settings.game().title())
    ));
    match role {
        Role::Host => {
            ui.label(egui::RichText::new(i18n.t("lobby-you-host")).color(theme::ACCENT));
        }
        Role::Spectator => {
            ui.label(egui::RichText::new(i18n.t("lobby-you-watch")).color(theme::ACCENT));
        }
        Role::Player(_) => {}
    }
}

/// Draws one seat's card: open (a bot can be added), a bot (it can be
/// removed) or a person.
fn seat_card(
    ui: &mut egui::Ui,
    i18n: &I18n,
    lobby: &LobbyState,
    s: &SeatInfo,
    owner: bool,
    bot: &str,
    msgs: &mut Vec<ClientMsg>,
) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("{}.", s.seat)).strong());
            match &s.kind {
                SeatKind::Open => {
                    ui.label(egui::RichText::new(i18n.t("lobby-open-seat")).color(theme::MUTED));
                    if owner && !lobby.started && ui.button(i18n.t("lobby-add-bot")).clicked() {
                        msgs.push(ClientMsg::SetBot {
                            seat: s.seat,
                            kind: Some(bot.to_string()),
                            name: None,
                        });
                    }
                }
                SeatKind::Bot { kind } => {
                    ui.label(egui::RichText::new(i18n.name(&s.name)).strong());
                    // A bot its owner named says what kind it is; one
                    // named by its kind says so already.
                    if matches!(&s.name, SeatName::Bot { name: Some(_), .. }) {
                        let kind = i18n.pick(&bot_kind_words(kind)).to_string();
                        ui.label(
                            egui::RichText::new(i18n.ta("lobby-bot", &[("kind", kind.into())]))
                                .color(theme::MUTED),
                        );
                    }
                    if owner
                        && !lobby.started
                        && ui.small_button(i18n.t("lobby-remove-bot")).clicked()
                    {
                        msgs.push(ClientMsg::SetBot {
                            seat: s.seat,
                            kind: None,
                            name: None,
                        });
                    }
                }
                SeatKind::Person {
                    ready,
                    connected,
                    stand_in,
                } => person_seat(ui, i18n, lobby, s, *ready, *connected, *stand_in),
                SeatKind::Kept => {
                    ui.label(egui::RichText::new(i18n.name(&s.name)).strong());
                    ui.label(egui::RichText::new(i18n.t("lobby-kept")).color(theme::MUTED));
                }
            }
        });
    });
}

/// Draws a person's seat: name, owner, readiness, away, stand-in.
fn person_seat(
    ui: &mut egui::Ui,
    i18n: &I18n,
    lobby: &LobbyState,
    s: &SeatInfo,
    ready: bool,
    connected: bool,
    stand_in: bool,
) {
    ui.label(egui::RichText::new(i18n.name(&s.name)).strong());
    if lobby.owner == Some(s.seat) {
        ui.label(
            egui::RichText::new(i18n.t("lobby-owner"))
                .small()
                .color(theme::MUTED),
        );
    }
    if !lobby.started {
        let (text, color) = if ready || lobby.owner == Some(s.seat) {
            (i18n.t("lobby-ready"), theme::GOOD)
        } else {
            (i18n.t("lobby-not-ready"), theme::MUTED)
        };
        ui.label(egui::RichText::new(text).color(color));
    }
    if !connected {
        ui.label(egui::RichText::new(i18n.t("lobby-away")).color(theme::BAD));
    }
    if stand_in {
        ui.label(egui::RichText::new(i18n.t("lobby-stand-in")).small());
    }
}

/// Draws who hosts the table (or that its host seat is open) and how many
/// watch.
fn host_and_watchers(ui: &mut egui::Ui, i18n: &I18n, lobby: &LobbyState) {
    match &lobby.host {
        Some(name) if !name.is_empty() => {
            ui.label(i18n.ta("lobby-host", &[("name", name.clone().into())]));
        }
        Some(_) => {
            ui.label(egui::RichText::new(i18n.t("lobby-host-open")).color(theme::MUTED));
        }
        None => {}
    }
    if lobby.spectators > 0 {
        ui.label(i18n.ta("lobby-watching", &[("n", lobby.spectators.into())]));
    }
}

/// Draws the open host seat's code for the owner, and its button to sit
/// there itself.
fn host_code(
    ui: &mut egui::Ui,
    i18n: &I18n,
    model: &ClientModel,
    lobby: &LobbyState,
    owner: bool,
    msgs: &mut Vec<ClientMsg>,
) {
    // Only the owner is sent the code; whoever they give it to hosts.
    if let Some((_, code)) = model
        .host_code
        .as_ref()
        .filter(|(t, _)| *t == lobby.id && owner && lobby.host.as_deref() == Some(""))
    {
        ui.label(
            egui::RichText::new(i18n.ta("lobby-host-code", &[("code", code.clone().into())]))
                .color(theme::ACCENT),
        );
        // Or the owner hosts itself, from the big screen.
        if model.my_seat().is_some() && ui.button(i18n.t("lobby-sit-as-host")).clicked() {
            msgs.push(ClientMsg::TakeHostSeat {
                table: lobby.id,
                code: code.clone(),
            });
        }
    }
}

/// Draws the owner's controls: the bot kind, filling the seats with it,
/// and the start.
fn owner_controls(
    ui: &mut egui::Ui,
    i18n: &I18n,
    lobby: &LobbyState,
    form: &mut NewTable,
    msgs: &mut Vec<ClientMsg>,
) {
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("lobby-bot-kind")
            .selected_text(form.bot.clone())
            .show_ui(ui, |ui| {
                for k in &lobby.bot_kinds {
                    ui.selectable_value(&mut form.bot, k.clone(), k);
                }
            });
        if ui.button(i18n.t("lobby-fill-bots")).clicked() {
            msgs.push(ClientMsg::FillWithBots {
                kind: form.bot.clone(),
            });
        }
    });
    if widgets::menu_button(ui, &i18n.t("lobby-start"), true).clicked() {
        msgs.push(ClientMsg::Start);
    }
}

/// Draws a player's ready checkbox, telling the server when it changes.
fn ready_toggle(
    ui: &mut egui::Ui,
    i18n: &I18n,
    lobby: &LobbyState,
    seat: SeatId,
    msgs: &mut Vec<ClientMsg>,
) {
    let ready = matches!(
        lobby.seats[seat.index()].kind,
        SeatKind::Person { ready: true, .. }
    );
    let mut want = ready;
    ui.checkbox(&mut want, i18n.t("lobby-im-ready"));
    if want != ready {
        msgs.push(ClientMsg::SetReady { ready: want });
    }
}

/// Remembers each seat (or host seat) we are given, with its token, so
/// its game can be replayed from the lobby after we left it.
fn remember_seat(model: Res<ClientModel>, mut settings: ResMut<UserSettings>) {
    if !model.is_changed() {
        return;
    }
    let (Some(at), Some((table, role)), Some(token), Some(lobby)) = (
        crate::client::settings::ServerId::of(&model),
        model.place,
        &model.token,
        &model.lobby,
    ) else {
        return;
    };
    if role == Role::Spectator || lobby.id != table {
        return;
    }
    let seat = crate::client::settings::SavedSeat {
        server: at.name.to_string(),
        key: at.key.unwrap_or_default().to_string(),
        table,
        game: lobby.settings.game(),
        token: token.clone(),
        left: false,
    };
    if settings.past_seat(at, table, seat.game) != Some(token.as_str()) {
        settings.remember_seat(seat);
    }
}

/// Once the game at our table starts, the table screen takes over (not
/// for a game already over: its lobby is where one leaves it, nor for the
/// seat we just left, before the server's answer).
/// The lobby follows our seat to its table: a game that has started and
/// not ended, or one that has ended if the seat was taken while we were
/// here (a page reloaded as its game ended takes its seat back to see how
/// it ended: `rejoin`). A seat of an ended game we came back from ("New
/// game") is not followed, nor one just left (`LeftRunning`).
fn follow_start(
    model: Res<ClientModel>,
    mut left: ResMut<crate::client::net::LeftRunning>,
    mut next: ResMut<NextState<Screen>>,
    mut seen: Local<Option<Option<u32>>>,
) {
    let table = model.place.map(|(t, _)| t);
    if left.0.is_some() && left.0 != table {
        left.0 = None;
    }
    // The place as it was when this lobby was first drawn, or last looked at.
    let taken_here = seen.is_some_and(|before| before != table);
    *seen = Some(table);
    let Some(lobby) = model.lobby.as_ref() else {
        return;
    };
    if table.is_some()
        && left.0.is_none()
        && lobby.started
        && (lobby.result.is_none() || taken_here)
    {
        next.set(Screen::Table);
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<NewTable>()
        .init_resource::<HostedAt>()
        .init_resource::<WebAt>()
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Lobby)))
        .add_systems(
            Update,
            (follow_start, say_choice).run_if(in_state(Screen::Lobby)),
        )
        .add_systems(Update, remember_seat);
}

/// The game the form would open a table of, in the screen's account for
/// tests ("game=wanning").
fn say_choice(form: Res<NewTable>, mut said: ResMut<crate::client::reach::Said>) {
    let choice = format!("game={}", form.game.key());
    if said.choice != choice {
        said.choice = choice;
    }
}

/// A QR code drawn module by module, dark on white with a quiet zone.
fn qr_code(ui: &mut egui::Ui, modules: &[Vec<bool>], side: f32) {
    let n = modules.len().max(1) as f32 + 4.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::WHITE);
    let cell = side / n;
    for (y, row) in modules.iter().enumerate() {
        for (x, dark) in row.iter().enumerate() {
            if *dark {
                let min = rect.min + egui::vec2((x as f32 + 2.0) * cell, (y as f32 + 2.0) * cell);
                painter.rect_filled(
                    egui::Rect::from_min_size(min, egui::vec2(cell, cell)),
                    0.0,
                    egui::Color32::BLACK,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::table::GameResult;

    /// Table 3, a game of Wanning that has started.
    fn running_table() -> LobbyState {
        LobbyState {
            id: 3,
            settings: AnySettings::default_for(GameId::Wanning).unwrap(),
            seats: Vec::new(),
            host: None,
            owner: None,
            started: true,
            result: None,
            bot_kinds: Vec::new(),
            spectators: 0,
            paused: false,
            unsaved: None,
            host_runs: false,
            open_replays: false,
            again_until: None,
        }
    }

    /// Issue 68's party test: "Leave table", confirmed, sent the lobby a
    /// seat still held (the server's `Left` was on its way) in a running
    /// game, which took the screen straight back to the table. The seat
    /// just left is not followed until the server answers; once it has,
    /// the seat taken back is followed again.
    #[test]
    fn a_seat_just_left_is_not_followed_back_to_its_table() {
        use bevy::state::app::StatesPlugin;
        let lobby = running_table();
        let seated = ClientModel {
            place: Some((3, Role::Player(SeatId(1)))),
            lobby: Some(lobby),
            ..ClientModel::default()
        };
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Screen>()
            .insert_resource(seated.clone())
            .insert_resource(crate::client::net::LeftRunning(Some(3)));
        let follow = app.world_mut().register_system(follow_start);
        let followed = |app: &mut App| {
            app.world_mut().run_system(follow).unwrap();
            let to = matches!(
                app.world().resource::<NextState<Screen>>(),
                NextState::Pending(Screen::Table)
            );
            app.world_mut()
                .insert_resource(NextState::<Screen>::Unchanged);
            to
        };
        assert!(!followed(&mut app), "just left: the lobby stays");
        app.world_mut().resource_mut::<ClientModel>().place = None;
        assert!(!followed(&mut app), "the server said Left");
        app.world_mut().insert_resource(seated);
        assert!(followed(&mut app), "the seat taken back: to the table");
    }

    /// Issue 68's party step, "[bo] never back in seat 2 by itself": Bo's
    /// page reloaded as the game ended took its seat back (`rejoin`), and
    /// the lobby, following only games still running, stayed put: no
    /// summary, no "Play again". A seat of an ended game taken while in
    /// the lobby is followed to its table; one we came back to the lobby
    /// from ("New game") is not.
    #[test]
    fn a_seat_taken_back_after_its_game_ended_is_followed_to_its_table() {
        use bevy::state::app::StatesPlugin;
        let ended = LobbyState {
            result: Some(GameResult {
                scores: vec![0, 1, 0, 0],
                places: vec![2, 1, 2, 2],
            }),
            ..running_table()
        };
        let seated = ClientModel {
            place: Some((3, Role::Player(SeatId(2)))),
            lobby: Some(ended),
            ..ClientModel::default()
        };
        let followed = |app: &mut App, follow| {
            app.world_mut().run_system(follow).unwrap();
            let to = matches!(
                app.world().resource::<NextState<Screen>>(),
                NextState::Pending(Screen::Table)
            );
            app.world_mut()
                .insert_resource(NextState::<Screen>::Unchanged);
            to
        };
        // A page reloaded: in the lobby with no place, then its seat back.
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Screen>()
            .insert_resource(ClientModel::default())
            .insert_resource(crate::client::net::LeftRunning(None));
        let follow = app.world_mut().register_system(follow_start);
        assert!(!followed(&mut app, follow), "no place: the lobby stays");
        app.world_mut().insert_resource(seated.clone());
        assert!(
            followed(&mut app, follow),
            "the ended game's seat taken back: to its summary"
        );
        // "New game" after the summary: the lobby opens with the place.
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<Screen>()
            .insert_resource(seated)
            .insert_resource(crate::client::net::LeftRunning(None));
        let follow = app.world_mut().register_system(follow_start);
        assert!(
            !followed(&mut app, follow),
            "back from the summary: the lobby stays"
        );
        assert!(!followed(&mut app, follow), "and stays");
    }

    /// One pass of the lobby's name row, the page's window focused or not
    /// (a phone's keyboard types through a hidden input that takes the
    /// page's focus): where the field is.
    fn name_pass(
        ctx: &egui::Context,
        settings: &mut UserSettings,
        window_focused: bool,
        events: Vec<egui::Event>,
    ) -> egui::Rect {
        let model = ClientModel {
            name: "Player".into(),
            ..default()
        };
        let input = egui::RawInput {
            focused: window_focused,
            events,
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(390.0, 844.0),
            )),
            ..default()
        };
        let (i18n, mut msgs, mut at) = (I18n::default(), Vec::new(), None);
        ctx.run_ui(input, |ui| {
            name_row(ui, &i18n, &model, settings, &mut msgs);
            at = crate::client::reach::drawn(ui.ctx(), "name").map(|(rect, _)| rect);
        })
        .drop_without_applying_deltas();
        at.expect("the lobby shows the name field")
    }

    fn key(key: egui::Key) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::default(),
        }
    }

    /// Issue 66: "Bob and 小陈 both sat as 'Player'"; the field shows the
    /// name the server knows us by until we type another. A name cleared
    /// on a phone, whose keyboard's hidden input holds the page's focus,
    /// stays cleared while the field is typed in: the next letters are the
    /// name (the browser test once went by "Bo小陈Player").
    #[test]
    fn a_name_cleared_on_a_phone_stays_cleared_while_typed() {
        let ctx = egui::Context::default();
        // The app's own font (where a tap puts the cursor is measured in
        // its glyphs).
        let mut fonts = egui::FontDefinitions::empty();
        let ui_font = egui::FontData::from_static(crate::client::assets::UI_FONT_BYTES);
        fonts.font_data.insert("ui".into(), ui_font.into());
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            fonts.families.insert(family, vec!["ui".into()]);
        }
        ctx.set_fonts(fonts);
        let mut settings = UserSettings::default();
        settings.name.clear();
        let field = name_pass(&ctx, &mut settings, true, vec![]);
        assert_eq!(settings.name, "Player", "the server's name, untouched");
        name_pass(
            &ctx,
            &mut settings,
            true,
            crate::client::reach::finger(field.center(), true),
        );
        name_pass(
            &ctx,
            &mut settings,
            true,
            crate::client::reach::finger(field.center(), false),
        );
        let clear = vec![key(egui::Key::Backspace); "Player".len()];
        name_pass(&ctx, &mut settings, false, clear);
        assert_eq!(settings.name, "", "cleared by the keyboard");
        name_pass(&ctx, &mut settings, false, vec![]);
        assert_eq!(settings.name, "", "still cleared a pass later");
        name_pass(
            &ctx,
            &mut settings,
            false,
            vec![egui::Event::Text("Bo".into())],
        );
        assert_eq!(settings.name, "Bo");
    }
}
