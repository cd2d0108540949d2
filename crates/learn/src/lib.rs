//! Averaged perceptron models, features and model files for attest's learned stages.
//!
//! A learned stage describes each position (a token, a span) by feature strings,
//! turns them into ids with a [`FeatureTable`] (formatting them into a reused
//! buffer with a [`FeatureWriter`], so tagging does not allocate per feature),
//! and scores classes with [`Weights`]:
//!
//! - [`Trainer`]: the multiclass averaged perceptron, for greedy taggers;
//! - [`SequenceTrainer`] / [`SequenceModel`]: the structured perceptron with
//!   first-order transitions and Viterbi decoding under an optional
//!   [`TransitionMask`], for span labellers;
//! - [`Scorer`]: a trained model's features and weights joined for fast scoring;
//! - [`Model`]: the versioned binary model file, deterministic and validated;
//! - [`SplitMix64`]: a seeded generator, so training is reproducible.
//!
//! ```
//! use attest_learn::{FeatureTable, FeatureWriter, Frozen, Model, Trainer};
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
//!     features: table,
//!     weights: trainer.average(),
//!     transitions: Vec::new(),
//!     lexicon: Default::default(),
//! };
//! let model = Model::from_bytes(&model.to_bytes())?;
//! writer.clear();
//! writer.add(&mut Frozen(&model.features), format_args!("w=mayor"));
//! let mut scores = Vec::new();
//! assert_eq!(model.weights.predict(writer.ids(), &mut scores), 1);
//! # Ok::<(), attest_learn::ModelError>(())
//! ```

#![deny(missing_docs)]

mod features;
mod keys;
mod model;
mod perceptron;
mod rng;
mod scorer;
mod sequence;
mod wire;

pub use features::{
    FeatureTable, FeatureWriter, Frozen, IdentityHasher, Lookup, Prehashed, first_chars, fnv1a64,
    fnv1a64_extend, fnv1a64_parts, last_chars,
};
pub use keys::{KeyMap, key1, key2, key3, mix};
pub use model::{FORMAT_VERSION, Model, ModelError};
pub use perceptron::{Trainer, Weights};
pub use rng::SplitMix64;
pub use scorer::Scorer;
pub use sequence::{SequenceModel, SequenceTrainer, TransitionMask, decode_scores};
pub use wire::{Reader, Writer};
