//! No reader panics on any input, and what can round-trip does.

mod common;

use std::fs;
use std::io::Write;

use attest_doc::{Budget, Limits};
use attest_read::{
    Input, ReadConfig, read_html_str, read_inputs, read_json_record, read_text_bytes,
};
use proptest::prelude::*;

/// Reads `bytes` as a file named `name` and returns how many items came out.
fn read_as(name: &str, bytes: &[u8], limits: Limits) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, bytes).unwrap();
    let items = read_inputs(vec![Input::Path(path)], ReadConfig { limits });
    items.count()
}

fn small_limits() -> Limits {
    Limits {
        article_bytes: 300,
        sentence_tokens: 50,
        html_depth: 8,
        jsonl_line_bytes: 200,
        warc_record_bytes: 2_000,
        ..Limits::DEFAULT
    }
}

/// Strings that look enough like markup to reach the parser's odd corners.
fn html_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            "<[a-zA-Z/!?]{0,8}( [a-z]{1,5}(=[\"']?[a-z<>]{0,5}[\"']?)?)?/?>?",
            "[a-zA-Z .,\n]{0,20}",
            "&[a-z#0-9]{0,6};?",
            Just("<script>".to_string()),
            Just("<!--".to_string()),
            Just("<p>".to_string()),
            Just("<li>".to_string()),
            Just("</div>".to_string()),
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

/// A WARC fixture with a few bytes changed and maybe cut short.
fn mutated(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = base.len();
    (
        proptest::collection::vec((0..len, any::<u8>()), 0..8),
        0..=len,
    )
        .prop_map(move |(changes, cut)| {
            let mut bytes = base.clone();
            for (at, byte) in changes {
                if let Some(slot) = bytes.get_mut(at) {
                    *slot = byte;
                }
            }
            bytes.truncate(cut);
            bytes
        })
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn text_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        prop_assert_eq!(read_as("a.txt", &bytes, Limits::DEFAULT), 1);
        prop_assert_eq!(read_as("a.txt", &bytes, small_limits()), 1);
    }

    #[test]
    fn text_round_trips(text in "[^\u{feff}\u{0}][^\u{0}]{0,200}") {
        prop_assume!(!text.trim().is_empty());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, &text).unwrap();
        let mut items = read_inputs(vec![Input::Path(path)], ReadConfig { limits: Limits::DEFAULT });
        let item = items.next().unwrap().unwrap();
        prop_assert_eq!(item.article.text, text);
    }

    #[test]
    fn jsonl_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        let lines = bytes.split(|&b| b == b'\n').count();
        prop_assert!(read_as("a.jsonl", &bytes, Limits::DEFAULT) <= lines);
        prop_assert!(read_as("a.jsonl", &bytes, small_limits()) <= lines);
    }

    #[test]
    fn jsonl_like_lines_never_panic(lines in proptest::collection::vec("[{}\\[\\]\":,a-z0-9 \\\\tnul\r-]{0,60}", 0..20)) {
        let joined = lines.join("\n");
        prop_assert!(read_as("a.jsonl", joined.as_bytes(), small_limits()) <= lines.len().max(1));
    }

    #[test]
    fn jsonl_text_round_trips(text in "\\PC{1,200}", id in proptest::option::of("[a-z0-9-]{1,10}")) {
        prop_assume!(!text.trim().is_empty());
        let mut object = serde_json::json!({ "text": text });
        if let Some(id) = &id {
            object["id"] = serde_json::Value::String(id.clone());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        fs::write(&path, format!("\n{object}\n")).unwrap();
        let items: Vec<_> = read_inputs(vec![Input::Path(path.clone())], ReadConfig { limits: Limits::DEFAULT }).collect();
        prop_assert_eq!(items.len(), 1);
        let item = items.into_iter().next().unwrap().unwrap();
        prop_assert_eq!(&item.article.text, &text);
        let expected_id = id.unwrap_or_else(|| format!("{}:2", path.display()));
        prop_assert_eq!(item.article.id, expected_id);
    }

    #[test]
    fn single_records_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        for limits in [Limits::DEFAULT, small_limits()] {
            let config = ReadConfig { limits };
            let _ = read_json_record(bytes.clone(), "request", &config, Budget::unlimited());
            let _ = read_text_bytes(bytes.clone(), "request", &config, Budget::unlimited());
        }
    }

    #[test]
    fn json_record_text_round_trips(text in "\\PC{1,200}") {
        prop_assume!(!text.trim().is_empty());
        let body = serde_json::json!({ "text": text }).to_string().into_bytes();
        let item = read_json_record(body, "request", &ReadConfig { limits: Limits::DEFAULT }, Budget::unlimited()).unwrap();
        prop_assert_eq!(&item.article.text, &text);
        prop_assert_eq!(item.article.id, "request");
    }

    #[test]
    fn html_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        prop_assert_eq!(read_as("a.html", &bytes, Limits::DEFAULT), 1);
    }

    #[test]
    fn html_like_strings_never_panic(html in html_like()) {
        let config = ReadConfig { limits: Limits::DEFAULT };
        let _ = read_html_str(&html, "p", &config, Budget::unlimited());
        let _ = read_html_str(&html, "p", &ReadConfig { limits: small_limits() }, Budget::unlimited());
    }

    #[test]
    fn warc_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        read_as("a.warc", &bytes, Limits::DEFAULT);
        let mut prefixed = b"WARC/1.1\r\nContent-Length: 40\r\nWARC-Type: response\r\n\r\nHTTP/1.1 200 OK\r\n".to_vec();
        prefixed.extend_from_slice(&bytes);
        read_as("a.warc", &prefixed, small_limits());
    }

    #[test]
    fn mutated_warc_never_panics(bytes in mutated(common::warc_bytes())) {
        read_as("a.warc", &bytes, Limits::DEFAULT);
        read_as("a.warc", &bytes, small_limits());
    }

    #[test]
    fn gzipped_warc_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2_000)) {
        read_as("a.warc.gz", &bytes, Limits::DEFAULT);
        read_as("a.warc.gz", &gzip(&bytes), Limits::DEFAULT);
    }

    #[test]
    fn mutated_gzipped_warc_never_panics(
        bytes in mutated(common::warc_gz_bytes()),
        inner in mutated(common::warc_bytes()),
    ) {
        read_as("a.warc.gz", &bytes, Limits::DEFAULT);
        read_as("a.warc.gz", &gzip(&inner), small_limits());
    }
}
