//! The game database on PostgreSQL (slow tier: it needs a PostgreSQL server, which CI does
//! not install). The shared checks (`suite`) each run in a schema of their own, then what
//! only a server database has: the version table and instances migrating together.
//!
//! The database is `BOYI_TEST_POSTGRES` (`boyi_store::testing`); a test fails with the
//! commands that set it up when it cannot be reached.

mod suite;

use boyi_store::testing::{fresh_postgres_schema, postgres_url};
use boyi_store::{Db, MIGRATIONS, Store};

fn fresh() -> Store {
    Store::connect(&fresh_postgres_schema()).unwrap()
}

macro_rules! on_postgres {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        #[ignore = "slow tier: needs a PostgreSQL server"]
        fn $name() {
            suite::$name(fresh);
        }
    )*};
}

on_postgres!(
    searches_by_player_result_and_date,
    position_search_finds_transpositions_and_next_moves,
    stored_games_load_back,
    live_games_are_written_move_by_move,
    imports_leave_out_games_already_stored,
    live_batches_refuse_writes_one_by_one,
);

#[test]
#[ignore = "slow tier: needs a PostgreSQL server"]
fn instances_started_together_migrate_once_and_a_newer_schema_is_refused() {
    let db = fresh_postgres_schema();
    let opened: Vec<_> = (0..4)
        .map(|_| {
            let db = db.clone();
            std::thread::spawn(move || Store::connect(&db).map(|s| s.schema_version()))
        })
        .collect();
    for o in opened {
        assert_eq!(o.join().unwrap().unwrap().unwrap(), MIGRATIONS.len() as i64);
    }
    let Db::Postgres(u) = &db else { unreachable!() };
    let mut c = postgres::Client::connect(u, postgres::NoTls).unwrap();
    assert_eq!(
        c.query_one("SELECT count(*) FROM boyi_schema", &[])
            .unwrap()
            .get::<_, i64>(0),
        1
    );
    c.batch_execute("UPDATE boyi_schema SET version = 99")
        .unwrap();
    let e = Store::connect(&db).err().unwrap().to_string();
    assert!(e.contains("newer than this boyi"), "{e}");
}

#[test]
#[ignore = "slow tier: needs a PostgreSQL server"]
fn a_wrong_password_is_reported_not_panicked() {
    let bad = postgres_url().replacen("boyi:boyi@", "boyi:wrong@", 1);
    if bad == postgres_url() {
        return; // A custom URL without the default password: nothing to spoil.
    }
    let e = Store::connect(&Db::Postgres(bad))
        .err()
        .unwrap()
        .to_string();
    assert!(e.starts_with("database:"), "{e}");
    assert!(!e.contains("wrong"), "the password is not repeated: {e}");
}
