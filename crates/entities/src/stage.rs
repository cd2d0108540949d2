//! The entity tagger as a pipeline stage.

use attest_doc::{Doc, Entity, EntityLabel, Layer, LayerError, ParagraphRole, Span, Stage};
use attest_learn::{Bundled, ModelError};

use crate::Model;
use crate::cluster::{clusters, harmonize};
use crate::gazetteer;
use attest_lang::{OrganizationUse, organization_word};

/// The model shipped with attest, trained by `attest train`.
static BUNDLED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/entities.model"
));

/// Finds the entity mentions of a document and clusters them.
#[derive(Clone, Debug)]
pub struct EntityTagger {
    model: Model,
}

impl EntityTagger {
    /// A tagger running `model`.
    pub fn new(model: Model) -> EntityTagger {
        EntityTagger { model }
    }

    /// The tagger with the model built into attest; an error only when the
    /// build shipped a damaged or missing model. Load once, or use
    /// [`EntityTagger::shared`].
    pub fn bundled() -> Result<EntityTagger, ModelError> {
        Model::from_bytes(BUNDLED).map(EntityTagger::new)
    }

    /// The bundled tagger, loaded on first use and shared by every caller.
    pub fn shared() -> Result<&'static EntityTagger, ModelError> {
        static SHARED: Bundled<EntityTagger> = Bundled::new(EntityTagger::bundled);
        SHARED.get()
    }

    /// Its model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The entities of a document: its mentions, each with its cluster.
    pub fn entities(&self, doc: &Doc) -> Vec<Entity> {
        entities_from(doc, self.model.mentions(doc))
    }
}

/// The entity layer of a segmented document from the mentions the model
/// found, in text order: the byline, dateline and family-name rules, then
/// label harmony and clusters.
pub(crate) fn entities_from(doc: &Doc, mut mentions: Vec<(Span, EntityLabel)>) -> Vec<Entity> {
    mentions.sort_by_key(|(span, _)| (span.byte_start(), span.byte_end()));
    bylines_name_people(doc, &mut mentions);
    datelines_name_places(doc, &mut mentions);
    family_names_name_people(doc, &mut mentions);
    titled_names_name_people(doc.text(), &mut mentions);
    harmonize(doc.text(), &mut mentions);
    let assigned = clusters(doc.text(), &mentions);
    mentions
        .into_iter()
        .zip(assigned)
        .map(|((span, label), cluster)| Entity {
            span,
            label,
            cluster,
        })
        .collect()
}

/// Makes the first mention of a byline ("By Jane Doe", "Jane Doe, Reuters")
/// a person: the model learned from few bylines, and a byline names its writer first.
fn bylines_name_people(doc: &Doc, mentions: &mut [(Span, EntityLabel)]) {
    let text = doc.text();
    for paragraph in doc.paragraphs() {
        if paragraph.role != ParagraphRole::Byline {
            continue;
        }
        let first = mentions
            .iter_mut()
            .find(|(span, _)| paragraph.span.contains(*span));
        if let Some((span, label)) = first {
            let before = text
                .get(paragraph.span.byte_start()..span.byte_start())
                .unwrap_or_default()
                .trim();
            if before.is_empty() || before.eq_ignore_ascii_case("by") {
                *label = EntityLabel::Person;
            }
        }
    }
}

/// Makes the capitals that open an article's first paragraph of running text,
/// before a comma, a bracket or a dash, a place: the dateline ("PORT HALVARD,
/// Maine (Coastline News) —", "WASHINGTON (AP) —"). Capitals read as no
/// word the model knows, so it misses or mistypes them.
fn datelines_name_places(doc: &Doc, mentions: &mut Vec<(Span, EntityLabel)>) {
    let text = doc.text();
    let Some(paragraph) = doc
        .paragraphs()
        .iter()
        .find(|p| p.role == ParagraphRole::Body)
    else {
        return;
    };
    let tokens = doc
        .tokens()
        .iter()
        .skip_while(|t| t.span.byte_start() < paragraph.span.byte_start());
    let mut place: Option<Span> = None;
    for token in tokens {
        let word = token.span.get(text).unwrap_or_default();
        let capitals = word.chars().any(char::is_alphabetic)
            && !word.chars().any(char::is_lowercase)
            && word
                .chars()
                .all(|c| c.is_alphabetic() || matches!(c, '.' | '-' | '\''));
        if capitals {
            place = Some(place.map_or(token.span, |p| p.cover(token.span)));
            continue;
        }
        let closes = matches!(word, "," | "(" | "—" | "–" | "--");
        if let Some(place) = place.filter(|p| closes && p.len() > 2) {
            mentions.retain(|(span, _)| !span.overlaps(place));
            mentions.push((place, EntityLabel::Location));
            mentions.sort_by_key(|(span, _)| span.byte_start());
        }
        return;
    }
}

/// Adds a person mention for each word, outside any mention, that opens a
/// sentence, is the family name of a person the article names in full, and
/// stands alone (no capitalized word after it): "Smalls said" after "Chris
/// Smalls". Inside a sentence the tagger finds such names by their capital;
/// at its start a capital tells nothing, and a lone name is often missed.
fn family_names_name_people(doc: &Doc, mentions: &mut Vec<(Span, EntityLabel)>) {
    let text = doc.text();
    let mut family_names: Vec<&str> = mentions
        .iter()
        .filter(|(_, label)| *label == EntityLabel::Person)
        .filter_map(|(span, _)| {
            let mut words = span.get(text)?.split_whitespace();
            let first = words.next()?;
            let last = words.last()?;
            (first != last && last.chars().next()?.is_uppercase()).then_some(last)
        })
        .collect();
    family_names.sort_unstable();
    family_names.dedup();
    if family_names.is_empty() {
        return;
    }
    let capitalized = |token: Option<&attest_doc::Token>| {
        token.is_some_and(|t| {
            t.span
                .get(text)
                .is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase))
        })
    };
    let mut added = Vec::new();
    let mut covered = mentions.iter().map(|(span, _)| *span).peekable();
    for sentence in doc.sentences() {
        let tokens = doc
            .tokens()
            .get(sentence.tokens.start.index()..sentence.tokens.end.index())
            .unwrap_or_default();
        let opening = tokens.iter().position(|t| {
            t.span
                .get(text)
                .is_some_and(|w| w.chars().any(char::is_alphanumeric))
        });
        for (i, token) in tokens.iter().enumerate() {
            while covered
                .peek()
                .is_some_and(|span| span.byte_end() <= token.span.byte_start())
            {
                covered.next();
            }
            if covered.peek().is_some_and(|span| span.overlaps(token.span)) {
                continue;
            }
            let word = token.span.get(text).unwrap_or_default();
            if Some(i) == opening
                && !capitalized(tokens.get(i + 1))
                && family_names.binary_search(&word).is_ok()
            {
                added.push((token.span, EntityLabel::Person));
            }
        }
    }
    if !added.is_empty() {
        mentions.extend(added);
        mentions.sort_by_key(|(span, _)| span.byte_start());
    }
}

/// Makes a mention that opens with a person's title and goes on in capitals
/// ("Mayor Ines Calloway", "Gov. Ada Byrne") a person's, unless a word of it
/// makes it an organization's ("Mayor Office Supplies Inc."). The
/// title's capitals make the tagger read some such names as an
/// organization's, and the clusters, which keep each label apart, would then
/// part the person from her later "Calloway".
fn titled_names_name_people(text: &str, mentions: &mut [(Span, EntityLabel)]) {
    for (span, label) in mentions.iter_mut() {
        if *label != EntityLabel::Organization {
            continue;
        }
        let words: Vec<&str> = span
            .get(text)
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let titles = words
            .iter()
            .take_while(|word| gazetteer::is_title(&word.to_lowercase()))
            .count();
        let name = words.get(titles..).unwrap_or_default();
        let organization = |word: &&str| {
            let word = word.trim_end_matches(',');
            organization_word(word, OrganizationUse::Name)
                || organization_word(word, OrganizationUse::Suffix)
        };
        if titles > 0
            && !name.is_empty()
            && name
                .iter()
                .all(|word| word.chars().next().is_some_and(char::is_uppercase))
            && !words.iter().any(organization)
        {
            *label = EntityLabel::Person;
        }
    }
}

impl Stage for EntityTagger {
    const NAME: &'static str = "entities";
    const REQUIRES: &'static [Layer] = &[
        Layer::Tokens,
        Layer::Sentences,
        Layer::Paragraphs,
        Layer::Pos,
    ];
    const ASSIGNS: &'static [Layer] = &[Layer::Entities];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let entities = self.entities(doc);
        doc.set_entities(entities)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::doc_of as segmented;

    fn span_of(text: &str, words: &str, nth: usize) -> Span {
        let start = text.match_indices(words).nth(nth).unwrap().0;
        Span::must(start, start + words.len())
    }

    #[test]
    fn a_byline_names_its_writer_first() {
        let text =
            "Dockers strike at the port\n\nBy Lena Moravec and Ann Lee\n\nThe union said no.";
        let doc = segmented(text);
        assert_eq!(doc.paragraphs()[1].role, ParagraphRole::Byline);
        let mut mentions = vec![
            (span_of(text, "Lena Moravec", 0), EntityLabel::Organization),
            (span_of(text, "Ann Lee", 0), EntityLabel::Organization),
        ];
        bylines_name_people(&doc, &mut mentions);
        assert_eq!(mentions[0].1, EntityLabel::Person);
        assert_eq!(mentions[1].1, EntityLabel::Organization, "only the first");
    }

    #[test]
    fn a_dateline_names_a_place() {
        let text =
            "Dockers strike\n\nPORT HALVARD, Maine (AP) — Workers left. NEW YORK — Not a dateline.";
        let doc = segmented(text);
        let mut mentions = vec![(span_of(text, "PORT", 0), EntityLabel::Organization)];
        datelines_name_places(&doc, &mut mentions);
        let found: Vec<(&str, EntityLabel)> = mentions
            .iter()
            .map(|(s, l)| (doc.span_text(*s), *l))
            .collect();
        assert_eq!(found, [("PORT HALVARD", EntityLabel::Location)]);
        let text = "US, officials said.";
        let doc = segmented(text);
        let mut mentions = Vec::new();
        datelines_name_places(&doc, &mut mentions);
        assert!(mentions.is_empty(), "two capitals are no dateline");
    }

    #[test]
    fn mentions_from_another_tagger_get_the_same_rules_and_clusters() {
        let text = "Chris Smalls spoke to Acme Corp on Monday. Smalls said Acme would pay.";
        let doc = segmented(text);
        let given = vec![
            (span_of(text, "Acme", 1), EntityLabel::Organization),
            (span_of(text, "Chris Smalls", 0), EntityLabel::Person),
            (span_of(text, "Acme Corp", 0), EntityLabel::Organization),
        ];
        let entities = entities_from(&doc, given);
        let found: Vec<&str> = entities.iter().map(|e| doc.span_text(e.span)).collect();
        assert_eq!(found, ["Chris Smalls", "Acme Corp", "Smalls", "Acme"]);
        assert_eq!(
            entities[0].cluster, entities[2].cluster,
            "the family name rule ran"
        );
        assert_eq!(entities[1].cluster, entities[3].cluster);
        assert_ne!(entities[0].cluster, entities[1].cluster);
    }

    #[test]
    fn a_family_name_opening_a_sentence_is_the_person() {
        let text = "Chris Smalls spoke. Smalls said so. “Smalls left.” Smalls Foundation paid. Then Smalls ran.";
        let doc = segmented(text);
        let mut mentions = vec![(span_of(text, "Chris Smalls", 0), EntityLabel::Person)];
        family_names_name_people(&doc, &mut mentions);
        let found: Vec<&str> = mentions.iter().map(|(s, _)| doc.span_text(*s)).collect();
        assert_eq!(found, ["Chris Smalls", "Smalls", "Smalls"]);
        assert_eq!(mentions[1].0, span_of(text, "Smalls", 1));
        assert_eq!(
            mentions[2].0,
            span_of(text, "Smalls", 2),
            "after a quotation mark"
        );
        let mut none = vec![(span_of(text, "Smalls", 1), EntityLabel::Person)];
        family_names_name_people(&doc, &mut none);
        assert_eq!(none.len(), 1, "no full name, no family name");
    }

    #[test]
    fn a_titled_name_is_a_person_unless_an_organization_word_is_in_it() {
        let text = "Mayor Ines Calloway spoke. Gov. Ada Byrne agreed. Mayor Office Supplies \
                    Inc. paid. Mayor said so.";
        let mentions: Vec<(Span, EntityLabel)> = [
            "Mayor Ines Calloway",
            "Gov. Ada Byrne",
            "Mayor Office Supplies Inc.",
            "Mayor",
        ]
        .iter()
        .map(|words| (span_of(text, words, 0), EntityLabel::Organization))
        .collect();
        let mut relabelled = mentions.clone();
        titled_names_name_people(text, &mut relabelled);
        let labels: Vec<EntityLabel> = relabelled.iter().map(|(_, label)| *label).collect();
        assert_eq!(
            labels,
            [
                EntityLabel::Person,
                EntityLabel::Person,
                EntityLabel::Organization,
                EntityLabel::Organization,
            ]
        );
    }
}
