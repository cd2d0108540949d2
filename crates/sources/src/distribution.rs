//! How an article collection sources its attributions: the share of source
//! spans resolved to a named source, to a pronoun standing for a name, to an
//! unnamed source, and the rest (no gold needed).

use std::collections::BTreeMap;
use std::fmt;

use attest_doc::{Doc, Layer, SourceKind, serde_name};
use serde::Serialize;

use crate::resolve::{Route, resolve};

/// The sourcing distribution of a collection of documents.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Distribution {
    /// Documents read.
    pub documents: usize,
    /// Attributions read.
    pub attributions: usize,
    /// Attributions with a non-empty source span: the denominator of the shares.
    pub source_spans: usize,
    /// Source spans that name their source (a person, organization or outlet).
    pub named: usize,
    /// Source spans that are a pronoun resolved to a named source.
    pub pronoun_to_name: usize,
    /// Source spans resolved to an unnamed source ("officials", a pronoun or
    /// description standing for one).
    pub unnamed: usize,
    /// `named / source_spans`.
    pub named_share: f64,
    /// `pronoun_to_name / source_spans`.
    pub pronoun_to_name_share: f64,
    /// `unnamed / source_spans`.
    pub unnamed_share: f64,
    /// Every attribution by how its source was found, sourceless ones included.
    pub routes: BTreeMap<Route, usize>,
    /// Source spans by the type of the source they resolved to.
    pub kinds: BTreeMap<String, usize>,
}

/// The sourcing distribution of `docs`, which must hold attributions (gold or
/// found) over segmented text; a document without tokens is passed over.
pub fn source_distribution<'a>(docs: impl IntoIterator<Item = &'a Doc>) -> Distribution {
    let mut distribution = Distribution::default();
    for doc in docs {
        if !doc.has(Layer::Tokens) {
            continue;
        }
        let resolution = resolve(doc);
        distribution.documents += 1;
        for (index, attribution) in doc.attributions().iter().enumerate() {
            distribution.attributions += 1;
            let route = resolution.routes.get(index).copied().unwrap_or(Route::None);
            *distribution.routes.entry(route).or_default() += 1;
            if attribution.source.is_empty() {
                continue;
            }
            distribution.source_spans += 1;
            let kind = resolution
                .source_of
                .get(index)
                .copied()
                .flatten()
                .and_then(|s| resolution.sources.get(s))
                .map(|s| s.kind);
            if let Some(kind) = kind {
                *distribution.kinds.entry(serde_name(&kind)).or_default() += 1;
            }
            match route {
                Route::Named => distribution.named += 1,
                Route::PronounToName => distribution.pronoun_to_name += 1,
                _ if kind == Some(SourceKind::Unnamed) => distribution.unnamed += 1,
                _ => {}
            }
        }
    }
    let share = |n: usize| {
        if distribution.source_spans == 0 {
            0.0
        } else {
            n as f64 / distribution.source_spans as f64
        }
    };
    distribution.named_share = share(distribution.named);
    distribution.pronoun_to_name_share = share(distribution.pronoun_to_name);
    distribution.unnamed_share = share(distribution.unnamed);
    distribution
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} documents, {} attributions, {} with a source span",
            self.documents, self.attributions, self.source_spans
        )?;
        writeln!(
            f,
            "named source         {:>6}  {:>6.1}%",
            self.named,
            100.0 * self.named_share
        )?;
        writeln!(
            f,
            "pronoun -> name      {:>6}  {:>6.1}%",
            self.pronoun_to_name,
            100.0 * self.pronoun_to_name_share
        )?;
        writeln!(
            f,
            "unnamed source       {:>6}  {:>6.1}%",
            self.unnamed,
            100.0 * self.unnamed_share
        )?;
        writeln!(f, "by route (all attributions):")?;
        for (route, n) in &self.routes {
            writeln!(f, "  {:<20} {n:>6}", serde_name(route))?;
        }
        writeln!(f, "by source type (source spans):")?;
        for (kind, n) in &self.kinds {
            writeln!(f, "  {kind:<20} {n:>6}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{attribution, doc_with};

    #[test]
    fn counts_named_pronoun_and_unnamed_sources() {
        let text = "Ann Lee said the dam held. She added crews worked all night. \
                    Officials stated the road was shut. “It rained,” a resident told us.";
        let doc = doc_with(
            text,
            vec![
                attribution(text, "Ann Lee", "said", "the dam held"),
                attribution(text, "She", "added", "crews worked all night"),
                attribution(text, "Officials", "stated", "the road was shut"),
                attribution(text, "a resident", "told", "“It rained,”"),
            ],
        );
        let d = source_distribution([&doc]);
        assert_eq!(
            (d.source_spans, d.named, d.pronoun_to_name, d.unnamed),
            (4, 1, 1, 2)
        );
        assert!((d.named_share - 0.25).abs() < 1e-9);
        assert_eq!(d.kinds.get("person"), Some(&2));
    }
}
