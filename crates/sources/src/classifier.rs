//! A linear classifier over string features, for the decisions the source
//! stages learn from attest's labels of real copy (`eval/polnear`): an
//! attribution's stance, its source's type.
//!
//! Training is the averaged multiclass perceptron of `attest-learn`, over
//! several visiting orders whose weights are averaged, so that one order's
//! luck does not decide the model, or its logistic regression, where a stage
//! says so ([`Learner`]); the same examples and seed give the same bytes. A stage keeps the rule it had as a feature (`rule=…`), so the model
//! learns where the rule is right and where real copy says otherwise.

use attest_learn::{
    FeatureTable, LogisticConfig, Model, ModelError, Scorer, SplitMix64, Trainer, Weights,
    train_logistic,
};

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
    /// Passes over the examples (per visiting order, for the perceptron).
    pub epochs: usize,
    /// Seeds the visiting orders.
    pub seed: u64,
    /// What learns the weights.
    pub learner: Learner,
}

/// What learns a classifier's weights. Each drops the weights smaller than
/// its `prune` from the model, which keeps the file small: most features are
/// rare words with tiny weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Learner {
    /// The averaged perceptron, over `orders` visiting orders whose averaged
    /// weights are averaged again.
    Perceptron {
        /// Visiting orders.
        orders: usize,
        /// The smallest weight kept.
        prune: f32,
    },
    /// Logistic regression by AdaGrad: scores are log-odds.
    Logistic {
        /// The L2 penalty.
        l2: f32,
        /// AdaGrad's base step.
        rate: f32,
        /// The smallest weight kept.
        prune: f32,
    },
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
    let mut model_meta: std::collections::BTreeMap<String, String> = meta
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    let (mut weights, prune) = match config.learner {
        Learner::Perceptron { orders, prune } => {
            model_meta.insert("orders".into(), orders.to_string());
            (perceptron(&ids, n_classes, orders, config), prune)
        }
        Learner::Logistic { l2, rate, prune } => {
            model_meta.insert("learner".into(), format!("logistic, l2 {l2}, rate {rate}"));
            let logistic = LogisticConfig {
                epochs: config.epochs,
                rate,
                l2,
                seed: config.seed,
            };
            (
                train_logistic(&ids, table.len(), n_classes, &logistic),
                prune,
            )
        }
    };
    weights.prune(prune);
    model_meta.insert("examples".into(), examples.len().to_string());
    model_meta.insert("epochs".into(), config.epochs.to_string());
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

/// The mean of averaged perceptrons, one a visiting order.
fn perceptron(
    ids: &[(Vec<u32>, u16)],
    n_classes: u16,
    orders: usize,
    config: &TrainConfig,
) -> Weights {
    let mut rng = SplitMix64::new(config.seed);
    let orders: Vec<Weights> = (0..orders.max(1))
        .map(|_| {
            let mut trainer = Trainer::new(n_classes);
            let mut order: Vec<usize> = (0..ids.len()).collect();
            for _ in 0..config.epochs {
                rng.shuffle(&mut order);
                for (features, class) in order.iter().filter_map(|&i| ids.get(i)) {
                    trainer.train_one(features, *class);
                }
            }
            trainer.average()
        })
        .collect();
    Weights::mean(n_classes, &orders.iter().collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of two classes trained on four words by `learner`, checked to
    /// train to the same bytes twice and read back.
    fn trained(learner: Learner, epochs: usize) -> Classifier {
        let examples: Vec<Example> = [("said", 0), ("told", 0), ("denied", 1), ("rejected", 1)]
            .iter()
            .map(|(w, c)| (vec![format!("w={w}"), "bias".to_owned()], *c))
            .collect();
        let config = TrainConfig {
            epochs,
            seed: 7,
            learner,
        };
        let spec = ModelSpec {
            labels: &["asserts", "denies"],
            vocabulary: ["said".to_owned()].into(),
            ..ModelSpec::default()
        };
        let bytes = train(*b"TEST", &spec, &examples, &config);
        assert_eq!(bytes, train(*b"TEST", &spec, &examples, &config));
        assert!(Classifier::from_bytes(&bytes, *b"NOPE").is_err());
        Classifier::from_bytes(&bytes, *b"TEST").unwrap()
    }

    fn scores(classifier: &Classifier, word: &str) -> Vec<f32> {
        classifier.scores(|out| {
            out.add(&["w=", word]);
            out.add(&["bias"]);
        })
    }

    #[test]
    fn both_learners_learn_and_read_back_byte_for_byte() {
        let perceptron = Learner::Perceptron {
            orders: 3,
            prune: 0.0,
        };
        let logistic = Learner::Logistic {
            l2: 1e-4,
            rate: 0.1,
            prune: 0.0,
        };
        for (learner, epochs) in [(perceptron, 5), (logistic, 50)] {
            let classifier = trained(learner, epochs);
            for (word, class) in [("said", 0), ("told", 0), ("denied", 1), ("rejected", 1)] {
                let scores = scores(&classifier, word);
                assert!(scores[class] > scores[1 - class], "{learner:?}: {word}");
            }
            assert!(classifier.vocabulary().contains("said"));
        }
    }

    #[test]
    fn only_a_clear_lead_overrules() {
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
    }
}
