//! Models built into attest, read once and shared.

use std::sync::OnceLock;

use crate::ModelError;

/// What a stage builds from the models built into attest, read on first use
/// and shared by every caller after: reading a model takes tens of
/// milliseconds, too long to pay per document or per request.
///
/// A read that failed fails alike for every caller, since the bytes it read
/// are part of the build and cannot get better.
///
/// ```
/// use attest_learn::{Bundled, ModelError};
///
/// fn read() -> Result<usize, ModelError> {
///     Ok(42)
/// }
/// static SHARED: Bundled<usize> = Bundled::new(read);
/// assert_eq!(SHARED.get(), Ok(&42));
/// # Ok::<(), ModelError>(())
/// ```
pub struct Bundled<T> {
    read: fn() -> Result<T, ModelError>,
    value: OnceLock<Result<T, ModelError>>,
}

impl<T> Bundled<T> {
    /// What `read` builds, not read yet.
    pub const fn new(read: fn() -> Result<T, ModelError>) -> Bundled<T> {
        Bundled {
            read,
            value: OnceLock::new(),
        }
    }

    /// The value, read by the first call; every caller shares it.
    pub fn get(&self) -> Result<&T, ModelError> {
        self.value
            .get_or_init(self.read)
            .as_ref()
            .map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static READS: AtomicUsize = AtomicUsize::new(0);

    fn counted() -> Result<String, ModelError> {
        READS.fetch_add(1, Ordering::SeqCst);
        Ok("model".to_owned())
    }

    fn damaged() -> Result<String, ModelError> {
        Err(ModelError::Checksum)
    }

    #[test]
    fn reads_once_and_shares_the_value() {
        let bundled = Bundled::new(counted);
        let first: *const String = bundled.get().unwrap();
        let second: *const String = bundled.get().unwrap();
        assert_eq!(first, second);
        assert_eq!(READS.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_failed_read_fails_for_every_caller() {
        let bundled = Bundled::new(damaged);
        assert_eq!(bundled.get(), Err(ModelError::Checksum));
        assert_eq!(bundled.get(), Err(ModelError::Checksum));
    }
}
