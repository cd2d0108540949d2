//! A statement's fingerprint: a MinHash signature of its stems with the
//! figures and names it states, and the rule that says whether two
//! fingerprints carry the same claim.
//!
//! The signature holds, for each of [`HASHES`] hash functions, the least hash
//! of the statement's stems; two signatures agree at a place with the
//! probability that is the Jaccard similarity of the two stem sets. Locality-
//! sensitive hashing cuts the signature into [`BANDS`] bands of [`BAND_ROWS`]
//! places: statements that agree on a whole band are candidates, so finding
//! a statement's claim looks at a few candidates, not at every statement
//! stored. With two rows a band, statements of similarity 0.2 meet in a band
//! nine times in ten, and unrelated ones (similarity 0.01) one time in 160.
//! Candidates are compared on their stems themselves, kept as 32-bit hashes:
//! a short statement's signature says too little to decide on.
//!
//! Candidates are then held to the figures and names: a paraphrase keeps the
//! claim's numbers and who or what it is about, so different figures ("7
//! inspections" and "11") or different names ("the Dunmore plant" and "the
//! Riverton plant") keep two statements apart however alike their words are.

use attest_learn::fnv1a64;

use crate::words::{ClaimWords, Figure};

/// The number of hash functions of a signature.
pub const HASHES: usize = 126;
/// The places of the signature in one band.
pub const BAND_ROWS: usize = 2;
/// The number of bands.
pub const BANDS: usize = HASHES / BAND_ROWS;

/// The least similarity (estimated share of stems in common with the
/// smaller statement) at which two statements with the same figures carry
/// one claim.
const CONTAINMENT_WITH_FIGURES: f64 = 0.3;
/// The same for two statements that state no figure, whose words alone
/// must vouch for the match.
const CONTAINMENT_WITHOUT_FIGURES: f64 = 0.6;
/// The fewest stems (figures included) two statements must share, so that
/// two short fragments do not make a claim of one common word.
const LEAST_SHARED_STEMS: usize = 3;

/// What is kept of a statement to compare it with others.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fingerprint {
    /// The 32-bit hashes of its stems, sorted, each once: a few bytes a
    /// word, which compare exactly where a signature only estimates.
    pub stems: Vec<u32>,
    /// The figures it states, sorted.
    pub figures: Vec<Figure>,
    /// The words of the names it holds, sorted.
    pub names: Vec<String>,
    /// The years it names, sorted ([`ClaimWords::years`]).
    pub years: Vec<Figure>,
}

impl Fingerprint {
    /// The fingerprint of a statement's words; `None` for a statement with
    /// too few stems to carry a claim of its own.
    pub fn of(words: &ClaimWords) -> Option<Fingerprint> {
        if words.stems.len() < 3 {
            return None;
        }
        let mut stems: Vec<u32> = words
            .stems
            .iter()
            .map(|stem| fnv1a64(stem.as_bytes()) as u32)
            .collect();
        stems.sort_unstable();
        stems.dedup();
        Some(Fingerprint {
            stems,
            figures: words.figures.clone(),
            names: words.names.clone(),
            years: words.years.clone(),
        })
    }

    /// The MinHash signature of the stems: for each of [`HASHES`] hash
    /// functions, the least hash of a stem.
    pub fn signature(&self) -> Vec<u32> {
        let mut signature = vec![u32::MAX; HASHES];
        for stem in &self.stems {
            for (place, least) in signature.iter_mut().enumerate() {
                *least = (*least).min(mix(u64::from(*stem), place as u64));
            }
        }
        signature
    }

    /// The keys of its signature's bands: two statements that share a key
    /// are candidates for one claim. Each key holds its band's number, so
    /// bands never meet across places.
    pub fn band_keys(&self) -> Vec<u64> {
        self.signature()
            .chunks_exact(BAND_ROWS)
            .enumerate()
            .map(|(band, rows)| {
                let mut bytes = Vec::with_capacity(4 + 4 * BAND_ROWS);
                bytes.extend_from_slice(&(band as u32).to_le_bytes());
                for row in rows {
                    bytes.extend_from_slice(&row.to_le_bytes());
                }
                // Stored as SQL integers, which are signed 64-bit.
                fnv1a64(&bytes) & (i64::MAX as u64)
            })
            .collect()
    }

    /// How many stems the two share.
    fn shared(&self, other: &Fingerprint) -> usize {
        let (mut a, mut b) = (self.stems.iter().peekable(), other.stems.iter().peekable());
        let mut shared = 0;
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.cmp(y) {
                std::cmp::Ordering::Less => {
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    b.next();
                }
                std::cmp::Ordering::Equal => {
                    shared += 1;
                    a.next();
                    b.next();
                }
            }
        }
        shared
    }

    /// How alike the two are, from 0 to 1: the share of the smaller
    /// statement's stems that the other has too, so that a fragment of a
    /// claim quoted alone still meets the whole.
    pub fn containment(&self, other: &Fingerprint) -> f64 {
        self.shared(other) as f64 / self.stems.len().min(other.stems.len()).max(1) as f64
    }

    /// Whether this statement is about something else than the statements
    /// whose name words and years (each sorted) are `names` and `years`: it
    /// names things and none of `names`, or it names a year none of them
    /// names while they name one it does not. Held against all of a claim's
    /// statements at once, so that a statement that leaves the year out
    /// ("wages took 91 percent last season") cannot bridge two claims of
    /// different years. Other figures are held only pair by pair: a long
    /// sentence states figures of other things beside its claim's.
    pub fn apart_from(&self, names: &[String], years: &[Figure]) -> bool {
        apart(&self.names, names) || conflict(&self.years, years)
    }

    /// Whether the two carry the same claim (see the module docs).
    pub fn same_claim(&self, other: &Fingerprint) -> bool {
        // A statement with figures and one without are two claims: "the
        // plant failed inspections" would otherwise bridge "failed 11" and
        // "failed 7", which a figure-less statement matches equally.
        if self.figures.is_empty() != other.figures.is_empty()
            || apart(&self.names, &other.names)
            || conflict(&self.figures, &other.figures)
        {
            return false;
        }
        let least = if self.figures.is_empty() {
            CONTAINMENT_WITHOUT_FIGURES
        } else {
            CONTAINMENT_WITH_FIGURES
        };
        self.shared(other) >= LEAST_SHARED_STEMS && self.containment(other) >= least
    }
}

/// Whether two sorted sets of figures each hold one the other lacks: the
/// figures of two different claims. One set inside the other is a statement
/// that leaves a figure out, which paraphrase does.
fn conflict<T: Ord>(a: &[T], b: &[T]) -> bool {
    let lacks = |x: &[T], y: &[T]| x.iter().any(|item| y.binary_search(item).is_err());
    !a.is_empty() && !b.is_empty() && lacks(a, b) && lacks(b, a)
}

/// Whether two sorted sets of name words share none: statements about
/// different people or places. Names are written in fuller and shorter forms
/// ("the Belcourt Chemicals plant", "the Belcourt plant") and the entity
/// layer finds some and misses others, so one word in common is enough.
fn apart(a: &[String], b: &[String]) -> bool {
    !a.is_empty() && !b.is_empty() && !a.iter().any(|word| b.binary_search(word).is_ok())
}

/// The hash of a stem under the `place`-th hash function: SplitMix64's
/// finalizer of the stem's hash and the place, kept to 32 bits.
fn mix(base: u64, place: u64) -> u32 {
    let mut z = base ^ place.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(stems: &str, figures: &[f64], names: &str) -> ClaimWords {
        let mut stems: Vec<String> = stems.split_whitespace().map(str::to_string).collect();
        let figures: Vec<Figure> = figures.iter().filter_map(|v| Figure::of(*v, "")).collect();
        stems.extend(figures.iter().map(|f| format!("#{}", f.to_bits())));
        stems.sort();
        stems.dedup();
        let mut names: Vec<String> = names.split_whitespace().map(str::to_string).collect();
        names.sort();
        ClaimWords {
            stems,
            figures,
            names,
            years: Vec::new(),
        }
    }

    fn print(stems: &str, figures: &[f64], names: &str) -> Fingerprint {
        Fingerprint::of(&words(stems, figures, names)).unwrap()
    }

    #[test]
    fn paraphrases_with_the_same_figures_and_names_carry_one_claim() {
        let said = print(
            "dunmore plant fail safety inspect since",
            &[11.0],
            "dunmore",
        );
        let retold = print(
            "dunmore water plant fail inspect past year",
            &[11.0],
            "dunmore",
        );
        let fragment = print("plant fail inspect", &[11.0], "");
        assert!(said.same_claim(&retold));
        assert!(retold.same_claim(&said));
        assert!(fragment.same_claim(&said));
    }

    #[test]
    fn other_figures_or_other_names_keep_alike_statements_apart() {
        let said = print(
            "dunmore plant fail safety inspect since",
            &[11.0],
            "dunmore",
        );
        let fewer = print("dunmore plant fail safety inspect since", &[7.0], "dunmore");
        let elsewhere = print(
            "riverton plant fail safety inspect since",
            &[11.0],
            "riverton",
        );
        let unrelated = print("council approv budget school librar", &[2.0], "dunmore");
        assert!(!said.same_claim(&fewer));
        assert!(!said.same_claim(&elsewhere));
        assert!(!said.same_claim(&unrelated));
    }

    #[test]
    fn alike_statements_share_bands_and_unrelated_ones_none() {
        let a = print("a b c d e f g h i j", &[], "");
        let b = print("a b c d e f g h x y", &[], "");
        let c = print("k l m n o p q r s t", &[], "");
        let shared = |x: &Fingerprint, y: &Fingerprint| {
            x.band_keys()
                .iter()
                .zip(y.band_keys())
                .filter(|(p, q)| **p == *q)
                .count()
        };
        // Jaccard 8/12: each band of two rows agrees with probability 0.44.
        assert!(shared(&a, &b) > BANDS / 5, "{}", shared(&a, &b));
        assert_eq!(shared(&a, &c), 0);
        assert_eq!(shared(&a, &a), BANDS);
        assert_eq!(a.containment(&b), 0.8);
    }

    #[test]
    fn a_statement_of_two_stems_has_no_fingerprint() {
        assert_eq!(Fingerprint::of(&words("plant fail", &[], "")), None);
    }
}
