//! Parquet datasets as a user makes them: `attest export dataset` from a
//! ledger made by `attest ingest`, and `attest analyze --format parquet`
//! straight from the articles, read back with the parquet crate and
//! compared with the ledger's own export of each table.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use serde_json::{Map, Value};

mod common;
use common::{attest, stderr};
#[path = "common/files.rs"]
mod files;
use files::listing;
#[path = "common/ledger.rs"]
mod ledger_cli;
use ledger_cli::{dump, exported, path_str, succeeds, temp_dir};

/// `n` generated articles and one without a publication date, in
/// `dir/corpus.jsonl`.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join("corpus.jsonl");
    let mut out = Vec::new();
    attest_gencorpus::generate(n, 7, &mut out).expect("the corpus is generated");
    let undated = serde_json::json!({
        "id": "undated",
        "title": "A note without a date",
        "text": "The committee will meet again next week, its chair, Dana Whitfield, said on \
                 Monday. \"We are not there yet,\" she told reporters.",
    });
    out.extend(format!("{undated}\n").into_bytes());
    fs::write(&path, out).expect("the corpus is written");
    path
}

/// A test's directory, holding `n` + 1 articles (see [`corpus`]) and a
/// ledger `attest ingest` made of them: the directory, the corpus, the ledger.
fn ingested(test: &str, n: usize) -> (PathBuf, PathBuf, PathBuf) {
    let dir = temp_dir(test);
    let corpus = corpus(&dir, n);
    let db = dir.join("ledger.db");
    succeeds(&["ingest", path_str(&corpus), "--db", path_str(&db)]);
    (dir, corpus, db)
}

/// `attest export dataset` of the ledger `db` into `out`, expected to succeed.
fn export_dataset(db: &Path, out: &Path) {
    succeeds(&[
        "export",
        "dataset",
        "--out",
        path_str(out),
        "--db",
        path_str(db),
    ]);
}

/// Runs attest and expects exit status `code` and `needle` on standard error.
fn expect(args: &[&str], code: i32, needle: &str) {
    let output = attest(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "attest {args:?}: {err}");
    assert!(err.contains(needle), "attest {args:?}: {err}");
}

/// Every file below `dir`, by path relative to it, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    listing(dir)
        .into_iter()
        .map(|relative| {
            let bytes = fs::read(dir.join(&relative)).expect("read");
            (relative, bytes)
        })
        .collect()
}

/// One cell of a Parquet row as the JSON Lines export writes it.
fn json_cell(field: &Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Long(v) => Value::from(*v),
        Field::Double(v) => Value::from(*v),
        Field::Str(text) => Value::from(text.as_str()),
        other => panic!("an unexpected cell {other:?}"),
    }
}

/// The rows of one Parquet file as JSON objects, and its column names.
fn parquet_rows(path: &Path) -> (Vec<String>, Vec<Map<String, Value>>) {
    let file = fs::File::open(path).expect("the part opens");
    let reader = SerializedFileReader::new(file).expect("a Parquet file");
    let names: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let mut rows = Vec::new();
    for row in reader.get_row_iter(None).expect("a reader") {
        let row = row.expect("a row");
        let object = row
            .get_column_iter()
            .map(|(name, field)| (name.clone(), json_cell(field)))
            .collect();
        rows.push(object);
    }
    (names, rows)
}

/// The rows the ledger exports of `table`, in its order.
fn ledger_rows(dir: &Path, db: &str, table: &str) -> Vec<Map<String, Value>> {
    exported(dir, db, &[table])
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON object"))
        .collect()
}

/// The ledger's columns of `table`, in order: the CSV export's header.
fn ledger_columns(db: &str, table: &str) -> Vec<String> {
    let csv = succeeds(&["export", table, "--format", "csv", "--out", "-", "--db", db]);
    let header = csv.lines().next().expect("a header line");
    header.split(',').map(str::to_string).collect()
}

/// What a row is ordered by in its table's export.
fn order_key(table: &str, row: &Map<String, Value>) -> (i64, String) {
    let int = |key: &str| row[key].as_i64().expect("an integer key");
    if table == "article_stances" {
        let stance = row["stance"].as_str().expect("a stance").to_string();
        (int("article"), stance)
    } else {
        (int("id"), String::new())
    }
}

/// Checks that the dataset in `out` holds exactly the ledger's rows, each in
/// the month of its article, and returns the months of the articles.
fn assert_round_trip(scratch: &Path, db: &str, out: &Path) -> Vec<String> {
    let articles = ledger_rows(scratch, db, "articles");
    let month_of: BTreeMap<i64, Option<String>> = articles
        .iter()
        .map(|article| {
            let month = article["published_date"]
                .as_str()
                .map(|d| d[..7].to_string());
            (article["id"].as_i64().expect("an id"), month)
        })
        .collect();
    for table in attest_ledger::dataset_tables() {
        let expected = ledger_rows(scratch, db, table);
        let columns = ledger_columns(db, table);
        let mut found = Vec::new();
        for (relative, _) in files(&out.join(table)) {
            let path = out.join(table).join(&relative);
            let (names, rows) = parquet_rows(&path);
            assert_eq!(names, columns, "{table}: the ledger's columns");
            let partition = Path::new(&relative)
                .parent()
                .and_then(|p| p.to_str())
                .unwrap_or_default()
                .to_string();
            let mut ids: Vec<(i64, String)> = Vec::new();
            for row in rows {
                let month = if matches!(table, "sources" | "claims") {
                    None
                } else {
                    let article = if table == "articles" { "id" } else { "article" };
                    let id = row[article].as_i64().expect("an article id");
                    Some(month_of[&id].clone())
                };
                let expected_partition = match month {
                    None => String::new(),
                    Some(None) => "month=__HIVE_DEFAULT_PARTITION__".to_string(),
                    Some(Some(month)) => format!("month={month}"),
                };
                assert_eq!(partition, expected_partition, "{table}: {row:?}");
                ids.push(order_key(table, &row));
                found.push(row);
            }
            let mut sorted = ids.clone();
            sorted.sort();
            assert_eq!(ids, sorted, "{relative}: rows in the order of the export");
        }
        found.sort_by_key(|row| order_key(table, row));
        assert_eq!(found.len(), expected.len(), "{table}: rows");
        assert!(
            found == expected,
            "{table}: the rows differ from the ledger's"
        );
    }
    let mut months: Vec<String> = month_of.into_values().flatten().collect();
    months.sort();
    months.dedup();
    months
}

#[test]
fn an_exported_dataset_holds_the_ledgers_rows_by_month() {
    let (dir, _, db) = ingested("dataset-export", 30);
    let before = dump(&dir, path_str(&db));
    let out = dir.join("dataset");
    export_dataset(&db, &out);
    assert_eq!(dump(&dir, path_str(&db)), before, "the ledger is only read");
    let months = assert_round_trip(&dir, path_str(&db), &out);
    assert!(months.len() > 5, "the corpus spans months: {months:?}");
    for month in &months {
        assert!(
            out.join("articles")
                .join(format!("month={month}"))
                .join("part-0.parquet")
                .is_file(),
            "{month}"
        );
    }
    assert!(
        out.join("articles/month=__HIVE_DEFAULT_PARTITION__/part-0.parquet")
            .is_file()
    );
    assert!(out.join("sources/part-0.parquet").is_file());
    assert!(out.join("claims/part-0.parquet").is_file());
    let names: Vec<String> = fs::read_dir(&out)
        .expect("listed")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(
        names.iter().all(|name| !name.starts_with('.')),
        "no scratch directory is left: {names:?}"
    );

    // The same ledger gives the same bytes.
    let again = dir.join("again");
    succeeds(&[
        "export",
        "dataset",
        "--format",
        "parquet",
        "--out",
        path_str(&again),
        "--db",
        path_str(&db),
    ]);
    assert!(files(&out) == files(&again), "the export is deterministic");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn analyze_writes_the_dataset_a_ledger_of_the_same_articles_gives() {
    let (dir, corpus, db) = ingested("dataset-analyze", 20);
    let exported = dir.join("exported");
    export_dataset(&db, &exported);
    let analysed = dir.join("analysed");
    let output = attest(&[
        "analyze",
        "--format",
        "parquet",
        "--out",
        path_str(&analysed),
        path_str(&corpus),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("wrote a Parquet dataset"));
    let (exported, analysed) = (files(&exported), files(&analysed));
    assert!(!exported.is_empty());
    assert_eq!(
        exported.keys().collect::<Vec<_>>(),
        analysed.keys().collect::<Vec<_>>()
    );
    assert!(exported == analysed, "the same bytes, ids included");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_dataset_is_replaced_only_with_force_and_only_its_own_files() {
    let (dir, corpus, db) = ingested("dataset-force", 3);
    let out = dir.join("dataset");
    let (out_arg, db_arg) = (path_str(&out), path_str(&db));
    let export = ["export", "dataset", "--out", out_arg, "--db", db_arg];
    let forced = [
        "export", "dataset", "--out", out_arg, "--force", "--db", db_arg,
    ];
    export_dataset(&db, &out);

    // A stale month of an earlier dataset does not survive a replacement.
    let stale = out.join("articles/month=1999-01");
    fs::create_dir(&stale).expect("made");
    fs::copy(
        out.join("sources/part-0.parquet"),
        stale.join("part-0.parquet"),
    )
    .expect("copied");
    expect(&export, 2, "give --force");
    assert!(stale.exists(), "nothing is replaced without --force");
    succeeds(&forced);
    assert!(!stale.exists(), "the old table is replaced whole");

    // A file a dataset export does not write is never deleted.
    fs::write(out.join("times/notes.txt"), "mine").expect("written");
    expect(
        &forced,
        2,
        "notes.txt, which a dataset export does not write",
    );
    assert!(out.join("times/notes.txt").is_file());

    expect(
        &[
            "export",
            "dataset",
            "--format",
            "csv",
            "--out",
            path_str(&dir.join("csv")),
            "--db",
            path_str(&db),
        ],
        2,
        "a dataset is written as Parquet",
    );
    expect(
        &[
            "export",
            "dataset",
            "--out",
            path_str(&db),
            "--db",
            path_str(&db),
        ],
        2,
        "is not a directory",
    );
    expect(
        &["analyze", "--format", "parquet", path_str(&corpus)],
        2,
        "give a directory with --out DIR",
    );
    let _ = fs::remove_dir_all(&dir);
}
