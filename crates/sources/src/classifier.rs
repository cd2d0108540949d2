//! A linear classifier over string features, for the decisions the source
//! stages learn from attest's labels of real copy (`eval/polnear`): an
//! attribution's stance, its source's type.
//!
//! Training is the averaged multiclass perceptron of `attest-learn`, over
//! several visiting orders whose weights are averaged, so that one order's
//! luck does not decide the model; the same examples and seed give the same
//! bytes. A stage keeps the rule it had as a feature (`rule=…`), so the model
//! learns where the rule is right and where real copy says otherwise.

use attest_learn::{FeatureTable, Model, ModelError, Scorer, SplitMix64, Trainer, Weights};

/// One training example: its features and its class index.
pub type Example = (Vec<String>, u16);

/// A trained classifier, ready to score.
#[derive(Clone, Debug)]
pub struct Classifier {
    scorer: Scorer,
    labels: Vec<String>,
}

impl Classifier {
    /// Reads a model of `kind` from its file's bytes.
    pub fn from_bytes(bytes: &[u8], kind: [u8; 4]) -> Result<Classifier, ModelError> {
        let model = Model::from_bytes(bytes)?;
        model.expect_kind(kind)?;
        Ok(Classifier {
            scorer: Scorer::new(&model.keys, &model.weights),
            labels: model.labels,
        })
    }

    /// The class names, by index.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Each class's score for `features`, by class index.
    pub fn scores(&self, features: &[String]) -> Vec<f32> {
        let mut scores = vec![0.0f32; self.labels.len()];
        for feature in features {
            self.scorer.add(&[feature.as_str()], &mut scores);
        }
        scores
    }

    /// The best class for `features`, as an index into [`Classifier::labels`]
    /// (ties go to the lower index).
    pub fn predict(&self, features: &[String]) -> usize {
        let scores = self.scores(features);
        let mut best = 0;
        for (class, score) in scores.iter().enumerate() {
            if *score > scores[best] {
                best = class;
            }
        }
        best
    }
}

/// How a classifier is trained.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Passes over the examples per visiting order.
    pub epochs: usize,
    /// Visiting orders whose averaged weights are averaged again.
    pub orders: usize,
    /// Seeds the visiting orders.
    pub seed: u64,
}

/// Trains a classifier of `kind` over classes `labels` and writes its model
/// file; `meta` records how it was made.
pub fn train(
    kind: [u8; 4],
    labels: &[&str],
    examples: &[Example],
    config: &TrainConfig,
    meta: &[(&str, String)],
) -> Vec<u8> {
    let mut table = FeatureTable::new();
    let ids: Vec<(Vec<u32>, u16)> = examples
        .iter()
        .map(|(features, class)| {
            let mut ids: Vec<u32> = features.iter().filter_map(|f| table.intern(f)).collect();
            ids.sort_unstable();
            ids.dedup();
            (ids, *class)
        })
        .collect();
    let n_classes = labels.len() as u16;
    let mut rng = SplitMix64::new(config.seed);
    let orders: Vec<Weights> = (0..config.orders.max(1))
        .map(|_| {
            let mut trainer = Trainer::new(n_classes);
            let mut order: Vec<usize> = (0..ids.len()).collect();
            for _ in 0..config.epochs {
                rng.shuffle(&mut order);
                for &i in &order {
                    let (features, class) = &ids[i];
                    trainer.train_one(features, *class);
                }
            }
            trainer.average()
        })
        .collect();
    let weights = Weights::mean(n_classes, &orders.iter().collect::<Vec<_>>());
    let mut model_meta: std::collections::BTreeMap<String, String> = meta
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    model_meta.insert("examples".into(), examples.len().to_string());
    model_meta.insert("epochs".into(), config.epochs.to_string());
    model_meta.insert("orders".into(), config.orders.to_string());
    model_meta.insert("seed".into(), config.seed.to_string());
    Model {
        kind,
        meta: model_meta,
        labels: labels.iter().map(|l| (*l).to_owned()).collect(),
        keys: table.keys(),
        weights,
        transitions: Vec::new(),
        lexicon: Default::default(),
        vocabulary: Default::default(),
    }
    .to_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_and_reads_back_byte_for_byte() {
        let examples: Vec<Example> = [("said", 0), ("told", 0), ("denied", 1), ("rejected", 1)]
            .iter()
            .map(|(w, c)| (vec![format!("w={w}"), "bias".to_owned()], *c))
            .collect();
        let config = TrainConfig {
            epochs: 5,
            orders: 3,
            seed: 7,
        };
        let bytes = train(*b"TEST", &["asserts", "denies"], &examples, &config, &[]);
        assert_eq!(
            bytes,
            train(*b"TEST", &["asserts", "denies"], &examples, &config, &[])
        );
        let classifier = Classifier::from_bytes(&bytes, *b"TEST").unwrap();
        assert_eq!(classifier.predict(&["w=denied".into(), "bias".into()]), 1);
        assert_eq!(classifier.predict(&["w=said".into(), "bias".into()]), 0);
        assert!(Classifier::from_bytes(&bytes, *b"NOPE").is_err());
    }
}
