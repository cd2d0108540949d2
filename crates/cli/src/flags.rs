//! The command line: what each subcommand takes.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// attest: who says so, and how sure? Finds the sourcing of news articles:
/// attributions, sources, stance, hedges, entities, quantities and times.
#[derive(Debug, Parser)]
#[command(name = "attest", version, max_term_width = 100)]
#[command(after_help = "Exit status: 0 when every input was processed, \
1 when some inputs failed (each failure is reported on standard error and the rest \
were processed), 2 on a usage or fatal error. A closed output pipe ends attest \
quietly with status 0.")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Analyse articles and print or write what they source, and how.
    Analyze(AnalyzeArgs),
    /// Measure attest against an annotated corpus.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Rebuild the models attest ships from the PolNeAR corpus (train split only).
    Train(TrainArgs),
    /// Analyse articles and store them in a ledger (SQLite), skipping those
    /// already stored.
    Ingest(crate::ledger_flags::IngestArgs),
    /// The most-quoted sources of a ledger.
    Sources(crate::ledger_flags::SourcesArgs),
    /// Everything a source said, with stance, date and article.
    Said(crate::ledger_flags::SaidArgs),
    /// Full-text search over attributed content and quotations.
    Search(crate::ledger_flags::SearchArgs),
    /// Sourcing statistics per outlet or month.
    Stats(crate::ledger_flags::StatsArgs),
    /// Claims carried by several articles: where each first appeared and what
    /// each later article did to it (repeated, misattributed, hardened, denied).
    Claims(crate::ledger_flags::ClaimsArgs),
    /// The stored claims a text carries, each with its travel.
    Trace(crate::ledger_flags::TraceArgs),
    /// Write a ledger table or query as JSON Lines, CSV or Parquet.
    Export(crate::ledger_flags::ExportArgs),
    /// Each analysed document's statements with their claim features and
    /// LSH band keys, as JSON Lines: what a job past one ledger groups by.
    Statements(crate::statements::StatementsArgs),
    /// Serve the HTTP API and the web page (stop with Ctrl-C or SIGTERM).
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// A ledger made by `attest ingest` (a SQLite file, or a PostgreSQL URL
    /// as for `attest ingest --db`), for the ledger routes and pages; the
    /// server only reads it (unless --allow-corrections), so an ingest may
    /// add to it meanwhile.
    #[arg(long, value_name = "PATH|URL", value_parser = crate::ledger_flags::parse_db)]
    pub(crate) db: Option<attest_ledger::Location>,

    /// Let editors correct the ledger's attributions from the page and the
    /// API (POST /v1/articles/{id}/corrections): the corrections are stored
    /// in the ledger beside what attest found, never over it. Without it the
    /// server never writes.
    #[arg(long, requires = "db")]
    pub(crate) allow_corrections: bool,

    /// The address to listen on; loopback by default, so only this machine can
    /// reach the server. Port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub(crate) addr: std::net::SocketAddr,

    /// The largest request body in bytes; a larger one gets 413.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.body_bytes, value_name = "BYTES")]
    pub(crate) max_body_bytes: usize,

    /// How long a request may take, in seconds, before it gets 503.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.timeout.as_secs(), value_name = "SECONDS")]
    pub(crate) timeout_secs: u64,

    /// How many analyses run at once; one more request gets 503.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.analyses, value_name = "N")]
    pub(crate) max_analyses: usize,

    /// The largest answer of one analysis in bytes; a larger one gets 413.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.output_bytes, value_name = "BYTES")]
    pub(crate) max_output_bytes: usize,

    /// The most bytes of answers the server holds at once for clients that
    /// have not taken them yet (a client that stops reading is dropped after
    /// --header-timeout-secs); an analysis whose answer would go over gets
    /// 503. At least --max-output-bytes.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.held_answer_bytes, value_name = "BYTES")]
    pub(crate) max_held_answer_bytes: usize,

    /// How many ledger queries run at once; one more gets 503.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.ledger_queries, value_name = "N")]
    pub(crate) max_ledger_queries: usize,

    /// How long one ledger query may run, in milliseconds, before it is
    /// stopped and gets 503 (the statement timeout).
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.query_timeout.as_millis() as u64, value_name = "MS")]
    pub(crate) query_timeout_ms: u64,

    /// The longest path and query string of a ledger route in bytes; a longer
    /// one gets 414.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.query_bytes, value_name = "BYTES")]
    pub(crate) max_query_bytes: usize,

    /// How long a client may take to send a request's head, in seconds; also
    /// how long an idle keep-alive connection stays open, and how long a
    /// client may leave an answer untaken.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.header_timeout.as_secs(), value_name = "SECONDS")]
    pub(crate) header_timeout_secs: u64,

    /// How many connections are open at once; more wait to be accepted.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.connections, value_name = "N")]
    pub(crate) max_connections: usize,

    /// How many connections one client address may have open at once; one
    /// more is closed at once, so that no client takes every connection.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.client_connections, value_name = "N")]
    pub(crate) max_connections_per_client: usize,

    /// How long requests in flight may take to finish after SIGINT or
    /// SIGTERM, in seconds; the server exits then. Connections with no
    /// request in flight are closed at once.
    #[arg(long, default_value_t = attest_server::Limits::DEFAULT.grace.as_secs(), value_name = "SECONDS")]
    pub(crate) grace_secs: u64,

    /// A host name the server answers to besides its bind address (and
    /// localhost on loopback), as when it is reached through a proxy or a DNS
    /// name; repeat for more. Other Host values get 421.
    #[arg(long, value_name = "NAME")]
    pub(crate) allow_host: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct TrainArgs {
    /// The PolNeAR directory, holding train/ (dev/ is not read).
    #[arg(long, default_value = "../shared/data/polnear", value_name = "DIR")]
    pub(crate) data: PathBuf,

    /// Where to write pos.model, attrib.model, entities.model, stance.model,
    /// source-type.model and hedges.model.
    #[arg(long, default_value = "models", value_name = "DIR")]
    pub(crate) out: PathBuf,

    /// The seed of the training shuffles; the shipped models use the default.
    #[arg(long, default_value_t = 0x5eed)]
    pub(crate) seed: u64,

    /// Extra gold attributions in a PolNeAR-style directory (`text/`,
    /// `attributions/`), such as editors' corrections from `attest export
    /// corrections --format brat --out DIR`, added to the train split's for
    /// the attribution model. The shipped models use none.
    #[arg(long, value_name = "DIR")]
    pub(crate) extra_gold: Option<PathBuf>,

    /// attest's labels of PolNeAR (train.sources.tsv and train.hedges.tsv),
    /// which the stance, source type and hedge models learn from.
    #[arg(long, default_value = "eval/polnear", value_name = "DIR")]
    pub(crate) labels: PathBuf,

    /// Train only the models learned from the labels (stance.model,
    /// source-type.model, hedges.model), over the
    /// bundled tagger and entity model: the same bytes a whole run writes,
    /// since it retrains those two byte for byte.
    #[arg(long)]
    pub(crate) sourcing_only: bool,
}

#[derive(Debug, Args)]
pub(crate) struct AnalyzeArgs {
    /// Files or directories to read: .txt, .html, .jsonl, .warc or .warc.gz; `-`
    /// reads standard input (plain text unless --input-format says otherwise).
    /// Directories are walked in sorted order. With no input, attest analyses
    /// the sample article it ships with.
    #[arg(value_name = "INPUT")]
    pub(crate) inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub(crate) input_format: InputFormatArgs,

    /// Where a record that cannot be read is reported. `inline` (with --format
    /// jsonl) writes it in its place in the output as
    /// {"id":…,"line":…,"error":"…"}, so that the output has exactly one line
    /// per input record, as `RDD.pipe` and Hadoop streaming need; such a record
    /// is then data, not a failure of the run (the exit status stays 0), and
    /// ids are not compared across records (which would hold every id in
    /// memory).
    #[arg(long, value_enum, default_value_t = Errors::Stderr, value_name = "WHERE")]
    pub(crate) errors: Errors,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Report)]
    pub(crate) format: Format,

    /// Directory to write to: required by `brat` (a .txt and an .ann per
    /// article) and `parquet` (a dataset); with `json`, one .json file per
    /// article instead of standard output. Files of brat and json are named
    /// after the input files, below DIR as below the input directory; the
    /// records of a .jsonl or .warc file go into a folder named after it, by
    /// id.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,

    /// Replace files already in the --out directory (with `parquet`, the
    /// tables of an earlier dataset).
    #[arg(long)]
    pub(crate) force: bool,

    #[command(flatten)]
    pub(crate) ids: IdArgs,

    /// Include every token in JSON output.
    #[arg(long)]
    pub(crate) tokens: bool,

    /// When to colour the report: auto colours on a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,

    /// The report's width in columns.
    #[arg(long, default_value_t = 100, value_name = "COLUMNS")]
    pub(crate) width: usize,

    #[command(flatten)]
    pub(crate) model: crate::model::ModelArgs,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// Where `attest analyze` reports a record that cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Errors {
    /// On standard error, and the exit status is 1.
    Stderr,
    /// As a JSON line in the output, in the record's place.
    Inline,
}

/// The formats of `--input-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InputFormat {
    /// Plain text, one article per file or per standard input.
    Text,
    /// JSON Lines, one article per line.
    Jsonl,
    /// An HTML page, one article per file or per standard input.
    Html,
    /// A web archive (gzipped or not), one article per HTML response.
    Warc,
}

#[derive(Debug, Args)]
pub(crate) struct InputFormatArgs {
    /// Read every input, standard input included, as this format, whatever
    /// file extensions and first bytes say (a directory walk still picks its
    /// files by extension).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) input_format: Option<InputFormat>,
}

impl InputFormatArgs {
    pub(crate) fn format(&self) -> Option<attest_read::InputFormat> {
        self.input_format.map(|format| match format {
            InputFormat::Text => attest_read::InputFormat::Text,
            InputFormat::Jsonl => attest_read::InputFormat::Jsonl,
            InputFormat::Html => attest_read::InputFormat::Html,
            InputFormat::Warc => attest_read::InputFormat::Warc,
        })
    }
}

/// What a JSON Lines record with a blank `id` becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BlankId {
    /// The record fails, with an error naming the file and line.
    Error,
    /// The record is read as one without an id: known by its content hash.
    Hash,
}

#[derive(Debug, Args)]
pub(crate) struct IdArgs {
    /// What a JSON Lines record whose `id` is empty or only whitespace becomes.
    #[arg(long, value_enum, default_value_t = BlankId::Error, value_name = "WHAT")]
    pub(crate) blank_id: BlankId,
}

impl IdArgs {
    pub(crate) fn blank_ids(&self) -> attest_read::BlankIds {
        match self.blank_id {
            BlankId::Error => attest_read::BlankIds::Error,
            BlankId::Hash => attest_read::BlankIds::Hash,
        }
    }
}

/// The size and time limits, each with the default of `attest_doc::Limits::DEFAULT`.
#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    /// Largest article body read, in bytes; larger articles fail with an error.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.article_bytes, value_name = "BYTES")]
    pub(crate) max_article_bytes: usize,

    /// Most tokens in one sentence; longer runs are cut there.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.sentence_tokens, value_name = "TOKENS")]
    pub(crate) max_sentence_tokens: usize,

    /// Deepest HTML element nesting read.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.html_depth, value_name = "DEPTH")]
    pub(crate) max_html_depth: usize,

    /// Longest JSON Lines line read, in bytes.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.jsonl_line_bytes, value_name = "BYTES")]
    pub(crate) max_jsonl_line_bytes: usize,

    /// Largest WARC record read, in bytes.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.warc_record_bytes, value_name = "BYTES")]
    pub(crate) max_warc_record_bytes: usize,

    /// Most seconds the analysis may spend on one article (0: no limit); past it
    /// the running stage stops and the article says which layers it lacks.
    #[arg(long, default_value_t = attest_doc::Limits::DEFAULT.article_seconds, value_name = "SECONDS")]
    pub(crate) max_article_seconds: u64,

    /// Memory the articles being read, analysed and written may take, in
    /// bytes: attest reads ahead only as much article text as that allows
    /// (a sixty-fourth of it in fast mode, a 128th in accurate mode, each
    /// mode's measured memory per byte of text with room to spare), and one
    /// article larger than that alone.
    #[arg(long, default_value_t = DEFAULT_MEMORY_BUDGET, value_name = "BYTES")]
    pub(crate) memory_budget: usize,
}

/// The default of `--memory-budget`: 256 MiB.
const DEFAULT_MEMORY_BUDGET: usize = 256 << 20;

impl LimitArgs {
    pub(crate) fn limits(&self) -> attest_doc::Limits {
        attest_doc::Limits {
            article_bytes: self.max_article_bytes,
            sentence_tokens: self.max_sentence_tokens,
            html_depth: self.max_html_depth,
            jsonl_line_bytes: self.max_jsonl_line_bytes,
            warc_record_bytes: self.max_warc_record_bytes,
            article_seconds: self.max_article_seconds,
        }
    }

    /// How much article text `model` may have in flight within the memory
    /// budget: a byte of text costs fast mode about 25 bytes of memory
    /// (analysis and JSON together) and accurate mode about 50, so 64 and 128
    /// leave room; accurate mode's window states are bounded apart, per
    /// article being analysed (`attest_encoder::KEPT_STATE_BYTES`;
    /// docs/benchmarks.md, "Memory").
    pub(crate) fn in_flight(&self, model: attest_write::AnalysisModel) -> crate::analyze::InFlight {
        let per_byte = match model {
            attest_write::AnalysisModel::Fast => 64,
            attest_write::AnalysisModel::Accurate => 128,
        };
        crate::analyze::InFlight {
            bytes: (self.memory_budget / per_byte).max(1),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// A report for people, coloured on a terminal.
    Report,
    /// One pretty JSON document per article (docs/schema.md).
    Json,
    /// One compact JSON object per article per line.
    Jsonl,
    /// brat standoff: a .txt and an .ann per article, offsets in code points.
    Brat,
    /// A Parquet dataset in --out DIR: the tables `attest export dataset`
    /// writes from a ledger, with the ids a ledger of these articles alone
    /// would give them.
    Parquet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub(crate) enum EvalCommand {
    /// Token and sentence boundaries against the silver CoreNLP layer of a
    /// PolNeAR-format split (DIR holds text/ and silver/).
    Tokens(EvalArgs),
    /// Attributions against the gold of a PolNeAR-format split (DIR holds text/
    /// and attributions/), under the span and attribution protocols.
    Attributions(EvalArgs),
    /// Entity mentions against the silver CoreNLP mentions of a PolNeAR-format
    /// split (DIR holds text/ and silver/), by type, on exact spans.
    Entities(EvalArgs),
    /// The quantity tagger against a test set (default: the one attest ships).
    Quantities(TestSetArgs),
    /// The time tagger against a test set (default: the one attest ships).
    Times(TestSetArgs),
    /// Sources, stances and hedges against a gold set of annotated articles
    /// (default: the one attest ships), with oracle attributions.
    Sources(SourcesEvalArgs),
    /// Claims across a corpus against a provenance set (default:
    /// eval/claims): how statements are grouped into claims, each claim's
    /// first appearance, and each appearance's role.
    Claims(ClaimsEvalArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ClaimsEvalArgs {
    /// A directory with articles.jsonl and gold.tsv, in the format of
    /// eval/claims/README.md.
    #[arg(value_name = "DIR", default_value = "eval/claims")]
    pub(crate) dir: PathBuf,

    /// Also print each gold appearance whose claim or role is wrong.
    #[arg(long)]
    pub(crate) mistakes: bool,

    /// A JSON file of recorded scores (eval/floors.json): fail with status 1 when a
    /// headline score falls more than 0.01 below its recorded figure.
    #[arg(long, value_name = "FILE")]
    pub(crate) floors: Option<PathBuf>,

    /// The model flags: which model analyses the articles.
    #[command(flatten)]
    pub(crate) model: crate::model::ModelArgs,
}

#[derive(Debug, Args)]
pub(crate) struct SourcesEvalArgs {
    /// Directories of NAME.txt articles with NAME.gold annotations, in the format
    /// of crates/sources/tests/data/gold/README.md: each is scored as a set,
    /// then all together.
    #[arg(
        value_name = "DIR",
        default_values = ["crates/sources/tests/data/gold", "crates/sources/tests/data/gold2"]
    )]
    pub(crate) gold: Vec<PathBuf>,

    /// Also score a PolNeAR-format split, such as ../shared/data/polnear/dev,
    /// against attest's labels of it (--labels): source type, canonical source,
    /// stance and direct quote with the gold attributions given and end to end,
    /// with the stance and type confusion tables; the writer's hedges; and how
    /// the gold source spans resolve (named, pronoun to a name, unnamed).
    #[arg(long, value_name = "DIR")]
    pub(crate) polnear: Option<PathBuf>,

    /// The directory of the labels of --polnear: SPLIT.sources.tsv and
    /// SPLIT.hedges.tsv, SPLIT being the split directory's name
    /// (crates/corpus/src/labels.rs describes them).
    #[arg(long, value_name = "DIR", default_value = "eval/polnear")]
    pub(crate) labels: PathBuf,

    /// Also score the seed articles of DIR (such as ../shared/data/seed): each
    /// NAME.txt with its gold NAME.ann and its labels in the guideline's tables
    /// NAME.tsv and NAME.hedges.tsv; with the attributions attest adds beyond
    /// the gold and the sources it names by a pronoun.
    #[arg(long, value_name = "DIR")]
    pub(crate) seed: Option<PathBuf>,

    /// The model flags: the end-to-end scores of --polnear and --seed are the
    /// chosen model's.
    #[command(flatten)]
    pub(crate) model: crate::model::ModelArgs,

    /// With --polnear and --seed, list each wrong column of each scored
    /// attribution: its article and E id, the label, and what attest found.
    #[arg(long)]
    pub(crate) mistakes: bool,

    /// Print the scores as JSON.
    #[arg(long)]
    pub(crate) json: bool,

    /// A JSON file of recorded scores (eval/floors.json): fail with status 1 when a
    /// headline score of a set falls more than 0.01 below its recorded figure
    /// (section `sources` for a directory named gold, `sources_NAME` for one
    /// named NAME).
    #[arg(long, value_name = "FILE")]
    pub(crate) floors: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct TestSetArgs {
    /// A test set in the TSV format of crates/numbers/tests/data/README.md.
    #[arg(value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,

    /// Print the scores as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The split directory, such as ../shared/data/polnear/dev.
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,

    /// Print the scores as JSON.
    #[arg(long)]
    pub(crate) json: bool,

    /// A JSON file of recorded scores (eval/floors.json): fail with status 1 when a
    /// headline score falls more than 0.01 below its recorded figure.
    #[arg(long, value_name = "FILE")]
    pub(crate) floors: Option<PathBuf>,

    /// `eval attributions` only: fit the model's calibration to the split (the
    /// accuracy of each bin of raw confidence, made monotone) and write it to
    /// FILE, reporting the calibration error raw, in-sample and two-fold.
    #[arg(long, value_name = "FILE")]
    pub(crate) fit_calibration: Option<PathBuf>,

    /// The model flags: `eval attributions` and `eval entities` score the chosen model.
    #[command(flatten)]
    pub(crate) model: crate::model::ModelArgs,
}
