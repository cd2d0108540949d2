//! `attest ingest --analysed`: the JSON Lines that `attest analyze --format
//! jsonl` writes (schema `attest.document/1`), read back into `Doc`s so that
//! the ledger stores them without analysing again, as when a Spark job did the
//! analysis.
//!
//! This module reads lines, each at most `--max-jsonl-line-bytes` long, and
//! fails a line alone, naming its file and number; `attest_write::read_json`
//! reads each line, through the types the writer writes it from, with the
//! checks of its spans; the segmenter and the tagger make again what a line
//! without `--tokens` leaves out.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, anyhow};
use attest_doc::{Doc, Limits, Segmentation};

/// One line read back: the document, or why the line failed, with its place.
pub(crate) struct Line {
    pub(crate) place: String,
    pub(crate) doc: anyhow::Result<Doc>,
}

/// The documents of one file of analyse's JSON Lines (`-` for standard input),
/// one line at a time; a line longer than `limits.jsonl_line_bytes` fails alone.
pub(crate) fn read_file(
    path: &Path,
    limits: Limits,
) -> anyhow::Result<impl Iterator<Item = Line> + Send + use<>> {
    let shown = path.display().to_string();
    let reader: Box<dyn BufRead + Send> = if shown == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        Box::new(BufReader::new(
            std::fs::File::open(path).with_context(|| format!("opening {shown}"))?,
        ))
    };
    let mut lines = BoundedLines {
        reader,
        limit: limits.jsonl_line_bytes,
        number: 0,
        done: false,
    };
    Ok(std::iter::from_fn(move || {
        loop {
            let (number, line) = lines.next()?;
            let place = format!("{shown}:{number}");
            let doc = match line {
                Ok(line) if line.trim_ascii().is_empty() => continue,
                Ok(line) => parse(&line, &limits),
                Err(err) => Err(err),
            };
            return Some(Line {
                place: place.clone(),
                doc: doc.map_err(|err| err.context(place)),
            });
        }
    }))
}

/// Lines of at most `limit` bytes; a longer one is skipped to its end and
/// reported, never held.
struct BoundedLines {
    reader: Box<dyn BufRead + Send>,
    limit: usize,
    number: u64,
    done: bool,
}

impl BoundedLines {
    fn next(&mut self) -> Option<(u64, anyhow::Result<Vec<u8>>)> {
        if self.done {
            return None;
        }
        self.number += 1;
        let mut line = Vec::new();
        let cap = u64::try_from(self.limit)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        match Read::take(&mut self.reader, cap).read_until(b'\n', &mut line) {
            Err(err) => {
                self.done = true;
                Some((self.number, Err(anyhow!(err).context("reading"))))
            }
            Ok(0) => None,
            Ok(_) if line.last() == Some(&b'\n') || line.len() <= self.limit => {
                Some((self.number, Ok(line)))
            }
            Ok(_) => {
                let mut rest = Vec::new();
                let skipped = loop {
                    rest.clear();
                    match Read::take(&mut self.reader, 1 << 16).read_until(b'\n', &mut rest) {
                        Ok(0) => break Ok(()),
                        Ok(_) if rest.last() == Some(&b'\n') => break Ok(()),
                        Ok(_) => {}
                        Err(err) => break Err(err),
                    }
                };
                if let Err(err) = skipped {
                    self.done = true;
                    return Some((self.number, Err(anyhow!(err).context("reading"))));
                }
                Some((
                    self.number,
                    Err(anyhow!(
                        "line over {} bytes (--max-jsonl-line-bytes)",
                        self.limit
                    )),
                ))
            }
        }
    }
}

/// Reads one line of analyse's output into a `Doc`.
pub(crate) fn parse(line: &[u8], limits: &Limits) -> anyhow::Result<Doc> {
    Ok(attest_write::read_json(line, &Again { limits: *limits })?)
}

/// The layers a line without tokens leaves out, made as `attest analyze`
/// makes them.
struct Again {
    limits: Limits,
}

impl attest_write::Remake for Again {
    fn segment(&self, text: &str) -> Segmentation {
        attest_text::segment(text, &self.limits)
    }

    fn tag(&self, doc: &mut Doc) -> Result<(), String> {
        let tagger = attest_tag::Tagger::shared().map_err(|err| err.to_string())?;
        attest_doc::Stage::run(tagger, doc).map_err(|err| err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, Layer};

    /// Articles written for this test: quotations, a hedge, a quantity, a
    /// time, names, a line break inside a paragraph and text that JSON escapes.
    const ARTICLES: [&str; 3] = [
        "The mayor said on Monday that the bridge would reopen in May. \
         “We are confident,” said Dana Whitcombe, a council spokeswoman.\n\n\
         Critics reportedly doubt it, and about 40 residents protested.",
        "Harlan Mills Inc. will cut 120 jobs by June, the company said in a statement.\n\
         A union official, Rosa Ibáñez, called the plan \"a betrayal\" and said workers \
         would strike.\n\nThe firm declined to comment further.",
        "Officials were said to be studying the \\ proposal.\t“It is too early,” one \
         of them said, adding that a decision could come in 2027 — or later.",
    ];

    fn analysed(text: &str, tokens: bool) -> (Doc, Vec<u8>) {
        let limits = Limits::DEFAULT;
        let pipeline = attest_pipeline::Pipeline::standard(&limits).expect("the pipeline builds");
        let mut article = Article::new("t1", text);
        article.title = Some("A title with \"quotes\"".into());
        article.published = "2026-03-04".parse().ok();
        let doc = pipeline.analyze(article);
        (doc.clone(), line(&doc, tokens))
    }

    fn line(doc: &Doc, tokens: bool) -> Vec<u8> {
        let mut line = Vec::new();
        let config = attest_write::JsonConfig {
            tokens,
            ..attest_write::JsonConfig::default()
        };
        attest_write::write_jsonl(doc, &config, &mut line).expect("it writes");
        line
    }

    /// Analyse, write, read, write again: the same bytes, with the tokens
    /// carried and with them segmented and tagged again.
    #[test]
    fn a_written_document_reads_back_to_the_same_bytes() {
        for text in ARTICLES {
            for tokens in [false, true] {
                let (doc, written) = analysed(text, tokens);
                assert!(
                    doc.diagnostics().is_empty(),
                    "diagnostics are not read back"
                );
                let back = parse(&written, &Limits::DEFAULT).expect("it reads back");
                assert_eq!(
                    String::from_utf8_lossy(&line(&back, tokens)),
                    String::from_utf8_lossy(&written)
                );
                assert_eq!(back.tokens(), doc.tokens());
                assert_eq!(back.pos(), doc.pos());
            }
        }
        let (doc, _) = analysed(ARTICLES[0], false);
        assert!(doc.has(Layer::Attributions) && !doc.attributions().is_empty());
        assert!(!doc.quotations().is_empty(), "a quotation is read back");
    }

    #[test]
    fn a_line_whose_sentences_this_attest_does_not_make_fails_without_tokens() {
        let (_, written) = analysed(ARTICLES[0], false);
        let edited = String::from_utf8(written).expect("UTF-8").replacen(
            "\"token_end\":",
            "\"token_end\":1",
            1,
        );
        let err = parse(edited.as_bytes(), &Limits::DEFAULT).expect_err("refused");
        assert!(err.to_string().contains("--tokens"), "{err:#}");
    }
}
