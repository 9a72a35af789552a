//! Heap bytes one table holds, by game (4 seats), how much of it is the
//! room Bevy keeps for the table's resources, and what an empty Bevy `App`
//! holds before a table adds anything:
//! `cargo run --release -p foodweb-rules --example tablemem`.
//! Counts live allocations with a wrapping allocator; what a hall adds
//! (its own records, journals, the allocator's slack) is measured by
//! `foodweb bench-hall`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use bevy_ecs::component::StorageType;
use foodweb_rules::table::{Game, Table, TableConfig};
use foodweb_rules::{crueler, forest, gene, wanning};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn measure<G: Game>(players: usize) {
    // The first table builds what every table shares (the deck, the map).
    drop(Table::<G>::new(TableConfig::new(0, players)).unwrap());
    let before = LIVE.load(Ordering::Relaxed);
    let tables: Vec<Table<G>> = (0..20)
        .map(|i| Table::<G>::new(TableConfig::new(i, players)).unwrap())
        .collect();
    let per = (LIVE.load(Ordering::Relaxed) - before) / tables.len() as isize;
    // Every resource is a sparse-set component, stored with room for 64
    // (its value, its entity and two change ticks in each).
    let (mut resources, mut room) = (0, 0);
    for info in tables[0].world().components().iter_registered() {
        if info.storage_type() == StorageType::SparseSet {
            resources += 1;
            room += 64 * (info.layout().size() + 16);
        }
    }
    println!(
        "{:8} {players} seats: {:6.1} KiB a table, {:5.1} KiB of it room for {resources} resources; {} component types",
        G::ID.key(),
        per as f64 / 1024.0,
        room as f64 / 1024.0,
        tables[0].world().components().len()
    );
}

/// What Bevy holds before a table adds anything: an empty `App`.
fn empty_app() {
    let before = LIVE.load(Ordering::Relaxed);
    let apps: Vec<bevy_app::App> = (0..20).map(|_| bevy_app::App::empty()).collect();
    let per = (LIVE.load(Ordering::Relaxed) - before) / apps.len() as isize;
    println!("an empty App: {:6.1} KiB", per as f64 / 1024.0);
}

fn main() {
    empty_app();
    measure::<forest::ForestGame>(4);
    measure::<crueler::CruelerGame>(4);
    measure::<gene::GeneGame>(4);
    measure::<wanning::WanningGame>(4);
}
