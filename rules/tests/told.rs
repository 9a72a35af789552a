//! Every change is told (issue 71): over whole bot games, every change to
//! a seat's own HP and shields is accounted for by the notes that seat was
//! given (`Announcements::notes_for`, what its screen shows), their
//! amounts (`PrivateNote::amounts`, data, not words) adding up to the
//! change, step by step; and the settlement a seat's screen plays out
//! line by line says what its notes said.
//!
//! CI plays a few fixed seeds at the smallest and the largest table;
//! `tools/told.sh` sweeps every size and many seeds
//! (`FOODWEB_TOLD_SEEDS`, `FOODWEB_TOLD_ALL_SIZES`).

use foodweb_rules::bot::Bot;
use foodweb_rules::crueler::CruelerGame;
use foodweb_rules::forest::ForestGame;
use foodweb_rules::gene::GeneGame;
use foodweb_rules::gene::state::Vitals;
use foodweb_rules::table::{
    Game, Measure, PrivateNote, SeatEntities, SeatId, Seats, Table, TableConfig,
};
use foodweb_rules::wanning::news::change_line;
use foodweb_rules::wanning::{HostView, WanningGame, bots, host_view};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The seeds each size plays: a few in CI, more from `tools/told.sh`.
fn seeds() -> std::ops::Range<u64> {
    let n = std::env::var("FOODWEB_TOLD_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    0..n
}

/// The table sizes played: the game's smallest and largest, or all.
fn sizes(all: std::ops::RangeInclusive<usize>) -> Vec<usize> {
    if std::env::var_os("FOODWEB_TOLD_ALL_SIZES").is_some() {
        all.collect()
    } else {
        vec![*all.start(), *all.end()]
    }
}

/// One step of a bots' game: the first seat waited on with a move makes
/// it, or else the clock runs to the next deadline.
fn bot_step<G: Game>(table: &mut Table<G>, bots: &mut [Box<dyn Bot<G>>], rng: &mut ChaCha8Rng) {
    for seat in table.to_act() {
        if let Some(action) = bots[seat.index()].act(&table.view(seat), rng) {
            table.submit(seat, action).unwrap();
            return;
        }
    }
    let at = table.next_deadline().expect("a deadline");
    table.advance_to(at);
}

/// What one seat was told between two moments: the sum of its new notes'
/// amounts of `of`, and the notes' words (for a failure's message).
fn told(new: &[PrivateNote], seat: SeatId, of: Measure) -> (i32, Vec<String>) {
    let mine: Vec<&PrivateNote> = new.iter().filter(|n| n.seat == seat).collect();
    (
        mine.iter().map(|n| n.change(of)).sum(),
        mine.iter().map(|n| n.text.en.clone()).collect(),
    )
}

/// Each seat's (HP, shields) as the rules keep them, and whether it is
/// dead (nothing of a dead seat's changes, and nothing is told to it).
fn wanning_things(host: &HostView) -> Vec<(i32, i32, bool)> {
    host.seats
        .iter()
        .map(|s| (s.hp, s.shields, s.dead))
        .collect()
}

/// The settlement a seat's screen plays out line by line (`view.settled`)
/// says what its notes of that round said, in the same order: the lines
/// of `round` with amounts it was told.
fn settlement_is_its_notes(table: &Table<WanningGame>, seat: SeatId, round: u8, lines: &[String]) {
    let prefix = format!("Round {round}:");
    let notes: Vec<String> = table
        .announcements()
        .private
        .iter()
        .filter(|n| n.seat == seat && !n.amounts.is_empty() && n.text.en.starts_with(&prefix))
        .map(|n| n.text.en.clone())
        .collect();
    assert_eq!(
        lines, notes,
        "seat {seat}'s settlement of round {round} on its screen, and its notes"
    );
}

/// One whole Wanning game by bots (reasoning and random seats in turn):
/// after every move and every deadline, each living seat's change in HP
/// and in shields is the sum its new notes tell, and each new settlement
/// on a seat's screen is its notes of that round. Returns how many
/// changes were told.
fn wanning_game(players: usize, seed: u64) -> usize {
    let mut table = Table::<WanningGame>::new(TableConfig::new(seed, players)).unwrap();
    let mut bots: Vec<Box<dyn Bot<WanningGame>>> = (0..players)
        .map(|i| bots::bot(["reasoning", "random"][i % 2]).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7011);
    let (mut steps, mut changes) = (0, 0);
    let mut before = wanning_things(&host_view(table.world()));
    let mut heard = table.announcements().private.len();
    let mut settled_seen = vec![0u8; players];
    while !table.is_over() {
        steps += 1;
        assert!(steps < 5_000, "{players} players, seed {seed}: stalled");
        bot_step(&mut table, &mut bots, &mut rng);
        let host = host_view(table.world());
        let after = wanning_things(&host);
        let new = &table.announcements().private[heard..];
        for (i, (&(hp0, sh0, dead), &(hp1, sh1, _))) in before.iter().zip(&after).enumerate() {
            if dead {
                continue;
            }
            let seat = SeatId(i as u8);
            for (of, change) in [(Measure::Hp, hp1 - hp0), (Measure::Shields, sh1 - sh0)] {
                let (sum, words) = told(new, seat, of);
                assert_eq!(
                    sum, change,
                    "{players} players, seed {seed}, round {}: seat {seat}'s {of:?} changed by {change} ({hp0}/{sh0} → {hp1}/{sh1}), its notes told {sum}: {words:#?}",
                    host.round
                );
                changes += usize::from(change != 0);
            }
            if let Some(s) = table
                .view(seat)
                .settled
                .filter(|s| s.round != settled_seen[i])
            {
                settled_seen[i] = s.round;
                let lines: Vec<String> =
                    s.lines.iter().map(|c| change_line(s.round, c).en).collect();
                settlement_is_its_notes(&table, seat, s.round, &lines);
            }
        }
        before = after;
        heard = table.announcements().private.len();
    }
    changes
}

/// Issue 71: "every change to a seat's HP, shields, life or cards is
/// accounted for by lines that seat was shown, adding up to the change";
/// Wanning's settlement 「buff獲取->最大受到傷害->護盾->真實傷害->鎖血->特殊
/// 技能」, 強健's and 笨鳥先飛's shields, 野心's.
#[test]
fn wanning_every_change_to_hp_and_shields_is_told() {
    let mut changes = 0;
    for players in sizes(WanningGame::ID.seats()) {
        for seed in seeds() {
            changes += wanning_game(players, seed);
        }
    }
    assert!(changes > 0, "the games changed nobody's HP or shields");
    println!("wanning: {changes} changes told");
}

/// Each Gene seat's true HP.
fn gene_hp(table: &Table<GeneGame>) -> Vec<i32> {
    let world = table.world();
    let seats = world.resource::<SeatEntities>();
    seats
        .iter()
        .map(|(_, e)| world.get::<Vitals>(e).expect("a seat").hp)
        .collect()
}

/// One whole Gene Survival game by bots (survivor and random seats in
/// turn): after every move and deadline, each seat's change in true HP is
/// the sum its new notes tell, and its settlement on its screen
/// (`view.mine`) is the lines it was told. Returns how many changes.
fn gene_game(players: usize, seed: u64) -> usize {
    use foodweb_rules::gene::news::change_line;
    let mut table = Table::<GeneGame>::new(TableConfig::new(seed, players)).unwrap();
    let mut bots: Vec<Box<dyn Bot<GeneGame>>> = (0..players)
        .map(|i| foodweb_rules::gene::bots::bot(["survivor", "random"][i % 2]).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6e11);
    let (mut steps, mut changes) = (0, 0);
    let mut before = gene_hp(&table);
    let mut heard = table.announcements().private.len();
    while !table.is_over() {
        steps += 1;
        assert!(steps < 20_000, "{players} players, seed {seed}: stalled");
        bot_step(&mut table, &mut bots, &mut rng);
        let after = gene_hp(&table);
        let new = &table.announcements().private[heard..];
        for (i, (hp0, hp1)) in before.iter().zip(&after).enumerate() {
            let seat = SeatId(i as u8);
            let (sum, words) = told(new, seat, Measure::Hp);
            assert_eq!(
                sum,
                hp1 - hp0,
                "{players} players, seed {seed}, round {}: seat {seat}'s HP {hp0} → {hp1}, its notes told {sum}: {words:#?}",
                table.view(seat).round
            );
            changes += usize::from(hp1 != hp0);
            if !new.iter().any(|n| n.seat == seat && !n.amounts.is_empty()) {
                continue;
            }
            // Its screen's settlement ends with the lines just told.
            let mine: Vec<String> = table
                .view(seat)
                .mine
                .iter()
                .map(|c| change_line(c).en)
                .collect();
            let told_now: Vec<String> = new
                .iter()
                .filter(|n| n.seat == seat && !n.amounts.is_empty())
                .map(|n| n.text.en.clone())
                .collect();
            let shown: Vec<&String> = mine.iter().filter(|l| told_now.contains(l)).collect();
            assert_eq!(
                shown.len(),
                told_now.len(),
                "seat {seat}'s settlement on its screen {mine:#?} lacks lines it was told {told_now:#?}"
            );
        }
        before = after;
        heard = table.announcements().private.len();
    }
    changes
}

/// Issue 71: Gene's seven steps for each seat: 「对相关玩家的生命值进行
/// 秘密结算」: battles (with the strength difference), shadows' draining,
/// gas, upkeep 「若只上交其一，则会扣除一点生命值，若都未上交，则会扣除两
/// 点生命值」, the rocket, its own medicine, revival, and the gold bars
/// 「一金条可兑换一点生命值」 at the end: every change told, adding up.
#[test]
fn gene_every_change_to_hp_is_told() {
    let range = GeneGame::ID.seats();
    let mut changes = 0;
    for players in sizes(range) {
        for seed in seeds() {
            changes += gene_game(players, seed);
        }
    }
    assert!(changes > 0, "the games changed nobody's HP");
    println!("gene: {changes} changes told");
}

/// Each Crueler seat's true life (the tokens in its box) and predator
/// cards.
fn crueler_things(table: &Table<CruelerGame>) -> Vec<(i32, i32)> {
    use foodweb_rules::crueler::state::{LifeBox, PredatorCards};
    let world = table.world();
    let seats = world.resource::<SeatEntities>();
    seats
        .iter()
        .map(|(_, e)| {
            let life = world.get::<LifeBox>(e).expect("a seat").life();
            let cards = world.get::<PredatorCards>(e).expect("a seat").0.len() as i32;
            (life, cards)
        })
        .collect()
}

/// One whole Crueler World game by bots (survivor and random seats in
/// turn): after every move and deadline, each seat's change in life and
/// in predator cards is the sum its new notes tell, and the newest of its
/// changes on its screen (`view.mine`) are those notes, word for word.
/// Returns how many changes were told.
fn crueler_game(players: usize, seed: u64) -> usize {
    use foodweb_rules::crueler::news::change_line;
    let mut table = Table::<CruelerGame>::new(TableConfig::new(seed, players)).unwrap();
    let mut bots: Vec<Box<dyn Bot<CruelerGame>>> = (0..players)
        .map(|i| foodweb_rules::crueler::bots::bot(["survivor", "random"][i % 2]).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xc7e1);
    let (mut steps, mut changes) = (0, 0);
    let mut before = crueler_things(&table);
    let mut heard = table.announcements().private.len();
    let seats = table.world().resource::<Seats>().clone();
    while !table.is_over() {
        steps += 1;
        assert!(steps < 20_000, "{players} players, seed {seed}: stalled");
        bot_step(&mut table, &mut bots, &mut rng);
        let after = crueler_things(&table);
        let new = &table.announcements().private[heard..];
        for (i, (&(life0, cards0), &(life1, cards1))) in before.iter().zip(&after).enumerate() {
            let seat = SeatId(i as u8);
            for (of, change) in [
                (Measure::Life, life1 - life0),
                (Measure::Cards, cards1 - cards0),
            ] {
                let (sum, words) = told(new, seat, of);
                assert_eq!(
                    sum, change,
                    "{players} players, seed {seed}: seat {seat}'s {of:?} changed by {change} (life {life0} → {life1}, cards {cards0} → {cards1}), its notes told {sum}: {words:#?}"
                );
                changes += usize::from(change != 0);
            }
            let told_now: Vec<String> = new
                .iter()
                .filter(|n| n.seat == seat && !n.amounts.is_empty())
                .map(|n| n.text.en.clone())
                .collect();
            let mine = table.view(seat).mine;
            let shown: Vec<String> = mine[mine.len() - told_now.len()..]
                .iter()
                .map(|c| change_line(c, &seats).en)
                .collect();
            assert_eq!(
                shown, told_now,
                "seat {seat}'s newest changes on its screen, and its notes"
            );
        }
        before = after;
        heard = table.announcements().private.len();
    }
    changes
}

/// Issue 71: Crueler's 「the winning side will increase N … and the losing
/// side will deduct the same life points」, the elimination's 「additional 3
/// Life Points」, starving 「minus the corresponding N」, life traded in the
/// interlude, and predator cards handed in or given by the eliminated:
/// every change told to its seat, adding up.
#[test]
fn crueler_every_change_to_life_and_cards_is_told() {
    let mut changes = 0;
    for players in sizes(CruelerGame::ID.seats()) {
        for seed in seeds() {
            changes += crueler_game(players, seed);
        }
    }
    assert!(changes > 0, "the games changed nobody's life or cards");
    println!("crueler: {changes} changes told");
}

/// Each Forest seat's cards in hand and their energy.
fn forest_things(table: &Table<ForestGame>) -> Vec<(i32, i64)> {
    use foodweb_rules::forest::{Hand, deck};
    let world = table.world();
    let seats = world.resource::<SeatEntities>();
    seats
        .iter()
        .map(|(_, e)| {
            let hand = &world.get::<Hand>(e).expect("a seat").0;
            (hand.len() as i32, deck().energy(hand))
        })
        .collect()
}

/// One whole Forest Showdown game by bots (memory and random seats in
/// turn; two quick rounds, each seat thinking 2 s of table time before
/// it acts): after every move and deadline, each seat's change in cards
/// held and in their energy is the sum its new notes tell, and the newest
/// of its lines on its screen (`view.mine`) are those notes, word for
/// word. Returns how many changes were told.
fn forest_game(players: usize, seed: u64) -> usize {
    use foodweb_rules::forest::news::change_line;
    use foodweb_rules::forest::{ForestSettings, bots};
    let mut config = TableConfig::<ForestGame>::new(seed, players);
    config.settings = ForestSettings::quick();
    config.settings.rounds = 2;
    let mut table = Table::<ForestGame>::new(config).unwrap();
    let mut lineup: Vec<Box<dyn Bot<ForestGame>>> = (0..players)
        .map(|i| bots::bot(["memory", "random"][i % 2]).unwrap())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xf0e5);
    let (mut steps, mut changes) = (0, 0);
    let mut before = forest_things(&table);
    let mut heard = table.announcements().private.len();
    let seats = table.world().resource::<Seats>().clone();
    // Each seat's round and how many of its lines were on its screen.
    let mut shown_at: Vec<(u8, usize)> = (0..players)
        .map(|i| {
            let view = table.view(SeatId(i as u8));
            (view.round, view.mine_count)
        })
        .collect();
    while !table.is_over() {
        steps += 1;
        assert!(steps < 20_000, "{players} players, seed {seed}: stalled");
        table.advance_by(2_000);
        bot_step(&mut table, &mut lineup, &mut rng);
        let after = forest_things(&table);
        let new = &table.announcements().private[heard..];
        for (i, (&(cards0, energy0), &(cards1, energy1))) in before.iter().zip(&after).enumerate() {
            let seat = SeatId(i as u8);
            let energy = (energy1 - energy0) as i32;
            for (of, change) in [(Measure::Cards, cards1 - cards0), (Measure::Energy, energy)] {
                let (sum, words) = told(new, seat, of);
                assert_eq!(
                    sum, change,
                    "{players} players, seed {seed}: seat {seat}'s {of:?} changed by {change} (cards {cards0} → {cards1}, energy {energy0} → {energy1}), its notes told {sum}: {words:#?}"
                );
                changes += usize::from(change != 0);
            }
            // Its screen's new lines (this round's: a deal starts them
            // afresh) are among its new notes, and every new note with an
            // amount is among them.
            let view = table.view(seat);
            let start = if view.round == shown_at[i].0 {
                shown_at[i].1
            } else {
                0
            };
            // The view holds the round's newest lines: the count's last.
            let held = view.mine_count - view.mine.len();
            assert!(
                start >= held,
                "seat {seat}: {} new lines in one step, more than a view keeps",
                view.mine_count - start
            );
            let shown: Vec<String> = view.mine[start - held..]
                .iter()
                .map(|c| change_line(c, &seats).en)
                .collect();
            shown_at[i] = (view.round, view.mine_count);
            let mut notes: Vec<&PrivateNote> = new.iter().filter(|n| n.seat == seat).collect();
            if start == 0 {
                // A new round's deal starts the screen's lines afresh:
                // what was told before it (the move that ended the last
                // round) stays in the notes only.
                let dealt = format!("Round {}: ", view.round);
                if let Some(at) = notes.iter().position(|n| n.text.en.starts_with(&dealt)) {
                    notes.drain(..at);
                }
            }
            for line in &shown {
                assert!(
                    notes.iter().any(|n| &n.text.en == line),
                    "seat {seat}'s screen shows {line:?}, which its notes did not tell"
                );
            }
            for n in notes.iter().filter(|n| !n.amounts.is_empty()) {
                assert!(
                    shown.contains(&n.text.en),
                    "seat {seat} was told {:?}, which its screen does not show: {shown:#?}",
                    n.text.en
                );
            }
        }
        before = after;
        heard = table.announcements().private.len();
    }
    changes
}

/// Issue 71: "Forest's showdown and challenge outcomes with why a card
/// ate another": the seed's 「If one card "eats" the other then that player
/// takes the "eaten" card」, 「If the challenger was wrong … the challenger
/// must give up his challenging card」, and each round's deal: every
/// change to a seat's hand told to it, its cards and energy adding up.
#[test]
fn forest_every_change_to_cards_and_energy_is_told() {
    let mut changes = 0;
    for players in sizes(ForestGame::ID.seats()) {
        for seed in seeds() {
            changes += forest_game(players, seed);
        }
    }
    assert!(changes > 0, "the games changed nobody's hand");
    println!("forest: {changes} changes told");
}
