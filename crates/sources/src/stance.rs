//! The stance of each attribution, read from its cue and the words around it.
//!
//! Two layers decide. The rules come first: a cue word carries a class (from
//! the cue lexicon); when a cue holds several, the strongest wins ("was quoted
//! as saying" reports). Then context changes it: a decline verb with its "to"
//! ("declined to confirm"), a negated silence verb ("did not respond", "could
//! not be reached"), a negated statement ("did not confirm", "would not say")
//! all decline; "told a newspaper" and "according to" a news outlet or to
//! reports report. Beliefs and intentions stay what they are under negation
//! ("does not expect" still states a belief). The look-around windows stop at
//! punctuation, so the "not" of a relative clause ("who did not attend, said")
//! never reaches the cue.
//!
//! Then a classifier learned from attest's labels of real copy
//! (`eval/polnear`, `models/stance.model`) reads the rule's answer with the
//! cue's words, their negation and modals, the complement ("that", "to",
//! "whether", a quotation), the source's first and last words and the words
//! around, and decides; where it keeps the rule's answer, the rule's evidence
//! stands, and where it overrules it, the cue is the evidence.
//!
//! In accurate mode, with an encoder that has a stance head, the head's
//! stance (the document's [`attest_doc::Proposals`]) decides instead where
//! the head is sure enough of it.

use attest_doc::{
    Attribution, AttributionId, Doc, Layer, LayerError, Stage, Stance, StanceLabel, TokenView,
};
use attest_learn::ModelError;

use crate::classifier::{Classifier, Features, Names, overrule};
use crate::lexicon::{
    is_decline_verb, is_decline_word, is_description_stop, is_media_noun, is_negator,
    is_outlet_word, is_silence_verb, negated, priority,
};
use crate::words::is_break;

/// How many tokens before and after a cue can change its stance.
const WINDOW: usize = 4;

/// How much more the model must score another stance than the rule's before
/// it overrules the rule (tuned on dev; see docs/sources.md).
const OVERRULE_MARGIN: f32 = 3.0;

/// How sure accurate mode's stance head must be of a stance to overrule the
/// rules and the linear model (tuned on dev; see docs/sources.md).
const HEAD_OVERRULES_AT: f32 = 0.5;

/// The kind of the stance model's file.
pub const MODEL_KIND: [u8; 4] = *b"STN1";

/// The model shipped with attest, trained by `attest train`.
static BUNDLED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/stance.model"
));

/// The stance stage: one [`Stance`] per attribution, with the words that decided it.
#[derive(Clone, Debug)]
pub struct StanceClassifier {
    model: Option<Classifier>,
}

impl StanceClassifier {
    /// The stage with a learned model over the rules.
    pub fn new(model: Classifier) -> StanceClassifier {
        StanceClassifier { model: Some(model) }
    }

    /// The stage with the rules alone: what training reads the rule's answer from.
    pub fn rules() -> StanceClassifier {
        StanceClassifier { model: None }
    }

    /// The stage with a model file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<StanceClassifier, ModelError> {
        Classifier::from_bytes(bytes, MODEL_KIND).map(StanceClassifier::new)
    }

    /// The stage with the model built into attest; an error names the file.
    pub fn bundled() -> Result<StanceClassifier, ModelError> {
        StanceClassifier::from_bytes(BUNDLED).map_err(|e| e.in_file("bundled stance.model"))
    }

    /// The stance of every attribution of `doc`, in attribution order.
    pub fn classify_all(&self, doc: &Doc) -> Vec<Stance> {
        let view = TokenView::new(doc);
        doc.attributions()
            .iter()
            .enumerate()
            .filter_map(|(index, attribution)| {
                let (rule, evidence) = classify(&view, attribution);
                let label = match (proposed(doc, index), &self.model) {
                    (Some(label), _) => label,
                    (None, None) => rule,
                    (None, Some(model)) => {
                        let scores = model.scores(|out| features(&view, attribution, rule, out));
                        let held = StanceLabel::ALL
                            .iter()
                            .position(|&l| l == rule)
                            .unwrap_or(0);
                        let chosen = overrule(&scores, held, OVERRULE_MARGIN);
                        StanceLabel::ALL.get(chosen).copied().unwrap_or(rule)
                    }
                };
                // Where a model overrules the rules, the cue is the evidence.
                let evidence = if label == rule {
                    evidence
                } else {
                    attribution.cue.clone()
                };
                AttributionId::new(index).map(|attribution| Stance {
                    attribution,
                    label,
                    evidence,
                })
            })
            .collect()
    }
}

impl Stage for StanceClassifier {
    const NAME: &'static str = "stances";
    const REQUIRES: &'static [Layer] = &[Layer::Tokens, Layer::Sentences, Layer::Attributions];
    const ASSIGNS: &'static [Layer] = &[Layer::Stances];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let stances = self.classify_all(doc);
        doc.set_stances(stances)
    }
}

/// The stance accurate mode's stance head proposes for attribution `index`
/// of `doc`, when it is sure enough of it.
fn proposed(doc: &Doc, index: usize) -> Option<StanceLabel> {
    let probabilities = doc.proposals().stances.get(index)?;
    let best = attest_learn::argmax(probabilities);
    let sure = *probabilities.get(best)? >= HEAD_OVERRULES_AT;
    sure.then(|| StanceLabel::ALL.get(best).copied()).flatten()
}

/// The examples of a document whose attributions are labelled: for each
/// `(attribution index, stance)`, the features the model reads, with the
/// rules' answer among them.
pub fn training_examples(doc: &Doc, labelled: &[(usize, StanceLabel)]) -> Vec<(Vec<String>, u16)> {
    let view = TokenView::new(doc);
    labelled
        .iter()
        .filter_map(|&(index, label)| {
            let attribution = doc.attributions().get(index)?;
            let (rule, _) = classify(&view, attribution);
            let class = StanceLabel::ALL.iter().position(|&l| l == label)?;
            let mut names = Names::default();
            features(&view, attribution, rule, &mut names);
            Some((names.0, u16::try_from(class).ok()?))
        })
        .collect()
}

/// A crude stem, so that "denied", "denies" and "deny" share a feature.
fn stem(word: &str) -> &str {
    for suffix in ["ing", "ied", "ies", "ed", "es", "s"] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.len() >= 3
        {
            return stem;
        }
    }
    word
}

const MODALS: &[&str] = &[
    "will", "would", "could", "can", "may", "might", "should", "must", "shall", "wo", "ca",
];

/// What the model reads of one attribution.
fn features(
    view: &TokenView<'_>,
    attribution: &Attribution,
    rule: StanceLabel,
    out: &mut impl Features,
) {
    out.add(&["bias"]);
    out.add(&["rule=", rule.name()]);
    let cue = view.tokens_of(&attribution.cue);
    let content = view.tokens_of(&attribution.content);
    let source = view.tokens_of(&attribution.source);
    out.add(&["kind=", attribution.kind.into()]);
    for &i in &cue {
        let word = view.word(i);
        out.add(&["cw=", word]);
        out.add(&["cs=", stem(word)]);
        if let Some(class) = attest_lang::stance_class(word) {
            out.add(&["cls=", class.name()]);
        }
        // Many cues of real copy were never seen in training; words that
        // mean alike were ("bristled at" near "was angry at").
        if let Some(cluster) = attest_lang::word_cluster(word) {
            out.add(&["cwf=", cluster.fine]);
            out.add(&["cwc=", cluster.coarse]);
        }
    }
    let cue_words = cue
        .iter()
        .map(|&i| view.word(i))
        .collect::<Vec<_>>()
        .join("_");
    out.add(&["cue=", &cue_words]);
    if let (Some(&first), Some(&last)) = (cue.first(), cue.last()) {
        let last_stem = stem(view.word(last));
        out.add(&["cf=", view.word(first)]);
        out.add(&["cl=", last_stem]);
        out.add(&["rule_cl=", rule.name(), "_", last_stem]);
        let sentence = view.sentence_of(first);
        const BEFORE: [&str; 3] = ["b1=", "b2=", "b3="];
        for (k, name) in (1..).zip(BEFORE) {
            let Some(i) = first.checked_sub(k).filter(|&i| i >= sentence.start) else {
                break;
            };
            let word = view.word(i);
            out.add(&[name, word]);
            out.add(&["bw=", word]);
            if is_negator(word) {
                out.add(&["neg_before"]);
            }
            if MODALS.contains(&word) {
                out.add(&["modal=", word]);
            }
        }
        const AFTER: [&str; 3] = ["a1=", "a2=", "a3="];
        for (k, name) in (1..).zip(AFTER) {
            let i = last + k;
            if i >= sentence.end {
                break;
            }
            out.add(&[name, view.word(i)]);
        }
        if cue.iter().any(|&i| is_negator(view.word(i))) {
            out.add(&["neg_cue"]);
        }
        for &i in &cue {
            if MODALS.contains(&view.word(i)) {
                out.add(&["modal=", view.word(i)]);
            }
        }
        match content.first() {
            Some(&c) if c > last => {
                out.add(&["c0=", view.word(c)]);
                out.add(&["cl_c0=", last_stem, "_", view.word(c)]);
                if let Some(&c1) = content.get(1) {
                    out.add(&["c1=", view.word(c1)]);
                }
            }
            Some(_) => out.add(&["content_before"]),
            None => out.add(&["no_content"]),
        }
    } else {
        out.add(&["no_cue"]);
    }
    // What the content opens with says much of the stance: "he hopes",
    // "she planned to", "it would", "them to", "Trump as a fraud".
    let after_cue = content
        .first()
        .is_some_and(|&c| cue.last().is_some_and(|&l| c > l));
    let side = if after_cue { "cx=" } else { "cxb=" };
    for &c in content.iter().take(6) {
        let word = view.word(c);
        if MODALS.contains(&word) || matches!(word, "going" | "plan" | "plans") {
            out.add(&["cmodal=", word]);
        }
        out.add(&[side, stem(word)]);
    }
    if content.iter().take(8).any(|&c| view.word(c) == "as") {
        out.add(&["c_as"]);
    }
    match (source.first(), source.last()) {
        (Some(&first), Some(&last)) => {
            out.add(&["s0=", view.word(first)]);
            out.add(&["sh=", view.word(last)]);
            if view.is_capitalized(first) {
                out.add(&["scap"]);
            }
            if source
                .iter()
                .any(|&i| is_outlet_word(view.raw(i)) || is_media_noun(view.word(i)))
            {
                out.add(&["smedia"]);
                out.add(&["smedia_cue=", &cue_words]);
            }
        }
        _ => out.add(&["no_source"]),
    }
}

fn classify(
    view: &TokenView<'_>,
    attribution: &Attribution,
) -> (StanceLabel, Vec<attest_doc::Span>) {
    let mut cue: Vec<usize> = attribution
        .cue
        .iter()
        .flat_map(|span| view.tokens_in(*span))
        .collect();
    cue.sort_unstable();
    cue.dedup();
    let (Some(&first), Some(&last)) = (cue.first(), cue.last()) else {
        // A quote continued from an earlier paragraph has no cue of its own; it is
        // simply stated.
        return (StanceLabel::Asserts, Vec::new());
    };
    let sentence = view.sentence_of(first);
    let before: Vec<usize> = (sentence.start.max(first.saturating_sub(WINDOW))..first)
        .rev()
        .take_while(|&i| !is_break(view, i))
        .collect();
    let after: Vec<usize> = ((last + 1)..sentence.end.min(last + 1 + WINDOW))
        .take_while(|&i| !is_break(view, i))
        .collect();
    let negators: Vec<usize> = cue
        .iter()
        .chain(&before)
        .copied()
        .filter(|&i| is_negator(view.word(i)))
        .collect();

    // Declining is read first: it outranks every class it declines.
    for &i in cue.iter().chain(&before) {
        let word = view.word(i);
        if is_decline_word(word) {
            return (StanceLabel::Declines, view.merged_spans(&[i]));
        }
        if is_decline_verb(word) {
            let to = i + 1;
            if view.word(to) == "to" {
                return (StanceLabel::Declines, view.merged_spans(&[i, to]));
            }
            if cue.contains(&i) {
                return (StanceLabel::Declines, view.merged_spans(&[i]));
            }
        }
    }
    if let Some(&negator) = negators.first() {
        let silence = cue
            .iter()
            .chain(&after)
            .copied()
            .find(|&i| is_silence_verb(view.word(i)));
        if let Some(verb) = silence {
            return (StanceLabel::Declines, view.merged_spans(&[negator, verb]));
        }
    }
    if cue.iter().any(|&i| view.word(i) == "no") && cue.iter().any(|&i| view.word(i) == "comment") {
        return (StanceLabel::Declines, view.merged_spans(&cue));
    }

    let mut best: Option<(StanceLabel, usize)> = None;
    for &i in &cue {
        if let Some(label) = attest_lang::stance_class(view.word(i))
            && best.is_none_or(|(held, _)| priority(label) > priority(held))
        {
            best = Some((label, i));
        }
    }
    let Some((label, verb)) = best else {
        // An unknown cue ("pointed out", a colon) attributes without qualifying.
        let evidence = view.merged_spans(&cue);
        return if let Some(&negator) = negators.first() {
            (StanceLabel::Declines, view.merged_spans(&[negator, first]))
        } else {
            (StanceLabel::Asserts, evidence)
        };
    };

    if let Some(&negator) = negators.first() {
        return (negated(label), view.merged_spans(&[negator, verb]));
    }

    if label == StanceLabel::Asserts {
        let word = view.word(verb);
        if matches!(word, "told" | "tell" | "tells" | "telling")
            && let Some(medium) = cue
                .iter()
                .chain(&after)
                .copied()
                .filter(|&i| i != verb)
                .find(|&i| is_media_noun(view.word(i)) || is_outlet_word(view.raw(i)))
        {
            return (StanceLabel::Reports, view.merged_spans(&[verb, medium]));
        }
        if word == "according" {
            // Only the source's head phrase counts: "a Coastline News analysis"
            // reports, "records reviewed by the Tribune" does not.
            let medium = attribution
                .source
                .iter()
                .flat_map(|span| view.tokens_in(*span))
                .take_while(|&i| !is_description_stop(view.word(i)) && !is_break(view, i))
                .find(|&i| {
                    is_outlet_word(view.raw(i)) || matches!(view.word(i), "reports" | "media")
                });
            if let Some(medium) = medium {
                let mut evidence = cue.clone();
                evidence.push(medium);
                return (StanceLabel::Reports, view.merged_spans(&evidence));
            }
            return (StanceLabel::Asserts, view.merged_spans(&cue));
        }
    }
    (label, view.merged_spans(&[verb]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{attribution, doc_with};

    fn stance_of(text: &str, source: &str, cue: &str, content: &str) -> (StanceLabel, String) {
        let doc = doc_with(text, vec![attribution(text, source, cue, content)]);
        let stances = StanceClassifier::rules().classify_all(&doc);
        let stance = stances.first().expect("one stance per attribution");
        let evidence: Vec<&str> = stance.evidence.iter().map(|s| doc.span_text(*s)).collect();
        (stance.label, evidence.join(" | "))
    }

    #[test]
    fn reads_the_plain_classes() {
        use StanceLabel::*;
        let cases = [
            ("Ann Lee said the bridge was safe.", "said", Asserts, "said"),
            (
                "Ann Lee confirmed the bridge was safe.",
                "confirmed",
                Confirms,
                "confirmed",
            ),
            (
                "Ann Lee denied the bridge was unsafe.",
                "denied",
                Denies,
                "denied",
            ),
            (
                "Ann Lee claimed the bridge was safe.",
                "claimed",
                Claims,
                "claimed",
            ),
            (
                "Ann Lee fears the bridge is unsafe.",
                "fears",
                Believes,
                "fears",
            ),
            (
                "Ann Lee vowed the bridge would reopen.",
                "vowed",
                Intends,
                "vowed",
            ),
            (
                "Ann Lee reported the bridge was shut.",
                "reported",
                Reports,
                "reported",
            ),
        ];
        for (text, cue, label, evidence) in cases {
            let content = text
                .split_once(&format!("{cue} "))
                .map(|(_, rest)| rest.trim_end_matches('.'))
                .unwrap_or_default();
            assert_eq!(
                stance_of(text, "Ann Lee", cue, content),
                (label, evidence.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn a_sure_proposal_overrules_the_rules_and_an_unsure_one_does_not() {
        let text = "Ann Lee said the bridge was safe.";
        let mut doc = doc_with(
            text,
            vec![attribution(text, "Ann Lee", "said", "the bridge was safe")],
        );
        let stance = |doc: &Doc| {
            let stance = StanceClassifier::rules().classify_all(doc).remove(0);
            let evidence: Vec<&str> = stance.evidence.iter().map(|s| doc.span_text(*s)).collect();
            (stance.label, evidence.join(" | "))
        };
        let claims = |p: f32| {
            let mut probabilities = [(1.0 - p) / 7.0; StanceLabel::ALL.len()];
            probabilities[4] = p;
            assert_eq!(StanceLabel::ALL[4], StanceLabel::Claims);
            attest_doc::Proposals {
                stances: vec![probabilities],
                hedges: Vec::new(),
            }
        };
        doc.set_proposals(claims(HEAD_OVERRULES_AT)).unwrap();
        assert_eq!(stance(&doc), (StanceLabel::Claims, "said".to_string()));
        doc.set_proposals(claims(HEAD_OVERRULES_AT - 0.01)).unwrap();
        assert_eq!(stance(&doc), (StanceLabel::Asserts, "said".to_string()));
    }

    #[test]
    fn hedge_adverbs_as_cues_keep_their_distance() {
        let text = "The chef reportedly quit on Friday.";
        assert_eq!(
            stance_of(text, "", "reportedly", "quit on Friday"),
            (StanceLabel::Reports, "reportedly".into())
        );
        let text = "The chef allegedly took the recipes.";
        assert_eq!(
            stance_of(text, "", "allegedly", "took the recipes"),
            (StanceLabel::Claims, "allegedly".into())
        );
    }

    #[test]
    fn negation_and_decline_verbs_decline() {
        let text = "The mayor did not confirm that the pool would close.";
        assert_eq!(
            stance_of(text, "The mayor", "confirm", "that the pool would close"),
            (StanceLabel::Declines, "not confirm".into())
        );
        let text = "The mayor declined to confirm whether the pool would close.";
        assert_eq!(
            stance_of(
                text,
                "The mayor",
                "declined to confirm",
                "whether the pool would close"
            ),
            (StanceLabel::Declines, "declined to".into())
        );
        let text = "The owner could not be reached for comment.";
        assert_eq!(
            stance_of(text, "The owner", "could not be reached", "").0,
            StanceLabel::Declines
        );
        let text = "The agency didn’t respond to requests for comment.";
        assert_eq!(
            stance_of(text, "The agency", "respond", "").0,
            StanceLabel::Declines
        );
    }

    #[test]
    fn negation_in_a_relative_clause_does_not_reach_the_cue() {
        let text = "The chef, who did not attend, said the menu was final.";
        assert_eq!(
            stance_of(text, "The chef", "said", "the menu was final").0,
            StanceLabel::Asserts
        );
    }

    #[test]
    fn beliefs_survive_negation() {
        let text = "Ann Lee does not expect the bridge to reopen.";
        assert_eq!(
            stance_of(text, "Ann Lee", "expect", "the bridge to reopen"),
            (StanceLabel::Believes, "not expect".into())
        );
    }

    #[test]
    fn media_make_reports() {
        let text = "Ann Lee told a local newspaper the bridge was safe.";
        assert_eq!(
            stance_of(text, "Ann Lee", "told", "the bridge was safe"),
            (StanceLabel::Reports, "told | newspaper".into())
        );
        let text = "The bridge was shut, according to Reuters.";
        assert_eq!(
            stance_of(text, "Reuters", "according to", "The bridge was shut"),
            (StanceLabel::Reports, "according to Reuters".into())
        );
        let text = "The bridge was shut, according to court records.";
        assert_eq!(
            stance_of(text, "court records", "according to", "The bridge was shut").0,
            StanceLabel::Asserts
        );
        let text = "Ann Lee was quoted as saying the bridge was safe.";
        assert_eq!(
            stance_of(
                text,
                "Ann Lee",
                "was quoted as saying",
                "the bridge was safe"
            ),
            (StanceLabel::Reports, "quoted".into())
        );
    }
}
