//! Window states read back after the pass that encoded them: kept ones from
//! the analysis, others by encoding their batch again.

use crate::{Analysis, Encoder, EncoderError};

/// The states of a window for the pair and stance heads: the analysis's own
/// where it kept them, else the window's batch encoded again. It holds one
/// such batch at a time; cues come in order, so a pass over them encodes each
/// batch again at most about once.
pub(crate) struct WindowStates<'a> {
    pub(crate) encoder: &'a Encoder,
    pub(crate) analysis: &'a Analysis,
    pub(crate) again: Option<(usize, Vec<Vec<f32>>)>,
}

impl<'a> WindowStates<'a> {
    pub(crate) fn new(encoder: &'a Encoder, analysis: &'a Analysis) -> WindowStates<'a> {
        WindowStates {
            encoder,
            analysis,
            again: None,
        }
    }

    /// The states of window `window`, `[units, hidden]` row-major.
    pub(crate) fn get(&mut self, window: usize) -> Result<&[f32], EncoderError> {
        let analysis = self.analysis;
        if let Some(kept) = analysis.states.get(window).filter(|s| !s.is_empty()) {
            return Ok(kept);
        }
        let (index, slot) = crate::model::batch_of(window);
        let batch = analysis
            .batches
            .get(index)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if self.again.as_ref().is_none_or(|(held, _)| *held != index) {
            let states = self.encoder.network.encode_batch(
                &analysis.units.ids,
                &analysis.windows,
                batch,
                &self.encoder.vocab,
            )?;
            self.again = Some((index, states));
        }
        Ok(self
            .again
            .as_ref()
            .and_then(|(_, states)| states.get(slot))
            .map(Vec::as_slice)
            .unwrap_or_default())
    }
}
