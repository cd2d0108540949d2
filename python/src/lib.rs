//! `attest._attest`, the native half of the Python module `attest`.
//!
//! It speaks JSON with the Python half (`python/attest/__init__.py`): articles
//! come in as JSON Lines records, read by `attest_read::read_json_record` as the
//! command line reads a `.jsonl` file, and documents go out as the
//! `attest.document/1` objects of `attest_write::to_json_value`, so that a
//! document's `to_dict()` is the command line's JSON by construction. Ledger
//! rows go out as the same serde JSON that `attest sources --format json` and
//! the other queries print. Nothing here panics across the boundary: every
//! failure becomes an `attest.AttestError` subclass that names its cause.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use attest_doc::{Budget, Doc, Limits, SourceKind, from_serde_name, serde_name};
use attest_ledger::{ArticleKey, Entry, Filter, GroupBy, OnConflict, Stored};
use attest_pipeline::{Pipeline, ReadArticle, TaggingModels};
use attest_read::{ReadConfig, ReadError};
use attest_write::{AnalysisModel, JsonConfig};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use rayon::prelude::*;

create_exception!(
    attest,
    AttestError,
    PyException,
    "Every error attest raises: its message says what failed and why."
);
create_exception!(
    attest,
    InputError,
    AttestError,
    "An article or argument attest cannot read (a bad field, a limit reached)."
);
create_exception!(
    attest,
    ModelError,
    AttestError,
    "A model that cannot be loaded, such as accurate mode without its model directory."
);
create_exception!(
    attest,
    LedgerError,
    AttestError,
    "A ledger that cannot be opened, read or written."
);

/// How many articles one Rust thread analyses stage by stage, as `attest
/// analyze` does (see `Pipeline::analyze_batch`).
const BATCH: usize = 16;

/// The outcome of one record: its document as JSON, or why it failed.
type Outcome = Result<String, String>;

/// One record analysed, or why it could not be read.
type Analysed = Result<Doc, ReadError>;

/// A loaded pipeline and the thread pool it last ran on.
#[pyclass(frozen, module = "attest._attest")]
struct Analyzer {
    pipeline: Pipeline,
    json: JsonConfig,
    limits: Limits,
    pool: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>>,
}

#[pymethods]
impl Analyzer {
    /// Loads the pipeline of `model` ("fast" or "accurate"); accurate mode reads
    /// its encoder from `model_dir`, else `$ATTEST_MODEL_DIR`, else the source
    /// tree's `models/encoder`.
    #[new]
    #[pyo3(signature = (model = "fast", model_dir = None))]
    fn new(py: Python<'_>, model: &str, model_dir: Option<PathBuf>) -> PyResult<Analyzer> {
        let limits = Limits::default();
        let kind = match model {
            "fast" => AnalysisModel::Fast,
            "accurate" => AnalysisModel::Accurate,
            other => {
                return Err(InputError::new_err(format!(
                    "model must be \"fast\" or \"accurate\", not {other:?}"
                )));
            }
        };
        let pipeline = py.detach(|| match kind {
            AnalysisModel::Fast => Pipeline::standard(&limits)
                .map_err(|err| ModelError::new_err(format!("building the fast pipeline: {err}"))),
            AnalysisModel::Accurate => {
                let dir = model_dir.unwrap_or_else(attest_encoder::default_dir);
                let encoder = attest_encoder::Encoder::load(&dir).map_err(|err| {
                    ModelError::new_err(format!(
                        "loading accurate mode's model from {}: {err} (pass model_dir= or set {})",
                        dir.display(),
                        attest_encoder::DIR_VARIABLE
                    ))
                })?;
                let tagging = TaggingModels::bundled().map_err(|err| {
                    ModelError::new_err(format!("loading the bundled models: {err}"))
                })?;
                let calibration = attest_pipeline::encoder_calibration(&dir)
                    .map_err(|err| ModelError::new_err(err.to_string()))?;
                Pipeline::accurate(&limits, encoder, calibration, tagging).map_err(|err| {
                    ModelError::new_err(format!("building the accurate pipeline: {err}"))
                })
            }
        })?;
        Ok(Analyzer {
            pipeline,
            json: JsonConfig {
                tokens: false,
                model: kind,
            },
            limits,
            pool: Mutex::new(None),
        })
    }

    /// Analyses JSON Lines records, each given with the place its errors name,
    /// on `threads` Rust threads (all cores when None), without the GIL.
    /// Returns, in input order, `(True, document JSON)` or `(False, error)`,
    /// and how many threads took part.
    #[pyo3(signature = (records, threads = None))]
    fn analyze(
        &self,
        py: Python<'_>,
        records: Vec<(String, String)>,
        threads: Option<usize>,
    ) -> PyResult<(Vec<(bool, String)>, usize)> {
        let pool = self.pool(threads)?;
        let (outcomes, used) = py.detach(|| {
            let (docs, used) = self.run(&pool, records);
            let outcomes = docs
                .into_iter()
                .map(|doc| doc.map(|doc| self.to_json(&doc)).map_err(|e| e.to_string()))
                .collect::<Vec<Outcome>>();
            (outcomes, used)
        });
        Ok((outcomes.into_iter().map(split).collect(), used))
    }
}

impl Analyzer {
    /// The pool of `threads` threads, made again only when the count changes.
    fn pool(&self, threads: Option<usize>) -> PyResult<Arc<rayon::ThreadPool>> {
        let want = threads.unwrap_or_else(rayon::current_num_threads);
        if want == 0 {
            return Err(InputError::new_err("threads must be at least 1"));
        }
        let mut slot = lock(&self.pool);
        if let Some((size, pool)) = slot.as_ref()
            && *size == want
        {
            return Ok(Arc::clone(pool));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(want)
            .thread_name(|i| format!("attest-{i}"))
            .build()
            .map_err(|err| AttestError::new_err(format!("starting {want} threads: {err}")))?;
        let pool = Arc::new(pool);
        *slot = Some((want, Arc::clone(&pool)));
        Ok(pool)
    }

    /// Reads and analyses records on `pool`, in batches of [`BATCH`]; the
    /// documents come back in input order, with the number of threads used.
    fn run(
        &self,
        pool: &rayon::ThreadPool,
        records: Vec<(String, String)>,
    ) -> (Vec<Analysed>, usize) {
        let config = ReadConfig {
            limits: self.limits,
        };
        let items: Vec<Result<ReadArticle, ReadError>> = records
            .into_iter()
            .map(|(place, json)| {
                attest_read::read_json_record(
                    json.into_bytes(),
                    &place,
                    &config,
                    Budget::new(&self.limits),
                )
                .map(|item| (item.article, item.warnings, item.budget))
            })
            .collect();
        let mut items = items.into_iter();
        let batches: Vec<Vec<_>> =
            std::iter::from_fn(|| Some(items.by_ref().take(BATCH).collect::<Vec<_>>()))
                .take_while(|batch| !batch.is_empty())
                .collect();
        let done: Vec<(Option<usize>, Vec<Analysed>)> = pool.install(|| {
            batches
                .into_par_iter()
                .map(|batch| {
                    (
                        rayon::current_thread_index(),
                        self.pipeline.analyze_batch(batch),
                    )
                })
                .collect()
        });
        let mut threads: Vec<usize> = done.iter().filter_map(|(thread, _)| *thread).collect();
        threads.sort_unstable();
        threads.dedup();
        let docs = done.into_iter().flat_map(|(_, docs)| docs).collect();
        (docs, threads.len())
    }

    fn to_json(&self, doc: &Doc) -> String {
        attest_write::to_json_value(doc, &self.json).to_string()
    }
}

fn split(outcome: Outcome) -> (bool, String) {
    match outcome {
        Ok(json) => (true, json),
        Err(message) => (false, message),
    }
}

/// A lock whose holder never panics while holding it; a poisoned one is
/// taken as it is rather than turned into a panic across the boundary.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An open ledger, SQLite or PostgreSQL, as `attest ingest` and the query
/// commands use it.
#[pyclass(frozen, module = "attest._attest")]
struct Ledger {
    inner: Mutex<Option<attest_ledger::Ledger>>,
}

#[pymethods]
impl Ledger {
    /// Opens (or creates) the ledger at `location`: a SQLite file path, or a
    /// `postgres://` URL, read as `--db` reads it.
    #[new]
    fn new(py: Python<'_>, location: PathBuf) -> PyResult<Ledger> {
        let location = attest_ledger::Location::parse(location.as_os_str());
        let ledger = py
            .detach(|| attest_ledger::Ledger::open(&location))
            .map_err(|err| LedgerError::new_err(err.to_string()))?;
        Ok(Ledger {
            inner: Mutex::new(Some(ledger)),
        })
    }

    /// The most-quoted sources as JSON rows, as `attest sources --format json`.
    #[pyo3(signature = (limit, offset, outlet, since, until, kind, name))]
    #[allow(clippy::too_many_arguments)] // one per keyword of `Ledger.sources`
    fn sources(
        &self,
        py: Python<'_>,
        limit: usize,
        offset: usize,
        outlet: Option<String>,
        since: Option<String>,
        until: Option<String>,
        kind: Option<String>,
        name: Option<String>,
    ) -> PyResult<String> {
        let mut filter = filter(outlet, since, until)?;
        filter.kind = kind.map(|name| source_kind(&name)).transpose()?;
        filter.name = name;
        let page = attest_ledger::Page { offset, limit };
        self.query(py, |ledger| rows(ledger.top_sources(&filter, page)))
    }

    /// What the sources called `name` said, as `attest said NAME --format json`.
    #[pyo3(signature = (name, limit, outlet, since, until))]
    fn said(
        &self,
        py: Python<'_>,
        name: &str,
        limit: usize,
        outlet: Option<String>,
        since: Option<String>,
        until: Option<String>,
    ) -> PyResult<String> {
        let filter = filter(outlet, since, until)?;
        self.query(py, |ledger| rows(ledger.said(name, &filter, limit)))
    }

    /// Full-text matches, as `attest search QUERY --format json` (`fts`: the
    /// query is in SQLite FTS5 syntax, as `--fts`).
    #[pyo3(signature = (query, limit, fts, outlet, since, until))]
    #[expect(clippy::too_many_arguments, reason = "the query's keyword arguments")]
    fn search(
        &self,
        py: Python<'_>,
        query: &str,
        limit: usize,
        fts: bool,
        outlet: Option<String>,
        since: Option<String>,
        until: Option<String>,
    ) -> PyResult<String> {
        let filter = filter(outlet, since, until)?;
        self.query(py, |ledger| {
            rows(if fts {
                ledger.search_fts(query, &filter, limit)
            } else {
                ledger.search(query, &filter, limit)
            })
        })
    }

    /// Sourcing statistics per outlet, month or overall, as `attest stats
    /// --by BY --format json`.
    #[pyo3(signature = (by, outlet, since, until))]
    fn stats(
        &self,
        py: Python<'_>,
        by: &str,
        outlet: Option<String>,
        since: Option<String>,
        until: Option<String>,
    ) -> PyResult<String> {
        let by = match by {
            "outlet" => GroupBy::Outlet,
            "month" => GroupBy::Month,
            "all" => GroupBy::All,
            other => {
                return Err(InputError::new_err(format!(
                    "by must be \"outlet\", \"month\" or \"all\", not {other:?}"
                )));
            }
        };
        let filter = filter(outlet, since, until)?;
        self.query(py, |ledger| rows(ledger.stats(by, &filter)))
    }

    /// Analyses records with `analyzer` and stores them in one transaction;
    /// a record with an id is stored under it, one without under its content.
    /// Returns, per record in order, "added", "replaced", "skipped" or the
    /// error that failed it.
    fn ingest(
        &self,
        py: Python<'_>,
        analyzer: &Analyzer,
        records: Vec<(String, String, bool)>,
        update: bool,
    ) -> PyResult<Vec<(bool, String)>> {
        let pool = analyzer.pool(None)?;
        let id_given: Vec<bool> = records.iter().map(|(_, _, given)| *given).collect();
        let records = records
            .into_iter()
            .map(|(place, json, _)| (place, json))
            .collect();
        let on_conflict = if update {
            OnConflict::Replace
        } else {
            OnConflict::Skip
        };
        let mut guard = lock(&self.inner);
        let ledger = guard
            .as_mut()
            .ok_or_else(|| LedgerError::new_err("the ledger is closed"))?;
        let outcomes = py.detach(|| {
            let (docs, _) = analyzer.run(&pool, records);
            let keyed: Vec<Result<(Doc, ArticleKey), String>> = docs
                .into_iter()
                .zip(id_given)
                .map(|(doc, given)| {
                    let doc = doc.map_err(|err| err.to_string())?;
                    let key = if given {
                        ArticleKey::by_id(&doc.article().id)
                    } else {
                        ArticleKey::by_content(doc.article())
                    };
                    Ok((doc, key))
                })
                .collect();
            let entries: Vec<Entry<'_>> = keyed
                .iter()
                .flatten()
                .map(|(doc, key)| Entry { doc, key })
                .collect();
            let mut stored = ledger
                .store(&entries, on_conflict)
                .map_err(|err| err.to_string())?
                .into_iter();
            Ok::<_, String>(
                keyed
                    .iter()
                    .map(|item| match item {
                        Err(err) => (false, err.clone()),
                        Ok(_) => match stored.next() {
                            Some(Ok(outcome)) => (true, stored_name(outcome)),
                            Some(Err(err)) => (false, err.to_string()),
                            None => (false, "not stored".to_string()),
                        },
                    })
                    .collect(),
            )
        });
        outcomes.map_err(LedgerError::new_err)
    }

    /// Closes the file, writing the write-ahead log into it first.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let ledger = lock(&self.inner).take();
        match ledger {
            Some(ledger) => py
                .detach(|| ledger.close())
                .map_err(|err| LedgerError::new_err(err.to_string())),
            None => Ok(()),
        }
    }
}

impl Ledger {
    fn query(
        &self,
        py: Python<'_>,
        ask: impl FnOnce(&attest_ledger::Ledger) -> Result<String, String> + Send,
    ) -> PyResult<String> {
        let mut guard = lock(&self.inner);
        // Borrowed mutably so that the closure needs the connection to be
        // `Send` only, which SQLite's is; it is not `Sync`.
        let ledger = guard
            .as_mut()
            .ok_or_else(|| LedgerError::new_err("the ledger is closed"))?;
        py.detach(move || ask(ledger)).map_err(LedgerError::new_err)
    }
}

fn rows<T: serde::Serialize>(
    rows: Result<Vec<T>, attest_ledger::LedgerError>,
) -> Result<String, String> {
    let rows = rows.map_err(|err| err.to_string())?;
    serde_json::to_string(&rows).map_err(|err| err.to_string())
}

fn stored_name(stored: Stored) -> String {
    serde_name(&stored)
}

fn filter(
    outlet: Option<String>,
    since: Option<String>,
    until: Option<String>,
) -> PyResult<Filter> {
    Ok(Filter {
        outlet,
        since: since.as_deref().map(|d| date("since", d)).transpose()?,
        until: until.as_deref().map(|d| date("until", d)).transpose()?,
        kind: None,
        name: None,
    })
}

fn date(name: &str, text: &str) -> PyResult<jiff::civil::Date> {
    text.parse().map_err(|err| {
        InputError::new_err(format!("{name}: {text:?} is not a date YYYY-MM-DD: {err}"))
    })
}

fn source_kind(name: &str) -> PyResult<SourceKind> {
    from_serde_name::<SourceKind>(name).ok_or_else(|| {
        let known: Vec<String> = SourceKind::ALL.iter().map(serde_name).collect();
        InputError::new_err(format!(
            "kind must be one of {}, not {name:?}",
            known.join(", ")
        ))
    })
}

/// The native module; `attest/__init__.py` re-exports what users see.
#[pymodule]
fn _attest(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Analyzer>()?;
    m.add_class::<Ledger>()?;
    m.add("AttestError", py.get_type::<AttestError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("LedgerError", py.get_type::<LedgerError>())?;
    m.add("SCHEMA", attest_write::SCHEMA)?;
    Ok(())
}
