//! Grouping statements into claims as they come, in memory.
//!
//! Each statement's band keys point to it; a new statement's candidates are
//! the statements that share a band key with it, and it joins the claim of the
//! candidate that is most alike and carries the same claim ([`best_match`],
//! which the ledger's grouping shares). The work per statement is bounded
//! whatever the corpus: only a claim's first [`EXEMPLARS`] statements are
//! indexed (a claim repeated by a thousand wire copies would otherwise make a
//! thousand candidates of each new copy), and a statement looks at the
//! [`PER_BAND_KEY`] latest statements of each of its band keys at most, so
//! that a key common to many claims costs no more than a rare one. A true
//! match shares several bands, so a key cut short rarely loses it. Of the
//! statements found, it compares the [`MOST_CANDIDATES`] found under the most
//! of its keys: unrelated statements that share one frequent stem meet in
//! one band often and in two seldom, and without a bound those chance
//! candidates grew with the corpus towards 63 keys of eight.

use std::collections::HashMap;

use crate::fingerprint::Fingerprint;
use crate::words::Figure;

/// The name words and years of all of a claim's statements, each sorted and
/// each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimTraits {
    /// The name words.
    pub names: Vec<String>,
    /// The years.
    pub years: Vec<Figure>,
}

impl ClaimTraits {
    /// Adds a statement's names and years.
    pub fn add(&mut self, fingerprint: &Fingerprint) {
        self.names.extend(fingerprint.names.iter().cloned());
        self.names.sort_unstable();
        self.names.dedup();
        self.years.extend(&fingerprint.years);
        self.years.sort_unstable();
        self.years.dedup();
    }
}

/// How many of a claim's statements are indexed, and so compared with new
/// ones: enough to hold its different wordings.
pub const EXEMPLARS: usize = 8;

/// How many statements of one band key are candidates: the latest indexed,
/// which are all that a key keeps.
pub const PER_BAND_KEY: usize = 8;

/// How many statements, of those its band keys find (each key cut to its
/// [`PER_BAND_KEY`] latest), a new statement is compared with: those found
/// under the most keys, the latest first among equals.
pub const MOST_CANDIDATES: usize = 16;

/// The claim, among candidates that carry the same claim as `fingerprint`,
/// whose statement is most alike; ties go to the lowest claim number, so the
/// result does not hang on the candidates' order. `traits_of` gives the name
/// words and years of all of a claim's statements: a statement at odds
/// with them is about something else ("the Riverton depot is 14 months
/// late" against a claim about the Harbourline line), even where it matches
/// one of the claim's statements that names nothing or leaves the year out
/// ([`Fingerprint::apart_from`]).
pub fn best_match<'a, 'n>(
    fingerprint: &Fingerprint,
    candidates: impl IntoIterator<Item = (u64, &'a Fingerprint)>,
    traits_of: impl Fn(u64) -> Option<&'n ClaimTraits>,
) -> Option<u64> {
    let mut best: Option<(f64, u64)> = None;
    for (claim, candidate) in candidates {
        let apart =
            traits_of(claim).is_some_and(|held| fingerprint.apart_from(&held.names, &held.years));
        if apart || !fingerprint.same_claim(candidate) {
            continue;
        }
        let alike = fingerprint.containment(candidate);
        let better = match best {
            None => true,
            Some((score, held)) => alike > score || (alike == score && claim < held),
        };
        if better {
            best = Some((alike, claim));
        }
    }
    best.map(|(_, claim)| claim)
}

/// The latest [`PER_BAND_KEY`] statements of each band key, all that a
/// lookup reads: the in-memory index's own, and, in the ledger, the slices
/// of `claim_bands` that a batch's statements read, with the batch's own
/// statements added as they are grouped. Statements are added in the order
/// they are stored, so the latest are the last added.
#[derive(Clone, Debug)]
pub struct BandSlices<S> {
    slices: HashMap<u64, Vec<S>>,
}

impl<S> Default for BandSlices<S> {
    fn default() -> BandSlices<S> {
        BandSlices {
            slices: HashMap::new(),
        }
    }
}

impl<S: Copy + Ord> BandSlices<S> {
    /// No statements yet.
    pub fn new() -> BandSlices<S> {
        BandSlices::default()
    }

    /// Indexes a statement under each of its band keys, once a key, and
    /// pushes the oldest of a full key out.
    pub fn add(&mut self, keys: &[u64], statement: S) {
        for &key in keys {
            let slice = self.slices.entry(key).or_default();
            if slice.last() == Some(&statement) {
                continue;
            }
            if slice.len() == PER_BAND_KEY {
                slice.remove(0);
            }
            slice.push(statement);
        }
    }

    /// The statements a key holds, the oldest first.
    pub fn slice(&self, key: u64) -> &[S] {
        self.slices.get(&key).map_or(&[], Vec::as_slice)
    }

    /// The [`MOST_CANDIDATES`] statements found under the most of `keys`,
    /// the latest first among equals.
    pub fn candidates(&self, keys: &[u64]) -> Vec<S> {
        let mut found: Vec<S> = keys
            .iter()
            .flat_map(|&key| self.slice(key))
            .copied()
            .collect();
        found.sort_unstable();
        let mut shared: Vec<(usize, S)> = found
            .chunk_by(|a, b| a == b)
            .filter_map(|keys| Some((keys.len(), *keys.first()?)))
            .collect();
        shared.sort_unstable_by(|a, b| b.cmp(a));
        shared
            .into_iter()
            .take(MOST_CANDIDATES)
            .map(|(_, statement)| statement)
            .collect()
    }
}

/// Claims grouped so far, with the statements that carry them.
#[derive(Debug, Default)]
pub struct ClaimIndex {
    bands: BandSlices<usize>,
    members: Vec<(u64, Fingerprint)>,
    /// The names and years of each claim's exemplars, and how many
    /// statements it has, by claim number less one.
    claims: Vec<(ClaimTraits, usize)>,
}

impl ClaimIndex {
    /// An empty index.
    pub fn new() -> ClaimIndex {
        ClaimIndex::default()
    }

    /// The claim a statement of this fingerprint carries, among those
    /// already grouped.
    pub fn find(&self, fingerprint: &Fingerprint) -> Option<u64> {
        best_match(
            fingerprint,
            self.bands
                .candidates(&fingerprint.band_keys())
                .into_iter()
                .filter_map(|member| self.members.get(member))
                .map(|(claim, print)| (*claim, print)),
            |claim| self.traits_of(claim),
        )
    }

    fn traits_of(&self, claim: u64) -> Option<&ClaimTraits> {
        usize::try_from(claim - 1)
            .ok()
            .and_then(|at| self.claims.get(at))
            .map(|(traits, _)| traits)
    }

    /// Adds a statement: to the claim it carries, or, when it carries none
    /// known and `may_start` says it can, to a new one. Returns its claim.
    pub fn add(&mut self, fingerprint: Fingerprint, may_start: bool) -> Option<u64> {
        let claim = match self.find(&fingerprint) {
            Some(claim) => claim,
            None if may_start => {
                self.claims.push((ClaimTraits::default(), 0));
                self.claims.len() as u64
            }
            None => return None,
        };
        let Some((traits, statements)) = usize::try_from(claim - 1)
            .ok()
            .and_then(|at| self.claims.get_mut(at))
        else {
            return Some(claim);
        };
        *statements += 1;
        if *statements <= EXEMPLARS {
            traits.add(&fingerprint);
            self.bands.add(&fingerprint.band_keys(), self.members.len());
            self.members.push((claim, fingerprint));
        }
        Some(claim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::ClaimWords;

    fn print(stems: &str, figure: f64) -> Fingerprint {
        in_years(stems, figure, &[])
    }

    fn in_years(stems: &str, figure: f64, years: &[u16]) -> Fingerprint {
        let figure = Figure::of(figure, "").unwrap();
        let mut stems: Vec<String> = stems.split_whitespace().map(str::to_string).collect();
        stems.push(format!("#{}", figure.to_bits()));
        stems.sort();
        Fingerprint::of(&ClaimWords {
            stems,
            figures: vec![figure],
            names: Vec::new(),
            years: years.iter().map(|y| Figure::year(*y)).collect(),
        })
        .unwrap()
    }

    #[test]
    fn a_statement_that_leaves_the_year_out_bridges_no_two_years() {
        let mut index = ClaimIndex::new();
        let season = index.add(
            in_years("wage took revenue club season", 91.0, &[2024]),
            true,
        );
        let vague = index.add(in_years("wage took revenue club", 91.0, &[]), true);
        let earlier = index.add(
            in_years("wage took revenue club season", 91.0, &[2022]),
            true,
        );
        assert_eq!(vague, season);
        assert_ne!(
            earlier, season,
            "it matches the vague statement, not its claim"
        );
        let again = index.add(
            in_years("wage took revenue club last year", 91.0, &[2024, 2025]),
            true,
        );
        assert_eq!(again, season, "a year more is no year less");
    }

    #[test]
    fn band_slices_rank_candidates_by_keys_shared_then_latest() {
        let mut slices = BandSlices::new();
        slices.add(&[1, 2, 3], 10);
        slices.add(&[1, 2], 11);
        slices.add(&[3, 3, 4], 12);
        assert_eq!(slices.slice(3), &[10, 12], "a key repeated indexes once");
        assert_eq!(slices.candidates(&[1, 2, 3]), vec![10, 11, 12]);
        assert_eq!(slices.candidates(&[1, 3, 4]), vec![12, 10, 11]);
        assert_eq!(slices.candidates(&[5]), Vec::<i64>::new());
        for statement in 13..13 + PER_BAND_KEY as i64 {
            slices.add(&[1], statement);
        }
        assert_eq!(slices.slice(1).len(), PER_BAND_KEY);
        assert_eq!(slices.slice(1).first(), Some(&13), "the oldest pushed out");
        let many: Vec<u64> = (100..100 + 2 * MOST_CANDIDATES as u64).collect();
        for (statement, key) in many.iter().enumerate() {
            slices.add(&[*key], statement as i64);
        }
        let found = slices.candidates(&many);
        assert_eq!(found.len(), MOST_CANDIDATES);
        assert_eq!(found.first(), Some(&(2 * MOST_CANDIDATES as i64 - 1)));
    }

    #[test]
    fn a_band_key_keeps_only_its_latest_statements() {
        let mut index = ClaimIndex::new();
        let claims: Vec<Option<u64>> = (1..=12)
            .map(|figure| {
                index.add(
                    print("plant fail safety inspect since", figure as f64),
                    true,
                )
            })
            .collect();
        assert_eq!(
            claims,
            (1..=12).map(Some).collect::<Vec<_>>(),
            "figures differ"
        );
        let longest = index.bands.slices.values().map(Vec::len).max();
        assert_eq!(longest, Some(PER_BAND_KEY));
        assert_eq!(
            index.find(&print("plant fail safety inspect since", 12.0)),
            Some(12)
        );
    }

    #[test]
    fn statements_join_the_claim_they_carry_and_others_start_their_own() {
        let mut index = ClaimIndex::new();
        let first = index.add(print("plant fail safety inspect since", 11.0), true);
        let again = index.add(print("plant fail safety inspect repeated", 11.0), true);
        let other = index.add(print("plant fail safety inspect since", 7.0), true);
        assert_eq!(first, Some(1));
        assert_eq!(again, Some(1));
        assert_eq!(other, Some(2));
        assert_eq!(
            index.add(print("council vote budget school", 3.0), false),
            None
        );
        assert_eq!(
            index.add(print("plant fail safety inspect since", 7.0), false),
            Some(2)
        );
    }
}
