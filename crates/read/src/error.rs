//! Per-record errors: what went wrong and exactly where.
//!
//! A [`ReadError`] fails one record (a file, a JSON Lines line, a WARC record) and
//! never the batch: the iterator of [`crate::read_inputs`] goes on after it.

use std::fmt;
use std::io;

/// One record that could not become an article, with the place it came from.
///
/// `Display` names the place first, in the `file:line:` style editors and
/// terminals understand: `data.jsonl:7: expected \`text\` string`,
/// `crawl.warc.gz: record 3 (byte 1042): truncated record`.
#[derive(Debug)]
pub struct ReadError {
    path: String,
    line: Option<u64>,
    record: Option<u64>,
    offset: Option<u64>,
    /// Boxed twice, one pointer wide: every reader returns `ReadError` by
    /// value, and the id is rare (only a JSON Lines record that fails after
    /// its id was read); `Box<str>` would be two pointers wide.
    #[allow(clippy::box_collection)]
    id: Option<Box<String>>,
    kind: ReadErrorKind,
}

impl ReadError {
    pub(crate) fn new(path: impl Into<String>, kind: ReadErrorKind) -> ReadError {
        ReadError {
            path: path.into(),
            line: None,
            record: None,
            offset: None,
            id: None,
            kind,
        }
    }

    pub(crate) fn with_id(mut self, id: Option<String>) -> ReadError {
        self.id = id.map(Box::new);
        self
    }

    pub(crate) fn at_line(mut self, line: u64) -> ReadError {
        self.line = Some(line);
        self
    }

    pub(crate) fn at_record(mut self, record: u64, offset: Option<u64>) -> ReadError {
        self.record = Some(record);
        self.offset = offset;
        self
    }

    /// The input path as given (`-` for standard input).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The 1-based line of a JSON Lines file.
    pub fn line(&self) -> Option<u64> {
        self.line
    }

    /// The 1-based record number in a WARC file.
    pub fn record(&self) -> Option<u64> {
        self.record
    }

    /// The byte offset of the record's start in the (uncompressed) WARC stream.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// The id the record gave, when it could be read before the record
    /// failed (a JSON Lines object with a good `id` and a bad other field).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref().map(String::as_str)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ReadErrorKind {
        &self.kind
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(record) = self.record {
            write!(f, ": record {record}")?;
            if let Some(offset) = self.offset {
                write!(f, " (byte {offset})")?;
            }
        }
        write!(f, ": {}", self.kind)
    }
}

/// The cause is part of the message and not also a `source()`: printed with
/// its chain (`{:#}`), the cause would otherwise show twice.
impl std::error::Error for ReadError {}

/// What went wrong with one record.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The file or directory could not be opened or read (missing, permission denied, ...).
    #[error("cannot read: {0}")]
    Io(io::Error),
    /// A mostly binary start (over 1% of the first 8 KiB, and at least 8
    /// bytes, NUL or control bytes text does not hold): the file is not text.
    #[error("binary file (over 1% of its first 8 KiB are NUL or control bytes), skipped")]
    Binary,
    /// The article text is empty or only whitespace.
    #[error("empty article")]
    Empty,
    /// The article text is over [`attest_doc::Limits::article_bytes`].
    #[error("article is {size} bytes, over the limit of {limit} bytes (article_bytes)")]
    ArticleTooLarge {
        /// The size found (at least; reading stops past the limit).
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// A raw HTML document is over [`attest_doc::Limits::warc_record_bytes`].
    #[error("HTML document is {size} bytes, over the limit of {limit} bytes (warc_record_bytes)")]
    HtmlTooLarge {
        /// The size found (at least; reading stops past the limit).
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// A JSON Lines line is over [`attest_doc::Limits::jsonl_line_bytes`].
    #[error("line is {size} bytes, over the limit of {limit} bytes (jsonl_line_bytes)")]
    LineTooLong {
        /// The length of the line.
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// A WARC record, or its decoded payload, is over [`attest_doc::Limits::warc_record_bytes`].
    #[error("WARC record is {size} bytes, over the limit of {limit} bytes (warc_record_bytes)")]
    RecordTooLarge {
        /// The size found (at least, for a decoded payload).
        size: u64,
        /// The limit.
        limit: usize,
    },
    /// The HTML nests elements deeper than [`attest_doc::Limits::html_depth`].
    #[error("HTML nests elements {depth} deep, over the limit of {limit} (html_depth)")]
    HtmlTooDeep {
        /// The depth reached (reading stops just past the limit).
        depth: usize,
        /// The limit.
        limit: usize,
    },
    /// A JSON Lines line that is not valid JSON.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// A JSON Lines line that is valid JSON but not an object.
    #[error("expected a JSON object")]
    NotAnObject,
    /// A JSON Lines `id` that is empty or only whitespace.
    #[error(
        "blank `id`: give each record its own id, or --blank-id hash to know such records by their content"
    )]
    BlankId,
    /// A record with keys it does not have, where they are refused
    /// ([`crate::jsonl::OtherKeys::Refused`]).
    #[error("unknown keys {0:?}: a record has {keys}", keys = crate::jsonl::RECORD_KEYS.join(", "))]
    UnknownKeys(Vec<String>),
    /// A JSON Lines object without a string `text`.
    #[error("expected `text` string")]
    MissingText,
    /// A JSON Lines field of the wrong type.
    #[error("expected `{field}` to be a string")]
    FieldType {
        /// The field name.
        field: &'static str,
    },
    /// A publication time that is neither an RFC 3339 instant nor a date.
    #[error("bad `{field}`: {error}")]
    Published {
        /// The field it came from.
        field: &'static str,
        /// Why it was refused.
        error: attest_doc::PublishedError,
    },
    /// The HTML had no main text that could be extracted.
    #[error("no article text found in the HTML: {0}")]
    Html(String),
    /// A WARC record that is truncated or malformed.
    #[error("corrupt WARC record: {0}")]
    Warc(String),
    /// Reading used up the article's time budget, or was cancelled.
    #[error("reading stopped: {0}")]
    Exhausted(#[from] attest_doc::Exhausted),
    /// A WARC response whose HTTP message is malformed.
    #[error("bad HTTP response in WARC record: {0}")]
    Http(String),
}
