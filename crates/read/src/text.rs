//! Plain text: one article per file, or standard input.
//!
//! | Article field | value |
//! |---|---|
//! | `id` | the path as given on the command line or found by the directory walk; `-` for standard input |
//! | `text` | the whole file, UTF-8 (a leading byte order mark is dropped; invalid bytes become U+FFFD with a warning; NUL bytes are kept, with a warning naming their offsets) |
//! | other fields | none |
//!
//! A file that is mostly binary (see `decode::is_binary`: more than 1% of its
//! first 8 KiB, and at least 8 bytes, are NUL or control bytes text does not
//! hold) is skipped with an error.
//! A file is refused before it is read when its size is over
//! [`attest_doc::Limits::article_bytes`]; standard input is read up to one byte past it.

use std::fs::File;
use std::path::Path;

use attest_doc::{Article, Budget, Limits};

use crate::decode::{decode_lossy, is_binary, nul_warning, read_bounded, replaced_warning};
use crate::error::{ReadError, ReadErrorKind};
use crate::{Origin, ReadItem};

/// Reads a plain text file as one article whose id is `display`.
pub(crate) fn read_text_file(
    path: &Path,
    display: &str,
    limits: &Limits,
) -> Result<ReadItem, ReadError> {
    let bytes = read_file_bounded(path, limits.article_bytes, |size, limit| {
        ReadErrorKind::ArticleTooLarge { size, limit }
    })
    .map_err(|kind| ReadError::new(display, kind))?;
    text_article(bytes, display, limits).map_err(|kind| ReadError::new(display, kind))
}

/// Reads plain text from standard input as one article with id `-`.
pub(crate) fn read_stdin(limits: &Limits) -> Result<ReadItem, ReadError> {
    let stdin = std::io::stdin();
    let (bytes, over) = read_bounded(stdin.lock(), limits.article_bytes)
        .map_err(|error| ReadError::new("-", ReadErrorKind::Io(error)))?;
    if over {
        return Err(ReadError::new(
            "-",
            ReadErrorKind::ArticleTooLarge {
                size: bytes.len() as u64,
                limit: limits.article_bytes,
            },
        ));
    }
    text_article(bytes, "-", limits).map_err(|kind| ReadError::new("-", kind))
}

/// Reads a whole file of at most `limit` bytes, checking its size first so that
/// an oversized file is refused without being read.
pub(crate) fn read_file_bounded(
    path: &Path,
    limit: usize,
    too_large: impl Fn(u64, usize) -> ReadErrorKind,
) -> Result<Vec<u8>, ReadErrorKind> {
    let file = File::open(path).map_err(ReadErrorKind::Io)?;
    let size = file.metadata().map_err(ReadErrorKind::Io)?.len();
    if size > limit as u64 {
        return Err(too_large(size, limit));
    }
    // The file may grow between the size check and the read.
    let (bytes, over) = read_bounded(file, limit).map_err(ReadErrorKind::Io)?;
    if over {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// Checks and decodes the bytes of a plain text article.
pub(crate) fn text_article(
    bytes: Vec<u8>,
    id: &str,
    limits: &Limits,
) -> Result<ReadItem, ReadErrorKind> {
    if is_binary(&bytes) {
        return Err(ReadErrorKind::Binary);
    }
    let bytes = strip_bom(bytes);
    let mut warnings = Vec::new();
    let (text, replaced) = decode_lossy(bytes);
    if let Some(replaced) = replaced {
        warnings.push(replaced_warning(id, "of the file", replaced));
    }
    check_body(&text, limits)?;
    warnings.extend(nul_warning(id, &text));
    Ok(ReadItem {
        article: Article::new(id, text),
        warnings,
        id_given: false,
        origin: Origin::default(),
        budget: Budget::new(limits),
    })
}

/// Refuses an article body that is empty or over the size limit.
pub(crate) fn check_body(text: &str, limits: &Limits) -> Result<(), ReadErrorKind> {
    if text.trim().is_empty() {
        return Err(ReadErrorKind::Empty);
    }
    // Replacement characters can make the decoded text longer than the bytes read.
    if text.len() > limits.article_bytes {
        return Err(ReadErrorKind::ArticleTooLarge {
            size: text.len() as u64,
            limit: limits.article_bytes,
        });
    }
    Ok(())
}

fn strip_bom(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    bytes
}

/// Reads `reader` to its end; kept apart so tests can feed arbitrary bytes.
#[cfg(test)]
fn text_from_reader(
    reader: impl std::io::Read,
    limits: &Limits,
) -> Result<ReadItem, ReadErrorKind> {
    let (bytes, over) = read_bounded(reader, limits.article_bytes).map_err(ReadErrorKind::Io)?;
    if over {
        return Err(ReadErrorKind::ArticleTooLarge {
            size: bytes.len() as u64,
            limit: limits.article_bytes,
        });
    }
    text_article(bytes, "t", limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_dropped_and_text_kept() {
        let item = text_from_reader(&b"\xEF\xBB\xBFHello there."[..], &Limits::DEFAULT);
        assert_eq!(
            item.map(|i| i.article.text).ok().as_deref(),
            Some("Hello there.")
        );
    }

    #[test]
    fn whitespace_only_is_empty() {
        let result = text_from_reader(&b" \n\t\n"[..], &Limits::DEFAULT);
        assert!(matches!(result, Err(ReadErrorKind::Empty)));
    }

    #[test]
    fn over_the_limit_is_refused() {
        let limits = Limits {
            article_bytes: 4,
            ..Limits::DEFAULT
        };
        let result = text_from_reader(&b"hello"[..], &limits);
        assert!(matches!(
            result,
            Err(ReadErrorKind::ArticleTooLarge { size: 5, limit: 4 })
        ));
    }
}
