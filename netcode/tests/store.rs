//! The table store: what is saved comes back; what is corrupt is refused.

use foodweb_netcode::{StoreError, TableStore};
use foodweb_rules::forest::{ForestAction, ForestGame};
use foodweb_rules::table::{SeatId, Table, TableConfig};

#[test]
fn a_saved_table_comes_back_identical() {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::open(dir.path()).unwrap();
    let mut t = Table::<ForestGame>::new(TableConfig::new(9, 4)).unwrap();
    t.submit(SeatId(0), ForestAction::AskShowdown { target: SeatId(2) })
        .unwrap();
    store.save("party-1", &t.snapshot()).unwrap();
    let back = store.load::<ForestGame>("party-1").unwrap();
    assert_eq!(back.hash(), t.snapshot().hash());
    assert_eq!(store.list().unwrap(), vec!["party-1".to_string()]);
    assert!(
        std::fs::read_dir(dir.path()).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp"))
    );
}

/// DEVELOPERS.md: "a corrupt save file ... gets a clear error and changes nothing".
#[test]
fn corrupt_or_missing_tables_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::open(dir.path()).unwrap();
    let t = Table::<ForestGame>::new(TableConfig::new(9, 4)).unwrap();
    store.save("t", &t.snapshot()).unwrap();
    let path = dir.path().join("t.table.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &text[..text.len() - 40]).unwrap();
    let err = store.load::<ForestGame>("t").unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("t.table.ron"), "{err}");
    assert!(matches!(
        store.load::<ForestGame>("nope"),
        Err(StoreError::Missing(_))
    ));
    assert!(matches!(
        store.load::<ForestGame>("../etc/passwd"),
        Err(StoreError::BadId(_))
    ));
    // The corrupt file is left for a person to look at, not overwritten.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().len(),
        text.len() - 40
    );
}
