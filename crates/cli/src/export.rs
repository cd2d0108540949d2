//! `attest export`: a ledger table or query as JSON Lines, CSV or Parquet.
//!
//! A file is written beside its destination under a `.partial` name and renamed
//! into place only once complete, so a failed export never leaves a truncated
//! file that looks finished.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use attest_ledger::{Cell, Column, Ledger, RowSink};

use crate::ledger_flags::{ExportArgs, ExportFormat};
use crate::table::write_csv_row;

pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<()> {
    let mut ledger = Ledger::open_read_only(&args.db.db, &args.db.options())?;
    ledger.set_budget(args.budget())?;
    let to_stdout = args.out.as_os_str() == "-";
    if to_stdout {
        if args.format == ExportFormat::Parquet {
            anyhow::bail!("Parquet is written to a file: give --out FILE");
        }
        let mut out = BufWriter::new(io::stdout());
        export_to(&ledger, args, &mut out)?;
        return out.flush().context("writing standard output");
    }
    let partial = partial_path(&args.out);
    let outcome = (|| -> anyhow::Result<usize> {
        let file = fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        let mut out = BufWriter::new(file);
        let rows = export_to(&ledger, args, &mut out)?;
        out.into_inner()
            .map_err(|err| err.into_error())
            .and_then(|file| file.sync_all())
            .with_context(|| format!("writing {}", partial.display()))?;
        fs::rename(&partial, &args.out)
            .with_context(|| format!("moving the export into {}", args.out.display()))?;
        Ok(rows)
    })();
    match outcome {
        Ok(rows) => {
            eprintln!("attest: exported {rows} rows to {}", args.out.display());
            Ok(())
        }
        Err(err) => {
            let _ = fs::remove_file(&partial);
            Err(err)
        }
    }
}

fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    out.with_file_name(name)
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
