//! attest's own labels of a PolNeAR split: each gold attribution's stance,
//! source type, canonical source and direct quote, and the writer's hedges.
//!
//! The labels follow `shared/docs/sources-annotation.md` and
//! `shared/docs/hedges-annotation.md`, and are kept as standoff (article names,
//! `E` ids, offsets and label values, never the text) in two tab-separated
//! tables per split, `eval/polnear/SPLIT.sources.tsv` and
//! `eval/polnear/SPLIT.hedges.tsv`:
//!
//! ```text
//! article  attribution_id  stance  source_type  canonical_source  direct_quote
//! article  hedge_id  cue_start  cue_end  scope_start  scope_end  annotated_as  inside_content_of
//! ```
//!
//! Hedge offsets count code points, as PolNeAR's do; [`HedgeLabel::spans`]
//! turns them into byte spans of the article. [`ArticleLabels::check`] holds
//! an article's labels against its gold attributions, so that a label never
//! names an attribution the `.ann` file lacks, or misses one it has.
//!
//! ```
//! use attest_corpus::{LabelledType, SplitLabels};
//! use attest_doc::StanceLabel;
//!
//! let sources = "article\tattribution_id\tstance\tsource_type\tcanonical_source\tdirect_quote\n\
//!                story\tE1\tdenies\tnamed organization\tHarbor Port Authority\tno\n";
//! let hedges = "article\thedge_id\tcue_start\tcue_end\tscope_start\tscope_end\tannotated_as\tinside_content_of\n";
//! let labels = SplitLabels::parse(sources, hedges)?;
//! let story = labels.article("story").unwrap();
//! assert_eq!(story.sources[0].stance, StanceLabel::Denies);
//! assert_eq!(story.sources[0].source_type, LabelledType::NamedOrganization);
//! assert_eq!(story.sources[0].canonical.as_deref(), Some("Harbor Port Authority"));
//! # Ok::<(), attest_corpus::LineError>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use attest_doc::{LabelledType, OffsetIndex, Span, StanceLabel};

use crate::{CorpusArticle, CorpusError, LineError};

/// The header of a split's sources table.
pub const SOURCES_HEADER: &str =
    "article\tattribution_id\tstance\tsource_type\tcanonical_source\tdirect_quote";
/// The header of a split's hedges table.
pub const HEDGES_HEADER: &str = "article\thedge_id\tcue_start\tcue_end\tscope_start\tscope_end\tannotated_as\tinside_content_of";

/// Whether an attribution's content is inside quotation marks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "lowercase")]
pub enum DirectQuote {
    /// All of it.
    Yes,
    /// Part of it.
    Mixed,
    /// None of it.
    No,
}

/// The labels of one gold attribution.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SourceLabel {
    /// The `E` id of the attribution in the article's `.ann` file.
    pub attribution: String,
    /// How the article presents the source's relation to the content.
    pub stance: StanceLabel,
    /// The source's type.
    pub source_type: LabelledType,
    /// The fullest name the article gives the source, without titles; an
    /// unnamed source's description in parentheses; `None` without a source.
    pub canonical: Option<String>,
    /// Whether the content is quoted.
    pub direct_quote: DirectQuote,
    /// The 1-based line of the table.
    pub line: usize,
}

/// One hedge of the writer's, in code points of the article.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HedgeLabel {
    /// Its id within the article: "H2".
    pub id: String,
    /// The hedging words, `[start, end)` in code points.
    pub cue: (usize, usize),
    /// The clause they qualify, in code points.
    pub scope: (usize, usize),
    /// The `E` id when the hedge is itself a source-less attribution's cue.
    pub annotated_as: Option<String>,
    /// The `E` id of the attribution whose content holds the hedge.
    pub inside_content_of: Option<String>,
    /// The 1-based line of the table.
    pub line: usize,
}

impl HedgeLabel {
    /// The cue and scope as byte spans of `text`, or `None` when an offset is
    /// past its end.
    pub fn spans(&self, text: &str, index: &OffsetIndex) -> Option<(Span, Span)> {
        let span = |(start, end): (usize, usize)| {
            let start = index.cp_to_byte(start)?;
            let end = index.cp_to_byte(end)?;
            Span::try_new_in(text, start, end).ok()
        };
        Some((span(self.cue)?, span(self.scope)?))
    }
}

/// The labels of one article, in table order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ArticleLabels {
    /// One per gold attribution.
    pub sources: Vec<SourceLabel>,
    /// The writer's hedges; none when the article has none.
    pub hedges: Vec<HedgeLabel>,
}

impl ArticleLabels {
    /// The label of the gold attribution with `E` id `id`.
    pub fn source(&self, id: &str) -> Option<&SourceLabel> {
        self.sources.iter().find(|label| label.attribution == id)
    }

    /// Every way the labels disagree with the article's gold attributions and
    /// text, each naming the table line: a missing or unknown `E` id, a type
    /// that contradicts the source span, a hedge outside the text or pointing
    /// at an attribution that cannot hold it.
    pub fn check(&self, article: &CorpusArticle) -> Vec<String> {
        let mut problems = Vec::new();
        let gold: BTreeMap<&str, _> = article.gold.iter().map(|g| (g.id.as_str(), g)).collect();
        let mut seen = BTreeSet::new();
        for label in &self.sources {
            let at = format!(
                "{} line {} ({})",
                article.name, label.line, label.attribution
            );
            if !seen.insert(label.attribution.as_str()) {
                problems.push(format!("{at}: labelled twice"));
            }
            let Some(gold) = gold.get(label.attribution.as_str()) else {
                problems.push(format!("{at}: no such attribution in the .ann file"));
                continue;
            };
            let implicit = label.source_type == LabelledType::Implicit;
            if gold.source.is_empty() != implicit {
                problems.push(format!(
                    "{at}: type {:?}, but the attribution {} a source span",
                    label.source_type.name(),
                    if gold.source.is_empty() {
                        "has no"
                    } else {
                        "has"
                    }
                ));
            }
            if implicit != label.canonical.is_none() {
                problems.push(format!(
                    "{at}: canonical source must be - exactly when there is no source"
                ));
            }
        }
        for id in gold.keys().filter(|id| !seen.contains(*id)) {
            problems.push(format!("{}: attribution {id} has no label", article.name));
        }
        let index = OffsetIndex::new(&article.text);
        for hedge in &self.hedges {
            let at = format!("{} line {} ({})", article.name, hedge.line, hedge.id);
            match hedge.spans(&article.text, &index) {
                None => problems.push(format!("{at}: offsets outside the text")),
                Some((cue, _)) if cue.is_empty() => problems.push(format!("{at}: empty cue")),
                Some(_) => {}
            }
            for (what, id) in [
                ("annotated_as", &hedge.annotated_as),
                ("inside_content_of", &hedge.inside_content_of),
            ] {
                if let Some(id) = id {
                    match gold.get(id.as_str()) {
                        None => problems.push(format!("{at}: {what} {id} is not in the .ann file")),
                        Some(g) if what == "annotated_as" && !g.no_source => {
                            problems.push(format!("{at}: annotated_as {id}, which has a source"))
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        problems
    }
}

impl ArticleLabels {
    /// One article's labels in the guideline's own tables (`NAME.tsv` with
    /// the header of `shared/docs/sources-annotation.md`, `NAME.hedges.tsv`
    /// with that of `hedges-annotation.md`), whose text columns are read past.
    /// A source-less attribution has no canonical source, whatever the table
    /// describes it as.
    pub fn from_guideline_tables(sources: &str, hedges: &str) -> Result<ArticleLabels, LineError> {
        let pick = |table: &str, columns: &[&str]| -> Result<String, LineError> {
            let mut lines = table.lines();
            let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
            let at: Vec<usize> = columns
                .iter()
                .map(|c| {
                    header
                        .iter()
                        .position(|h| h == c)
                        .ok_or_else(|| LineError::new(1, format!("no column {c:?}")))
                })
                .collect::<Result<_, _>>()?;
            let mut out = format!("article\t{}\n", columns.join("\t"));
            for line in lines.filter(|l| !l.is_empty()) {
                let fields: Vec<&str> = line.split('\t').collect();
                let row: Vec<&str> = at
                    .iter()
                    .map(|&i| fields.get(i).copied().unwrap_or(""))
                    .collect();
                out.push_str(&format!("-\t{}\n", row.join("\t")));
            }
            Ok(out)
        };
        let source_columns: Vec<&str> = SOURCES_HEADER.split('\t').skip(1).collect();
        let mut sources = pick(sources, &source_columns)?;
        // The guideline describes a missing source in words; the labels hold none.
        sources = sources
            .lines()
            .map(|line| {
                let mut fields: Vec<&str> = line.split('\t').collect();
                if fields.get(3) == Some(&LabelledType::Implicit.name()) {
                    fields[4] = "-";
                }
                fields.join("\t") + "\n"
            })
            .collect();
        let hedge_columns: Vec<&str> = HEDGES_HEADER.split('\t').skip(1).collect();
        let labels = SplitLabels::parse(&sources, &pick(hedges, &hedge_columns)?)?;
        Ok(labels.article("-").cloned().unwrap_or_default())
    }
}

/// The labels of a split, by article name.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SplitLabels {
    articles: BTreeMap<String, ArticleLabels>,
}

impl SplitLabels {
    /// Reads `DIR/SPLIT.sources.tsv` and `DIR/SPLIT.hedges.tsv`.
    pub fn read(dir: &Path, split: &str) -> Result<SplitLabels, CorpusError> {
        let read = |kind: &str| {
            let path = dir.join(format!("{split}.{kind}.tsv"));
            std::fs::read_to_string(&path)
                .map(|text| (path.clone(), text))
                .map_err(|error| CorpusError::Io { path, error })
        };
        let (sources_path, sources) = read("sources")?;
        let (hedges_path, hedges) = read("hedges")?;
        let mut labels = SplitLabels::default();
        labels
            .parse_sources(&sources)
            .map_err(|e| e.in_file(&sources_path))?;
        labels
            .parse_hedges(&hedges)
            .map_err(|e| e.in_file(&hedges_path))?;
        Ok(labels)
    }

    /// Parses the two tables.
    pub fn parse(sources: &str, hedges: &str) -> Result<SplitLabels, LineError> {
        let mut labels = SplitLabels::default();
        labels.parse_sources(sources)?;
        labels.parse_hedges(hedges)?;
        Ok(labels)
    }

    /// The labels of one article; `None` when the tables have no row for it
    /// and it was not listed as labelled.
    pub fn article(&self, name: &str) -> Option<&ArticleLabels> {
        self.articles.get(name)
    }

    /// The names of the labelled articles, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.articles.keys().map(String::as_str)
    }

    /// How many articles are labelled.
    pub fn len(&self) -> usize {
        self.articles.len()
    }

    /// Whether no article is labelled.
    pub fn is_empty(&self) -> bool {
        self.articles.is_empty()
    }

    fn parse_sources(&mut self, table: &str) -> Result<(), LineError> {
        for (line, fields) in rows(table, SOURCES_HEADER)? {
            let [
                article,
                attribution,
                stance,
                source_type,
                canonical,
                direct_quote,
            ] = fields[..]
            else {
                unreachable!("rows() checks the column count")
            };
            let label = SourceLabel {
                attribution: attribution.to_owned(),
                stance: attest_doc::from_serde_name(stance)
                    .ok_or_else(|| LineError::new(line, format!("unknown stance {stance:?}")))?,
                source_type: source_type.parse().map_err(|_| {
                    LineError::new(line, format!("unknown source type {source_type:?}"))
                })?,
                canonical: (canonical != "-").then(|| canonical.to_owned()),
                direct_quote: direct_quote.parse().map_err(|_| {
                    LineError::new(
                        line,
                        format!("direct_quote must be yes, mixed or no, not {direct_quote:?}"),
                    )
                })?,
                line,
            };
            if label.canonical.as_deref().is_some_and(str::is_empty) {
                return Err(LineError::new(line, "empty canonical source"));
            }
            self.articles
                .entry(article.to_owned())
                .or_default()
                .sources
                .push(label);
        }
        Ok(())
    }

    fn parse_hedges(&mut self, table: &str) -> Result<(), LineError> {
        for (line, fields) in rows(table, HEDGES_HEADER)? {
            let [
                article,
                id,
                cue_start,
                cue_end,
                scope_start,
                scope_end,
                annotated_as,
                inside,
            ] = fields[..]
            else {
                unreachable!("rows() checks the column count")
            };
            let offset = |field: &str| {
                field
                    .parse::<usize>()
                    .map_err(|_| LineError::new(line, format!("{field:?} is not an offset")))
            };
            let range = |start, end| -> Result<(usize, usize), LineError> {
                let range = (offset(start)?, offset(end)?);
                if range.0 > range.1 {
                    return Err(LineError::new(
                        line,
                        "an offset range ends before it starts",
                    ));
                }
                Ok(range)
            };
            let id_or_none = |field: &str| (field != "-").then(|| field.to_owned());
            let hedge = HedgeLabel {
                id: id.to_owned(),
                cue: range(cue_start, cue_end)?,
                scope: range(scope_start, scope_end)?,
                annotated_as: id_or_none(annotated_as),
                inside_content_of: id_or_none(inside),
                line,
            };
            // An article whose hedge table has rows is labelled even when it
            // has no attribution; one with neither has no row at all.
            self.articles
                .entry(article.to_owned())
                .or_default()
                .hedges
                .push(hedge);
        }
        Ok(())
    }
}

/// The rows of a table after its header, each split into exactly as many
/// fields as the header has, with its 1-based line.
fn rows<'a>(table: &'a str, header: &str) -> Result<Vec<(usize, Vec<&'a str>)>, LineError> {
    let mut lines = table.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first == header => {}
        _ => return Err(LineError::new(1, format!("the header must be {header:?}"))),
    }
    let columns = header.split('\t').count();
    let mut out = Vec::new();
    for (index, line) in lines {
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != columns {
            return Err(LineError::new(
                index + 1,
                format!("{} fields where the header has {columns}", fields.len()),
            ));
        }
        out.push((index + 1, fields));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_ann;

    const SOURCES: &str =
        "article\tattribution_id\tstance\tsource_type\tcanonical_source\tdirect_quote\n";
    const HEDGES: &str = "article\thedge_id\tcue_start\tcue_end\tscope_start\tscope_end\tannotated_as\tinside_content_of\n";

    fn article(text: &str, ann: &str) -> CorpusArticle {
        CorpusArticle::unlisted(
            "story".into(),
            text.into(),
            parse_ann(ann, text).unwrap().attributions,
        )
    }

    #[test]
    fn malformed_rows_are_errors_naming_their_line() {
        let cases = [
            (
                format!("{SOURCES}story\tE1\tshouts\tnamed person\tAda Brook\tno\n"),
                2,
                "unknown stance",
            ),
            (
                format!("{SOURCES}story\tE1\tasserts\tperson\tAda Brook\tno\n"),
                2,
                "unknown source type",
            ),
            (
                format!("{SOURCES}\nstory\tE1\tasserts\tnamed person\tAda Brook\n"),
                3,
                "5 fields",
            ),
            (
                format!("{SOURCES}story\tE1\tasserts\tnamed person\t\tno\n"),
                2,
                "empty canonical",
            ),
            ("attribution_id\tstance\n".to_owned(), 1, "header"),
        ];
        for (table, line, message) in cases {
            let err = SplitLabels::parse(&table, HEDGES).unwrap_err();
            assert_eq!(err.line, line, "{table:?}");
            assert!(err.message.contains(message), "{err}");
        }
        let err = SplitLabels::parse(SOURCES, &format!("{HEDGES}story\tH1\t9\t3\t0\t9\t-\t-\n"))
            .unwrap_err();
        assert!(err.message.contains("ends before"), "{err}");
    }

    #[test]
    fn check_finds_every_disagreement_with_the_gold() {
        let text = "Zoë said “yes.” Reportedly it rained.";
        let ann = "T1\tSource 0 3\tZoë\nT2\tCue 4 8\tsaid\nT3\tContent 9 15\t“yes.”\n\
                   T4\tAttribution 4 8\tsaid\nE1\tAttribution:T4 Source:T1 Cue:T2 Content:T3\n\
                   T5\tCue 16 26\tReportedly\nT6\tContent 27 37\tit rained.\n\
                   T7\tAttribution-no-source 16 26\tReportedly\nE2\tAttribution-no-source:T7 Cue:T5 Content:T6\n";
        let article = article(text, ann);
        let good = SplitLabels::parse(
            &format!("{SOURCES}story\tE1\tasserts\tnamed person\tZoë\tyes\nstory\tE2\treports\tnone (implicit)\t-\tno\n"),
            &format!("{HEDGES}story\tH1\t16\t26\t16\t36\tE2\t-\n"),
        )
        .unwrap();
        let labels = good.article("story").unwrap();
        assert_eq!(labels.check(&article), Vec::<String>::new());
        let (cue, _) = labels.hedges[0]
            .spans(text, &OffsetIndex::new(text))
            .unwrap();
        assert_eq!(cue.get(text), Some("Reportedly"), "code points, not bytes");

        let bad = SplitLabels::parse(
            &format!(
                "{SOURCES}story\tE1\tasserts\tnone (implicit)\t-\tyes\nstory\tE1\tasserts\tnamed person\tZoë\tyes\n\
                 story\tE9\tasserts\tnamed person\tZoë\tno\n"
            ),
            &format!("{HEDGES}story\tH1\t16\t99\t16\t36\t-\t-\nstory\tH2\t16\t26\t16\t36\tE1\tE7\n"),
        )
        .unwrap();
        let problems = bad.article("story").unwrap().check(&article);
        let expected = [
            "line 2 (E1): type \"none (implicit)\", but the attribution has a source span",
            "line 3 (E1): labelled twice",
            "line 4 (E9): no such attribution",
            "attribution E2 has no label",
            "line 2 (H1): offsets outside the text",
            "line 3 (H2): annotated_as E1, which has a source",
            "line 3 (H2): inside_content_of E7 is not in the .ann file",
        ];
        for want in expected {
            assert!(
                problems.iter().any(|p| p.contains(want)),
                "{want:?} not in {problems:#?}"
            );
        }
        assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    }

    #[test]
    fn reads_the_guidelines_own_tables_past_their_text_columns() {
        let sources = "attribution_id\tspec_id\tstance\tsource_type\tsource_text\tcanonical_source\tdirect_quote\tcue_text\tcontent_text\tnote\n\
                       E1\tdock-denied\tdenies\tnamed organization\tThe port\tHarbor Port Authority\tno\tdenied\tthe report\t\n\
                       E2\trumor\treports\tnone (implicit)\t\t(unspecified reports)\tno\treportedly\tit closed\t\n";
        let hedges = "hedge_id\tcue_start\tcue_end\tcue_text\tscope_start\tscope_end\tscope_text\tannotated_as\tinside_content_of\tnote\n\
                      H1\t4\t14\treportedly\t0\t20\tIt reportedly closed\tE2\t-\t\n";
        let labels = ArticleLabels::from_guideline_tables(sources, hedges).unwrap();
        assert_eq!(labels.sources.len(), 2);
        assert_eq!(
            labels.sources[0].canonical.as_deref(),
            Some("Harbor Port Authority")
        );
        assert_eq!(
            labels.sources[1].canonical, None,
            "no source, whatever the table calls it"
        );
        assert_eq!(labels.hedges[0].cue, (4, 14));
        assert_eq!(labels.hedges[0].annotated_as.as_deref(), Some("E2"));
        let err =
            ArticleLabels::from_guideline_tables("attribution_id\tstance\n", hedges).unwrap_err();
        assert!(err.message.contains("no column"), "{err}");
    }

    #[test]
    fn every_guideline_type_name_reads_back() {
        for &kind in LabelledType::ALL {
            assert_eq!(kind.name().parse::<LabelledType>(), Ok(kind));
        }
    }
}
