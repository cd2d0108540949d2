//! Named-entity stage: people, organizations, places and other names.
//!
//! [`EntityTagger`] assigns [`Layer::Entities`](attest_doc::Layer) to a
//! document that has tokens, sentences, paragraphs and part-of-speech tags.
//! A structured perceptron labels each sentence's tokens B/I/O for four types
//! ([`attest_doc::EntityLabel`]), from features of the words, their shapes,
//! tags and neighbours, word lists of countries, US states, cities, given
//! names, titles, organization words and nationalities written for attest
//! (the `gazetteer` module), and two facts about the whole article (whether a
//! capitalized word also appears in lower case, or capitalized inside a
//! sentence). Mentions of one entity in an article then share a cluster
//! ("Chris Smalls", "Smalls", "Mr. Smalls"; "the New York Police Department",
//! "NYPD"): the rules are in the `cluster` module.
//!
//! [`train`] learns a [`Model`] from [`TrainingExample`]s; `attest train`
//! trains the bundled one on the silver CoreNLP mentions of PolNeAR's training
//! split (`attest_corpus::silver_mentions` documents how CoreNLP's classes map
//! onto the four types).
//!
//! ```
//! use attest_doc::{Article, Doc, EntityLabel, Limits, Stage};
//! use attest_entities::EntityTagger;
//!
//! let text = "Chris Smalls spoke in New York on Monday. Smalls said the union would win.";
//! let mut doc = Doc::new(Article::new("a1", text));
//! doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))?;
//! attest_tag::Tagger::bundled()?.run(&mut doc)?;
//! EntityTagger::bundled()?.run(&mut doc)?;
//!
//! let found: Vec<(&str, EntityLabel, usize)> = doc
//!     .entities()
//!     .iter()
//!     .map(|e| (doc.span_text(e.span), e.label, e.cluster.index()))
//!     .collect();
//! assert_eq!(
//!     found,
//!     [
//!         ("Chris Smalls", EntityLabel::Person, 0),
//!         ("New York", EntityLabel::Location, 1),
//!         ("Smalls", EntityLabel::Person, 0),
//!     ]
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod cluster;
mod features;
mod gazetteer;
mod model;
mod scoring;
mod stage;
#[cfg(test)]
mod testing;

pub use model::{MODEL_KIND, Model, TrainConfig, TrainingExample, train};
pub use stage::EntityTagger;

pub use attest_learn::ModelError;
