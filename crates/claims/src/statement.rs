//! The statements of an analysed article: what each attribution's content,
//! each quotation that continues a speaker, and each sentence in the
//! writer's own voice states, with who it is credited to and how firmly.

use attest_doc::{Certainty, Doc, OffsetIndex, QuoteStatus, Source, Span, StanceLabel, TokenKind};
use attest_lang::{HedgeUse, hedge_word};

use crate::fingerprint::Fingerprint;
use crate::role::source_key;
use crate::words::{claim_words, starting_in};

/// Where in its article a statement is made: an index into a layer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Said {
    /// The content of the attribution of this index.
    Attribution(usize),
    /// A quotation of this index that continues its speaker with no cue of
    /// its own.
    Quotation(usize),
    /// A sentence of this index in the writer's own voice. It starts a
    /// claim only when it states a figure: most such sentences are the
    /// article's narration, but a figure is something to check, and an
    /// attribution attest missed leaves its claim in such a sentence.
    Sentence(usize),
}

impl Said {
    /// The layer's name as the ledger stores it (`attribution`, `quotation`,
    /// `sentence`) and the index in it.
    pub fn layer(self) -> (&'static str, usize) {
        match self {
            Said::Attribution(i) => ("attribution", i),
            Said::Quotation(i) => ("quotation", i),
            Said::Sentence(i) => ("sentence", i),
        }
    }
}

/// One statement and what its claim is compared by.
#[derive(Clone, PartialEq, Debug)]
pub struct Statement {
    /// Where it is made.
    pub said: Said,
    /// What states it: the content spans, the quotation or the sentence.
    pub spans: Vec<Span>,
    /// The index of the source it is credited to in the sources layer.
    pub source: Option<usize>,
    /// The attribution's stance; `None` for a quotation or a sentence.
    pub stance: Option<StanceLabel>,
    /// Whether it is stated with a hedge: the writer's, or a word of doubt in
    /// the content itself ("may have failed").
    pub hedged: bool,
    /// What its claim is compared by.
    pub fingerprint: Fingerprint,
}

impl Statement {
    /// Whether the statement may start a claim, rather than only join one.
    pub fn may_start_a_claim(&self) -> bool {
        !matches!(self.said, Said::Sentence(_)) || !self.fingerprint.figures.is_empty()
    }

    /// The bytes from its first span's start to its last span's end.
    pub fn extent(&self) -> Option<Span> {
        let first = self.spans.first()?;
        Some(self.spans.iter().fold(*first, |all, span| all.cover(*span)))
    }

    /// Where it stands in `doc` (whose text `offsets` indexes) and who it is
    /// credited to, as the ledger stores it and `attest statements` writes
    /// it; `None` for a statement without spans.
    pub fn placement<'d>(&self, doc: &'d Doc, offsets: &OffsetIndex) -> Option<Placement<'d>> {
        let extent = self.extent()?;
        let cp = |byte: usize| offsets.byte_to_cp(byte).unwrap_or(0);
        let source = self.source.and_then(|i| doc.sources().get(i));
        Some(Placement {
            extent,
            chars: (cp(extent.byte_start()), cp(extent.byte_end())),
            source,
            source_key: source.map(|s| source_key(&s.name, s.kind)),
        })
    }
}

/// Where a statement stands in its article, and who it is credited to.
#[derive(Clone, Debug)]
pub struct Placement<'d> {
    /// Its bytes, from its first span's start to its last span's end.
    pub extent: Span,
    /// The same range in code points.
    pub chars: (usize, usize),
    /// The source it is credited to.
    pub source: Option<&'d Source>,
    /// That source's key across articles ([`source_key`]).
    pub source_key: Option<String>,
}

/// The statements of `doc` that carry enough words to compare, in text order
/// of each kind: attributions, then quotations, then sentences.
pub fn statements(doc: &Doc) -> Vec<Statement> {
    let Some(certainty) = Certainty::of(doc) else {
        return Vec::new();
    };
    let mut source_of = vec![None; doc.attributions().len()];
    for (index, source) in doc.sources().iter().enumerate() {
        for attribution in &source.attributions {
            if let Some(slot) = source_of.get_mut(attribution.index()) {
                *slot = Some(index);
            }
        }
    }
    let mut stance_of = vec![None; doc.attributions().len()];
    for stance in doc.stances() {
        if let Some(slot) = stance_of.get_mut(stance.attribution.index()) {
            *slot = Some(stance.label);
        }
    }
    let mut out = Vec::new();
    let mut push = |said: Said, spans: Vec<Span>, source, stance, writer_hedged: bool| {
        let words = claim_words(doc, &spans);
        if let Some(fingerprint) = Fingerprint::of(&words) {
            let hedged = writer_hedged || spans.iter().any(|span| doubts(doc, *span));
            out.push(Statement {
                said,
                spans,
                source,
                stance,
                hedged,
                fingerprint,
            });
        }
    };
    for (index, attribution) in doc.attributions().iter().enumerate() {
        if attribution.content.is_empty() {
            continue;
        }
        push(
            Said::Attribution(index),
            attribution.content.clone(),
            source_of.get(index).copied().flatten(),
            stance_of.get(index).copied().flatten(),
            certainty.attributions.get(index).copied().unwrap_or(false),
        );
    }
    for (index, quotation) in doc.quotations().iter().enumerate() {
        if quotation.status == QuoteStatus::Floating {
            let source = quotation.source.map(|id| id.index());
            push(
                Said::Quotation(index),
                vec![quotation.span],
                source,
                None,
                false,
            );
        }
    }
    for (index, (sentence, voice)) in doc.sentences().iter().zip(&certainty.sentences).enumerate() {
        if let Some(hedged) = voice {
            push(
                Said::Sentence(index),
                vec![sentence.span],
                None,
                None,
                *hedged,
            );
        }
    }
    let (attributed, others): (Vec<Statement>, Vec<Statement>) = out
        .into_iter()
        .partition(|statement| matches!(statement.said, Said::Attribution(_)));
    let mut merged = merge_nested(attributed);
    merged.extend(others);
    merged
}

/// The statements of `doc` in the order they are grouped: in text order,
/// those that may start a claim first, so that a writer's sentence can join a
/// claim its own article brings.
pub fn in_grouping_order(doc: &Doc) -> Vec<Statement> {
    let mut found = statements(doc);
    found.sort_by_key(|statement| statement.extent().map(|span| span.byte_start()));
    let (starting, joining): (Vec<Statement>, Vec<Statement>) =
        found.into_iter().partition(Statement::may_start_a_claim);
    starting.into_iter().chain(joining).collect()
}

/// Attribution statements with one inside another's content ("Ruiz said
/// the audit confirmed that …") as one statement of the outer one's source:
/// the claim appears once, held as firmly as the firmer of the two cues, and
/// hedged when either is.
fn merge_nested(mut found: Vec<Statement>) -> Vec<Statement> {
    found.sort_by_key(|s| {
        s.extent()
            .map(|e| (e.byte_start(), std::cmp::Reverse(e.byte_end())))
    });
    let mut kept: Vec<Statement> = Vec::with_capacity(found.len());
    for statement in found {
        let inside = |outer: &Statement| match (outer.extent(), statement.extent()) {
            (Some(outer), Some(inner)) => outer.contains(inner),
            _ => false,
        };
        match kept.last_mut() {
            Some(outer) if inside(outer) => {
                outer.source = outer.source.or(statement.source);
                outer.stance = crate::role::firmer(outer.stance, statement.stance);
                outer.hedged |= statement.hedged;
            }
            _ => kept.push(statement),
        }
    }
    kept
}

/// Whether a word of doubt stands in `span`: an adverb of hearsay or
/// likelihood ("reportedly", "probably"), or a modal before "have" or "be"
/// ("may have failed").
fn doubts(doc: &Doc, span: Span) -> bool {
    let folded = doc.folded();
    let inside: Vec<usize> = starting_in(doc.tokens(), |t| t.span, span)
        .filter(|&i| {
            let token = doc.tokens()[i];
            token.kind == TokenKind::Word && span.contains(token.span)
        })
        .collect();
    inside.iter().enumerate().any(|(at, &i)| {
        let word = folded.get(i);
        hedge_word(word, HedgeUse::Hearsay)
            || hedge_word(word, HedgeUse::Likelihood)
            || (hedge_word(word, HedgeUse::Modal)
                && inside
                    .get(at + 1)
                    .is_some_and(|&next| matches!(folded.get(next), "have" | "be")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, Limits};
    use attest_pipeline::{LinearModels, Pipeline};

    #[test]
    fn a_statement_nested_in_another_is_one_statement_of_the_outer_source() {
        let models = LinearModels::bundled().expect("the bundled models load");
        let pipeline = Pipeline::fast(&Limits::DEFAULT, models).expect("the pipeline builds");
        let text = "Inspector Ana Ruiz said the final audit confirmed that the Dunmore plant \
                    failed 11 safety inspections since 2023.";
        let doc = pipeline.analyze(Article::new("a", text));
        let nested = doc.attributions().len();
        let found = statements(&doc);
        assert!(nested >= 2, "the test wants a nested attribution");
        assert_eq!(found.len(), 1, "{found:?}");
        let source = found[0].source.and_then(|s| doc.sources().get(s));
        assert!(
            source.is_some_and(|s| s.name.ends_with("Ana Ruiz")),
            "{source:?}"
        );
        assert_eq!(found[0].stance, Some(StanceLabel::Confirms));
    }
}
