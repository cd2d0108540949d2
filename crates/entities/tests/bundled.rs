//! The shipped model: it loads, finds and clusters the entities of a plain
//! article, never panics and keeps every span on its text, and the silver
//! corpus bears out the shortcut tagging takes (ignored unless asked for; see
//! `attest_corpus::testing`).

use attest_corpus::{Corpus, entity_label_of_class};
use attest_doc::{Article, Doc, EntityLabel, Limits, Stage};
use attest_entities::EntityTagger;
use proptest::prelude::*;

/// Loaded once: the tests run unoptimized, where loading takes a while.
fn tagger() -> &'static EntityTagger {
    EntityTagger::shared().expect("models/entities.model is missing or damaged: run attest train")
}

fn analysed(text: &str) -> Doc {
    let mut doc = Doc::new(Article::new("t", text));
    doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
        .unwrap();
    attest_tag::Tagger::shared().unwrap().run(&mut doc).unwrap();
    tagger().run(&mut doc).unwrap();
    doc
}

#[test]
fn finds_and_clusters_the_entities_of_an_article() {
    let doc = analysed(
        "Senator Maria Lopez of Arizona met officials of the Federal Aviation Administration in Chicago on Friday.\n\n\
         Lopez said the FAA had ignored the warnings of pilots from Canada.",
    );
    let found: Vec<(&str, EntityLabel, usize)> = doc
        .entities()
        .iter()
        .map(|e| (doc.span_text(e.span), e.label, e.cluster.index()))
        .collect();
    assert_eq!(
        found,
        [
            ("Maria Lopez", EntityLabel::Person, 0),
            ("Arizona", EntityLabel::Location, 1),
            (
                "Federal Aviation Administration",
                EntityLabel::Organization,
                2
            ),
            ("Chicago", EntityLabel::Location, 3),
            ("Lopez", EntityLabel::Person, 0),
            ("FAA", EntityLabel::Organization, 2),
            ("Canada", EntityLabel::Location, 4),
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_gets_entities_that_slice_to_words(
        text in prop_oneof!["[A-Za-z .,'’\n-]{0,200}", "\\PC{0,120}", "([A-ZÉ][a-zé]{0,6}[ ,.\n]{1,2}){0,40}"]
    ) {
        let doc = analysed(&text);
        for entity in doc.entities() {
            let mention = doc.span_text(entity.span);
            prop_assert!(!mention.is_empty());
            prop_assert_eq!(mention.trim(), mention);
        }
    }
}

/// Tagging skips tokens with no capital letter and no word-list match within
/// one token on either side: it takes them to be outside any name. The silver
/// mentions of PolNeAR must bear that out.
#[test]
#[ignore = "needs ../shared/data/polnear"]
fn silver_names_have_a_capital_within_one_token() {
    let root = attest_corpus::testing::polnear();
    let (mut tokens, mut without) = (0usize, Vec::new());
    for split in ["train", "dev"] {
        let corpus = Corpus::open(&root.join(split)).unwrap();
        for article in corpus.articles() {
            let article = article.unwrap();
            let silver = article.silver.unwrap_or_default();
            for sentence in silver.chunk_by(|a, b| a.sentence == b.sentence) {
                for (i, token) in sentence.iter().enumerate() {
                    if entity_label_of_class(&token.ner).is_none() {
                        continue;
                    }
                    tokens += 1;
                    let window = &sentence[i.saturating_sub(1)..(i + 2).min(sentence.len())];
                    let capital = window
                        .iter()
                        .any(|t| t.span.slice(&article.text).chars().any(char::is_uppercase));
                    if !capital {
                        without.push(token.span.slice(&article.text).to_owned());
                    }
                }
            }
        }
    }
    assert!(tokens > 10_000, "{tokens} name tokens");
    assert!(
        without.len() * 2000 <= tokens,
        "{} of {tokens} name tokens have no capital near: {without:?}",
        without.len()
    );
}
