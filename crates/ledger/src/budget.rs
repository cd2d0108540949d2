//! What one question to the ledger may cost: a time limit (the statement
//! timeout), a flag another thread raises to cancel it, and, for exports, the
//! most rows it may give.
//!
//! SQLite calls a progress handler every [`CHECK_EVERY`] steps of its virtual
//! machine, in the middle of a statement as well as between rows; the handler
//! stops the statement once the deadline has passed or the flag is raised, so a
//! query that would scan for minutes ends within a few milliseconds of its
//! limit and frees its thread. One mechanism serves `attest serve`, whose ledger
//! routes each get a budget, and `attest export --time-limit --max-rows`.
//!
//! On PostgreSQL the time limit is the session's `statement_timeout`, which the
//! server applies to each statement from its start; the flag is looked at
//! between the rows of an export, since a statement on the server cannot see it.

use std::time::{Duration, Instant};

use attest_doc::Canceller;
use rusqlite::{Connection, ErrorCode};

use crate::LedgerError;

/// Steps of SQLite's virtual machine between two checks of the budget: a few
/// microseconds of work, so a check (one clock read) costs nothing measurable
/// and a stop comes well within a millisecond.
const CHECK_EVERY: std::ffi::c_int = 1_000;

/// The limits of one question, set with [`crate::Ledger::set_budget`].
/// The default has none.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// How long each question may run, counted from when the budget is set;
    /// a statement still running then is stopped with
    /// [`LedgerError::OverTime`].
    pub time: Option<Duration>,
    /// The most rows [`crate::Ledger::export`] may give; a query with more
    /// fails with [`LedgerError::TooManyRows`] rather than being cut short.
    pub rows: Option<usize>,
    /// A flag that stops the question at once when raised from another
    /// thread ([`LedgerError::Cancelled`]).
    pub cancel: Option<Canceller>,
}

impl Budget {
    /// Installs the budget's progress handler on `conn`, with the clock
    /// starting now; a budget without time limit or flag removes it.
    pub(crate) fn install(&self, conn: &mut Connection) -> rusqlite::Result<()> {
        let deadline = self.time.and_then(|time| Instant::now().checked_add(time));
        let cancel = self.cancel.clone();
        if deadline.is_none() && cancel.is_none() {
            return conn.progress_handler(0, None::<fn() -> bool>);
        }
        conn.progress_handler(
            CHECK_EVERY,
            Some(move || {
                cancel.as_ref().is_some_and(Canceller::is_cancelled)
                    || deadline.is_some_and(|deadline| Instant::now() >= deadline)
            }),
        )
    }

    /// Sets the time limit as PostgreSQL's `statement_timeout` (0: none).
    pub(crate) fn install_pg(&self, conn: &crate::db::Conn<'_>) -> crate::db::DbResult<()> {
        let millis = self.time.map_or(0, |time| time.as_millis().max(1));
        conn.batch(&format!("SET statement_timeout = {millis}"))
    }

    /// The error of a PostgreSQL statement stopped at the time limit, or
    /// `None` when `error` is something else.
    pub(crate) fn stopped_pg(&self, error: &postgres::Error) -> Option<LedgerError> {
        if error.code() != Some(&postgres::error::SqlState::QUERY_CANCELED) {
            return None;
        }
        if self.cancel.as_ref().is_some_and(Canceller::is_cancelled) {
            return Some(LedgerError::Cancelled);
        }
        Some(LedgerError::OverTime {
            limit: self.time.unwrap_or_default(),
        })
    }

    /// Whether the flag has been raised.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Canceller::is_cancelled)
    }

    /// The error of a statement the progress handler stopped, or `None` when
    /// `error` is something else.
    pub(crate) fn stopped(&self, error: &rusqlite::Error) -> Option<LedgerError> {
        if error.sqlite_error_code() != Some(ErrorCode::OperationInterrupted) {
            return None;
        }
        if self.cancel.as_ref().is_some_and(Canceller::is_cancelled) {
            return Some(LedgerError::Cancelled);
        }
        Some(LedgerError::OverTime {
            limit: self.time.unwrap_or_default(),
        })
    }

    /// Checks that one more row, the `count`-th (from 1), is within the limit.
    pub(crate) fn allow_row(&self, count: usize) -> Result<(), LedgerError> {
        match self.rows {
            Some(limit) if count > limit => Err(LedgerError::TooManyRows { limit }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A query with no end: counts up for ever.
    const ENDLESS: &str =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n";

    fn run_endless(conn: &Connection, budget: &Budget) -> LedgerError {
        let error = conn
            .query_row(ENDLESS, [], |row| row.get::<_, i64>(0))
            .expect_err("the endless query is stopped");
        budget.stopped(&error).expect("stopped by the budget")
    }

    #[test]
    fn a_deadline_stops_an_endless_statement() {
        let mut conn = Connection::open_in_memory().unwrap();
        let budget = Budget {
            time: Some(Duration::from_millis(50)),
            ..Budget::default()
        };
        budget.install(&mut conn).unwrap();
        assert!(matches!(
            run_endless(&conn, &budget),
            LedgerError::OverTime { limit } if limit == Duration::from_millis(50)
        ));
    }

    #[test]
    fn a_raised_flag_stops_a_statement_from_another_thread() {
        let mut conn = Connection::open_in_memory().unwrap();
        let cancel = Canceller::new();
        let budget = Budget {
            cancel: Some(cancel.clone()),
            ..Budget::default()
        };
        budget.install(&mut conn).unwrap();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            cancel.cancel();
        });
        assert!(matches!(
            run_endless(&conn, &budget),
            LedgerError::Cancelled
        ));
        raiser.join().unwrap();
    }

    #[test]
    fn no_budget_removes_the_handler_and_other_errors_are_not_stops() {
        let mut conn = Connection::open_in_memory().unwrap();
        let budget = Budget::default();
        budget.install(&mut conn).unwrap();
        let count: i64 = conn
            .query_row(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) \
                 SELECT count(*) FROM n",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(count, 100_000);
        let error = conn.execute("SELECT * FROM missing", []).unwrap_err();
        assert!(budget.stopped(&error).is_none());
    }

    #[test]
    fn rows_past_the_limit_are_refused() {
        let budget = Budget {
            rows: Some(2),
            ..Budget::default()
        };
        assert!(budget.allow_row(2).is_ok());
        assert!(matches!(
            budget.allow_row(3),
            Err(LedgerError::TooManyRows { limit: 2 })
        ));
        assert!(Budget::default().allow_row(usize::MAX).is_ok());
    }
}
