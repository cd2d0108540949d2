//! What every fuzz target does: read the input as a file of one format and
//! check that each item is an article or an error naming the file.

use std::path::PathBuf;

use attest_doc::Limits;
use attest_read::{Input, ReadConfig, read_inputs};

/// Limits small enough for fuzzed inputs to reach them.
const LIMITS: Limits = Limits {
    article_bytes: 64 * 1024,
    sentence_tokens: 200,
    html_depth: 64,
    jsonl_line_bytes: 16 * 1024,
    warc_record_bytes: 128 * 1024,
};

/// Reads `data` as a file with `extension` and checks every item.
pub fn read_as(data: &[u8], extension: &str) {
    let path = scratch(extension);
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let shown = path.display().to_string();
    let config = ReadConfig { limits: LIMITS };
    for item in read_inputs(vec![Input::Path(path.clone())], config) {
        match item {
            Ok(item) => {
                assert!(!item.article.text.trim().is_empty());
                assert!(item.article.text.len() <= LIMITS.article_bytes);
                assert!(!item.article.id.trim().is_empty());
            }
            Err(err) => assert!(err.to_string().starts_with(&shown)),
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// A file of this process in the temporary directory, one per extension.
fn scratch(extension: &str) -> PathBuf {
    std::env::temp_dir().join(format!("attest-fuzz-{}.{extension}", std::process::id()))
}
