//! JSON Lines (`.jsonl`, `.ndjson`): one article per line, read one line at a time.
//!
//! Each non-blank line is a JSON object:
//!
//! | key | required | Article field |
//! |---|---|---|
//! | `text` | yes, a string | `text` |
//! | `id` | no, a string or an integer | `id`; when absent, `"{path}:{line}"` |
//! | `title` | no, a string | `title` |
//! | `url` | no, a string | `url` |
//! | `outlet` | no, a string | `outlet` |
//! | `published` | no, an RFC 3339 instant (`2026-03-04T18:30:00-05:00`) or a date (`2026-03-04`) | `published` |
//! | `language` | no, a string | `language` |
//!
//! `null` counts as absent; other keys are ignored (a corpus may carry its
//! own), or refused with [`OtherKeys::Refused`] where every key is the
//! caller's to get right (a request to the HTTP API). An `id` that is empty or only
//! whitespace fails its record, or with [`crate::BlankIds::Hash`]
//! (`--blank-id hash`) counts as absent. Lines are numbered from 1, blank
//! lines are skipped, a trailing `\r` is dropped. A line that is not valid JSON, or
//! whose fields have the wrong type, is an error naming the file and line; the
//! following lines are still read. A line over [`attest_doc::Limits::jsonl_line_bytes`]
//! is never held in memory: reading stops storing it at the limit and skips to the
//! next newline.

/// What a record's keys beyond [`RECORD_KEYS`] do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OtherKeys {
    /// They are ignored.
    Ignored,
    /// They fail the record, named.
    Refused,
}

/// The keys a record's fields are read from, as the table above lists them.
pub const RECORD_KEYS: [&str; 7] = [
    "text",
    "id",
    "title",
    "url",
    "outlet",
    "published",
    "language",
];

use std::io::{self, BufRead};

use attest_doc::{Article, Budget, Limits, Published};
use serde_json::{Map, Value};

use crate::decode::{decode_lossy, nul_warning, replaced_warning};
use crate::error::{ReadError, ReadErrorKind};
use crate::text::check_body;
use crate::{BlankIds, Origin, ReadItem, Record};

/// An iterator over the articles of one JSON Lines stream.
pub(crate) struct JsonlReader<R> {
    reader: R,
    path: String,
    limits: Limits,
    blank_ids: BlankIds,
    line: u64,
    buffer: Vec<u8>,
    done: bool,
}

impl<R: BufRead> JsonlReader<R> {
    pub(crate) fn new(
        reader: R,
        path: impl Into<String>,
        limits: Limits,
        blank_ids: BlankIds,
    ) -> JsonlReader<R> {
        JsonlReader {
            reader,
            path: path.into(),
            limits,
            blank_ids,
            line: 0,
            buffer: Vec::new(),
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for JsonlReader<R> {
    type Item = Result<ReadItem, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.line += 1;
            let outcome = read_line_bounded(
                &mut self.reader,
                self.limits.jsonl_line_bytes,
                &mut self.buffer,
            );
            let error = |kind| Some(Err(ReadError::new(&self.path, kind).at_line(self.line)));
            match outcome {
                Err(io_error) => {
                    self.done = true;
                    return error(ReadErrorKind::Io(io_error));
                }
                Ok(Line::End) => self.done = true,
                Ok(Line::TooLong(size)) => {
                    return error(ReadErrorKind::LineTooLong {
                        size,
                        limit: self.limits.jsonl_line_bytes,
                    });
                }
                Ok(Line::Read) => {
                    if self.line == 1 && self.buffer.starts_with(b"\xEF\xBB\xBF") {
                        self.buffer.drain(..3);
                    }
                    if self.buffer.trim_ascii().is_empty() {
                        continue;
                    }
                    let bytes = std::mem::take(&mut self.buffer);
                    let place = format!("{}:{}", self.path, self.line);
                    let line = self.line;
                    return Some(
                        parse_record(bytes, &place, &self.limits, self.blank_ids)
                            .map(|mut item| {
                                item.origin.record = Some(Record::Line(line));
                                item
                            })
                            .map_err(|error| {
                                ReadError::new(&self.path, error.kind)
                                    .at_line(line)
                                    .with_id(error.id)
                            }),
                    );
                }
            }
        }
        None
    }
}

/// What one bounded line read found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line is in the buffer, without its `\n` or `\r\n`.
    Read,
    /// A line longer than the limit, of this many bytes, was skipped.
    TooLong(u64),
    /// The end of the stream.
    End,
}

/// Reads one line into `buffer`, storing at most `limit` bytes of it: a longer
/// line is consumed up to its newline without being kept.
pub(crate) fn read_line_bounded(
    reader: &mut impl BufRead,
    limit: usize,
    buffer: &mut Vec<u8>,
) -> io::Result<Line> {
    buffer.clear();
    let mut size: u64 = 0;
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong(size),
                (true, false) => Line::Read,
            });
        }
        any = true;
        let newline = available.iter().position(|&byte| byte == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        size += chunk.len() as u64;
        if !too_long {
            if buffer.len() + chunk.len() > limit {
                too_long = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            if too_long {
                return Ok(Line::TooLong(size));
            }
            if buffer.last() == Some(&b'\r') {
                buffer.pop();
            }
            return Ok(Line::Read);
        }
    }
}

/// A record that failed, with the id it gave when that could be read.
#[derive(Debug)]
pub(crate) struct RecordError {
    pub(crate) kind: ReadErrorKind,
    pub(crate) id: Option<String>,
}

impl From<ReadErrorKind> for RecordError {
    fn from(kind: ReadErrorKind) -> RecordError {
        RecordError { kind, id: None }
    }
}

/// Parses one record; `place` ("path:line") names it in warnings and is the id
/// of a record that gives none.
pub(crate) fn parse_record(
    bytes: Vec<u8>,
    place: &str,
    limits: &Limits,
    blank_ids: BlankIds,
) -> Result<ReadItem, RecordError> {
    parse_record_with(bytes, place, limits, blank_ids, OtherKeys::Ignored)
}

/// [`parse_record`], with `other_keys` deciding what keys beyond
/// [`RECORD_KEYS`] do.
pub(crate) fn parse_record_with(
    bytes: Vec<u8>,
    place: &str,
    limits: &Limits,
    blank_ids: BlankIds,
    other_keys: OtherKeys,
) -> Result<ReadItem, RecordError> {
    let mut warnings = Vec::new();
    let (json, replaced) = decode_lossy(bytes);
    if let Some(replaced) = replaced {
        warnings.push(replaced_warning(place, "of the line", replaced));
    }
    let value: Value =
        serde_json::from_str(&json).map_err(|error| ReadErrorKind::Json(error.to_string()))?;
    let Value::Object(object) = value else {
        return Err(ReadErrorKind::NotAnObject.into());
    };
    if other_keys == OtherKeys::Refused {
        let unknown: Vec<String> = object
            .keys()
            .filter(|key| !RECORD_KEYS.contains(&key.as_str()))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            return Err(ReadErrorKind::UnknownKeys(unknown).into());
        }
    }
    let (id, id_given) = match object.get("id") {
        None | Some(Value::Null) => (place.to_string(), false),
        Some(Value::String(id)) if id.trim().is_empty() => match blank_ids {
            BlankIds::Error => return Err(ReadErrorKind::BlankId.into()),
            BlankIds::Hash => (place.to_string(), false),
        },
        Some(Value::String(id)) => (id.clone(), true),
        Some(Value::Number(number)) if number.is_i64() || number.is_u64() => {
            (number.to_string(), true)
        }
        Some(_) => return Err(ReadErrorKind::FieldType { field: "id" }.into()),
    };
    let given = id_given.then(|| id.clone());
    let article = fields(&object, id, place, &mut warnings, limits)
        .map_err(|kind| RecordError { kind, id: given })?;
    Ok(ReadItem {
        article,
        warnings,
        id_given,
        origin: Origin::default(),
        budget: Budget::new(limits),
    })
}

/// The article of a record whose id is read.
fn fields(
    object: &Map<String, Value>,
    id: String,
    place: &str,
    warnings: &mut Vec<attest_doc::Diagnostic>,
    limits: &Limits,
) -> Result<Article, ReadErrorKind> {
    let Some(Value::String(text)) = object.get("text") else {
        return Err(ReadErrorKind::MissingText);
    };
    check_body(text, limits)?;
    warnings.extend(nul_warning(place, text));
    let published = match optional_string(object, "published")? {
        None => None,
        Some(value) => {
            Some(
                value
                    .parse::<Published>()
                    .map_err(|error| ReadErrorKind::Published {
                        field: "published",
                        error,
                    })?,
            )
        }
    };
    Ok(Article {
        id,
        title: optional_string(object, "title")?,
        text: text.clone(),
        outlet: optional_string(object, "outlet")?,
        url: optional_string(object, "url")?,
        published,
        language: optional_string(object, "language")?,
    })
}

fn optional_string(
    object: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<String>, ReadErrorKind> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(value)) => Ok(Some(value.clone())),
        Some(_) => Err(ReadErrorKind::FieldType { field }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_keys_are_ignored_or_refused_by_name() {
        let record = br#"{"text":"Lee said so.","outlets":"O"}"#.to_vec();
        let read = |other| {
            parse_record_with(
                record.clone(),
                "r",
                &Limits::DEFAULT,
                BlankIds::Error,
                other,
            )
        };
        assert!(read(OtherKeys::Ignored).is_ok());
        let refused = read(OtherKeys::Refused).err().map(|e| e.kind.to_string());
        assert!(refused.is_some_and(|m| m.contains("\"outlets\"")));
    }

    #[test]
    fn every_record_key_is_read() {
        let record = br#"{"text":"Lee said so.","id":"a","title":"T","url":"https://x.example/a","outlet":"O","published":"2026-03-04","language":"en"}"#;
        let keys: Map<String, Value> = serde_json::from_slice(record).unwrap();
        assert_eq!(keys.len(), RECORD_KEYS.len());
        assert!(keys.keys().all(|key| RECORD_KEYS.contains(&key.as_str())));
        let item = parse_record(record.to_vec(), "r", &Limits::DEFAULT, BlankIds::Error).unwrap();
        let article = item.article;
        assert!(article.title.is_some() && article.url.is_some() && article.outlet.is_some());
        assert!(article.published.is_some() && article.language.is_some());
    }

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        // A tiny buffer makes lines span several `fill_buf` calls.
        let mut reader = io::BufReader::with_capacity(3, input);
        let mut buffer = Vec::new();
        let mut found = Vec::new();
        while let Ok(line) = read_line_bounded(&mut reader, limit, &mut buffer) {
            if line == Line::End {
                break;
            }
            found.push((line, buffer.clone()));
        }
        found
    }

    #[test]
    fn bounded_lines_split_and_skip_long_ones() {
        let found = lines(b"ab\r\nlong line\ncd", 4);
        assert_eq!(
            found,
            vec![
                (Line::Read, b"ab".to_vec()),
                (Line::TooLong(9), Vec::new()),
                (Line::Read, b"cd".to_vec()),
            ]
        );
    }

    #[test]
    fn fields_map_to_the_article() {
        let line = br#"{"id":7,"text":"Body.","title":"T","url":"https://x.example/a","outlet":"O","published":"2026-03-04","language":"en","extra":1}"#;
        let item = parse_record(
            line.to_vec(),
            "f.jsonl:3",
            &Limits::DEFAULT,
            BlankIds::Error,
        );
        let article = item.map(|item| item.article).ok();
        let article = article.as_ref();
        assert_eq!(article.map(|a| a.id.as_str()), Some("7"));
        assert_eq!(article.and_then(|a| a.title.as_deref()), Some("T"));
        assert_eq!(
            article
                .and_then(|a| a.published)
                .map(|p| p.to_string())
                .as_deref(),
            Some("2026-03-04")
        );
    }

    #[test]
    fn wrong_types_name_the_field() {
        let result = parse_record(
            br#"{"text":"x","title":3}"#.to_vec(),
            "f:1",
            &Limits::DEFAULT,
            BlankIds::Error,
        );
        assert!(matches!(
            result,
            Err(RecordError {
                kind: ReadErrorKind::FieldType { field: "title" },
                id: None
            })
        ));
        let result = parse_record(
            br#"{"text":5}"#.to_vec(),
            "f:1",
            &Limits::DEFAULT,
            BlankIds::Error,
        );
        assert!(matches!(
            result,
            Err(RecordError {
                kind: ReadErrorKind::MissingText,
                ..
            })
        ));
        let result = parse_record(br#"[1]"#.to_vec(), "f:1", &Limits::DEFAULT, BlankIds::Error);
        assert!(matches!(
            result,
            Err(RecordError {
                kind: ReadErrorKind::NotAnObject,
                ..
            })
        ));
    }

    #[test]
    fn a_failed_record_keeps_the_id_it_gave() {
        let line = br#"{"id":"a7","text":"Body.","published":"someday"}"#;
        let error = parse_record(line.to_vec(), "f:4", &Limits::DEFAULT, BlankIds::Error)
            .expect_err("the date is bad");
        assert_eq!(error.id.as_deref(), Some("a7"));
        let line = br#"{"id":["a7"],"text":"Body."}"#;
        let error = parse_record(line.to_vec(), "f:4", &Limits::DEFAULT, BlankIds::Error)
            .expect_err("the id is bad");
        assert_eq!(error.id, None);
    }

    #[test]
    fn blank_ids_fail_or_count_as_absent() {
        for id in [r#""""#, r#"" \t ""#] {
            let line = format!(r#"{{"id":{id},"text":"Body."}}"#).into_bytes();
            let result = parse_record(line.clone(), "f:2", &Limits::DEFAULT, BlankIds::Error);
            assert!(
                matches!(
                    result,
                    Err(RecordError {
                        kind: ReadErrorKind::BlankId,
                        id: None
                    })
                ),
                "{id}"
            );
            let item = parse_record(line, "f:2", &Limits::DEFAULT, BlankIds::Hash).unwrap();
            assert_eq!((item.article.id.as_str(), item.id_given), ("f:2", false));
        }
    }
}
