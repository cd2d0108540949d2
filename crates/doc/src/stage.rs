//! The contract between the pipeline and its stages.

use crate::{Doc, Layer, LayerError};

/// One step of analysis: reads some layers of a [`Doc`] and assigns others.
///
/// A stage declares what it reads and what it writes as constants, so a pipeline
/// can check its order when it is built: a stage never finds a layer it needs
/// missing at run time.
pub trait Stage {
    /// A short name, for messages and diagnostics.
    const NAME: &'static str;
    /// The layers it reads; an earlier stage must assign each.
    const REQUIRES: &'static [Layer];
    /// The layers it assigns.
    const ASSIGNS: &'static [Layer];

    /// Analyses `doc` and assigns [`Stage::ASSIGNS`].
    ///
    /// A stage does not fail on odd text: it annotates what it can. An error here
    /// means the stage produced a layer that does not fit the document, a bug the
    /// pipeline reports as a diagnostic on that article.
    fn run(&self, doc: &mut Doc) -> Result<(), LayerError>;
}
