//! Tokens and sentence ends against the silver tokens.
//!
//! A token is right when its byte span equals a silver token's span. A sentence
//! boundary is the end offset of a sentence's last token; the sets of ends are
//! compared. Disagreements are tallied as short strings showing both sides, so
//! the most frequent ones point at what the segmenter gets wrong.
//!
//! A second sentence score sets aside on which side of a quotation mark a
//! boundary falls: each sentence's end is taken before the quotation marks that
//! close it. CoreNLP attaches an opening `''` or `”` to the sentence before it
//! (`said. ''It`), so this is the score that measures where sentences end rather
//! than where that habit puts the marks.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use attest_doc::{Segmentation, Span};
use serde::Serialize;

use super::{Prf, top_entries, write_prf_table};
use crate::SilverToken;

/// How our segmentation compares with the silver over the articles added.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct SegmentationReport {
    /// Articles compared.
    pub articles: usize,
    /// Tokens whose span equals a silver token's span.
    pub tokens: Prf,
    /// Sentence ends found at silver sentence ends.
    pub sentences: Prf,
    /// The same, with each end taken before the quotation marks closing the sentence.
    pub sentences_before_quotes: Prf,
    /// The most frequent token disagreements: our tokens vs silver's over one stretch.
    pub top_token_errors: Vec<(String, usize)>,
    /// The most frequent sentence-end disagreements, with the words around them.
    pub top_sentence_errors: Vec<(String, usize)>,
}

/// Sums segmentation counts over articles.
#[derive(Clone, Debug, Default)]
pub struct SegmentationScorer {
    articles: usize,
    tokens: Prf,
    sentences: Prf,
    sentences_before_quotes: Prf,
    token_errors: BTreeMap<String, usize>,
    sentence_errors: BTreeMap<String, usize>,
}

/// The longest stretch of text an error key shows.
const KEY_CHARS: usize = 60;

impl SegmentationScorer {
    /// A scorer with nothing added.
    pub fn new() -> SegmentationScorer {
        SegmentationScorer::default()
    }

    /// Adds one article: its text, our segmentation of it and its silver tokens.
    pub fn add(&mut self, text: &str, ours: &Segmentation, silver: &[SilverToken]) {
        self.articles += 1;
        let our_spans: Vec<Span> = ours.tokens.iter().map(|t| t.span).collect();
        let mut silver_spans: Vec<Span> = silver.iter().map(|t| t.span).collect();
        silver_spans.sort();
        let silver_set: BTreeSet<Span> = silver_spans.iter().copied().collect();
        let our_set: BTreeSet<Span> = our_spans.iter().copied().collect();
        let matched = our_set.intersection(&silver_set).count();
        self.tokens
            .add(Prf::from_counts(matched, our_set.len(), silver_set.len()));
        for key in token_disagreements(text, &our_spans, &silver_spans, &silver_set, &our_set) {
            *self.token_errors.entry(key).or_default() += 1;
        }

        let our_ends: BTreeSet<usize> = ours
            .sentences
            .iter()
            .filter_map(|s| {
                let last = s.tokens.end.index().checked_sub(1)?;
                (last >= s.tokens.start.index()).then_some(())?;
                ours.tokens.get(last).map(|t| t.span.byte_end())
            })
            .collect();
        let silver_ends = silver_sentence_ends(silver);
        let our_quote_ends: BTreeSet<usize> = ours
            .sentences
            .iter()
            .filter_map(|s| {
                let tokens = ours
                    .tokens
                    .get(s.tokens.start.index()..s.tokens.end.index())?;
                end_before_quotes(text, tokens.iter().map(|t| t.span))
            })
            .collect();
        let silver_quote_ends: BTreeSet<usize> = silver
            .chunk_by(|a, b| a.sentence == b.sentence)
            .filter_map(|sentence| end_before_quotes(text, sentence.iter().map(|t| t.span)))
            .collect();
        let matched = our_quote_ends.intersection(&silver_quote_ends).count();
        self.sentences_before_quotes.add(Prf::from_counts(
            matched,
            our_quote_ends.len(),
            silver_quote_ends.len(),
        ));
        let matched = our_ends.intersection(&silver_ends).count();
        self.sentences
            .add(Prf::from_counts(matched, our_ends.len(), silver_ends.len()));
        for end in our_ends.difference(&silver_ends) {
            let key = format!("extra end: {}", boundary_context(text, &our_spans, *end));
            *self.sentence_errors.entry(key).or_default() += 1;
        }
        for end in silver_ends.difference(&our_ends) {
            let key = format!(
                "missed end: {}",
                boundary_context(text, &silver_spans, *end)
            );
            *self.sentence_errors.entry(key).or_default() += 1;
        }
    }

    /// The report, with the `top` most frequent disagreements of each kind.
    pub fn report(&self, top: usize) -> SegmentationReport {
        SegmentationReport {
            articles: self.articles,
            tokens: self.tokens,
            sentences: self.sentences,
            sentences_before_quotes: self.sentences_before_quotes,
            top_token_errors: top_entries(&self.token_errors, top),
            top_sentence_errors: top_entries(&self.sentence_errors, top),
        }
    }
}

/// The end of a sentence's last token that is not a quotation mark (of its last
/// token when all are).
fn end_before_quotes(text: &str, spans: impl DoubleEndedIterator<Item = Span>) -> Option<usize> {
    let mut last = None;
    for span in spans.rev() {
        last.get_or_insert(span.byte_end());
        let is_quote = span.get(text).is_some_and(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| matches!(c, '"' | '\'' | '`' | '“' | '”' | '‘' | '’' | '«' | '»'))
        });
        if !is_quote {
            return Some(span.byte_end());
        }
    }
    last
}

impl fmt::Display for SegmentationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} articles against the silver tokens", self.articles)?;
        write_prf_table(
            f,
            32,
            [
                ("tokens", &self.tokens),
                ("sentences", &self.sentences),
                (
                    "sentences before quotation marks",
                    &self.sentences_before_quotes,
                ),
            ],
        )?;
        for (title, errors) in [
            ("most frequent token disagreements", &self.top_token_errors),
            (
                "most frequent sentence-end disagreements",
                &self.top_sentence_errors,
            ),
        ] {
            if !errors.is_empty() {
                writeln!(f, "{title}:")?;
                for (key, count) in errors {
                    writeln!(f, "{count:>7}  {key}")?;
                }
            }
        }
        Ok(())
    }
}

fn silver_sentence_ends(silver: &[SilverToken]) -> BTreeSet<usize> {
    let mut ends = BTreeSet::new();
    for (at, token) in silver.iter().enumerate() {
        let last_of_sentence = silver
            .get(at + 1)
            .is_none_or(|next| next.sentence != token.sentence);
        if last_of_sentence {
            ends.insert(token.span.byte_end());
        }
    }
    ends
}

/// Groups the tokens of both sides that are not matched into stretches of
/// overlapping tokens and names each stretch by the tokens of each side.
fn token_disagreements(
    text: &str,
    ours: &[Span],
    silver: &[Span],
    silver_set: &BTreeSet<Span>,
    our_set: &BTreeSet<Span>,
) -> Vec<String> {
    let mut wrong: Vec<(Span, bool)> = ours
        .iter()
        .filter(|s| !silver_set.contains(s))
        .map(|s| (*s, true))
        .chain(
            silver
                .iter()
                .filter(|s| !our_set.contains(s))
                .map(|s| (*s, false)),
        )
        .collect();
    wrong.sort();
    let mut keys = Vec::new();
    let mut group: Vec<(Span, bool)> = Vec::new();
    let mut group_end = 0;
    for (span, is_ours) in wrong {
        if !group.is_empty() && span.byte_start() >= group_end {
            keys.push(describe_group(text, &group));
            group.clear();
        }
        group_end = if group.is_empty() {
            span.byte_end()
        } else {
            group_end.max(span.byte_end())
        };
        group.push((span, is_ours));
    }
    if !group.is_empty() {
        keys.push(describe_group(text, &group));
    }
    keys
}

fn describe_group(text: &str, group: &[(Span, bool)]) -> String {
    let side = |want: bool| {
        let words: Vec<String> = group
            .iter()
            .filter(|(_, is_ours)| *is_ours == want)
            .map(|(span, _)| format!("[{}]", shown(span.get(text).unwrap_or_default())))
            .collect();
        if words.is_empty() {
            "(none)".to_owned()
        } else {
            words.join(" ")
        }
    };
    format!("ours {} vs silver {}", side(true), side(false))
}

/// The token that ends at `end` and the one after it, in the given tokenization.
fn boundary_context(text: &str, tokens: &[Span], end: usize) -> String {
    let at = tokens.partition_point(|t| t.byte_end() < end);
    let before = tokens.get(at).and_then(|t| t.get(text)).unwrap_or_default();
    let after = tokens
        .get(at + 1)
        .and_then(|t| t.get(text))
        .unwrap_or("(end)");
    format!("[{}] | [{}]", shown(before), shown(after))
}

/// Text for a one-line key: line breaks made visible, long stretches cut.
fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(KEY_CHARS)
        .map(|c| if c == '\n' { '⏎' } else { c })
        .collect();
    if text.chars().nth(KEY_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Paragraph, ParagraphRole, SentenceId, Token, TokenId, TokenKind};
    use std::ops::Range;

    fn segmentation(
        text: &str,
        tokens: &[(usize, usize)],
        sentences: &[Range<usize>],
    ) -> Segmentation {
        let tokens: Vec<Token> = tokens
            .iter()
            .map(|&(s, e)| Token {
                span: Span::try_new_in(text, s, e).unwrap(),
                kind: TokenKind::Word,
            })
            .collect();
        let sentences: Vec<attest_doc::Sentence> = sentences
            .iter()
            .map(|r| attest_doc::Sentence {
                span: tokens[r.start].span.cover(tokens[r.end - 1].span),
                tokens: TokenId::must(r.start)..TokenId::must(r.end),
            })
            .collect();
        let paragraphs = vec![Paragraph {
            span: Span::must(0, text.len()),
            sentences: SentenceId::must(0)..SentenceId::must(sentences.len()),
            role: ParagraphRole::Body,
        }];
        Segmentation {
            tokens,
            sentences,
            paragraphs,
        }
    }

    fn silver(tokens: &[(u32, usize, usize)]) -> Vec<SilverToken> {
        tokens
            .iter()
            .enumerate()
            .map(|(i, &(sentence, s, e))| SilverToken {
                sentence,
                index: i as u32 + 1,
                span: Span::must(s, e),
                word: String::new(),
                lemma: String::new(),
                pos: "NN".into(),
                ner: "O".into(),
                head: 0,
                deprel: "dep".into(),
            })
            .collect()
    }

    #[test]
    fn counts_token_and_sentence_matches_by_hand() {
        // "Sen. Warren spoke. Then left."
        let text = "Sen. Warren spoke. Then left.";
        // Ours splits "Sen" "." and ends a sentence after it.
        let ours = segmentation(
            text,
            &[
                (0, 3),
                (3, 4),
                (5, 11),
                (12, 17),
                (17, 18),
                (19, 23),
                (23, 28),
                (28, 29),
            ],
            &[0..2, 2..5, 5..8],
        );
        let gold = silver(&[
            (1, 0, 4),
            (1, 5, 11),
            (1, 12, 17),
            (1, 17, 18),
            (2, 19, 23),
            (2, 23, 28),
            (2, 28, 29),
        ]);
        let mut scorer = SegmentationScorer::new();
        scorer.add(text, &ours, &gold);
        let report = scorer.report(5);
        // 6 of our 8 tokens match; 6 of 7 silver tokens are found.
        assert_eq!(report.tokens, Prf::from_counts(6, 8, 7));
        // Our ends: 4, 18, 29; silver: 18, 29.
        assert_eq!(report.sentences, Prf::from_counts(2, 3, 2));
        assert_eq!(
            report.top_token_errors,
            [("ours [Sen] [.] vs silver [Sen.]".to_owned(), 1)]
        );
        assert_eq!(
            report.top_sentence_errors,
            [("extra end: [.] | [Warren]".to_owned(), 1)]
        );
        let shown = report.to_string();
        assert!(
            shown.contains(&format!("{:<32}  0.7500  0.8571  0.8000", "tokens")),
            "{shown}"
        );
        assert!(
            shown.contains("      1  ours [Sen] [.] vs silver [Sen.]"),
            "{shown}"
        );
    }

    #[test]
    fn identical_segmentations_score_one() {
        let text = "A b.\n\nC d.";
        let ours = segmentation(
            text,
            &[(0, 1), (2, 3), (3, 4), (6, 7), (8, 9), (9, 10)],
            &[0..3, 3..6],
        );
        let gold = silver(&[
            (1, 0, 1),
            (1, 2, 3),
            (1, 3, 4),
            (2, 6, 7),
            (2, 8, 9),
            (2, 9, 10),
        ]);
        let mut scorer = SegmentationScorer::new();
        scorer.add(text, &ours, &gold);
        scorer.add(text, &ours, &gold);
        let report = scorer.report(5);
        assert_eq!(report.articles, 2);
        assert_eq!(report.tokens.f1(), 1.0);
        assert_eq!(report.tokens.true_pos, 12);
        assert_eq!(report.sentences.f1(), 1.0);
        assert!(report.top_token_errors.is_empty());
    }

    #[test]
    fn shown_marks_line_breaks_and_cuts_long_text() {
        assert_eq!(shown("a\nb"), "a⏎b");
        let long = "x".repeat(100);
        assert_eq!(shown(&long).chars().count(), KEY_CHARS + 1);
    }
}
