//! The command line of the ledger commands: ingest, the queries and export.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::Duration;

use attest_doc::{SourceKind, serde_name};
use attest_ledger::Location;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Args, Command, ValueEnum};

use crate::flags::{IdArgs, InputFormatArgs, LimitArgs};

/// Reads `--db`: a PostgreSQL URL, or the path of a SQLite file.
pub(crate) fn parse_db(text: &str) -> Result<Location, std::convert::Infallible> {
    Ok(Location::parse(std::ffi::OsStr::new(text)))
}

/// Which ledger, and how long to wait for it.
#[derive(Debug, Args)]
pub(crate) struct DbArgs {
    /// The ledger: the path of a SQLite file, or a PostgreSQL database as
    /// `postgres://USER@HOST/DB` (libpq's URL form; `?host=/run/postgresql`
    /// for a Unix socket).
    #[arg(long, default_value = "attest.db", value_name = "PATH|URL", value_parser = parse_db)]
    pub(crate) db: Location,

    /// How long to wait for another process that holds a SQLite ledger's
    /// lock, in milliseconds, before failing (PostgreSQL writers wait their
    /// turn).
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    pub(crate) busy_timeout: u64,
}

impl DbArgs {
    pub(crate) fn options(&self) -> attest_ledger::OpenOptions {
        attest_ledger::OpenOptions {
            busy_timeout: Duration::from_millis(self.busy_timeout),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct IngestArgs {
    /// Files or directories to read, as `attest analyze` reads them; `-` reads
    /// standard input (plain text unless --input-format says otherwise).
    #[arg(value_name = "INPUT", required = true)]
    pub(crate) inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub(crate) input_format: InputFormatArgs,

    /// The inputs are the output of `attest analyze --format jsonl` (files or
    /// `-`), stored without analysing again: each document keyed by its id;
    /// a document of another schema version, or whose spans do not fit its
    /// text, fails alone.
    #[arg(long, conflicts_with = "input_format")]
    pub(crate) analysed: bool,

    #[command(flatten)]
    pub(crate) db: DbArgs,

    /// Replace articles already stored (same id, or same content when the input
    /// gives no id) instead of skipping them. Without it, an id already stored
    /// with different content is reported and not stored.
    #[arg(long)]
    pub(crate) update: bool,

    #[command(flatten)]
    pub(crate) ids: IdArgs,

    /// Articles per transaction: a process killed mid-run loses at most the
    /// batch it was writing, which the next run stores again.
    #[arg(long, default_value_t = 1024, value_name = "ARTICLES")]
    pub(crate) batch_size: usize,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// Which articles a query looks at.
#[derive(Debug, Args)]
pub(crate) struct FilterArgs {
    /// Only articles of this outlet, exactly as stored.
    #[arg(long, value_name = "NAME")]
    pub(crate) outlet: Option<String>,

    /// Only articles published on or after this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub(crate) since: Option<jiff::civil::Date>,

    /// Only articles published on or before this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub(crate) until: Option<jiff::civil::Date>,
}

impl FilterArgs {
    pub(crate) fn filter(&self) -> attest_ledger::Filter {
        attest_ledger::Filter {
            outlet: self.outlet.clone(),
            since: self.since,
            until: self.until,
            kind: None,
            name: None,
        }
    }
}

/// How query results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum QueryFormat {
    /// A table for people.
    Table,
    /// A JSON array of objects.
    Json,
    /// One JSON object a line.
    Jsonl,
    /// CSV with a header line.
    Csv,
}

#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = QueryFormat::Table)]
    pub(crate) format: QueryFormat,
}

/// `--type`'s parser: the source kinds' JSON names, kebab-cased as clap writes
/// values ("media-outlet"), so that the list is `SourceKind`'s own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SourceKindParser;

impl SourceKindParser {
    fn value_name(kind: SourceKind) -> String {
        serde_name(&kind).replace('_', "-")
    }
}

impl TypedValueParser for SourceKindParser {
    type Value = SourceKind;

    fn parse_ref(
        &self,
        command: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<SourceKind, clap::Error> {
        let names = PossibleValuesParser::new(
            SourceKind::ALL
                .iter()
                .map(|kind| PossibleValue::new(SourceKindParser::value_name(*kind))),
        );
        let name = names.parse_ref(command, arg, value)?;
        SourceKind::ALL
            .iter()
            .copied()
            .find(|kind| SourceKindParser::value_name(*kind) == name)
            .ok_or_else(|| clap::Error::new(ErrorKind::InvalidValue).with_cmd(command))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(SourceKind::ALL.iter().map(|kind| {
            PossibleValue::new(SourceKindParser::value_name(*kind))
        })))
    }
}

#[derive(Debug, Args)]
pub(crate) struct SourcesArgs {
    #[command(flatten)]
    pub(crate) db: DbArgs,

    #[command(flatten)]
    pub(crate) filter: FilterArgs,

    /// Only sources of this kind.
    #[arg(long = "type", value_parser = SourceKindParser, value_name = "TYPE")]
    pub(crate) source_type: Option<SourceKind>,

    /// Only sources whose name holds these words, in this order; case and
    /// accents do not matter ("smalls" finds "Chris Smalls").
    #[arg(long, value_name = "WORDS")]
    pub(crate) name: Option<String>,

    /// How many sources to list.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub(crate) limit: usize,

    /// How many of the ranking to skip first, to page through it.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub(crate) offset: usize,

    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct SaidArgs {
    /// The source's name ("Chris Smalls", "the Teamsters"); titles and case do
    /// not matter. A bare surname finds only sources the articles name that way.
    #[arg(value_name = "NAME", required_unless_present = "id")]
    pub(crate) name: Option<String>,

    /// A source id from `attest sources`, instead of a name.
    #[arg(long, value_name = "ID", conflicts_with = "name")]
    pub(crate) id: Option<i64>,

    #[command(flatten)]
    pub(crate) db: DbArgs,

    #[command(flatten)]
    pub(crate) filter: FilterArgs,

    /// At most this many statements, oldest first.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub(crate) limit: usize,

    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ClaimsArgs {
    #[command(flatten)]
    pub(crate) db: DbArgs,

    /// Only claims with an appearance in these articles.
    #[command(flatten)]
    pub(crate) filter: FilterArgs,

    /// Only claims with an appearance in the article of this id.
    #[arg(long, value_name = "ID")]
    pub(crate) article: Option<String>,

    /// Only claims with an appearance credited to a source of this name, as
    /// the article names it (case does not matter).
    #[arg(long, value_name = "NAME")]
    pub(crate) source: Option<String>,

    /// Only claims with an appearance in this role.
    #[arg(long, value_name = "ROLE", value_parser = role_parser())]
    pub(crate) role: Option<attest_claims::Role>,

    /// Only claims carried by at least this many articles (1 lists every
    /// statement stored as a claim of its own).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub(crate) min_articles: usize,

    /// At most this many claims, most widely carried first.
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub(crate) limit: usize,

    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct TraceArgs {
    /// A text that carries claims: a sentence, a paragraph or an article.
    /// It is analysed as `attest analyze` would, and each of its statements
    /// is looked up among the claims stored.
    #[arg(value_name = "TEXT")]
    pub(crate) text: String,

    #[command(flatten)]
    pub(crate) db: DbArgs,

    #[command(flatten)]
    pub(crate) output: OutputArgs,

    /// The model flags: which model analyses TEXT.
    #[command(flatten)]
    pub(crate) model: crate::model::ModelArgs,
}

/// `--role`'s parser: the roles' names, from the enum.
fn role_parser() -> impl TypedValueParser<Value = attest_claims::Role> {
    PossibleValuesParser::new(
        attest_claims::Role::ALL
            .iter()
            .map(|role| PossibleValue::new(role.name())),
    )
    .try_map(|name| name.parse::<attest_claims::Role>())
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// Words to find (stemmed: "bargain" finds "bargaining"), "quoted phrases",
    /// and prefix* terms; every term must occur.
    #[arg(value_name = "QUERY")]
    pub(crate) query: String,

    /// Read QUERY in the database's own syntax: SQLite FTS5's (AND, OR, NOT,
    /// NEAR, ...), or PostgreSQL websearch_to_tsquery's (or, -word, "phrase").
    #[arg(long)]
    pub(crate) fts: bool,

    #[command(flatten)]
    pub(crate) db: DbArgs,

    #[command(flatten)]
    pub(crate) filter: FilterArgs,

    /// How many matches to show, best first.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub(crate) limit: usize,

    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StatsBy {
    Outlet,
    Month,
    All,
}

#[derive(Debug, Args)]
pub(crate) struct StatsArgs {
    /// How to group articles.
    #[arg(long, value_enum, default_value_t = StatsBy::Outlet)]
    pub(crate) by: StatsBy,

    #[command(flatten)]
    pub(crate) db: DbArgs,

    #[command(flatten)]
    pub(crate) filter: FilterArgs,

    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// One JSON object per row per line.
    Jsonl,
    /// CSV with a header line.
    Csv,
    /// Apache Parquet, Snappy-compressed.
    Parquet,
    /// For `corrections` only: the articles an editor reviewed as
    /// PolNeAR-style gold, their corrections applied,
    /// `--out DIR` holding `text/NAME.txt` and
    /// `attributions/NAME_corrections.ann`, which `attest train --extra-gold
    /// DIR` reads.
    Brat,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// A table (articles, article_stances, sources, appearances,
    /// attributions, quotes, hedges, entities, quantities, times,
    /// corrections, reviews, claims, statements), a read-only SQL query
    /// (SELECT ... or WITH ...), or `dataset`: every table but corrections
    /// and reviews as a directory of Parquet files
    /// partitioned by month (`--out DIR`). docs/ledger.md describes the
    /// columns.
    #[arg(value_name = "TABLE|QUERY|dataset")]
    pub(crate) what: String,

    /// Output format; required but for `dataset`, which is Parquet.
    #[arg(long, value_enum)]
    pub(crate) format: Option<ExportFormat>,

    /// The file to write; `-` writes to standard output (`./-` is a file
    /// named `-`). The ledger itself, directories, devices and FIFOs are
    /// refused; an existing file only with --force. For `dataset` and
    /// `--format brat`, the directory to write in.
    #[arg(long, value_name = "FILE|DIR")]
    pub(crate) out: PathBuf,

    /// Fail, keeping no file, when the query gives more than N rows.
    #[arg(long, value_name = "N")]
    pub(crate) max_rows: Option<usize>,

    /// Stop the query and fail, keeping no file, once it has run this many
    /// seconds.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<u64>,

    /// Replace an existing file at --out (for `dataset`, the tables of an
    /// earlier dataset in DIR).
    #[arg(long)]
    pub(crate) force: bool,

    #[command(flatten)]
    pub(crate) db: DbArgs,
}

impl ExportArgs {
    /// The limits of the export's query, as the server sets them for its own.
    pub(crate) fn budget(&self) -> attest_ledger::Budget {
        attest_ledger::Budget {
            time: self.time_limit.map(Duration::from_secs),
            rows: self.max_rows,
            cancel: None,
        }
    }
}
