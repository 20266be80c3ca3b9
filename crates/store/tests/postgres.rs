//! The game database on PostgreSQL (slow tier: it needs a PostgreSQL server, which CI does
//! not install). The shared checks (`suite`) each run in a schema of their own, then what
//! only a server database has: the version table and instances migrating together.
//!
//! The database is `BOYI_TEST_POSTGRES`, by default `postgres://boyi:boyi@localhost/boyi`;
//! a test fails with the commands that set it up when it cannot be reached.

mod suite;

use boyi_store::{Db, MIGRATIONS, Store};
use std::sync::atomic::{AtomicUsize, Ordering};

const DEFAULT_URL: &str = "postgres://boyi:boyi@localhost/boyi";

fn url() -> String {
    std::env::var("BOYI_TEST_POSTGRES").unwrap_or_else(|_| DEFAULT_URL.into())
}

fn admin() -> postgres::Client {
    postgres::Client::connect(&url(), postgres::NoTls).unwrap_or_else(|e| {
        panic!(
            "PostgreSQL is not reachable at {} ({e}). Set BOYI_TEST_POSTGRES to a database \
             this user may create schemas in, or set one up here:\n  \
             apt-get install -y postgresql && service postgresql start\n  \
             su postgres -c \"psql -c \\\"CREATE ROLE boyi LOGIN PASSWORD 'boyi'\\\"\"\n  \
             su postgres -c 'createdb -O boyi boyi'",
            Db::Postgres(url())
        )
    })
}

/// A schema of its own (dropped first if a run of this process left it), and the URL of
/// the database with that schema first on the search path.
fn fresh_schema() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "boyi_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    admin()
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
        ))
        .unwrap();
    let sep = if url().contains('?') { '&' } else { '?' };
    format!("{}{sep}options=-csearch_path%3D{name}", url())
}

fn fresh() -> Store {
    Store::connect(&Db::Postgres(fresh_schema())).unwrap()
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
    let db = Db::Postgres(fresh_schema());
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
    let bad = url().replacen("boyi:boyi@", "boyi:wrong@", 1);
    if bad == url() {
        return; // A custom URL without the default password: nothing to spoil.
    }
    let e = Store::connect(&Db::Postgres(bad))
        .err()
        .unwrap()
        .to_string();
    assert!(e.starts_with("database:"), "{e}");
    assert!(!e.contains("wrong"), "the password is not repeated: {e}");
}
