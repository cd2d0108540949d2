//! Reads the PolNeAR corpus beside the repository (see `attest_corpus::testing`).

use attest_corpus::testing::polnear;
use attest_corpus::{AnnotatorChoice, Corpus, Label, parse_ann};

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn every_article_of_train_and_dev_reads_and_every_span_slices_to_its_ann_text() {
    let root = polnear();
    for split in ["train", "dev"] {
        let corpus = Corpus::open(&root.join(split)).unwrap();
        assert!(corpus.len() > 50, "{split}: only {} articles", corpus.len());
        assert!(corpus.metadata_file().is_some());
        let (mut attributions, mut fallbacks, mut silver, mut bounds) = (0, 0, 0, 0);
        let mut no_source_with_source = 0;
        for article in corpus.articles() {
            let article = article.unwrap();
            attributions += article.gold.len();
            let as_article = article.to_article();
            assert!(
                as_article.published.is_some() && as_article.outlet.is_some(),
                "{}: metadata without a date or outlet",
                article.name
            );
            silver += usize::from(article.silver.is_some());
            if matches!(article.choice, AnnotatorChoice::Fallback { .. }) {
                fallbacks += 1;
            }
            // Reparse the chosen file to see each T line's own text.
            if let Some(annotator) = &article.annotator {
                let path = corpus
                    .dir()
                    .join("attributions")
                    .join(format!("{}_{annotator}.ann", article.name));
                let ann = std::fs::read_to_string(&path).unwrap();
                let parsed = parse_ann(&ann, &article.text).unwrap();
                for bound in &parsed.text_bounds {
                    let joined: Vec<&str> = bound
                        .fragments
                        .iter()
                        .map(|f| f.slice(&article.text))
                        .collect();
                    assert_eq!(
                        joined.join(" "),
                        bound.text,
                        "{}:{} {}",
                        path.display(),
                        bound.line,
                        bound.id
                    );
                    bounds += 1;
                }
                assert!(
                    parsed
                        .text_bounds
                        .iter()
                        .all(|b| !matches!(b.label, Label::Other(_))),
                    "{}: a label outside the scheme",
                    path.display()
                );
            }
            for gold in &article.gold {
                assert!(
                    !gold.cue.is_empty() || !gold.content.is_empty(),
                    "{}",
                    gold.id
                );
                if gold.no_source && !gold.source.is_empty() {
                    no_source_with_source += 1;
                }
            }
        }
        eprintln!(
            "{split}: {} articles, {attributions} gold attributions, {bounds} spans checked, \
             {fallbacks} annotator fallbacks, {silver} with silver, \
             {no_source_with_source} no-source attributions with a source",
            corpus.len()
        );
        assert!(attributions > 1000);
        assert!(silver > corpus.len() * 9 / 10);
    }
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn pos_sentences_use_original_text() {
    let root = polnear();
    let corpus = Corpus::open(&root.join("dev")).unwrap();
    let sentences = attest_corpus::pos_sentences(&corpus).unwrap();
    assert!(sentences.len() > 1000);
    assert!(
        sentences
            .iter()
            .all(|s| s.words.len() == s.tags.len() && !s.words.is_empty())
    );
    let words = sentences.iter().flat_map(|s| &s.words);
    assert!(
        words.clone().any(|w| w == "”") && words.clone().any(|w| w == "—"),
        "words must be text slices, not CoreNLP's normalized forms"
    );
    assert!(!words.clone().any(|w| w == "-LRB-" || w == "``"));
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn gold_scored_against_itself_on_dev_is_perfect() {
    let root = polnear();
    let corpus = Corpus::open(&root.join("dev")).unwrap();
    let report = attest_corpus::score::evaluate_attributions(&corpus, |article| {
        article
            .gold
            .iter()
            .map(|g| g.to_attribution(&article.text))
            .collect()
    })
    .unwrap();
    eprintln!("{report}");
    let span = report.span;
    for role in [span.source, span.cue, span.content] {
        assert_eq!(role.exact.f1(), 1.0);
        assert_eq!(role.begin.f1(), 1.0);
        assert!(role.exact.true_pos > 1000);
    }
    let a = report.attribution;
    assert_eq!(a.attributions.f1(), 1.0, "{:?}", a.attributions);
    assert_eq!(a.source_token_f1, 1.0);
    assert_eq!(a.cue_exact, 1.0);
}

/// The silver tokens as a segmentation of ours, one sentence per silver sentence.
fn silver_segmentation(
    text: &str,
    silver: &[attest_corpus::SilverToken],
) -> attest_doc::Segmentation {
    use attest_doc::{
        Paragraph, ParagraphRole, Sentence, SentenceId, Span, Token, TokenId, TokenKind,
    };
    let tokens: Vec<Token> = silver
        .iter()
        .map(|t| Token {
            span: t.span,
            kind: TokenKind::Word,
        })
        .collect();
    let mut sentences = Vec::new();
    let mut first = 0;
    for (i, token) in silver.iter().enumerate() {
        if silver
            .get(i + 1)
            .is_none_or(|next| next.sentence != token.sentence)
        {
            sentences.push(Sentence {
                span: tokens[first].span.cover(tokens[i].span),
                tokens: TokenId::must(first)..TokenId::must(i + 1),
            });
            first = i + 1;
        }
    }
    let paragraphs = vec![Paragraph {
        span: Span::must(0, text.len()),
        sentences: SentenceId::must(0)..SentenceId::must(sentences.len()),
        role: ParagraphRole::Body,
    }];
    attest_doc::Segmentation {
        tokens,
        sentences,
        paragraphs,
    }
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn silver_segmentation_scored_against_itself_on_dev_is_perfect() {
    let root = polnear();
    let corpus = Corpus::open(&root.join("dev")).unwrap();
    let mut scorer = attest_corpus::score::SegmentationScorer::new();
    for article in corpus.articles() {
        let article = article.unwrap();
        let Some(silver) = &article.silver else {
            continue;
        };
        scorer.add(
            &article.text,
            &silver_segmentation(&article.text, silver),
            silver,
        );
    }
    let report = scorer.report(10);
    assert!(report.tokens.true_pos > 50_000);
    assert_eq!(report.tokens.f1(), 1.0);
    assert_eq!(report.sentences.f1(), 1.0);
    assert!(report.top_token_errors.is_empty() && report.top_sentence_errors.is_empty());
}
