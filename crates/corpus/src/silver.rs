//! CoreNLP "silver" annotations: tokens, sentences, POS, NER and dependencies.
//!
//! Each line is `sent tok word begin end lemma pos ner head deprel`, with offsets
//! in code points. The `word` column is CoreNLP's normalized form (`''` for ”,
//! `--` for —); the original text of a token is the text its span covers.

use attest_doc::{OffsetIndex, Span};

use crate::LineError;

/// One token as CoreNLP saw it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SilverToken {
    /// The 1-based sentence number.
    pub sentence: u32,
    /// The 1-based position in its sentence, which [`SilverToken::head`] refers to.
    pub index: u32,
    /// Where it stands, in bytes.
    pub span: Span,
    /// CoreNLP's normalized form.
    pub word: String,
    /// Its lemma.
    pub lemma: String,
    /// Its Penn Treebank tag.
    pub pos: String,
    /// Its named-entity label ("O" outside).
    pub ner: String,
    /// The index of its head in the sentence; 0 for the root.
    pub head: u32,
    /// The dependency relation to its head.
    pub deprel: String,
}

/// Parses a silver `.tsv` file against the text of its article.
pub fn parse_silver(tsv: &str, text: &str) -> Result<Vec<SilverToken>, LineError> {
    let index = OffsetIndex::new(text);
    let mut tokens = Vec::new();
    for (line_index, line) in tsv.lines().enumerate() {
        let number = line_index + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [
            sentence,
            tok,
            word,
            begin,
            end,
            lemma,
            pos,
            ner,
            head,
            deprel,
        ] = fields.as_slice()
        else {
            return Err(LineError::new(
                number,
                format!("expected 10 tab-separated fields, found {}", fields.len()),
            ));
        };
        let number_of = |name: &str, value: &str| {
            value
                .parse::<u32>()
                .map_err(|_| LineError::new(number, format!("{name} {value:?} is not a number")))
        };
        let (begin_cp, end_cp) = (number_of("begin", begin)?, number_of("end", end)?);
        let span = index
            .cp_to_byte(begin_cp as usize)
            .zip(index.cp_to_byte(end_cp as usize))
            .and_then(|(start, end)| Span::try_new_in(text, start, end).ok())
            .ok_or_else(|| {
                LineError::new(
                    number,
                    format!(
                        "token {begin_cp}..{end_cp} does not fit a text of {} code points",
                        index.cp_len()
                    ),
                )
            })?;
        tokens.push(SilverToken {
            sentence: number_of("sentence", sentence)?,
            index: number_of("token", tok)?,
            span,
            word: (*word).to_owned(),
            lemma: (*lemma).to_owned(),
            pos: (*pos).to_owned(),
            ner: (*ner).to_owned(),
            head: number_of("head", head)?,
            deprel: (*deprel).to_owned(),
        });
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tokens_with_byte_spans_of_the_original_text() {
        let text = "“Hi,” Zoë said.";
        let tsv = "#sent\ttok\tword\tbegin\tend\tlemma\tpos\tner\thead\tdeprel\n\
                   1\t1\t``\t0\t1\t``\t``\tO\t2\tpunct\n\
                   1\t2\tHi\t1\t3\thi\tUH\tO\t0\tROOT\n\
                   1\t3\t''\t4\t5\t''\t''\tO\t2\tpunct\n\
                   1\t4\tZoë\t6\t9\tZoë\tNNP\tPERSON\t5\tnsubj\n";
        let tokens = parse_silver(tsv, text).unwrap();
        assert_eq!(tokens.len(), 4);
        assert_eq!(tokens[2].span.slice(text), "”");
        assert_eq!(tokens[2].word, "''");
        assert_eq!(tokens[3].span.slice(text), "Zoë");
        assert_eq!(
            (tokens[3].sentence, tokens[3].index, tokens[3].head),
            (1, 4, 5)
        );
    }

    #[test]
    fn rejects_short_lines_and_bad_offsets() {
        let text = "abc";
        assert_eq!(parse_silver("1\t1\tabc\t0\n", text).unwrap_err().line, 1);
        let bad = "1\t1\tabc\t0\t3\tabc\tNN\tO\t0\tROOT\n1\t2\tx\t2\t9\tx\tNN\tO\t1\tdep\n";
        assert_eq!(parse_silver(bad, text).unwrap_err().line, 2);
    }
}
