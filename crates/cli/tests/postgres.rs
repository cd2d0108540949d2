//! The ledger commands against a real PostgreSQL: the same answers (and the
//! same Parquet dataset) as from a SQLite file, `attest serve` reading
//! PostgreSQL, and four ingests writing one ledger at once while one of them
//! is killed.
//!
//! The server is the one `ATTEST_TEST_POSTGRES` names (a `postgres://` URL);
//! each test works in a schema of its own there. Without the variable the
//! tests are ignored, and run with `--ignored` they fail: a test that cannot
//! reach its database never passes. `.ci/run` starts a throw-away server and
//! sets the variable.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use attest_ledger::{Ledger, Location, OpenOptions};
use serde_json::Value;

mod common;
use common::{attest, stderr};
#[path = "common/files.rs"]
mod files;
use files::listing;
#[path = "common/ledger.rs"]
mod ledger_cli;
use ledger_cli::{dump, exported, path_str, succeeds, temp_dir};
#[path = "common/server.rs"]
mod server;
use server::serve;

/// A schema of the test's own in the test server, dropped at the end.
struct Schema {
    admin: String,
    name: String,
    url: String,
}

impl Schema {
    fn new(test: &str) -> Schema {
        let admin = std::env::var("ATTEST_TEST_POSTGRES")
            .expect("ATTEST_TEST_POSTGRES names the PostgreSQL server to test against");
        let name = format!("attest_cli_{}_{test}", std::process::id());
        let mut client = ::postgres::Client::connect(&admin, ::postgres::NoTls)
            .unwrap_or_else(|err| panic!("ATTEST_TEST_POSTGRES={admin}: {err}"));
        client
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
            ))
            .expect("the schema is made");
        let separator = if admin.contains('?') { '&' } else { '?' };
        let url = format!("{admin}{separator}options=-csearch_path%3D{name}");
        Schema { admin, name, url }
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        if let Ok(mut client) = ::postgres::Client::connect(&self.admin, ::postgres::NoTls) {
            let _ = client.batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name));
        }
    }
}

/// `n` generated articles in `parts` JSON Lines files, article `i` in file
/// `i % parts`.
fn corpus(dir: &Path, n: usize, parts: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    attest_gencorpus::generate(n, 11, &mut out).expect("the corpus is generated");
    let text = String::from_utf8(out).expect("the corpus is UTF-8");
    let mut files = vec![String::new(); parts];
    for (i, line) in text.lines().enumerate() {
        files[i % parts].push_str(line);
        files[i % parts].push('\n');
    }
    files
        .into_iter()
        .enumerate()
        .map(|(i, lines)| {
            let path = dir.join(format!("part-{i}.jsonl"));
            std::fs::write(&path, lines).expect("the corpus is written");
            path
        })
        .collect()
}

/// What a ledger holds, without the row ids that the order of storing gives:
/// comparable between ledgers written by processes that raced.
fn contents(dir: &Path, db: &str) -> String {
    exported(
        dir,
        db,
        &[
            "SELECT article_id, key, content_hash, n_sources, n_attributions, n_hedges \
             FROM articles ORDER BY key",
            "SELECT name, kind, key, n_articles, n_statements FROM sources \
             ORDER BY key NULLS FIRST, name, n_statements",
            "SELECT count(*) AS n, count(DISTINCT key) AS keys FROM articles",
        ],
    )
}

fn check(db: &str) -> attest_ledger::Counts {
    let ledger = Ledger::open(Location::Postgres(db.to_string())).expect("the ledger opens");
    let report = ledger.check().expect("the check runs");
    assert!(report.is_ok(), "{report:?}");
    ledger.counts().expect("counts")
}

/// A GET to a server on this machine; the body of a 200 answer.
fn get(port: u16, path: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .expect("the request is sent");
    let mut reply = String::new();
    stream
        .read_to_string(&mut reply)
        .expect("the reply is read");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}\n{body}");
    body.to_string()
}

/// `attest serve --db DB` on a free port; killed when dropped.
struct Server(Child, u16);

impl Server {
    fn start(db: &str) -> Server {
        let (child, port) = serve(&["--db", db]);
        Server(child, port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}
// In a module of their own, so that `--skip postgres::` leaves them out of a
// run that includes the other ignored tests (the PolNeAR ones) with no server.
mod postgres {
    use super::*;

    #[test]
    #[ignore = "needs a PostgreSQL server: ATTEST_TEST_POSTGRES=postgres://…"]
    fn answers_as_sqlite_does_from_the_command_line_and_the_server() {
        let schema = Schema::new("same");
        let dir = temp_dir("same");
        let inputs = corpus(&dir, 40, 1);
        let file = dir.join("ledger.db");
        let sqlite = path_str(&file);
        let pg = schema.url.as_str();
        for db in [sqlite, pg] {
            let output = attest(&["ingest", path_str(&inputs[0]), "--db", db]);
            assert!(
                stderr(&output).contains("40 articles: 40 added, 0 replaced, 0 already stored"),
                "{db}: {}",
                stderr(&output)
            );
        }
        assert_eq!(
            dump(&dir, pg),
            dump(&dir, sqlite),
            "every table, row for row"
        );
        let dataset = |db: &str, name: &str| {
            let out = dir.join(name);
            succeeds(&["export", "dataset", "--out", path_str(&out), "--db", db]);
            listing(&out)
                .into_iter()
                .map(|file| {
                    let bytes = std::fs::read(out.join(&file)).expect("read");
                    (file, bytes)
                })
                .collect::<Vec<_>>()
        };
        assert!(
            dataset(pg, "pg-dataset") == dataset(sqlite, "sqlite-dataset"),
            "the same Parquet dataset, byte for byte"
        );

        let top = json(&succeeds(&[
            "sources", "--db", sqlite, "--format", "json", "--limit", "5",
        ]));
        let name = top[0]["name"].as_str().expect("a most-quoted source");
        let statements = json(&succeeds(&[
            "said", name, "--db", sqlite, "--format", "json",
        ]));
        let content = statements[0]["content"].as_str().expect("a statement");
        let word = content
            .split(|c: char| !c.is_alphabetic())
            .find(|word| word.len() >= 5)
            .expect("a word of the statement to search for")
            .to_string();
        let word = word.as_str();
        let queries: Vec<Vec<&str>> = vec![
            vec!["sources", "--format", "json"],
            vec!["sources", "--format", "json", "--type", "person"],
            vec!["said", name, "--format", "json"],
            vec!["stats", "--format", "json"],
            vec!["stats", "--by", "month", "--format", "json"],
            vec!["stats", "--by", "all", "--format", "json"],
            vec!["stats", "--since", "2026-01-01", "--format", "json"],
            vec![
                "claims",
                "--format",
                "json",
                "--min-articles",
                "1",
                "--limit",
                "1000",
            ],
        ];
        for query in &queries {
            let answer = |db: &str| {
                let mut args = query.clone();
                args.extend(["--db", db]);
                succeeds(&args)
            };
            assert_eq!(answer(pg), answer(sqlite), "{query:?}");
        }
        // Ranking differs (bm25 against ts_rank): the same hits, in any order.
        let hits = |db: &str| {
            let found = json(&succeeds(&[
                "search", word, "--db", db, "--format", "json", "--limit", "1000",
            ]));
            let mut hits: Vec<String> = found
                .as_array()
                .expect("an array")
                .iter()
                .map(|hit| format!("{}|{}|{}", hit["article"], hit["text"], hit["matches"]))
                .collect();
            hits.sort();
            hits
        };
        let found = hits(pg);
        assert!(!found.is_empty(), "{word} is found");
        assert_eq!(found, hits(sqlite));

        let served = |db: &str| {
            let server = Server::start(db);
            [
                "/v1/sources?limit=5",
                "/v1/stats",
                "/v1/articles?limit=3",
                "/v1/sources/1",
            ]
            .map(|path| get(server.1, path))
        };
        assert_eq!(served(pg), served(sqlite), "attest serve reads both alike");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    #[ignore = "needs a PostgreSQL server: ATTEST_TEST_POSTGRES=postgres://…"]
    fn four_ingests_at_once_one_killed_lose_nothing_and_a_rerun_completes_the_set() {
        let schema = Schema::new("four");
        let dir = temp_dir("four");
        let n = 250;
        let parts = corpus(&dir, n, 5);
        let pg = schema.url.as_str();
        // Each process ingests two of the first four parts, so that every article
        // of them is offered by two processes at once: one stores it, the other
        // skips it. The process to be killed first reads the fifth part, which
        // only it has, so that the rerun has something to complete.
        let spawn = |i: usize| {
            let mut inputs = vec![path_str(&parts[i]), path_str(&parts[(i + 1) % 4])];
            if i == 0 {
                inputs.insert(0, path_str(&parts[4]));
            }
            Command::new(env!("CARGO_BIN_EXE_attest"))
                .arg("ingest")
                .args(inputs)
                .args(["--db", pg, "--batch-size", "5"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("an ingest starts")
        };
        // The schema is made once before the race, as a first ingest would.
        drop(Ledger::open(Location::Postgres(pg.to_string())).expect("the ledger is made"));
        let mut children: Vec<Child> = (0..4).map(spawn).collect();
        let deadline = Instant::now() + Duration::from_secs(300);
        let stored_when_killed = loop {
            let stored =
                Ledger::open_read_only(Location::Postgres(pg.to_string()), &OpenOptions::DEFAULT)
                    .and_then(|ledger| ledger.counts())
                    .map_or(0, |counts| counts.articles);
            if stored > 0 {
                // SIGKILL: no destructor, no rollback, no goodbye to the server.
                children[0].kill().expect("the ingest is killed");
                break stored;
            }
            assert!(Instant::now() < deadline, "nothing stored in five minutes");
            std::thread::sleep(Duration::from_millis(10));
        };
        children[0].wait().expect("the killed ingest is reaped");
        for child in children.drain(1..) {
            let output = child.wait_with_output().expect("an ingest ends");
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let after = check(pg);
        assert!(
            after.articles >= stored_when_killed,
            "nothing committed is lost"
        );
        assert!(
            (after.articles as usize) < n,
            "the killed ingest finished first; the test needs a larger corpus"
        );

        let mut args = vec!["ingest"];
        args.extend(parts.iter().map(|p| path_str(p)));
        args.extend(["--db", pg]);
        let output = attest(&args);
        let message = stderr(&output);
        assert!(output.status.success(), "{message}");
        let added = n as i64 - after.articles;
        assert!(
            message.contains(&format!(
                "{n} articles: {added} added, 0 replaced, {} already stored, 0 failed",
                after.articles
            )),
            "{message}"
        );
        assert_eq!(check(pg).articles as usize, n);

        let file = dir.join("clean.db");
        let mut args = vec!["ingest"];
        args.extend(parts.iter().map(|p| path_str(p)));
        args.extend(["--db", path_str(&file)]);
        succeeds(&args);
        assert_eq!(
            contents(&dir, pg),
            contents(&dir, path_str(&file)),
            "the same articles and sources as one clean run, none twice"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
