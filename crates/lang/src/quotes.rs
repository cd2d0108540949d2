//! Quotation marks (`data/quote-marks.tsv`), as the tokens that write them.

use std::collections::HashMap;
use std::sync::LazyLock;

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
        assert_eq!(open("''"), Some((true, QuoteSide::Closing)));
        assert_eq!(quote_mark("a"), None);
        assert!(parse("“\tdouble\tleft\n").unwrap_err().contains("side"));
    }
}
