//! The type of each source, learned from attest's labels of real copy
//! (`eval/polnear`, `models/source-type.model`).
//!
//! The resolver types a source by rules over its name and descriptions; on real
//! copy those rules type named people unnamed, documents unnamed and named
//! organizations unnamed too often. A classifier reads, for every attribution
//! of a source, the rules' type and route, the source span's words and the
//! entity labels under it, the name the source resolved to and the entity
//! labels of its mentions, and the cue, and gives the labelling guideline's
//! type ([`LabelledType`]). A source takes the type most of its attributions
//! get (the rules' on a tie), in attest's finer kinds: a document or outlet
//! the rules already told apart keeps that kind.

use attest_corpus::LabelledType;
use attest_doc::{Attribution, Doc, SourceKind};

use crate::classifier::Classifier;
use crate::lexicon::{is_org_word, is_outlet_word};
use crate::resolve::{Resolution, Route};
use crate::words::View;

/// The kind of the source type model's file.
pub const MODEL_KIND: [u8; 4] = *b"STY1";

/// How much more, per attribution, the model must score another type than
/// the rules' before it overrules them (tuned on dev; see docs/sources.md).
const OVERRULE_MARGIN: f32 = 10.0;

/// Retypes the sources of `resolution` with `model`.
pub(crate) fn retype(doc: &Doc, resolution: &mut Resolution, model: &Classifier) {
    let view = View::new(doc);
    let mut sums = vec![[0f32; 5]; resolution.sources.len()];
    for (index, attribution) in doc.attributions().iter().enumerate() {
        let Some(Some(source)) = resolution.source_of.get(index).copied() else {
            continue;
        };
        if attribution.source.is_empty() {
            continue;
        }
        let features = features(&view, doc, resolution, index, attribution);
        let scores = model.scores(&features);
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
        let (best, best_score) =
            sum.iter()
                .copied()
                .enumerate()
                .fold((rule_index, sum[rule_index]), |held, (i, s)| {
                    if s > held.1 { (i, s) } else { held }
                });
        let attributions = source.attributions.len().max(1) as f32;
        // The rules' type stands unless the model is clearly surer of another:
        // on sources unlike PolNeAR's, a small lead is more often its bias.
        if (best_score - sum[rule_index]) / attributions <= OVERRULE_MARGIN {
            continue;
        }
        let winner = LabelledType::ALL[best];
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
    let view = View::new(doc);
    let resolution = crate::resolve(doc);
    labelled
        .iter()
        .filter_map(|&(index, label)| {
            let attribution = doc.attributions().get(index)?;
            if attribution.source.is_empty() {
                return None;
            }
            let class = LabelledType::ALL.iter().position(|&t| t == label)?;
            let features = features(&view, doc, &resolution, index, attribution);
            Some((features, u16::try_from(class).ok()?))
        })
        .collect()
}

/// The guideline's type names, by class index.
pub fn class_names() -> Vec<&'static str> {
    LabelledType::ALL.iter().map(|t| t.name()).collect()
}

/// What the model reads of one attribution's source.
fn features(
    view: &View<'_>,
    doc: &Doc,
    resolution: &Resolution,
    index: usize,
    attribution: &Attribution,
) -> Vec<String> {
    let mut out = vec!["bias".to_owned()];
    let source = resolution
        .source_of
        .get(index)
        .copied()
        .flatten()
        .and_then(|s| resolution.sources.get(s));
    let route = resolution.routes.get(index).copied().unwrap_or(Route::None);
    out.push(format!("route={route:?}"));
    if let Some(source) = source {
        out.push(format!("rk={:?}", source.kind));
        out.push(format!("rk_route={:?}_{route:?}", source.kind));
        let capitals = source
            .name
            .split_whitespace()
            .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
            .count();
        out.push(format!("name_caps={}", capitals.min(3)));
        // The name's shape, not its words: PolNeAR's names are few and
        // famous, and a model that learns them types a new name by its
        // likeness to them.
        out.push(format!("rk_caps={:?}_{}", source.kind, capitals.min(3)));
        if source.name.split_whitespace().any(is_org_word) {
            out.push("name_org_word".into());
        }
        if source.name.split_whitespace().any(is_outlet_word) {
            out.push("name_outlet_word".into());
        }
        out.push(format!("mentions={}", source.mentions.len().min(4)));
        out.push(format!("descriptors={}", source.descriptors.len().min(2)));
        for entity in doc.entities() {
            if source.mentions.iter().any(|m| m.overlaps(entity.span)) {
                out.push(format!("ment={:?}", entity.label));
            }
        }
    } else {
        out.push("unresolved".into());
    }
    let words = view.tokens_of(&attribution.source);
    if let (Some(&first), Some(&last)) = (words.first(), words.last()) {
        out.push(format!("s0={}", view.word(first)));
        out.push(format!("sh={}", view.word(last)));
        if words.len() == 1 {
            out.push(format!("only={}", view.word(first)));
        }
        let capitals = words.iter().filter(|&&i| view.is_capitalized(i)).count();
        out.push(format!("span_caps={}", capitals.min(3)));
        out.push(format!("span_len={}", words.len().min(6)));
    }
    for &i in words.iter().take(8) {
        out.push(format!("sw={}", view.word(i)));
    }
    for entity in doc.entities() {
        if attribution.source.iter().any(|s| s.overlaps(entity.span)) {
            out.push(format!("sent={:?}", entity.label));
        }
    }
    let cue_words: Vec<&str> = view
        .tokens_of(&attribution.cue)
        .into_iter()
        .map(|i| view.word(i))
        .collect();
    out.push(format!("cue={}", cue_words.join("_")));
    out
}
