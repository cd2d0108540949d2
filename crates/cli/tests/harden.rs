//! The defects a hostile probe found, each run as a user meets it: exports
//! over the ledger, devices and existing files; blank and duplicate ids;
//! terminal escapes from article text; a ledger in a directory the user
//! cannot write; NUL bytes; repeated causes in error messages; and output
//! names that brat expects.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{attest, stderr, stdout};
#[path = "common/files.rs"]
mod files;
use files::listing;

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attest-harden-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("the temporary directory is made");
    dir
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Runs attest and expects exit status `code`; returns the output.
fn run(args: &[&str], code: i32) -> Output {
    let output = attest(args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "attest {args:?}\nstderr: {}",
        stderr(&output)
    );
    output
}

/// A JSON Lines file `dir/name` of these records.
fn jsonl(dir: &Path, name: &str, records: &[&str]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, records.join("\n") + "\n").expect("written");
    path
}

/// A small ledger of three articles in `dir/attest.db`.
fn ledger(dir: &Path) -> PathBuf {
    let corpus = jsonl(
        dir,
        "corpus.jsonl",
        &[
            r#"{"id":"a1","text":"The mayor said the bridge would reopen in May.","outlet":"Ridge Courier"}"#,
            r#"{"id":"a2","text":"\"It is a disaster,\" said Tomas Reyes, a county spokesman.","outlet":"Valley Post"}"#,
            r#"{"id":"a3","text":"Officials declined to comment on the ferry fares.","outlet":"Valley Post"}"#,
        ],
    );
    let db = dir.join("attest.db");
    run(&["ingest", path_str(&corpus), "--db", path_str(&db)], 0);
    db
}

fn export(db: &Path, out: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "export",
        "articles",
        "--format",
        "csv",
        "--out",
        out,
        "--db",
        path_str(db),
    ];
    args.extend(extra);
    attest(&args)
}

/// Runs attest, expects exit status `code` and `needle` on standard error.
fn reports(args: &[&str], code: i32, needle: &str) -> String {
    let err = stderr(&run(args, code));
    assert!(err.contains(needle), "{needle:?} not in: {err}");
    err
}

fn refused(output: &Output, needle: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "{needle:?} not in: {err}");
}

fn temporary_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .expect("listed")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("attest-tmp"))
        .collect()
}

#[test]
fn export_replaces_only_regular_files_and_never_the_ledger() {
    let dir = temp_dir("export");
    let db = ledger(&dir);
    let before = fs::read(&db).expect("the ledger");

    refused(&export(&db, path_str(&db), &["--force"]), "is the ledger");
    // A journal that does not exist yet is SQLite's all the same: the next
    // ingest would delete what export wrote there.
    let journal = format!("{}-journal", path_str(&db));
    refused(&export(&db, &journal, &[]), "a name SQLite uses");
    assert!(!Path::new(&journal).exists());
    #[cfg(unix)]
    {
        let link = dir.join("innocent.csv");
        std::os::unix::fs::symlink(&db, &link).expect("linked");
        refused(&export(&db, path_str(&link), &["--force"]), "is the ledger");
        let hard = dir.join("hard.csv");
        fs::hard_link(&db, &hard).expect("linked");
        refused(&export(&db, path_str(&hard), &["--force"]), "is the ledger");
        fs::remove_file(&hard).expect("removed");
        refused(&export(&db, "/dev/null", &["--force"]), "a device");
        let fifo = dir.join("fifo");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            refused(&export(&db, path_str(&fifo), &["--force"]), "a FIFO");
            let kind = fs::symlink_metadata(&fifo)
                .expect("still there")
                .file_type();
            assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind));
        } else {
            println!("skipped the FIFO case: mkfifo is not available");
        }
    }
    refused(&export(&db, path_str(&dir), &["--force"]), "a directory");
    assert_eq!(
        fs::read(&db).expect("the ledger"),
        before,
        "the ledger is untouched"
    );

    let out = dir.join("articles.csv");
    fs::write(&out, "precious\n").expect("written");
    refused(&export(&db, path_str(&out), &[]), "--force");
    assert_eq!(fs::read_to_string(&out).expect("kept"), "precious\n");
    let replaced = export(&db, path_str(&out), &["--force"]);
    assert_eq!(replaced.status.code(), Some(0), "{}", stderr(&replaced));
    assert!(
        fs::read_to_string(&out)
            .expect("written")
            .starts_with("id,key,")
    );

    let to_stdout = export(&db, "-", &[]);
    assert!(stdout(&to_stdout).starts_with("id,key,"));
    let parquet = attest(&[
        "export",
        "sources",
        "--format",
        "parquet",
        "--out",
        "-",
        "--db",
        path_str(&db),
    ]);
    assert_eq!(parquet.status.code(), Some(0), "{}", stderr(&parquet));
    assert!(parquet.stdout.starts_with(b"PAR1") && parquet.stdout.ends_with(b"PAR1"));
    assert!(temporary_files(&dir).is_empty());
    let _ = fs::remove_dir_all(&dir);
}

/// An export that never ends, stopped by `signal` once its temporary file
/// exists: nothing appears under the final name.
#[cfg(unix)]
fn stop_endless_export(dir: &Path, db: &Path, signal: &str) -> Vec<String> {
    let out = dir.join(format!("endless-{signal}.csv"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args([
            "export",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n",
            "--format",
            "csv",
            "--out",
            path_str(&out),
            "--db",
            path_str(db),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("attest starts");
    let started = Instant::now();
    while temporary_files(dir).is_empty() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    child.wait().expect("attest ends");
    assert!(
        !out.exists(),
        "a stopped export leaves nothing under its name"
    );
    temporary_files(dir)
}

#[cfg(unix)]
#[test]
fn a_stopped_export_leaves_no_file_under_its_name() {
    let dir = temp_dir("endless");
    let db = ledger(&dir);
    assert_eq!(
        stop_endless_export(&dir, &db, "TERM"),
        Vec::<String>::new(),
        "SIGTERM removes the temporary file"
    );
    let left = stop_endless_export(&dir, &db, "KILL");
    assert!(
        left.iter().all(|name| name.starts_with('.')),
        "after SIGKILL only a hidden temporary file may remain: {left:?}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn blank_ids_fail_their_record_or_fall_back_to_the_content() {
    let dir = temp_dir("blank-ids");
    let corpus = dir.join("blank.jsonl");
    let lines: Vec<String> = ["Ferries", "Buses", "Trams", "Bridges", "Tunnels"]
        .iter()
        .enumerate()
        .map(|(i, what)| {
            let id = if i % 2 == 0 { "" } else { "  " };
            format!(r#"{{"id":"{id}","text":"{what} will cost more from May, the council said."}}"#)
        })
        .collect();
    fs::write(&corpus, lines.join("\n")).expect("written");
    let db = dir.join("attest.db");
    let output = run(&["ingest", path_str(&corpus), "--db", path_str(&db)], 1);
    let err = stderr(&output);
    for line in 1..=5 {
        assert!(
            err.contains(&format!("blank.jsonl:{line}: blank `id`")),
            "{err}"
        );
    }
    let (corpus, db) = (path_str(&corpus), path_str(&db));
    reports(
        &["ingest", corpus, "--db", db, "--blank-id", "hash"],
        0,
        "5 articles: 5 added",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn duplicate_ids_with_different_content_are_reported() {
    let dir = temp_dir("duplicate-ids");
    let corpus = jsonl(
        &dir,
        "dup.jsonl",
        &[
            r#"{"id":"x","text":"The library opens on Sundays, the council said."}"#,
            r#"{"id":"x","text":"The library opens on Sundays, the council said."}"#,
            r#"{"id":"x","text":"The pool closes in winter, the council said."}"#,
        ],
    );
    // analyze writes every document but fails the run, as ingest does.
    let output = run(&["analyze", "--format", "jsonl", path_str(&corpus)], 1);
    assert_eq!(stdout(&output).lines().count(), 3);
    assert!(
        stderr(&output).contains("dup.jsonl:3: id \"x\" was already given by"),
        "{}",
        stderr(&output)
    );
    let db = dir.join("attest.db");
    let output = run(&["ingest", path_str(&corpus), "--db", path_str(&db)], 1);
    let err = stderr(&output);
    assert!(
        err.contains("dup.jsonl:3: id \"x\" was already given by") && err.contains("dup.jsonl:1"),
        "{err}"
    );
    assert!(err.contains("1 added"), "{err}");

    let changed = dir.join("changed.jsonl");
    fs::write(
        &changed,
        r#"{"id":"x","text":"The museum extends its hours, the council said."}"#,
    )
    .expect("written");
    let (changed, db) = (path_str(&changed), path_str(&db));
    reports(
        &["ingest", changed, "--db", db],
        1,
        "already stored with different content",
    );
    reports(
        &["ingest", changed, "--db", db, "--update"],
        0,
        "1 replaced",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_table_shows_control_and_bidi_characters_as_escapes() {
    let dir = temp_dir("escapes");
    let corpus = jsonl(
        &dir,
        "escapes.jsonl",
        &[
            r#"{"id":"e\u001b]0;owned\u0007","outlet":"Evil\u001b[2J News\u202e","text":"\"The plan is a disaster \u001b[31mfor everyone\u009b,\" said Tomas Reyes.\n\nHe said the vote was \u202erigged\u202c.\n\n\"We are done,\" said Mayor Jo \u001b[2JQuill\u200f.\n\n\"It is over,\" said Ana Ruiz\u061c."}"#,
        ],
    );
    let bad_characters = [
        '\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\u{202c}', '\u{200f}', '\u{61c}',
    ];
    // Every table of the report: attributions, sources, statements,
    // quotations, hedges, the summary.
    let output = run(&["analyze", path_str(&corpus)], 0);
    let shown = stdout(&output);
    for bad in bad_characters {
        assert!(!shown.contains(bad), "the report printed {bad:?}: {shown}");
    }
    assert!(shown.contains("Quill\\u{200f}"), "{shown}");
    let db = dir.join("attest.db");
    run(&["ingest", path_str(&corpus), "--db", path_str(&db)], 0);
    for args in [
        vec!["search", "disaster"],
        vec!["search", "over"],
        vec!["sources"],
        vec!["said", "Tomas Reyes"],
        vec!["stats"],
        vec!["stats", "--by", "month"],
    ] {
        let mut args = args;
        args.extend(["--db", path_str(&db)]);
        let output = run(&args, 0);
        let shown = stdout(&output);
        for bad in bad_characters {
            assert!(!shown.contains(bad), "{args:?} printed {bad:?}: {shown}");
        }
        if args[..2] == ["search", "disaster"] {
            assert!(shown.contains("\\u{1b}[31mfor"), "{shown}");
            assert!(shown.contains("Evil\\u{1b}[2J News\\u{202e}"), "{shown}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Whether this process runs as root, which file permissions do not stop.
#[cfg(unix)]
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = temp_dir("whoami").join("probe");
    fs::write(&probe, "").expect("written");
    let root = fs::metadata(&probe).expect("exists").uid() == 0;
    let _ = fs::remove_dir_all(probe.parent().expect("a directory"));
    root
}

/// Runs attest as a user whom file permissions bind: as this user, or, when
/// that is root (which writes anywhere), as `nobody` through `setpriv`.
/// `None`, with the reason printed, where neither can be done.
#[cfg(unix)]
fn attest_as_user(args: &[&str]) -> Option<Output> {
    if !is_root() {
        return Some(attest(args));
    }
    let as_nobody = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_attest"))
        .args(args)
        .env("NO_COLOR", "1")
        .output();
    match as_nobody {
        Ok(output) if !stderr(&output).starts_with("setpriv:") => Some(output),
        _ => {
            println!("skipped: running as root, and setpriv cannot run attest as nobody");
            None
        }
    }
}

#[cfg(unix)]
#[test]
fn a_ledger_in_a_directory_the_user_cannot_write_is_queried() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("read-only-dir");
    let shared = dir.join("shared");
    fs::create_dir(&shared).expect("made");
    let db = ledger(&shared);
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    let wal = PathBuf::from(wal);
    // A -wal file with content, as a killed ingest leaves it: kept aside while
    // the connection that wrote it closes and merges it.
    let writer = rusqlite::Connection::open(&db).expect("it opens");
    writer
        .execute_batch("PRAGMA wal_autocheckpoint = 0; CREATE TABLE scratch (x); INSERT INTO scratch VALUES (1);")
        .expect("written");
    let unmerged = fs::read(&wal).expect("a -wal file");
    drop(writer);

    let lock = |mode| {
        fs::set_permissions(&shared, fs::Permissions::from_mode(mode)).expect("chmod");
    };
    fs::set_permissions(&db, fs::Permissions::from_mode(0o444)).expect("chmod");
    lock(0o555);
    let args = ["sources", "--db", path_str(&db)];
    if let Some(output) = attest_as_user(&args) {
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            stdout(&output).contains("Tomas Reyes"),
            "{}",
            stdout(&output)
        );
        let created: Vec<String> = fs::read_dir(&shared)
            .expect("listed")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with("-wal") || name.ends_with("-shm"))
            .collect();
        assert!(created.is_empty(), "created beside the ledger: {created:?}");

        lock(0o755);
        fs::write(&wal, &unmerged).expect("written");
        lock(0o555);
        let output = attest_as_user(&args).expect("it ran before");
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains("cannot read the unmerged changes"), "{err}");
        assert_eq!(
            err.matches(path_str(&db)).count(),
            2,
            "the ledger and its -wal: {err}"
        );
    }
    lock(0o755);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn text_with_a_few_nuls_is_read_and_binary_is_skipped() {
    let dir = temp_dir("nul");
    let text = dir.join("nul.txt");
    fs::write(
        &text,
        b"The council said\0 the ferry would run\0 all winter.\n" as &[u8],
    )
    .expect("written");
    let output = run(&["analyze", "--format", "jsonl", path_str(&text)], 0);
    let err = stderr(&output);
    assert!(
        err.contains("2 NUL bytes in the text, kept, at byte 16, 37"),
        "{err}"
    );
    assert_eq!(stdout(&output).lines().count(), 1);

    let binary = dir.join("image.txt");
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend([0u8; 64]);
    fs::write(&binary, bytes).expect("written");
    reports(
        &["analyze", "--format", "jsonl", path_str(&binary)],
        1,
        "binary file",
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn error_messages_say_their_cause_once() {
    let dir = temp_dir("messages");
    let corpus = dir.join("one.txt");
    fs::write(&corpus, "The council said the ferry would run.").expect("written");
    let db = dir.join("no-such-dir").join("attest.db");
    let output = run(&["ingest", path_str(&corpus), "--db", path_str(&db)], 2);
    let err = stderr(&output);
    assert_eq!(
        err.matches("unable to open database file").count(),
        1,
        "{err}"
    );
    assert_eq!(err.matches(path_str(&db)).count(), 1, "{err}");

    let missing = dir.join("missing.txt");
    let output = run(&["analyze", path_str(&missing)], 1);
    let err = stderr(&output);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    assert_eq!(err.matches(path_str(&missing)).count(), 1, "{err}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn brat_files_mirror_the_inputs_and_collisions_are_reported() {
    let dir = temp_dir("names");
    let corpus = dir.join("corpus");
    for sub in ["a", "b", "c"] {
        fs::create_dir_all(corpus.join(sub)).expect("made");
    }
    let story = "The mayor said the bridge would reopen in May.";
    fs::write(corpus.join("a/story.txt"), story).expect("written");
    fs::write(corpus.join("b/story.txt"), story).expect("written");
    fs::write(corpus.join("c/same.txt"), story).expect("written");
    fs::write(
        corpus.join("c/same.html"),
        "<html><body><article><p>The council said the pool would open on Sunday, as planned.</p></article></body></html>",
    )
    .expect("written");
    jsonl(
        &corpus,
        "news.jsonl",
        &[
            r#"{"id":"wire/2026 one","text":"The port said the strike had ended."}"#,
            r#"{"text":"A record without an id, the editor said."}"#,
        ],
    );
    let out = dir.join("out");
    let args = [
        "analyze",
        path_str(&corpus),
        "--format",
        "brat",
        "--out",
        path_str(&out),
    ];
    let output = run(&args, 1);
    let err = stderr(&output);
    assert!(err.contains("is taken by the article read at"), "{err}");
    assert_eq!(
        listing(&out),
        [
            "a/story.ann",
            "a/story.txt",
            "b/story.ann",
            "b/story.txt",
            "c/same.ann",
            "c/same.txt",
            "news/line-2.ann",
            "news/line-2.txt",
            "news/wire_2026_one.ann",
            "news/wire_2026_one.txt",
        ]
    );
    assert!(
        fs::read_to_string(out.join("c/same.txt"))
            .expect("written")
            .contains("pool"),
        "the first article of a name keeps it (c/same.html sorts first)"
    );
    assert_eq!(
        fs::read_to_string(out.join("a/story.txt")).expect("written"),
        story
    );

    reports(&args, 1, "exists; give --force");
    let mut forced = args.to_vec();
    forced.push("--force");
    run(&forced, 1);

    let json = dir.join("json");
    let one = corpus.join("a/story.txt");
    run(
        &[
            "analyze",
            path_str(&one),
            "--format",
            "json",
            "--out",
            path_str(&json),
        ],
        0,
    );
    assert_eq!(listing(&json), ["story.json"]);
    let _ = fs::remove_dir_all(&dir);
}
