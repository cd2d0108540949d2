//! Reading PolNeAR-format corpora and scoring attest against them.
//!
//! A split directory holds `text/NAME.txt`, `attributions/NAME_ANNOTATOR.ann`
//! (brat standoff, offsets in code points) and optionally `silver/NAME.tsv`
//! (CoreNLP tokens). [`Corpus::open`] lists a split; [`Corpus::articles`] reads its
//! articles one at a time, in name order, with every offset turned into a byte
//! [`attest_doc::Span`] of the article text. When an article has several
//! annotators' files, the one `metadata.tsv` lists first is read.
//!
//! [`score`] compares attest's output with the gold: segmentation against the
//! silver tokens, entity mentions against the silver ones, and attributions
//! under the span and attribution protocols.
//!
//! ```
//! use attest_corpus::parse_ann;
//!
//! let text = "Zoë said “yes.”";
//! let ann = "T1\tSource 0 3\tZoë\nT2\tCue 4 8\tsaid\nT3\tContent 9 15\t“yes.”\n\
//!            T4\tAttribution 4 8\tsaid\nE1\tAttribution:T4 Source:T1 Cue:T2 Content:T3\n";
//! let parsed = parse_ann(ann, text)?;
//! let gold = &parsed.attributions[0];
//! assert_eq!(gold.source[0].slice(text), "Zoë");
//! assert_eq!(gold.content[0].slice(text), "“yes.”");
//! # Ok::<(), attest_corpus::LineError>(())
//! ```

#![deny(missing_docs)]

mod brat;
mod corpus;
mod entities;
mod error;
mod labels;
mod pos;
pub mod score;
mod silver;
pub mod testing;

/// The labelling guideline's source types, which attest's labels use.
pub use attest_doc::LabelledType;
pub use brat::{Annotations, GoldAttribution, Label, TextBound, parse_ann};
pub use corpus::{AnnotatorChoice, ArticleMetadata, Corpus, CorpusArticle};
pub use entities::{SilverMention, entity_label_of_class, silver_mentions};
pub use error::{CorpusError, LineError};
pub use labels::{
    ArticleLabels, DirectQuote, HEDGES_HEADER, HedgeLabel, SOURCES_HEADER, SourceLabel, SplitLabels,
};
pub use pos::{PosSentence, article_pos_sentences, pos_sentences};
pub use silver::{SilverToken, parse_silver};
