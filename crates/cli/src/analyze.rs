//! `attest analyze`: read, analyse in parallel, write in input order.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, bail};
use attest_doc::{Article, Diagnostic, Doc};
use attest_pipeline::Pipeline;
use attest_read::{Input, ReadConfig, ReadError, ReadItem};
use attest_write::{BratNames, JsonConfig, ReportConfig};
use rayon::prelude::*;

use crate::flags::{AnalyzeArgs, ColorChoice, Format};
use crate::{messages, sample};

/// How many articles are read ahead and analysed at once: enough to keep every
/// core busy, few enough that a batch of large articles stays small in memory.
const CHUNK: usize = 64;

/// How many articles of a chunk one core analyses stage by stage (see
/// `Pipeline::analyze_batch`): enough for each model to stay in cache from one
/// article to the next, few enough that the cores share a chunk evenly.
const BATCH: usize = 16;

pub(crate) fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let limits = args.limits.limits();
    let pipeline = args.model.pipeline(&limits)?;
    let mut writer = Writer::new(args)?;
    if args.inputs.is_empty() {
        let doc = pipeline.analyze(sample::article());
        return writer.write(&doc);
    }
    let inputs = args.inputs.iter().map(Input::from_arg).collect();
    let mut items = attest_read::read_inputs(inputs, ReadConfig { limits });
    loop {
        let chunk: Vec<Result<ReadItem, ReadError>> = items.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            return Ok(());
        }
        let chunk = chunk
            .into_iter()
            .map(|item| item.map(|item| (item.article, item.warnings)))
            .collect();
        for doc in analyze_chunk(&pipeline, chunk) {
            match doc {
                Ok(doc) => writer.write(&doc)?,
                Err(err) => messages::input_failed(err),
            }
        }
    }
}

/// Analyses a chunk of articles on every core, each core taking batches of
/// [`BATCH`] stage by stage; the documents come back in input order, and an
/// item that is already an error keeps its place.
pub(crate) fn analyze_chunk<E: Send>(
    pipeline: &Pipeline,
    chunk: Vec<Result<(Article, Vec<Diagnostic>), E>>,
) -> Vec<Result<Doc, E>> {
    let mut chunk = chunk.into_iter();
    let batches: Vec<Vec<_>> =
        std::iter::from_fn(|| Some(chunk.by_ref().take(BATCH).collect::<Vec<_>>()))
            .take_while(|batch| !batch.is_empty())
            .collect();
    let docs: Vec<Vec<Result<Doc, E>>> = batches
        .into_par_iter()
        .map(|batch| pipeline.analyze_batch(batch))
        .collect();
    docs.into_iter().flatten().collect()
}

/// Where and how documents are written.
struct Writer {
    format: Format,
    out_dir: Option<std::path::PathBuf>,
    json: JsonConfig,
    report: ReportConfig,
    names: BratNames,
    stdout: io::BufWriter<io::Stdout>,
    written: usize,
}

impl Writer {
    fn new(args: &AnalyzeArgs) -> anyhow::Result<Writer> {
        match (args.format, &args.out) {
            (Format::Brat, None) => {
                bail!("--format brat writes files: give a directory with --out DIR")
            }
            (Format::Report | Format::Jsonl, Some(_)) => {
                bail!(
                    "--out is for --format brat and json; redirect standard output for this format"
                )
            }
            _ => {}
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
            out_dir: args.out.clone(),
            json: JsonConfig {
                tokens: args.tokens,
                model: args.model.kind(),
            },
            report: ReportConfig {
                color,
                width: args.width.max(40),
            },
            names: BratNames::new(),
            stdout: io::BufWriter::new(io::stdout()),
            written: 0,
        })
    }

    fn write(&mut self, doc: &Doc) -> anyhow::Result<()> {
        for diagnostic in doc.diagnostics() {
            messages::warning(format_args!(
                "{}: {}: {}",
                doc.article().id,
                diagnostic.origin,
                diagnostic.message
            ));
        }
        match (self.format, self.out_dir.clone()) {
            (Format::Brat, Some(dir)) => {
                attest_write::write_brat(doc, &dir, &mut self.names)
                    .with_context(|| format!("writing brat files to {}", dir.display()))?;
            }
            (Format::Json, Some(dir)) => self.write_json_file(doc, &dir)?,
            (Format::Json, None) => attest_write::write_json(doc, &self.json, &mut self.stdout)?,
            (Format::Jsonl, _) => attest_write::write_jsonl(doc, &self.json, &mut self.stdout)?,
            (Format::Report, _) => {
                if self.written > 0 {
                    writeln!(self.stdout)?;
                }
                attest_write::write_report(doc, &self.report, &mut self.stdout)?;
            }
            (Format::Brat, None) => unreachable!("checked in Writer::new"),
        }
        self.written += 1;
        self.stdout.flush()?;
        Ok(())
    }

    fn write_json_file(&mut self, doc: &Doc, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join(format!("{}.json", self.names.allocate(&doc.article().id)));
        let mut file = io::BufWriter::new(
            fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
        );
        attest_write::write_json(doc, &self.json, &mut file)
            .and_then(|()| file.flush())
            .with_context(|| format!("writing {}", path.display()))
    }
}
