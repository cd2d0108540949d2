//! Attribution stage: finds source, cue and content in the PolNeAR scheme.
//!
//! An attribution says who (source) says (cue) what (content): "Officials
//! *said* the bridge was safe". [`Attributor`] finds them in a segmented and
//! POS-tagged [`attest_doc::Doc`] with two averaged structured perceptrons:
//! a cue tagger over each sentence (B/I/O), then, for each cue, a source and
//! content tagger over a window around it, with features relative to that cue
//! (side, distance, quotation marks next to it, other cues in between). Quotes
//! are paired within paragraphs, so an unbalanced mark never runs past its
//! paragraph; a quote left open at a paragraph's end carries the window on
//! into the next paragraphs.
//!
//! [`train`] learns a model from [`TrainingExample`]s; the bytes it returns are
//! what [`Attributor::from_bytes`] reads and what ships as models/attrib.model.
//!
//! ```
//! use attest_attrib::{Attributor, TrainConfig, TrainingExample, train};
//! use attest_doc::{Article, Attribution, AttributionKind, Doc, Limits, Span};
//!
//! let text = "Mayor Lee said the bridge was safe.";
//! let mut doc = Doc::new(Article::new("a", text));
//! doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))?;
//! let span = |s: &str| Span::must(text.find(s).unwrap(), text.find(s).unwrap() + s.len());
//! let gold = vec![Attribution {
//!     source: vec![span("Mayor Lee")],
//!     cue: vec![span("said")],
//!     content: vec![span("the bridge was safe")],
//!     kind: AttributionKind::Indirect,
//!     confidence: 1.0,
//! }];
//! let examples = [TrainingExample { doc: doc.clone(), gold }];
//! let bytes = train(&examples, &TrainConfig { seed: 1, epochs: 30, cue_prune: 0.0, role_prune: 0.0, shuffles: 1 });
//! let model = Attributor::from_bytes(&bytes)?;
//! let found = model.attributions(&doc);
//! assert_eq!(found.len(), 1);
//! assert_eq!(doc.span_text(found[0].cue[0]), "said");
//! assert_eq!(doc.span_text(found[0].source[0]), "Mayor Lee");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod assemble;
mod calibration;
mod conventions;
mod features;
mod memo;
mod model;
mod tagging;
mod train;
mod verbs;

pub use assemble::{Rules, attributions_from};
pub use attest_learn::ModelError;
pub use calibration::{Calibration, CalibrationError};
pub use model::{Attributor, DEFAULT_CUE_BIAS};
pub use train::{TrainConfig, TrainingExample, train, train_model};
