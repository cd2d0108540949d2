//! Training data for the part-of-speech tagger, taken from the silver tokens.

use crate::{Corpus, CorpusArticle, CorpusError};

/// One sentence of words with their tags.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PosSentence {
    /// Each token's original text (the slice of the article, not CoreNLP's
    /// normalized `word`), because at run time the tagger sees the original text.
    pub words: Vec<String>,
    /// Each token's Penn Treebank tag as CoreNLP wrote it.
    pub tags: Vec<String>,
}

/// The silver sentences of one article; empty when it has no silver file.
pub fn article_pos_sentences(article: &CorpusArticle) -> Vec<PosSentence> {
    let mut sentences: Vec<PosSentence> = Vec::new();
    let mut current = None;
    for token in article.silver.iter().flatten() {
        let Some(word) = token.span.get(&article.text) else {
            continue;
        };
        if current != Some(token.sentence) || sentences.is_empty() {
            sentences.push(PosSentence::default());
            current = Some(token.sentence);
        }
        if let Some(sentence) = sentences.last_mut() {
            sentence.words.push(word.to_owned());
            sentence.tags.push(token.pos.clone());
        }
    }
    sentences
}

/// The silver sentences of every article of a split, in name order.
pub fn pos_sentences(corpus: &Corpus) -> Result<Vec<PosSentence>, CorpusError> {
    let mut sentences = Vec::new();
    for article in corpus.articles() {
        sentences.extend(article_pos_sentences(&article?));
    }
    Ok(sentences)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::silver::parse_silver;

    #[test]
    fn uses_the_original_text_and_splits_sentences() {
        let text = "He left — “fast.” Gone.";
        let tsv = "1\t1\tHe\t0\t2\the\tPRP\tO\t2\tnsubj\n\
                   1\t2\tleft\t3\t7\tleave\tVBD\tO\t0\tROOT\n\
                   1\t3\t--\t8\t9\t--\t:\tO\t2\tpunct\n\
                   1\t4\t``\t10\t11\t``\t``\tO\t2\tpunct\n\
                   1\t5\tfast\t11\t15\tfast\tRB\tO\t2\tadvmod\n\
                   1\t6\t.\t15\t16\t.\t.\tO\t2\tpunct\n\
                   1\t7\t''\t16\t17\t''\t''\tO\t2\tpunct\n\
                   2\t1\tGone\t18\t22\tgo\tVBN\tO\t0\tROOT\n\
                   2\t2\t.\t22\t23\t.\t.\tO\t1\tpunct\n";
        let article = CorpusArticle {
            silver: Some(parse_silver(tsv, text).unwrap()),
            ..CorpusArticle::unlisted("x".into(), text.into(), Vec::new())
        };
        let sentences = article_pos_sentences(&article);
        assert_eq!(sentences.len(), 2);
        assert_eq!(
            sentences[0].words,
            ["He", "left", "—", "“", "fast", ".", "”"]
        );
        assert_eq!(sentences[0].tags[2], ":");
        assert_eq!(sentences[1].words, ["Gone", "."]);
    }
}
