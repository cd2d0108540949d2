//! The sourcing distribution of PolNeAR dev gold attributions (an ignored test:
//! the corpus is not ours to ship; see `attest_corpus::testing`).

use attest_corpus::Corpus;
use attest_doc::{Article, Doc};

mod common;

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn polnear_dev_source_distribution() {
    let dir = attest_corpus::testing::polnear_split("dev");
    let corpus = Corpus::open(&dir).expect("the dev split opens");
    let mut docs = Vec::new();
    let started = std::time::Instant::now();
    let mut bytes = 0;
    for article in corpus.articles() {
        let article = article.expect("the article reads");
        bytes += article.text.len();
        let mut doc = Doc::new(Article::new(article.name.clone(), article.text.clone()));
        common::prepare(&mut doc).expect("the earlier stages run");
        let attributions = article
            .gold
            .iter()
            .map(|g| g.to_attribution(&article.text))
            .collect();
        doc.set_attributions(attributions).expect("gold spans fit");
        docs.push(doc);
    }
    let segmented = started.elapsed();
    let stages = std::time::Instant::now();
    let models = attest_sources::SourcingModels::shared().expect("the bundled models");
    for doc in &mut docs {
        use attest_doc::Stage;
        models.stances.run(doc).expect("stances fit");
        models.sources.run(doc).expect("sources fit");
        models.hedges.run(doc).expect("hedges fit");
    }
    let staged = stages.elapsed();
    println!(
        "three stages: {:?} for {} bytes = {:.1} MB/s",
        staged,
        bytes,
        bytes as f64 / staged.as_secs_f64() / 1e6
    );
    let hedges: usize = docs.iter().map(|d| d.hedges().len()).sum();
    println!("{hedges} unattributed hedges found");
    let distribution = attest_sources::source_distribution(&docs);
    println!("{distribution}");
    println!(
        "{} bytes; segmentation, tags, entities + reading {:?}; sources over the collection {:?}",
        bytes,
        segmented,
        started.elapsed() - segmented
    );
    assert!(
        distribution.named_share + distribution.pronoun_to_name_share + distribution.unnamed_share
            <= 1.0
    );
    // Exact, as docs/evaluation.md quotes it: a change to sourcing shows here, and the page
    // follows it.
    insta::assert_snapshot!("polnear_dev_distribution", distribution.to_string());
}
