//! Parquet output for `attest export`: rows encoded by the parquet crate's own
//! column writers and written Snappy-compressed. Arrow is not involved: its
//! crates took most of a fresh build's time to hand rows to the same encoder.
//!
//! Column types come from the ledger's declared types (INTEGER → INT64, REAL →
//! DOUBLE, TEXT → BYTE_ARRAY annotated as a UTF-8 string, which pyarrow and
//! Spark read as `string`). Every column is OPTIONAL, a null being a definition
//! level of 0. A computed column of a query has no declared type and takes the
//! type of the values of the first batch: INT64 when all are integers, DOUBLE
//! when all are numbers, a string otherwise. A later value that does not fit
//! its column fails the export with the column and row named, rather than
//! being changed silently; a number in a string column is written as text.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use attest_ledger::{Cell, Column, ColumnType, RowSink};
use bytes::Bytes;
use parquet::basic::{Compression, LogicalType, Repetition, Type as PhysicalType};
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::{ColumnWriter, get_column_writer};
use parquet::data_type::ByteArray;
use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::Type;

/// Rows per batch at most: large enough for good compression, small enough
/// to keep memory flat.
const BATCH_ROWS: usize = 16_384;

/// Bytes of text per batch at most, so that a batch of long articles holds no
/// more than this however few rows it has.
const BATCH_TEXT_BYTES: usize = 16 << 20;

/// The size at which a row group is closed, counted as the bytes of its values
/// plainly encoded (8 per number, a string's length and 4). A row group is
/// held in memory until it is closed, and its encoded pages are never larger
/// than that, so this bounds memory; the count is a function of the rows
/// alone, so the same rows make the same row groups.
const ROW_GROUP_BYTES: usize = 64 << 20;

/// Rows per row group at most (the parquet crate's default, fixed here so
/// that a new version of it does not change the files).
const ROW_GROUP_ROWS: usize = 1 << 20;

/// The type of a column in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Integer,
    Real,
    Text,
}

impl Kind {
    /// The name a misfit's error gives the type.
    fn name(self) -> &'static str {
        match self {
            Kind::Integer => "INT64",
            Kind::Real => "DOUBLE",
            Kind::Text => "string",
        }
    }

    /// The column's field in the file's schema.
    fn field(self, name: &str) -> parquet::errors::Result<Type> {
        let builder = match self {
            Kind::Integer => Type::primitive_type_builder(name, PhysicalType::INT64),
            Kind::Real => Type::primitive_type_builder(name, PhysicalType::DOUBLE),
            Kind::Text => Type::primitive_type_builder(name, PhysicalType::BYTE_ARRAY)
                .with_logical_type(Some(LogicalType::String)),
        };
        builder.with_repetition(Repetition::OPTIONAL).build()
    }
}

/// Bytes `cell` takes plainly encoded (a number cast to text counted as a
/// number); a null takes none.
fn plain_bytes(cell: &Cell) -> usize {
    match cell {
        Cell::Null => 0,
        Cell::Integer(_) | Cell::Real(_) => 8,
        Cell::Text(text) => text.len() + 4,
    }
}

/// The encoded pages of one column chunk. The file takes the columns of a row
/// group one after the other while the rows come a batch at a time, so every
/// column of the open row group is encoded into memory and copied to the file
/// when the row group closes. The column writer owns the page writer, hence
/// the shared buffer.
#[derive(Clone)]
struct Chunk(Arc<Mutex<TrackedWrite<Vec<u8>>>>);

impl Chunk {
    fn new() -> Chunk {
        Chunk(Arc::new(Mutex::new(TrackedWrite::new(Vec::new()))))
    }

    /// The bytes written so far, leaving the chunk empty.
    fn take(&self) -> parquet::errors::Result<Bytes> {
        let mut sink = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let sink = std::mem::replace(&mut *sink, TrackedWrite::new(Vec::new()));
        Ok(Bytes::from(sink.into_inner()?))
    }
}

impl PageWriter for Chunk {
    fn write_page(&mut self, page: CompressedPage) -> parquet::errors::Result<PageWriteSpec> {
        let mut sink = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        SerializedPageWriter::new(&mut sink).write_page(page)
    }

    fn close(&mut self) -> parquet::errors::Result<()> {
        Ok(())
    }
}

/// The row group being written: a writer per column and what it holds.
struct RowGroup {
    columns: Vec<(ColumnWriter<'static>, Chunk)>,
    rows: usize,
    bytes: usize,
}

impl RowGroup {
    fn is_full(&self, max_rows: usize) -> bool {
        self.rows >= max_rows || self.bytes >= ROW_GROUP_BYTES
    }
}

pub(crate) struct ParquetSink<W: Write + Send> {
    out: Option<W>,
    columns: Vec<Column>,
    pending: Vec<Vec<Cell>>,
    pending_text_bytes: usize,
    rows_written: usize,
    writer: Option<SerializedFileWriter<W>>,
    properties: WriterPropertiesPtr,
    kinds: Vec<Kind>,
    group: Option<RowGroup>,
    /// [`ROW_GROUP_ROWS`], which the tests lower to see row groups split.
    row_group_rows: usize,
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
            properties: Arc::new(
                WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .build(),
            ),
            kinds: Vec::new(),
            group: None,
            row_group_rows: ROW_GROUP_ROWS,
        }
    }

    /// Writes the rows still pending and the file footer; returns the output.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        if self.writer.is_none() {
            self.start()?;
        }
        self.close_group()?;
        match self.writer.take() {
            Some(writer) => writer.into_inner().map_err(io::Error::other),
            None => Err(io::Error::other("the Parquet writer did not start")),
        }
    }

    /// Fixes the schema from the declared types and the pending rows, and
    /// opens the writer.
    fn start(&mut self) -> io::Result<()> {
        self.kinds = (0..self.columns.len())
            .map(|i| self.kind_of(i, self.columns[i].declared))
            .collect();
        let fields = self
            .columns
            .iter()
            .zip(&self.kinds)
            .map(|(column, kind)| kind.field(&column.name).map(Arc::new))
            .collect::<parquet::errors::Result<Vec<_>>>()
            .map_err(io::Error::other)?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()
            .map_err(io::Error::other)?;
        let Some(out) = self.out.take() else {
            return Err(io::Error::other("the Parquet writer was started twice"));
        };
        let writer = SerializedFileWriter::new(out, Arc::new(schema), self.properties.clone())
            .map_err(io::Error::other)?;
        self.writer = Some(writer);
        Ok(())
    }

    fn kind_of(&self, column: usize, declared: ColumnType) -> Kind {
        match declared {
            ColumnType::Integer => Kind::Integer,
            ColumnType::Real => Kind::Real,
            ColumnType::Text => Kind::Text,
            ColumnType::Unknown => {
                let values = self.pending.iter().filter_map(|row| row.get(column));
                let mut seen = None;
                for value in values {
                    seen = match (value, seen) {
                        (Cell::Null, _) => seen,
                        (Cell::Integer(_), None | Some(Kind::Integer)) => Some(Kind::Integer),
                        (
                            Cell::Integer(_) | Cell::Real(_),
                            None | Some(Kind::Integer | Kind::Real),
                        ) => Some(Kind::Real),
                        _ => Some(Kind::Text),
                    };
                }
                seen.unwrap_or(Kind::Text)
            }
        }
    }

    /// Opens a row group: a column writer per column, each into its chunk.
    fn open_group(&self) -> io::Result<RowGroup> {
        let Some(writer) = &self.writer else {
            return Err(io::Error::other("the Parquet writer did not start"));
        };
        let columns = writer
            .schema_descr()
            .columns()
            .iter()
            .map(|descr| {
                let chunk = Chunk::new();
                let column = get_column_writer(
                    descr.clone(),
                    self.properties.clone(),
                    Box::new(chunk.clone()),
                );
                (column, chunk)
            })
            .collect();
        Ok(RowGroup {
            columns,
            rows: 0,
            bytes: 0,
        })
    }

    /// Writes the open row group, if it holds rows, to the file.
    fn close_group(&mut self) -> io::Result<()> {
        let (Some(group), Some(writer)) = (self.group.take(), &mut self.writer) else {
            return Ok(());
        };
        let mut out = writer.next_row_group().map_err(io::Error::other)?;
        for (column, chunk) in group.columns {
            let closed = column.close().map_err(io::Error::other)?;
            let bytes = chunk.take().map_err(io::Error::other)?;
            out.append_column(&bytes, closed)
                .map_err(io::Error::other)?;
        }
        out.close().map_err(io::Error::other)?;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            self.start()?;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut start = 0;
        while start < pending.len() {
            let mut group = match self.group.take() {
                Some(group) => group,
                None => self.open_group()?,
            };
            // Rows up to the row group's bounds; the row that reaches them is
            // the group's last.
            let mut end = start;
            while end < pending.len() && !group.is_full(self.row_group_rows) {
                group.bytes += pending[end].iter().map(plain_bytes).sum::<usize>();
                group.rows += 1;
                end += 1;
            }
            self.write_rows(&mut group, &pending[start..end], self.rows_written + start)?;
            let full = group.is_full(self.row_group_rows);
            self.group = Some(group);
            if full {
                self.close_group()?;
            }
            start = end;
        }
        self.rows_written += pending.len();
        self.pending_text_bytes = 0;
        Ok(())
    }

    /// Encodes `rows` into the row group's columns; `before` rows of the
    /// export precede them.
    fn write_rows(
        &self,
        group: &mut RowGroup,
        rows: &[Vec<Cell>],
        before: usize,
    ) -> io::Result<()> {
        for (i, (column, _)) in group.columns.iter_mut().enumerate() {
            let name = self.columns.get(i).map_or("", |c| c.name.as_str());
            let kind = self.kinds.get(i).copied().unwrap_or(Kind::Text);
            let cells = rows.iter().map(|row| row.get(i).unwrap_or(&Cell::Null));
            let written = match column {
                ColumnWriter::Int64ColumnWriter(writer) => {
                    let (values, levels) = encode(cells, name, kind, before, |cell| match cell {
                        Cell::Integer(v) => Some(*v),
                        _ => None,
                    })?;
                    writer.write_batch(&values, Some(&levels), None)
                }
                ColumnWriter::DoubleColumnWriter(writer) => {
                    let (values, levels) = encode(cells, name, kind, before, |cell| match cell {
                        Cell::Integer(v) => Some(*v as f64),
                        Cell::Real(v) => Some(*v),
                        _ => None,
                    })?;
                    writer.write_batch(&values, Some(&levels), None)
                }
                ColumnWriter::ByteArrayColumnWriter(writer) => {
                    let (values, levels) = encode(cells, name, kind, before, |cell| {
                        Some(match cell {
                            Cell::Integer(v) => ByteArray::from(v.to_string().into_bytes()),
                            Cell::Real(v) => ByteArray::from(v.to_string().into_bytes()),
                            Cell::Text(text) => ByteArray::from(text.as_str()),
                            // Not reached: `encode` takes a null as a level.
                            Cell::Null => ByteArray::new(),
                        })
                    })?;
                    writer.write_batch(&values, Some(&levels), None)
                }
                _ => {
                    return Err(io::Error::other(format!(
                        "column {name}: no writer for its type {}",
                        kind.name()
                    )));
                }
            };
            written.map_err(io::Error::other)?;
        }
        Ok(())
    }
}

/// The values of a column's non-null cells, converted by `convert`, and the
/// definition level of every cell (0: null, 1: a value). A cell `convert`
/// refuses fails with the column and its row in the export, `before` rows
/// preceding the first cell.
fn encode<'a, T>(
    cells: impl Iterator<Item = &'a Cell>,
    name: &str,
    kind: Kind,
    before: usize,
    convert: impl Fn(&Cell) -> Option<T>,
) -> io::Result<(Vec<T>, Vec<i16>)> {
    let mut values = Vec::new();
    let mut levels = Vec::new();
    for (row, cell) in cells.enumerate() {
        if matches!(cell, Cell::Null) {
            levels.push(0);
            continue;
        }
        let Some(value) = convert(cell) else {
            return Err(io::Error::other(format!(
                "column {name}, row {}: the value {cell:?} does not fit the column's type {}; \
                 cast it in the query (CAST(... AS TEXT))",
                before + row + 1,
                kind.name()
            )));
        };
        values.push(value);
        levels.push(1);
    }
    Ok((values, levels))
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

#[cfg(test)]
mod tests {
    use parquet::basic::ConvertedType;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    use super::*;

    fn column(name: &str, declared: ColumnType) -> Column {
        Column {
            name: name.to_string(),
            declared,
        }
    }

    fn text(value: &str) -> Cell {
        Cell::Text(value.to_string())
    }

    /// The file a sink with `columns` makes of `rows`, the sink's row groups
    /// holding `row_group_rows` rows at most.
    fn written(
        columns: &[Column],
        rows: &[Vec<Cell>],
        row_group_rows: usize,
    ) -> io::Result<Vec<u8>> {
        let mut sink = ParquetSink::new(Vec::new());
        sink.row_group_rows = row_group_rows;
        sink.columns(columns)?;
        for row in rows {
            sink.row(row)?;
        }
        sink.finish()
    }

    fn reader(file: Vec<u8>) -> SerializedFileReader<Bytes> {
        SerializedFileReader::new(Bytes::from(file)).unwrap()
    }

    /// The file's columns: name, physical type, logical type, whether optional.
    fn schema(
        reader: &SerializedFileReader<Bytes>,
    ) -> Vec<(String, PhysicalType, ConvertedType, bool)> {
        let metadata = reader.metadata();
        metadata
            .file_metadata()
            .schema_descr()
            .columns()
            .iter()
            .map(|c| {
                let optional = c.self_type().get_basic_info().repetition() == Repetition::OPTIONAL;
                (
                    c.name().to_string(),
                    c.physical_type(),
                    c.converted_type(),
                    optional,
                )
            })
            .collect()
    }

    fn fields(reader: &SerializedFileReader<Bytes>) -> Vec<Vec<Field>> {
        reader
            .get_row_iter(None)
            .unwrap()
            .map(|row| {
                row.unwrap()
                    .get_column_iter()
                    .map(|(_, f)| f.clone())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn each_type_holds_its_values_and_nulls() {
        let columns = [
            column("n", ColumnType::Integer),
            column("x", ColumnType::Real),
            column("who", ColumnType::Text),
        ];
        let rows = vec![
            vec![Cell::Integer(7), Cell::Real(0.5), text("Ana Ruiz")],
            vec![Cell::Null, Cell::Null, Cell::Null],
            vec![Cell::Integer(-3), Cell::Integer(2), text("")],
        ];
        let file = reader(written(&columns, &rows, ROW_GROUP_ROWS).unwrap());
        assert_eq!(
            schema(&file),
            [
                (
                    "n".to_string(),
                    PhysicalType::INT64,
                    ConvertedType::NONE,
                    true
                ),
                (
                    "x".to_string(),
                    PhysicalType::DOUBLE,
                    ConvertedType::NONE,
                    true
                ),
                (
                    "who".to_string(),
                    PhysicalType::BYTE_ARRAY,
                    ConvertedType::UTF8,
                    true
                ),
            ]
        );
        let who = &file.metadata().file_metadata().schema_descr().columns()[2];
        assert_eq!(who.logical_type_ref(), Some(&LogicalType::String));
        assert_eq!(
            fields(&file),
            [
                vec![
                    Field::Long(7),
                    Field::Double(0.5),
                    Field::Str("Ana Ruiz".into())
                ],
                vec![Field::Null, Field::Null, Field::Null],
                vec![
                    Field::Long(-3),
                    Field::Double(2.0),
                    Field::Str(String::new())
                ],
            ]
        );
        let compression = file.metadata().row_group(0).column(0).compression();
        assert_eq!(compression, Compression::SNAPPY);
    }

    #[test]
    fn a_computed_column_takes_the_type_of_its_first_values() {
        let columns = [
            column("ints", ColumnType::Unknown),
            column("reals", ColumnType::Unknown),
            column("mixed", ColumnType::Unknown),
            column("nulls", ColumnType::Unknown),
        ];
        let rows = vec![
            vec![
                Cell::Integer(1),
                Cell::Integer(1),
                Cell::Integer(1),
                Cell::Null,
            ],
            vec![Cell::Null, Cell::Real(1.5), text("two"), Cell::Null],
        ];
        let file = reader(written(&columns, &rows, ROW_GROUP_ROWS).unwrap());
        let types: Vec<PhysicalType> = schema(&file).into_iter().map(|c| c.1).collect();
        assert_eq!(
            types,
            [
                PhysicalType::INT64,
                PhysicalType::DOUBLE,
                PhysicalType::BYTE_ARRAY,
                PhysicalType::BYTE_ARRAY
            ]
        );
        // A number in a text column is written as its text.
        assert_eq!(fields(&file)[0][2], Field::Str("1".into()));
    }

    #[test]
    fn a_misfit_names_its_column_and_row() {
        let columns = [column("n", ColumnType::Integer)];
        let rows = vec![
            vec![Cell::Integer(1)],
            vec![Cell::Null],
            vec![text("three")],
        ];
        let err = written(&columns, &rows, ROW_GROUP_ROWS).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("column n, row 3"), "{message}");
        assert!(message.contains("INT64"), "{message}");
    }

    #[test]
    fn an_export_without_rows_is_a_file_with_its_schema() {
        let columns = [
            column("n", ColumnType::Integer),
            column("who", ColumnType::Text),
        ];
        let file = reader(written(&columns, &[], ROW_GROUP_ROWS).unwrap());
        assert_eq!(file.metadata().file_metadata().num_rows(), 0);
        assert_eq!(file.metadata().num_row_groups(), 0);
        let names: Vec<String> = schema(&file).into_iter().map(|c| c.0).collect();
        assert_eq!(names, ["n", "who"]);
    }

    #[test]
    fn row_groups_split_at_their_bound_and_the_file_is_deterministic() {
        let columns = [
            column("n", ColumnType::Integer),
            column("who", ColumnType::Text),
        ];
        let rows: Vec<Vec<Cell>> = (0..25)
            .map(|n| vec![Cell::Integer(n), text(&format!("speaker {}", n % 4))])
            .collect();
        let bytes = written(&columns, &rows, 10).unwrap();
        assert_eq!(bytes, written(&columns, &rows, 10).unwrap());
        let file = reader(bytes);
        let sizes: Vec<i64> = file
            .metadata()
            .row_groups()
            .iter()
            .map(|group| group.num_rows())
            .collect();
        assert_eq!(sizes, [10, 10, 5]);
        let read: Vec<Field> = fields(&file)
            .into_iter()
            .map(|row| row[0].clone())
            .collect();
        let expected: Vec<Field> = (0..25).map(Field::Long).collect();
        assert_eq!(read, expected);
    }
}
