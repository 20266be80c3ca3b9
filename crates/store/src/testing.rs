//! For tests that need a PostgreSQL database (the slow tier): `BOYI_TEST_POSTGRES`, by default
//! `postgres://boyi:boyi@localhost/boyi`, and a fresh schema of it for each test. When the
//! server cannot be reached, the test fails with the commands that set one up.

use crate::Db;
use std::sync::atomic::{AtomicUsize, Ordering};

const DEFAULT_URL: &str = "postgres://boyi:boyi@localhost/boyi";

/// The test database's URL.
pub fn postgres_url() -> String {
    std::env::var("BOYI_TEST_POSTGRES").unwrap_or_else(|_| DEFAULT_URL.into())
}

/// A client of the test database, or a panic that says how to set one up.
pub fn postgres_admin() -> postgres::Client {
    postgres::Client::connect(&postgres_url(), postgres::NoTls).unwrap_or_else(|e| {
        panic!(
            "PostgreSQL is not reachable at {} ({e}). Set BOYI_TEST_POSTGRES to a database \
             this user may create schemas in, or set one up here:\n  \
             apt-get install -y postgresql && service postgresql start\n  \
             su postgres -c \"psql -c \\\"CREATE ROLE boyi LOGIN PASSWORD 'boyi'\\\"\"\n  \
             su postgres -c 'createdb -O boyi boyi'",
            Db::Postgres(postgres_url())
        )
    })
}

/// The test database with a schema of its own first on the search path (created afresh; a
/// schema this process left behind is dropped first).
pub fn fresh_postgres_schema() -> Db {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "boyi_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    postgres_admin()
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
        ))
        .unwrap_or_else(|e| panic!("creating the schema {name}: {e}"));
    let url = postgres_url();
    let sep = if url.contains('?') { '&' } else { '?' };
    Db::Postgres(format!("{url}{sep}options=-csearch_path%3D{name}"))
}
