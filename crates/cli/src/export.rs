//! `attest export`: a ledger table or query as JSON Lines, CSV or Parquet.
//!
//! A file is written through [`crate::safe_write`]: never over the ledger, a
//! device or a directory, over an existing file only with `--force`, and a
//! failed or killed export leaves no truncated file under the final name.

use std::io::{self, BufWriter, IsTerminal, Write};

use anyhow::Context;
use attest_ledger::{Cell, Column, Ledger, RowSink};

use crate::ledger_flags::{ExportArgs, ExportFormat};
use crate::messages;
use crate::safe_write::{self, Overwrite};
use crate::table::write_csv_row;

pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<()> {
    let mut ledger = Ledger::open_read_only(&args.db.db, &args.db.options())?;
    ledger.set_budget(args.budget())?;
    if args.out.as_os_str() == "-" {
        if args.format == ExportFormat::Parquet && io::stdout().is_terminal() {
            anyhow::bail!("Parquet is binary: redirect standard output, or give --out FILE");
        }
        let mut out = BufWriter::new(io::stdout());
        export_to(&ledger, args, &mut out)?;
        return out.flush().context("writing standard output");
    }
    let policy = Overwrite::protecting_ledger(args.force, args.db.db.path());
    let rows = safe_write::write_file(&args.out, &policy, |out| export_to(&ledger, args, out))?;
    messages::note(format_args!(
        "exported {rows} rows to {}",
        args.out.display()
    ));
    Ok(())
}

fn export_to(
    ledger: &Ledger,
    args: &ExportArgs,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<usize> {
    match args.format {
        ExportFormat::Jsonl => Ok(ledger.export(
            &args.what,
            &mut JsonlSink {
                out,
                columns: Vec::new(),
            },
        )?),
        ExportFormat::Csv => Ok(ledger.export(&args.what, &mut CsvSink { out })?),
        ExportFormat::Parquet => parquet_export(ledger, &args.what, out),
    }
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
