//! Part-of-speech tagging stage.
//!
//! A greedy averaged-perceptron tagger in the classic style: each token is
//! tagged left to right from features of the word, its affixes and shape, its
//! neighbours and the two tags just assigned. [`train`] learns a [`Model`] from
//! plain sentences of words and tags; [`Tagger`] runs a model as the `pos`
//! [`attest_doc::Stage`], and [`Tagger::bundled`] loads the model shipped in
//! the binary, trained on the silver tags of PolNeAR's training split.
//!
//! ```
//! use attest_tag::{TaggedSentence, TrainConfig, train};
//!
//! let sentence = |words: &[&str], tags: &[&str]| {
//!     TaggedSentence::from_names(words.iter().map(|w| w.to_string()).collect(), tags).unwrap()
//! };
//! let data = [
//!     sentence(&["The", "mayor", "said", "."], &["DT", "NN", "VBD", "."]),
//!     sentence(&["A", "senator", "spoke", "."], &["DT", "NN", "VBD", "."]),
//! ];
//! let model = train(&data, &TrainConfig::default());
//! let tags = model.tag(["The", "senator", "said", "."].into_iter());
//! assert_eq!(tags[0].name(), "DT");
//! ```

#![deny(missing_docs)]

mod features;
mod model;
mod stage;

pub use model::{MODEL_KIND, Model, TaggedSentence, TrainConfig, tag_of_name, train};
pub use stage::Tagger;

pub use attest_learn::ModelError;
