//! The parts of the docs that are written from the code, for the tests that
//! hold them to it (`#[path]`-included by each): what the code lists, such as
//! the layers and their tables, is then listed in the docs with no edit by hand.
//!
//! A part stands between a line that ends with [`BEGIN`] and one that starts
//! with [`END`]; `ATTEST_REGENERATE=1` and the test that checks it write it
//! again.

use std::path::Path;

/// How the line before a generated part ends.
pub const BEGIN: &str = " not by hand. -->\n";
/// How the line after a generated part starts.
pub const END: &str = "<!-- End of the generated part.";

/// Checks that the generated part of the doc at `path` (from the repository's
/// root) is `part`, and writes it so first when `ATTEST_REGENERATE` is set.
pub fn check(path: &str, part: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let doc = std::fs::read_to_string(&path).unwrap();
    let (head, rest) = doc
        .split_once(BEGIN)
        .expect("the generated part's first marker");
    let end = rest.find(END).expect("the generated part's last marker");
    let generated = format!("{head}{BEGIN}{part}{}", &rest[end..]);
    if std::env::var_os("ATTEST_REGENERATE").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    assert!(
        doc == generated,
        "{} is out of date: write it again with `ATTEST_REGENERATE=1 cargo nextest run \
         --workspace generated`",
        path.display()
    );
}
