//! Where tests find PolNeAR: `../shared/data/polnear` beside the repository.
//!
//! The corpus is not ours to ship, so a test that reads it is marked
//! `#[ignore = "needs ../shared/data/polnear"]` and asks for its directory here.
//! A plain `cargo test` reports such a test as ignored; `.ci/run` passes
//! `--include-ignored` where the corpus exists. Asked for while the corpus is
//! absent, [`polnear`] panics, so a test that could not look never counts as
//! passed.

use std::path::{Path, PathBuf};

/// The PolNeAR root (holding `train/`, `dev/` and `metadata.tsv`).
///
/// # Panics
///
/// When the directory is absent: the test was run with `--include-ignored` on
/// a machine without the corpus.
pub fn polnear() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/polnear");
    assert!(
        dir.is_dir(),
        "this test needs the PolNeAR corpus at {}; without it, run the tests without --include-ignored",
        dir.display()
    );
    dir
}

/// The PolNeAR split `name` ("train" or "dev"), under [`polnear`].
///
/// # Panics
///
/// As [`polnear`], or when the split is absent.
pub fn polnear_split(name: &str) -> PathBuf {
    let dir = polnear().join(name);
    assert!(
        dir.is_dir(),
        "this test needs the PolNeAR {name} split at {}",
        dir.display()
    );
    dir
}
