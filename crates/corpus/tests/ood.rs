//! The out-of-domain set written for attest (`eval/ood`) reads as a PolNeAR
//! split: every article has its annotation, and every attribution's spans fit
//! the text with a cue and a content.

use std::path::Path;

use attest_corpus::Corpus;

#[test]
fn the_out_of_domain_set_reads_whole() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/ood");
    let corpus = Corpus::open(&dir).expect("eval/ood opens as a split");
    assert_eq!(corpus.len(), 42);
    let mut attributions = 0;
    for article in corpus.articles() {
        let article = article.expect("every article reads with its annotation");
        assert!(
            !article.gold.is_empty(),
            "{} has no attribution",
            article.name
        );
        for gold in &article.gold {
            assert!(
                !gold.cue.is_empty() && !gold.content.is_empty(),
                "{}:{} lacks a cue or a content",
                article.name,
                gold.id
            );
            assert_eq!(
                gold.no_source,
                gold.source.is_empty(),
                "{}:{}",
                article.name,
                gold.id
            );
            for span in gold.source.iter().chain(&gold.cue).chain(&gold.content) {
                assert!(
                    span.get(&article.text).is_some(),
                    "{}:{}",
                    article.name,
                    gold.id
                );
            }
        }
        attributions += article.gold.len();
    }
    assert_eq!(attributions, 958);
}
