//! The contract between the pipeline and its stages.

use crate::{Budget, Doc, Exhausted, Layer, LayerError};

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

    /// [`Stage::run`] within `budget`: stops, assigning nothing, once the
    /// budget is exhausted. The default checks the budget once, before
    /// running; a stage with long loops overrides it to check inside them.
    fn run_within(&self, doc: &mut Doc, budget: &Budget) -> Result<(), StageError> {
        budget.check()?;
        Ok(self.run(doc)?)
    }
}

/// Why a stage assigned no layers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StageError {
    /// The layers it made do not fit the document: a bug.
    #[error(transparent)]
    Layer(#[from] LayerError),
    /// The article's budget ran out, or its analysis was cancelled.
    #[error(transparent)]
    Exhausted(#[from] Exhausted),
}
