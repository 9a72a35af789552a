//! Your seat is yours until the game ends (issue 68): a seat of a game
//! still running is taken back by itself when we are at its server again
//! (a page reloaded, a tab opened again, an app started again, a link
//! made again), and a page back from the background makes its link again
//! at once. A seat left by choice, or whose game we saw end, is not; the
//! newest seat whose game ended while we were away is, once, to show how
//! it ended (and offer "Play again" with the same people).

use bevy::prelude::*;
use foodweb_netcode::client::{ClientModel, Outbox, Session, Target};
use foodweb_netcode::messages::Role;

use crate::client::screens::HostedAt;
use crate::client::settings::{ServerId, UserSettings};
use crate::client::{Screen, web};

/// A page hidden this long (seconds) has lost its link: the server gives
/// up on a silent client after 5 s, and a hidden page draws nothing and
/// so sends nothing.
const AWAY_LONG_ENOUGH: f64 = 3.0;

/// Once we are welcomed and the tables are known, and we have no place:
/// our seat at this server (`UserSettings::live_seat`) is taken back
/// (`Resume`, proved for this connection). Once a connection.
fn take_our_seat_back(
    mut model: ResMut<ClientModel>,
    session: Res<Session>,
    settings: Res<UserSettings>,
    mut outbox: ResMut<Outbox>,
    mut looked_on: Local<Option<u32>>,
) {
    if !model.is_changed() || *looked_on == Some(session.connections) {
        return;
    }
    let Some(at) = ServerId::of(&model) else {
        return;
    };
    if model.challenge.is_none() {
        return;
    }
    if model.place.is_some() || model.token.is_some() {
        // Seated, or a place the connection itself takes back.
        *looked_on = Some(session.connections);
        return;
    }
    let Some(seat) = settings.live_seat(at, &model.tables) else {
        return;
    };
    let (table, token) = (seat.table, seat.token.clone());
    let model = model.as_mut();
    model.token = Some(token);
    model.token_table = Some(table);
    if let Some(resume) = model.resume() {
        info!("taking our seat at table {table} back");
        outbox.0.push(resume);
    }
    *looked_on = Some(session.connections);
}

/// A seat whose game we saw end, at our table or in the table list, is
/// not taken back by itself again (it stays ours for its replay).
fn forget_ended_seats(model: Res<ClientModel>, mut settings: ResMut<UserSettings>) {
    if !model.is_changed() {
        return;
    }
    let ours_ended = model.lobby.as_ref().is_some_and(|l| {
        l.result.is_some()
            && model
                .place
                .is_some_and(|(t, r)| t == l.id && r != Role::Spectator)
    });
    if ours_ended
        && let Some((token, table)) = model.token.as_ref().zip(model.token_table)
        && settings
            .past_seats
            .iter()
            .any(|s| &s.token == token && s.table == table && !s.left)
    {
        settings.mark_left(&model, true);
    }
    if let Some(at) = ServerId::of(&model) {
        // (Only a seat marked changes the settings, and so saves them.)
        // (Not the one we are taking back: it is marked once we see its end.)
        for i in settings.ended_seats(at, &model.tables, model.token.as_deref()) {
            settings.past_seats[i].left = true;
        }
    }
}

/// A page opened with a seat of ours at its server that may still be
/// played goes to that server at once, without a press: if the game still
/// runs, the seat is taken back (`take_our_seat_back`).
fn back_to_our_table_at_start(
    settings: Res<UserSettings>,
    mut session: ResMut<Session>,
    mut hosted: ResMut<HostedAt>,
    mut next: ResMut<NextState<Screen>>,
    mut once: Local<bool>,
) {
    if std::mem::replace(&mut *once, true) || session.target.is_some() {
        return;
    }
    let (Some((url, tokens)), Some(pin)) = (web::page_server(), web::page_pin()) else {
        return;
    };
    if !settings.may_have_seat_at(&foodweb_netcode::seal::pin_fingerprint(&pin)) {
        return;
    }
    info!("this page sat at a table of its server: going back");
    hosted.0.clear();
    session.connect_pinned(Target::WebSocketUrl { url, tokens }, Some(pin));
    next.set(Screen::Lobby);
}

/// A page back in view after long enough hidden, or whose link is down,
/// makes its link again now (not after the next retry's pause).
fn back_in_view(mut session: ResMut<Session>) {
    let Some(away) = web::back_in_view() else {
        return;
    };
    if session.target.is_some() && (away >= AWAY_LONG_ENOUGH || !session.is_connected()) {
        info!("back in view after {away:.1} s: making the link again");
        session.reconnect_now();
    }
}

pub fn plugin(app: &mut App) {
    if let Some(wake) = super::wake::waker(app) {
        web::watch_visibility(wake);
    }
    app.add_systems(OnEnter(Screen::Title), back_to_our_table_at_start)
        .add_systems(
            Update,
            (
                (take_our_seat_back, forget_ended_seats).chain(),
                back_in_view,
            ),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::settings::SavedSeat;
    use foodweb_netcode::messages::{ClientMsg, TableSummary};
    use foodweb_rules::GameId;

    const KEY: &str = "AAAAA-AAAAA-AAAAA";

    fn table(id: u32, started: bool, over: bool) -> TableSummary {
        TableSummary {
            id,
            game: GameId::Wanning,
            seats: 4,
            open_seats: 0,
            host_seat_open: false,
            started,
            over,
            open_replays: false,
            players: vec![],
            away: 0,
        }
    }

    /// A page at its server again, welcomed, with `tables` listed and
    /// our seats saved: what it asks of the hall, and the seats after.
    fn welcomed(
        key: &str,
        tables: Vec<TableSummary>,
        seats: Vec<SavedSeat>,
    ) -> (Vec<ClientMsg>, Vec<SavedSeat>) {
        let mut app = App::new();
        let model = ClientModel {
            server: Some("Party".into()),
            server_key: Some(key.into()),
            challenge: Some("c0ffee".into()),
            tables,
            ..default()
        };
        let settings = UserSettings {
            past_seats: seats,
            ..default()
        };
        app.insert_resource(model)
            .insert_resource(settings)
            .insert_resource(Session::default())
            .init_resource::<Outbox>()
            .add_systems(Update, (take_our_seat_back, forget_ended_seats).chain());
        app.update();
        app.update();
        let sent = app.world().resource::<Outbox>().0.clone();
        (
            sent,
            app.world().resource::<UserSettings>().past_seats.clone(),
        )
    }

    fn seat(table: u32, token: &str, left: bool) -> SavedSeat {
        SavedSeat {
            server: "Party".into(),
            key: KEY.into(),
            table,
            game: GameId::Wanning,
            token: token.into(),
            left,
        }
    }

    fn resumed(sent: &[ClientMsg]) -> Vec<u32> {
        sent.iter()
            .filter_map(|m| match m {
                ClientMsg::Resume { table, .. } => Some(*table),
                _ => None,
            })
            .collect()
    }

    /// Issue 68: "the client goes straight back to a table whose game
    /// still runs": the newest seat of ours there is taken back, once,
    /// proved for this connection.
    #[test]
    fn a_seat_whose_game_runs_is_taken_back_by_itself() {
        let seats = vec![seat(1, "0a", false), seat(2, "0b", false)];
        let (sent, _) = welcomed(
            KEY,
            vec![table(1, true, false), table(2, true, false)],
            seats,
        );
        assert_eq!(resumed(&sent), vec![2], "the newest, once: {sent:?}");
        let proof = foodweb_netcode::seal::seat_proof(
            "0b",
            "c0ffee",
            2,
            foodweb_netcode::seal::ProofFor::Resume,
        );
        assert!(matches!(&sent[0], ClientMsg::Resume { proof: p, .. } if *p == proof));
    }

    /// Not taken back: a seat left by choice ("Leaving is a choice"), one
    /// at a table whose game has not started, one at another server of the
    /// same name.
    #[test]
    fn a_seat_left_unstarted_or_elsewhere_is_not_taken_back() {
        let (sent, _) = welcomed(KEY, vec![table(1, true, false)], vec![seat(1, "0a", true)]);
        assert_eq!(resumed(&sent), Vec::<u32>::new(), "left by choice");
        let (sent, _) = welcomed(
            KEY,
            vec![table(1, false, false)],
            vec![seat(1, "0a", false)],
        );
        assert_eq!(resumed(&sent), Vec::<u32>::new(), "not started");
        let other = "BBBBB-BBBBB-BBBBB";
        let (sent, _) = welcomed(
            other,
            vec![table(1, true, false)],
            vec![seat(1, "0a", false)],
        );
        assert_eq!(
            resumed(&sent),
            Vec::<u32>::new(),
            "another server named Party"
        );
    }

    /// A page reloaded as its game ended (the party step: Bo's phone was
    /// back in the lobby, its seat forgotten, with no summary and no "Play
    /// again"): the newest seat whose game ended while we were away is
    /// taken back, to see how it ended; older ended seats are not looked
    /// for again, nor is an ended one while a game of ours still runs.
    #[test]
    fn the_newest_seat_whose_game_ended_unseen_is_taken_back_once() {
        let (sent, after) = welcomed(
            KEY,
            vec![table(1, true, true), table(2, true, true)],
            vec![seat(1, "0a", false), seat(2, "0b", false)],
        );
        assert_eq!(resumed(&sent), vec![2], "the newest ended: {sent:?}");
        assert!(
            after[0].left,
            "an older ended game's seat is not looked for again"
        );
        assert!(
            !after[1].left,
            "the one taken back is forgotten once its end is seen"
        );
        let (sent, after) = welcomed(
            KEY,
            vec![table(1, true, false), table(2, true, true)],
            vec![seat(1, "0a", false), seat(2, "0b", false)],
        );
        assert_eq!(resumed(&sent), vec![1], "a running game first: {sent:?}");
        assert!(after[1].left, "the ended one is not looked for again");
    }
}
