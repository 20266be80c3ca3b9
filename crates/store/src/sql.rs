//! The two databases the store runs on, behind one small interface: SQLite (embedded, the
//! default: one file, nothing to install) and PostgreSQL (a database server that several
//! `boyi serve` instances share). The store's SQL is written once, in the part of SQL both
//! speak (`INSERT … ON CONFLICT DO NOTHING`, `RETURNING`, savepoints), with parameters
//! numbered `?1`, `?2` …, which become PostgreSQL's `$1`, `$2` … here. Values cross as
//! [`Value`]s (integers and text are all the store keeps), so no driver type leaves this file.
//!
//! PostgreSQL is reached with the `postgres` crate, the blocking client over
//! `tokio-postgres`: the store's interface is blocking (the server gives it its own threads),
//! and one client per thread with its statements prepared once is what a blocking caller
//! wants.

use crate::{Result, StoreError};
use postgres::Statement;
use postgres::types::{IsNull, ToSql, Type};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where the games are: an SQLite file, or a PostgreSQL database named by its URL
/// (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?options]`).
#[derive(Clone, PartialEq, Eq)]
pub enum Db {
    Sqlite(PathBuf),
    Postgres(String),
}

impl FromStr for Db {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Db, String> {
        if s.is_empty() {
            return Err("the database is empty: give a file path or a postgres:// URL".into());
        }
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            postgres::Config::from_str(s).map_err(|e| format!("database URL {}: {e}", shown(s)))?;
            return Ok(Db::Postgres(s.to_string()));
        }
        if s.contains("://") {
            return Err(format!(
                "database {s:?}: only postgres:// URLs and SQLite file paths are known"
            ));
        }
        Ok(Db::Sqlite(PathBuf::from(s)))
    }
}

/// The URL without its password.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some((a, h)) => (a, h),
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

impl fmt::Display for Db {
    /// The path, or the URL with its password hidden.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Db::Sqlite(p) => write!(f, "{}", p.display()),
            Db::Postgres(url) => f.write_str(&shown(url)),
        }
    }
}

impl fmt::Debug for Db {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Db({self})")
    }
}

/// One value of a column or a parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(v as i64)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(v.into())
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The parameters of a statement: `args![a, b, …]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => { &[$($crate::sql::Value::from($v)),*] as &[$crate::sql::Value] };
}
pub(crate) use args;

/// One row of a result.
pub(crate) struct Row(Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> Result<&Value> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::Invalid(format!("no column {i} in a result")))
    }

    pub fn opt_int(&self, i: usize) -> Result<Option<i64>> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            Value::Text(t) => Err(StoreError::Invalid(format!(
                "column {i} holds text {t:?} where a number belongs"
            ))),
        }
    }

    pub fn int(&self, i: usize) -> Result<i64> {
        self.opt_int(i)?
            .ok_or_else(|| StoreError::Invalid(format!("column {i} is empty")))
    }

    pub fn opt_text(&self, i: usize) -> Result<Option<String>> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(t) => Ok(Some(t.clone())),
            Value::Int(v) => Err(StoreError::Invalid(format!(
                "column {i} holds the number {v} where text belongs"
            ))),
        }
    }

    pub fn text(&self, i: usize) -> Result<String> {
        self.opt_text(i)?
            .ok_or_else(|| StoreError::Invalid(format!("column {i} is empty")))
    }
}

/// An open connection to either database.
pub(crate) enum Conn {
    Sqlite(rusqlite::Connection),
    /// The client needs `&mut` for every call; the store's readers take `&self`, and a
    /// connection is used by one thread at a time, so a `RefCell` is enough.
    Postgres(Box<RefCell<Pg>>),
}

pub(crate) struct Pg {
    client: postgres::Client,
    /// Prepared statements by their text as written here (before `?N` became `$N`).
    prepared: HashMap<String, Statement>,
}

impl Pg {
    pub fn connect(url: &str) -> Result<Pg> {
        let mut config = postgres::Config::from_str(url)?;
        if config.get_application_name().is_none() {
            config.application_name("boyi");
        }
        Ok(Pg {
            client: config.connect(postgres::NoTls)?,
            prepared: HashMap::new(),
        })
    }

    /// The client itself, for what only PostgreSQL does (`LISTEN`, `NOTIFY`).
    pub fn into_client(self) -> postgres::Client {
        self.client
    }

    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(&dollar_params(sql))?;
        self.prepared.insert(sql.to_string(), s.clone());
        Ok(s)
    }
}

/// `?N` parameters as PostgreSQL's `$N` (outside quoted text).
fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c == '?' && !quoted && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(*v),
            Value::Text(t) => ValueRef::Text(t.as_bytes()),
        }))
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Text(t) => t.as_str().to_sql(ty, out),
            Value::Int(v) => match *ty {
                Type::INT8 => v.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                _ => Err(format!("the number {v} given for a {ty} parameter").into()),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn sqlite_row(r: &rusqlite::Row<'_>, n: usize) -> rusqlite::Result<Row> {
    use rusqlite::types::ValueRef;
    (0..n)
        .map(|i| {
            Ok(match r.get_ref(i)? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(v) => Value::Int(v),
                ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                ValueRef::Real(v) => Value::Int(v as i64),
                ValueRef::Blob(b) => Value::Text(String::from_utf8_lossy(b).into_owned()),
            })
        })
        .collect::<rusqlite::Result<_>>()
        .map(Row)
}

fn postgres_row(r: &postgres::Row) -> Result<Row> {
    let mut out = Vec::with_capacity(r.len());
    for (i, col) in r.columns().iter().enumerate() {
        let v = match *col.type_() {
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.into(),
            Type::INT4 => r.try_get::<_, Option<i32>>(i)?.map(i64::from).into(),
            Type::INT2 => r.try_get::<_, Option<i16>>(i)?.map(i64::from).into(),
            Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(i64::from).into(),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
                r.try_get::<_, Option<String>>(i)?.into()
            }
            ref t => {
                return Err(StoreError::Invalid(format!(
                    "column {} of type {t} is not one the store reads",
                    col.name()
                )));
            }
        };
        out.push(v);
    }
    Ok(Row(out))
}

fn pg_args(args: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl Conn {
    /// Runs a statement; the number of rows it changed.
    pub fn exec(&self, sql: &str, args: &[Value]) -> Result<u64> {
        match self {
            Conn::Sqlite(c) => {
                Ok(c.prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(args))? as u64)
            }
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                let s = pg.statement(sql)?;
                Ok(pg.client.execute(&s, &pg_args(args))?)
            }
        }
    }

    /// The rows of a query.
    pub fn rows(&self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let n = stmt.column_count();
                let rows = stmt
                    .query_map(rusqlite::params_from_iter(args), |r| sqlite_row(r, n))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                Ok(rows)
            }
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                let s = pg.statement(sql)?;
                pg.client
                    .query(&s, &pg_args(args))?
                    .iter()
                    .map(postgres_row)
                    .collect()
            }
        }
    }

    /// The first row of a query, if any.
    pub fn row(&self, sql: &str, args: &[Value]) -> Result<Option<Row>> {
        Ok(self.rows(sql, args)?.into_iter().next())
    }

    /// The integer in the first column of a query's first row, if it has a row.
    pub fn int(&self, sql: &str, args: &[Value]) -> Result<Option<i64>> {
        self.row(sql, args)?.map(|r| r.int(0)).transpose()
    }

    /// Runs statements without parameters (a migration's SQL).
    pub fn batch(&self, sql: &str) -> Result<()> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres(pg) => Ok(pg.borrow_mut().client.batch_execute(sql)?),
        }
    }

    /// Runs `f` in a transaction: committed if it succeeds, rolled back if it fails.
    pub fn transaction<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        self.batch("BEGIN")?;
        let out = f(self).and_then(|v| self.batch("COMMIT").map(|()| v));
        if out.is_err() {
            // A failed COMMIT has already ended the transaction; the rollback is then a no-op.
            let _ = self.batch("ROLLBACK");
        }
        out
    }

    /// Runs `f` inside the open transaction so that, if it fails, it changes nothing and the
    /// transaction goes on.
    pub fn savepoint<T>(&self, f: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        self.batch("SAVEPOINT one_write")?;
        match f(self) {
            Ok(v) => {
                self.batch("RELEASE SAVEPOINT one_write")?;
                Ok(v)
            }
            Err(e) => {
                self.batch("ROLLBACK TO SAVEPOINT one_write; RELEASE SAVEPOINT one_write")?;
                Err(e)
            }
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Conn::Postgres(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_outside_quotes() {
        assert_eq!(
            dollar_params("SELECT '?1', x FROM t WHERE a = ?1 AND b = ?12 AND c = '?'"),
            "SELECT '?1', x FROM t WHERE a = $1 AND b = $12 AND c = '?'"
        );
    }

    #[test]
    fn databases_are_named_by_path_or_url() {
        assert_eq!(
            "games.sqlite".parse::<Db>(),
            Ok(Db::Sqlite("games.sqlite".into()))
        );
        let pg: Db = "postgres://boyi:secret@db.example/boyi".parse().unwrap();
        assert_eq!(pg.to_string(), "postgres://boyi:***@db.example/boyi");
        assert!(matches!(
            "postgresql://boyi@localhost:5433/games".parse::<Db>(),
            Ok(Db::Postgres(_))
        ));
        let bad = "postgres://boyi@localhost:notaport/x"
            .parse::<Db>()
            .unwrap_err();
        assert!(bad.contains("database URL"), "{bad}");
        assert!(
            "mysql://x/y"
                .parse::<Db>()
                .unwrap_err()
                .contains("postgres://")
        );
        assert!("".parse::<Db>().is_err());
    }
}
