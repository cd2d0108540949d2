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

/// Where a stage writes its features, each as the parts of its name: joined
/// into names when training ([`Names`]), hashed and scored at once when
/// running ([`Scores`]), so that running formats no feature name.
pub trait Features {
    /// Adds the feature whose name is the concatenation of `parts`.
    fn add(&mut self, parts: &[&str]);
}

/// Features as names, for training.
#[derive(Debug, Default)]
pub struct Names(pub Vec<String>);

impl Features for Names {
    fn add(&mut self, parts: &[&str]) {
        self.0.push(parts.concat());
    }
}

/// Features hashed as they come, for running: their weights are looked up
/// together, so that the lookups' cache misses overlap.
#[derive(Debug, Default)]
pub struct Scores {
    hashes: Vec<u64>,
}

impl Features for Scores {
    fn add(&mut self, parts: &[&str]) {
        self.hashes.push(Scorer::hash(parts));
    }
}

/// A trained classifier, ready to score.
#[derive(Clone, Debug)]
pub struct Classifier {
    scorer: Scorer,
    labels: Vec<String>,
    vocabulary: std::collections::BTreeSet<String>,
}

impl Classifier {
    /// Reads a model of `kind` from its file's bytes.
    pub fn from_bytes(bytes: &[u8], kind: [u8; 4]) -> Result<Classifier, ModelError> {
        let model = Model::from_bytes(bytes)?;
        model.expect_kind(kind)?;
        Ok(Classifier {
            scorer: Scorer::new(&model.keys, &model.weights),
            labels: model.labels,
            vocabulary: model.vocabulary,
        })
    }

    /// The words the model was trained to look at, when its stage chooses
    /// candidates by word (the hedge finder's triggers); empty otherwise.
    pub fn vocabulary(&self) -> &std::collections::BTreeSet<String> {
        &self.vocabulary
    }

    /// Each class's score, by class index, for the features `write` adds.
    pub fn scores(&self, write: impl FnOnce(&mut Scores)) -> Vec<f32> {
        let mut sink = Scores::default();
        write(&mut sink);
        let mut scores = vec![0.0f32; self.labels.len()];
        self.scorer.add_all(&sink.hashes, &mut scores);
        scores
    }
}

/// The class a stage takes from `scores`: `held`, the rules' answer, unless
/// another class scores more than `margin` above it; the best such class,
/// the lowest index on a tie. A margin keeps the rules on close calls, where
/// on copy unlike the training labels a small lead is more often the model's
/// bias.
pub fn overrule(scores: &[f32], held: usize, margin: f32) -> usize {
    let Some(&floor) = scores.get(held) else {
        return held;
    };
    let best = (0..scores.len()).fold(held, |b, i| if scores[i] > scores[b] { i } else { b });
    if scores[best] - floor > margin {
        best
    } else {
        held
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
    /// Weights smaller than this are dropped from the model, which keeps the
    /// file small: most features are rare words with tiny averaged weights.
    pub prune: f32,
}

/// What a trained model is called and made of, besides its weights.
#[derive(Clone, Debug, Default)]
pub struct ModelSpec<'a> {
    /// The class names, by index.
    pub labels: &'a [&'a str],
    /// The words the stage looks at (see [`Classifier::vocabulary`]).
    pub vocabulary: std::collections::BTreeSet<String>,
    /// How it was made, recorded in the file.
    pub meta: &'a [(&'a str, String)],
}

/// Trains a classifier of `kind` and writes its model file.
pub fn train(
    kind: [u8; 4],
    spec: &ModelSpec<'_>,
    examples: &[Example],
    config: &TrainConfig,
) -> Vec<u8> {
    let (labels, meta) = (spec.labels, spec.meta);
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
    let mut weights = Weights::mean(n_classes, &orders.iter().collect::<Vec<_>>());
    weights.prune(config.prune);
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
        vocabulary: spec.vocabulary.clone(),
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
            prune: 0.0,
            epochs: 5,
            orders: 3,
            seed: 7,
        };
        let spec = ModelSpec {
            labels: &["asserts", "denies"],
            vocabulary: ["said".to_owned()].into(),
            ..ModelSpec::default()
        };
        let bytes = train(*b"TEST", &spec, &examples, &config);
        assert_eq!(bytes, train(*b"TEST", &spec, &examples, &config));
        let classifier = Classifier::from_bytes(&bytes, *b"TEST").unwrap();
        let scores = |word: &str| {
            classifier.scores(|out| {
                out.add(&["w=", word]);
                out.add(&["bias"]);
            })
        };
        assert!(scores("denied")[1] > scores("denied")[0]);
        assert!(scores("said")[0] > scores("said")[1]);
        assert!(classifier.vocabulary().contains("said"));
        assert_eq!(overrule(&[1.0, 3.0], 0, 1.5), 1, "a clear lead overrules");
        assert_eq!(
            overrule(&[1.0, 2.0], 0, 1.5),
            0,
            "a close call keeps the rules"
        );
        assert_eq!(
            overrule(&[1.0, 5.0, 5.0], 0, 1.5),
            1,
            "the lowest of tied bests"
        );
        assert!(Classifier::from_bytes(&bytes, *b"NOPE").is_err());
    }
}
