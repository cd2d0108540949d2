//! `attest ingest`: read, analyse in parallel, and store in a ledger through
//! one writer thread.
//!
//! The main thread reads articles in chunks, drops those the ledger already
//! holds (unless `--update`), and analyses the rest on every core in the
//! batches `attest analyze` uses; a writer thread owns the ledger connection
//! and commits batches of `--batch-size` articles, each batch one transaction
//! (see `attest_ledger::Ledger::store`). Analysis of the next chunk overlaps
//! the writing of the last. A process killed at any moment leaves every
//! committed batch whole and the open one absent, and running the same command
//! again stores what is missing.

use std::convert::Infallible;
use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use attest_doc::{Article, Doc};
use attest_ledger::{ArticleKey, Entry, Ledger, OnConflict, Stored, content_hash};
use attest_pipeline::Pipeline;
use attest_read::{Input, ReadConfig, ReadItem};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::analysed;
use crate::analyze::{InFlight, analyze_chunk};
use crate::ids::SeenIds;
use crate::ledger_flags::IngestArgs;
use crate::messages;

/// How many analysed chunks may wait for the writer: one rides out a slow
/// commit, and memory holds at most four chunks' worth of documents (one being
/// analysed, one queued, and the writer's open batch of up to two).
const QUEUED_CHUNKS: usize = 1;

/// Of the bytes `--memory-budget` lets `attest analyze` have in flight, the
/// share of one ingest chunk: ingest holds up to four (see [`QUEUED_CHUNKS`]).
const CHUNKS_HELD: usize = 4;

/// The longest a batch stays open before it is committed even if not full, so
/// that a slow input still reaches the disk steadily.
const MAX_BATCH_AGE: Duration = Duration::from_secs(2);

/// What happened to the articles, shared by the reading and writing threads.
#[derive(Default)]
struct Tally {
    read: AtomicU64,
    added: AtomicU64,
    replaced: AtomicU64,
    skipped: AtomicU64,
    failed: AtomicU64,
    bytes: AtomicU64,
}

impl Tally {
    fn bump(counter: &AtomicU64, by: u64) {
        counter.fetch_add(by, Ordering::Relaxed);
    }

    fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// The progress display: a bar on a terminal, nothing otherwise.
#[derive(Clone)]
struct Progress(Option<ProgressBar>);

impl Progress {
    fn new() -> Progress {
        if !io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {pos}/{len} articles  {rate}  ETA {eta}  {wide_bar}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.0} articles/s", state.per_sec());
                },
            ),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    /// Prints a message above the bar.
    fn report(&self, print: impl FnOnce()) {
        match &self.0 {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    fn advance(&self, by: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(by);
        }
    }

    fn set_total(&self, total: u64) {
        if let Some(bar) = &self.0 {
            bar.set_length(total);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// One analysed article on its way to the writer.
struct Analysed {
    doc: Doc,
    key: ArticleKey,
}

pub(crate) fn run(args: &IngestArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let limits = args.limits.limits();
    let pipeline = Pipeline::standard(&limits).context("building the pipeline")?;
    let options = args.db.options();
    let ledger = Ledger::open_with(&args.db.db, &options)?;
    // A second connection, for the main thread to see what is already stored
    // while the writer writes.
    let lookup = Ledger::open_read_only(&args.db.db, &options)?;
    let on_conflict = if args.update {
        OnConflict::Replace
    } else {
        OnConflict::Skip
    };
    let tally = Arc::new(Tally::default());
    let progress = Progress::new();
    let inputs: Vec<Input> = args.inputs.iter().map(Input::from_arg).collect();
    let config = ReadConfig { limits };
    let blank_ids = args.ids.blank_ids();
    if progress.0.is_some() && !args.analysed && !inputs.contains(&Input::Stdin) {
        count_in_background(
            inputs.clone(),
            config,
            args.input_format.format(),
            progress.clone(),
        );
    }

    let in_flight = args
        .limits
        .in_flight(attest_write::AnalysisModel::Fast)
        .share(CHUNKS_HELD);
    let (sender, receiver) = mpsc::sync_channel::<Vec<Analysed>>(QUEUED_CHUNKS);
    let writer = {
        let tally = Arc::clone(&tally);
        let progress = progress.clone();
        let batch = BatchSize {
            articles: args.batch_size.max(1),
            bytes: in_flight.bytes,
        };
        // Named, so that profilers and debuggers tell the writer apart.
        thread::Builder::new()
            .name("ledger-writer".to_string())
            .spawn(move || write_all(ledger, receiver, on_conflict, batch, &tally, &progress))
            .context("starting the ledger writer")?
    };

    let feeder = Feeder {
        pipeline: &pipeline,
        lookup: &lookup,
        on_conflict,
        tally: &tally,
        progress: &progress,
        in_flight,
    };
    let fed = if args.analysed {
        feeder.feed(analysed_inputs(&args.inputs, limits), &sender)
    } else {
        let items = attest_read::read_inputs(inputs, config)
            .blank_ids(blank_ids)
            .format(args.input_format.format())
            .map(|item| item.map(Incoming::Read).map_err(|err| err.to_string()));
        feeder.feed(items, &sender)
    };
    // Closing the channel lets the writer commit what it holds and stop, also
    // when reading failed: what was analysed is not thrown away. The lookup
    // connection closes first, so that the writer's closing checkpoint can
    // empty the write-ahead log.
    drop(sender);
    drop(lookup);
    let written = writer
        .join()
        .map_err(|_| anyhow::anyhow!("the ledger writer panicked"))?;
    progress.finish();
    written?;
    fed?;
    summary(&tally, started, &args.db.db);
    Ok(())
}

/// The reading and analysing side of an ingest.
struct Feeder<'a> {
    pipeline: &'a Pipeline,
    lookup: &'a Ledger,
    on_conflict: OnConflict,
    tally: &'a Tally,
    progress: &'a Progress,
    in_flight: InFlight,
}

/// What the ledger, and the run so far, hold under an article's key.
enum Conflict {
    /// Nothing, or something `--update` replaces: analyse and store it.
    None,
    /// The same article: skip it.
    Stored,
    /// Different content under the same id: report it, store nothing.
    Different(String),
}

impl Feeder<'_> {
    /// Whether `item` may be stored under `key`. An id given to different
    /// content earlier in the run is an error whatever `--update` says, since
    /// either record may be the right one; an id stored by an earlier run with
    /// different content is one unless `--update` replaces it.
    fn conflict(
        &self,
        item: &Incoming,
        key: &ArticleKey,
        seen: &mut SeenIds,
    ) -> anyhow::Result<Conflict> {
        let (article, id_given, place) = item.parts();
        if id_given && let Err(why) = seen.note(article, &place) {
            return Ok(Conflict::Different(why));
        }
        if self.on_conflict == OnConflict::Replace {
            return Ok(Conflict::None);
        }
        Ok(match self.lookup.stored_hash(key)? {
            None => Conflict::None,
            Some(hash) if !id_given || hash == content_hash(article) => Conflict::Stored,
            Some(_) => Conflict::Different(format!(
                "{place}: id {:?} is already stored with different content; not stored \
                 (--update replaces it)",
                article.id
            )),
        })
    }

    /// Reads, skips what is stored, analyses what is not analysed yet, and
    /// sends chunks to the writer until the input ends or the writer stops.
    fn feed(
        &self,
        mut items: impl Iterator<Item = Result<Incoming, String>>,
        sender: &mpsc::SyncSender<Vec<Analysed>>,
    ) -> anyhow::Result<()> {
        let (tally, progress) = (self.tally, self.progress);
        let mut seen = SeenIds::default();
        loop {
            let chunk: Vec<Result<Incoming, String>> =
                self.in_flight.next_chunk(&mut items, |item| {
                    item.as_ref().map_or(0, |item| item.parts().0.text.len())
                });
            if chunk.is_empty() {
                return Ok(());
            }
            let mut to_analyse = Vec::with_capacity(chunk.len());
            let mut analysed = Vec::new();
            for item in chunk {
                Tally::bump(&tally.read, 1);
                match item {
                    Err(err) => {
                        Tally::bump(&tally.failed, 1);
                        progress.advance(1);
                        progress.report(|| messages::input_failed(err));
                    }
                    Ok(item) => {
                        let (article, id_given, _) = item.parts();
                        let key = if id_given {
                            ArticleKey::by_id(&article.id)
                        } else {
                            ArticleKey::by_content(article)
                        };
                        match self.conflict(&item, &key, &mut seen)? {
                            Conflict::None => match item {
                                Incoming::Read(item) => to_analyse.push((item, key)),
                                Incoming::Analysed { doc, .. } => {
                                    analysed.push(Analysed { doc, key })
                                }
                            },
                            Conflict::Stored => {
                                Tally::bump(&tally.skipped, 1);
                                progress.advance(1);
                            }
                            Conflict::Different(why) => {
                                Tally::bump(&tally.failed, 1);
                                progress.advance(1);
                                progress.report(|| messages::input_failed(why));
                            }
                        }
                    }
                }
            }
            let (articles, keys): (Vec<_>, Vec<_>) = to_analyse
                .into_iter()
                .map(|(item, key)| {
                    (
                        Ok::<_, Infallible>((item.article, item.warnings, item.budget)),
                        key,
                    )
                })
                .unzip();
            analysed.extend(
                analyze_chunk(self.pipeline, articles)
                    .into_iter()
                    .zip(keys)
                    .map(|(doc, key)| {
                        let Ok(doc) = doc;
                        Analysed { doc, key }
                    }),
            );
            for one in &analysed {
                Tally::bump(&tally.bytes, one.doc.text().len() as u64);
                for diagnostic in one.doc.diagnostics() {
                    progress.report(|| {
                        messages::warning(format_args!(
                            "{}: {}: {}",
                            one.doc.article().id,
                            diagnostic.origin,
                            diagnostic.message
                        ));
                    });
                }
            }
            if sender.send(analysed).is_err() {
                // The writer stopped on an error, which the caller reports.
                return Ok(());
            }
        }
    }
}

/// One article on its way in: read, to be analysed, or analysed already
/// (`--analysed`). One run holds only a chunk of them, and only one kind, so
/// the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Incoming {
    Read(ReadItem),
    /// A document of `attest analyze`'s output, read at `place`. Its key is
    /// its id, as the output does not say whether the input gave it.
    Analysed {
        doc: Doc,
        place: String,
    },
}

impl Incoming {
    /// The article, whether the input gave its id, and where it was read.
    fn parts(&self) -> (&Article, bool, String) {
        match self {
            Incoming::Read(item) => (&item.article, item.id_given, item.origin.place()),
            Incoming::Analysed { doc, place } => (doc.article(), true, place.clone()),
        }
    }
}

/// The documents of `--analysed` inputs, in order; a file that cannot be
/// opened fails alone.
fn analysed_inputs(
    inputs: &[std::path::PathBuf],
    limits: attest_doc::Limits,
) -> impl Iterator<Item = Result<Incoming, String>> + use<> {
    let inputs = inputs.to_vec();
    inputs.into_iter().flat_map(move |path| {
        let lines: Box<dyn Iterator<Item = Result<Incoming, String>>> =
            match analysed::read_file(&path, limits) {
                Ok(lines) => Box::new(lines.map(|line| match line.doc {
                    Ok(doc) => Ok(Incoming::Analysed {
                        doc,
                        place: line.place,
                    }),
                    Err(err) => Err(format!("{err:#}")),
                })),
                Err(err) => Box::new(std::iter::once(Err(format!("{err:#}")))),
            };
        lines
    })
}

/// Counts the articles of the inputs on a thread of its own, so that the bar
/// gets a total (and an ETA) without delaying the start.
fn count_in_background(
    inputs: Vec<Input>,
    config: ReadConfig,
    format: Option<attest_read::InputFormat>,
    progress: Progress,
) {
    thread::spawn(move || {
        let total = attest_read::read_inputs(inputs, config)
            .format(format)
            .count();
        progress.set_total(total as u64);
    });
}

/// When the writer commits its open batch: at `articles` articles (the
/// `--batch-size`), or once it holds `bytes` of article text, whichever comes
/// first, so that a batch of large articles does not pin their documents.
#[derive(Clone, Copy, Debug)]
struct BatchSize {
    articles: usize,
    bytes: usize,
}

/// The writer thread: batches, stores, and counts.
fn write_all(
    mut ledger: Ledger,
    receiver: mpsc::Receiver<Vec<Analysed>>,
    on_conflict: OnConflict,
    size: BatchSize,
    tally: &Tally,
    progress: &Progress,
) -> anyhow::Result<()> {
    let mut batch: Vec<Analysed> = Vec::new();
    let mut opened = Instant::now();
    loop {
        let next = receiver.recv_timeout(MAX_BATCH_AGE);
        let done = match next {
            Ok(chunk) => {
                if batch.is_empty() {
                    opened = Instant::now();
                }
                batch.extend(chunk);
                false
            }
            Err(mpsc::RecvTimeoutError::Timeout) => false,
            Err(mpsc::RecvTimeoutError::Disconnected) => true,
        };
        while let Some(full) = full_batch(&batch, size) {
            let rest = batch.split_off(full);
            store(&mut ledger, &batch, on_conflict, tally, progress)?;
            batch = rest;
            opened = Instant::now();
        }
        if !batch.is_empty() && (done || opened.elapsed() >= MAX_BATCH_AGE) {
            store(&mut ledger, &batch, on_conflict, tally, progress)?;
            batch.clear();
        }
        if done {
            return Ok(ledger.close()?);
        }
    }
}

/// How many documents of `batch` make a full batch, if they do: the first
/// that reach `size`'s articles or bytes.
fn full_batch(batch: &[Analysed], size: BatchSize) -> Option<usize> {
    let mut bytes = 0usize;
    for (index, one) in batch.iter().enumerate().take(size.articles) {
        bytes = bytes.saturating_add(one.doc.text().len());
        if bytes >= size.bytes {
            return Some(index + 1);
        }
    }
    (batch.len() >= size.articles).then_some(size.articles)
}

fn store(
    ledger: &mut Ledger,
    batch: &[Analysed],
    on_conflict: OnConflict,
    tally: &Tally,
    progress: &Progress,
) -> anyhow::Result<()> {
    let entries: Vec<Entry<'_>> = batch
        .iter()
        .map(|one| Entry {
            doc: &one.doc,
            key: &one.key,
        })
        .collect();
    let outcomes = ledger.store(&entries, on_conflict)?;
    for outcome in outcomes {
        match outcome {
            Ok(Stored::Added) => Tally::bump(&tally.added, 1),
            Ok(Stored::Replaced) => Tally::bump(&tally.replaced, 1),
            Ok(Stored::Skipped) => Tally::bump(&tally.skipped, 1),
            Err(err) => {
                Tally::bump(&tally.failed, 1);
                progress.report(|| messages::input_failed(err));
            }
        }
    }
    progress.advance(batch.len() as u64);
    Ok(())
}

fn summary(tally: &Tally, started: Instant, db: &attest_ledger::Location) {
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let read = Tally::get(&tally.read);
    let megabytes = Tally::get(&tally.bytes) as f64 / 1e6;
    messages::note(format_args!(
        "{read} articles: {} added, {} replaced, {} already stored, {} failed; \
         {seconds:.1} s, {:.1} articles/s, {:.2} MB/s analysed; ledger {}",
        Tally::get(&tally.added),
        Tally::get(&tally.replaced),
        Tally::get(&tally.skipped),
        Tally::get(&tally.failed),
        read as f64 / seconds,
        megabytes / seconds,
        db
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(bytes: usize) -> Analysed {
        let doc = Doc::new(attest_doc::Article::new("a", "x".repeat(bytes)));
        let key = ArticleKey::by_id("a");
        Analysed { doc, key }
    }

    #[test]
    fn a_batch_is_full_at_its_articles_or_its_bytes() {
        let size = BatchSize {
            articles: 3,
            bytes: 10,
        };
        let batch: Vec<Analysed> = [4, 4, 4, 4].into_iter().map(analysed).collect();
        assert_eq!(full_batch(&batch, size), Some(3), "12 bytes at the third");
        let batch: Vec<Analysed> = [1, 1, 1, 1].into_iter().map(analysed).collect();
        assert_eq!(full_batch(&batch, size), Some(3), "three articles");
        let batch: Vec<Analysed> = [1, 1].into_iter().map(analysed).collect();
        assert_eq!(full_batch(&batch, size), None, "still open");
        let batch: Vec<Analysed> = [50].into_iter().map(analysed).collect();
        assert_eq!(full_batch(&batch, size), Some(1), "one large article alone");
    }
}
