//! Whether the writer hedged what an article reports.
//!
//! The hedges layer holds the writer's hedges only (one inside what a person
//! or an organization is reported to say is theirs, and is left out), so a
//! hedge of the layer that touches an attribution is the writer's doubt about
//! that attribution: in its cue ("reportedly said", "appeared to
//! acknowledge", or a source-less "reportedly" that is the cue itself) or in
//! the writer's description of what a document or video shows. Sentences
//! that attribute and quote no one are the writer's own statements, hedged
//! when a hedge of the layer lies in them. Every writer reads these facts from here,
//! so the JSON, the summary, the ledger and the page agree.

use crate::{Doc, Layer, ParagraphRole, QuoteStatus, Span, TokenKind};

/// Whether the writer hedged each attribution and each sentence in the
/// writer's own voice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certainty {
    /// One per attribution, in order: whether a hedge of the writer's lies
    /// in its cue or content. A hedge in the source's words ("the suspected
    /// gunman said") doubts who the source is, not what is attributed, and
    /// does not count.
    pub attributions: Vec<bool>,
    /// One per sentence, in order: `None` when the sentence is not in the
    /// writer's voice, else whether a hedge lies in it. A sentence is in the
    /// writer's voice when it has a word, none of its words lies in an
    /// attribution's cue or content or in a quotation of someone's words
    /// (floating or unattributed; found only when quotations were looked
    /// for), and it is not in a byline (which states nothing).
    pub sentences: Vec<Option<bool>>,
}

impl Certainty {
    /// The certainty of `doc`'s statements, or `None` unless sentences,
    /// attributions and hedges were all looked for: without any of them,
    /// "not hedged" could not be told from "not known".
    pub fn of(doc: &Doc) -> Option<Certainty> {
        if !(doc.has(Layer::Sentences) && doc.has(Layer::Attributions) && doc.has(Layer::Hedges)) {
            return None;
        }
        let hedges = SpanSet::new(doc.hedges().iter().map(|hedge| hedge.cue));
        let someones_words = doc
            .quotations()
            .iter()
            .filter(|q| matches!(q.status, QuoteStatus::Floating | QuoteStatus::Unattributed))
            .map(|q| q.span);
        let not_the_writers = SpanSet::new(
            doc.attributions()
                .iter()
                .flat_map(|a| a.cue.iter().chain(&a.content).copied())
                .chain(someones_words),
        );
        let attributions = doc
            .attributions()
            .iter()
            .map(|a| a.cue.iter().chain(&a.content).any(|s| hedges.overlaps(*s)))
            .collect();
        let mut sentences = vec![None; doc.sentences().len()];
        for paragraph in doc.paragraphs() {
            if paragraph.role == ParagraphRole::Byline {
                continue;
            }
            let range = paragraph.sentences.start.index()..paragraph.sentences.end.index();
            for (sentence, voice) in doc
                .sentences()
                .get(range.clone())
                .unwrap_or_default()
                .iter()
                .zip(sentences.get_mut(range).unwrap_or_default())
            {
                let tokens = doc
                    .tokens()
                    .get(sentence.tokens.start.index()..sentence.tokens.end.index())
                    .unwrap_or_default();
                let mut words = tokens.iter().filter(|t| t.kind == TokenKind::Word);
                let has_word = words.clone().next().is_some();
                if has_word && !words.any(|word| not_the_writers.overlaps(word.span)) {
                    *voice = Some(hedges.overlaps(sentence.span));
                }
            }
        }
        Some(Certainty {
            attributions,
            sentences,
        })
    }
}

/// Spans to test others against for overlap, in logarithmic time whatever
/// their number and however they nest: an article of many attributions and
/// sentences must not cost the product of the two.
struct SpanSet {
    /// The starts, in order.
    starts: Vec<usize>,
    /// At each place, the furthest end of the spans up to it.
    reach: Vec<usize>,
}

impl SpanSet {
    /// The set of `spans`; empty ones cover no byte and are left out.
    fn new(spans: impl Iterator<Item = Span>) -> SpanSet {
        let mut spans: Vec<Span> = spans.filter(|span| !span.is_empty()).collect();
        spans.sort_by_key(|span| span.byte_start());
        let mut furthest = 0;
        let reach = spans
            .iter()
            .map(|span| {
                furthest = furthest.max(span.byte_end());
                furthest
            })
            .collect();
        SpanSet {
            starts: spans.iter().map(|span| span.byte_start()).collect(),
            reach,
        }
    }

    /// Whether `span` shares a byte with one of the set: of those starting
    /// before it ends, one ends after it starts.
    fn overlaps(&self, span: Span) -> bool {
        let before_end = self
            .starts
            .partition_point(|&start| start < span.byte_end());
        before_end
            .checked_sub(1)
            .and_then(|last| self.reach.get(last))
            .is_some_and(|&end| end > span.byte_start())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Article, Attribution, AttributionKind, Hedge, Paragraph, Quotation, Segmentation, Sentence,
        SentenceId, Token, TokenId,
    };

    fn span_of(text: &str, words: &str) -> Span {
        let start = text.find(words).expect("the words are in the text");
        Span::must(start, start + words.len())
    }

    /// A document of `paragraphs`, each a list of sentences, whose tokens are
    /// its runs of letters (words) and other non-space characters.
    fn segmented(paragraphs: &[(ParagraphRole, &[&str])]) -> Doc {
        let text = paragraphs
            .iter()
            .map(|(_, sentences)| sentences.join(" "))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut tokens = Vec::new();
        let mut sentences = Vec::new();
        let mut paragraph_records = Vec::new();
        let mut at = 0;
        for (role, paragraph) in paragraphs {
            let first_sentence = sentences.len();
            for sentence in *paragraph {
                let start = at + text[at..].find(sentence).expect("in order");
                let first_token = tokens.len();
                for (offset, word) in sentence.split(' ').scan(0, |offset, word| {
                    let here = *offset;
                    *offset += word.len() + 1;
                    Some((here, word))
                }) {
                    let letters = word.trim_end_matches(|c: char| !c.is_alphabetic());
                    let word_start = start + offset;
                    if !letters.is_empty() {
                        tokens.push(Token {
                            span: Span::must(word_start, word_start + letters.len()),
                            kind: TokenKind::Word,
                        });
                    }
                    if letters.len() < word.len() {
                        tokens.push(Token {
                            span: Span::must(word_start + letters.len(), word_start + word.len()),
                            kind: TokenKind::Punct,
                        });
                    }
                }
                sentences.push(Sentence {
                    span: Span::must(start, start + sentence.len()),
                    tokens: TokenId::must(first_token)..TokenId::must(tokens.len()),
                });
                at = start + sentence.len();
            }
            let first = sentences[first_sentence].span;
            let last = sentences[sentences.len() - 1].span;
            paragraph_records.push(Paragraph {
                span: first.cover(last),
                sentences: SentenceId::must(first_sentence)..SentenceId::must(sentences.len()),
                role: *role,
            });
        }
        let mut doc = Doc::new(Article::new("t", &text));
        doc.set_segmentation(Segmentation {
            tokens,
            sentences,
            paragraphs: paragraph_records,
        })
        .expect("the segmentation fits");
        doc
    }

    fn attribution(text: &str, cue: &str, content: &str) -> Attribution {
        Attribution {
            source: Vec::new(),
            cue: vec![span_of(text, cue)],
            content: vec![span_of(text, content)],
            kind: AttributionKind::Indirect,
            confidence: 1.0,
        }
    }

    fn hedge(text: &str, cue: &str, scope: &str) -> Hedge {
        Hedge {
            cue: span_of(text, cue),
            scope: span_of(text, scope),
        }
    }

    #[test]
    fn a_hedge_in_the_cue_or_a_documents_content_hedges_the_attribution() {
        let mut doc = segmented(&[(
            ParagraphRole::Body,
            &[
                "The minister reportedly said the port would close.",
                "Aides insisted the talks had failed.",
                "Footage shows what appears to be a fire.",
            ],
        )]);
        let text = doc.text().to_string();
        doc.set_attributions(vec![
            attribution(&text, "reportedly said", "the port would close"),
            attribution(&text, "insisted", "the talks had failed"),
            attribution(&text, "shows", "what appears to be a fire"),
        ])
        .expect("the spans fit");
        doc.set_hedges(vec![
            hedge(&text, "reportedly", "said the port would close"),
            hedge(&text, "appears to", "be a fire"),
        ])
        .expect("the spans fit");

        let certainty = Certainty::of(&doc).expect("every layer was looked for");
        assert_eq!(certainty.attributions, [true, false, true]);
        assert_eq!(certainty.sentences, [None, None, None], "all attributed");
    }

    #[test]
    fn sentences_that_attribute_nothing_are_the_writers_and_hedged_by_a_hedge_in_them() {
        let mut doc = segmented(&[
            (ParagraphRole::Byline, &["By Ola Berg, probably."]),
            (
                ParagraphRole::Body,
                &[
                    "The bridge will likely reopen in May.",
                    "It closed in March.",
                    "Engineers said it was safe.",
                    "—",
                ],
            ),
        ]);
        let text = doc.text().to_string();
        doc.set_attributions(vec![attribution(&text, "said", "it was safe")])
            .expect("the spans fit");
        doc.set_hedges(vec![
            hedge(&text, "probably", "By Ola Berg"),
            hedge(&text, "likely", "reopen in May"),
        ])
        .expect("the spans fit");

        let certainty = Certainty::of(&doc).expect("every layer was looked for");
        assert_eq!(certainty.attributions, [false]);
        assert_eq!(
            certainty.sentences,
            [None, Some(true), Some(false), None, None],
            "a byline, a hedged and a plain statement, an attribution, no word"
        );
    }

    #[test]
    fn a_sentence_quoting_someone_is_not_the_writers() {
        let mut doc = segmented(&[(
            ParagraphRole::Body,
            &[
                "Rain may fall, the office said.",
                "Floods might follow.",
                "Roads may close.",
                "Farmers wait.",
            ],
        )]);
        let text = doc.text().to_string();
        doc.set_attributions(vec![attribution(&text, "said", "Rain may fall")])
            .expect("the spans fit");
        doc.set_hedges(vec![
            hedge(&text, "might", "follow"),
            hedge(&text, "may close", "Roads may close"),
        ])
        .expect("the spans fit");
        let quotation = |words, status| Quotation {
            span: span_of(&text, words),
            status,
            attribution: None,
            source: None,
        };
        assert_eq!(
            Certainty::of(&doc).map(|c| c.sentences),
            Some(vec![None, Some(true), Some(true), Some(false)]),
            "quotations not looked for: every sentence without an attribution is the writer's"
        );
        doc.set_quotations(vec![
            quotation("Floods might follow", QuoteStatus::Floating),
            quotation("Roads", QuoteStatus::Scare),
        ])
        .expect("the spans fit");
        assert_eq!(
            Certainty::of(&doc).map(|c| c.sentences),
            Some(vec![None, None, Some(true), Some(false)]),
            "a floating quote is the speaker's; scare quotes are the writer's"
        );
    }

    #[test]
    fn none_unless_attributions_and_hedges_were_looked_for() {
        let mut doc = segmented(&[(ParagraphRole::Body, &["It may rain."])]);
        assert_eq!(Certainty::of(&doc), None);
        doc.set_attributions(Vec::new()).expect("none");
        assert_eq!(Certainty::of(&doc), None, "hedges were not looked for");
        doc.set_hedges(Vec::new()).expect("none");
        assert_eq!(
            Certainty::of(&doc).map(|c| c.sentences),
            Some(vec![Some(false)])
        );
    }

    #[test]
    fn span_sets_find_overlaps_among_nested_and_empty_spans() {
        let set = SpanSet::new(
            [
                Span::must(10, 40),
                Span::must(12, 14),
                Span::must(50, 50),
                Span::must(60, 62),
            ]
            .into_iter(),
        );
        assert!(set.overlaps(Span::must(30, 45)), "inside the long span");
        assert!(!set.overlaps(Span::must(40, 50)), "ends are exclusive");
        assert!(
            !set.overlaps(Span::must(45, 55)),
            "the empty span covers nothing"
        );
        assert!(set.overlaps(Span::must(61, 70)));
        assert!(!set.overlaps(Span::must(0, 10)));
        assert!(!SpanSet::new(std::iter::empty()).overlaps(Span::must(0, 9)));
    }
}
