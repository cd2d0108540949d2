//! Where a ledger is: a SQLite file, or a PostgreSQL database named by URL.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

/// A ledger's place: `postgres://…` or `postgresql://…` is a PostgreSQL
/// database, anything else the path of a SQLite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (or `key=value` string), as libpq reads it.
    Postgres(String),
}

impl Location {
    /// Reads a `--db` argument.
    pub fn parse(text: &OsStr) -> Location {
        match text.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Location::Postgres(url.to_string())
            }
            _ => Location::Sqlite(PathBuf::from(text)),
        }
    }

    /// The file, for a SQLite ledger.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    /// How errors name it: the path, or the URL without its password.
    pub(crate) fn named(&self) -> PathBuf {
        PathBuf::from(self.to_string())
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => path.display().fmt(f),
            Location::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

/// `url` with the password of its user part and any `password=` parameter
/// replaced by `***`: URLs end up in messages and logs.
fn without_password(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some(("password", _)) => "password=***".to_string(),
                    _ => pair.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Location {
        Location::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Location {
        Location::Sqlite(path.clone())
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::Sqlite(path)
    }
}

impl From<&Location> for Location {
    fn from(location: &Location) -> Location {
        location.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_postgres_and_the_rest_are_files() {
        assert_eq!(
            Location::parse(OsStr::new("postgresql://u@h/db")),
            Location::Postgres("postgresql://u@h/db".into())
        );
        assert_eq!(
            Location::parse(OsStr::new("postgres.db")),
            Location::Sqlite("postgres.db".into())
        );
    }

    #[test]
    fn passwords_are_never_shown() {
        let shown = |url: &str| Location::Postgres(url.into()).to_string();
        assert_eq!(
            shown("postgres://ann:s3cret@db.example:5433/news?sslmode=disable"),
            "postgres://ann:***@db.example:5433/news?sslmode=disable"
        );
        assert_eq!(
            shown("postgres://ann@/news?host=/run/pg&password=s3cret"),
            "postgres://ann@/news?host=/run/pg&password=***"
        );
        assert_eq!(shown("postgres://h/db"), "postgres://h/db");
    }
}
