//! Evaluation of both taggers on test sets written as TSV files.
//!
//! The format is documented in `tests/data/README.md` of this crate; the bundled
//! sets are [`QUANTITIES_TSV`] and [`TIMES_TSV`]. A case is one line: a text and
//! every quantity (or time expression) the tagger must find in it, in order. The
//! case counts as correct only when the tagger finds exactly those, with the same
//! span text and values, and nothing else.

use std::fmt;
use std::path::{Path, PathBuf};

use attest_doc::{Article, Doc, Granularity, Published};
use serde::Serialize;

use crate::{QuantityTagger, TimeTagger};

/// The bundled quantity test set.
pub const QUANTITIES_TSV: &str = include_str!("../tests/data/quantities.tsv");
/// The bundled time test set.
pub const TIMES_TSV: &str = include_str!("../tests/data/times.tsv");

/// A test set that cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line does not follow the format.
    #[error("line {line}: {message}")]
    Format {
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// One case the tagger got wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalFailure {
    /// The 1-based line of the case in the test set.
    pub line: usize,
    /// The case's text.
    pub text: String,
    /// What was expected, in the test set's notation.
    pub expected: String,
    /// What the tagger found, in the same notation.
    pub got: String,
}

/// The result of running a tagger over a test set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// "quantities" or "times".
    pub set: String,
    /// The number of cases.
    pub cases: usize,
    /// The number of cases found exactly.
    pub correct: usize,
    /// `correct / cases`, 0 for an empty set.
    pub accuracy: f64,
    /// The cases got wrong, in file order.
    pub failures: Vec<EvalFailure>,
}

impl fmt::Display for EvalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {}/{} cases correct, accuracy {:.3}",
            self.set, self.correct, self.cases, self.accuracy
        )?;
        for failure in &self.failures {
            writeln!(f, "line {}: {}", failure.line, failure.text)?;
            writeln!(f, "  expected: {}", failure.expected)?;
            writeln!(f, "  got:      {}", failure.got)?;
        }
        Ok(())
    }
}

/// Evaluates the quantity tagger on a test set file.
pub fn eval_quantities(path: &Path, analyse: Analyse<'_>) -> Result<EvalReport, EvalError> {
    eval_quantities_str(&read(path)?, analyse)
}

/// Evaluates the time tagger on a test set file.
pub fn eval_times(path: &Path, analyse: Analyse<'_>) -> Result<EvalReport, EvalError> {
    eval_times_str(&read(path)?, analyse)
}

fn read(path: &Path) -> Result<String, EvalError> {
    std::fs::read_to_string(path).map_err(|source| EvalError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Evaluates the quantity tagger on the contents of a test set.
pub fn eval_quantities_str(contents: &str, analyse: Analyse<'_>) -> Result<EvalReport, EvalError> {
    let tagger = QuantityTagger::new();
    let mut report = Report::new("quantities");
    for (line, fields) in lines(contents) {
        let [text, items @ ..] = fields.as_slice() else {
            continue;
        };
        let expected = expected_items(line, items, 4)?;
        let doc = analysed(text, None, analyse);
        let got: Vec<Vec<String>> = tagger
            .tag(&doc)
            .iter()
            .map(|q| {
                vec![
                    doc.span_text(q.span).to_string(),
                    number_field(q.low),
                    number_field(q.high),
                    dash(&q.unit),
                ]
            })
            .collect();
        let ok = got.len() == expected.len()
            && got.iter().zip(&expected).all(|(g, e)| {
                g.first() == e.first()
                    && same_number(g.get(1), e.get(1))
                    && same_number(g.get(2), e.get(2))
                    && g.get(3) == e.get(3)
            });
        report.add(line, text, ok, &expected, &got);
    }
    Ok(report.finish())
}

/// Evaluates the time tagger on the contents of a test set.
pub fn eval_times_str(contents: &str, analyse: Analyse<'_>) -> Result<EvalReport, EvalError> {
    let tagger = TimeTagger::new();
    let mut report = Report::new("times");
    let mut default: Option<Published> = None;
    for raw in contents.lines() {
        if let Some(value) = raw.strip_prefix("# published:") {
            default = value.trim().parse().ok();
        }
    }
    for (line, fields) in lines(contents) {
        let [published, text, items @ ..] = fields.as_slice() else {
            return Err(format_error(line, "expected a publication time and a text"));
        };
        let published = match *published {
            "=" => default,
            "none" => None,
            other => Some(
                other
                    .parse()
                    .map_err(|e: attest_doc::PublishedError| format_error(line, &e.to_string()))?,
            ),
        };
        let expected = expected_items(line, items, 3)?;
        let doc = analysed(text, published, analyse);
        let got: Vec<Vec<String>> = tagger
            .tag(&doc)
            .iter()
            .map(|t| {
                vec![
                    doc.span_text(t.span).to_string(),
                    t.value.clone().unwrap_or_else(|| "-".to_string()),
                    t.granularity.map_or("-", granularity_name).to_string(),
                ]
            })
            .collect();
        let ok = got == expected;
        report.add(line, text, ok, &expected, &got);
    }
    Ok(report.finish())
}

/// The name of a granularity in test sets and messages.
pub fn granularity_name(granularity: Granularity) -> &'static str {
    match granularity {
        Granularity::Year => "year",
        Granularity::Month => "month",
        Granularity::Week => "week",
        Granularity::Day => "day",
        Granularity::PartOfDay => "part_of_day",
        Granularity::Minute => "minute",
    }
}

struct Report {
    inner: EvalReport,
}

impl Report {
    fn new(set: &str) -> Report {
        Report {
            inner: EvalReport {
                set: set.to_string(),
                cases: 0,
                correct: 0,
                accuracy: 0.0,
                failures: Vec::new(),
            },
        }
    }

    fn add(
        &mut self,
        line: usize,
        text: &str,
        ok: bool,
        expected: &[Vec<String>],
        got: &[Vec<String>],
    ) {
        self.inner.cases += 1;
        if ok {
            self.inner.correct += 1;
        } else {
            self.inner.failures.push(EvalFailure {
                line,
                text: text.to_string(),
                expected: notation(expected),
                got: notation(got),
            });
        }
    }

    fn finish(mut self) -> EvalReport {
        if self.inner.cases > 0 {
            self.inner.accuracy = self.inner.correct as f64 / self.inner.cases as f64;
        }
        self.inner
    }
}

fn notation(items: &[Vec<String>]) -> String {
    if items.is_empty() {
        return "-".to_string();
    }
    items
        .iter()
        .map(|item| item.join(" | "))
        .collect::<Vec<_>>()
        .join("  ;  ")
}

/// The non-comment, non-blank lines with their 1-based numbers, split at tabs.
fn lines(contents: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    contents
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| (n + 1, l.split('\t').collect()))
}

fn expected_items(
    line: usize,
    items: &[&str],
    width: usize,
) -> Result<Vec<Vec<String>>, EvalError> {
    if items == ["-"] || items.is_empty() {
        return Ok(Vec::new());
    }
    if !items.len().is_multiple_of(width) {
        return Err(format_error(
            line,
            &format!(
                "expected groups of {width} fields after the text, found {}",
                items.len()
            ),
        ));
    }
    Ok(items
        .chunks(width)
        .map(|chunk| chunk.iter().map(|f| f.to_string()).collect())
        .collect())
}

fn format_error(line: usize, message: &str) -> EvalError {
    EvalError::Format {
        line,
        message: message.to_string(),
    }
}

/// What the evaluation runs on each case's document before the taggers:
/// segmentation and part-of-speech tags, by the caller's stages, so that this
/// stage crate depends on neither.
pub type Analyse<'a> = &'a dyn Fn(&mut Doc);

fn analysed(text: &str, published: Option<Published>, analyse: Analyse<'_>) -> Doc {
    let mut article = Article::new("case", text);
    article.published = published;
    let mut doc = Doc::new(article);
    // A stage that fails leaves the document without its layer, and the case
    // then fails visibly.
    analyse(&mut doc);
    doc
}

fn number_field(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v}"))
}

fn dash(text: &str) -> String {
    if text.is_empty() {
        "-".to_string()
    } else {
        text.to_string()
    }
}

/// Equal within a relative 10⁻⁴, so that test sets can write 0.6667 for 2/3.
fn same_number(got: Option<&String>, expected: Option<&String>) -> bool {
    match (got.map(String::as_str), expected.map(String::as_str)) {
        (Some("-"), Some("-")) => true,
        (Some(g), Some(e)) => match (g.parse::<f64>(), e.parse::<f64>()) {
            (Ok(g), Ok(e)) => (g - e).abs() <= 1e-4 * e.abs().max(1.0),
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_exact_matches_only() {
        let set = "# a comment\nIt cost $5.\t$5\t5\t5\tUSD\nRoute 66 runs west.\t-\nHe bought 3 apples.\t3 apples\t4\t4\tapples\n";
        let report = eval_quantities_str(set, &crate::testing::prepare).unwrap();
        assert_eq!((report.cases, report.correct), (3, 2));
        assert_eq!(report.failures[0].line, 4);
        assert!(report.to_string().contains("2/3"));
    }

    #[test]
    fn reads_publication_times_per_line_and_by_default() {
        let set = "# published: 2026-03-04\n=\tIt rained yesterday.\tyesterday\t2026-03-03\tday\nnone\tIt rained yesterday.\tyesterday\t-\tday\n2026-01-01\tIt rained yesterday.\tyesterday\t2025-12-31\tday\n";
        let report = eval_times_str(set, &crate::testing::prepare).unwrap();
        assert_eq!((report.cases, report.correct), (3, 3), "{report}");
    }

    #[test]
    fn rejects_malformed_lines() {
        assert!(matches!(
            eval_quantities_str("It cost $5.\t$5\t5\n", &crate::testing::prepare),
            Err(EvalError::Format { line: 1, .. })
        ));
        assert!(eval_times_str("bogus\tIt rained.\t-\n", &crate::testing::prepare).is_err());
        assert!(
            eval_quantities(Path::new("/nonexistent/set.tsv"), &crate::testing::prepare).is_err()
        );
    }
}
