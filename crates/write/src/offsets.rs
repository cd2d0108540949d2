//! Span geometry shared by the writers: safe slicing and code-point offsets.
//!
//! Every span of a [`attest_doc::Doc`] fits its text, because the `Doc::set_*`
//! methods check them; the writers still never index the text with a raw span, so
//! that a broken invariant shows up as a clamped span rather than a panic in the
//! middle of a batch.

use attest_doc::{OffsetIndex, Span};

/// A text and its offset index, built once per document and shared by all spans.
pub(crate) struct Geometry<'a> {
    text: &'a str,
    index: OffsetIndex,
}

/// A span resolved against its text: byte and code-point ends and the slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed<'a> {
    pub(crate) byte_start: usize,
    pub(crate) byte_end: usize,
    pub(crate) cp_start: usize,
    pub(crate) cp_end: usize,
    pub(crate) text: &'a str,
}

impl<'a> Geometry<'a> {
    pub(crate) fn new(text: &'a str) -> Geometry<'a> {
        Geometry {
            text,
            index: OffsetIndex::new(text),
        }
    }

    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// Resolves a span; ends that do not fit the text are moved down to the
    /// nearest character boundary inside it, so the result always slices.
    pub(crate) fn place(&self, span: Span) -> Placed<'a> {
        let byte_start = floor_boundary(self.text, span.byte_start());
        let byte_end = floor_boundary(self.text, span.byte_end().max(byte_start));
        Placed {
            byte_start,
            byte_end,
            cp_start: self.cp(byte_start),
            cp_end: self.cp(byte_end),
            text: self.text.get(byte_start..byte_end).unwrap_or_default(),
        }
    }

    /// The code-point offset of a byte offset that lies on a boundary.
    fn cp(&self, byte: usize) -> usize {
        self.index
            .byte_to_cp(byte)
            .unwrap_or_else(|| self.text.get(..byte).map_or(0, |head| head.chars().count()))
    }
}

/// The largest character boundary of `text` at or below `byte`.
fn floor_boundary(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while byte > 0 && !text.is_char_boundary(byte) {
        byte -= 1;
    }
    byte
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_spans_in_bytes_and_code_points() {
        let text = "“Né,” he said";
        let geometry = Geometry::new(text);
        let start = text.find('N').unwrap_or_default();
        let span = Span::must(start, start + "Né".len());
        let placed = geometry.place(span);
        assert_eq!(placed.text, "Né");
        assert_eq!((placed.cp_start, placed.cp_end), (1, 3));
        assert_eq!((placed.byte_start, placed.byte_end), (3, 6));
    }

    #[test]
    fn clamps_spans_that_do_not_fit_instead_of_panicking() {
        let geometry = Geometry::new("añb");
        let inside = geometry.place(Span::must(2, 99));
        assert_eq!(inside.text, "ñb");
        assert_eq!((inside.byte_start, inside.byte_end), (1, 4));
        assert_eq!((inside.cp_start, inside.cp_end), (1, 3));
    }
}
