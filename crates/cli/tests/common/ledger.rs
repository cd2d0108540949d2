//! What the ledger tests share, SQLite's (`ledger.rs`) and PostgreSQL's
//! (`postgres.rs`): attest run to succeed, a directory of one test's own, and
//! a whole ledger dumped to compare two.

use std::path::{Path, PathBuf};

use crate::common::{attest, stderr, stdout};

/// Runs attest, expects it to succeed, and returns its standard output.
pub fn succeeds(args: &[&str]) -> String {
    let output = attest(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "attest {args:?}\nstderr: {}",
        stderr(&output)
    );
    stdout(&output)
}

/// A fresh directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attest-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary directory is made");
    dir
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Every table of the ledger `db` (a path or a PostgreSQL address) exported
/// as JSON Lines into `dir`, for comparing two ledgers.
pub fn dump(dir: &Path, db: &str) -> String {
    exported(dir, db, &attest_ledger::TABLES)
}

/// Each of `tables` (tables or read-only queries) of the ledger `db`
/// exported as JSON Lines into `dir`, one after the other.
pub fn exported(dir: &Path, db: &str, tables: &[&str]) -> String {
    let mut all = String::new();
    for (index, table) in tables.iter().enumerate() {
        let out = dir.join(format!("export-{index}.jsonl"));
        succeeds(&[
            "export",
            table,
            "--format",
            "jsonl",
            "--out",
            path_str(&out),
            "--force",
            "--db",
            db,
        ]);
        all.push_str(&std::fs::read_to_string(&out).expect("the export is written"));
    }
    all
}
