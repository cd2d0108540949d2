//! Averaged perceptron models, features and model files for attest's learned stages.
//!
//! A learned stage describes each position (a token, a span) by features and
//! turns them into dense ids: feature strings with a [`FeatureTable`]
//! (formatting them into a reused buffer with a [`FeatureWriter`], so tagging
//! does not allocate per feature), or 64-bit hashed keys ([`key1`], [`key2`],
//! [`key3`] over [`fnv1a64`] hashes, never formatted) with a [`KeyTable`]. It
//! then learns and scores classes with [`Weights`]:
//!
//! - [`Trainer`]: the multiclass averaged perceptron, for greedy taggers;
//! - [`train_logistic`]: multinomial logistic regression, for a classifier
//!   whose rare features the perceptron overfits;
//! - [`SequenceTrainer`] / [`SequenceModel`]: the structured averaged
//!   perceptron with first-order transitions, and the one Viterbi
//!   ([`decode_scores`]) under an optional [`TransitionMask`] and labels
//!   allowed per position, for span labellers;
//! - [`Scorer`]: a trained model's feature keys (the hashes of the feature
//!   strings) and weights joined for fast scoring;
//! - [`QuantisedModel`]: a sequence model over hashed keys frozen into one
//!   table of 16-byte slots with 16-bit weights, for the attribution stage,
//!   whose time goes to cache misses;
//! - [`Model`], [`seal_model`], [`open_model`]: the versioned binary model
//!   file (magic, version, kind, checksum), deterministic and validated, read
//!   and written with [`Reader`] and [`Writer`], failing with [`ModelError`];
//! - [`Bundled`]: what a stage builds from the models built into attest, read
//!   once and shared by every caller;
//! - [`SplitMix64`]: a seeded generator, so training is reproducible.
//!
//! ```
//! use attest_learn::{FeatureTable, FeatureWriter, Model, Scorer, Trainer};
//!
//! let data = [("said", 0), ("told", 0), ("mayor", 1), ("police", 1)];
//! let mut table = FeatureTable::new();
//! let mut writer = FeatureWriter::new();
//! let mut trainer = Trainer::new(2);
//! for _ in 0..5 {
//!     for (word, class) in data {
//!         writer.clear();
//!         writer.add(&mut table, format_args!("w={word}"));
//!         writer.add(&mut table, format_args!("bias"));
//!         trainer.train_one(writer.ids(), class);
//!     }
//! }
//! let model = Model {
//!     kind: *b"DEMO",
//!     meta: Default::default(),
//!     labels: vec!["verb".into(), "noun".into()],
//!     keys: table.keys(),
//!     weights: trainer.average(),
//!     transitions: Vec::new(),
//!     lexicon: Default::default(),
//!     vocabulary: Default::default(),
//! };
//! let model = Model::from_bytes(&model.to_bytes())?;
//! let scorer = Scorer::new(&model.keys, &model.weights);
//! let mut scores = vec![0.0; 2];
//! scorer.add(&["w=", "mayor"], &mut scores);
//! scorer.add(&["bias"], &mut scores);
//! assert!(scores[1] > scores[0], "a noun");
//! # Ok::<(), attest_learn::ModelError>(())
//! ```

#![deny(missing_docs)]

mod bundled;
mod features;
mod keys;
mod logistic;
mod model;
mod perceptron;
mod quantised;
mod rng;
mod scorer;
mod sequence;
mod wire;

pub use bundled::Bundled;
pub use features::{
    FeatureTable, FeatureWriter, Frozen, IdentityHasher, Lookup, Prehashed, first_chars, fnv1a64,
    fnv1a64_extend, fnv1a64_parts, last_chars,
};
pub use keys::{KeyMap, key1, key2, key3, mix};
pub use logistic::{LogisticConfig, train_logistic};
pub use model::{FORMAT_VERSION, Model, ModelError, expect_kind, open_model, seal_model};
pub use perceptron::{Trainer, Weights, argmax};
pub use quantised::{KeyTable, MAX_LABELS, QuantisedModel, Sums};
pub use rng::SplitMix64;
pub use scorer::Scorer;
pub use sequence::{
    SequenceModel, SequenceTrainer, TRAINING_ORDERS, TransitionMask, decode_scores,
};
pub use wire::{Reader, Writer};
