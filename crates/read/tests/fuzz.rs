//! A mutation fuzzer over the four readers, run for a bounded number of cases.
//!
//! Each case takes a seed file of `tests/data/fuzz` (plain text, JSON Lines,
//! HTML, WARC), mutates it a few times (bit flips, interesting bytes and
//! tokens, deletions, duplications, splices from the other seeds, truncation)
//! and reads it as a file of that format and as bytes handed to the in-memory
//! readers. Every case must end without a panic, every item must be an
//! article or an error that names the file, and what the reader says about
//! offsets must hold: a plain text article is the file's bytes (so an offset
//! into the text is one into the file, after a byte order mark), a JSON
//! Lines article's text is its line's `text`, and every NUL a warning lists
//! is a NUL at that byte of the text.
//!
//! The generator is seeded, so a failure names its case and repeats.
//! `ATTEST_FUZZ_CASES` sets the number of cases (2,000 by default, a few
//! seconds) and `ATTEST_FUZZ_SEED` the seed, for longer runs by hand.

use std::fs;
use std::path::Path;

use attest_doc::{Budget, Limits};
use attest_read::{
    Input, ReadConfig, ReadError, ReadItem, Record, read_html_str, read_inputs, read_json_record,
    read_text_bytes,
};

/// The seeds, each with the extension that selects its reader.
const SEEDS: [(&str, &str); 4] = [
    ("story.txt", "txt"),
    ("feed.jsonl", "jsonl"),
    ("page.html", "html"),
    ("crawl.warc", "warc"),
];

/// Byte strings that readers treat specially, spliced in by the mutator.
const TOKENS: &[&[u8]] = &[
    b"\0",
    b"\0\0\0\0\0\0\0\0\0\0",
    b"\r\n",
    b"\n\n",
    b"\xEF\xBB\xBF",
    b"\xe2\x80\xae",
    b"\x1b[2J",
    b"\xff\xfe",
    b"\xc3",
    b"\"",
    b"\\u0000",
    b"\\ud800",
    b"{\"id\":\"\",\"text\":\"x\"}\n",
    b"{\"id\":\" \",\"text\":\"y\"}\n",
    b"<p>",
    b"</p>",
    b"<script>",
    b"<!--",
    b"<meta charset=\"shift_jis\">",
    b"&#0;",
    b"WARC/1.1\r\n",
    b"Content-Length: 99999999999\r\n",
    b"Content-Length: -1\r\n",
    b"Transfer-Encoding: chunked\r\n",
    b"Content-Encoding: gzip\r\n",
    b"\r\n\r\n",
    b"\x1f\x8b\x08\0",
];

/// xorshift64*: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One to four mutations of `input`.
fn mutate(rng: &mut Rng, mut input: Vec<u8>, others: &[Vec<u8>]) -> Vec<u8> {
    for _ in 0..=rng.below(4) {
        let at = rng.below(input.len() + 1);
        match rng.below(8) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] = [0, 0x7f, 0x80, 0xff, b'"', b'<', b'\n', b'{'][rng.below(8)];
            }
            2 | 3 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            4 => {
                let end = (at + rng.below(64)).min(input.len());
                input.drain(at..end);
            }
            5 => {
                let end = (at + rng.below(256)).min(input.len());
                let copy = input[at..end].to_vec();
                input.splice(at..at, copy.into_iter().cycle().take(rng.below(2048)));
            }
            6 => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len());
                let end = (from + rng.below(200)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            _ => input.truncate(at),
        }
    }
    input
}

/// Limits small enough for mutations to reach them.
fn limits() -> Limits {
    Limits {
        article_bytes: 2_000,
        sentence_tokens: 50,
        html_depth: 16,
        jsonl_line_bytes: 1_000,
        warc_record_bytes: 4_000,
        ..Limits::DEFAULT
    }
}

/// Checks one item read from `path`, itself holding `bytes` in `format`.
fn check_item(item: &Result<ReadItem, ReadError>, path: &Path, bytes: &[u8], format: &str) {
    let shown = path.display().to_string();
    let item = match item {
        Err(err) => {
            let message = err.to_string();
            assert!(
                message.starts_with(&shown),
                "error without its file: {message}"
            );
            return;
        }
        Ok(item) => item,
    };
    let text = &item.article.text;
    assert!(!text.trim().is_empty(), "an empty article was read");
    assert!(
        text.len() <= limits().article_bytes,
        "article over the limit"
    );
    assert!(!item.article.id.trim().is_empty(), "a blank id was read");
    assert_eq!(item.origin.path.as_deref(), Some(path), "origin");
    check_nul_offsets(item);
    match format {
        "txt" => {
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            assert_eq!(*text, String::from_utf8_lossy(body), "text is the file");
        }
        "jsonl" => {
            let Some(Record::Line(line)) = item.origin.record else {
                panic!("a JSON Lines item without its line");
            };
            let raw = bytes.split(|&b| b == b'\n').nth(line as usize - 1);
            let raw = raw.map(String::from_utf8_lossy).unwrap_or_default();
            let raw = raw.trim_start_matches('\u{feff}');
            let value: serde_json::Value =
                serde_json::from_str(raw.trim_end_matches('\r')).expect("the line is JSON");
            assert_eq!(
                value["text"].as_str(),
                Some(text.as_str()),
                "text is the line's"
            );
        }
        _ => {}
    }
}

/// Every NUL offset a warning lists is a NUL of the text.
fn check_nul_offsets(item: &ReadItem) {
    for warning in &item.warnings {
        let Some((_, offsets)) = warning.message.split_once("in the text, kept, at byte ") else {
            continue;
        };
        let offsets = offsets.split(" and ").next().unwrap_or_default();
        for offset in offsets.split(", ") {
            let offset: usize = offset.parse().expect("an offset");
            assert_eq!(
                item.article.text.as_bytes().get(offset),
                Some(&0),
                "{warning:?}"
            );
        }
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

#[test]
fn mutated_inputs_never_panic_and_read_consistently() {
    let cases = env_number("ATTEST_FUZZ_CASES", 2_000);
    let mut rng = Rng(env_number("ATTEST_FUZZ_SEED", 0x00a7_7e57).max(1));
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let seeds: Vec<Vec<u8>> = SEEDS
        .iter()
        .map(|(name, _)| fs::read(data.join(name)).expect("seed"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let config = ReadConfig { limits: limits() };
    for case in 0..cases {
        let which = (case % SEEDS.len() as u64) as usize;
        let extension = SEEDS[which].1;
        let bytes = mutate(&mut rng, seeds[which].clone(), &seeds);
        let path = dir.path().join(format!("case-{case}.{extension}"));
        fs::write(&path, &bytes).unwrap();
        let outcome = std::panic::catch_unwind(|| {
            for item in read_inputs(vec![Input::Path(path.clone())], config) {
                check_item(&item, &path, &bytes, extension);
            }
            let _ = read_text_bytes(bytes.clone(), "bytes", &config, Budget::unlimited());
            let _ = read_json_record(bytes.clone(), "record", &config, Budget::unlimited());
            let _ = read_html_str(
                &String::from_utf8_lossy(&bytes),
                "page",
                &config,
                Budget::unlimited(),
            );
        });
        if outcome.is_err() {
            panic!(
                "case {case} ({extension}) failed on these bytes: {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
        fs::remove_file(&path).unwrap();
    }
}
