//! The ledger queries: `attest sources`, `said`, `search` and `stats`.

use std::io::{self, IsTerminal, Write};

use anyhow::Context;
use attest_ledger::{GroupBy, Ledger, SearchHit};
use attest_write::terminal_safe;

use crate::ledger_flags::{
    ClaimsArgs, DbArgs, QueryFormat, SaidArgs, SearchArgs, SourcesArgs, StatsArgs, StatsBy,
    TraceArgs,
};
use crate::{messages, table};

fn open(db: &DbArgs) -> anyhow::Result<Ledger> {
    Ok(Ledger::open_read_only(&db.db, &db.options())?)
}

pub(crate) fn sources(args: &SourcesArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let mut filter = args.filter.filter();
    filter.kind = args.source_type;
    filter.name.clone_from(&args.name);
    let page = attest_ledger::Page {
        offset: args.offset,
        limit: args.limit,
    };
    let rows = ledger.top_sources(&filter, page)?;
    table::print(&rows, args.output.format)
}

pub(crate) fn said(args: &SaidArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let filter = args.filter.filter();
    let rows = match (&args.name, args.id) {
        (_, Some(id)) => ledger.statements(id, &filter, args.limit)?,
        (Some(name), None) => ledger.said(name, &filter, args.limit)?,
        (None, None) => anyhow::bail!("give a source's NAME or --id"),
    };
    if let (true, QueryFormat::Table, Some(name)) =
        (rows.is_empty(), args.output.format, &args.name)
    {
        messages::note(format_args!(
            "no statements by {name:?}; `attest sources` lists the sources stored \
             (a bare surname matches only sources named that way)"
        ));
    }
    table::print(&rows, args.output.format)
}

pub(crate) fn claims(args: &ClaimsArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let filter = attest_ledger::ClaimFilter {
        articles: args.filter.filter(),
        article: args.article.clone(),
        source: args.source.clone(),
        role: args.role,
        min_articles: args.min_articles,
    };
    let claims = ledger.claims(&filter, args.limit)?;
    print_claims(&claims, args.output.format)
}

pub(crate) fn trace(args: &TraceArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let pipeline = args.model.pipeline(&attest_doc::Limits::DEFAULT)?;
    let doc = pipeline.analyze(attest_doc::Article::new("trace", args.text.as_str()));
    let claims = ledger.trace(&doc)?;
    if claims.is_empty() && args.output.format == QueryFormat::Table {
        messages::note(format_args!(
            "no stored claim carries this text; a claim is found by its words, figures and names"
        ));
    }
    print_claims(&claims, args.output.format)
}

/// Claims as JSON with their appearances nested, or as one table row per
/// appearance.
fn print_claims(claims: &[attest_ledger::ClaimRow], format: QueryFormat) -> anyhow::Result<()> {
    match format {
        QueryFormat::Json | QueryFormat::Jsonl => table::print_json(claims, format),
        QueryFormat::Table | QueryFormat::Csv => {
            let lines: Vec<_> = claims
                .iter()
                .flat_map(attest_ledger::ClaimRow::lines)
                .collect();
            table::print(&lines, format)
        }
    }
}

pub(crate) fn search(args: &SearchArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let filter = args.filter.filter();
    let hits = if args.fts {
        ledger.search_fts(&args.query, &filter, args.limit)?
    } else {
        ledger.search(&args.query, &filter, args.limit)?
    };
    if args.output.format != QueryFormat::Table {
        return table::print(&hits, args.output.format);
    }
    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = io::BufWriter::new(io::stdout().lock());
    if hits.is_empty() {
        writeln!(out, "(nothing found)")?;
    }
    for hit in &hits {
        write_hit(&mut out, hit, color)?;
    }
    out.flush().context("writing the matches")
}

/// One match as a heading line and the text with the matched words marked:
/// in bold on a terminal, in `[brackets]` otherwise.
fn write_hit(out: &mut dyn Write, hit: &SearchHit, color: bool) -> io::Result<()> {
    let mut heading = vec![hit.article.clone()];
    heading.extend(hit.title.clone());
    heading.extend(hit.outlet.clone());
    heading.extend(hit.date.clone());
    let who = match (&hit.source, &hit.stance) {
        (Some(source), Some(stance)) => format!("{source} ({stance})"),
        (Some(source), None) => source.clone(),
        (None, _) if hit.found_in == "quote" => "quotation, no attribution".to_string(),
        (None, _) => "no source".to_string(),
    };
    heading.push(who);
    writeln!(out, "{}", terminal_safe(&heading.join(" · "), false))?;
    let (open, close) = if color {
        ("\u{1b}[1;33m", "\u{1b}[0m")
    } else {
        ("[", "]")
    };
    // Each piece of the text is made safe on its own: the matches are offsets
    // into the raw text, and the marks must stay real escape sequences.
    let shown = |piece: &str| {
        let flat = piece.replace(['\n', '\r', '\t'], " ");
        terminal_safe(&flat, false).into_owned()
    };
    let mut marked = String::with_capacity(hit.text.len() + 8);
    let mut at = 0;
    for [start, end] in &hit.matches {
        let (Some(before), Some(word)) = (hit.text.get(at..*start), hit.text.get(*start..*end))
        else {
            continue;
        };
        marked.push_str(&shown(before));
        marked.push_str(open);
        marked.push_str(&shown(word));
        marked.push_str(close);
        at = *end;
    }
    marked.push_str(&shown(hit.text.get(at..).unwrap_or_default()));
    writeln!(out, "    {marked}\n")
}

pub(crate) fn stats(args: &StatsArgs) -> anyhow::Result<()> {
    let ledger = open(&args.db)?;
    let by = match args.by {
        StatsBy::Outlet => GroupBy::Outlet,
        StatsBy::Month => GroupBy::Month,
        StatsBy::All => GroupBy::All,
    };
    let rows = ledger.stats(by, &args.filter.filter())?;
    table::print(&rows, args.output.format)
}
