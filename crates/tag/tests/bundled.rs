//! The shipped model: it loads, tags any input without panicking, and meets
//! its accuracy on PolNeAR's dev split (ignored unless asked for; see
//! `attest_corpus::testing`).

use attest_corpus::{Corpus, pos_sentences};
use attest_tag::{TaggedSentence, Tagger};
use proptest::prelude::*;

/// Loaded once: the tests run unoptimized, where loading takes a while.
fn tagger() -> &'static Tagger {
    Tagger::shared().expect("models/pos.model is missing or damaged: run the train_pos example")
}

#[test]
fn tags_a_plain_sentence() {
    let tags = tagger().model().tag(
        [
            "The", "mayor", "said", "on", "Monday", "that", "the", "budget", "was", "final", ".",
        ]
        .into_iter(),
    );
    let names: Vec<&str> = tags.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "DT", "NN", "VBD", "IN", "NNP", "IN", "DT", "NN", "VBD", "JJ", "."
        ]
    );
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn dev_accuracy_against_silver() {
    let dir = attest_corpus::testing::polnear_split("dev");
    let corpus = Corpus::open(&dir).unwrap();
    let sentences: Vec<TaggedSentence> = pos_sentences(&corpus)
        .unwrap()
        .into_iter()
        .filter_map(|s| TaggedSentence::from_names(s.words, &s.tags))
        .collect();
    let (right, total) = tagger().model().evaluate(&sentences);
    let accuracy = right as f64 / total as f64;
    // Pinned exactly, so that a retrained model's change shows as a diff.
    insta::assert_snapshot!(format!("dev accuracy {accuracy:.4} ({right}/{total})"));
}

proptest! {
    #[test]
    fn any_words_get_one_tag_each(words in proptest::collection::vec("\\PC{0,12}", 0..30)) {
        let tags = tagger().model().tag(words.iter().map(String::as_str));
        prop_assert_eq!(tags.len(), words.len());
    }
}
