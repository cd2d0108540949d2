//! WARC web archives (`.warc`, `.warc.gz`), read one record at a time.
//!
//! Compression is recognised by the gzip magic bytes, not the file name; a
//! `.warc.gz` made of one gzip member per record (the usual way) or one member for
//! the whole file both read. Every `WARC-Type: response` record with a 2xx HTTP
//! status whose `Content-Type` is `text/html` or `application/xhtml+xml` (or that
//! has no content type but starts like HTML) becomes one article through the HTML
//! reader (see [`crate::html`]); chunked transfer encoding and `gzip`/`deflate`
//! content encodings are undone, and the `charset` of the `Content-Type` header is
//! used to decode a payload that is not valid UTF-8. All other records
//! (`warcinfo`, `request`, `metadata`, `revisit`, images, redirects, errors) are
//! skipped without a message.
//!
//! | Article field | value |
//! |---|---|
//! | `id` | `"{path}#{record}"`, the record numbered from 1 in file order (all record types count) |
//! | `url` | `WARC-Target-URI`: the address actually fetched, by which the record can be found again in the archive (the page's canonical URL is not used here) |
//! | `published` | the page's own publication time (see [`crate::html`]); only when it has none, `WARC-Date`, which is the crawl time, so at best an upper bound |
//! | `title`, `outlet`, `language`, `text` | from the page, as for HTML files |
//!
//! A record over [`attest_doc::Limits::warc_record_bytes`] (its stated length, or its
//! payload once decoded) is an error and is skipped. Errors name the file, the
//! record number and the record's byte offset in the uncompressed stream. After a
//! record with a bad header the reader resynchronises on the next `WARC/` version
//! line; a record cut short by the end of the file, or a corrupt gzip stream, ends
//! that file with an error.

use std::io::{self, BufRead, Read};

use attest_doc::{Budget, Limits, Published};
use flate2::read::{GzDecoder, MultiGzDecoder, ZlibDecoder};

use crate::decode::read_bounded;
use crate::error::{ReadError, ReadErrorKind};
use crate::html::html_bytes_to_item;
use crate::jsonl::{Line, read_line_bounded};
use crate::{ReadItem, Record};

/// The longest WARC header line kept; real ones are far shorter.
const HEADER_LINE_BYTES: usize = 64 * 1024;
/// The most header lines one WARC record may have.
const HEADER_LINES: usize = 1024;

/// Opens a WARC stream, gzipped or not, from a buffered reader at its start.
pub(crate) fn warc_stream<R: BufRead + Send + 'static>(
    mut reader: R,
) -> io::Result<Box<dyn BufRead + Send>> {
    let gzipped = reader.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    Ok(if gzipped {
        Box::new(io::BufReader::new(MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    })
}

/// A reader that counts the bytes consumed, for record offsets.
struct Counting<R> {
    inner: R,
    consumed: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.consumed += read as u64;
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.consumed += amount as u64;
        self.inner.consume(amount);
    }
}

/// An iterator over the HTML pages of one WARC stream.
pub(crate) struct WarcReader<R> {
    reader: Counting<R>,
    path: String,
    limits: Limits,
    record: u64,
    /// A record read before the stray bytes in front of it were reported.
    pending: Option<(Header, u64)>,
    /// After a bad header the bytes up to the next version line are the rest of that
    /// record, already reported.
    resyncing: bool,
    done: bool,
}

/// One WARC record's header fields, names lowercased.
struct Header {
    fields: Vec<(String, String)>,
}

impl Header {
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Bytes between records that are not a record: where they start and how many.
type Garbage = Option<(u64, u64)>;

/// What reading up to the next record found.
enum Next {
    Record {
        header: Header,
        start: u64,
        garbage: Garbage,
    },
    End {
        garbage: Garbage,
    },
}

impl<R: BufRead> WarcReader<R> {
    pub(crate) fn new(reader: R, path: impl Into<String>, limits: Limits) -> WarcReader<R> {
        WarcReader {
            reader: Counting {
                inner: reader,
                consumed: 0,
            },
            path: path.into(),
            limits,
            record: 0,
            pending: None,
            resyncing: false,
            done: false,
        }
    }

    fn error(&self, start: u64, kind: ReadErrorKind) -> ReadError {
        ReadError::new(&self.path, kind).at_record(self.record, Some(start))
    }

    fn garbage_error(&mut self, (start, skipped): (u64, u64)) -> ReadError {
        // Stray bytes are most often the tail of a record whose Content-Length was
        // wrong; counting them as a record keeps the numbers of the records after
        // them the same as a tool that stops at them would show.
        self.record += 1;
        self.error(
            start,
            ReadErrorKind::Warc(format!(
                "expected a `WARC/` version line; skipped {skipped} bytes to the next record"
            )),
        )
    }

    /// Skips blank lines (and anything else, noted as garbage) up to a `WARC/`
    /// version line, then reads the header fields after it.
    fn next_header(&mut self) -> io::Result<Next> {
        let mut line = Vec::new();
        let mut garbage_start: Option<u64> = None;
        loop {
            let start = self.reader.consumed;
            let outcome = read_line_bounded(&mut self.reader, HEADER_LINE_BYTES, &mut line)?;
            let garbage = garbage_start
                .filter(|_| !self.resyncing)
                .map(|garbage_start| (garbage_start, start - garbage_start));
            match outcome {
                Line::End => return Ok(Next::End { garbage }),
                Line::Read if line.starts_with(b"WARC/") => {
                    self.resyncing = false;
                    let header = self.read_fields()?;
                    return Ok(Next::Record {
                        header,
                        start,
                        garbage,
                    });
                }
                Line::Read if line.trim_ascii().is_empty() && garbage_start.is_none() => {}
                Line::Read | Line::TooLong(_) => {
                    garbage_start.get_or_insert(start);
                }
            }
        }
    }

    /// Reads `Name: value` lines up to the blank line ending a WARC header.
    fn read_fields(&mut self) -> io::Result<Header> {
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut line = Vec::new();
        for _ in 0..HEADER_LINES {
            match read_line_bounded(&mut self.reader, HEADER_LINE_BYTES, &mut line)? {
                Line::End => break,
                Line::TooLong(_) => continue,
                Line::Read if line.is_empty() => break,
                Line::Read => {}
            }
            let text = String::from_utf8_lossy(&line);
            if text.starts_with([' ', '\t']) {
                if let Some((_, value)) = fields.last_mut() {
                    value.push(' ');
                    value.push_str(text.trim());
                }
            } else if let Some((name, value)) = text.split_once(':') {
                fields.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        Ok(Header { fields })
    }

    /// Reads the content of a record, or skips it when it is not wanted; `None` when
    /// the record was complete but skipped.
    fn record_item(&mut self, header: &Header, start: u64) -> Option<Result<ReadItem, ReadError>> {
        let Some(length) = header
            .get("content-length")
            .and_then(|length| length.parse::<u64>().ok())
        else {
            self.resyncing = true;
            return Some(Err(self.error(
                start,
                ReadErrorKind::Warc("missing or bad Content-Length".to_string()),
            )));
        };
        let wanted = header
            .get("warc-type")
            .is_some_and(|kind| kind.eq_ignore_ascii_case("response"));
        let limit = self.limits.warc_record_bytes;
        if !wanted || length > limit as u64 {
            let skipped = match io::copy(&mut (&mut self.reader).take(length), &mut io::sink()) {
                Ok(skipped) => skipped,
                Err(error) => {
                    self.done = true;
                    return Some(Err(self.error(start, ReadErrorKind::Io(error))));
                }
            };
            if skipped < length {
                self.done = true;
                return Some(Err(self.error(start, truncated(skipped, length))));
            }
            if wanted {
                return Some(Err(self.error(
                    start,
                    ReadErrorKind::RecordTooLarge {
                        size: length,
                        limit,
                    },
                )));
            }
            return None;
        }
        let mut content = Vec::new();
        if let Err(error) = (&mut self.reader).take(length).read_to_end(&mut content) {
            self.done = true;
            return Some(Err(self.error(start, ReadErrorKind::Io(error))));
        }
        if (content.len() as u64) < length {
            self.done = true;
            return Some(Err(
                self.error(start, truncated(content.len() as u64, length))
            ));
        }
        let id = format!("{}#{}", self.path, self.record);
        let page = match http_html(&content, limit) {
            Ok(Some(page)) => page,
            Ok(None) => return None,
            Err(kind) => return Some(Err(self.error(start, kind))),
        };
        drop(content);
        let record = self.record;
        Some(
            page_item(page, &id, header, &self.limits)
                .map(|mut item| {
                    item.origin.record = Some(Record::Warc(record));
                    item
                })
                .map_err(|kind| self.error(start, kind)),
        )
    }
}

fn truncated(read: u64, length: u64) -> ReadErrorKind {
    ReadErrorKind::Warc(format!(
        "truncated record: {read} of its {length} content bytes before the end of the file"
    ))
}

/// The article of one HTML response, with the record's address and crawl time.
fn page_item(
    page: Page,
    id: &str,
    header: &Header,
    limits: &Limits,
) -> Result<ReadItem, ReadErrorKind> {
    let charset = page.charset.as_deref();
    let mut item = html_bytes_to_item(
        page.body,
        charset,
        id,
        limits,
        "of the HTTP payload",
        Budget::new(limits),
    )?;
    let uri = header
        .get("warc-target-uri")
        .map(|uri| {
            uri.trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
        .filter(|uri| !uri.is_empty());
    if uri.is_some() {
        item.article.url = uri;
    }
    if item.article.published.is_none() {
        item.article.published = header
            .get("warc-date")
            .and_then(|date| date.parse::<Published>().ok());
    }
    Ok(item)
}

impl<R: BufRead> Iterator for WarcReader<R> {
    type Item = Result<ReadItem, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let (header, start) = match self.pending.take() {
                Some(pending) => pending,
                None => match self.next_header() {
                    Err(error) => {
                        self.done = true;
                        self.record += 1;
                        let offset = self.reader.consumed;
                        return Some(Err(self.error(offset, ReadErrorKind::Io(error))));
                    }
                    Ok(Next::End { garbage }) => {
                        self.done = true;
                        return garbage.map(|garbage| Err(self.garbage_error(garbage)));
                    }
                    Ok(Next::Record {
                        header,
                        start,
                        garbage,
                    }) => {
                        if let Some(garbage) = garbage {
                            self.pending = Some((header, start));
                            return Some(Err(self.garbage_error(garbage)));
                        }
                        (header, start)
                    }
                },
            };
            self.record += 1;
            if let Some(item) = self.record_item(&header, start) {
                return Some(item);
            }
        }
    }
}

/// The HTML payload of a successful HTTP response.
#[derive(Debug, PartialEq, Eq)]
struct Page {
    /// The body, with transfer and content encodings undone.
    body: Vec<u8>,
    /// The `charset` of the `Content-Type` header.
    charset: Option<String>,
}

/// The HTML payload of an HTTP response; `None` when the response is not a
/// successful HTML page.
fn http_html(content: &[u8], limit: usize) -> Result<Option<Page>, ReadErrorKind> {
    let (head, body) = match find(content, b"\r\n\r\n") {
        Some(end) => (content.get(..end), content.get(end + 4..)),
        None => match find(content, b"\n\n") {
            Some(end) => (content.get(..end), content.get(end + 2..)),
            None => {
                return Err(ReadErrorKind::Http(
                    "no end of the HTTP headers".to_string(),
                ));
            }
        },
    };
    let head = String::from_utf8_lossy(head.unwrap_or_default());
    let body = body.unwrap_or_default();
    let mut lines = head.lines();
    let status = lines
        .next()
        .filter(|line| line.starts_with("HTTP/"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| ReadErrorKind::Http("no HTTP status line".to_string()))?;
    if !(200..300).contains(&status) {
        return Ok(None);
    }
    let mut content_type = None;
    let mut charset = None;
    let mut chunked = false;
    let mut encoding = String::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim().to_ascii_lowercase();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" => {
                let mut parts = value.split(';');
                content_type = parts.next().map(|kind| kind.trim().to_string());
                charset = parts
                    .filter_map(|part| part.trim().strip_prefix("charset="))
                    .map(|label| label.trim_matches(['"', '\'', ' ']).to_string())
                    .find(|label| !label.is_empty());
            }
            "transfer-encoding" => chunked = value.contains("chunked"),
            "content-encoding" => encoding = value,
            _ => {}
        }
    }
    if let Some(kind) = &content_type
        && !matches!(kind.as_str(), "text/html" | "application/xhtml+xml")
    {
        return Ok(None);
    }
    let body = if chunked {
        dechunk(body, limit)?
    } else {
        body.to_vec()
    };
    let body = match encoding.as_str() {
        "" | "identity" => body,
        "gzip" | "x-gzip" => inflate(GzDecoder::new(body.as_slice()), limit)?,
        "deflate" => inflate(ZlibDecoder::new(body.as_slice()), limit)?,
        other => {
            return Err(ReadErrorKind::Http(format!(
                "unsupported Content-Encoding `{other}`"
            )));
        }
    };
    if body.len() > limit {
        return Err(ReadErrorKind::RecordTooLarge {
            size: body.len() as u64,
            limit,
        });
    }
    if content_type.is_none() && !looks_like_html(&body) {
        return Ok(None);
    }
    Ok(Some(Page { body, charset }))
}

/// Whether a payload without a content type starts like an HTML page.
pub(crate) fn looks_like_html(bytes: &[u8]) -> bool {
    let start = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(bytes)
        .trim_ascii_start();
    let head = start.get(..14).unwrap_or(start);
    head.eq_ignore_ascii_case(b"<!doctype html")
        || start
            .get(..5)
            .is_some_and(|tag| tag.eq_ignore_ascii_case(b"<html"))
}

/// Decompresses at most `limit` bytes, so a small bomb cannot fill memory.
fn inflate(decoder: impl Read, limit: usize) -> Result<Vec<u8>, ReadErrorKind> {
    let (bytes, over) = read_bounded(decoder, limit)
        .map_err(|error| ReadErrorKind::Http(format!("cannot decompress the payload: {error}")))?;
    if over {
        return Err(ReadErrorKind::RecordTooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Undoes HTTP chunked transfer encoding.
///
/// Some archivers store the payload already dechunked but keep the
/// `Transfer-Encoding` header; a body whose first line is no chunk size is taken as is.
fn dechunk(body: &[u8], limit: usize) -> Result<Vec<u8>, ReadErrorKind> {
    let mut decoded = Vec::new();
    let mut at = 0;
    loop {
        let rest = body.get(at..).unwrap_or_default();
        let Some(line_end) = find(rest, b"\n") else {
            if at == 0 {
                return Ok(body.to_vec());
            }
            return Err(ReadErrorKind::Http(
                "chunked body ends without a last chunk".to_string(),
            ));
        };
        let line = String::from_utf8_lossy(rest.get(..line_end).unwrap_or_default());
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            if at == 0 {
                return Ok(body.to_vec());
            }
            return Err(ReadErrorKind::Http(format!("bad chunk size `{size_text}`")));
        };
        if size == 0 {
            return Ok(decoded);
        }
        let data_start = at + line_end + 1;
        let chunk = data_start
            .checked_add(size)
            .and_then(|data_end| body.get(data_start..data_end))
            .ok_or_else(|| ReadErrorKind::Http("truncated chunk".to_string()))?;
        if decoded.len() + chunk.len() > limit {
            return Err(ReadErrorKind::RecordTooLarge {
                size: (decoded.len() + chunk.len()) as u64,
                limit,
            });
        }
        decoded.extend_from_slice(chunk);
        at = data_start + size;
        let after = body.get(at..).unwrap_or_default();
        if after.starts_with(b"\r\n") {
            at += 2;
        } else if after.starts_with(b"\n") {
            at += 1;
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_joined() {
        let body = b"5\r\nHello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n";
        assert_eq!(
            dechunk(body, 100).ok().as_deref(),
            Some(&b"Hello, world"[..])
        );
    }

    #[test]
    fn an_already_dechunked_body_is_kept() {
        let body = b"<html><body>x</body></html>";
        assert_eq!(dechunk(body, 100).ok().as_deref(), Some(&body[..]));
    }

    #[test]
    fn a_cut_chunk_is_an_error() {
        assert!(matches!(
            dechunk(b"a\r\nshort", 100),
            Err(ReadErrorKind::Http(_))
        ));
    }

    #[test]
    fn only_successful_html_responses_are_pages() {
        let page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>x</p>";
        assert_eq!(
            http_html(page, 100).ok().flatten(),
            Some(Page {
                body: b"<p>x</p>".to_vec(),
                charset: Some("utf-8".to_string())
            })
        );
        let image = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG";
        assert_eq!(http_html(image, 100).ok().flatten(), None);
        let moved = b"HTTP/1.1 301 Moved\r\nContent-Type: text/html\r\n\r\n<p>x</p>";
        assert_eq!(http_html(moved, 100).ok().flatten(), None);
        let sniffed = b"HTTP/1.0 200 OK\r\n\r\n  <!DOCTYPE html><p>x</p>";
        assert!(http_html(sniffed, 100).ok().flatten().is_some());
    }
}
