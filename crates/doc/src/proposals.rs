//! What a model early in the pipeline proposes to the stages after it.
//!
//! Accurate mode's encoder reads the article once, in the attribution stage.
//! Its stance and hedge heads score what the stance and hedge stages decide
//! later, once the attributions, entities and sources those stages read are
//! there. Rather than run the encoder again, the attribution stage leaves the
//! heads' output on the document, as spaCy's `Doc.tensor` carries a
//! transformer's output to the components after it. Proposals are evidence
//! for a stage, not a layer: no writer writes them, a document read back from
//! JSON has none, and fast mode makes none.

use crate::{Span, StanceLabel};

/// The probability of each stance, in [`StanceLabel::ALL`]'s order.
pub type StanceProbabilities = [f32; StanceLabel::ALL.len()];

/// What a model proposes to the stance and hedge stages.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proposals {
    /// The stance probabilities of each attribution, in the document's
    /// attribution order; empty when no model proposes stances.
    pub stances: Vec<StanceProbabilities>,
    /// The writer's hedge cues a model tags, in text order.
    pub hedges: Vec<Span>,
}
