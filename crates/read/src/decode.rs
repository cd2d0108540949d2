//! Bytes to text: bounded reads, binary sniffing and lossy UTF-8 with a record of
//! what was replaced.

use std::io::{self, Read};

use attest_doc::Diagnostic;

/// How much of a file's start decides whether it is binary.
pub(crate) const SNIFF_BYTES: usize = 8 * 1024;

/// The `origin` of every diagnostic this crate attaches.
pub(crate) const ORIGIN: &str = "attest-read";

/// How many NUL offsets a warning lists before it only counts.
const NUL_OFFSETS_LISTED: usize = 5;

/// Whether the start of a file is mostly binary: more than 1% of its first
/// 8 KiB, and at least 8 bytes, are NUL or other C0 control bytes that text
/// does not hold (all but tab, line feed, vertical tab, form feed, carriage
/// return and escape). Images, archives, executables and UTF-16 exceed that by
/// far; a text with a few stray NULs, as some exporters leave, is read, and
/// [`nul_warning`] names them.
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let head = bytes.get(..SNIFF_BYTES).unwrap_or(bytes);
    let binary = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1b))
        .count();
    binary >= 8 && binary * 100 > head.len()
}

/// The warning for an article text that holds NUL characters, naming the byte
/// offsets of the first few in the text and counting the rest.
pub(crate) fn nul_warning(place: &str, text: &str) -> Option<Diagnostic> {
    nul_bytes_warning(place, text.as_bytes(), "in the text, kept")
}

/// The warning for NUL bytes in `bytes`, offsets counted in `bytes`; `fate`
/// says where they were and what became of them.
pub(crate) fn nul_bytes_warning(place: &str, bytes: &[u8], fate: &str) -> Option<Diagnostic> {
    let mut offsets = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == 0)
        .map(|(i, _)| i);
    let listed: Vec<String> = offsets
        .by_ref()
        .take(NUL_OFFSETS_LISTED)
        .map(|i| i.to_string())
        .collect();
    if listed.is_empty() {
        return None;
    }
    let more = offsets.count();
    let total = listed.len() + more;
    let noun = if total == 1 { "byte" } else { "bytes" };
    let mut message = format!(
        "{place}: {total} NUL {noun} {fate}, at byte {}",
        listed.join(", ")
    );
    if more > 0 {
        message.push_str(&format!(" and {more} more"));
    }
    Some(Diagnostic {
        origin: ORIGIN,
        message,
    })
}

/// Reads at most `limit + 1` bytes, so that going over the limit is seen without
/// ever holding more than one byte past it.
pub(crate) fn read_bounded(reader: impl Read, limit: usize) -> io::Result<(Vec<u8>, bool)> {
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut bytes = Vec::new();
    reader.take(cap).read_to_end(&mut bytes)?;
    let over = bytes.len() > limit;
    Ok((bytes, over))
}

/// Where the first invalid UTF-8 sequence was, and how many were replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Replaced {
    pub(crate) first_offset: usize,
    pub(crate) count: usize,
}

/// Decodes UTF-8, replacing each invalid sequence with U+FFFD exactly as
/// `String::from_utf8_lossy` does, and reports what it replaced.
pub(crate) fn decode_lossy(bytes: Vec<u8>) -> (String, Option<Replaced>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(error) => {
            let bytes = error.into_bytes();
            let mut text = String::with_capacity(bytes.len());
            let mut offset = 0;
            let mut first_offset = None;
            let mut count = 0;
            for chunk in bytes.utf8_chunks() {
                text.push_str(chunk.valid());
                offset += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    first_offset.get_or_insert(offset);
                    count += 1;
                    text.push(char::REPLACEMENT_CHARACTER);
                    offset += chunk.invalid().len();
                }
            }
            let replaced = first_offset.map(|first_offset| Replaced {
                first_offset,
                count,
            });
            (text, replaced)
        }
    }
}

/// The warning attached to an article whose bytes were not all valid UTF-8.
/// `within` says what the offset counts from ("of the file", "of the line").
pub(crate) fn replaced_warning(place: &str, within: &str, replaced: Replaced) -> Diagnostic {
    let sequences = if replaced.count == 1 {
        "sequence"
    } else {
        "sequences"
    };
    Diagnostic {
        origin: ORIGIN,
        message: format!(
            "{place}: invalid UTF-8 at byte {} {within}; {} invalid {sequences} replaced with U+FFFD",
            replaced.first_offset, replaced.count
        ),
    }
}

/// How far into a page a `<meta>` charset declaration is looked for, as browsers do.
const META_CHARSET_BYTES: usize = 1024;

/// Decodes an HTML page: as UTF-8 when it is valid UTF-8 or declares nothing else,
/// otherwise in the charset given by the HTTP header (`declared`) or by a `<meta>`
/// tag near its start.
///
/// Valid UTF-8 wins over a declaration because a page in a single-byte charset
/// almost never happens to be valid UTF-8 beyond ASCII, while pages converted to
/// UTF-8 that still declare their old charset are common.
pub(crate) fn decode_html(
    bytes: Vec<u8>,
    declared: Option<&str>,
    place: &str,
    within: &str,
) -> (String, Option<Diagnostic>) {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    let encoding = declared
        .map(str::as_bytes)
        .or_else(|| meta_charset(&bytes))
        .and_then(encoding_rs::Encoding::for_label_no_replacement)
        .filter(|encoding| {
            // WHATWG: a page declaring UTF-16 in ASCII-compatible bytes is UTF-8.
            *encoding != encoding_rs::UTF_8
                && *encoding != encoding_rs::UTF_16LE
                && *encoding != encoding_rs::UTF_16BE
        });
    match encoding {
        Some(encoding) if std::str::from_utf8(&bytes).is_err() => {
            let (text, had_errors) = encoding.decode_without_bom_handling(&bytes);
            let warning = had_errors.then(|| Diagnostic {
                origin: ORIGIN,
                message: format!(
                    "{place}: bytes invalid in the declared charset {} replaced with U+FFFD",
                    encoding.name()
                ),
            });
            (text.into_owned(), warning)
        }
        _ => {
            let (text, replaced) = decode_lossy(bytes);
            (
                text,
                replaced.map(|replaced| replaced_warning(place, within, replaced)),
            )
        }
    }
}

/// The value of the first `charset=` in the start of a page: it covers both
/// `<meta charset="...">` and `<meta http-equiv="Content-Type" content="...; charset=...">`.
fn meta_charset(bytes: &[u8]) -> Option<&[u8]> {
    let head = bytes.get(..META_CHARSET_BYTES).unwrap_or(bytes);
    let at = head
        .windows(8)
        .position(|window| window.eq_ignore_ascii_case(b"charset="))?;
    let value = head.get(at + 8..)?;
    let value = value
        .strip_prefix(b"\"")
        .or_else(|| value.strip_prefix(b"'"))
        .unwrap_or(value);
    let end = value
        .iter()
        .position(|byte| {
            matches!(byte, b'"' | b'\'' | b';' | b'/' | b'>') || byte.is_ascii_whitespace()
        })
        .unwrap_or(value.len());
    value.get(..end).filter(|label| !label.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_single_byte_charsets_are_decoded() {
        let page = b"<meta charset='windows-1252'><p>Caf\xe9 \x93quoted\x94</p>".to_vec();
        let (text, warning) = decode_html(page, None, "p", "of the file");
        assert!(text.contains("Café “quoted”"), "{text}");
        assert_eq!(warning, None);
        let page = b"<p>na\xefve</p>".to_vec();
        let (text, _) = decode_html(page, Some("ISO-8859-1"), "p", "of the file");
        assert!(text.contains("naïve"));
    }

    #[test]
    fn valid_utf8_wins_over_a_stale_declaration() {
        let page = "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><p>Café</p>";
        let (text, warning) = decode_html(page.as_bytes().to_vec(), None, "p", "of the file");
        assert_eq!(text, page);
        assert_eq!(warning, None);
    }

    #[test]
    fn undeclared_invalid_bytes_are_replaced_with_a_warning() {
        let (text, warning) = decode_html(b"<p>Caf\xe9</p>".to_vec(), None, "p", "of the file");
        assert_eq!(text, "<p>Caf\u{fffd}</p>");
        assert!(warning.is_some_and(|w| w.message.contains("at byte 6 of the file")));
    }

    #[test]
    fn valid_text_is_untouched() {
        let (text, replaced) = decode_lossy("café".as_bytes().to_vec());
        assert_eq!(text, "café");
        assert_eq!(replaced, None);
    }

    #[test]
    fn invalid_sequences_are_counted_and_located() {
        let bytes = b"ab\xffcd\xc3\xe9".to_vec();
        let expected = String::from_utf8_lossy(&bytes).into_owned();
        let (text, replaced) = decode_lossy(bytes);
        assert_eq!(text, expected);
        assert_eq!(
            replaced,
            Some(Replaced {
                first_offset: 2,
                count: 3
            })
        );
    }

    #[test]
    fn only_mostly_binary_starts_are_binary() {
        assert!(!is_binary(b"text\0more"), "one NUL is no binary file");
        assert!(!is_binary(b"plain text"));
        assert!(is_binary(&[0u8; 16]));
        assert!(is_binary(
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0"
        ));
        let utf16: Vec<u8> = "A quoted line."
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(is_binary(&utf16));
        let mut few = vec![b'a'; 4000];
        for at in [10, 500, 1000, 2000] {
            few[at] = 0;
        }
        assert!(!is_binary(&few), "4 NULs in 4,000 bytes");
        let mut late = vec![b'a'; SNIFF_BYTES];
        late.extend([0; 64]);
        assert!(!is_binary(&late), "only the first 8 KiB count");
    }

    #[test]
    fn nul_warnings_name_the_first_offsets_and_count_the_rest() {
        assert_eq!(nul_warning("f", "no nul"), None);
        let one = nul_warning("f", "a\0b").map(|d| d.message);
        assert_eq!(
            one.as_deref(),
            Some("f: 1 NUL byte in the text, kept, at byte 1")
        );
        let many = nul_warning("f", &"\0x".repeat(8)).map(|d| d.message);
        assert_eq!(
            many.as_deref(),
            Some("f: 8 NUL bytes in the text, kept, at byte 0, 2, 4, 6, 8 and 3 more")
        );
    }

    #[test]
    fn bounded_read_sees_one_byte_past_the_limit() {
        let (bytes, over) = read_bounded(&b"abcdef"[..], 3).unwrap_or_default();
        assert_eq!(bytes, b"abcd");
        assert!(over);
        let (bytes, over) = read_bounded(&b"abc"[..], 3).unwrap_or_default();
        assert_eq!(bytes, b"abc");
        assert!(!over);
    }
}
