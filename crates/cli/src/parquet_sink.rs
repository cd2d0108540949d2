//! Parquet output for `attest export`: rows gathered into Arrow record batches
//! and written Snappy-compressed.
//!
//! Column types come from the ledger's declared types (INTEGER → Int64, REAL →
//! Float64, TEXT → Utf8). A computed column of a query has no declared type and
//! takes the type of the values of the first batch: Int64 when all are integers,
//! Float64 when all are numbers, Utf8 otherwise. A later value that does not fit
//! its column fails the export with the column and row named, rather than being
//! changed silently.

use std::io::{self, Write};
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use attest_ledger::{Cell, Column, ColumnType, RowSink};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

/// Rows per record batch at most: large enough for good compression, small
/// enough to keep memory flat.
const BATCH_ROWS: usize = 16_384;

/// Bytes of text per record batch at most, so that a batch of long articles
/// holds no more than this however few rows it has.
const BATCH_TEXT_BYTES: usize = 16 << 20;

/// The encoded size at which a row group is closed. The writer holds the open
/// row group in memory, so this bounds it; the size is a function of the
/// rows alone, so the same rows make the same row groups.
const ROW_GROUP_BYTES: usize = 64 << 20;

/// Rows per row group at most (the parquet crate's default, fixed here so
/// that a new version of it does not change the files).
const ROW_GROUP_ROWS: usize = 1 << 20;

pub(crate) struct ParquetSink<W: Write + Send> {
    out: Option<W>,
    columns: Vec<Column>,
    pending: Vec<Vec<Cell>>,
    pending_text_bytes: usize,
    rows_written: usize,
    writer: Option<ArrowWriter<W>>,
    schema: Option<Arc<Schema>>,
}

impl<W: Write + Send> ParquetSink<W> {
    pub(crate) fn new(out: W) -> ParquetSink<W> {
        ParquetSink {
            out: Some(out),
            columns: Vec::new(),
            pending: Vec::new(),
            pending_text_bytes: 0,
            rows_written: 0,
            writer: None,
            schema: None,
        }
    }

    /// Writes the rows still pending and the file footer; returns the output.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        if self.writer.is_none() {
            self.start()?;
        }
        match self.writer.take() {
            Some(writer) => writer.into_inner().map_err(io::Error::other),
            None => Err(io::Error::other("the Parquet writer did not start")),
        }
    }

    /// Fixes the schema from the declared types and the pending rows, and
    /// opens the writer.
    fn start(&mut self) -> io::Result<()> {
        let fields: Vec<Field> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, column)| Field::new(&column.name, self.type_of(i, column.declared), true))
            .collect();
        let schema = Arc::new(Schema::new(fields));
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
            .build();
        let Some(out) = self.out.take() else {
            return Err(io::Error::other("the Parquet writer was started twice"));
        };
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties))
            .map_err(io::Error::other)?;
        self.writer = Some(writer);
        self.schema = Some(schema);
        Ok(())
    }

    fn type_of(&self, column: usize, declared: ColumnType) -> DataType {
        match declared {
            ColumnType::Integer => DataType::Int64,
            ColumnType::Real => DataType::Float64,
            ColumnType::Text => DataType::Utf8,
            ColumnType::Unknown => {
                let values = self.pending.iter().filter_map(|row| row.get(column));
                let mut seen = DataType::Null;
                for value in values {
                    seen = match (value, &seen) {
                        (Cell::Null, _) => seen,
                        (Cell::Integer(_), DataType::Null | DataType::Int64) => DataType::Int64,
                        (
                            Cell::Integer(_) | Cell::Real(_),
                            DataType::Null | DataType::Int64 | DataType::Float64,
                        ) => DataType::Float64,
                        _ => DataType::Utf8,
                    };
                }
                if seen == DataType::Null {
                    DataType::Utf8
                } else {
                    seen
                }
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            self.start()?;
        }
        let (Some(schema), Some(writer)) = (&self.schema, &mut self.writer) else {
            return Err(io::Error::other("the Parquet writer did not start"));
        };
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.columns.len());
        for (i, field) in schema.fields().iter().enumerate() {
            let cells = self
                .pending
                .iter()
                .map(|row| row.get(i).unwrap_or(&Cell::Null));
            let misfit = |row: usize, cell: &Cell| {
                io::Error::other(format!(
                    "column {}, row {}: the value {cell:?} does not fit the column's type {}; \
                     cast it in the query (CAST(... AS TEXT))",
                    field.name(),
                    self.rows_written + row + 1,
                    field.data_type()
                ))
            };
            let array: ArrayRef = match field.data_type() {
                DataType::Int64 => Arc::new(
                    cells
                        .enumerate()
                        .map(|(row, cell)| match cell {
                            Cell::Null => Ok(None),
                            Cell::Integer(v) => Ok(Some(*v)),
                            other => Err(misfit(row, other)),
                        })
                        .collect::<io::Result<Int64Array>>()?,
                ),
                DataType::Float64 => Arc::new(
                    cells
                        .enumerate()
                        .map(|(row, cell)| match cell {
                            Cell::Null => Ok(None),
                            Cell::Integer(v) => Ok(Some(*v as f64)),
                            Cell::Real(v) => Ok(Some(*v)),
                            other => Err(misfit(row, other)),
                        })
                        .collect::<io::Result<Float64Array>>()?,
                ),
                _ => Arc::new(
                    cells
                        .map(|cell| match cell {
                            Cell::Null => None,
                            Cell::Integer(v) => Some(v.to_string()),
                            Cell::Real(v) => Some(v.to_string()),
                            Cell::Text(text) => Some(text.clone()),
                        })
                        .collect::<StringArray>(),
                ),
            };
            arrays.push(array);
        }
        let batch = RecordBatch::try_new(schema.clone(), arrays).map_err(io::Error::other)?;
        writer.write(&batch).map_err(io::Error::other)?;
        self.rows_written += self.pending.len();
        self.pending.clear();
        self.pending_text_bytes = 0;
        Ok(())
    }
}

impl<W: Write + Send> RowSink for ParquetSink<W> {
    fn columns(&mut self, columns: &[Column]) -> io::Result<()> {
        self.columns = columns.to_vec();
        Ok(())
    }

    fn row(&mut self, cells: &[Cell]) -> io::Result<()> {
        self.pending_text_bytes += cells
            .iter()
            .map(|cell| match cell {
                Cell::Text(text) => text.len(),
                _ => 0,
            })
            .sum::<usize>();
        self.pending.push(cells.to_vec());
        if self.pending.len() >= BATCH_ROWS || self.pending_text_bytes >= BATCH_TEXT_BYTES {
            self.flush()?;
        }
        Ok(())
    }
}
