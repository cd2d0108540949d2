//! Readers that turn plain text, JSON Lines, HTML and WARC input into articles.
//!
//! [`read_inputs`] streams the articles of files, directories and standard input,
//! one record at a time: a whole batch is never in memory, only one file of plain
//! text or HTML, one JSON Lines line or one WARC record. Each item is one
//! [`attest_doc::Article`] with its warnings, or one [`ReadError`] naming the file and
//! the line or record; an error never stops the batch. Every size limit of
//! [`attest_doc::Limits`] that concerns input is enforced while reading.
//!
//! How each format fills the article's fields: [`text`] (plain text), [`jsonl`]
//! (JSON Lines), [`html`] (HTML pages), [`warc`] (web archives) and [`input`]
//! (directories and format choice).
//!
//! ```
//! use attest_doc::Limits;
//! use attest_read::{read_html_str, ReadConfig};
//!
//! let config = ReadConfig { limits: Limits::DEFAULT };
//! let page = r#"<html lang="en"><head><meta property="og:title" content="Bridge reopens">
//!   <meta property="article:published_time" content="2026-05-02"></head>
//!   <body><article><p>The old bridge reopened to traffic on Friday after two years of
//!   repairs, the county said, and cyclists were the first to cross it.</p>
//!   <p>Engineers said the new deck should last for fifty years.</p></article></body></html>"#;
//! let item = read_html_str(page, "bridge", &config, attest_doc::Budget::unlimited()).unwrap();
//! assert_eq!(item.article.title.as_deref(), Some("Bridge reopens"));
//! assert_eq!(item.article.language.as_deref(), Some("en"));
//! assert!(item.article.text.contains("repairs, the county said"));
//! assert!(item.article.text.contains("\n\nEngineers said"), "paragraphs stay apart");
//! ```

#![deny(missing_docs)]

mod decode;
mod error;
pub mod html;
pub mod input;
pub mod jsonl;
pub mod text;
pub mod warc;

use std::path::PathBuf;

use attest_doc::{Article, Budget, Diagnostic, Limits};

pub use error::{ReadError, ReadErrorKind};
pub use input::{Articles, InputFormat};

/// One thing to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file (format by extension, or sniffed) or a directory (walked recursively).
    Path(PathBuf),
    /// Standard input, read as plain text.
    Stdin,
}

impl Input {
    /// The input a command-line argument names: `-` is standard input.
    pub fn from_arg(arg: impl Into<PathBuf>) -> Input {
        let path = arg.into();
        if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(path)
        }
    }
}

/// How to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadConfig {
    /// The size limits; the input ones are enforced while reading.
    pub limits: Limits,
}

/// One article read, with what the reader noticed about it.
#[derive(Debug, Clone)]
pub struct ReadItem {
    /// The article.
    pub article: Article,
    /// Problems that did not fail the article (invalid UTF-8 replaced, an unreadable
    /// publication time passed over); each message names the place, and the origin
    /// is `"attest-read"`, ready for [`attest_doc::Doc::push_diagnostic`].
    pub warnings: Vec<Diagnostic>,
    /// Whether the input named the article's id (a JSON Lines `id`); otherwise
    /// the reader made the id up from where the article was read (a path, a
    /// line or record number), which says where it came from but not which
    /// article it is.
    pub id_given: bool,
    /// Where in the inputs the article was read.
    pub origin: Origin,
    /// The article's budget, begun when its reading began: reading HTML spends
    /// from it, and the analysis goes on with what is left
    /// (`Pipeline::analyze_batch` takes it with the article).
    pub budget: Budget,
}

/// Where an article was read, for naming what is written about it and for
/// messages; the id says which article it is, this says where it sits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The file as errors name it: as given on the command line, or as the
    /// directory walk found it. `None` for standard input and for bytes handed
    /// to a reader directly.
    pub path: Option<PathBuf>,
    /// The same file relative to the input named on the command line: its own
    /// name for a file named there, its path below the directory for a file
    /// found by walking one.
    pub relative: Option<PathBuf>,
    /// The record's place inside a file of many articles (JSON Lines, WARC);
    /// `None` for a file that is one article.
    pub record: Option<Record>,
}

impl Origin {
    /// The place in the style of errors: `data.jsonl:7`, `crawl.warc: record 3`,
    /// `story.txt`; `-` for standard input.
    pub fn place(&self) -> String {
        let path = self
            .path
            .as_ref()
            .map_or_else(|| "-".to_string(), |path| path.display().to_string());
        match self.record {
            None => path,
            Some(Record::Line(line)) => format!("{path}:{line}"),
            Some(Record::Warc(record)) => format!("{path}: record {record}"),
        }
    }
}

/// A record's place inside a file of many articles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// The 1-based line of a JSON Lines file.
    Line(u64),
    /// The 1-based record of a WARC file.
    Warc(u64),
}

/// What a JSON Lines record with an empty or whitespace-only `id` becomes.
///
/// A blank id is almost always a bug of the exporting tool, and taken as it
/// is it would make every such record one article; so by default it fails
/// its record, naming the file and line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BlankIds {
    /// The record fails with [`ReadErrorKind::BlankId`].
    #[default]
    Error,
    /// The record is read as one without an `id`: its id is `"{path}:{line}"`
    /// and [`ReadItem::id_given`] is false, so the ledger knows it by its
    /// content hash.
    Hash,
}

/// Streams every article of every input, in input order; each item is one article
/// or one error, and an error never ends the stream.
///
/// The iterator is `Send`, so it can feed a thread pool.
pub fn read_inputs(inputs: Vec<Input>, config: ReadConfig) -> Articles {
    Articles::new(inputs, config)
}

/// Reads one article given as a JSON object with the fields of a JSON Lines
/// record (see [`jsonl`]), as a request body; `place` names it in errors and
/// warnings and is its id when it gives none. Other keys are ignored. The item
/// carries `budget` on to the analysis.
pub fn read_json_record(
    bytes: Vec<u8>,
    place: &str,
    config: &ReadConfig,
    budget: Budget,
) -> Result<ReadItem, ReadError> {
    json_record(bytes, place, config, jsonl::OtherKeys::Ignored, budget)
}

/// [`read_json_record`] for a request whose every key its sender wrote: a key
/// the record does not have (a misspelt `"outlets"`) fails it, named.
pub fn read_json_request(
    bytes: Vec<u8>,
    place: &str,
    config: &ReadConfig,
    budget: Budget,
) -> Result<ReadItem, ReadError> {
    json_record(bytes, place, config, jsonl::OtherKeys::Refused, budget)
}

fn json_record(
    bytes: Vec<u8>,
    place: &str,
    config: &ReadConfig,
    other_keys: jsonl::OtherKeys,
    budget: Budget,
) -> Result<ReadItem, ReadError> {
    if bytes.len() > config.limits.jsonl_line_bytes {
        return Err(ReadError::new(
            place,
            ReadErrorKind::LineTooLong {
                size: bytes.len() as u64,
                limit: config.limits.jsonl_line_bytes,
            },
        ));
    }
    jsonl::parse_record_with(bytes, place, &config.limits, BlankIds::Error, other_keys)
        .map(|item| ReadItem { budget, ..item })
        .map_err(|error| ReadError::new(place, error.kind).with_id(error.id))
}

/// Reads one plain text article given as bytes, as the plain text reader reads a
/// file (see [`text`]); `id` is its id and names it in errors. The item
/// carries `budget` on to the analysis.
pub fn read_text_bytes(
    bytes: Vec<u8>,
    id: &str,
    config: &ReadConfig,
    budget: Budget,
) -> Result<ReadItem, ReadError> {
    if bytes.len() > config.limits.article_bytes {
        return Err(ReadError::new(
            id,
            ReadErrorKind::ArticleTooLarge {
                size: bytes.len() as u64,
                limit: config.limits.article_bytes,
            },
        ));
    }
    text::text_article(bytes, id, &config.limits)
        .map(|item| ReadItem { budget, ..item })
        .map_err(|kind| ReadError::new(id, kind))
}

/// Reads one HTML document given as a string, as the HTML reader reads a file
/// (see [`html`]), within `budget`, which the item carries on to the analysis;
/// errors name `id` as their place.
pub fn read_html_str(
    html: &str,
    id: &str,
    config: &ReadConfig,
    budget: Budget,
) -> Result<ReadItem, ReadError> {
    html::html_to_item(html, id, &config.limits, budget).map_err(|kind| ReadError::new(id, kind))
}
