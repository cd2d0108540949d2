//! The unit sequence of a document, its windows, and which window owns each
//! token: pure functions of piece counts, as the encoder contract fixes them.
//!
//! Units are the word pieces of every token in order, with one `[SEP]` unit
//! wherever a line break separates two tokens. A window holds whole items (a
//! token's pieces, or one `[SEP]`), at most `capacity` units; the next window
//! starts at the first item boundary `stride` units or more after the start of
//! the last, so consecutive windows overlap and every token sits well inside
//! at least one. A token is read from the window where it is farthest from
//! both edges (its owner), so that it sees the most context on its worse side.

use std::ops::Range;

/// The units of a document and how its tokens map onto them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Units {
    /// Piece ids, `[SEP]` included.
    pub ids: Vec<u32>,
    /// Every item (a token's pieces or one `[SEP]`) as a unit range, in order.
    pub items: Vec<Range<usize>>,
    /// The unit range of each token.
    pub tokens: Vec<Range<usize>>,
}

impl Units {
    /// Appends a paragraph mark, the `[SEP]` unit that belongs to no token.
    pub fn push_break(&mut self, sep: u32) {
        let at = self.ids.len();
        self.ids.push(sep);
        self.items.push(at..at + 1);
    }

    /// Appends the pieces of the next token (at least one).
    pub fn push_token(&mut self, pieces: &[u32]) {
        let at = self.ids.len();
        self.ids.extend_from_slice(pieces);
        self.items.push(at..self.ids.len());
        self.tokens.push(at..self.ids.len());
    }
}

/// The windows over `items`, as unit ranges: each takes whole items greedily
/// while it holds at most `capacity` units; the next starts at the first item
/// boundary at or after `start + stride` (and past `start`). Needs every item
/// to fit a window and `stride` to leave no gap (`stride + largest item <=
/// capacity + 1`); [`crate::EncoderConfig`] checks both when the model loads.
pub fn windows(items: &[Range<usize>], capacity: usize, stride: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut first = 0;
    while let Some(start_item) = items.get(first) {
        let start = start_item.start;
        let mut last = first;
        while let Some(item) = items.get(last + 1) {
            if item.end - start > capacity {
                break;
            }
            last += 1;
        }
        let end = items.get(last).map_or(start, |item| item.end);
        out.push(start..end);
        if last + 1 >= items.len() {
            break;
        }
        let next = items
            .iter()
            .enumerate()
            .skip(first + 1)
            .find(|(_, item)| item.start >= start + stride)
            .map_or(last + 1, |(index, _)| index);
        first = next.min(last + 1);
    }
    out
}

/// The owner window of each token: among the windows holding it whole, the
/// one maximising `min(p - s, e - 1 - p)` for its first unit `p` and the
/// window `s..e`, the earlier on ties.
pub fn owners(tokens: &[Range<usize>], windows: &[Range<usize>]) -> Vec<usize> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut low = 0;
    for token in tokens {
        while windows.get(low).is_some_and(|w| w.end < token.end) {
            low += 1;
        }
        let p = token.start;
        let mut best: Option<(usize, usize)> = None;
        for (index, window) in windows.iter().enumerate().skip(low) {
            if window.start > p {
                break;
            }
            if window.end < token.end {
                continue;
            }
            let margin = (p - window.start).min(window.end - 1 - p);
            if best.is_none_or(|(_, m)| margin > m) {
                best = Some((index, margin));
            }
        }
        out.push(best.map_or(low, |(index, _)| index));
    }
    out
}

/// The tokens each window owns, grouped by window in one pass.
pub(crate) struct OwnedTokens {
    /// Token indices ordered by owner window, in order within each.
    tokens: Vec<usize>,
    /// Where each window's tokens start in `tokens`, and the end.
    starts: Vec<usize>,
}

impl OwnedTokens {
    pub(crate) fn tokens(&self, window: usize) -> &[usize] {
        match (self.starts.get(window), self.starts.get(window + 1)) {
            (Some(&start), Some(&end)) => self.tokens.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }
}

/// [`OwnedTokens`] of `owners` (each token's owner window) over `windows`
/// windows: a counting sort, linear in both.
pub(crate) fn owned_tokens(owners: &[usize], windows: usize) -> OwnedTokens {
    let mut starts = vec![0usize; windows + 1];
    for &owner in owners {
        if let Some(count) = starts.get_mut(owner + 1) {
            *count += 1;
        }
    }
    let mut running = 0;
    for start in &mut starts {
        running += *start;
        *start = running;
    }
    let mut next = starts.clone();
    let mut tokens = vec![0usize; owners.len()];
    for (token, &owner) in owners.iter().enumerate() {
        if let Some(at) = next.get_mut(owner)
            && let Some(slot) = tokens.get_mut(*at)
        {
            *slot = token;
            *at += 1;
        }
    }
    OwnedTokens { tokens, starts }
}

/// The distance bucket of a candidate `d` tokens from the cue (0 inside it,
/// negative before): 0, then 1..=9 before and 10..=18 after, by |d| in 1, 2,
/// 3, 4, 5-7, 8-15, 16-31, 32-63, 64 or more.
pub fn bucket(d: isize) -> usize {
    let size = match d.unsigned_abs() {
        0 => return 0,
        n @ 1..=4 => n,
        5..=7 => 5,
        8..=15 => 6,
        16..=31 => 7,
        32..=63 => 8,
        _ => 9,
    };
    if d < 0 { size } else { size + 9 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Units for items of the given sizes; size 0 stands for a `[SEP]`.
    fn units_of(sizes: &[usize]) -> Units {
        let mut units = Units::default();
        for &size in sizes {
            if size == 0 {
                units.push_break(3);
            } else {
                units.push_token(&vec![7; size]);
            }
        }
        units
    }

    #[test]
    fn one_short_document_is_one_window() {
        let units = units_of(&[1, 2, 0, 1]);
        assert_eq!(units.ids, [7, 7, 7, 3, 7]);
        assert_eq!(units.tokens, [0..1, 1..3, 4..5]);
        let whole = windows(&units.items, 254, 192);
        assert_eq!((whole.len(), whole[0].clone()), (1, 0..5));
        assert_eq!(owners(&units.tokens, &whole), [0, 0, 0]);
        assert!(windows(&[], 254, 192).is_empty());
    }

    #[test]
    fn windows_overlap_and_owners_sit_mid_window() {
        let units = units_of(&[1; 10]);
        let found = windows(&units.items, 4, 2);
        assert_eq!(found, [0..4, 2..6, 4..8, 6..10]);
        assert_eq!(
            owners(&units.tokens, &found),
            [0, 0, 0, 1, 1, 2, 2, 3, 3, 3],
            "ties go to the earlier window"
        );
    }

    #[test]
    fn a_window_never_splits_a_token() {
        let units = units_of(&[3, 3, 3]);
        assert_eq!(windows(&units.items, 5, 2), [0..3, 3..6, 6..9]);
        let units = units_of(&[1, 3, 1, 1]);
        assert_eq!(
            windows(&units.items, 5, 2),
            [0..5, 4..6],
            "starts at a boundary >= 2"
        );
    }

    #[test]
    fn buckets_are_symmetric_and_log_spaced() {
        let cases = [
            (0, 0),
            (-1, 1),
            (-4, 4),
            (-5, 5),
            (-7, 5),
            (-8, 6),
            (-15, 6),
            (-16, 7),
            (-32, 8),
            (-63, 8),
            (-64, 9),
            (-1000, 9),
            (1, 10),
            (4, 13),
            (5, 14),
            (8, 15),
            (16, 16),
            (32, 17),
            (64, 18),
        ];
        for (d, b) in cases {
            assert_eq!(bucket(d), b, "d = {d}");
        }
    }

    proptest! {
        #[test]
        fn every_token_is_owned_by_one_window_that_holds_it(
            sizes in proptest::collection::vec(0usize..=16, 0..400),
        ) {
            let units = units_of(&sizes);
            let found = windows(&units.items, 254, 192);
            let bounds: Vec<usize> = units.items.iter().map(|i| i.start).collect();
            for window in &found {
                prop_assert!(window.end - window.start <= 254);
                prop_assert!(bounds.contains(&window.start));
                prop_assert!(window.end == units.ids.len() || bounds.contains(&window.end));
            }
            for pair in found.windows(2) {
                prop_assert!(pair[0].start < pair[1].start && pair[1].start <= pair[0].end);
            }
            if let (Some(first), Some(last)) = (found.first(), found.last()) {
                prop_assert_eq!(first.start, 0);
                prop_assert_eq!(last.end, units.ids.len());
            }
            let owned = owners(&units.tokens, &found);
            prop_assert_eq!(owned.len(), units.tokens.len());
            for (token, owner) in units.tokens.iter().zip(&owned) {
                let window = &found[*owner];
                prop_assert!(window.start <= token.start && token.end <= window.end);
            }
            // The encoder scores tokens batch by batch in this order.
            prop_assert!(owned.windows(2).all(|pair| pair[0] <= pair[1]));
            let grouped = owned_tokens(&owned, found.len());
            let mut seen = 0;
            for window in 0..found.len() {
                let tokens = grouped.tokens(window);
                prop_assert!(tokens.windows(2).all(|pair| pair[0] < pair[1]));
                prop_assert!(tokens.iter().all(|&t| owned[t] == window));
                seen += tokens.len();
            }
            prop_assert_eq!(seen, owned.len());
        }
    }
}
