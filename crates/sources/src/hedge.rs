//! Unattributed hedges: statements the article makes only on hearsay.
//!
//! A hedge cue is an adverb of hearsay ("reportedly", "allegedly",
//! "apparently", "purportedly", "supposedly") or of likelihood ("likely",
//! "probably"), "may" or "might" before "have" or "be" ("may have recorded"),
//! a raising construction ("is believed to", "is said to", "appears to",
//! "seems to"), "according to (media) reports" or "reports say".
//! Its scope is the clause that holds it: the sentence, cut at semicolons, with
//! its closing punctuation left out, and without the "according to reports"
//! or "reports say" phrase when that stands at the clause's edge. A cue inside
//! what someone else says (an attribution's content) is that source's hedge,
//! not the article's, and is skipped. So is a cue that is the whole cue of an
//! attribution ("reportedly" annotated as a cue with no source, as PolNeAR
//! does): that statement is already listed, as an attribution without a
//! source, and the summary would count the one piece of hearsay twice. A cue
//! that only overlaps an attribution's cue ("X reportedly said") is kept.
//!
//! "is expected to" is no hedge: attest's first gold set reads it as a plain
//! schedule ("The board is expected to vote in April").

use attest_doc::{Doc, Hedge, Layer, LayerError, Span, Stage, TokenKind};
use attest_lang::{HedgeUse, hedge_word};

use crate::words::View;

/// The hedge stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct HedgeFinder;

impl Stage for HedgeFinder {
    const NAME: &'static str = "hedges";
    const REQUIRES: &'static [Layer] = &[Layer::Tokens, Layer::Sentences, Layer::Attributions];
    const ASSIGNS: &'static [Layer] = &[Layer::Hedges];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let hedges = find_hedges(doc);
        doc.set_hedges(hedges)
    }
}

/// An adverb of hearsay ("reportedly"), a hedge by itself.
pub(crate) fn is_hedge_adverb(word: &str) -> bool {
    hedge_word(word, HedgeUse::Hearsay)
}

fn is_be(word: &str) -> bool {
    matches!(
        word,
        "is" | "are" | "was" | "were" | "'s" | "been" | "being" | "be"
    )
}

/// The token range of a hedge cue starting at `i`, if one starts there.
fn cue_at(view: &View<'_>, i: usize) -> Option<(usize, usize, bool)> {
    let word = view.word(i);
    if is_hedge_adverb(word) {
        return Some((i, i + 1, false));
    }
    if hedge_word(word, HedgeUse::Likelihood) {
        return Some((i, i + 1, false));
    }
    if hedge_word(word, HedgeUse::Modal) && matches!(view.word(i + 1), "have" | "be") {
        return Some((i, i + 1, false));
    }
    if word == "reports"
        && matches!(view.word(i + 1), "say" | "said" | "suggest" | "suggested")
        && !i.checked_sub(1).is_some_and(|k| view.is_capitalized(k))
    {
        return Some((i, i + 2, true));
    }
    if is_be(word) && hedge_word(view.word(i + 1), HedgeUse::Raising) && view.word(i + 2) == "to" {
        return Some((i, i + 3, false));
    }
    if hedge_word(word, HedgeUse::Seem) && view.word(i + 1) == "to" {
        return Some((i, i + 2, false));
    }
    if word == "according" && view.word(i + 1) == "to" {
        let mut k = i + 2;
        // Up to two lowercase words may qualify the reports ("industry reports").
        while k < i + 5
            && (hedge_word(view.word(k), HedgeUse::ReportModifier)
                || (k < i + 4 && view.kind(k) == Some(TokenKind::Word) && !view.is_capitalized(k)))
            && !matches!(view.word(k), "reports" | "reporting")
        {
            k += 1;
        }
        if matches!(view.word(k), "reports" | "reporting") {
            return Some((i, k + 1, true));
        }
    }
    None
}

/// The unattributed hedges of `doc`, in text order.
pub fn find_hedges(doc: &Doc) -> Vec<Hedge> {
    let view = View::new(doc);
    let reported: Vec<Span> = doc
        .attributions()
        .iter()
        .flat_map(|a| a.content.iter().copied())
        .collect();
    let whole_cues: std::collections::BTreeSet<(usize, usize)> = doc
        .attributions()
        .iter()
        .filter_map(|a| match a.cue.as_slice() {
            [cue] => Some((cue.byte_start(), cue.byte_end())),
            _ => None,
        })
        .collect();
    let mut hedges = Vec::new();
    let mut i = 0;
    while i < view.len() {
        let Some((start, end, phrase)) = cue_at(&view, i) else {
            i += 1;
            continue;
        };
        i = end;
        let (Some(first), Some(last)) = (view.span(start), view.span(end - 1)) else {
            continue;
        };
        let cue = first.cover(last);
        if reported.iter().any(|span| span.overlaps(cue))
            || whole_cues.contains(&(cue.byte_start(), cue.byte_end()))
        {
            continue;
        }
        let scope = scope_of(&view, start, end, phrase).unwrap_or(cue);
        hedges.push(Hedge { cue, scope });
    }
    hedges
}

/// The clause a cue at `start..end` hedges.
fn scope_of(view: &View<'_>, start: usize, end: usize, phrase: bool) -> Option<Span> {
    let sentence = view.sentence_of(start);
    let mut from = (sentence.start..start)
        .rev()
        .find(|&k| view.word(k) == ";")
        .map_or(sentence.start, |k| k + 1);
    let mut to = (end..sentence.end)
        .find(|&k| view.word(k) == ";")
        .unwrap_or(sentence.end);
    if phrase {
        // "according to reports" at a clause edge is not part of what it hedges.
        let rest_is_closing = (end..to).all(|k| view.is_break(k));
        if rest_is_closing {
            to = start;
        } else if (from..start).all(|k| view.is_break(k)) {
            from = end;
        }
    }
    while from < to && view.is_break(from) {
        from += 1;
    }
    while to > from && view.is_break(to - 1) {
        to -= 1;
    }
    if from >= to {
        return None;
    }
    Some(view.span(from)?.cover(view.span(to - 1)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{attribution, doc_with};

    fn hedges(text: &str) -> Vec<(String, String)> {
        let doc = doc_with(text, Vec::new());
        find_hedges(&doc)
            .into_iter()
            .map(|h| {
                (
                    doc.span_text(h.cue).to_string(),
                    doc.span_text(h.scope).to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn finds_adverbs_and_raising_verbs_with_their_clause() {
        assert_eq!(
            hedges("The chef reportedly quit on Friday. Nobody knows why."),
            [(
                "reportedly".to_string(),
                "The chef reportedly quit on Friday".to_string()
            )]
        );
        assert_eq!(
            hedges("The mill closed in May; its owner is believed to have left town."),
            [(
                "is believed to".to_string(),
                "its owner is believed to have left town".to_string()
            )]
        );
        assert_eq!(
            hedges("The ferry appears to have run aground."),
            [(
                "appears to".to_string(),
                "The ferry appears to have run aground".to_string()
            )]
        );
    }

    #[test]
    fn leaves_according_to_reports_out_of_its_scope() {
        assert_eq!(
            hedges("The band split up last year, according to local media reports."),
            [(
                "according to local media reports".to_string(),
                "The band split up last year".to_string()
            )]
        );
        assert_eq!(
            hedges("According to reports, the band split up."),
            [(
                "According to reports".to_string(),
                "the band split up".to_string()
            )]
        );
        assert!(hedges("According to the report, the band split up.").is_empty());
    }

    #[test]
    fn skips_hedges_inside_attributions() {
        let text = "Ann Lee said the chef had allegedly quit. The cook allegedly stayed.";
        let doc = doc_with(
            text,
            vec![attribution(
                text,
                "Ann Lee",
                "said",
                "the chef had allegedly quit",
            )],
        );
        let found = find_hedges(&doc);
        assert_eq!(found.len(), 1);
        assert_eq!(doc.span_text(found[0].scope), "The cook allegedly stayed");
    }

    #[test]
    fn a_hedge_that_is_an_attributions_whole_cue_is_listed_there_only() {
        let text = "The mayor reportedly met the builder on Friday.";
        let reportedly = attribution(text, "", "reportedly", "met the builder on Friday");
        let doc = doc_with(text, vec![reportedly]);
        assert!(find_hedges(&doc).is_empty());

        let text = "The mayor reportedly said the builder was late.";
        let said = attribution(text, "The mayor", "reportedly said", "the builder was late");
        let doc = doc_with(text, vec![said]);
        let found = find_hedges(&doc);
        assert_eq!(found.len(), 1, "a cue it only overlaps keeps the hedge");
        assert_eq!(doc.span_text(found[0].cue), "reportedly");
    }

    #[test]
    fn likelihood_words_and_unnamed_reports_hedge_their_clause() {
        assert_eq!(
            hedges("The strike will likely end soon."),
            [(
                "likely".to_string(),
                "The strike will likely end soon".to_string()
            )]
        );
        assert_eq!(
            hedges("A sensor may have failed before noon."),
            [(
                "may".to_string(),
                "A sensor may have failed before noon".to_string()
            )]
        );
        assert!(
            hedges("Whether the town may build the road is for the court.").is_empty(),
            "\"may\" of permission"
        );
        assert_eq!(
            hedges("Harlow Foods to close its plant, reports say"),
            [(
                "reports say".to_string(),
                "Harlow Foods to close its plant".to_string()
            )]
        );
        assert!(
            hedges("The board is expected to vote in April.").is_empty(),
            "a schedule, not a hedge"
        );
    }
}
