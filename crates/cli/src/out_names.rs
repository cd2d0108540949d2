//! The names of the files `analyze --out DIR` writes, as brat and every tool
//! that pairs `NAME.txt` with `NAME.ann` expects them.
//!
//! A file that is one article keeps its stem and its place below the input
//! named on the command line: `attest analyze corpus --out OUT` writes
//! `corpus/a/story.html` to `OUT/a/story.txt` and `OUT/a/story.ann` (or
//! `OUT/a/story.json`); a file named directly keeps only its name. The
//! records of a JSON Lines or WARC file go into a folder named after the
//! file's stem (`news.jsonl` → `OUT/news/`, `crawl.warc.gz` → `OUT/crawl/`),
//! each named by its id made safe ([`safe_name`]), or, when the input gave no
//! id, by its place: `line-7`, `record-3`. Standard input is `stdin`.
//!
//! Two articles of one run that would get the same name (compared without
//! case, as macOS and Windows file systems compare) are reported and the
//! second is not written; a file already on disk is replaced only with
//! `--force` ([`crate::safe_write`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use attest_read::{Origin, Record};

/// The longest name [`safe_name`] makes from an id, in bytes.
const MAX_NAME: usize = 100;

/// An id as a file name: ASCII letters, digits, `-`, `_` and `.` are kept and
/// every other character becomes `_`; at most 100 characters; a leading `.`
/// becomes `_` (no hidden files, no `..`); a name Windows reserves for a
/// device (`con`, `nul`, `com1`, ...) gets a leading `_`; an id with nothing
/// left is `article`.
pub(crate) fn safe_name(id: &str) -> String {
    let mut name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if name.starts_with('.') {
        name.replace_range(..1, "_");
    }
    if name.is_empty() {
        return "article".to_string();
    }
    let device = name
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let reserved = matches!(device.as_str(), "con" | "prn" | "aux" | "nul")
        || (device.len() == 4
            && (device.starts_with("com") || device.starts_with("lpt"))
            && device.ends_with(|c: char| c.is_ascii_digit()));
    if reserved {
        name.insert(0, '_');
    }
    name
}

/// A file name without its format's extension: `story.txt` → `story`,
/// `crawl.warc.gz` → `crawl`.
fn stem(name: &Path) -> PathBuf {
    let name = name.to_string_lossy();
    let lower = name.to_ascii_lowercase();
    let cut = if lower.ends_with(".warc.gz") {
        name.len() - ".warc.gz".len()
    } else {
        name.rfind('.').filter(|&at| at > 0).unwrap_or(name.len())
    };
    PathBuf::from(&name[..cut])
}

/// The path below the output directory, without extension, of an article
/// read at `origin` with `id` (given by the input or not).
pub(crate) fn relative_stem(origin: &Origin, id: &str, id_given: bool) -> PathBuf {
    let file = origin
        .relative
        .clone()
        .unwrap_or_else(|| PathBuf::from("stdin"));
    let parent = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let file_stem = stem(Path::new(file.file_name().unwrap_or(file.as_os_str())));
    match origin.record {
        None => parent.join(file_stem),
        Some(record) => {
            let name = match (id_given, record) {
                (true, _) => safe_name(id),
                (false, Record::Line(line)) => format!("line-{line}"),
                (false, Record::Warc(record)) => format!("record-{record}"),
            };
            parent.join(file_stem).join(name)
        }
    }
}

/// The names given out in one run, so that none is given twice.
#[derive(Debug, Default)]
pub(crate) struct OutNames {
    /// Each name given, lowercased, with the place of the article it went to.
    taken: BTreeMap<String, String>,
}

impl OutNames {
    /// Takes the name `stem` for the article read at `place`; when an earlier
    /// article of the run has it, returns that article's place instead.
    pub(crate) fn take(&mut self, stem: &Path, place: &str) -> Result<(), String> {
        let key = stem.to_string_lossy().to_lowercase();
        if let Some(first) = self.taken.get(&key) {
            return Err(first.clone());
        }
        self.taken.insert(key, place.to_string());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(relative: &str, record: Option<Record>) -> Origin {
        Origin {
            path: Some(PathBuf::from("corpus").join(relative)),
            relative: Some(PathBuf::from(relative)),
            record,
        }
    }

    #[test]
    fn files_keep_their_stem_and_place_records_go_in_a_folder() {
        let name = |o: &Origin, id: &str, given: bool| relative_stem(o, id, given);
        assert_eq!(
            name(&origin("a/story.txt", None), "corpus/a/story.txt", false),
            Path::new("a/story")
        );
        assert_eq!(
            name(&origin("page.html", None), "page.html", false),
            Path::new("page")
        );
        let jsonl = origin("feeds/news.jsonl", Some(Record::Line(7)));
        assert_eq!(
            name(&jsonl, "wire/2026 ?ok", true),
            Path::new("feeds/news/wire_2026__ok")
        );
        assert_eq!(
            name(&jsonl, "feeds/news.jsonl:7", false),
            Path::new("feeds/news/line-7")
        );
        let warc = origin("crawl.warc.gz", Some(Record::Warc(3)));
        assert_eq!(name(&warc, "x#3", false), Path::new("crawl/record-3"));
        assert_eq!(name(&Origin::default(), "-", false), Path::new("stdin"));
    }

    #[test]
    fn ids_are_made_safe() {
        assert_eq!(safe_name("../../etc/passwd"), "_._.._etc_passwd");
        assert_eq!(safe_name(".hidden"), "_hidden");
        assert_eq!(safe_name("CON.txt"), "_CON.txt");
        assert_eq!(safe_name("com7"), "_com7");
        assert_eq!(safe_name(""), "article");
        assert_eq!(safe_name("é"), "_");
        assert_eq!(safe_name(&"x".repeat(300)).len(), MAX_NAME);
    }

    #[test]
    fn a_name_is_given_once_whatever_its_case() {
        let mut names = OutNames::default();
        assert_eq!(
            names.take(Path::new("a/Story"), "corpus/a/Story.txt"),
            Ok(())
        );
        assert_eq!(
            names.take(Path::new("a/story"), "corpus/a/story.html"),
            Err("corpus/a/Story.txt".to_string())
        );
    }
}
