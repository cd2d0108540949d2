//! Words that hedge what an article itself asserts (`data/hedges.tsv`).

use crate::tagged::{Use, use_list};

/// How a word hedges (the file's `uses` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum HedgeUse {
    /// An adverb of hearsay, a hedge by itself ("reportedly").
    Hearsay,
    /// An adverb of likelihood, a hedge by itself ("probably").
    Likelihood,
    /// A modal hedging before "have" or "be" ("may have recorded").
    Modal,
    /// A participle hedging between "be" and "to" ("is believed to").
    Raising,
    /// A verb hedging before "to" ("appears to").
    Seem,
    /// A word that may stand between "according to" and "reports".
    ReportModifier,
}

use_list!(HedgeUse, "hedges.tsv", lowercase: true);

/// Whether `word`, lowercase, hedges in that use.
pub fn hedge_word(word: &str, use_: HedgeUse) -> bool {
    use_.listed(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<HedgeUse>().unwrap();
        assert!(hedge_word("reportedly", HedgeUse::Hearsay));
        assert!(hedge_word("believed", HedgeUse::Raising));
        assert!(!hedge_word("Reportedly", HedgeUse::Hearsay));
    }
}
