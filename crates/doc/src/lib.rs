//! The attest document model.
//!
//! An [`Article`] is what a reader produces: body text and metadata. A [`Doc`]
//! owns one article and the layers the analysis stages add to it: tokens,
//! sentences and paragraphs, part-of-speech tags, attributions, their stances,
//! sources, hedges, entities, quantities and times. Every record of every layer
//! points into the article text by byte [`Span`]s, and records of one layer refer
//! to those of another by index ([`TokenId`], [`AttributionId`], ...).
//!
//! The text is never changed, so every span slices back to exactly the text it
//! was made from. Other units (code points for brat, UTF-16 for browsers) are
//! computed at the edge with an [`OffsetIndex`].
//!
//! Stages implement [`Stage`], declaring the layers they read and write. The
//! stages that match words and tags by hand read a document through one
//! [`TokenView`]: its tokens, folded words, part-of-speech tags ([`PosTag`],
//! whose classes are its methods) and sentences.
//!
//! ```
//! use attest_doc::{Article, Doc, Layer, Span};
//!
//! let article = Article::new("a1", "The mayor said on Monday the budget was “final.” Critics disagreed.");
//! let doc = Doc::new(article);
//! assert!(!doc.has(Layer::Attributions), "no stage has run yet");
//! let said = Span::try_new_in(doc.text(), 10, 14).unwrap();
//! assert_eq!(doc.span_text(said), "said");
//! ```

#![deny(missing_docs)]

mod article;
mod budget;
mod certainty;
mod doc;
mod folded;
mod ids;
mod layers;
mod limits;
mod names;
mod offsets;
mod proposals;
mod span;
mod stage;
mod summary;
mod token_view;

pub use article::{Article, Published, PublishedError};
pub use budget::{Budget, Canceller, Exhausted};
pub use certainty::Certainty;
pub use doc::{Doc, Layer, LayerError, LayerSet, Segmentation};
pub use folded::FoldedWords;
pub use ids::{AttributionId, ClusterId, ParagraphId, SentenceId, SourceId, TokenId};
pub use layers::*;
pub use limits::Limits;
pub use names::{from_serde_name, serde_name};
pub use offsets::OffsetIndex;
pub use proposals::{Proposals, StanceProbabilities};
pub use span::{Span, SpanError};
pub use stage::{Stage, StageError};
pub use summary::{CertaintySummary, Counts, SourcingSummary};
pub use token_view::TokenView;
