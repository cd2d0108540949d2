//! attest's labels of PolNeAR (`eval/polnear/`): they read, and they agree with
//! the gold attributions and texts of the corpus beside the repository.

use std::path::{Path, PathBuf};

use attest_corpus::testing::polnear_split;
use attest_corpus::{Corpus, SplitLabels};

fn labels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/polnear")
}

#[test]
fn the_label_tables_read() {
    for split in ["dev", "train"] {
        let labels = SplitLabels::read(&labels_dir(), split).unwrap();
        assert!(
            labels.len() >= 80,
            "{split}: only {} articles labelled",
            labels.len()
        );
    }
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn every_label_agrees_with_its_article_and_the_labelled_articles_come_first_in_name_order() {
    for split in ["dev", "train"] {
        let corpus = Corpus::open(&polnear_split(split)).unwrap();
        let labels = SplitLabels::read(&labels_dir(), split).unwrap();
        let mut problems = Vec::new();
        for name in labels.names() {
            let article = corpus.article(name).unwrap();
            problems.extend(labels.article(name).unwrap().check(&article));
        }
        assert!(problems.is_empty(), "{split}:\n{}", problems.join("\n"));
        // The guideline labels a split in name order, so the labelled
        // articles are its first ones; an article without attributions or
        // hedges has no row and is the only gap allowed.
        let labelled: Vec<&str> = labels.names().collect();
        let last = *labelled.last().unwrap();
        for article in corpus.articles() {
            let article = article.unwrap();
            if article.name.as_str() > last {
                break;
            }
            if labels.article(&article.name).is_none() {
                assert!(
                    article.gold.is_empty(),
                    "{split}: {} is not labelled",
                    article.name
                );
            }
        }
        if split == "dev" {
            assert_eq!(
                last,
                corpus.names().last().unwrap(),
                "dev is labelled whole"
            );
        }
    }
}
