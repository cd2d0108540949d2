//! Printing query results: aligned tables for people, JSON and CSV for machines.

use std::io::{self, Write};

use attest_ledger::{Cell, Tabular};
use attest_write::terminal_safe;
use serde::Serialize;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::ledger_flags::QueryFormat;

/// The widest a text column is drawn in a table, in terminal columns; longer
/// texts end in "…".
const MAX_TEXT_COLUMN: usize = 60;

/// Prints rows in `format` to standard output.
pub(crate) fn print<T: Tabular + Serialize>(rows: &[T], format: QueryFormat) -> anyhow::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match format {
        QueryFormat::Table => write_table(rows, &mut out)?,
        QueryFormat::Json | QueryFormat::Jsonl => return print_json(rows, format),
        QueryFormat::Csv => {
            write_csv_row(
                &mut out,
                T::columns().iter().map(|c| Cell::Text(c.to_string())),
            )?;
            for row in rows {
                write_csv_row(&mut out, row.cells())?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Prints rows that are only ever printed as JSON (`--format json` or
/// `jsonl`), such as a claim with its appearances nested.
pub(crate) fn print_json<T: Serialize>(rows: &[T], format: QueryFormat) -> anyhow::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    if format == QueryFormat::Jsonl {
        for row in rows {
            serde_json::to_writer(&mut out, row)?;
            writeln!(out)?;
        }
    } else {
        serde_json::to_writer_pretty(&mut out, rows)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}

fn write_table<T: Tabular>(rows: &[T], out: &mut dyn Write) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "(nothing found)");
    }
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.cells().iter().map(table_text).collect())
        .collect();
    let numeric: Vec<bool> = (0..T::columns().len())
        .map(|i| {
            rows.iter().all(|row| {
                matches!(
                    row.cells().get(i),
                    Some(Cell::Integer(_) | Cell::Real(_) | Cell::Null)
                )
            })
        })
        .collect();
    let widths: Vec<usize> = T::columns()
        .iter()
        .enumerate()
        .map(|(i, name)| {
            texts
                .iter()
                .map(|row| row[i].width())
                .chain([name.width()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String], out: &mut dyn Write| -> io::Result<()> {
        let mut parts = Vec::with_capacity(cells.len());
        for (i, cell) in cells.iter().enumerate() {
            let pad = widths[i].saturating_sub(cell.width());
            let last = i + 1 == cells.len();
            parts.push(if numeric[i] {
                format!("{}{cell}", " ".repeat(pad))
            } else if last {
                cell.clone()
            } else {
                format!("{cell}{}", " ".repeat(pad))
            });
        }
        writeln!(out, "{}", parts.join("  ").trim_end())
    };
    let header: Vec<String> = T::columns().iter().map(|c| c.to_string()).collect();
    line(&header, out)?;
    let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
    line(&rule, out)?;
    for row in &texts {
        line(row, out)?;
    }
    Ok(())
}

/// A cell as a table shows it: on one line, shortened to [`MAX_TEXT_COLUMN`]
/// terminal columns (a CJK character or an emoji takes two).
fn table_text(cell: &Cell) -> String {
    match cell {
        Cell::Null => "—".to_string(),
        Cell::Integer(v) => v.to_string(),
        Cell::Real(v) => format!("{v:.4}"),
        Cell::Text(text) => {
            let flat: String = text
                .chars()
                .map(|c| if c.is_whitespace() { ' ' } else { c })
                .collect();
            let flat = terminal_safe(&flat, false).into_owned();
            if flat.width() <= MAX_TEXT_COLUMN {
                return flat;
            }
            let mut cut = String::new();
            let mut width = 0;
            for c in flat.chars() {
                width += c.width().unwrap_or(0);
                if width > MAX_TEXT_COLUMN - 1 {
                    break;
                }
                cut.push(c);
            }
            cut.push('…');
            cut
        }
    }
}

/// Writes one CSV record, quoted as RFC 4180 says (fields with commas, quotes or
/// line breaks are quoted, quotes doubled; an empty field is a null), ending in `\n`.
pub(crate) fn write_csv_row(
    out: &mut dyn Write,
    cells: impl IntoIterator<Item = Cell>,
) -> io::Result<()> {
    let mut first = true;
    for cell in cells {
        if !first {
            out.write_all(b",")?;
        }
        first = false;
        match cell {
            Cell::Null => {}
            Cell::Integer(v) => write!(out, "{v}")?,
            Cell::Real(v) => write!(out, "{v}")?,
            Cell::Text(text) => {
                if text.contains([',', '"', '\n', '\r']) {
                    write!(out, "\"{}\"", text.replace('"', "\"\""))?;
                } else {
                    out.write_all(text.as_bytes())?;
                }
            }
        }
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_only_what_needs_quoting() {
        let mut out = Vec::new();
        write_csv_row(
            &mut out,
            [
                Cell::Text("plain".into()),
                Cell::Text("a, \"b\"".into()),
                Cell::Null,
                Cell::Integer(3),
                Cell::Real(0.25),
            ],
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "plain,\"a, \"\"b\"\"\",,3,0.25\n"
        );
    }

    #[test]
    fn long_texts_are_cut_in_tables_and_kept_on_one_line() {
        let long = Cell::Text(format!("first\nline {}", "x".repeat(100)));
        let shown = table_text(&long);
        assert_eq!(shown.width(), MAX_TEXT_COLUMN);
        assert!(shown.starts_with("first line") && shown.ends_with('…'));
    }

    #[test]
    fn long_wide_texts_are_cut_to_the_column_width() {
        let shown = table_text(&Cell::Text("報道".repeat(40)));
        assert!(shown.width() <= MAX_TEXT_COLUMN, "{shown}");
        assert!(shown.width() >= MAX_TEXT_COLUMN - 1, "{shown}");
        assert!(shown.ends_with('…'));
    }

    struct Said {
        who: &'static str,
        count: i64,
    }

    impl Tabular for Said {
        fn columns() -> &'static [&'static str] {
            &["who", "count", "note"]
        }

        fn cells(&self) -> Vec<Cell> {
            vec![
                Cell::Text(self.who.into()),
                Cell::Integer(self.count),
                Cell::Text("x".into()),
            ]
        }
    }

    #[test]
    fn wide_characters_keep_the_columns_aligned() {
        let rows = [
            Said {
                who: "Ann Lee",
                count: 3,
            },
            Said {
                who: "王小明",
                count: 12,
            },
            Said {
                who: "Zoë 🎤",
                count: 7,
            },
        ];
        let mut out = Vec::new();
        write_table(&rows, &mut out).unwrap();
        let table = String::from_utf8(out).unwrap();
        // Every line's last column starts at the same terminal column.
        let starts: Vec<usize> = table
            .lines()
            .map(|line| line[..line.rfind("  ").unwrap() + 2].width())
            .collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{table}");
    }

    #[test]
    fn control_characters_in_cells_are_shown_escaped() {
        let shown = table_text(&Cell::Text("Ann\u{1b}]0;pwned\u{7}\u{202e}Lee".into()));
        assert_eq!(shown, "Ann\\u{1b}]0;pwned\\u{7}\\u{202e}Lee");
    }
}
