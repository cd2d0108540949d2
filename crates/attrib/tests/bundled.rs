//! The bundled model on sentences written for these tests, and over the dev split.

use std::sync::OnceLock;

use attest_attrib::Attributor;
use attest_doc::{Article, Attribution, AttributionKind, Doc, Limits, Span, Stage};
use attest_tag::Tagger;
use proptest::prelude::*;

fn model() -> &'static Attributor {
    static MODEL: OnceLock<Attributor> = OnceLock::new();
    MODEL.get_or_init(|| Attributor::bundled().expect("bundled attribution model"))
}

fn tagger() -> &'static Tagger {
    static TAGGER: OnceLock<Tagger> = OnceLock::new();
    TAGGER.get_or_init(|| Tagger::bundled().expect("bundled POS model"))
}

fn analyse(text: &str) -> Doc {
    let mut doc = Doc::new(Article::new("t", text));
    doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
        .expect("segmentation fits");
    tagger().run(&mut doc).expect("tags fit");
    model().run(&mut doc).expect("attributions fit");
    doc
}

fn texts(doc: &Doc, spans: &[Span]) -> Vec<String> {
    spans.iter().map(|s| doc.span_text(*s).to_owned()).collect()
}

/// The attribution whose cue is `cue`.
fn with_cue<'a>(doc: &'a Doc, cue: &str) -> &'a Attribution {
    doc.attributions()
        .iter()
        .find(|a| texts(doc, &a.cue) == [cue])
        .unwrap_or_else(|| panic!("no cue {cue:?} in {:?}", describe(doc)))
}

fn describe(doc: &Doc) -> Vec<(Vec<String>, Vec<String>, Vec<String>)> {
    doc.attributions()
        .iter()
        .map(|a| {
            (
                texts(doc, &a.source),
                texts(doc, &a.cue),
                texts(doc, &a.content),
            )
        })
        .collect()
}

#[test]
fn indirect_content_after_the_cue() {
    let doc = analyse("The governor said the bridge would reopen in May.");
    let a = with_cue(&doc, "said");
    assert_eq!(texts(&doc, &a.source), ["The governor"]);
    assert_eq!(texts(&doc, &a.content), ["the bridge would reopen in May"]);
    assert_eq!(a.kind, AttributionKind::Indirect);
    assert!((0.0..=1.0).contains(&a.confidence));
}

#[test]
fn quote_before_the_cue_and_source_after_it() {
    let doc = analyse("“The budget is balanced,” said Mayor Ann Holt.");
    let a = with_cue(&doc, "said");
    assert_eq!(texts(&doc, &a.source), ["Mayor Ann Holt"]);
    assert_eq!(texts(&doc, &a.content), ["“The budget is balanced,”"]);
    assert_eq!(a.kind, AttributionKind::Direct);
}

#[test]
fn non_responses_are_attributions() {
    let doc = analyse(
        "The mayor met the union on Tuesday. Her office did not respond to requests for comment.",
    );
    let a = with_cue(&doc, "did not respond to");
    assert_eq!(texts(&doc, &a.source), ["Her office"]);
    assert_eq!(texts(&doc, &a.content), ["requests for comment"]);
    let doc = analyse("A spokesman for the port declined to comment on the talks.");
    let a = with_cue(&doc, "declined");
    assert_eq!(texts(&doc, &a.source), ["A spokesman for the port"]);
    assert_eq!(texts(&doc, &a.content), ["to comment on the talks"]);
}

#[test]
fn according_to() {
    let doc = analyse("Prices rose sharply last year, according to the city auditor.");
    let a = with_cue(&doc, "according to");
    assert_eq!(a.kind, AttributionKind::AccordingTo);
    assert_eq!(texts(&doc, &a.source), ["the city auditor"]);
    assert_eq!(texts(&doc, &a.content), ["Prices rose sharply last year"]);
}

#[test]
fn content_on_both_sides_of_the_cue() {
    let text = "“We have the votes,” the senator told reporters, “and we will pass it.”";
    let doc = analyse(text);
    let a = with_cue(&doc, "told");
    assert_eq!(texts(&doc, &a.source), ["the senator"]);
    let content = texts(&doc, &a.content);
    assert_eq!(
        content.first().map(String::as_str),
        Some("“We have the votes,”")
    );
    assert!(content.len() == 2, "{content:?}");
}

#[test]
fn a_quote_runs_over_a_paragraph_break() {
    let text = "Ms. Ortiz, the principal, said the repairs would start soon: “We will rebuild the gym first.\n\n\
                “After that comes the library, and then the pool.”\n\nThe board meets on Friday.";
    let doc = analyse(text);
    let a = with_cue(&doc, "said");
    let last = a.content.last().expect("a content");
    assert!(
        doc.span_text(*last).contains("the pool"),
        "{:?}",
        describe(&doc)
    );
    assert!(
        !a.content
            .iter()
            .any(|s| doc.span_text(*s).contains("board")),
        "the quote ends before the next paragraph"
    );
}

#[test]
fn an_unbalanced_quote_stays_in_its_paragraph() {
    let text = "The coach said “we are not done yet.\n\nFans left early. \
                The stadium closes in June, officials said.";
    let doc = analyse(text);
    let paragraph_end = text.find("\n\n").expect("a paragraph break");
    for a in doc.attributions() {
        if a.cue.iter().any(|c| c.byte_start() < paragraph_end) {
            assert!(
                a.content.iter().all(|s| s.byte_end() <= paragraph_end),
                "{:?}",
                describe(&doc)
            );
        }
    }
    assert!(!doc.attributions().is_empty());
}

#[test]
fn no_attributions_in_plain_narration() {
    let doc = analyse("The river rose two feet overnight.\n\nRoads near the dam were closed.");
    assert!(doc.attributions().is_empty(), "{:?}", describe(&doc));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn never_panics_and_spans_fit(text in "([a-zA-Z]{1,8}|[ \n]|[“”\"'’.,:;?!—]|said|told|according to|Mr\\.){0,60}") {
        let mut doc = Doc::new(Article::new("p", text.as_str()));
        doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT)).expect("segmentation");
        // Without POS tags the stage still runs (with weaker features).
        let untagged = model().attributions(&doc);
        tagger().run(&mut doc).expect("tags");
        model().run(&mut doc).expect("attributions fit the text");
        for a in doc.attributions().iter().chain(&untagged) {
            prop_assert!((0.0..=1.0).contains(&a.confidence));
            prop_assert!(!a.cue.is_empty());
            for span in a.source.iter().chain(&a.cue).chain(&a.content) {
                prop_assert!(span.get(&text).is_some());
                prop_assert!(!span.is_empty());
            }
        }
        let starts: Vec<usize> = doc.attributions().iter().map(|a| a.cue[0].byte_start()).collect();
        prop_assert!(starts.windows(2).all(|w| w[0] <= w[1]), "ordered by cue");
    }
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn analyses_every_dev_article() {
    let dir = attest_corpus::testing::polnear_split("dev");
    let corpus = attest_corpus::Corpus::open(&dir).expect("dev split opens");
    let mut articles = 0;
    let mut found = 0;
    for article in corpus.articles() {
        let article = article.expect("article reads");
        let doc = analyse(&article.text);
        articles += 1;
        found += doc.attributions().len();
    }
    assert_eq!(articles, corpus.len());
    assert!(
        found > articles,
        "{found} attributions in {articles} articles"
    );
}
