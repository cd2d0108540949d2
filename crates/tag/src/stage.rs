//! The tagger as a pipeline stage.

use attest_doc::{Doc, Layer, LayerError, Stage};
use attest_learn::{Bundled, ModelError};

use crate::Model;
use crate::model::Scratch;

/// The model shipped with attest: trained by `examples/train_pos.rs`.
static BUNDLED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/pos.model"
));

/// Tags every sentence of a document, one tag per token.
#[derive(Clone, Debug)]
pub struct Tagger {
    model: Model,
}

impl Tagger {
    /// A tagger running `model`.
    pub fn new(model: Model) -> Tagger {
        Tagger { model }
    }

    /// The tagger with the model built into attest; an error only when the
    /// build shipped a damaged or missing model. Loading takes tens of
    /// milliseconds: load once, or use [`Tagger::shared`].
    pub fn bundled() -> Result<Tagger, ModelError> {
        Model::from_bytes(BUNDLED).map(Tagger::new)
    }

    /// The bundled tagger, loaded on first use and shared by every caller.
    pub fn shared() -> Result<&'static Tagger, ModelError> {
        static SHARED: Bundled<Tagger> = Bundled::new(Tagger::bundled);
        SHARED.get()
    }

    /// Its model.
    pub fn model(&self) -> &Model {
        &self.model
    }
}

impl Stage for Tagger {
    const NAME: &'static str = "pos";
    const REQUIRES: &'static [Layer] = &[Layer::Tokens, Layer::Sentences];
    const ASSIGNS: &'static [Layer] = &[Layer::Pos];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let mut tags = Vec::with_capacity(doc.tokens().len());
        let mut scratch = Scratch::default();
        let text = doc.text();
        for sentence in doc.sentences() {
            let tokens = doc
                .tokens()
                .get(sentence.tokens.start.index()..sentence.tokens.end.index())
                .unwrap_or_default();
            let words = tokens.iter().map(|t| t.span.get(text).unwrap_or_default());
            self.model.tag_into(words, &mut scratch, &mut tags);
        }
        doc.set_pos(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TaggedSentence, TrainConfig, train};
    use attest_doc::{
        Article, Paragraph, ParagraphRole, Segmentation, Sentence, SentenceId, Span, Token,
        TokenId, TokenKind,
    };

    fn segmented(text: &str) -> Doc {
        let mut tokens = Vec::new();
        let mut start = None;
        for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
            let boundary = c.is_whitespace() || c == '.';
            if boundary {
                if let Some(s) = start.take() {
                    tokens.push(Token {
                        span: Span::must(s, at),
                        kind: TokenKind::Word,
                    });
                }
                if c == '.' {
                    tokens.push(Token {
                        span: Span::must(at, at + 1),
                        kind: TokenKind::Punct,
                    });
                }
            } else if start.is_none() {
                start = Some(at);
            }
        }
        let mut sentences = Vec::new();
        let mut first = 0;
        for (i, token) in tokens.iter().enumerate() {
            if token.kind == TokenKind::Punct {
                sentences.push(Sentence {
                    span: tokens[first].span.cover(token.span),
                    tokens: TokenId::must(first)..TokenId::must(i + 1),
                });
                first = i + 1;
            }
        }
        let paragraphs = vec![Paragraph {
            span: Span::must(0, text.len()),
            sentences: SentenceId::must(0)..SentenceId::must(sentences.len()),
            role: ParagraphRole::Body,
        }];
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(Segmentation {
            tokens,
            sentences,
            paragraphs,
        })
        .unwrap();
        doc
    }

    #[test]
    fn tags_every_token_of_a_document() {
        let data: Vec<TaggedSentence> = [
            (["The", "mayor", "said", "."], ["DT", "NN", "VBD", "."]),
            (["A", "senator", "spoke", "."], ["DT", "NN", "VBD", "."]),
        ]
        .iter()
        .map(|(w, t)| {
            TaggedSentence::from_names(w.iter().map(|x| x.to_string()).collect(), t).unwrap()
        })
        .collect();
        // Tiny data has tiny weights: keep them all.
        let config = TrainConfig {
            prune_below: 0.0,
            ..TrainConfig::default()
        };
        let tagger = Tagger::new(train(&data, &config));
        let mut doc = segmented("The senator said. A mayor spoke.");
        tagger.run(&mut doc).unwrap();
        assert!(doc.has(Layer::Pos));
        let names: Vec<&str> = doc.pos().iter().map(|t| t.name()).collect();
        assert_eq!(names, ["DT", "NN", "VBD", ".", "DT", "NN", "VBD", "."]);
        let mut empty = segmented("");
        tagger.run(&mut empty).unwrap();
        assert!(empty.pos().is_empty());
    }
}
