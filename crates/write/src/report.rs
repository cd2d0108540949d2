//! A report for people at a terminal: what the analysis found, section by section.
//!
//! The header names the article (id, title, outlet, published, URL) and counts
//! its words, sentences and paragraphs; then comes one section per assigned
//! layer, so an assigned layer with no record shows "none found" while a layer
//! not looked for has no section. A document with segmentation only shows its
//! paragraphs and first sentences instead, so that the report is never empty.
//!
//! Offsets in brackets are Unicode code points (as in brat and Python), a span of
//! several fragments shown as `[12–20+31–40]`. Article text is shown on one line:
//! runs of whitespace become one space and other control characters `�`, so that
//! no article can move the cursor or change colours. Lines are fitted to
//! [`ReportConfig::width`] columns (counting wide characters as two), shortening
//! texts with `…`. Colour is ANSI SGR, only when asked for: whether the output
//! is a terminal and `NO_COLOR` are for the caller to decide.

use std::collections::BTreeMap;
use std::io::{self, Write};

use attest_doc::{Doc, Layer, SourceKind, SourcingSummary, Span, Stance, StanceLabel, serde_name};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::json::rounded_confidence;
use crate::offsets::Geometry;
use crate::terminal::terminal_safe;

/// How the report looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportConfig {
    /// Colour with ANSI escapes.
    pub color: bool,
    /// The width to fit lines to, in terminal columns; at least 40 is used.
    pub width: usize,
}

impl Default for ReportConfig {
    fn default() -> ReportConfig {
        ReportConfig {
            color: false,
            width: 100,
        }
    }
}

/// How many sentences and paragraphs the segmentation overview lists.
const OVERVIEW: usize = 5;
/// The narrowest width the report fits to.
const MIN_WIDTH: usize = 40;

/// Writes the report of `doc`.
pub fn write_report(doc: &Doc, config: &ReportConfig, out: &mut dyn Write) -> io::Result<()> {
    let report = Report {
        doc,
        geometry: Geometry::new(doc.text()),
        paint: Paint(config.color),
        width: config.width.max(MIN_WIDTH),
    };
    let mut text = String::new();
    report.header(&mut text);
    let analysed = [
        Layer::Attributions,
        Layer::Sources,
        Layer::Hedges,
        Layer::Entities,
        Layer::Quantities,
        Layer::Times,
        Layer::Quotations,
    ];
    if doc.has(Layer::Attributions) {
        report.attributions(&mut text);
    }
    if doc.has(Layer::Sources) {
        report.sources(&mut text);
        report.statements(&mut text);
    }
    if let Some(summary) = SourcingSummary::of(doc) {
        report.sourcing(&mut text, &summary);
    }
    if doc.has(Layer::Hedges) {
        report.hedges(&mut text);
    }
    if doc.has(Layer::Quotations) {
        report.quotations(&mut text);
    }
    if doc.has(Layer::Entities) {
        report.entities(&mut text);
    }
    if doc.has(Layer::Quantities) {
        report.quantities(&mut text);
    }
    if doc.has(Layer::Times) {
        report.times(&mut text);
    }
    if !analysed.iter().any(|layer| doc.has(*layer)) {
        report.segmentation(&mut text);
    }
    report.diagnostics(&mut text);
    out.write_all(text.as_bytes())
}

/// ANSI colouring, or none.
struct Paint(bool);

impl Paint {
    fn sgr(&self, code: &str, text: &str) -> String {
        if self.0 && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn bold(&self, text: &str) -> String {
        self.sgr("1", text)
    }
    fn dim(&self, text: &str) -> String {
        self.sgr("2", text)
    }
    fn source(&self, text: &str) -> String {
        self.sgr("1;36", text)
    }
    fn cue(&self, text: &str) -> String {
        self.sgr("33", text)
    }
    fn stance(&self, label: StanceLabel, text: &str) -> String {
        match label {
            StanceLabel::Denies | StanceLabel::Declines => self.sgr("31", text),
            StanceLabel::Confirms => self.sgr("32", text),
            // Listed, not caught by `_`, so that a new stance gets its colour chosen.
            StanceLabel::Asserts
            | StanceLabel::Claims
            | StanceLabel::Reports
            | StanceLabel::Believes
            | StanceLabel::Intends => self.sgr("35", text),
        }
    }
}

/// A table column: its header, whether numbers align right, and whether it
/// gives up width when the row is too long.
struct Column {
    header: &'static str,
    right: bool,
    flexible: bool,
}

const fn column(header: &'static str) -> Column {
    Column {
        header,
        right: false,
        flexible: false,
    }
}

struct Report<'a> {
    doc: &'a Doc,
    geometry: Geometry<'a>,
    paint: Paint,
    width: usize,
}

impl Report<'_> {
    /// The text of spans on one line, fragments joined by ` … `.
    fn shown(&self, spans: &[Span]) -> String {
        let parts: Vec<String> = spans
            .iter()
            .map(|s| one_line(self.geometry.place(*s).text))
            .collect();
        parts.join(" … ")
    }

    /// `12–20+31–40`: the code-point ranges of the fragments.
    fn offsets(&self, spans: &[Span]) -> String {
        let parts: Vec<String> = spans
            .iter()
            .map(|span| {
                let placed = self.geometry.place(*span);
                format!("{}–{}", placed.cp_start, placed.cp_end)
            })
            .collect();
        parts.join("+")
    }

    fn section(&self, out: &mut String, title: &str, count: usize) {
        out.push('\n');
        let heading = format!("{title} ({count})");
        out.push_str(&self.paint.bold(&heading));
        if count == 0 {
            out.push_str(&self.paint.dim("  none found"));
        }
        out.push('\n');
    }

    fn header(&self, out: &mut String) {
        let article = self.doc.article();
        let id = format!("━━ {} ", one_line(&article.id));
        let id = clip(&id, self.width);
        let rule = "━".repeat(self.width.saturating_sub(id.width()));
        out.push_str(&self.paint.bold(&format!("{id}{rule}")));
        out.push('\n');
        if let Some(title) = &article.title {
            out.push_str(&self.paint.bold(&clip(&one_line(title), self.width)));
            out.push('\n');
        }
        let mut about = Vec::new();
        if let Some(outlet) = &article.outlet {
            about.push(one_line(outlet));
        }
        if let Some(published) = article.published {
            about.push(format!("published {published}"));
        }
        if let Some(language) = &article.language {
            about.push(one_line(language));
        }
        if !about.is_empty() {
            out.push_str(&clip(&about.join(" · "), self.width));
            out.push('\n');
        }
        if let Some(url) = &article.url {
            out.push_str(&self.paint.dim(&clip(&one_line(url), self.width)));
            out.push('\n');
        }
        let doc = self.doc;
        let words = if doc.has(Layer::Tokens) {
            doc.word_count()
        } else {
            doc.text().split_whitespace().count()
        };
        let mut counts = vec![plural(words, "word")];
        if doc.has(Layer::Sentences) {
            counts.push(plural(doc.sentences().len(), "sentence"));
        }
        if doc.has(Layer::Paragraphs) {
            counts.push(plural(doc.paragraphs().len(), "paragraph"));
        }
        out.push_str(&counts.join(" · "));
        out.push('\n');
        let mut layers: Vec<String> = doc.layers().iter().map(|l| l.name().to_string()).collect();
        if layers.is_empty() {
            layers.push("none".to_string());
        }
        for line in wrap("layers: ", &layers, self.width) {
            out.push_str(&self.paint.dim(&line));
            out.push('\n');
        }
    }

    fn attributions(&self, out: &mut String) {
        let doc = self.doc;
        self.section(out, "Attributions", doc.attributions().len());
        let mut stances: BTreeMap<usize, &Stance> = BTreeMap::new();
        for stance in doc.stances() {
            stances.entry(stance.attribution.index()).or_insert(stance);
        }
        let number_width = doc.attributions().len().to_string().len();
        let indent = 2 + number_width + 2;
        for (index, attribution) in doc.attributions().iter().enumerate() {
            let room = self.width.saturating_sub(indent);
            let source = if attribution.source.is_empty() {
                self.paint.dim("(no source)")
            } else {
                self.paint
                    .source(&clip(&self.shown(&attribution.source), room / 3))
            };
            let cue = clip(&self.shown(&attribution.cue), room / 4);
            let source_width = if attribution.source.is_empty() {
                "(no source)".width()
            } else {
                clip(&self.shown(&attribution.source), room / 3).width()
            };
            let content = quoted(&self.shown(&attribution.content));
            let used = source_width + cue.width() + " → ".width() * 2;
            let content = clip(&content, room.saturating_sub(used).max(8));
            out.push_str(&format!(
                "  {:>number_width$}  {source} → {} → {content}\n",
                index + 1,
                self.paint.cue(&cue),
            ));

            let mut about = vec![serde_name(&attribution.kind)];
            if let Some(confidence) = rounded_confidence(attribution.confidence) {
                about.push(format!("confidence {confidence:.2}"));
            }
            let stance = stances
                .get(&index)
                .map(|stance| (stance.label, serde_name(&stance.label)));
            let mut places = Vec::new();
            for (role, spans) in [
                ("source", &attribution.source),
                ("cue", &attribution.cue),
                ("content", &attribution.content),
            ] {
                if !spans.is_empty() {
                    places.push(format!("{role} {}", self.offsets(spans)));
                }
            }
            let about = about.join(" · ");
            // The stance has a colour of its own, so widths are measured on the
            // plain line and the painted one is written.
            let (plain, painted) = match &stance {
                Some((label, name)) => (
                    format!("{about} · stance {name}"),
                    format!(
                        "{}{}",
                        self.paint.dim(&format!("{about} · stance ")),
                        self.paint.stance(*label, name)
                    ),
                ),
                None => (about.clone(), self.paint.dim(&about)),
            };
            let places = clip(&format!("[{}]", places.join(", ")), room);
            if plain.width() + 2 + places.width() <= room {
                out.push_str(&format!(
                    "{:indent$}{painted}  {}\n",
                    "",
                    self.paint.dim(&places)
                ));
            } else {
                out.push_str(&format!("{:indent$}{painted}\n", ""));
                out.push_str(&format!("{:indent$}{}\n", "", self.paint.dim(&places)));
            }
        }
    }

    fn sources(&self, out: &mut String) {
        let sources = self.doc.sources();
        self.section(out, "Sources", sources.len());
        let rows = sources
            .iter()
            .map(|source| {
                vec![
                    one_line(&source.name),
                    serde_name(&source.kind),
                    source.attributions.len().to_string(),
                    source.mentions.len().to_string(),
                    if source.kind == SourceKind::Unnamed {
                        "yes"
                    } else {
                        "no"
                    }
                    .to_string(),
                ]
            })
            .collect();
        let columns = [
            Column {
                flexible: true,
                ..column("name")
            },
            column("type"),
            Column {
                right: true,
                ..column("statements")
            },
            Column {
                right: true,
                ..column("mentions")
            },
            column("anonymous"),
        ];
        self.table(out, &columns, rows);
    }

    /// Each source with what it said: the attribution's number in the
    /// Attributions section, its stance, cue and content.
    fn statements(&self, out: &mut String) {
        let doc = self.doc;
        let sources = doc.sources();
        if sources.is_empty() {
            return;
        }
        out.push('\n');
        out.push_str(&self.paint.bold("Statements by source"));
        out.push('\n');
        let mut stances: BTreeMap<usize, StanceLabel> = BTreeMap::new();
        for stance in doc.stances() {
            stances
                .entry(stance.attribution.index())
                .or_insert(stance.label);
        }
        let number_width = doc.attributions().len().to_string().len() + 1;
        for source in sources {
            let heading = format!(
                "{} · {} · {}",
                one_line(&source.name),
                serde_name(&source.kind),
                plural(source.attributions.len(), "statement")
            );
            out.push_str("  ");
            out.push_str(
                &self
                    .paint
                    .source(&clip(&heading, self.width.saturating_sub(2))),
            );
            out.push('\n');
            for id in &source.attributions {
                let Some(attribution) = doc.attributions().get(id.index()) else {
                    continue;
                };
                let number = format!("#{}", id.index() + 1);
                let (stance_plain, stance_painted) = match stances.get(&id.index()) {
                    Some(label) => {
                        let name = format!("{:<8}", serde_name(label));
                        (name.clone(), self.paint.stance(*label, &name))
                    }
                    None => (" ".repeat(8), " ".repeat(8)),
                };
                let lead = format!("    {number:>number_width$}  {stance_plain}  ");
                let room = self.width.saturating_sub(lead.width());
                let cue = clip(&self.shown(&attribution.cue), room / 3);
                let content = quoted(&self.shown(&attribution.content));
                let content = clip(&content, room.saturating_sub(cue.width() + 3).max(8));
                out.push_str(&format!(
                    "    {number:>number_width$}  {stance_painted}  {} → {content}\n",
                    self.paint.cue(&cue)
                ));
            }
        }
    }

    /// The counts a reader of the sourcing wants first: source types, unnamed
    /// and direct-quote shares, stances, hedges, what the writer hedged.
    fn sourcing(&self, out: &mut String, summary: &SourcingSummary) {
        out.push('\n');
        out.push_str(&self.paint.bold("Sourcing"));
        out.push('\n');
        let percent = |share: f64| format!("{:.0}%", share * 100.0);
        let mut lines = vec![format!(
            "  {} · {} · {}",
            plural(summary.attributions, "attribution"),
            plural(summary.sources, "source"),
            plural(summary.hedges, "unattributed hedge")
        )];
        let listed = |counts: Vec<(String, usize)>| -> Vec<String> {
            counts
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(name, n)| format!("{n} {name}"))
                .collect()
        };
        let mut rows = vec![
            (
                "  sources by type: ",
                listed(
                    summary
                        .sources_by_kind
                        .iter()
                        .map(|(kind, n)| (serde_name(&kind), n))
                        .collect(),
                ),
            ),
            (
                "  attributions by source type: ",
                listed(
                    summary
                        .attributions_by_source_kind
                        .iter()
                        .map(|(kind, n)| (serde_name(&kind), n))
                        .chain([("without source".to_string(), summary.without_source)])
                        .collect(),
                ),
            ),
            (
                "  stances: ",
                listed(
                    summary
                        .stances
                        .iter()
                        .map(|(stance, n)| (serde_name(&stance), n))
                        .collect(),
                ),
            ),
            (
                "  quotations: ",
                listed(
                    summary
                        .quotations
                        .iter()
                        .flat_map(|counts| counts.iter())
                        .map(|(status, n)| (serde_name(&status), n))
                        .collect(),
                ),
            ),
        ];
        rows.retain(|(_, items)| !items.is_empty());
        for (lead, items) in rows {
            lines.extend(wrap(lead, &items, self.width));
        }
        lines.push(format!(
            "  unnamed or anonymous sources: {} of attributions · direct quotes: {} ({})",
            percent(summary.unnamed_share),
            summary.direct_quotes,
            percent(summary.direct_quote_share)
        ));
        if let Some(certainty) = &summary.certainty {
            lines.push(format!(
                "  hedged by the writer: {} of {} · {} of {} in the writer's own voice",
                certainty.hedged_attributions,
                plural(summary.attributions, "attribution"),
                certainty.hedged_sentences,
                plural(certainty.writers_voice_sentences, "sentence"),
            ));
        }
        for line in lines {
            out.push_str(&clip(&line, self.width));
            out.push('\n');
        }
    }

    fn hedges(&self, out: &mut String) {
        let hedges = self.doc.hedges();
        self.section(out, "Hedges", hedges.len());
        let rows = hedges
            .iter()
            .map(|hedge| {
                vec![
                    self.shown(&[hedge.cue]),
                    self.shown(&[hedge.scope]),
                    format!(
                        "[{}, {}]",
                        self.offsets(&[hedge.cue]),
                        self.offsets(&[hedge.scope])
                    ),
                ]
            })
            .collect();
        let columns = [
            column("cue"),
            Column {
                flexible: true,
                ..column("scope")
            },
            column("at"),
        ];
        self.table(out, &columns, rows);
    }

    /// Every quoted passage and whose words it is, or why no one's.
    fn quotations(&self, out: &mut String) {
        let quotations = self.doc.quotations();
        self.section(out, "Quotations", quotations.len());
        let rows = quotations
            .iter()
            .map(|quotation| {
                let speaker = quotation
                    .source
                    .and_then(|s| self.doc.sources().get(s.index()))
                    .map_or_else(String::new, |s| one_line(&s.name));
                vec![
                    self.shown(&[quotation.span]),
                    serde_name(&quotation.status),
                    speaker,
                    format!("[{}]", self.offsets(&[quotation.span])),
                ]
            })
            .collect();
        let columns = [
            Column {
                flexible: true,
                ..column("quotation")
            },
            column("status"),
            column("speaker"),
            column("at"),
        ];
        self.table(out, &columns, rows);
    }

    fn entities(&self, out: &mut String) {
        let entities = self.doc.entities();
        self.section(out, "Entities", entities.len());
        let rows = entities
            .iter()
            .map(|entity| {
                vec![
                    self.shown(&[entity.span]),
                    serde_name(&entity.label),
                    entity.cluster.index().to_string(),
                    format!("[{}]", self.offsets(&[entity.span])),
                ]
            })
            .collect();
        let columns = [
            Column {
                flexible: true,
                ..column("mention")
            },
            column("label"),
            Column {
                right: true,
                ..column("cluster")
            },
            column("at"),
        ];
        self.table(out, &columns, rows);
    }

    fn quantities(&self, out: &mut String) {
        let quantities = self.doc.quantities();
        self.section(out, "Quantities", quantities.len());
        let rows = quantities
            .iter()
            .map(|quantity| {
                vec![
                    self.shown(&[quantity.span]),
                    value_range(quantity.low, quantity.high),
                    one_line(&quantity.unit),
                    format!("[{}]", self.offsets(&[quantity.span])),
                ]
            })
            .collect();
        let columns = [
            Column {
                flexible: true,
                ..column("text")
            },
            Column {
                right: true,
                ..column("value")
            },
            column("unit"),
            column("at"),
        ];
        self.table(out, &columns, rows);
    }

    fn times(&self, out: &mut String) {
        let times = self.doc.times();
        self.section(out, "Times", times.len());
        let rows = times
            .iter()
            .map(|time| {
                let resolved = match (&time.value, &time.unresolved) {
                    (Some(value), _) => one_line(value),
                    (None, Some(reason)) => format!("unresolved: {}", one_line(reason)),
                    (None, None) => "unresolved".to_string(),
                };
                vec![
                    self.shown(&[time.span]),
                    resolved,
                    time.granularity.map(|g| serde_name(&g)).unwrap_or_default(),
                    format!("[{}]", self.offsets(&[time.span])),
                ]
            })
            .collect();
        let columns = [
            column("text"),
            Column {
                flexible: true,
                ..column("resolved")
            },
            column("granularity"),
            column("at"),
        ];
        self.table(out, &columns, rows);
    }

    fn segmentation(&self, out: &mut String) {
        let doc = self.doc;
        if doc.has(Layer::Paragraphs) {
            let paragraphs = doc.paragraphs();
            self.section(out, "Paragraphs", paragraphs.len());
            let rows = paragraphs
                .iter()
                .take(OVERVIEW)
                .enumerate()
                .map(|(index, paragraph)| {
                    let sentences = paragraph
                        .sentences
                        .end
                        .index()
                        .saturating_sub(paragraph.sentences.start.index());
                    vec![
                        (index + 1).to_string(),
                        serde_name(&paragraph.role),
                        sentences.to_string(),
                        self.shown(&[paragraph.span]),
                    ]
                })
                .collect();
            let columns = [
                Column {
                    right: true,
                    ..column("#")
                },
                column("role"),
                Column {
                    right: true,
                    ..column("sentences")
                },
                Column {
                    flexible: true,
                    ..column("text")
                },
            ];
            self.table(out, &columns, rows);
            self.more(out, paragraphs.len());
        }
        if doc.has(Layer::Sentences) {
            let sentences = doc.sentences();
            self.section(out, "Sentences", sentences.len());
            let number_width = sentences.len().min(OVERVIEW).to_string().len();
            for (index, sentence) in sentences.iter().take(OVERVIEW).enumerate() {
                let place = format!("[{}]", self.offsets(&[sentence.span]));
                let room = self
                    .width
                    .saturating_sub(2 + number_width + 2 + 2 + place.width());
                let text = clip(&self.shown(&[sentence.span]), room);
                out.push_str(&format!(
                    "  {:>number_width$}  {text}  {}\n",
                    index + 1,
                    self.paint.dim(&place)
                ));
            }
            self.more(out, sentences.len());
        }
    }

    fn more(&self, out: &mut String, total: usize) {
        if total > OVERVIEW {
            let more = format!("  … {} more", total - OVERVIEW);
            out.push_str(&self.paint.dim(&more));
            out.push('\n');
        }
    }

    fn diagnostics(&self, out: &mut String) {
        let diagnostics = self.doc.diagnostics();
        if diagnostics.is_empty() {
            return;
        }
        self.section(out, "Diagnostics", diagnostics.len());
        let rows = diagnostics
            .iter()
            .map(|d| vec![one_line(d.origin), one_line(&d.message)])
            .collect();
        let columns = [
            column("origin"),
            Column {
                flexible: true,
                ..column("message")
            },
        ];
        self.table(out, &columns, rows);
    }

    /// Writes rows under a header, columns two spaces apart, the flexible
    /// column shortened until the widest row fits the width.
    fn table(&self, out: &mut String, columns: &[Column], rows: Vec<Vec<String>>) {
        if rows.is_empty() {
            return;
        }
        let mut widths: Vec<usize> = columns.iter().map(|c| c.header.width()).collect();
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.width());
            }
        }
        let total = 2 + widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        if total > self.width
            && let Some(flexible) = columns.iter().position(|c| c.flexible)
            && let Some(width) = widths.get_mut(flexible)
        {
            let excess = total - self.width;
            *width = width
                .saturating_sub(excess)
                .max(columns[flexible].header.width())
                .max(8);
        }
        let line = |cells: Vec<String>| {
            let last = cells.len().saturating_sub(1);
            let mut text = String::from("  ");
            for (i, ((cell, width), column)) in cells.iter().zip(&widths).zip(columns).enumerate() {
                let cell = clip(cell, *width);
                let gap = width.saturating_sub(cell.width());
                if i > 0 {
                    text.push_str("  ");
                }
                if column.right {
                    text.push_str(&" ".repeat(gap));
                    text.push_str(&cell);
                } else {
                    text.push_str(&cell);
                    if i < last {
                        text.push_str(&" ".repeat(gap));
                    }
                }
            }
            text.trim_end().to_string()
        };
        let header = line(columns.iter().map(|c| c.header.to_string()).collect());
        out.push_str(&self.paint.dim(&header));
        out.push('\n');
        for row in rows {
            out.push_str(&line(row));
            out.push('\n');
        }
    }
}

/// `items` after `lead`, comma-separated, broken into lines of at most `width`
/// columns; continuation lines are indented under the first item.
fn wrap(lead: &str, items: &[String], width: usize) -> Vec<String> {
    let indent = " ".repeat(lead.width());
    let mut lines = Vec::new();
    let mut line = lead.to_string();
    let last = items.len().saturating_sub(1);
    for (i, item) in items.iter().enumerate() {
        let item = if i < last {
            format!("{item},")
        } else {
            item.clone()
        };
        let fresh = line.len() == lead.len();
        if !fresh && line.width() + 1 + item.width() > width {
            lines.push(line);
            line = indent.clone();
        } else if !fresh {
            line.push(' ');
        }
        line.push_str(&clip(&item, width.saturating_sub(indent.len())));
    }
    lines.push(line);
    lines
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The text on one line: whitespace runs as one space, other control
/// characters (escape sequences among them) as visible escapes
/// ([`terminal_safe`]).
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !line.is_empty() {
            line.push(' ');
        }
        space = false;
        line.push(c);
    }
    terminal_safe(&line, false).into_owned()
}

/// The text cut to `max` columns, with `…` in place of what is cut.
fn clip(text: &str, max: usize) -> String {
    if text.width() <= max {
        return text.to_string();
    }
    let mut clipped = String::new();
    let mut width = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if width + w + 1 > max {
            break;
        }
        width += w;
        clipped.push(c);
    }
    let trimmed = clipped.trim_end().len();
    clipped.truncate(trimmed);
    if max > 0 && !clipped.ends_with('…') {
        clipped.push('…');
    }
    clipped
}

/// Content in quotation marks, unless it opens with one of its own. A cue
/// the stage found no content for says so, rather than showing empty marks.
fn quoted(content: &str) -> String {
    if content.is_empty() {
        "(no content)".to_string()
    } else if content.starts_with(['“', '"', '‘', '\'', '«']) {
        content.to_string()
    } else {
        format!("“{content}”")
    }
}

/// `4,200,000`, `10–20`, `≥ 300`, `≤ 5`: the values a quantity allows.
fn value_range(low: Option<f64>, high: Option<f64>) -> String {
    let low = low.filter(|v| v.is_finite());
    let high = high.filter(|v| v.is_finite());
    match (low, high) {
        (Some(low), Some(high)) if low == high => number(low),
        (Some(low), Some(high)) => format!("{}–{}", number(low), number(high)),
        (Some(low), None) => format!("≥ {}", number(low)),
        (None, Some(high)) => format!("≤ {}", number(high)),
        (None, None) => "?".to_string(),
    }
}

/// A number with thousands separators when it is whole.
fn number(value: f64) -> String {
    if value.fract() != 0.0 || value.abs() >= 1e15 {
        return value.to_string();
    }
    let digits = format!("{}", value.abs() as u64);
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if value < 0.0 {
        grouped.insert(0, '-');
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{full_doc, segmented_doc};
    use attest_doc::{Article, Diagnostic};

    fn report(doc: &Doc, config: &ReportConfig) -> String {
        let mut out = Vec::new();
        write_report(doc, config, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn assert_fits(report: &str, width: usize) {
        for line in report.lines() {
            assert!(line.width() <= width, "{} columns: {line:?}", line.width());
            assert_eq!(line, line.trim_end(), "no trailing spaces");
        }
    }

    #[test]
    fn segmentation_only() {
        let text = report(&segmented_doc(), &ReportConfig::default());
        assert_fits(&text, 100);
        assert!(text.contains("Sentences (10)"));
        assert!(!text.contains("Attributions"), "not looked for");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn every_layer() {
        let text = report(&full_doc(), &ReportConfig::default());
        assert_fits(&text, 100);
        assert!(
            !text.contains("Sentences ("),
            "the overview is only for bare documents"
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn every_layer_narrow() {
        let text = report(
            &full_doc(),
            &ReportConfig {
                color: false,
                width: 60,
            },
        );
        assert_fits(&text, 60);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn every_layer_coloured() {
        let config = ReportConfig {
            color: true,
            width: 100,
        };
        let text = report(&full_doc(), &config);
        assert!(text.contains("\x1b[1;36mMayor Lena Ortiz\x1b[0m"));
        let plain = report(&full_doc(), &ReportConfig::default());
        assert_eq!(
            strip_ansi(&text),
            plain,
            "colour adds escapes and nothing else"
        );
        insta::assert_snapshot!(text);
    }

    fn strip_ansi(text: &str) -> String {
        let mut plain = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        plain
    }

    #[test]
    fn a_speakers_name_cannot_send_escapes() {
        use attest_doc::{Quotation, QuoteStatus, Source, SourceId};
        let text = "“We are done,” said Mayor Jo \u{1b}[2JQuill.";
        let mut doc = Doc::new(Article::new("speaker", text));
        doc.set_attributions(Vec::new()).unwrap();
        let name_start = text.find("Jo").unwrap();
        let name = Span::must(name_start, text.find('.').unwrap());
        doc.set_sources(vec![Source {
            name: name.get(text).unwrap().to_string(),
            kind: SourceKind::Person,
            mentions: vec![name],
            descriptors: Vec::new(),
            gender: None,
            attributions: Vec::new(),
            merges: Vec::new(),
        }])
        .unwrap();
        doc.set_quotations(vec![Quotation {
            span: Span::must(3, text.find('”').unwrap()),
            status: QuoteStatus::Floating,
            attribution: None,
            source: SourceId::new(0),
        }])
        .unwrap();
        let report = report(&doc, &ReportConfig::default());
        assert!(report.contains("Quotations (1)"), "{report}");
        assert!(!report.contains('\u{1b}'), "{report}");
        assert!(report.contains("Jo \\u{1b}[2JQuill"), "{report}");
    }

    #[test]
    fn assigned_but_empty_layers_say_none_found() {
        let mut doc = Doc::new(Article::new("bare", "Nothing\u{1b}[31m here."));
        doc.set_attributions(Vec::new()).unwrap();
        doc.push_diagnostic(Diagnostic {
            origin: "test",
            message: "a line\nbreak".to_string(),
        });
        let text = report(&doc, &ReportConfig::default());
        assert!(text.contains("Attributions (0)  none found"), "{text}");
        assert!(text.contains("a line break"));
        assert!(!text.contains('\u{1b}'), "article text cannot send escapes");
        assert!(text.contains("2 words"));
    }

    #[test]
    fn content_is_quoted_once_and_missing_content_says_so() {
        assert_eq!(quoted("the bridge was safe"), "“the bridge was safe”");
        assert_eq!(quoted("“Safe,” she said"), "“Safe,” she said");
        assert_eq!(quoted(""), "(no content)");
    }

    #[test]
    fn clips_by_columns_with_an_ellipsis() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("日本語テキスト", 7), "日本語…");
        assert_eq!(clip("ab cd", 4), "ab…");
        assert_eq!(one_line("  a\r\n\tb\u{7}c\u{202e} "), "a b\\u{7}c\\u{202e}");
    }

    #[test]
    fn wraps_lists_under_their_lead() {
        let items: Vec<String> = ["tokens", "sentences", "paragraphs"]
            .map(String::from)
            .into();
        assert_eq!(
            wrap("layers: ", &items, 30),
            ["layers: tokens, sentences,", "        paragraphs"]
        );
        assert_eq!(
            wrap("layers: ", &items, 100),
            ["layers: tokens, sentences, paragraphs"]
        );
    }

    #[test]
    fn formats_value_ranges() {
        assert_eq!(
            value_range(Some(4_200_000.0), Some(4_200_000.0)),
            "4,200,000"
        );
        assert_eq!(value_range(Some(10.0), Some(20.5)), "10–20.5");
        assert_eq!(value_range(Some(300.0), None), "≥ 300");
        assert_eq!(value_range(None, Some(-1500.0)), "≤ -1,500");
        assert_eq!(value_range(Some(f64::NAN), None), "?");
    }
}
