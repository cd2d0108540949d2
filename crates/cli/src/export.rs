//! `attest export`: a ledger table or query as JSON Lines, CSV or Parquet, the
//! analysed tables as a Parquet dataset ([`crate::dataset`]), or the
//! corrected articles as brat gold.
//!
//! A file is written through [`crate::safe_write`]: never over the ledger, a
//! device or a directory, over an existing file only with `--force`, and a
//! failed or killed export leaves no truncated file under the final name.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufWriter, IsTerminal, Write};

use anyhow::Context;
use attest_doc::{Article, Attribution, AttributionId, Doc, Span, Stance};
use attest_ledger::{Cell, Column, GoldArticle, Ledger, RowSink};

use crate::dataset::DatasetOut;
use crate::ledger_flags::{ExportArgs, ExportFormat};
use crate::messages;
use crate::out_names::safe_name;
use crate::safe_write::{self, Overwrite};
use crate::table::write_csv_row;

pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<()> {
    if args.what == "dataset" {
        return dataset_export(args);
    }
    let Some(format) = args.format else {
        anyhow::bail!("give --format: jsonl, csv, parquet, or brat (for corrections)");
    };
    let mut ledger = Ledger::open_read_only(&args.db.db, &args.db.options())?;
    ledger.set_budget(args.budget())?;
    if format == ExportFormat::Brat {
        return gold_export(&ledger, args);
    }
    if args.out.as_os_str() == "-" {
        if format == ExportFormat::Parquet && io::stdout().is_terminal() {
            anyhow::bail!("Parquet is binary: redirect standard output, or give --out FILE");
        }
        // A person reads a terminal: text from the articles must not drive it.
        if io::stdout().is_terminal() {
            let mut out = attest_write::TerminalSafeWriter::new(BufWriter::new(io::stdout()));
            export_to(&ledger, args, format, &mut out)?;
            return out.flush().context("writing standard output");
        }
        let mut out = BufWriter::new(io::stdout());
        export_to(&ledger, args, format, &mut out)?;
        return out.flush().context("writing standard output");
    }
    let policy = Overwrite::protecting_ledger(args.force, args.db.db.path());
    let rows = safe_write::write_file(&args.out, &policy, |out| {
        export_to(&ledger, args, format, out)
    })?;
    messages::note(format_args!(
        "exported {rows} rows to {}",
        args.out.display()
    ));
    Ok(())
}

/// `attest export dataset`: the ledger's tables as a Parquet dataset in
/// `--out DIR`.
fn dataset_export(args: &ExportArgs) -> anyhow::Result<()> {
    if !matches!(args.format, None | Some(ExportFormat::Parquet)) {
        anyhow::bail!("a dataset is written as Parquet: leave out --format, or give parquet");
    }
    let mut ledger = Ledger::open_read_only(&args.db.db, &args.db.options())?;
    ledger.set_budget(args.budget())?;
    let dataset = DatasetOut::prepare(&args.out, args.force)?;
    let rows = dataset.write(&ledger)?;
    report_dataset(&rows, dataset.dir());
    Ok(())
}

/// Says how many rows each table of a dataset written to `out` has.
pub(crate) fn report_dataset(rows: &[(&str, usize)], out: &std::path::Path) {
    let tables: Vec<String> = rows
        .iter()
        .map(|(table, rows)| format!("{table} {rows}"))
        .collect();
    messages::note(format_args!(
        "wrote a Parquet dataset to {} (rows: {})",
        out.display(),
        tables.join(", ")
    ));
}

fn export_to(
    ledger: &Ledger,
    args: &ExportArgs,
    format: ExportFormat,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<usize> {
    match format {
        ExportFormat::Jsonl => Ok(ledger.export(
            &args.what,
            &mut JsonlSink {
                out,
                columns: Vec::new(),
            },
        )?),
        ExportFormat::Csv => Ok(ledger.export(&args.what, &mut CsvSink { out })?),
        ExportFormat::Parquet => parquet_export(ledger, &args.what, out),
        ExportFormat::Brat => unreachable!("run writes brat as files"),
    }
}

/// The reviewed articles as a PolNeAR split in `--out`: each article's text
/// and its attributions as its corrections leave them, with their kind and
/// stance, which `attest train --extra-gold` reads. A corrected article that
/// nobody marked reviewed is left out, and counted, since its other
/// attributions are attest's guesses, not an editor's.
fn gold_export(ledger: &Ledger, args: &ExportArgs) -> anyhow::Result<()> {
    if args.what != "corrections" {
        anyhow::bail!(
            "--format brat writes corrected articles: give `corrections`, not {:?}",
            args.what
        );
    }
    let policy = Overwrite::protecting_ledger(args.force, args.db.db.path());
    let (text_dir, ann_dir) = (args.out.join("text"), args.out.join("attributions"));
    for dir in [&text_dir, &ann_dir] {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut names = BTreeMap::new();
    let mut failed = 0;
    let count = ledger.reviewed_articles(&mut |article| {
        let name = safe_name(&article.id);
        if let Some(other) = names.insert(name.to_lowercase(), article.id.clone()) {
            messages::input_failed(format_args!(
                "{}: not written: its file name {name} is that of article {other}",
                article.id
            ));
            failed += 1;
            return Ok(());
        }
        let written = gold_doc(&article).and_then(|doc| {
            safe_write::write_file(&text_dir.join(format!("{name}.txt")), &policy, |out| {
                Ok(out.write_all(doc.text().as_bytes())?)
            })?;
            let ann = attest_write::brat_ann(&doc);
            safe_write::write_file(
                &ann_dir.join(format!("{name}_corrections.ann")),
                &policy,
                |out| Ok(out.write_all(ann.as_bytes())?),
            )
        });
        if let Err(error) = written {
            messages::input_failed(format_args!("{}: {error:#}", article.id));
            failed += 1;
        }
        Ok(())
    })?;
    messages::note(format_args!(
        "exported {} reviewed articles to {}",
        count.reviewed - failed,
        args.out.display()
    ));
    if count.unreviewed > 0 {
        messages::note(format_args!(
            "skipped {} corrected articles that no editor marked reviewed as stored \
             (the page's Mark reviewed, or POST /v1/articles/{{id}}/review)",
            count.unreviewed
        ));
    }
    if failed > 0 {
        anyhow::bail!("{failed} reviewed articles could not be written");
    }
    Ok(())
}

/// A document holding a corrected article's attributions and stances, for
/// the brat writer.
fn gold_doc(article: &GoldArticle) -> anyhow::Result<Doc> {
    let text = article.text.as_str();
    let spans = |ranges: &[[usize; 2]]| -> anyhow::Result<Vec<Span>> {
        ranges
            .iter()
            .map(|&[start, end]| Ok(Span::try_new_in(text, start, end)?))
            .collect()
    };
    let mut attributions = Vec::with_capacity(article.attributions.len());
    let mut stances = Vec::new();
    for (index, gold) in article.attributions.iter().enumerate() {
        attributions.push(Attribution {
            source: spans(&gold.source)?,
            cue: spans(&gold.cue)?,
            content: spans(&gold.content)?,
            kind: gold.kind,
            confidence: 1.0,
        });
        if let Some(label) = gold.stance {
            stances.push(Stance {
                attribution: AttributionId::new(index).context("too many attributions")?,
                label,
                evidence: Vec::new(),
            });
        }
    }
    let mut doc = Doc::new(Article::new(article.id.as_str(), text));
    doc.set_attributions(attributions)?;
    doc.set_stances(stances)?;
    Ok(doc)
}

#[cfg(feature = "parquet")]
fn parquet_export(
    ledger: &Ledger,
    what: &str,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<usize> {
    let mut sink = crate::parquet_sink::ParquetSink::new(out);
    let rows = ledger.export(what, &mut sink)?;
    sink.finish()?;
    Ok(rows)
}

#[cfg(not(feature = "parquet"))]
fn parquet_export(_: &Ledger, _: &str, _: &mut (dyn Write + Send)) -> anyhow::Result<usize> {
    anyhow::bail!("this attest was built without Parquet support (the `parquet` cargo feature)")
}

/// One JSON object per row, keys in column order.
struct JsonlSink<'a> {
    out: &'a mut dyn Write,
    columns: Vec<String>,
}

impl RowSink for JsonlSink<'_> {
    fn columns(&mut self, columns: &[Column]) -> io::Result<()> {
        self.columns = columns.iter().map(|c| c.name.clone()).collect();
        Ok(())
    }

    fn row(&mut self, cells: &[Cell]) -> io::Result<()> {
        self.out.write_all(b"{")?;
        for (i, (name, cell)) in self.columns.iter().zip(cells).enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *self.out, name)?;
            self.out.write_all(b":")?;
            serde_json::to_writer(&mut *self.out, cell)?;
        }
        self.out.write_all(b"}\n")
    }
}

/// CSV with a header line.
struct CsvSink<'a> {
    out: &'a mut dyn Write,
}

impl RowSink for CsvSink<'_> {
    fn columns(&mut self, columns: &[Column]) -> io::Result<()> {
        write_csv_row(self.out, columns.iter().map(|c| Cell::Text(c.name.clone())))
    }

    fn row(&mut self, cells: &[Cell]) -> io::Result<()> {
        write_csv_row(self.out, cells.iter().cloned())
    }
}
