//! Tokenization, sentence splitting and paragraphs for English news.
//!
//! [`segment`] turns an article text into a [`Segmentation`]: paragraphs from
//! blank lines, or from single line breaks where at least half the lines of a
//! block end a sentence (text written one paragraph a line, as scraped and wire
//! copy often is; a hard-wrapped paragraph, whose lines end mid-sentence, stays
//! one), sentences within them, and tokens in the Penn Treebank style that
//! CoreNLP writes (clitics split: "do" + "n't", "O'Malley" + "'s"; abbreviations
//! keep their period: "Sen.", "U.S."; hyphenated words, numbers like "1,200",
//! "7:30" and "9/11", URLs, e-mail addresses, hashtags and handles stay whole).
//! [`Segmenter`] is the same as a pipeline [`Stage`].
//!
//! Tokens are spans of the original text and tile it with whitespace between:
//! nothing is normalized, so curly quotes and dashes keep their own bytes.
//!
//! ```
//! use attest_doc::Limits;
//!
//! let text = "Sen. Warren said the U.S. would pay $1.2 billion. “We can’t wait,” she said.";
//! let segmentation = attest_text::segment(text, &Limits::DEFAULT);
//! let words: Vec<&str> = segmentation.tokens.iter().map(|t| t.span.slice(text)).collect();
//! assert_eq!(&words[..6], ["Sen.", "Warren", "said", "the", "U.S.", "would"]);
//! assert!(words.contains(&"ca") && words.contains(&"n’t"));
//! assert_eq!(segmentation.sentences.len(), 2);
//! ```

#![deny(missing_docs)]

mod abbrev;
mod sentence;
mod token;

use attest_doc::{Doc, Layer, LayerError, Limits, Segmentation, Stage};

/// Splits `text` into paragraphs, sentences and tokens.
///
/// Never fails: any text, however odd, segments into tokens that cover every
/// non-whitespace character exactly once. A run of more than
/// [`Limits::sentence_tokens`] tokens without a sentence end is cut there.
pub fn segment(text: &str, limits: &Limits) -> Segmentation {
    sentence::segment(text, limits)
}

/// The segmentation stage: assigns tokens, sentences and paragraphs.
#[derive(Clone, Debug)]
pub struct Segmenter {
    limits: Limits,
}

impl Segmenter {
    /// A segmenter that cuts sentences at `limits.sentence_tokens`.
    pub fn new(limits: Limits) -> Segmenter {
        Segmenter { limits }
    }
}

impl Stage for Segmenter {
    const NAME: &'static str = "segment";
    const REQUIRES: &'static [Layer] = &[];
    const ASSIGNS: &'static [Layer] = &[Layer::Tokens, Layer::Sentences, Layer::Paragraphs];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let segmentation = segment(doc.text(), &self.limits);
        doc.set_segmentation(segmentation)
    }
}
