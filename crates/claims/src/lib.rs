//! Claims across a corpus: which statements of different articles carry the
//! same claim, where the claim first appeared, and what happened to its
//! attribution as it travelled.
//!
//! Each statement of an analysed article (an attribution's content, a
//! quotation that continues its speaker, a sentence in the writer's own
//! voice; [`statements`]) is reduced to a [`Fingerprint`]: a MinHash
//! signature of its word stems, with the figures and names it states. Two
//! statements carry one claim when their words are alike enough and their
//! figures and names agree ([`Fingerprint::same_claim`]); locality-sensitive
//! hashing of the signature finds the few candidates to compare, so grouping
//! a new statement costs the same however many are stored ([`ClaimIndex`] in
//! memory; the ledger keeps the same bands in its tables). Each appearance of
//! a claim then gets its [`Role`] from the first appearance's source and
//! stance ([`roles`]).
//!
//! ```
//! use attest_claims::{Appearance, Role, roles};
//! use attest_doc::StanceLabel;
//!
//! let said = |source: &'static str, stance| Appearance { source: Some(source), stance: Some(stance), hedged: false };
//! let travel = [
//!     said("inspector", StanceLabel::Claims),
//!     said("mayor", StanceLabel::Asserts),
//!     said("inspector", StanceLabel::Confirms),
//! ];
//! assert_eq!(roles(&travel), [Role::Origin, Role::Misattributed, Role::Hardened]);
//! ```

#![deny(missing_docs)]

mod eval;
mod fingerprint;
mod index;
mod role;
mod statement;
mod words;

pub use eval::{
    ClaimsReport, GoldAppearance, GoldError, Grouped, group, publication_order, read_gold, score,
};
pub use fingerprint::{BAND_ROWS, BANDS, Fingerprint, HASHES};
pub use index::{
    BandSlices, ClaimIndex, ClaimTraits, EXEMPLARS, MOST_CANDIDATES, PER_BAND_KEY, best_match,
};
pub use role::{Appearance, Role, roles, source_key};
pub use statement::{Placement, Said, Statement, in_grouping_order, statements};
pub use words::{ClaimWords, Figure, claim_words, stem};
