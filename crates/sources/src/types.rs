//! The type of each source, learned from attest's labels of real copy
//! (`eval/polnear`, `models/source-type.model`).
//!
//! The resolver types a source by rules over its name and descriptions; on real
//! copy those rules type named people unnamed, documents unnamed and named
//! organizations unnamed too often. A classifier reads, for every attribution
//! of a source, the rules' type and route, the source span's words and the
//! entity labels under it, the name the source resolved to and the entity
//! labels of its mentions, and the cue, and gives the labelling guideline's
//! type ([`LabelledType`]). A source takes the type its attributions' summed
//! scores favour, per attribution by more than a margin over the rules' type
//! (else the rules' stands), in attest's finer kinds: a document or outlet
//! the rules already told apart keeps that kind.

use std::collections::BTreeSet;

use attest_doc::{Attribution, Doc, LabelledType, SourceKind, TokenView};

use crate::classifier::{Classifier, Features, Names, overrule};
use crate::lexicon::{is_org_word, is_outlet_word};
use crate::resolve::{Resolution, Route};

/// The kind of the source type model's file.
pub const MODEL_KIND: [u8; 4] = *b"STY1";

/// How much more, per attribution, the model must score another type than
/// the rules' before it overrules them (tuned on dev; see docs/sources.md).
const OVERRULE_MARGIN: f32 = 10.0;

/// Retypes the sources of `resolution` with `model`.
pub(crate) fn retype(doc: &Doc, resolution: &mut Resolution, model: &Classifier) {
    let view = TokenView::new(doc);
    let mentioned = mention_labels(doc, resolution);
    let mut sums = vec![[0f32; 5]; resolution.sources.len()];
    for (index, attribution) in doc.attributions().iter().enumerate() {
        let Some(Some(source)) = resolution.source_of.get(index).copied() else {
            continue;
        };
        if attribution.source.is_empty() {
            continue;
        }
        let scores = model
            .scores(|out| features(&view, doc, resolution, &mentioned, index, attribution, out));
        if let Some(sum) = sums.get_mut(source) {
            for (slot, score) in sum.iter_mut().zip(&scores) {
                *slot += score;
            }
        }
    }
    for (source, sum) in resolution.sources.iter_mut().zip(&sums) {
        let rule = LabelledType::of_kind(source.kind);
        let Some(rule_index) = LabelledType::ALL.iter().position(|&t| t == rule) else {
            continue;
        };
        let attributions = source.attributions.len().max(1) as f32;
        let mean: Vec<f32> = sum.iter().map(|s| s / attributions).collect();
        let chosen = overrule(&mean, rule_index, OVERRULE_MARGIN);
        if chosen == rule_index {
            continue;
        }
        let winner = LabelledType::ALL[chosen];
        source.kind = match winner {
            LabelledType::NamedPerson => SourceKind::Person,
            LabelledType::NamedOrganization => SourceKind::Organization,
            LabelledType::UnnamedOrAnonymous => SourceKind::Unnamed,
            LabelledType::DocumentOrMedia => {
                if source.name.split_whitespace().any(is_outlet_word) {
                    SourceKind::MediaOutlet
                } else {
                    SourceKind::Document
                }
            }
            LabelledType::Implicit => source.kind,
        };
    }
}

/// The examples of a document whose attributions are labelled: for each
/// `(attribution index, type)` of an attribution with a source span, the
/// features the model reads.
pub fn training_examples(doc: &Doc, labelled: &[(usize, LabelledType)]) -> Vec<(Vec<String>, u16)> {
    let view = TokenView::new(doc);
    let resolution = crate::resolve(doc);
    let mentioned = mention_labels(doc, &resolution);
    labelled
        .iter()
        .filter_map(|&(index, label)| {
            let attribution = doc.attributions().get(index)?;
            if attribution.source.is_empty() {
                return None;
            }
            let class = LabelledType::ALL.iter().position(|&t| t == label)?;
            let mut names = Names::default();
            features(
                &view,
                doc,
                &resolution,
                &mentioned,
                index,
                attribution,
                &mut names,
            );
            Some((names.0, u16::try_from(class).ok()?))
        })
        .collect()
}

/// The guideline's type names, by class index.
pub fn class_names() -> Vec<&'static str> {
    LabelledType::ALL.iter().map(|t| t.name()).collect()
}

/// What the model reads of one attribution's source.
fn features(
    view: &TokenView<'_>,
    doc: &Doc,
    resolution: &Resolution,
    mentioned: &[BTreeSet<&'static str>],
    index: usize,
    attribution: &Attribution,
    out: &mut impl Features,
) {
    const COUNTS: [&str; 7] = ["0", "1", "2", "3", "4", "5", "6"];
    let count = |n: usize| COUNTS[n.min(COUNTS.len() - 1)];
    out.add(&["bias"]);
    let source_index = resolution.source_of.get(index).copied().flatten();
    let source = source_index.and_then(|s| resolution.sources.get(s));
    let route: &str = resolution
        .routes
        .get(index)
        .copied()
        .unwrap_or(Route::None)
        .into();
    out.add(&["route=", route]);
    if let Some(source) = source {
        let kind: &str = source.kind.into();
        out.add(&["rk=", kind]);
        out.add(&["rk_route=", kind, "_", route]);
        let capitals = source
            .name
            .split_whitespace()
            .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
            .count();
        // Two or more parties named together ("Ann Lee and Tom Reyes") are
        // no longer name: their shape is their own.
        let shape = if source.name.contains(" and ") {
            "and"
        } else {
            count(capitals.min(3))
        };
        out.add(&["name_caps=", shape]);
        // The name's shape, not its words: PolNeAR's names are few and
        // famous, and a model that learns them types a new name by its
        // likeness to them.
        out.add(&["rk_caps=", kind, "_", shape]);
        if source.name.split_whitespace().any(is_org_word) {
            out.add(&["name_org_word"]);
        }
        if source.name.split_whitespace().any(is_outlet_word) {
            out.add(&["name_outlet_word"]);
        }
        out.add(&["mentions=", count(source.mentions.len().min(4))]);
        out.add(&["descriptors=", count(source.descriptors.len().min(2))]);
        for label in source_index
            .and_then(|s| mentioned.get(s))
            .into_iter()
            .flatten()
        {
            out.add(&["ment=", label]);
        }
    } else {
        out.add(&["unresolved"]);
    }
    let words = view.tokens_of(&attribution.source);
    if let (Some(&first), Some(&last)) = (words.first(), words.last()) {
        out.add(&["s0=", view.word(first)]);
        out.add(&["sh=", view.word(last)]);
        if words.len() == 1 {
            out.add(&["only=", view.word(first)]);
        }
        let capitals = words.iter().filter(|&&i| view.is_capitalized(i)).count();
        out.add(&["span_caps=", count(capitals.min(3))]);
        out.add(&["span_len=", count(words.len())]);
    }
    for &i in words.iter().take(8) {
        out.add(&["sw=", view.word(i)]);
        // Common nouns by meaning ("a spokeswoman", "the tribune", "the
        // memo"); names stay out, for the reason their shape stands in.
        if !view.is_capitalized(i)
            && let Some(cluster) = attest_lang::word_cluster(view.word(i))
        {
            out.add(&["swc=", cluster.fine]);
            if Some(&i) == words.last() {
                out.add(&["shc=", cluster.fine]);
                out.add(&["shcc=", cluster.coarse]);
            }
        }
    }
    for span in &attribution.source {
        for entity in entities_over(doc, *span) {
            out.add(&["sent=", entity.label.into()]);
        }
    }
    let cue = view
        .tokens_of(&attribution.cue)
        .into_iter()
        .map(|i| view.word(i))
        .collect::<Vec<_>>()
        .join("_");
    out.add(&["cue=", &cue]);
}

/// For each source, the labels of the entities its mentions overlap: read
/// once per source, since a source of many attributions has many mentions.
fn mention_labels(doc: &Doc, resolution: &Resolution) -> Vec<BTreeSet<&'static str>> {
    resolution
        .sources
        .iter()
        .map(|source| {
            source
                .mentions
                .iter()
                .flat_map(|mention| entities_over(doc, *mention))
                .map(|entity| entity.label.into())
                .collect()
        })
        .collect()
}

/// The entities that overlap `span`, found by binary search over the entity
/// layer, which is in text order.
fn entities_over(doc: &Doc, span: attest_doc::Span) -> impl Iterator<Item = &attest_doc::Entity> {
    let entities = doc.entities();
    let first = entities.partition_point(|e| e.span.byte_end() <= span.byte_start());
    entities[first..]
        .iter()
        .take_while(move |e| e.span.byte_start() < span.byte_end())
        .filter(move |e| e.span.overlaps(span))
}
