//! Quotation marks (`data/quote-marks.tsv`), as the tokens that write them,
//! and the passages double marks pair in a document.

use std::collections::HashMap;
use std::sync::LazyLock;

use attest_doc::{Doc, TokenKind};

use crate::{columns, entries};

/// Which side of a quotation a mark stands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum QuoteSide {
    /// It opens one ("“").
    Opening,
    /// It closes one ("”").
    Closing,
    /// Either: a straight mark ('"').
    Either,
}

/// A quotation mark.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct QuoteMark {
    /// A double mark ("“", "«", "``"), not a single one ("‘").
    pub double: bool,
    /// The side it stands on.
    pub side: QuoteSide,
}

const QUOTE_MARKS_TSV: &str = include_str!("../data/quote-marks.tsv");

fn parse(text: &'static str) -> Result<Vec<(&'static str, QuoteMark)>, String> {
    entries(text)
        .map(|line| {
            let error = |why: &str| format!("quote-marks.tsv: {why}: {line:?}");
            let [mark, quotes, side] =
                columns(line).ok_or_else(|| error("not three tab-separated columns"))?;
            let double = match quotes {
                "double" => true,
                "single" => false,
                _ => return Err(error("neither double nor single")),
            };
            let side = match side {
                "opening" => QuoteSide::Opening,
                "closing" => QuoteSide::Closing,
                "either" => QuoteSide::Either,
                _ => return Err(error("side is not opening, closing or either")),
            };
            Ok((mark, QuoteMark { double, side }))
        })
        .collect()
}

static QUOTE_MARKS: LazyLock<HashMap<&'static str, QuoteMark>> = LazyLock::new(|| {
    parse(QUOTE_MARKS_TSV)
        .unwrap_or_default()
        .into_iter()
        .collect()
});

/// The quotation mark a token is, compared as written.
pub fn quote_mark(token: &str) -> Option<QuoteMark> {
    QUOTE_MARKS.get(token).copied()
}

/// A passage between double quotation marks, as token indices: `first` is
/// its opening mark, `last` its closing mark, or, when none closes it, the
/// last token before the paragraph ends or another quotation opens.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct QuotedRegion {
    /// The opening mark.
    pub first: usize,
    /// The closing mark, or the last token of an unclosed region.
    pub last: usize,
    /// Whether a closing mark ends it.
    pub closed: bool,
}

/// Pairs the double quotation marks of each paragraph of a segmented
/// document, in text order. A mark that may open or close (a straight `"`,
/// and `''`, with which some newspapers' archive text both opens and closes)
/// opens when no quotation is open. A paragraph that ends inside a quotation
/// closes it there: news style opens a quotation that runs on again at the
/// start of the next paragraph, and an unbalanced mark must not swallow the
/// rest of the article. A second opening mark ends an unclosed quotation
/// before it.
pub fn double_quote_regions(doc: &Doc) -> Vec<QuotedRegion> {
    let (text, tokens, sentences) = (doc.text(), doc.tokens(), doc.sentences());
    let mut regions = Vec::new();
    for paragraph in doc.paragraphs() {
        let start = sentences.get(paragraph.sentences.start.index());
        let end = paragraph
            .sentences
            .end
            .index()
            .checked_sub(1)
            .and_then(|last| sentences.get(last));
        let (Some(start), Some(end)) = (start, end) else {
            continue;
        };
        let (start, end) = (start.tokens.start.index(), end.tokens.end.index());
        let mut open: Option<usize> = None;
        for index in start..end {
            let Some(token) = tokens.get(index) else {
                break;
            };
            if token.kind != TokenKind::Quote {
                continue;
            }
            let Some(mark) =
                quote_mark(token.span.get(text).unwrap_or("")).filter(|mark| mark.double)
            else {
                continue;
            };
            let opening = match mark.side {
                QuoteSide::Opening => true,
                QuoteSide::Closing => false,
                QuoteSide::Either => open.is_none(),
            };
            match (open, opening) {
                (None, true) => open = Some(index),
                (Some(first), false) => {
                    regions.push(QuotedRegion {
                        first,
                        last: index,
                        closed: true,
                    });
                    open = None;
                }
                (Some(first), true) => {
                    if let Some(previous) = index.checked_sub(1) {
                        regions.push(QuotedRegion {
                            first,
                            last: previous,
                            closed: false,
                        });
                    }
                    open = Some(index);
                }
                (None, false) => {}
            }
        }
        if let (Some(first), Some(last)) = (open, end.checked_sub(1)) {
            regions.push(QuotedRegion {
                first,
                last,
                closed: false,
            });
        }
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_and_lists_each_mark_once() {
        let marks = parse(QUOTE_MARKS_TSV).unwrap();
        assert_eq!(marks.len(), QUOTE_MARKS.len());
        let open = |mark| quote_mark(mark).map(|m| (m.double, m.side));
        assert_eq!(open("“"), Some((true, QuoteSide::Opening)));
        assert_eq!(open("'"), Some((false, QuoteSide::Either)));
        assert_eq!(open("''"), Some((true, QuoteSide::Either)));
        assert_eq!(quote_mark("a"), None);
        assert!(parse("“\tdouble\tleft\n").unwrap_err().contains("side"));
    }
}
