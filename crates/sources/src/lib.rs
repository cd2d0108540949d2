//! Sources, stance and hedges: who each attribution belongs to, what kind of
//! source that is, how firmly the article puts what it says, and what the
//! article asserts only on hearsay.
//!
//! Three pipeline stages build on the attributions layer, whichever stage filled
//! it:
//!
//! - [`StanceClassifier`] (`stances`): one stance per attribution, from its cue
//!   and the words around it, with the words that decided it ([`mod@stance`] rules).
//! - [`SourceResolver`] (`sources`): the canonical sources of the article, each
//!   with its type, mentions, descriptors, stated gender and attributions
//!   ([`mod@resolve`] rules).
//! - [`HedgeFinder`] (`hedges`): unattributed hedges, cue and scope.
//! - [`QuotationFinder`] (`quotations`): every passage in quotation marks, with
//!   the attribution and source it belongs to, the speaker a floating quote
//!   continues, or why it has none ([`mod@quote`] rules).
//!
//! All four are rules over word lists: deterministic, linear in the article
//! apart from small searches over its sources, and free of regexes.
//! [`eval_gold`] scores them on the hand-written gold set in
//! `tests/data/gold`, and [`source_distribution`] describes how a collection
//! sources its attributions.
//!
//! ```
//! use attest_doc::{Article, Attribution, AttributionKind, Doc, Limits, Span, Stage, StanceLabel, SourceKind};
//! use attest_sources::{HedgeFinder, SourceResolver, StanceClassifier};
//!
//! let text = "Mr. Hill declined to confirm the deal. The firm reportedly paid $2 million.";
//! let mut doc = Doc::new(Article::new("a1", text));
//! doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT)).unwrap();
//! attest_tag::Tagger::shared().unwrap().run(&mut doc).unwrap();
//! attest_entities::EntityTagger::shared().unwrap().run(&mut doc).unwrap();
//! let at = |s: &str| { let i = text.find(s).unwrap(); Span::try_new_in(text, i, i + s.len()).unwrap() };
//! doc.set_attributions(vec![Attribution {
//!     source: vec![at("Mr. Hill")],
//!     cue: vec![at("declined to confirm")],
//!     content: vec![at("the deal")],
//!     kind: AttributionKind::Indirect,
//!     confidence: 1.0,
//! }]).unwrap();
//! StanceClassifier::rules().run(&mut doc).unwrap();
//! SourceResolver::rules().run(&mut doc).unwrap();
//! HedgeFinder::rules().run(&mut doc).unwrap();
//!
//! assert_eq!(doc.stances()[0].label, StanceLabel::Declines);
//! let hill = &doc.sources()[0];
//! assert_eq!((hill.name.as_str(), hill.kind), ("Mr. Hill", SourceKind::Person));
//! assert_eq!(hill.gender, Some(attest_doc::Gender::Masculine), "from the honorific");
//! assert_eq!(doc.span_text(doc.hedges()[0].cue), "reportedly");
//! ```

#![deny(missing_docs)]

pub mod classifier;
mod distribution;
mod gold;
mod hedge;
mod lexicon;
pub mod link;
pub mod quote;
pub mod resolve;
pub mod stance;
#[cfg(test)]
mod testing;
pub mod types;
mod words;

pub use distribution::{Distribution, source_distribution};
pub use gold::{
    Accuracy, GoldArticle, GoldError, GoldHedge, GoldRecord, GoldSource, HedgeScore, Mistake,
    Prepare, SourcesReport, analyse_gold, eval_gold, evaluate, parse_gold, read_gold,
};
pub use hedge::{HedgeFinder, find_hedges};
pub mod hedges {
    //! The hedge model's training interface.
    pub use crate::hedge::{CLASSES, MODEL_KIND, training_examples, triggers};
}
pub use quote::{QuotationFinder, find_quotations};
pub use resolve::{Resolution, Route, SourceResolver, is_pronoun_name, resolve};
pub use stance::StanceClassifier;

/// The source stages that learn from attest's labels, with their models: the
/// stance classifier, the resolver with its source types, and the hedge
/// finder.
#[derive(Clone, Debug)]
pub struct SourcingModels {
    /// The stance stage (stance.model).
    pub stances: StanceClassifier,
    /// The source stage (source-type.model, source-link.model).
    pub sources: SourceResolver,
    /// The hedge stage (hedges.model).
    pub hedges: HedgeFinder,
}

impl SourcingModels {
    /// The models built into attest.
    pub fn bundled() -> Result<SourcingModels, attest_learn::ModelError> {
        Ok(SourcingModels {
            stances: StanceClassifier::bundled()?,
            sources: SourceResolver::bundled()?,
            hedges: HedgeFinder::bundled()?,
        })
    }

    /// The bundled models, loaded on first use and shared by every caller.
    pub fn shared() -> Result<&'static SourcingModels, attest_learn::ModelError> {
        static SHARED: attest_learn::Bundled<SourcingModels> =
            attest_learn::Bundled::new(SourcingModels::bundled);
        SHARED.get()
    }
}
