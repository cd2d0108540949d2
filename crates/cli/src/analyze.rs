//! `attest analyze`: read, analyse in parallel, write in input order.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use attest_doc::Doc;
use attest_ledger::{ArticleKey, Ledger, OnConflict, Stored};
use attest_pipeline::{Pipeline, ReadArticle};
use attest_read::{Input, Origin, ReadConfig, ReadError, ReadItem};
use attest_write::{JsonConfig, ReportConfig};
use rayon::prelude::*;

use crate::dataset::DatasetOut;
use crate::flags::{AnalyzeArgs, ColorChoice, Errors, Format};
use crate::ids::SeenIds;
use crate::out_names::{OutNames, relative_stem};
use crate::safe_write::{self, Overwrite};
use crate::{messages, sample};

/// How many articles are read ahead and analysed at once, at most: enough to
/// keep every core busy. The bytes in flight bound a chunk too ([`InFlight`]).
const CHUNK: usize = 64;

/// How many articles of a chunk one core analyses stage by stage (see
/// `Pipeline::analyze_batch`), at most: enough for each model to stay in cache
/// from one article to the next, few enough that the cores share a chunk
/// evenly.
const BATCH: usize = 16;

/// How much of the input is read ahead and analysed at once, so that memory
/// follows the bytes in flight, not the number of articles: a chunk holds up
/// to [`CHUNK`] articles and stops once it holds `bytes` of article text. An
/// article larger than that is a chunk alone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InFlight {
    pub(crate) bytes: usize,
}

impl InFlight {
    /// One `n`th of these bytes (at least one), for a command that holds `n`
    /// chunks at once.
    pub(crate) fn share(self, n: usize) -> InFlight {
        InFlight {
            bytes: (self.bytes / n.max(1)).max(1),
        }
    }

    /// The next chunk of `items`, `size` giving each one's bytes; empty at the
    /// end.
    pub(crate) fn next_chunk<T>(
        &self,
        items: &mut impl Iterator<Item = T>,
        size: impl Fn(&T) -> usize,
    ) -> Vec<T> {
        let (mut chunk, mut bytes) = (Vec::new(), 0usize);
        while chunk.len() < CHUNK && bytes < self.bytes {
            let Some(item) = items.next() else {
                break;
            };
            bytes = bytes.saturating_add(size(&item));
            chunk.push(item);
        }
        chunk
    }
}

pub(crate) fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let limits = args.limits.limits();
    let pipeline = args.model.pipeline(&limits)?;
    let mut writer = Writer::new(args)?;
    if args.inputs.is_empty() {
        let doc = pipeline.analyze(sample::article());
        writer.write(&doc, &Place::default())?;
        return writer.finish();
    }
    let inputs = args.inputs.iter().map(Input::from_arg).collect();
    let mut items = attest_read::read_inputs(inputs, ReadConfig { limits })
        .blank_ids(args.ids.blank_ids())
        .format(args.input_format.format());
    let inline = args.errors == Errors::Inline;
    let mut seen = SeenIds::default();
    let in_flight = args.limits.in_flight(args.model.kind());
    loop {
        let chunk: Vec<Result<ReadItem, ReadError>> = in_flight.next_chunk(&mut items, |item| {
            item.as_ref().map_or(0, |item| item.article.text.len())
        });
        if chunk.is_empty() {
            return writer.finish();
        }
        let (chunk, places): (Vec<_>, Vec<_>) = chunk
            .into_iter()
            .map(|item| match item {
                Ok(item) => {
                    let place = Place {
                        origin: item.origin,
                        id_given: item.id_given,
                    };
                    (Ok((item.article, item.warnings, item.budget)), place)
                }
                Err(err) => (Err(err), Place::default()),
            })
            .unzip();
        for (doc, place) in analyze_chunk(&pipeline, chunk).into_iter().zip(places) {
            match doc {
                Ok(doc) => {
                    // The document is written all the same, but an id given
                    // twice to different articles fails the run, as in ingest.
                    if place.id_given
                        && !inline
                        && let Err(earlier) = seen.note(doc.article(), &place.origin.place())
                    {
                        messages::input_failed(earlier);
                    }
                    writer.write(&doc, &place)?;
                }
                Err(err) if inline => writer.write_error(&err)?,
                Err(err) => messages::input_failed(err),
            }
        }
    }
}

/// Where an article was read, for naming its output files.
#[derive(Debug, Default)]
struct Place {
    origin: Origin,
    id_given: bool,
}

/// Analyses a chunk of articles on every core, each core taking batches of at
/// most [`BATCH`] stage by stage, and at least one batch per core when the
/// chunk has the articles; the documents come back in input order, and an
/// item that is already an error keeps its place.
pub(crate) fn analyze_chunk<E: Send>(
    pipeline: &Pipeline,
    chunk: Vec<Result<ReadArticle, E>>,
) -> Vec<Result<Doc, E>> {
    let batch = chunk
        .len()
        .div_ceil(rayon::current_num_threads())
        .clamp(1, BATCH);
    let mut chunk = chunk.into_iter();
    let batches: Vec<Vec<_>> =
        std::iter::from_fn(|| Some(chunk.by_ref().take(batch).collect::<Vec<_>>()))
            .take_while(|batch| !batch.is_empty())
            .collect();
    let docs: Vec<Vec<Result<Doc, E>>> = batches
        .into_par_iter()
        .map(|batch| pipeline.analyze_batch(batch))
        .collect();
    docs.into_iter().flatten().collect()
}

/// A record that could not be read, as `--errors inline` writes it; the keys
/// are always present, `null` when unknown, so that readers need not guess.
#[derive(serde::Serialize)]
struct InlineError<'a> {
    id: Option<&'a str>,
    line: Option<u64>,
    error: String,
}

/// A Parquet dataset being built: documents are stored in a ledger of their
/// own (in the dataset's hidden scratch directory, on disk, so that memory
/// does not grow with the corpus), from which the tables are exported as
/// `attest export dataset` exports them.
struct DatasetWriter {
    ledger: Ledger,
    out: DatasetOut,
}

/// Where and how documents are written.
struct Writer {
    format: Format,
    dataset: Option<DatasetWriter>,
    out_dir: Option<PathBuf>,
    overwrite: Overwrite,
    json: JsonConfig,
    report: ReportConfig,
    names: OutNames,
    stdout: io::BufWriter<io::Stdout>,
    written: usize,
}

impl Writer {
    fn new(args: &AnalyzeArgs) -> anyhow::Result<Writer> {
        match (args.format, &args.out) {
            (Format::Brat, None) => {
                bail!("--format brat writes files: give a directory with --out DIR")
            }
            (Format::Parquet, None) => {
                bail!("--format parquet writes a dataset: give a directory with --out DIR")
            }
            (Format::Report | Format::Jsonl, Some(_)) => {
                bail!(
                    "--out is for --format brat, json and parquet; redirect standard output for \
                     this format"
                )
            }
            _ => {}
        }
        let dataset = match (args.format, &args.out) {
            (Format::Parquet, Some(dir)) => {
                let out = DatasetOut::prepare(dir, args.force)?;
                let ledger = Ledger::open(out.scratch().join("ledger.db"))?;
                Some(DatasetWriter { ledger, out })
            }
            _ => None,
        };
        if args.errors == Errors::Inline && args.format != Format::Jsonl {
            bail!("--errors inline writes errors as JSON lines: it needs --format jsonl");
        }
        if let Some(dir) = &args.out {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let color = match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Ok(Writer {
            format: args.format,
            dataset,
            out_dir: args.out.clone(),
            overwrite: Overwrite {
                force: args.force,
                ..Overwrite::default()
            },
            json: JsonConfig {
                tokens: args.tokens,
                model: args.model.kind(),
            },
            report: ReportConfig {
                color,
                width: args.width.max(40),
            },
            names: OutNames::default(),
            stdout: io::BufWriter::new(io::stdout()),
            written: 0,
        })
    }

    fn write(&mut self, doc: &Doc, place: &Place) -> anyhow::Result<()> {
        for diagnostic in doc.diagnostics() {
            messages::warning(format_args!(
                "{}: {}: {}",
                doc.article().id,
                diagnostic.origin,
                diagnostic.message
            ));
        }
        match (self.format, self.out_dir.clone()) {
            (Format::Brat, Some(dir)) => self.write_files(doc, place, &dir)?,
            (Format::Json, Some(dir)) => self.write_files(doc, place, &dir)?,
            (Format::Json, None) => attest_write::write_json(doc, &self.json, &mut self.stdout)?,
            (Format::Jsonl, _) => attest_write::write_jsonl(doc, &self.json, &mut self.stdout)?,
            (Format::Report, _) => {
                if self.written > 0 {
                    writeln!(self.stdout)?;
                }
                attest_write::write_report(doc, &self.report, &mut self.stdout)?;
            }
            (Format::Parquet, _) => self.store(doc, place)?,
            (Format::Brat, None) => unreachable!("checked in Writer::new"),
        }
        self.written += 1;
        self.stdout.flush()?;
        Ok(())
    }

    /// Stores a document in the dataset's ledger, under the key `attest
    /// ingest` would give it.
    fn store(&mut self, doc: &Doc, place: &Place) -> anyhow::Result<()> {
        let Some(dataset) = &mut self.dataset else {
            bail!("no dataset is being written");
        };
        let key = if place.id_given {
            ArticleKey::by_id(&doc.article().id)
        } else {
            ArticleKey::by_content(doc.article())
        };
        match dataset.ledger.store_one(doc, &key, OnConflict::Skip) {
            Ok(Stored::Added | Stored::Replaced) => {}
            Ok(Stored::Skipped) => messages::warning(format_args!(
                "{}: {}: an article stored under the same key ({}) was read before; \
                 the dataset holds the first",
                place.origin.place(),
                doc.article().id,
                key.as_str()
            )),
            // The ledger could not store this article; the others go on.
            Err(err) => messages::input_failed(format_args!("{}: {err}", doc.article().id)),
        }
        Ok(())
    }

    /// Ends the output: a dataset's tables are written now, from its ledger.
    fn finish(self) -> anyhow::Result<()> {
        let Some(dataset) = self.dataset else {
            return Ok(());
        };
        let rows = dataset.out.write(&dataset.ledger)?;
        dataset.ledger.close()?;
        crate::export::report_dataset(&rows, dataset.out.dir());
        Ok(())
    }

    /// Writes a record that could not be read in its place in the output, as
    /// one JSON line.
    fn write_error(&mut self, err: &ReadError) -> anyhow::Result<()> {
        let line = InlineError {
            id: err.id(),
            line: err.line(),
            error: err.to_string(),
        };
        serde_json::to_writer(&mut self.stdout, &line)?;
        self.stdout.write_all(b"\n")?;
        self.stdout.flush()?;
        Ok(())
    }

    /// Writes the files of one article under `dir` (see [`crate::out_names`]);
    /// a name taken earlier in the run, or a file that may not be replaced,
    /// fails this article only.
    fn write_files(&mut self, doc: &Doc, place: &Place, dir: &Path) -> anyhow::Result<()> {
        let id = &doc.article().id;
        let stem = relative_stem(&place.origin, id, place.id_given);
        if let Err(first) = self.names.take(&stem, &place.origin.place()) {
            messages::input_failed(format_args!(
                "{id}: not written: its output name {} is taken by the article read at {first} \
                 (names are compared without case)",
                dir.join(&stem).display()
            ));
            return Ok(());
        }
        let path = |extension: &str| {
            let mut name = dir.join(&stem).into_os_string();
            name.push(extension);
            PathBuf::from(name)
        };
        let outcome = (|| -> anyhow::Result<()> {
            if let Some(parent) = path("").parent() {
                fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            if self.format == Format::Brat {
                safe_write::write_file(&path(".txt"), &self.overwrite, |out| {
                    Ok(out.write_all(doc.text().as_bytes())?)
                })?;
                let ann = attest_write::brat_ann(doc);
                safe_write::write_file(&path(".ann"), &self.overwrite, |out| {
                    Ok(out.write_all(ann.as_bytes())?)
                })
            } else {
                safe_write::write_file(&path(".json"), &self.overwrite, |out| {
                    Ok(attest_write::write_json(doc, &self.json, out)?)
                })
            }
        })();
        if let Err(err) = outcome {
            messages::input_failed(format_args!("{id}: {err:#}"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_stops_at_its_bytes_or_its_articles() {
        let in_flight = InFlight { bytes: 10 };
        let chunk = |items: &mut std::vec::IntoIter<usize>| in_flight.next_chunk(items, |&n| n);
        let mut items = vec![4usize, 4, 4, 4, 30, 1].into_iter();
        assert_eq!(chunk(&mut items), [4, 4, 4], "stops once it holds 10 bytes");
        assert_eq!(
            chunk(&mut items),
            [4, 30],
            "an article past the budget closes it"
        );
        assert_eq!(chunk(&mut items), [1]);
        assert!(chunk(&mut items).is_empty());
        let mut small = vec![0usize; CHUNK + 3].into_iter();
        assert_eq!(chunk(&mut small).len(), CHUNK, "and at CHUNK articles");
    }
}
