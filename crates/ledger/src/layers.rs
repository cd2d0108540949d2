//! The tables of the layers whose records belong to one article and link to
//! nothing else stored: hedges, entities, quantities and times. Each is
//! described once, by a [`LayerTable`], and the schema, the writer, the check
//! and the export loop over [`LAYER_TABLES`], so that a new layer of that
//! kind is one entry here (see "Adding a layer" in ARCHITECTURE.md).
//!
//! Sources, attributions and quotations are written by `store` itself: their
//! rows link to each other and feed the full-text indexes.

use attest_doc::{Doc, Layer, Span, serde_name};
use rusqlite::types::Value;

use crate::batch::Rows;
use crate::db::{Conn, DbResult};

/// One layer's table: a row per record of the layer, numbered `idx` in the
/// layer's order under its article, and a count of them beside the article.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerTable {
    /// The table's name, which is also its name for `attest export`.
    pub(crate) name: &'static str,
    /// The layer whose records are the rows; an article whose layer was not
    /// looked for has no rows and a `NULL` count.
    pub(crate) layer: Layer,
    /// The column of `articles` that counts the article's rows.
    pub(crate) count: &'static str,
    /// The schema version that made the table (see `schema::SCHEMA_VERSION`).
    pub(crate) since: i64,
    /// The columns after `id`, `article` and `idx`, each with its SQLite
    /// declaration (PostgreSQL's is translated by `schema`).
    pub(crate) columns: &'static [(&'static str, &'static str)],
    /// The values of each record's row, one per column.
    pub(crate) rows: fn(&Doc) -> Vec<Vec<Value>>,
}

/// The layer tables, in the order they are created, stored and exported.
pub(crate) const LAYER_TABLES: [LayerTable; 4] = [
    LayerTable {
        name: "hedges",
        layer: Layer::Hedges,
        count: "n_hedges",
        since: 1,
        columns: &[
            ("cue_start", "INTEGER NOT NULL"),
            ("cue_end", "INTEGER NOT NULL"),
            ("cue_text", "TEXT NOT NULL"),
            ("scope_start", "INTEGER NOT NULL"),
            ("scope_end", "INTEGER NOT NULL"),
            ("scope_text", "TEXT NOT NULL"),
        ],
        rows: |doc| {
            let hedges = doc.hedges().iter();
            hedges
                .map(|h| [span(doc, h.cue), span(doc, h.scope)].concat())
                .collect()
        },
    },
    LayerTable {
        name: "entities",
        layer: Layer::Entities,
        count: "n_entities",
        since: 1,
        columns: &[
            SPAN_COLUMNS[0],
            SPAN_COLUMNS[1],
            SPAN_COLUMNS[2],
            ("label", "TEXT NOT NULL"),
            ("cluster", "INTEGER NOT NULL"),
        ],
        rows: |doc| {
            let entities = doc.entities().iter();
            entities
                .map(|e| {
                    let label = Value::Text(serde_name(&e.label));
                    let cluster = Value::Integer(e.cluster.index() as i64);
                    [span(doc, e.span), vec![label, cluster]].concat()
                })
                .collect()
        },
    },
    LayerTable {
        name: "quantities",
        layer: Layer::Quantities,
        count: "n_quantities",
        since: 1,
        columns: &[
            SPAN_COLUMNS[0],
            SPAN_COLUMNS[1],
            SPAN_COLUMNS[2],
            ("low", "REAL"),
            ("high", "REAL"),
            ("unit", "TEXT NOT NULL"),
        ],
        rows: |doc| {
            // An infinite or NaN bound is no number a database can compare.
            let number =
                |v: Option<f64>| v.filter(|v| v.is_finite()).map_or(Value::Null, Value::Real);
            let quantities = doc.quantities().iter();
            quantities
                .map(|q| {
                    let values = vec![number(q.low), number(q.high), Value::Text(q.unit.clone())];
                    [span(doc, q.span), values].concat()
                })
                .collect()
        },
    },
    LayerTable {
        name: "times",
        layer: Layer::Times,
        count: "n_times",
        since: 1,
        columns: &[
            SPAN_COLUMNS[0],
            SPAN_COLUMNS[1],
            SPAN_COLUMNS[2],
            ("value", "TEXT"),
            ("granularity", "TEXT"),
            ("unresolved", "TEXT"),
        ],
        rows: |doc| {
            let times = doc.times().iter();
            times
                .map(|t| {
                    let values = vec![
                        text(t.value.clone()),
                        text(t.granularity.map(|g| serde_name(&g))),
                        text(t.unresolved.clone()),
                    ];
                    [span(doc, t.span), values].concat()
                })
                .collect()
        },
    },
];

/// The columns of a record's one span, as [`span`] gives their values.
pub(crate) const SPAN_COLUMNS: [(&str, &str); 3] = [
    ("byte_start", "INTEGER NOT NULL"),
    ("byte_end", "INTEGER NOT NULL"),
    ("text", "TEXT NOT NULL"),
];

/// A span's values: its byte offsets and its text.
pub(crate) fn span(doc: &Doc, span: Span) -> Vec<Value> {
    vec![
        Value::Integer(span.byte_start() as i64),
        Value::Integer(span.byte_end() as i64),
        Value::Text(doc.span_text(span).to_string()),
    ]
}

fn text(value: Option<String>) -> Value {
    value.map_or(Value::Null, Value::Text)
}

/// The names of the layer tables, in order, for the list of tables that
/// export knows (which must be a constant).
pub(crate) const NAMES: [&str; LAYER_TABLES.len()] = {
    let mut names = [""; LAYER_TABLES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = LAYER_TABLES[i].name;
        i += 1;
    }
    names
};

/// The newest schema version a layer table needs.
pub(crate) const NEWEST: i64 = {
    let mut newest = 0;
    let mut i = 0;
    while i < LAYER_TABLES.len() {
        if LAYER_TABLES[i].since > newest {
            newest = LAYER_TABLES[i].since;
        }
        i += 1;
    }
    newest
};

/// The statements, in SQLite's types, that make the tables of `version`.
pub(crate) fn create(version: i64) -> String {
    LAYER_TABLES
        .iter()
        .filter(|table| table.since == version)
        .map(LayerTable::create)
        .collect()
}

/// What an article's layers hold for their tables: for each of
/// [`LAYER_TABLES`], its rows, or `None` where the layer was not looked for.
pub(crate) type ArticleRows = Vec<Option<Vec<Vec<Value>>>>;

/// The rows of every layer table for one article.
pub(crate) fn rows_of(doc: &Doc) -> ArticleRows {
    LAYER_TABLES
        .iter()
        .map(|table| table.rows_of(doc))
        .collect()
}

/// The rows of layer tables, gathered over a batch of articles and written
/// by one statement a table.
pub(crate) struct BatchRows(Vec<Rows>);

impl BatchRows {
    /// No rows yet, for `tables` (the store's are [`LAYER_TABLES`]).
    pub(crate) fn of(tables: &[LayerTable]) -> BatchRows {
        BatchRows(
            tables
                .iter()
                .map(|table| {
                    let columns: Vec<&'static str> = ["article", "idx"]
                        .into_iter()
                        .chain(table.columns.iter().map(|(name, _)| *name))
                        .collect();
                    Rows::new(table.name, &columns)
                })
                .collect(),
        )
    }

    /// Adds the rows of the article stored as `article`, numbered in order:
    /// for each table, as [`rows_of`] gives them.
    pub(crate) fn add(&mut self, article: i64, rows: ArticleRows) -> DbResult<()> {
        for (table, rows) in self.0.iter_mut().zip(rows) {
            for (idx, values) in rows.unwrap_or_default().into_iter().enumerate() {
                table.push(
                    [Value::Integer(article), Value::Integer(idx as i64)]
                        .into_iter()
                        .chain(values),
                )?;
            }
        }
        Ok(())
    }

    /// Stores the rows.
    pub(crate) fn insert(self, tx: &Conn<'_>) -> DbResult<()> {
        self.0.into_iter().try_for_each(|rows| rows.insert(tx))
    }
}

impl LayerTable {
    /// The statements that make the table. Version 1 declared its counts in
    /// its `CREATE TABLE articles`; a table of a later version adds its own.
    pub(crate) fn create(&self) -> String {
        let mut sql = format!(
            "\nCREATE TABLE {} (\n    id INTEGER PRIMARY KEY,\n    \
             article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,\n    \
             idx INTEGER NOT NULL,\n",
            self.name
        );
        for (column, declaration) in self.columns {
            sql.push_str(&format!("    {column} {declaration},\n"));
        }
        sql.push_str("    UNIQUE (article, idx)\n);\n");
        if self.since > 1 {
            sql.push_str(&format!(
                "ALTER TABLE articles ADD COLUMN {} INTEGER;\n",
                self.count
            ));
        }
        sql
    }

    /// The rows of one article, or `None` where the layer was not looked for.
    pub(crate) fn rows_of(&self, doc: &Doc) -> Option<Vec<Vec<Value>>> {
        doc.has(self.layer).then(|| (self.rows)(doc))
    }
}

#[cfg(test)]
#[path = "../../../tests/generated_docs.rs"]
mod generated_docs;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::generated_docs;

    /// The most files "Adding a layer" may list, as issue 29 asks: the
    /// ledger's share is one file, and the views in JSON, the docs and the
    /// re-exports follow from the others. The list may shrink, never grow.
    const MOST_FILES: usize = 7;

    /// The files ARCHITECTURE.md's "Adding a layer" lists, each with whether
    /// the layer makes it new: the backquoted paths before each bullet's colon.
    fn listed_files(architecture: &str) -> Vec<(String, bool)> {
        let section = architecture
            .split("\n### ")
            .find(|section| section.starts_with("Adding a layer\n"))
            .expect("ARCHITECTURE.md has a section \"Adding a layer\"");
        let mut files = Vec::new();
        for bullet in section.lines().filter_map(|line| line.strip_prefix("- ")) {
            let new = bullet.starts_with("new ");
            let head = bullet.split("`:").next().unwrap_or_default();
            let paths = head.split('`').skip(1).step_by(2);
            files.extend(paths.map(|path| (path.to_string(), new)));
        }
        files
    }

    #[test]
    fn adding_a_layer_lists_files_that_exist_and_no_more_than_allowed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let files = listed_files(&architecture);
        for (path, new) in &files {
            assert_eq!(root.join(path).is_file(), !new, "{path}");
        }
        let ledger: Vec<&str> = files
            .iter()
            .map(|(path, _)| path.as_str())
            .filter(|path| path.starts_with("crates/ledger/"))
            .collect();
        assert_eq!(ledger, ["crates/ledger/src/layers.rs"]);
        assert!(
            files.len() <= MOST_FILES,
            "{} files: {files:?}",
            files.len()
        );
        let said = format!("That is {} files", files.len());
        assert!(architecture.contains(&said), "the section says \"{said}\"");
    }

    /// The layer tables as docs/ledger.md lists them.
    fn tables_doc() -> String {
        let mut doc = String::from(
            "| table | count in `articles` | columns after `id`, `article`, `idx` |\n|---|---|---|\n",
        );
        for table in &super::LAYER_TABLES {
            let columns: Vec<String> = table
                .columns
                .iter()
                .map(|(c, _)| format!("`{c}`"))
                .collect();
            let (name, count) = (table.name, table.count);
            doc.push_str(&format!(
                "| `{name}` | `{count}` | {} |\n",
                columns.join(", ")
            ));
        }
        doc
    }

    /// docs/ledger.md lists the layer tables as [`super::LAYER_TABLES`] has
    /// them, so that a new one is written there, not by hand.
    #[test]
    fn the_docs_list_the_generated_layer_tables() {
        generated_docs::check("docs/ledger.md", &tables_doc());
    }

    #[test]
    fn the_list_is_read_from_each_bullets_head() {
        let architecture = "# A\n\n### Adding a layer\n\nTouches:\n\n\
            - `a.rs`: the `Layer` variant.\n- new `b/<x>.rs`: the stage.\n\
            - `c.md` and `d.md`: docs.\n\n### Next\n\n- `e.rs`: not this one.\n";
        assert_eq!(
            listed_files(architecture),
            [
                ("a.rs".to_string(), false),
                ("b/<x>.rs".to_string(), true),
                ("c.md".to_string(), false),
                ("d.md".to_string(), false),
            ]
        );
    }
}
