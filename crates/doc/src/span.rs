//! Byte spans into an article's text.

use std::fmt;

/// A half-open range of byte offsets `[start, end)` into an article's text.
///
/// Offsets are 32-bit: articles are capped far below 4 GiB by [`crate::Limits`],
/// and halving the size of every span keeps the layers of a large batch in cache.
/// The fields are private so that `start <= end` always holds; whether the ends
/// fall on char boundaries of a given text is checked by [`Span::try_new_in`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    start: u32,
    end: u32,
}

/// Why a span could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpanError {
    /// The start lies after the end.
    #[error("span start {start} is after its end {end}")]
    Inverted {
        /// The requested start.
        start: usize,
        /// The requested end.
        end: usize,
    },
    /// An end lies beyond the text.
    #[error("span {start}..{end} runs past the end of a text of {len} bytes")]
    OutOfBounds {
        /// The requested start.
        start: usize,
        /// The requested end.
        end: usize,
        /// The text length in bytes.
        len: usize,
    },
    /// An end falls inside a multi-byte character.
    #[error("span {start}..{end} does not fall on character boundaries")]
    NotCharBoundary {
        /// The requested start.
        start: usize,
        /// The requested end.
        end: usize,
    },
}

impl Span {
    /// Makes a span; fails when `start > end` or an offset exceeds `u32::MAX`.
    pub fn try_new(start: usize, end: usize) -> Result<Span, SpanError> {
        if start > end {
            return Err(SpanError::Inverted { start, end });
        }
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(start), Ok(end)) => Ok(Span { start, end }),
            _ => Err(SpanError::OutOfBounds {
                start,
                end,
                len: u32::MAX as usize,
            }),
        }
    }

    /// Makes a span that is checked against `text`: in bounds and on char boundaries.
    pub fn try_new_in(text: &str, start: usize, end: usize) -> Result<Span, SpanError> {
        let span = Span::try_new(start, end)?;
        if end > text.len() {
            return Err(SpanError::OutOfBounds {
                start,
                end,
                len: text.len(),
            });
        }
        if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(SpanError::NotCharBoundary { start, end });
        }
        Ok(span)
    }

    /// Makes a span from offsets the caller has already checked.
    ///
    /// # Panics
    /// When `start > end` or an offset exceeds `u32::MAX`: a bug in the caller.
    #[track_caller]
    pub fn must(start: usize, end: usize) -> Span {
        match Span::try_new(start, end) {
            Ok(span) => span,
            Err(err) => panic!("invalid span: {err}"),
        }
    }

    /// The first byte of the span.
    pub fn byte_start(self) -> usize {
        self.start as usize
    }

    /// One past the last byte of the span.
    pub fn byte_end(self) -> usize {
        self.end as usize
    }

    /// The length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Whether `other` lies wholly inside this span.
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// Whether the two spans share at least one byte.
    pub fn overlaps(self, other: Span) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The text the span covers, or `None` when it does not fit `text`.
    pub fn get(self, text: &str) -> Option<&str> {
        text.get(self.byte_start()..self.byte_end())
    }

    /// The text the span covers.
    ///
    /// # Panics
    /// When the span does not fit `text`: spans of a [`crate::Doc`] always fit its text.
    #[track_caller]
    pub fn slice(self, text: &str) -> &str {
        &text[self.byte_start()..self.byte_end()]
    }

    /// The same span without leading and trailing whitespace of `text`.
    pub fn trim(self, text: &str) -> Span {
        let Some(covered) = self.get(text) else {
            return self;
        };
        let start = self.byte_start() + (covered.len() - covered.trim_start().len());
        let end = self.byte_start() + covered.trim_end().len();
        if start >= end {
            Span::must(start, start)
        } else {
            Span::must(start, end)
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_inverted_and_misaligned_spans() {
        assert!(matches!(
            Span::try_new(3, 2),
            Err(SpanError::Inverted { .. })
        ));
        let text = "café au lait";
        assert!(Span::try_new_in(text, 0, 4).is_err());
        assert_eq!(Span::try_new_in(text, 0, 5).unwrap().slice(text), "café");
        assert!(Span::try_new_in(text, 0, 99).is_err());
    }

    #[test]
    fn trims_whitespace_inside_the_span() {
        let text = "  said  ";
        let span = Span::must(0, text.len()).trim(text);
        assert_eq!(span.slice(text), "said");
        assert!(Span::must(0, 2).trim(text).is_empty());
    }
}
