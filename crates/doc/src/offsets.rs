//! Conversion between byte offsets and the units other tools count in.
//!
//! attest keeps every offset in UTF-8 bytes. brat and PolNeAR count Unicode
//! code points, and browsers count UTF-16 code units; writers convert at the
//! edge through one [`OffsetIndex`] per text, built in one pass.

/// A table of the multi-byte characters of a text, for offset conversion.
///
/// ASCII-only texts, the common case, cost one empty vector; every conversion is a
/// binary search over the non-ASCII characters.
#[derive(Debug, Clone)]
pub struct OffsetIndex {
    len: usize,
    /// For each non-ASCII character: its byte offset, and how many bytes and UTF-16
    /// units the text holds beyond one per code point up to and including it.
    wide: Vec<WideChar>,
}

#[derive(Debug, Clone, Copy)]
struct WideChar {
    byte: usize,
    byte_len: usize,
    extra_bytes_through: usize,
    extra_utf16_through: usize,
}

impl OffsetIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> OffsetIndex {
        let mut wide = Vec::new();
        let mut extra_bytes = 0;
        let mut extra_utf16 = 0;
        for (byte, ch) in text.char_indices() {
            let byte_len = ch.len_utf8();
            if byte_len > 1 {
                extra_bytes += byte_len - 1;
                extra_utf16 += ch.len_utf16() - 1;
                wide.push(WideChar {
                    byte,
                    byte_len,
                    extra_bytes_through: extra_bytes,
                    extra_utf16_through: extra_utf16,
                });
            }
        }
        OffsetIndex {
            len: text.len(),
            wide,
        }
    }

    /// Multi-byte characters that end at or before `byte`.
    fn wide_before(&self, byte: usize) -> usize {
        self.wide.partition_point(|w| w.byte + w.byte_len <= byte)
    }

    /// The code-point offset of a byte offset, or `None` when it is out of bounds
    /// or inside a character.
    pub fn byte_to_cp(&self, byte: usize) -> Option<usize> {
        if byte > self.len {
            return None;
        }
        let n = self.wide_before(byte);
        if let Some(next) = self.wide.get(n)
            && next.byte < byte
        {
            return None;
        }
        let extra = n
            .checked_sub(1)
            .map_or(0, |i| self.wide[i].extra_bytes_through);
        Some(byte - extra)
    }

    /// The UTF-16 offset of a byte offset, or `None` when it is out of bounds or
    /// inside a character.
    pub fn byte_to_utf16(&self, byte: usize) -> Option<usize> {
        let cp = self.byte_to_cp(byte)?;
        let n = self.wide_before(byte);
        let extra = n
            .checked_sub(1)
            .map_or(0, |i| self.wide[i].extra_utf16_through);
        Some(cp + extra)
    }

    /// The byte offset of a code-point offset, or `None` past the end of the text.
    pub fn cp_to_byte(&self, cp: usize) -> Option<usize> {
        // The byte offset of code point `cp` is `cp` plus the extra bytes of all
        // wide characters before it; a wide character at byte `b` is code point
        // `b - extra bytes before it`.
        let n = self.wide.partition_point(|w| {
            let extra_before = w.extra_bytes_through - (w.byte_len - 1);
            w.byte - extra_before < cp
        });
        let extra = n
            .checked_sub(1)
            .map_or(0, |i| self.wide[i].extra_bytes_through);
        let byte = cp + extra;
        (byte <= self.len).then_some(byte)
    }

    /// The text's length in code points.
    pub fn cp_len(&self) -> usize {
        self.len - self.wide.last().map_or(0, |w| w.extra_bytes_through)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn converts_around_wide_characters() {
        let text = "“Yes,” she said — 😀 ok";
        let index = OffsetIndex::new(text);
        for (cp, (byte, _)) in text.char_indices().enumerate() {
            assert_eq!(index.byte_to_cp(byte), Some(cp));
            assert_eq!(index.cp_to_byte(cp), Some(byte));
        }
        assert_eq!(index.byte_to_cp(1), None, "inside the opening quote");
        assert_eq!(index.cp_len(), text.chars().count());
        assert_eq!(index.byte_to_cp(text.len()), Some(index.cp_len()));
        let emoji = text.find('😀').unwrap();
        assert_eq!(
            index.byte_to_utf16(emoji + '😀'.len_utf8()),
            Some(text[..emoji].encode_utf16().count() + 2)
        );
    }

    proptest! {
        #[test]
        fn every_char_boundary_round_trips(text in "\\PC{0,60}") {
            let index = OffsetIndex::new(&text);
            let mut cp = 0;
            for byte in 0..=text.len() {
                if text.is_char_boundary(byte) {
                    prop_assert_eq!(index.byte_to_cp(byte), Some(cp));
                    prop_assert_eq!(index.cp_to_byte(cp), Some(byte));
                    prop_assert_eq!(
                        index.byte_to_utf16(byte),
                        Some(text[..byte].encode_utf16().count())
                    );
                    cp += 1;
                } else {
                    prop_assert_eq!(index.byte_to_cp(byte), None);
                }
            }
            prop_assert_eq!(index.cp_to_byte(cp), None);
        }
    }
}
