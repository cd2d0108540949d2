//! The ledger commands run as a user runs them: `attest ingest` into a file,
//! the queries and exports read from it, a second ingest killed mid-run and
//! resumed, and ledgers that must be refused.
//!
//! Expected values come from `attest analyze --format jsonl` on the same
//! generated corpus, so the tests check the ledger against the analysis
//! whatever the stages find.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use attest_doc::SourceKind;
use attest_ledger::{Ledger, OpenOptions};
use serde_json::Value;

mod common;
use common::{attest, stderr};
#[path = "common/ledger.rs"]
mod ledger_cli;
use ledger_cli::{dump, path_str, succeeds, temp_dir};

/// Runs attest and expects exit status `code` and `needle` on standard error.
fn expect(args: &[&str], code: i32, needle: &str) {
    let output = attest(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "attest {args:?}: {err}");
    assert!(err.contains(needle), "attest {args:?}: {err}");
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&succeeds(args)).expect("the output is JSON")
}

/// `n` generated articles in `dir/corpus.jsonl`.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join("corpus.jsonl");
    let mut out = Vec::new();
    attest_gencorpus::generate(n, 11, &mut out).expect("the corpus is generated");
    std::fs::write(&path, out).expect("the corpus is written");
    path
}

/// The analysis of a corpus, one JSON document per article.
fn analysis(corpus: &Path) -> Vec<Value> {
    succeeds(&["analyze", "--format", "jsonl", path_str(corpus)])
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn array<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value[key].as_array().map_or(&[], Vec::as_slice)
}

fn source_kind(name: &str) -> SourceKind {
    attest_doc::from_serde_name(name).unwrap_or(SourceKind::Unnamed)
}

/// The texts of a role's fragments joined as the ledger joins them.
fn joined(spans: &[Value]) -> String {
    spans
        .iter()
        .map(|span| span["text"].as_str().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" … ")
}

/// Two outlets in two months: the first hedges an attribution ("reportedly
/// said") and a sentence of its own ("will likely"), the second nothing.
const HEDGED_CORPUS: &str = r#"{"id": "h1", "outlet": "Coast Herald", "published": "2026-03-02", "text": "The harbour strike will likely end before the holidays. Ships waited outside the breakwater on Monday.\n\nOfficials reportedly said the port would reopen next week. The union's leader, Dana Whitcombe, said members would vote on Friday."}
{"id": "h2", "outlet": "Valley Times", "published": "2026-04-12", "text": "The council met on Tuesday. The mayor said the budget was final. Residents filled the hall."}
"#;

#[test]
fn stats_give_the_shares_the_writer_hedged_by_outlet_and_month() {
    let dir = temp_dir("hedged");
    let corpus = dir.join("hedged.jsonl");
    std::fs::write(&corpus, HEDGED_CORPUS).expect("the corpus is written");
    let docs = analysis(&corpus);
    let certainty: Vec<&Value> = docs.iter().map(|d| &d["summary"]["certainty"]).collect();
    assert!(
        certainty[0]["hedged_attributions"].as_u64() > Some(0)
            && certainty[0]["hedged_sentences"].as_u64() > Some(0),
        "the first article hedges both: {}",
        certainty[0]
    );
    assert_eq!(certainty[1]["hedged_attributions"], 0);
    assert_eq!(certainty[1]["hedged_sentences"], 0);
    let db = dir.join("ledger.db");
    succeeds(&["ingest", path_str(&corpus), "--db", path_str(&db)]);
    let db = path_str(&db);

    // One article per outlet and per month: each row's shares are its article's.
    for (by, groups) in [
        ("outlet", ["Coast Herald", "Valley Times"]),
        ("month", ["2026-03", "2026-04"]),
    ] {
        let rows = json(&["stats", "--by", by, "--db", db, "--format", "json"]);
        for (group, certainty) in groups.iter().zip(&certainty) {
            let row = rows
                .as_array()
                .and_then(|rows| rows.iter().find(|r| r["group"] == *group))
                .unwrap_or_else(|| panic!("a row for {group}: {rows}"));
            for field in [
                "hedged_attribution_share",
                "writers_voice_sentences",
                "hedged_sentence_share",
            ] {
                assert_eq!(row[field], certainty[field], "{by} {group} {field}");
            }
        }
    }
    let csv = succeeds(&["stats", "--db", db, "--format", "csv"]);
    let header = csv.lines().next().unwrap_or_default();
    assert!(
        header.ends_with("hedged_attribution_share,writers_voice_sentences,hedged_sentence_share"),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ingest_then_queries_and_exports_agree_with_the_analysis() {
    let dir = temp_dir("agree");
    let corpus = corpus(&dir, 40);
    let db = dir.join("ledger.db");
    let docs = analysis(&corpus);
    assert_eq!(docs.len(), 40);

    expect(
        &["ingest", path_str(&corpus), "--db", path_str(&db)],
        0,
        "40 articles: 40 added, 0 replaced, 0 already stored, 0 failed",
    );
    let db = path_str(&db);

    // Statistics over everything are sums over the analysis.
    let attributions: Vec<&Value> = docs.iter().flat_map(|d| array(d, "attributions")).collect();
    let sources: usize = docs.iter().map(|d| array(d, "sources").len()).sum();
    let hedges: usize = docs.iter().map(|d| array(d, "hedges").len()).sum();
    let direct = attributions
        .iter()
        .filter(|a| a["kind"] == "direct")
        .count();
    assert!(
        attributions.len() > 100 && sources > 50 && hedges > 0,
        "a corpus worth testing"
    );
    let all = json(&["stats", "--by", "all", "--db", db, "--format", "json"]);
    assert_eq!(all[0]["articles"], 40);
    assert_eq!(all[0]["attributions"], attributions.len());
    assert_eq!(all[0]["sources"], sources);
    assert_eq!(all[0]["hedges"], hedges);
    let share = |n: usize, of: usize| ((n as f64 / of as f64) * 10_000.0).round() / 10_000.0;
    assert_eq!(all[0]["direct_share"], share(direct, attributions.len()));

    // The generated articles attribute every sentence; some attributions
    // are hedged ("allegedly").
    let hedged = attributions
        .iter()
        .filter(|a| a["hedged_by_writer"] == true)
        .count();
    assert!(hedged > 0, "the corpus has hedged attributions");
    assert_eq!(
        all[0]["hedged_attribution_share"],
        share(hedged, attributions.len())
    );
    let outlets = json(&["stats", "--db", db, "--format", "json"]);
    let per_outlet: u64 = outlets.as_array().map_or(0, |rows| {
        rows.iter().filter_map(|r| r["articles"].as_u64()).sum()
    });
    assert_eq!(per_outlet, 40);

    // The most-quoted sources are the identities the analysis' sources merge into.
    let mut merged: BTreeMap<String, (usize, usize, usize, String)> = BTreeMap::new();
    for (order, source) in docs.iter().flat_map(|d| array(d, "sources")).enumerate() {
        let name = source["name"].as_str().unwrap_or_default();
        let kind = source_kind(source["kind"].as_str().unwrap_or_default());
        let key = attest_lang::identity::identity_key(name, kind)
            .unwrap_or_else(|| format!("alone:{order}"));
        let entry = merged.entry(key).or_insert((0, 0, order, name.to_string()));
        entry.0 += array(source, "attributions").len();
        entry.1 += 1;
    }
    let mut expected: Vec<&(usize, usize, usize, String)> = merged.values().collect();
    expected.sort_by_key(|(statements, _, first, _)| (std::cmp::Reverse(*statements), *first));
    let top = json(&["sources", "--db", db, "--limit", "5", "--format", "json"]);
    let got: Vec<(String, u64)> = top
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    (
                        r["name"].as_str().unwrap_or_default().to_string(),
                        r["statements"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let want: Vec<(String, u64)> = expected
        .iter()
        .take(5)
        .map(|(statements, _, _, name)| (name.clone(), *statements as u64))
        .collect();
    assert_eq!(got, want);

    // What the first person quoted said, article by article.
    let people = json(&[
        "sources", "--type", "person", "--limit", "1", "--db", db, "--format", "json",
    ]);
    let person = &people[0];
    assert_eq!(person["kind"], "person");
    // Every source type is a `--type` value, kebab-cased as clap writes
    // values; an unknown one is refused with the list.
    for kind in SourceKind::ALL {
        let value = attest_doc::serde_name(kind).replace('_', "-");
        let listed = json(&[
            "sources", "--type", &value, "--limit", "1000", "--db", db, "--format", "json",
        ]);
        for source in listed.as_array().map(Vec::as_slice).unwrap_or_default() {
            assert_eq!(
                source["kind"],
                attest_doc::serde_name(kind),
                "--type {value}"
            );
        }
    }
    expect(
        &["sources", "--type", "robot", "--db", db],
        2,
        "person, organization, unnamed, document, media-outlet, social-media",
    );
    let name = person["name"].as_str().unwrap_or_default();
    let key = attest_lang::identity::identity_key(name, SourceKind::Person);
    let mut said_expected = Vec::new();
    let mut dated: Vec<&Value> = docs.iter().collect();
    dated.sort_by_key(|d| d["published"].as_str().unwrap_or_default().to_string());
    for doc in dated {
        let doc_attributions = array(doc, "attributions");
        let mut indices: Vec<u64> = array(doc, "sources")
            .iter()
            .filter(|s| {
                attest_lang::identity::identity_key(
                    s["name"].as_str().unwrap_or_default(),
                    SourceKind::Person,
                ) == key
                    && s["kind"] == "person"
            })
            .flat_map(|s| array(s, "attributions").iter().filter_map(Value::as_u64))
            .collect();
        indices.sort_unstable();
        for index in indices {
            let content = joined(array(&doc_attributions[index as usize], "content"));
            said_expected.push((doc["id"].as_str().unwrap_or_default().to_string(), content));
        }
    }
    let said = json(&["said", name, "--db", db, "--format", "json"]);
    let said_got: Vec<(String, String)> = said
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    (
                        r["article"].as_str().unwrap_or_default().to_string(),
                        r["content"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(said_got, said_expected);

    // Search finds every attribution whose content holds the word, and says where.
    let with_word = attributions
        .iter()
        .filter(|a| {
            joined(array(a, "content"))
                .to_lowercase()
                .contains("bargain")
        })
        .count();
    assert!(with_word > 0);
    let hits = json(&[
        "search", "bargain", "--db", db, "--limit", "10000", "--format", "json",
    ]);
    let hits = hits.as_array().map_or(&[][..], Vec::as_slice);
    let attributed = hits
        .iter()
        .filter(|h| h["found_in"] == "attribution")
        .count();
    assert_eq!(attributed, with_word);
    for hit in hits {
        let text = hit["text"].as_str().unwrap_or_default();
        for range in array(hit, "matches") {
            let (start, end) = (
                range[0].as_u64().unwrap_or(0) as usize,
                range[1].as_u64().unwrap_or(0) as usize,
            );
            assert!(
                text[start..end].to_lowercase().starts_with("bargain"),
                "{hit}"
            );
        }
    }
    let table = succeeds(&["search", "bargain", "--db", db, "--limit", "1"]);
    assert!(
        table.contains("[bargain"),
        "matches are marked off a terminal: {table}"
    );

    // Exports: every attribution once, with spans that slice the stored text.
    let out = dir.join("attributions.jsonl");
    succeeds(&[
        "export",
        "attributions",
        "--format",
        "jsonl",
        "--out",
        path_str(&out),
        "--db",
        db,
    ]);
    let rows: Vec<Value> = std::fs::read_to_string(&out)
        .expect("the export is written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), attributions.len());
    let contents: Vec<String> = attributions
        .iter()
        .map(|a| joined(array(a, "content")))
        .collect();
    let exported: Vec<String> = rows
        .iter()
        .map(|r| r["content_text"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        exported, contents,
        "in article order, then attribution order"
    );

    let articles = dir.join("articles.csv");
    succeeds(&[
        "export",
        "articles",
        "--format",
        "csv",
        "--out",
        path_str(&articles),
        "--db",
        db,
    ]);
    let csv = std::fs::read_to_string(&articles).expect("the CSV is written");
    assert!(
        csv.starts_with("id,key,article_id,content_hash,title,outlet,"),
        "{}",
        &csv[..80]
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("listed")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("attest-tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file is left: {leftovers:?}"
    );

    let parquet = dir.join("sources.parquet");
    succeeds(&[
        "export",
        "SELECT kind, count(*) AS n, avg(n_statements) AS mean FROM sources GROUP BY kind ORDER BY kind",
        "--format",
        "parquet",
        "--out",
        path_str(&parquet),
        "--db",
        db,
    ]);
    let bytes = std::fs::read(&parquet).expect("the Parquet file is written");
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    let reader = parquet::file::reader::SerializedFileReader::new(
        std::fs::File::open(&parquet).expect("it opens"),
    )
    .expect("a Parquet file");
    use parquet::file::reader::FileReader;
    let distinct = succeeds(&[
        "export",
        "SELECT count(DISTINCT kind) AS n FROM sources",
        "--format",
        "csv",
        "--out",
        "-",
        "--db",
        db,
    ]);
    assert_eq!(distinct.lines().next(), Some("n"));
    let distinct: i64 = distinct
        .lines()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1);
    assert_eq!(reader.metadata().file_metadata().num_rows(), distinct);
    let schema = reader.metadata().file_metadata().schema_descr();
    let names: Vec<&str> = schema.columns().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["kind", "n", "mean"]);

    let _ = std::fs::remove_dir_all(&dir);
}

fn open_check(db: &Path) -> attest_ledger::Counts {
    let ledger = Ledger::open(db).expect("the ledger opens");
    let report = ledger.check().expect("the check runs");
    assert!(report.is_ok(), "{report:?}");
    ledger.counts().expect("counts")
}

#[test]
fn a_second_ingest_adds_nothing_and_update_replaces() {
    let dir = temp_dir("again");
    let corpus = corpus(&dir, 12);
    let db = dir.join("ledger.db");
    succeeds(&["ingest", path_str(&corpus), "--db", path_str(&db)]);
    let first = dump(&dir, path_str(&db));
    // The database file alone holds everything: the log was emptied on closing.
    let copy_db = dir.join("copy.db");
    std::fs::copy(&db, &copy_db).expect("the ledger is copied");
    assert_eq!(open_check(&copy_db).articles, 12);
    expect(
        &["ingest", path_str(&corpus), "--db", path_str(&db)],
        0,
        "0 added, 0 replaced, 12 already stored",
    );
    assert_eq!(dump(&dir, path_str(&db)), first, "nothing changed");

    expect(
        &[
            "ingest",
            path_str(&corpus),
            "--db",
            path_str(&db),
            "--update",
        ],
        0,
        "0 added, 12 replaced",
    );
    let counts = open_check(&db);
    assert_eq!(counts.articles, 12);

    // Plain text has no id of its own: it is known by its content.
    let text = dir.join("note.txt");
    std::fs::write(
        &text,
        "The ferry resumed service on Friday, officials said.",
    )
    .expect("written");
    let copy = dir.join("copy.txt");
    std::fs::copy(&text, &copy).expect("copied");
    expect(
        &[
            "ingest",
            path_str(&text),
            path_str(&copy),
            "--db",
            path_str(&db),
        ],
        0,
        "1 added, 0 replaced, 1 already stored",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ingest_killed_mid_run_resumes_to_the_ledger_of_a_clean_run() {
    let dir = temp_dir("killed");
    let n = 400;
    let corpus = corpus(&dir, n);
    let clean = dir.join("clean.db");
    succeeds(&[
        "ingest",
        path_str(&corpus),
        "--db",
        path_str(&clean),
        "--batch-size",
        "10",
    ]);

    let killed = dir.join("killed.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args([
            "ingest",
            path_str(&corpus),
            "--db",
            path_str(&killed),
            "--batch-size",
            "10",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the ingest starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    let stored_when_killed = loop {
        let stored = Ledger::open_read_only(&killed, &OpenOptions::DEFAULT)
            .and_then(|ledger| ledger.counts())
            .map_or(0, |counts| counts.articles);
        if stored > 0 {
            // SIGKILL: no destructor, no rollback, no flush.
            child.kill().expect("the ingest is killed");
            break stored;
        }
        assert!(
            Instant::now() < deadline,
            "the ingest stored nothing in two minutes"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    child.wait().expect("the killed ingest is reaped");
    assert!(
        (stored_when_killed as usize) < n,
        "the ingest finished before it was killed; the test needs a larger corpus"
    );

    let after_kill = open_check(&killed);
    assert!(after_kill.articles >= stored_when_killed && (after_kill.articles as usize) < n);

    let added = n as i64 - after_kill.articles;
    expect(
        &[
            "ingest",
            path_str(&corpus),
            "--db",
            path_str(&killed),
            "--batch-size",
            "10",
        ],
        0,
        &format!(
            "{added} added, 0 replaced, {} already stored",
            after_kill.articles
        ),
    );
    assert_eq!(open_check(&killed), open_check(&clean));
    assert_eq!(
        dump(&dir, path_str(&killed)),
        dump(&dir, path_str(&clean)),
        "the same rows, ids and all"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_reported_and_the_rest_is_stored() {
    let dir = temp_dir("bad-input");
    let db = dir.join("ledger.db");
    let batch = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad-batch.jsonl");
    expect(
        &["ingest", path_str(&batch), "--db", path_str(&db)],
        1,
        "bad-batch.jsonl:",
    );
    let counts = open_check(&db);
    assert!(counts.articles > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs attest and expects a fatal error mentioning `what`, with the file unchanged.
fn refused(args: &[&str], file: &Path, what: &str) {
    let before = std::fs::read(file).expect("the file exists");
    expect(args, 2, what);
    assert_eq!(
        std::fs::read(file).expect("the file exists"),
        before,
        "attest {args:?} changed the file"
    );
}

#[test]
fn ledgers_that_cannot_be_used_are_refused_and_left_as_they_were() {
    let dir = temp_dir("refused");
    let corpus = corpus(&dir, 3);
    let input = path_str(&corpus);

    let text = dir.join("notes.db");
    std::fs::write(&text, "these are notes, not a database\n").expect("written");
    let db = path_str(&text);
    refused(
        &["ingest", input, "--db", db],
        &text,
        "not a SQLite database",
    );
    refused(&["sources", "--db", db], &text, "not a SQLite database");

    let newer = dir.join("newer.db");
    succeeds(&["ingest", input, "--db", path_str(&newer)]);
    let conn = rusqlite::Connection::open(&newer).expect("it opens");
    conn.pragma_update(None, "user_version", attest_ledger::SCHEMA_VERSION + 1)
        .expect("set");
    conn.pragma_update(None, "journal_mode", "DELETE")
        .expect("set");
    drop(conn);
    let db = path_str(&newer);
    refused(
        &["ingest", input, "--db", db],
        &newer,
        "newer than this attest reads",
    );
    refused(
        &["stats", "--db", db],
        &newer,
        "newer than this attest reads",
    );

    let foreign = dir.join("foreign.db");
    rusqlite::Connection::open(&foreign)
        .and_then(|c| c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);"))
        .expect("a foreign database");
    refused(
        &["ingest", input, "--db", path_str(&foreign)],
        &foreign,
        "not an attest ledger",
    );

    let read_only = dir.join("read-only.db");
    succeeds(&["ingest", input, "--db", path_str(&read_only)]);
    let mut permissions = std::fs::metadata(&read_only).expect("exists").permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&read_only, permissions).expect("made read-only");
    let other = dir.join("other.jsonl");
    let mut out = Vec::new();
    attest_gencorpus::generate(2, 99, &mut out).expect("generated");
    std::fs::write(&other, out).expect("written");
    refused(
        &["ingest", path_str(&other), "--db", path_str(&read_only)],
        &read_only,
        "read-only",
    );
    let listed = succeeds(&["sources", "--db", path_str(&read_only)]);
    assert!(
        listed.contains("statements"),
        "queries still read it: {listed}"
    );

    let locked = dir.join("locked.db");
    succeeds(&["ingest", input, "--db", path_str(&locked)]);
    let holder = rusqlite::Connection::open(&locked).expect("it opens");
    holder
        .execute_batch("BEGIN EXCLUSIVE")
        .expect("the lock is taken");
    let before = Ledger::open_read_only(&locked, &OpenOptions::DEFAULT)
        .and_then(|l| l.counts())
        .expect("readable while locked");
    expect(
        &[
            "ingest",
            path_str(&other),
            "--db",
            path_str(&locked),
            "--busy-timeout",
            "100",
        ],
        2,
        "locked by another process",
    );
    holder
        .execute_batch("ROLLBACK")
        .expect("the lock is released");
    drop(holder);
    assert_eq!(open_check(&locked), before);

    let missing = dir.join("missing.db");
    expect(
        &["said", "Dana Whitcombe", "--db", path_str(&missing)],
        2,
        "no ledger here",
    );
    assert!(!missing.exists(), "a query creates no ledger");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_export_stops_at_its_time_and_row_limits_and_keeps_no_file() {
    let dir = temp_dir("budget");
    let db = dir.join("ledger.db");
    succeeds(&["ingest", path_str(&corpus(&dir, 3)), "--db", path_str(&db)]);
    let out = dir.join("out.csv");
    let export = |what: &str, limit: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["export", what, "--format", "csv", "--out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend([
            path_str(&out).to_string(),
            "--db".into(),
            path_str(&db).into(),
        ]);
        args.extend(limit.iter().map(|s| s.to_string()));
        args
    };
    // A query with no end: counts up for ever, and gives one row at the end.
    let endless =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n";
    let args = export(endless, &["--time-limit", "1"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    expect(&args, 2, "time limit of 1s (--time-limit)");
    assert!(!out.exists() && !dir.join("out.csv.partial").exists());

    let args = export("articles", &["--max-rows", "2"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    expect(&args, 2, "limit of 2 (--max-rows)");
    assert!(!out.exists() && !dir.join("out.csv.partial").exists());

    let args = export(
        "SELECT article_id FROM articles ORDER BY id",
        &["--max-rows", "3", "--time-limit", "60"],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeeds(&args);
    let csv = std::fs::read_to_string(&out).expect("the export is written");
    assert_eq!(csv.lines().count(), 4, "a header and three articles");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A dump with every confidence at the four decimals analyse's JSON keeps.
fn rounded(dump: &str) -> Vec<Value> {
    dump.lines()
        .map(|line| {
            let mut row: Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(confidence) = row.get_mut("confidence")
                && let Some(value) = confidence.as_f64()
            {
                *confidence = serde_json::json!((value * 10_000.0).round() / 10_000.0);
            }
            row
        })
        .collect()
}

#[test]
fn analysed_output_is_stored_as_ingest_stores_its_input() {
    let dir = temp_dir("analysed");
    let corpus = corpus(&dir, 24);
    let direct = dir.join("direct.db");
    succeeds(&["ingest", path_str(&corpus), "--db", path_str(&direct)]);

    let mut analysed = succeeds(&["analyze", "--format", "jsonl", path_str(&corpus)]);
    let docs = dir.join("analysed.jsonl");
    std::fs::write(&docs, &analysed).expect("written");
    let from_analysed = dir.join("from-analysed.db");
    let ingest_analysed = |db: &Path, file: &Path| {
        let output = attest(&["ingest", "--analysed", path_str(file), "--db", path_str(db)]);
        (output.status.code(), stderr(&output))
    };
    let (code, err) = ingest_analysed(&from_analysed, &docs);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("24 added"), "{err}");
    assert_eq!(
        rounded(&dump(&dir, path_str(&from_analysed))),
        rounded(&dump(&dir, path_str(&direct))),
        "the same ledger, but for the decimals of confidences"
    );
    let (code, err) = ingest_analysed(&from_analysed, &docs);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("0 added, 0 replaced, 24 already stored"),
        "{err}"
    );

    // One document of another schema version fails alone, naming its line.
    analysed = analysed.replacen("attest.document/1", "attest.document/9", 1);
    std::fs::write(&docs, &analysed).expect("written");
    let fresh = dir.join("fresh.db");
    let (code, err) = ingest_analysed(&fresh, &docs);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("analysed.jsonl:1") && err.contains("attest.document/9"),
        "{err}"
    );
    assert!(err.contains("23 added"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three articles written for this test, in which one claim travels: said
/// first, repeated by someone else, then denied; a look-alike with another
/// figure stays apart.
const TRAVELLING: &str = concat!(
    r#"{"id":"w-2","outlet":"Valley Post","published":"2026-03-09T10:00:00Z","text":"The mayor said the Dunmore plant failed 11 safety inspections since 2023."}"#,
    "\n",
    r#"{"id":"w-1","outlet":"Coast Herald","published":"2026-03-02T09:00:00Z","text":"Inspector Ana Ruiz said the Dunmore water plant failed 11 safety inspections since 2023.\n\nRuiz said the Dunmore plant failed 7 fire inspections in 2019."}"#,
    "\n",
    r#"{"id":"w-3","outlet":"Coast Herald","published":"2026-03-20T16:30:00Z","text":"A spokesman for the water authority denied that the Dunmore plant had failed 11 safety inspections."}"#,
    "\n",
);

#[test]
fn claims_travel_across_the_ledger_with_their_roles_and_survive_an_update() {
    let dir = temp_dir("claims");
    let corpus = dir.join("travel.jsonl");
    std::fs::write(&corpus, TRAVELLING).expect("write the corpus");
    let db = path_str(&dir.join("ledger.db")).to_string();
    succeeds(&["ingest", path_str(&corpus), "--db", &db]);
    let claims: Vec<Value> = succeeds(&["claims", "--db", &db, "--format", "jsonl"])
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(claims.len(), 1, "only the claim that travelled: {claims:?}");
    let claim = &claims[0];
    assert_eq!(
        claim["first"]["article"], "w-1",
        "first by publication, not by storing"
    );
    assert_eq!(
        (claim["articles"].as_i64(), claim["outlets"].as_i64()),
        (Some(3), Some(2))
    );
    let travel: Vec<(&str, &str)> = array(claim, "appearances")
        .iter()
        .map(|a| {
            (
                a["article"].as_str().unwrap_or(""),
                a["role"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        travel,
        [
            ("w-1", "origin"),
            ("w-2", "misattributed"),
            ("w-3", "denied")
        ]
    );
    let span = &array(claim, "appearances")[0]["span"];
    let text =
        "Inspector Ana Ruiz said the Dunmore water plant failed 11 safety inspections since 2023.";
    let (start, end) = (
        span["byte_start"].as_u64().unwrap_or(0),
        span["byte_end"].as_u64().unwrap_or(0),
    );
    assert_eq!(
        text.get(start as usize..end as usize),
        span["text"].as_str(),
        "offsets fit the text"
    );

    let denied = json(&[
        "claims", "--db", &db, "--role", "denied", "--format", "json",
    ]);
    assert_eq!(denied.as_array().map(Vec::len), Some(1));
    let nobody = json(&[
        "claims",
        "--db",
        &db,
        "--source",
        "Nobody Here",
        "--format",
        "json",
    ]);
    assert_eq!(nobody.as_array().map(Vec::len), Some(0));
    let traced = json(&[
        "trace",
        "Officials say the Dunmore plant has failed 11 inspections.",
        "--db",
        &db,
        "--format",
        "json",
    ]);
    assert_eq!(traced[0]["claim"], claim["claim"], "{traced}");

    // Storing the articles again replaces their statements: the claim counts
    // the same, and no claim is left without statements.
    succeeds(&["ingest", path_str(&corpus), "--db", &db, "--update"]);
    let again = json(&["claims", "--db", &db, "--format", "json"]);
    assert_eq!(array(&again[0], "appearances").len(), 3, "{again}");
    let empty = succeeds(&[
        "export",
        "SELECT id FROM claims WHERE n_statements = 0 OR id NOT IN (SELECT claim FROM statements)",
        "--db",
        &db,
        "--format",
        "csv",
        "--out",
        "-",
    ]);
    assert_eq!(empty.trim(), "id", "no empty claims");
}
