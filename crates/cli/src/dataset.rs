//! Parquet datasets: `attest export dataset --out DIR` and `attest analyze
//! --format parquet --out DIR`.
//!
//! A dataset is a directory per table of [`dataset_tables`], each row with
//! the ledger's columns and ids, partitioned by the month of its article in
//! Hive's layout (`articles/month=2016-09/part-0.parquet`), which Spark SQL,
//! DuckDB and pyarrow read as one table with a `month` column. Rows of an
//! article without a publication date are in `month=__HIVE_DEFAULT_PARTITION__`,
//! Hive's name for a null partition. `sources`, whose rows belong to no one
//! article, is one file, `sources/part-0.parquet`. A table without rows is
//! one file without rows, so that readers still learn its columns.
//!
//! The tables are streamed from the ledger (each month's rows come together,
//! see [`attest_ledger::dataset_query`]) into a hidden directory inside DIR,
//! and moved into place only once all are written, so that a failed or
//! killed run leaves no partial table under a table's name.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use attest_ledger::{Ledger, dataset_tables};

use crate::safe_write::TempDir;

/// The name of each partition's one file.
const PART_FILE: &str = "part-0.parquet";

/// The directory of the partition of rows whose month is unknown.
const NO_MONTH: &str = "__HIVE_DEFAULT_PARTITION__";

/// A dataset being written into `out`.
pub(crate) struct DatasetOut {
    out: PathBuf,
    staging: TempDir,
    force: bool,
}

impl DatasetOut {
    /// Checks `out` and makes room to write in it: a table directory already
    /// there is replaced only with `force`, and only when it holds nothing
    /// but what a dataset export writes.
    pub(crate) fn prepare(out: &Path, force: bool) -> anyhow::Result<DatasetOut> {
        parquet_supported()?;
        if out.exists() && !out.is_dir() {
            bail!(
                "{}: is not a directory; --out names the dataset's directory",
                out.display()
            );
        }
        fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        for table in dataset_tables() {
            check_replaceable(&out.join(table), force)?;
        }
        let staging =
            TempDir::create(out.join(format!(".attest-dataset.{}.tmp", std::process::id())))?;
        Ok(DatasetOut {
            out: out.to_path_buf(),
            staging,
            force,
        })
    }

    /// The dataset's directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.out
    }

    /// A hidden directory inside `out`, removed with this dataset, where a
    /// command may keep what it builds the dataset from.
    pub(crate) fn scratch(&self) -> &Path {
        self.staging.path()
    }

    /// Writes every table of `ledger` and moves them into place; returns
    /// each table's rows.
    pub(crate) fn write(&self, ledger: &Ledger) -> anyhow::Result<Vec<(&'static str, usize)>> {
        let mut rows = Vec::new();
        for table in dataset_tables() {
            let dir = self.staging.path().join(table);
            rows.push((table, write_table(ledger, table, &dir)?));
        }
        for table in dataset_tables() {
            let destination = self.out.join(table);
            // Checked again: the directory may have changed while the
            // tables were written.
            if check_replaceable(&destination, self.force)? {
                let old = self.staging.path().join(format!("{table}.old"));
                fs::rename(&destination, &old)
                    .with_context(|| format!("{}: moving it aside", destination.display()))?;
            }
            fs::rename(self.staging.path().join(table), &destination).with_context(|| {
                format!("{}: moving the table into place", destination.display())
            })?;
        }
        Ok(rows)
    }
}

/// Whether a table's directory exists, failing when it may not be replaced
/// (see [`DatasetOut::prepare`]).
fn check_replaceable(existing: &Path, force: bool) -> anyhow::Result<bool> {
    if fs::symlink_metadata(existing).is_err() {
        return Ok(false);
    }
    if !force {
        bail!(
            "{}: exists; give --force to replace the dataset's tables",
            existing.display()
        );
    }
    if let Some(foreign) = foreign_file(existing)? {
        bail!(
            "{}: holds {}, which a dataset export does not write; not replaced",
            existing.display(),
            foreign.display()
        );
    }
    Ok(true)
}

/// The first file or directory below a table's directory that a dataset
/// export does not write, if any.
fn foreign_file(table_dir: &Path) -> anyhow::Result<Option<PathBuf>> {
    let listed = |dir: &Path| -> anyhow::Result<Vec<fs::DirEntry>> {
        fs::read_dir(dir)
            .with_context(|| format!("listing {}", dir.display()))?
            .map(|entry| entry.with_context(|| format!("listing {}", dir.display())))
            .collect()
    };
    if !fs::symlink_metadata(table_dir)?.is_dir() {
        return Ok(Some(table_dir.to_path_buf()));
    }
    for entry in listed(table_dir)? {
        let kind = entry.file_type()?;
        let name = entry.file_name();
        if kind.is_file() && name == PART_FILE {
            continue;
        }
        let is_partition = kind.is_dir() && name.to_string_lossy().starts_with("month=");
        if !is_partition {
            return Ok(Some(entry.path()));
        }
        for inner in listed(&entry.path())? {
            if !(inner.file_type()?.is_file() && inner.file_name() == PART_FILE) {
                return Ok(Some(inner.path()));
            }
        }
    }
    Ok(None)
}

#[cfg(feature = "parquet")]
fn parquet_supported() -> anyhow::Result<()> {
    Ok(())
}

#[cfg(not(feature = "parquet"))]
fn parquet_supported() -> anyhow::Result<()> {
    bail!("this attest was built without Parquet support (the `parquet` cargo feature)")
}

#[cfg(not(feature = "parquet"))]
fn write_table(_: &Ledger, _: &str, _: &Path) -> anyhow::Result<usize> {
    parquet_supported().map(|()| 0)
}

/// Writes one table into `dir`; returns its rows.
#[cfg(feature = "parquet")]
fn write_table(ledger: &Ledger, table: &str, dir: &Path) -> anyhow::Result<usize> {
    let (query, by_month) = attest_ledger::dataset_query(table)
        .with_context(|| format!("{table} is no table of a dataset"))?;
    fs::create_dir(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut sink = partitions::PartitionSink::new(table, dir, by_month);
    let rows = ledger
        .export(&query, &mut sink)
        .with_context(|| format!("exporting {table}"))?;
    sink.finish()?;
    Ok(rows)
}

/// Splits a table's rows into a file per month.
#[cfg(feature = "parquet")]
mod partitions {
    use std::fs::{self, File};
    use std::io::{self, BufWriter};
    use std::path::{Path, PathBuf};

    use attest_ledger::{Cell, Column, MONTH_COLUMN, RowSink};

    use super::{NO_MONTH, PART_FILE};
    use crate::parquet_sink::ParquetSink;

    /// The file being written: its path and its writer.
    struct Part {
        path: PathBuf,
        sink: ParquetSink<BufWriter<File>>,
    }

    pub(super) struct PartitionSink<'a> {
        table: &'a str,
        dir: &'a Path,
        by_month: bool,
        columns: Vec<Column>,
        /// The partition being written, by its directory name (`None`: the
        /// table is not partitioned), and its file.
        current: Option<(Option<String>, Part)>,
        rows: usize,
    }

    impl<'a> PartitionSink<'a> {
        pub(super) fn new(table: &'a str, dir: &'a Path, by_month: bool) -> PartitionSink<'a> {
            PartitionSink {
                table,
                dir,
                by_month,
                columns: Vec::new(),
                current: None,
                rows: 0,
            }
        }

        /// Ends the last file; a table without rows gets one file without
        /// rows, in the partition of no month.
        pub(super) fn finish(mut self) -> io::Result<()> {
            if self.current.is_none() {
                let partition = self.by_month.then(|| format!("{MONTH_COLUMN}={NO_MONTH}"));
                self.open(partition)?;
            }
            self.close()
        }

        fn close(&mut self) -> io::Result<()> {
            let Some((_, part)) = self.current.take() else {
                return Ok(());
            };
            let failed =
                |err: io::Error| io::Error::other(format!("{}: {err}", part.path.display()));
            let file = part.sink.finish().map_err(failed)?;
            let file = file.into_inner().map_err(|err| failed(err.into_error()))?;
            file.sync_all().map_err(failed)
        }

        fn open(&mut self, partition: Option<String>) -> io::Result<()> {
            let dir = match &partition {
                Some(name) => self.dir.join(name),
                None => self.dir.to_path_buf(),
            };
            let path = dir.join(PART_FILE);
            let failed = |err: io::Error| io::Error::other(format!("{}: {err}", path.display()));
            fs::create_dir_all(&dir).map_err(failed)?;
            // A partition met twice would otherwise lose its first rows.
            let file = File::options()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(failed)?;
            let mut sink = ParquetSink::new(BufWriter::new(file));
            sink.columns(&self.columns).map_err(failed)?;
            self.current = Some((partition, Part { path, sink }));
            Ok(())
        }

        /// The partition directory of a row whose month cell is `month`.
        fn partition(&self, month: &Cell) -> io::Result<String> {
            let month = match month {
                Cell::Null => NO_MONTH,
                Cell::Text(month) if is_month(month) => month,
                other => {
                    return Err(io::Error::other(format!(
                        "{}, row {}: the article's published_date gives the month {other:?}, \
                         not YYYY-MM",
                        self.table,
                        self.rows + 1
                    )));
                }
            };
            Ok(format!("{MONTH_COLUMN}={month}"))
        }
    }

    /// Whether `text` is a month as `YYYY-MM`.
    pub(super) fn is_month(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.len() == 7
            && bytes[..4].iter().all(u8::is_ascii_digit)
            && bytes[4] == b'-'
            && matches!(
                &text[5..],
                "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11" | "12"
            )
    }

    impl RowSink for PartitionSink<'_> {
        fn columns(&mut self, columns: &[Column]) -> io::Result<()> {
            let mut columns = columns.to_vec();
            if self.by_month && columns.pop().is_none_or(|last| last.name != MONTH_COLUMN) {
                return Err(io::Error::other(format!(
                    "{}: the ledger's query did not give the {MONTH_COLUMN} column last",
                    self.table
                )));
            }
            self.columns = columns;
            Ok(())
        }

        fn row(&mut self, cells: &[Cell]) -> io::Result<()> {
            let (cells, partition) = if self.by_month {
                let Some((month, cells)) = cells.split_last() else {
                    return Err(io::Error::other(format!(
                        "{}: a row without cells",
                        self.table
                    )));
                };
                (cells, Some(self.partition(month)?))
            } else {
                (cells, None)
            };
            let same = matches!(&self.current, Some((current, _)) if *current == partition);
            if !same {
                self.close()?;
                self.open(partition)?;
            }
            if let Some((_, part)) = &mut self.current {
                part.sink.row(cells)?;
            }
            self.rows += 1;
            Ok(())
        }
    }

    #[cfg(test)]
    mod tests {
        use attest_ledger::ColumnType;

        use super::*;

        fn columns() -> Vec<Column> {
            ["id", MONTH_COLUMN]
                .map(|name| Column {
                    name: name.to_string(),
                    declared: ColumnType::Integer,
                })
                .to_vec()
        }

        fn month(text: &str) -> Cell {
            Cell::Text(text.to_string())
        }

        fn rows_in(path: &Path) -> i64 {
            use parquet::file::reader::{FileReader, SerializedFileReader};
            let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
            reader.metadata().file_metadata().num_rows()
        }

        #[test]
        fn rows_go_to_the_file_of_their_month() {
            let dir = tempfile::tempdir().unwrap();
            let mut sink = PartitionSink::new("quotes", dir.path(), true);
            sink.columns(&columns()).unwrap();
            for (id, of) in [
                (1, Cell::Null),
                (2, month("2016-09")),
                (3, month("2016-09")),
            ] {
                sink.row(&[Cell::Integer(id), of]).unwrap();
            }
            sink.row(&[Cell::Integer(4), month("2016-10")]).unwrap();
            sink.finish().unwrap();
            let rows = |partition: &str| rows_in(&dir.path().join(partition).join(PART_FILE));
            assert_eq!(rows("month=__HIVE_DEFAULT_PARTITION__"), 1);
            assert_eq!(rows("month=2016-09"), 2);
            assert_eq!(rows("month=2016-10"), 1);
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
        }

        #[test]
        fn a_month_met_twice_or_not_a_month_fails() {
            let dir = tempfile::tempdir().unwrap();
            let mut sink = PartitionSink::new("quotes", dir.path(), true);
            sink.columns(&columns()).unwrap();
            sink.row(&[Cell::Integer(1), month("2016-09")]).unwrap();
            sink.row(&[Cell::Integer(2), month("2016-10")]).unwrap();
            let again = sink.row(&[Cell::Integer(3), month("2016-09")]).unwrap_err();
            assert!(again.to_string().contains("month=2016-09"), "{again}");
            let bad = sink.row(&[Cell::Integer(4), month("../x")]).unwrap_err();
            assert!(bad.to_string().contains("quotes, row 3"), "{bad}");
            assert!(!dir.path().join("month=../x").exists());

            let mut sink = PartitionSink::new("quotes", dir.path(), true);
            assert!(sink.columns(&columns()[..1]).is_err(), "no month column");
        }

        #[test]
        fn a_table_without_rows_is_one_file_without_rows() {
            let dir = tempfile::tempdir().unwrap();
            let mut sink = PartitionSink::new("hedges", dir.path(), true);
            sink.columns(&columns()).unwrap();
            sink.finish().unwrap();
            let part = dir
                .path()
                .join("month=__HIVE_DEFAULT_PARTITION__")
                .join(PART_FILE);
            assert_eq!(rows_in(&part), 0);
        }

        #[test]
        fn only_a_month_of_the_calendar_names_a_partition() {
            assert!(is_month("2016-09"));
            assert!(is_month("0001-12"));
            for not_a_month in [
                "2016-13", "2016-00", "2016-9", "16-09-01", "-001-01", "2016/09", "../../x",
            ] {
                assert!(!is_month(not_a_month), "{not_a_month}");
            }
        }
    }
}
