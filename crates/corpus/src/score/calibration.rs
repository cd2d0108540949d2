//! How far an attribution's confidence is from how often such attributions
//! are right: the reliability table and its expected calibration error.
//!
//! Each predicted attribution falls into one of [`BINS`] equal bins of
//! confidence; a bin's accuracy is the share of its attributions that match a
//! gold one under the attribution protocol. The expected calibration error is
//! the mean, weighted by the bins' sizes, of the gap between each bin's mean
//! confidence and its accuracy: 0 when confidence is the chance of being right.

use std::fmt;

use serde::Serialize;

/// Bins of confidence, each a tenth wide.
pub const BINS: usize = 10;

/// What one bin of confidence holds.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct Bin {
    /// Attributions in it.
    pub count: usize,
    /// The sum of their confidences.
    pub confidence: f64,
    /// How many of them match a gold attribution.
    pub right: usize,
}

impl Bin {
    /// The mean confidence of its attributions (0 when empty).
    pub fn mean_confidence(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.confidence / self.count as f64
        }
    }

    /// The share of its attributions that are right (0 when empty).
    pub fn accuracy(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.right as f64 / self.count as f64
        }
    }
}

/// Confidence against correctness, in bins.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Reliability {
    /// The bins, lowest confidence first.
    pub bins: [Bin; BINS],
}

impl Reliability {
    /// Counts one attribution of `confidence` that is `right` or not.
    pub fn add(&mut self, confidence: f32, right: bool) {
        let confidence = f64::from(confidence).clamp(0.0, 1.0);
        let index = ((confidence * BINS as f64) as usize).min(BINS - 1);
        if let Some(bin) = self.bins.get_mut(index) {
            bin.count += 1;
            bin.confidence += confidence;
            bin.right += usize::from(right);
        }
    }

    /// The expected calibration error (0 when nothing was added).
    pub fn error(&self) -> f64 {
        let total: usize = self.bins.iter().map(|b| b.count).sum();
        if total == 0 {
            return 0.0;
        }
        let gaps: f64 = self
            .bins
            .iter()
            .map(|b| (b.confidence - b.right as f64).abs())
            .sum();
        gaps / total as f64
    }
}

impl Serialize for Reliability {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("Reliability", 2)?;
        state.serialize_field("expected_calibration_error", &self.error())?;
        state.serialize_field("bins", &self.bins)?;
        state.end()
    }
}

impl fmt::Display for Reliability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "confidence against correctness (attribution protocol): expected calibration error {:.3}",
            self.error()
        )?;
        writeln!(
            f,
            "{:<10} {:>7} {:>10} {:>9}",
            "bin", "count", "mean conf", "accuracy"
        )?;
        for (index, bin) in self.bins.iter().enumerate().filter(|(_, b)| b.count > 0) {
            writeln!(
                f,
                "{:<10} {:>7} {:>10.3} {:>9.3}",
                format!(
                    "{:.1}-{:.1}",
                    index as f64 / BINS as f64,
                    (index + 1) as f64 / BINS as f64
                ),
                bin.count,
                bin.mean_confidence(),
                bin.accuracy()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_is_the_weighted_gap_between_confidence_and_accuracy() {
        let mut reliability = Reliability::default();
        for right in [true, true, false, false] {
            reliability.add(0.95, right);
        }
        // One bin: mean confidence 0.95, accuracy 0.5.
        assert!((reliability.error() - 0.45).abs() < 1e-6);
        let mut calibrated = Reliability::default();
        for right in [true, false] {
            calibrated.add(0.5, right);
        }
        assert!(calibrated.error() < 1e-6);
        assert_eq!(Reliability::default().error(), 0.0);
    }
}
