//! The analysed document: an article and the layers the stages add to it.

use std::collections::HashSet;
use std::fmt;

use crate::{
    Article, Attribution, Diagnostic, Entity, FoldedWords, Hedge, Paragraph, PosTag, Proposals,
    Quantity, Quotation, Sentence, SentenceId, Source, Span, SpanError, Stance, TimeExpr, Token,
    TokenId, TokenKind,
};

/// A layer of annotation a stage can assign.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[non_exhaustive]
pub enum Layer {
    /// [`Doc::tokens`].
    Tokens,
    /// [`Doc::sentences`].
    Sentences,
    /// [`Doc::paragraphs`].
    Paragraphs,
    /// [`Doc::pos`].
    Pos,
    /// [`Doc::attributions`].
    Attributions,
    /// [`Doc::stances`].
    Stances,
    /// [`Doc::sources`].
    Sources,
    /// [`Doc::hedges`].
    Hedges,
    /// [`Doc::entities`].
    Entities,
    /// [`Doc::quantities`].
    Quantities,
    /// [`Doc::times`].
    Times,
    /// [`Doc::quotations`]; last, so that the bits of the others keep their
    /// places.
    Quotations,
}

impl Layer {
    /// Every layer, in the order the JSON schema lists them (the order of
    /// the enum).
    pub const ALL: &'static [Layer] = <Layer as strum::VariantArray>::VARIANTS;

    /// The layer's name in JSON and in messages.
    pub fn name(self) -> &'static str {
        self.into()
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of layers.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct LayerSet(u32);

impl LayerSet {
    /// The empty set.
    pub const EMPTY: LayerSet = LayerSet(0);

    /// The set with `layer` added.
    pub fn with(self, layer: Layer) -> LayerSet {
        LayerSet(self.0 | layer.bit())
    }

    /// Whether `layer` is in the set.
    pub fn contains(self, layer: Layer) -> bool {
        self.0 & layer.bit() != 0
    }

    /// The layers in the set, in [`Layer::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Layer> {
        Layer::ALL
            .iter()
            .copied()
            .filter(move |layer| self.contains(*layer))
    }
}

/// A layer a stage handed over that does not fit the document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayerError {
    /// A span of the layer does not fit the text.
    #[error("layer {layer}: {source}")]
    BadSpan {
        /// The layer.
        layer: Layer,
        /// What is wrong with the span.
        source: SpanError,
    },
    /// A layer that runs parallel to the tokens has another length.
    #[error("layer {layer} has {got} entries for {tokens} tokens")]
    NotParallel {
        /// The layer.
        layer: Layer,
        /// Its length.
        got: usize,
        /// The number of tokens.
        tokens: usize,
    },
    /// A record refers to a token or sentence that does not exist, or ranges are
    /// out of order.
    #[error("layer {layer}: {what}")]
    BadReference {
        /// The layer.
        layer: Layer,
        /// What is wrong.
        what: String,
    },
    /// A stage could not compute the layer for this document (its model failed).
    #[error("layer {layer}: {message}")]
    Failed {
        /// The layer.
        layer: Layer,
        /// What failed.
        message: String,
    },
}

/// An article and its layers of annotation.
///
/// The document owns the article text, which no stage changes. Each layer is a
/// vector of records with byte spans into that text; a layer that no stage has
/// assigned is empty and [`Doc::has`] says so, which tells "no attributions were
/// found" apart from "attributions were not looked for".
#[derive(Clone, Debug)]
pub struct Doc {
    article: Article,
    annotated: LayerSet,
    tokens: Vec<Token>,
    folded: FoldedWords,
    sentences: Vec<Sentence>,
    paragraphs: Vec<crate::Paragraph>,
    pos: Vec<PosTag>,
    attributions: Vec<Attribution>,
    stances: Vec<Stance>,
    sources: Vec<Source>,
    hedges: Vec<Hedge>,
    entities: Vec<Entity>,
    quantities: Vec<Quantity>,
    times: Vec<TimeExpr>,
    quotations: Vec<Quotation>,
    proposals: Proposals,
    diagnostics: Vec<Diagnostic>,
}

/// The output of segmentation, set as one unit because the three layers index
/// each other.
#[derive(Clone, Debug, Default)]
pub struct Segmentation {
    /// Tokens in text order, not overlapping, none of them whitespace.
    pub tokens: Vec<Token>,
    /// Sentences in text order, covering every token once.
    pub sentences: Vec<Sentence>,
    /// Paragraphs in text order, covering every sentence once.
    pub paragraphs: Vec<Paragraph>,
}

impl Doc {
    /// A document with no layers yet.
    pub fn new(article: Article) -> Doc {
        Doc {
            article,
            annotated: LayerSet::EMPTY,
            tokens: Vec::new(),
            folded: FoldedWords::default(),
            sentences: Vec::new(),
            paragraphs: Vec::new(),
            pos: Vec::new(),
            attributions: Vec::new(),
            stances: Vec::new(),
            sources: Vec::new(),
            hedges: Vec::new(),
            entities: Vec::new(),
            quantities: Vec::new(),
            times: Vec::new(),
            quotations: Vec::new(),
            proposals: Proposals::default(),
            diagnostics: Vec::new(),
        }
    }

    /// The article.
    pub fn article(&self) -> &Article {
        &self.article
    }

    /// The article text, into which every span points.
    pub fn text(&self) -> &str {
        &self.article.text
    }

    /// Whether a stage has assigned `layer`.
    pub fn has(&self, layer: Layer) -> bool {
        self.annotated.contains(layer)
    }

    /// The layers assigned so far.
    pub fn layers(&self) -> LayerSet {
        self.annotated
    }

    /// The tokens, in text order.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Every token's word in the one folded form the stages match lists in
    /// (see [`FoldedWords`]), made when the tokens were set.
    pub fn folded(&self) -> &FoldedWords {
        &self.folded
    }

    /// The words of the text: tokens that are words or numbers, punctuation,
    /// quotation marks and symbols left out; 0 before segmentation. Rates such
    /// as hedges per thousand words count by it.
    pub fn word_count(&self) -> usize {
        self.tokens
            .iter()
            .filter(|token| matches!(token.kind, TokenKind::Word | TokenKind::Number))
            .count()
    }

    /// The sentences, in text order.
    pub fn sentences(&self) -> &[Sentence] {
        &self.sentences
    }

    /// The paragraphs, in text order.
    pub fn paragraphs(&self) -> &[Paragraph] {
        &self.paragraphs
    }

    /// One part-of-speech tag per token, once tagged.
    pub fn pos(&self) -> &[PosTag] {
        &self.pos
    }

    /// The attributions, ordered by their first cue fragment.
    pub fn attributions(&self) -> &[Attribution] {
        &self.attributions
    }

    /// The stance of each attribution.
    pub fn stances(&self) -> &[Stance] {
        &self.stances
    }

    /// The canonical sources.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// Unattributed hedges.
    pub fn hedges(&self) -> &[Hedge] {
        &self.hedges
    }

    /// Named-entity mentions.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// Quantities.
    pub fn quantities(&self) -> &[Quantity] {
        &self.quantities
    }

    /// Time expressions.
    pub fn times(&self) -> &[TimeExpr] {
        &self.times
    }

    /// Every quoted passage, in text order, with whose words it is.
    pub fn quotations(&self) -> &[Quotation] {
        &self.quotations
    }

    /// What readers and stages noticed without failing the article.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The text of a span.
    ///
    /// # Panics
    /// When the span is not of this document's text.
    #[track_caller]
    pub fn span_text(&self, span: Span) -> &str {
        span.slice(self.text())
    }

    /// The tokens of a sentence.
    pub fn sentence_tokens(&self, sentence: SentenceId) -> &[Token] {
        let range = &self.sentences[sentence.index()].tokens;
        &self.tokens[range.start.index()..range.end.index()]
    }

    /// The text of a token.
    pub fn token_text(&self, token: TokenId) -> &str {
        self.span_text(self.tokens[token.index()].span)
    }

    /// Records a diagnostic.
    pub fn push_diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Sets tokens, sentences and paragraphs.
    pub fn set_segmentation(&mut self, segmentation: Segmentation) -> Result<(), LayerError> {
        let text = self.text();
        check_spans(
            text,
            Layer::Tokens,
            segmentation.tokens.iter().map(|t| t.span),
        )?;
        check_ordered(Layer::Tokens, segmentation.tokens.iter().map(|t| t.span))?;
        check_spans(
            text,
            Layer::Sentences,
            segmentation.sentences.iter().map(|s| s.span),
        )?;
        check_spans(
            text,
            Layer::Paragraphs,
            segmentation.paragraphs.iter().map(|p| p.span),
        )?;
        check_tiling(
            Layer::Sentences,
            segmentation.tokens.len(),
            segmentation
                .sentences
                .iter()
                .map(|s| (s.tokens.start.index(), s.tokens.end.index())),
        )?;
        check_tiling(
            Layer::Paragraphs,
            segmentation.sentences.len(),
            segmentation
                .paragraphs
                .iter()
                .map(|p| (p.sentences.start.index(), p.sentences.end.index())),
        )?;
        self.folded = FoldedWords::of(self.text(), &segmentation.tokens);
        self.tokens = segmentation.tokens;
        self.sentences = segmentation.sentences;
        self.paragraphs = segmentation.paragraphs;
        self.annotated = self
            .annotated
            .with(Layer::Tokens)
            .with(Layer::Sentences)
            .with(Layer::Paragraphs);
        Ok(())
    }

    /// Sets one part-of-speech tag per token.
    pub fn set_pos(&mut self, pos: Vec<PosTag>) -> Result<(), LayerError> {
        if pos.len() != self.tokens.len() {
            return Err(LayerError::NotParallel {
                layer: Layer::Pos,
                got: pos.len(),
                tokens: self.tokens.len(),
            });
        }
        self.pos = pos;
        self.annotated = self.annotated.with(Layer::Pos);
        Ok(())
    }

    /// Sets the attributions.
    pub fn set_attributions(&mut self, attributions: Vec<Attribution>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Attributions,
            attributions
                .iter()
                .flat_map(|a| a.source.iter().chain(&a.cue).chain(&a.content).copied()),
        )?;
        self.attributions = attributions;
        // Proposed stances were for the attributions these replace.
        self.proposals.stances.clear();
        self.annotated = self.annotated.with(Layer::Attributions);
        Ok(())
    }

    /// What a model proposes to the stages after it (see [`Proposals`]).
    pub fn proposals(&self) -> &Proposals {
        &self.proposals
    }

    /// Sets the proposals, after the attributions they propose stances for:
    /// proposed stances are none or one per attribution, and proposed hedges
    /// are spans of the text, in order.
    pub fn set_proposals(&mut self, proposals: Proposals) -> Result<(), LayerError> {
        let (stances, attributions) = (proposals.stances.len(), self.attributions.len());
        if stances != 0 && stances != attributions {
            return Err(LayerError::BadReference {
                layer: Layer::Stances,
                what: format!("{stances} proposed stances for {attributions} attributions"),
            });
        }
        check_spans(self.text(), Layer::Hedges, proposals.hedges.iter().copied())?;
        check_ordered(Layer::Hedges, proposals.hedges.iter().copied())?;
        self.proposals = proposals;
        Ok(())
    }

    /// Sets the stances.
    pub fn set_stances(&mut self, stances: Vec<Stance>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Stances,
            stances.iter().flat_map(|s| s.evidence.iter().copied()),
        )?;
        self.check_attribution_ids(Layer::Stances, stances.iter().map(|s| s.attribution))?;
        self.stances = stances;
        self.annotated = self.annotated.with(Layer::Stances);
        Ok(())
    }

    /// Sets the sources.
    pub fn set_sources(&mut self, sources: Vec<Source>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Sources,
            sources.iter().flat_map(|s| {
                s.mentions
                    .iter()
                    .chain(&s.descriptors)
                    .copied()
                    .chain(s.merges.iter().map(|m| m.mention))
            }),
        )?;
        self.check_attribution_ids(
            Layer::Sources,
            sources.iter().flat_map(|s| s.attributions.iter().copied()),
        )?;
        for source in &sources {
            let mentions: HashSet<Span> = source.mentions.iter().copied().collect();
            if let Some(merge) = source
                .merges
                .iter()
                .find(|m| !mentions.contains(&m.mention))
            {
                return Err(LayerError::BadReference {
                    layer: Layer::Sources,
                    what: format!(
                        "source {:?} merges {}..{}, which is not one of its mentions",
                        source.name,
                        merge.mention.byte_start(),
                        merge.mention.byte_end()
                    ),
                });
            }
        }
        self.sources = sources;
        self.annotated = self.annotated.with(Layer::Sources);
        Ok(())
    }

    /// Sets the hedges.
    pub fn set_hedges(&mut self, hedges: Vec<Hedge>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Hedges,
            hedges.iter().flat_map(|h| [h.cue, h.scope]),
        )?;
        self.hedges = hedges;
        self.annotated = self.annotated.with(Layer::Hedges);
        Ok(())
    }

    /// Sets the entity mentions.
    pub fn set_entities(&mut self, entities: Vec<Entity>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Entities,
            entities.iter().map(|e| e.span),
        )?;
        self.entities = entities;
        self.annotated = self.annotated.with(Layer::Entities);
        Ok(())
    }

    /// Sets the quantities.
    pub fn set_quantities(&mut self, quantities: Vec<Quantity>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Quantities,
            quantities.iter().map(|q| q.span),
        )?;
        self.quantities = quantities;
        self.annotated = self.annotated.with(Layer::Quantities);
        Ok(())
    }

    /// Sets the time expressions.
    pub fn set_times(&mut self, times: Vec<TimeExpr>) -> Result<(), LayerError> {
        check_spans(self.text(), Layer::Times, times.iter().map(|t| t.span))?;
        self.times = times;
        self.annotated = self.annotated.with(Layer::Times);
        Ok(())
    }

    /// Sets the quotations: their spans must fit the text, and the attribution
    /// and source each names must exist.
    pub fn set_quotations(&mut self, quotations: Vec<Quotation>) -> Result<(), LayerError> {
        check_spans(
            self.text(),
            Layer::Quotations,
            quotations.iter().map(|q| q.span),
        )?;
        self.check_attribution_ids(
            Layer::Quotations,
            quotations.iter().filter_map(|q| q.attribution),
        )?;
        if let Some(id) = quotations
            .iter()
            .filter_map(|q| q.source)
            .find(|id| id.index() >= self.sources.len())
        {
            return Err(LayerError::BadReference {
                layer: Layer::Quotations,
                what: format!("source {} of {}", id.index(), self.sources.len()),
            });
        }
        self.quotations = quotations;
        self.annotated = self.annotated.with(Layer::Quotations);
        Ok(())
    }

    fn check_attribution_ids(
        &self,
        layer: Layer,
        ids: impl Iterator<Item = crate::AttributionId>,
    ) -> Result<(), LayerError> {
        for id in ids {
            if id.index() >= self.attributions.len() {
                return Err(LayerError::BadReference {
                    layer,
                    what: format!("attribution {} of {}", id.index(), self.attributions.len()),
                });
            }
        }
        Ok(())
    }
}

fn check_spans(
    text: &str,
    layer: Layer,
    spans: impl Iterator<Item = Span>,
) -> Result<(), LayerError> {
    for span in spans {
        Span::try_new_in(text, span.byte_start(), span.byte_end())
            .map_err(|source| LayerError::BadSpan { layer, source })?;
    }
    Ok(())
}

fn check_ordered(layer: Layer, spans: impl Iterator<Item = Span>) -> Result<(), LayerError> {
    let mut previous_end = 0;
    for span in spans {
        if span.byte_start() < previous_end || span.is_empty() {
            return Err(LayerError::BadReference {
                layer,
                what: format!("span {span:?} is empty or overlaps the one before it"),
            });
        }
        previous_end = span.byte_end();
    }
    Ok(())
}

/// Checks that index ranges cover `0..total` in order, each once.
fn check_tiling(
    layer: Layer,
    total: usize,
    ranges: impl Iterator<Item = (usize, usize)>,
) -> Result<(), LayerError> {
    let mut next = 0;
    for (start, end) in ranges {
        if start != next || end < start {
            return Err(LayerError::BadReference {
                layer,
                what: format!("range {start}..{end} does not follow {next}"),
            });
        }
        next = end;
    }
    if next != total {
        return Err(LayerError::BadReference {
            layer,
            what: format!("ranges stop at {next} of {total}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Article, Merge, MergeReason, SourceKind};

    #[test]
    fn a_merge_must_name_one_of_its_sources_mentions() {
        let mut doc = Doc::new(Article::new("m", "Ada Reyes spoke. Reyes left."));
        let source = |merged: Span| Source {
            name: "Ada Reyes".into(),
            kind: SourceKind::Person,
            gender: None,
            mentions: vec![Span::must(0, 9), Span::must(17, 22)],
            descriptors: Vec::new(),
            attributions: Vec::new(),
            merges: vec![Merge {
                mention: merged,
                reason: MergeReason::Surname,
            }],
        };
        assert!(doc.set_sources(vec![source(Span::must(17, 22))]).is_ok());
        let err = doc
            .set_sources(vec![source(Span::must(4, 9))])
            .expect_err("a merge of no mention");
        assert!(err.to_string().contains("not one of its mentions"), "{err}");
    }

    #[test]
    fn proposals_fit_the_attributions_and_go_with_them() {
        let mut doc = Doc::new(Article::new("p", "Ada said it may rain."));
        let said = Attribution {
            source: vec![Span::must(0, 3)],
            cue: vec![Span::must(4, 8)],
            content: vec![Span::must(9, 20)],
            kind: crate::AttributionKind::Indirect,
            confidence: 1.0,
        };
        doc.set_attributions(vec![said.clone()]).unwrap();
        let probabilities = [0.125; crate::StanceLabel::ALL.len()];
        let two = Proposals {
            stances: vec![probabilities; 2],
            hedges: Vec::new(),
        };
        let err = doc
            .set_proposals(two)
            .expect_err("two stances, one attribution");
        assert!(
            err.to_string().contains("2 proposed stances for 1"),
            "{err}"
        );
        let overlapping = Proposals {
            stances: Vec::new(),
            hedges: vec![Span::must(12, 15), Span::must(13, 20)],
        };
        assert!(doc.set_proposals(overlapping).is_err());
        let one = Proposals {
            stances: vec![probabilities],
            hedges: vec![Span::must(12, 15)],
        };
        doc.set_proposals(one.clone()).unwrap();
        assert_eq!(doc.proposals(), &one);
        doc.set_attributions(vec![said]).unwrap();
        assert!(doc.proposals().stances.is_empty(), "for other attributions");
        assert_eq!(doc.proposals().hedges, one.hedges);
    }
}
