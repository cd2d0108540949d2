//! The writer's hedges: where the article itself marks a statement as
//! uncertain or second-hand.
//!
//! Rules propose, a model decides. A rule cue is an adverb of hearsay
//! ("reportedly", "allegedly", "apparently", "purportedly", "supposedly") or of
//! likelihood ("likely", "probably"), "may" or "might" before "have" or "be"
//! ("may have recorded"), a raising construction ("is believed to", "is said
//! to", "is not thought to", "appears to", "seems to"), "according to (media)
//! reports" or "reports say". Its scope is the clause that holds it: the sentence, cut at
//! semicolons, with its closing punctuation left out, and without the
//! "according to reports" or "reports say" phrase when that stands at the
//! clause's edge.
//!
//! With a model (`models/hedges.model`, learned from attest's labels of PolNeAR
//! under `shared/docs/hedges-annotation.md`), every rule cue and every word the
//! labels use as a hedge ("could", "may", "perhaps", "seemed", "potential",
//! "unclear", the model's vocabulary) is a candidate, and a classifier decides
//! from the word, its neighbours and tags, an "if" or "whether" before it, and
//! where it stands among the attributions: inside the content of a person's or
//! an organization's attribution a hedge is the source's, in a cue or in what a
//! document shows it is the writer's. A candidate the rules did not shape is
//! its one word, and accepted candidates at most a word apart are one cue
//! ("almost certainly", "might be expected"). Without a model, the rules decide alone, and a cue inside
//! someone's content or the whole cue of an attribution is skipped.
//!
//! In accurate mode, with an encoder that has a hedge head, the cues it tags
//! (the document's [`attest_doc::Proposals`]) are hedges too where those
//! found here do not overlap them, each with its clause as scope.

use std::collections::BTreeSet;

use attest_doc::{
    Doc, Hedge, Layer, LayerError, PosTag, SourceKind, Span, Stage, TokenKind, TokenView,
};
use attest_lang::{HedgeUse, hedge_word};
use attest_learn::ModelError;

use crate::classifier::{Classifier, Features, Names, overrule};
use crate::lexicon::is_be;
use crate::words::is_break;

/// The kind of the hedge model's file.
pub const MODEL_KIND: [u8; 4] = *b"HDG1";

/// How much more a candidate must score as a hedge than as none: precision
/// over recall, tuned on dev (docs/sources.md).
const MARGIN: f32 = 2.0;

/// The lead a candidate the rules shaped ("appears to", "is believed to")
/// needs: such a phrase is a hedge far more often than a bare trigger word
/// ("could"), so it needs less (tuned on dev with [`MARGIN`]).
const RULE_MARGIN: f32 = 0.5;

/// The classes of the hedge model.
pub const CLASSES: [&str; 2] = ["no", "hedge"];

/// The model shipped with attest, trained by `attest train`.
static BUNDLED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/hedges.model"
));

/// The hedge stage.
#[derive(Clone, Debug, Default)]
pub struct HedgeFinder {
    model: Option<Classifier>,
}

impl HedgeFinder {
    /// The stage with the rules alone.
    pub fn rules() -> HedgeFinder {
        HedgeFinder { model: None }
    }

    /// The stage with a hedge model file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<HedgeFinder, ModelError> {
        Classifier::from_bytes(bytes, MODEL_KIND).map(|model| HedgeFinder { model: Some(model) })
    }

    /// The stage with the model built into attest; an error names the file.
    pub fn bundled() -> Result<HedgeFinder, ModelError> {
        HedgeFinder::from_bytes(BUNDLED).map_err(|e| e.in_file("bundled hedges.model"))
    }

    /// The writer's hedges of `doc`, in text order: those of the rules and
    /// the model, and the cues accurate mode's hedge head proposes where they
    /// found none (see [`attest_doc::Proposals`]).
    pub fn find(&self, doc: &Doc) -> Vec<Hedge> {
        let found = self.find_own(doc);
        let proposed = &doc.proposals().hedges;
        if proposed.is_empty() {
            return found;
        }
        let view = TokenView::new(doc);
        let mut added = Vec::new();
        // Both lists are in text order, so one pass finds the overlaps.
        let mut next = 0;
        for &cue in proposed {
            while found
                .get(next)
                .is_some_and(|h| h.cue.byte_end() <= cue.byte_start())
            {
                next += 1;
            }
            let overlapped = found
                .get(next)
                .is_some_and(|h| h.cue.byte_start() < cue.byte_end());
            let tokens = view.tokens_in(cue);
            if tokens.is_empty() || overlapped {
                continue;
            }
            let scope = scope_of(&view, tokens.start, tokens.end, false).unwrap_or(cue);
            added.push(Hedge { cue, scope });
        }
        let mut hedges = found;
        hedges.extend(added);
        hedges.sort_by_key(|h| (h.cue.byte_start(), h.cue.byte_end()));
        hedges
    }

    /// The hedges of the rules and the model alone.
    fn find_own(&self, doc: &Doc) -> Vec<Hedge> {
        let Some(model) = &self.model else {
            return find_hedges(doc);
        };
        let view = TokenView::new(doc);
        let context = Context::new(doc, &view);
        let accepted = candidates(&view, model.vocabulary())
            .into_iter()
            .filter(|candidate| {
                let scores = model.scores(|out| features(&view, &context, candidate, out));
                let margin = if candidate.rule { RULE_MARGIN } else { MARGIN };
                overrule(&scores, 0, margin) == 1
            });
        joined(&view, accepted)
            .into_iter()
            .filter_map(|candidate| {
                let cue = view
                    .span(candidate.start)?
                    .cover(view.span(candidate.end - 1)?);
                let scope = scope_of(&view, candidate.start, candidate.end, candidate.phrase)
                    .unwrap_or(cue);
                Some(Hedge { cue, scope })
            })
            .collect()
    }
}

impl Stage for HedgeFinder {
    const NAME: &'static str = "hedges";
    const REQUIRES: &'static [Layer] = &[
        Layer::Tokens,
        Layer::Sentences,
        Layer::Attributions,
        Layer::Sources,
    ];
    const ASSIGNS: &'static [Layer] = &[Layer::Hedges];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let hedges = self.find(doc);
        doc.set_hedges(hedges)
    }
}

/// A place a hedge may start: a rule's cue, or a word of the model's vocabulary.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    start: usize,
    end: usize,
    /// An "according to reports" or "reports say" phrase.
    phrase: bool,
    /// Whether the rules shaped it.
    rule: bool,
}

fn candidates(view: &TokenView<'_>, triggers: &BTreeSet<String>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < view.len() {
        if let Some((start, end, phrase)) = cue_at(view, i) {
            out.push(Candidate {
                start,
                end,
                phrase,
                rule: true,
            });
            i = end;
        } else {
            if triggers.contains(view.word(i)) {
                out.push(Candidate {
                    start: i,
                    end: i + 1,
                    phrase: false,
                    rule: false,
                });
            }
            i += 1;
        }
    }
    out
}

/// The hedges the model accepted, each run of them with at most one word
/// between two joined into one cue: "almost certainly", "unclear whether" and
/// "might be expected" are each one hedge of one clause.
fn joined(view: &TokenView<'_>, accepted: impl IntoIterator<Item = Candidate>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for candidate in accepted {
        if let Some(last) = out.last_mut() {
            let between = last.end..candidate.start;
            if between.len() <= 1
                && between
                    .clone()
                    .all(|k| view.kind(k) == Some(TokenKind::Word))
            {
                last.end = candidate.end;
                last.phrase |= candidate.phrase;
                last.rule |= candidate.rule;
                continue;
            }
        }
        out.push(candidate);
    }
    out
}

/// Where each token stands among the attributions.
struct Context {
    /// For each token, what speaks the innermost content holding it:
    /// `Some(None)` an attribution without a source, `Some(Some(kind))` one
    /// whose source is of that kind, `None` no content.
    content: Vec<Option<Option<SourceKind>>>,
    /// For each token, whether it is in a cue, and whether that cue's
    /// attribution has no source.
    cue: Vec<Option<bool>>,
    /// For each token, whether an "if", "unless" or "whether" comes before
    /// it in its sentence.
    if_before: Vec<bool>,
    /// For each token, whether its sentence holds a "would".
    would: Vec<bool>,
}

impl Context {
    fn new(doc: &Doc, view: &TokenView<'_>) -> Context {
        let mut kind_of = vec![None; doc.attributions().len()];
        for source in doc.sources() {
            for id in &source.attributions {
                if let Some(slot) = kind_of.get_mut(id.index()) {
                    *slot = Some(source.kind);
                }
            }
        }
        let mut content = vec![None; view.len()];
        let mut width = vec![usize::MAX; view.len()];
        let mut cue = vec![None; view.len()];
        for (index, attribution) in doc.attributions().iter().enumerate() {
            let speaker = if attribution.source.is_empty() {
                None
            } else {
                kind_of[index]
            };
            let tokens = view.tokens_of(&attribution.content);
            let size = tokens.len();
            for i in tokens {
                if size < width[i] {
                    width[i] = size;
                    content[i] = Some(speaker);
                }
            }
            for i in view.tokens_of(&attribution.cue) {
                cue[i] = Some(attribution.source.is_empty());
            }
        }
        // One pass per sentence, so that no candidate rescans its sentence.
        let (mut if_before, mut would) = (vec![false; view.len()], vec![false; view.len()]);
        let mut start = 0;
        while start < view.len() {
            let sentence = view.sentence_of(start);
            let end = sentence.end.max(start + 1).min(view.len());
            let has_would = (start..end).any(|i| view.word(i) == "would");
            let mut seen_if = false;
            for i in start..end {
                if_before[i] = seen_if;
                would[i] = has_would;
                seen_if |= matches!(view.word(i), "if" | "unless" | "whether");
            }
            start = end;
        }
        Context {
            content,
            cue,
            if_before,
            would,
        }
    }
}

/// What the model reads of one candidate.
fn features(
    view: &TokenView<'_>,
    context: &Context,
    candidate: &Candidate,
    out: &mut impl Features,
) {
    let (start, end) = (candidate.start, candidate.end);
    let word = view.word(start);
    out.add(&["bias"]);
    out.add(&["w=", word]);
    if candidate.rule {
        out.add(&["rule"]);
        let words = (start..end)
            .map(|i| view.word(i))
            .collect::<Vec<_>>()
            .join("_");
        out.add(&["rule_cue=", &words]);
    }
    let sentence = view.sentence_of(start);
    let before = |k: usize| start.checked_sub(k).filter(|&i| i >= sentence.start);
    let after = |k: usize| Some(end + k - 1).filter(|&i| i < sentence.end);
    let p1 = before(1).map_or("<s>", |i| view.word(i));
    let n1 = after(1).map_or("</s>", |i| view.word(i));
    let p2 = before(2).map_or("<s>", |i| view.word(i));
    let n2 = after(2).map_or("</s>", |i| view.word(i));
    for (name, joint, other) in [
        ("p1=", "w_p1=", p1),
        ("n1=", "w_n1=", n1),
        ("p2=", "w_p2=", p2),
        ("n2=", "w_n2=", n2),
    ] {
        out.add(&[name, other]);
        out.add(&[joint, word, "_", other]);
    }
    out.add(&["w_p1_n1=", word, "_", p1, "_", n1]);
    // What the modal governs and what governs it, by meaning: "could double"
    // and "could soar" alike, "could fine" and "could veto" alike.
    for (name, other) in [("w_p1c=", p1), ("w_n1c=", n1), ("w_n2c=", n2)] {
        if let Some(cluster) = attest_lang::word_cluster(other) {
            out.add(&[name, word, "_", cluster.fine]);
            out.add(&[name, word, "_c", cluster.coarse]);
        }
    }
    if let Some(tag) = view.pos(start).map(PosTag::name) {
        out.add(&["pos=", tag]);
        out.add(&["w_pos=", word, "_", tag]);
    }
    if let Some(tag) = after(1).and_then(|i| view.pos(i)).map(PosTag::name) {
        out.add(&["n1pos=", tag]);
    }
    if context.if_before.get(start).copied().unwrap_or(false) {
        out.add(&["if_before"]);
        out.add(&["w_if=", word]);
    }
    if context.would.get(start).copied().unwrap_or(false) {
        out.add(&["would"]);
    }
    let place: &str = match context.content.get(start).copied().flatten() {
        None => "out",
        Some(None) => "sourceless",
        Some(Some(kind)) => kind.into(),
    };
    out.add(&["ctx=", place]);
    out.add(&["w_ctx=", word, "_", place]);
    // Whose voice, as the guideline decides it: a person's or an
    // organization's content is theirs; what a document or post shows is
    // told in the writer's words. The kinds are few in training, their
    // groups are not.
    let voice = match context.content.get(start).copied().flatten() {
        None => "writer",
        Some(None) => "sourceless",
        Some(Some(SourceKind::Document | SourceKind::SocialMedia)) => "shown",
        Some(Some(_)) => "speaker",
    };
    out.add(&["voice=", voice]);
    out.add(&["w_voice=", word, "_", voice]);
    match context.cue.get(start).copied().flatten() {
        Some(true) => out.add(&["in_sourceless_cue"]),
        Some(false) => out.add(&["in_cue"]),
        None => {}
    }
    if view.is_capitalized(start) {
        out.add(&["cap"]);
    }
}

/// The training examples of a document with gold attributions, its sources
/// found, and `hedges` the labelled cues: every candidate, labelled hedge
/// when it overlaps a labelled cue.
pub fn training_examples(
    doc: &Doc,
    hedges: &[Span],
    triggers: &BTreeSet<String>,
) -> Vec<(Vec<String>, u16)> {
    let view = TokenView::new(doc);
    let context = Context::new(doc, &view);
    candidates(&view, triggers)
        .into_iter()
        .filter_map(|candidate| {
            let cue = view
                .span(candidate.start)?
                .cover(view.span(candidate.end - 1)?);
            let hedge = hedges.iter().any(|h| h.overlaps(cue));
            let mut names = Names::default();
            features(&view, &context, &candidate, &mut names);
            Some((names.0, u16::from(hedge)))
        })
        .collect()
}

/// The words of the labelled cues that are worth a look: those that label a
/// hedge cue at least twice, and in at least one of every twenty
/// of their occurrences, less the words every phrase shares ("is", "to",
/// "it"). Rarer and commoner words cost the stage more than they find.
pub fn triggers<'a>(labelled: impl IntoIterator<Item = (&'a Doc, &'a [Span])>) -> BTreeSet<String> {
    const SHARED: &[&str] = &[
        "is", "are", "was", "were", "be", "been", "being", "to", "it", "'s", "the", "a", "an",
        "that", "of", "as", "has", "have", "had", "not", "n't", "there", "this", "and", "at", "in",
        "for", "by",
    ];
    // (in a labelled cue, anywhere), per word.
    let mut counts: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for (doc, cues) in labelled {
        let view = TokenView::new(doc);
        let mut in_cue = vec![false; view.len()];
        for i in view.tokens_of(cues) {
            in_cue[i] = true;
        }
        for (i, cued) in in_cue.into_iter().enumerate() {
            if view.kind(i) != Some(TokenKind::Word) {
                continue;
            }
            let entry = counts.entry(view.word(i)).or_default();
            entry.0 += usize::from(cued);
            entry.1 += 1;
        }
    }
    counts
        .into_iter()
        .filter(|(word, (cued, all))| {
            *cued >= 2 && cued * TRIGGER_ODDS >= *all && !SHARED.contains(word)
        })
        .map(|(word, _)| word.to_owned())
        .collect()
}

/// A word is a candidate when it is a hedge in at least one of this many of
/// its occurrences in the labelled train articles.
const TRIGGER_ODDS: usize = 20;

/// An adverb of hearsay ("reportedly"), a hedge by itself.
pub(crate) fn is_hedge_adverb(word: &str) -> bool {
    hedge_word(word, HedgeUse::Hearsay)
}

/// The token range of a hedge cue starting at `i`, if one starts there.
fn cue_at(view: &TokenView<'_>, i: usize) -> Option<(usize, usize, bool)> {
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
    if is_be(word) {
        // A negated belief hedges as much: "is not thought to", "isn't believed to".
        let participle = if matches!(view.word(i + 1), "not" | "n't") {
            i + 2
        } else {
            i + 1
        };
        if hedge_word(view.word(participle), HedgeUse::Raising) && view.word(participle + 1) == "to"
        {
            return Some((i, participle + 2, false));
        }
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

/// The hedges of `doc` by the rules alone, in text order.
pub fn find_hedges(doc: &Doc) -> Vec<Hedge> {
    let view = TokenView::new(doc);
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
fn scope_of(view: &TokenView<'_>, start: usize, end: usize, phrase: bool) -> Option<Span> {
    let sentence = view.sentence_of(start);
    let mut from = (sentence.start..start)
        .rev()
        .find(|&k| clause_ends_before(view, k))
        .map_or(sentence.start, |k| k + 1);
    let mut to = (end..sentence.end)
        .find(|&k| clause_ends_before(view, k))
        .unwrap_or(sentence.end);
    if phrase {
        // "according to reports" at a clause edge is not part of what it hedges.
        let rest_is_closing = (end..to).all(|k| is_break(view, k));
        if rest_is_closing {
            to = start;
        } else if (from..start).all(|k| is_break(view, k)) {
            from = end;
        }
    }
    while from < to && is_break(view, from) {
        from += 1;
    }
    while to > from && is_break(view, to - 1) {
        to -= 1;
    }
    if from >= to {
        return None;
    }
    Some(view.span(from)?.cover(view.span(to - 1)?))
}

/// Whether token `k` closes the clause before it: a semicolon or a dash, or a
/// comma before a word that opens another clause or an appositive ("…, and the
/// mayor resigned", "…, a deal that…").
fn clause_ends_before(view: &TokenView<'_>, k: usize) -> bool {
    match view.kind(k) {
        Some(TokenKind::Dash) => true,
        _ if view.word(k) == ";" => true,
        _ if view.word(k) == "," => matches!(
            view.word(k + 1),
            "and"
                | "but"
                | "or"
                | "while"
                | "although"
                | "though"
                | "which"
                | "who"
                | "a"
                | "an"
                | "because"
                | "since"
                | "whereas"
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{attribution, doc_with};

    /// Each hedge's cue and scope, as text.
    fn texts(doc: &Doc, hedges: Vec<Hedge>) -> Vec<(String, String)> {
        hedges
            .into_iter()
            .map(|h| {
                (
                    doc.span_text(h.cue).to_string(),
                    doc.span_text(h.scope).to_string(),
                )
            })
            .collect()
    }

    fn hedges(text: &str) -> Vec<(String, String)> {
        let doc = doc_with(text, Vec::new());
        texts(&doc, find_hedges(&doc))
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
    fn proposed_cues_join_where_the_rules_found_none() {
        let text = "The chef reportedly quit. The mill may close; few expect it.";
        let mut doc = doc_with(text, Vec::new());
        let span = |word: &str| {
            let start = text.find(word).unwrap();
            Span::try_new_in(text, start, start + word.len()).unwrap()
        };
        doc.set_proposals(attest_doc::Proposals {
            stances: Vec::new(),
            hedges: vec![span("chef reportedly"), span("may")],
        })
        .unwrap();
        assert_eq!(
            texts(&doc, HedgeFinder::rules().find(&doc)),
            [
                (
                    "reportedly".to_string(),
                    "The chef reportedly quit".to_string()
                ),
                ("may".to_string(), "The mill may close".to_string()),
            ],
            "the rules' own cue stands; the proposed one they overlap is dropped"
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

    /// The learned finder's hedges of `text` with `attributions`, their
    /// sources resolved, as (cue, scope).
    fn learned(text: &str, attributions: Vec<attest_doc::Attribution>) -> Vec<(String, String)> {
        let mut doc = doc_with(text, attributions);
        crate::SourceResolver::rules()
            .run(&mut doc)
            .expect("sources fit");
        let found = HedgeFinder::bundled()
            .expect("the bundled hedge model")
            .find(&doc);
        texts(&doc, found)
    }

    #[test]
    fn the_model_finds_the_writers_hedges_and_leaves_a_speakers_alone() {
        assert_eq!(
            learned(
                "The strike will probably end on Friday, and the port will reopen.",
                Vec::new()
            ),
            [(
                "probably".to_string(),
                "The strike will probably end on Friday".to_string()
            )],
            "the clause ends at \", and\""
        );
        let text = "Mayor Ann Lee said the bridge may close in June.";
        let said = attribution(
            text,
            "Mayor Ann Lee",
            "said",
            "the bridge may close in June",
        );
        assert!(
            learned(text, vec![said]).is_empty(),
            "the mayor's hedge, not the writer's"
        );
        let text = "The chef reportedly quit on Friday.";
        let reportedly = attribution(text, "", "reportedly", "quit on Friday");
        assert_eq!(
            learned(text, vec![reportedly]),
            [(
                "reportedly".to_string(),
                "The chef reportedly quit on Friday".to_string()
            )],
            "a source-less attribution cue that hedges is a hedge too"
        );
    }

    #[test]
    fn a_negated_belief_passive_is_a_hedge() {
        assert_eq!(
            hedges("The reef is not thought to be at risk."),
            [(
                "is not thought to".to_string(),
                "The reef is not thought to be at risk".to_string()
            )]
        );
        assert_eq!(
            hedges("The vault isn't believed to hold gold.")
                .into_iter()
                .map(|(cue, _)| cue)
                .collect::<Vec<_>>(),
            ["isn't believed to"]
        );
    }

    #[test]
    fn accepted_candidates_a_word_apart_are_one_cue() {
        let text = "The dam will almost certainly hold, but it might be expected to leak, and may, in time, crack.";
        let doc = doc_with(text, Vec::new());
        let view = TokenView::new(&doc);
        let at = |word: &str| (0..view.len()).find(|&i| view.word(i) == word).unwrap();
        let single = |i: usize| Candidate {
            start: i,
            end: i + 1,
            phrase: false,
            rule: false,
        };
        let accepted =
            ["almost", "certainly", "might", "expected", "may", "crack"].map(|w| single(at(w)));
        let cues: Vec<String> = joined(&view, accepted)
            .into_iter()
            .map(|c| {
                let cue = view
                    .span(c.start)
                    .unwrap()
                    .cover(view.span(c.end - 1).unwrap());
                doc.span_text(cue).to_string()
            })
            .collect();
        assert_eq!(
            cues,
            ["almost certainly", "might be expected", "may", "crack"],
            "no punctuation between joined candidates, and at most one word"
        );
    }

    #[test]
    fn a_dash_or_a_comma_before_a_new_clause_ends_a_scope() {
        assert_eq!(
            hedges("HARBOR CITY — The ferry reportedly ran aground, a setback for the line."),
            [(
                "reportedly".to_string(),
                "The ferry reportedly ran aground".to_string()
            )]
        );
    }
}
