//! Confidence as a probability: a monotone map from a finder's raw confidence
//! to how often an attribution of that confidence is right under the
//! attribution protocol, fitted on PolNeAR dev by
//! `attest eval attributions DEV --fit-calibration FILE` and shipped beside
//! the model it calibrates (`models/attributions.calibration` for the fast
//! mode, `calibration.tsv` in the encoder's directory for accurate mode).
//!
//! The fit is isotonic: the accuracy of each bin of raw confidence, pooled
//! with its neighbours wherever it would fall as confidence rises, and the
//! map runs straight between the bins' mean confidences, flat past the ends.

use attest_doc::Attribution;

/// A monotone map from raw confidence to the chance of being right.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    /// Raw confidence and probability, both rising; empty for no change.
    points: Vec<(f32, f32)>,
}

/// Why a calibration file does not read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CalibrationError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Calibration {
    /// The map that changes nothing: raw confidences stay as they are.
    pub fn identity() -> Calibration {
        Calibration::default()
    }

    /// Fits the map to bins of raw confidence, each its mean confidence, the
    /// share of its attributions that were right, and how many it held.
    pub fn fit(bins: impl IntoIterator<Item = (f64, f64, usize)>) -> Calibration {
        // Pool adjacent violators: blocks of (weight, mean x, mean y).
        let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
        for (x, y, count) in bins.into_iter().filter(|b| b.2 > 0) {
            let mut block = (count as f64, x, y);
            while let Some(&last) = blocks.last() {
                if last.2 < block.2 {
                    break;
                }
                blocks.pop();
                let weight = last.0 + block.0;
                block = (
                    weight,
                    (last.1 * last.0 + block.1 * block.0) / weight,
                    (last.2 * last.0 + block.2 * block.0) / weight,
                );
            }
            blocks.push(block);
        }
        Calibration {
            points: blocks
                .into_iter()
                .map(|(_, x, y)| (x as f32, y as f32))
                .collect(),
        }
    }

    /// The probability for a raw confidence.
    pub fn apply(&self, raw: f32) -> f32 {
        let (Some(first), Some(last)) = (self.points.first(), self.points.last()) else {
            return raw;
        };
        if raw <= first.0 {
            return first.1;
        }
        if raw >= last.0 {
            return last.1;
        }
        let after = self.points.partition_point(|p| p.0 <= raw);
        match (
            self.points.get(after.wrapping_sub(1)),
            self.points.get(after),
        ) {
            (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (raw - a.0) / (b.0 - a.0),
            (Some(a), _) => a.1,
            _ => raw,
        }
    }

    /// Replaces each attribution's confidence by its probability.
    pub fn calibrate(&self, attributions: &mut [Attribution]) {
        for attribution in attributions {
            attribution.confidence = self.apply(attribution.confidence);
        }
    }

    /// Reads the text [`Calibration::to_text`] writes: `#` comments, then one
    /// `raw<TAB>probability` line per point, both rising.
    pub fn parse(text: &str) -> Result<Calibration, CalibrationError> {
        let mut points: Vec<(f32, f32)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let error = |message: String| CalibrationError {
                line: index + 1,
                message,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let number = |field: Option<&str>| {
                field
                    .and_then(|f| f.trim().parse::<f32>().ok())
                    .filter(|v| (0.0..=1.0).contains(v))
            };
            let mut fields = line.split('\t');
            let (Some(raw), Some(probability), None) =
                (number(fields.next()), number(fields.next()), fields.next())
            else {
                return Err(error(format!(
                    "expected `raw<TAB>probability`, two numbers from 0 to 1, not {line:?}"
                )));
            };
            if points
                .last()
                .is_some_and(|last| raw <= last.0 || probability < last.1)
            {
                return Err(error(
                    "points must rise in raw confidence and not fall in probability".to_string(),
                ));
            }
            points.push((raw, probability));
        }
        Ok(Calibration { points })
    }

    /// The map as text, after a comment saying what it is (`about`).
    pub fn to_text(&self, about: &str) -> String {
        let mut text = String::new();
        for line in about.lines() {
            text.push_str("# ");
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("# raw confidence\tprobability of being right\n");
        for (raw, probability) in &self.points {
            text.push_str(&format!("{raw:.4}\t{probability:.4}\n"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_pools_what_falls_and_runs_straight_between_bins() {
        let calibration = Calibration::fit([
            (0.05, 0.5, 100),
            (0.15, 0.4, 100),
            (0.5, 0.7, 100),
            (0.9, 0.9, 100),
        ]);
        // The first two bins fall, so they pool: (0.1, 0.45).
        assert_eq!(
            calibration.points,
            vec![(0.1, 0.45), (0.5, 0.7), (0.9, 0.9)]
        );
        assert_eq!(calibration.apply(0.0), 0.45);
        assert!((calibration.apply(0.7) - 0.8).abs() < 1e-6);
        assert_eq!(calibration.apply(1.0), 0.9);
        assert_eq!(Calibration::identity().apply(0.3), 0.3);
    }

    #[test]
    fn the_text_round_trips_and_bad_lines_are_named() {
        let calibration = Calibration::fit([(0.2, 0.3, 10), (0.8, 0.9, 10)]);
        let text = calibration.to_text("a test");
        assert_eq!(Calibration::parse(&text).unwrap(), calibration);
        let error = Calibration::parse("# x\n0.5\t0.5\n0.4\t0.6\n").unwrap_err();
        assert_eq!(error.line, 3);
        assert!(Calibration::parse("0.5 0.5\n").is_err());
        assert!(Calibration::parse("1.5\t0.5\n").is_err());
    }
}
