//! The work budget of one article: a time limit and a cancellation flag that
//! the pipeline checks between stages and long stages check inside their loops.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::Limits;

/// How much work one article may take, and a flag another thread may raise to
/// stop it.
///
/// Time is counted only while a stage runs on the article ([`Budget::resume`]
/// to [`Budget::pause`]), so that an article waiting in a batch for the others
/// spends none of its budget. A stage that finds the budget exhausted stops
/// without assigning its layers, and the pipeline marks the article with a
/// diagnostic naming the stage, the limit and the layers left out: an article
/// is never silently cut.
///
/// ```
/// use attest_doc::{Budget, Exhausted, Limits};
///
/// let mut budget = Budget::new(&Limits::DEFAULT);
/// let canceller = budget.canceller();
/// budget.resume();
/// assert_eq!(budget.check(), Ok(()));
/// canceller.cancel();
/// assert_eq!(budget.check(), Err(Exhausted::Cancelled));
/// ```
#[derive(Clone, Debug)]
pub struct Budget {
    /// The time allowed; `None` for no limit.
    limit: Option<Duration>,
    /// Time spent in stages that have finished.
    spent: Duration,
    /// When the running stage started, if one runs.
    since: Option<Instant>,
    cancelled: Arc<AtomicBool>,
}

/// Why a budget stopped the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Exhausted {
    /// The article took longer than [`Limits::article_seconds`].
    #[error("the article's time budget of {seconds} s (--max-article-seconds) ran out")]
    Time {
        /// The limit, in seconds.
        seconds: u64,
    },
    /// Its [`Canceller`] was used: whoever asked no longer waits.
    #[error("the analysis was cancelled")]
    Cancelled,
}

/// Stops the analysis of the article whose [`Budget`] gave it, from any thread.
#[derive(Clone)]
pub struct Canceller(Arc<AtomicBool>);

impl fmt::Debug for Canceller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Canceller")
            .field(&self.0.load(Ordering::Relaxed))
            .finish()
    }
}

impl Canceller {
    /// Asks the analysis to stop: the running stage stops at its next check
    /// and no later stage starts.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Budget {
    /// The budget [`Limits::article_seconds`] gives one article.
    pub fn new(limits: &Limits) -> Budget {
        Budget {
            limit: (limits.article_seconds > 0)
                .then(|| Duration::from_secs(limits.article_seconds)),
            spent: Duration::ZERO,
            since: None,
            cancelled: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A budget without a time limit, which only its [`Canceller`] stops.
    pub fn unlimited() -> Budget {
        Budget::new(&Limits {
            article_seconds: 0,
            ..Limits::DEFAULT
        })
    }

    /// A handle that stops this budget's analysis from another thread.
    pub fn canceller(&self) -> Canceller {
        Canceller(Arc::clone(&self.cancelled))
    }

    /// Starts counting time: a stage starts on the article.
    pub fn resume(&mut self) {
        self.since = Some(Instant::now());
    }

    /// Stops counting time: the stage has finished.
    pub fn pause(&mut self) {
        if let Some(since) = self.since.take() {
            self.spent += since.elapsed();
        }
    }

    /// Whether the work may go on: cheap enough (an atomic load and a clock
    /// read) to call once per sentence or per cue.
    pub fn check(&self) -> Result<(), Exhausted> {
        if self.cancelled.load(Ordering::Relaxed) {
            return Err(Exhausted::Cancelled);
        }
        if let Some(limit) = self.limit {
            let running = self.since.map_or(Duration::ZERO, |since| since.elapsed());
            if self.spent + running > limit {
                return Err(Exhausted::Time {
                    seconds: limit.as_secs(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_is_exhausted_and_an_unlimited_one_never() {
        let mut budget = Budget::new(&Limits {
            article_seconds: 1,
            ..Limits::DEFAULT
        });
        budget.spent = Duration::from_secs(2);
        assert_eq!(budget.check(), Err(Exhausted::Time { seconds: 1 }));
        let mut unlimited = Budget::unlimited();
        unlimited.spent = Duration::from_secs(1_000_000);
        assert_eq!(unlimited.check(), Ok(()));
        unlimited.canceller().cancel();
        assert_eq!(unlimited.check(), Err(Exhausted::Cancelled));
    }
}
