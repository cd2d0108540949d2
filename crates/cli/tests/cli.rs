//! The `attest` binary run as a user runs it: arguments, standard input, files,
//! and what comes out on standard output, standard error and the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::{attest, stderr, stdout};

fn attest_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the attest binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .expect("stdin takes the text");
    child.wait_with_output().expect("attest finishes")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The reader crate's fixtures, made by its own tests (see its tests/data/README.md).
fn reader_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../read/tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON object"))
        .collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attest-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn with_no_input_it_reports_the_sample_article() {
    let output = attest(&["analyze"]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains("Dockworkers strike at Port of Halvard"),
        "{report}"
    );
    assert!(report.contains("Coastline News"), "{report}");
    assert!(
        !report.contains('\u{1b}'),
        "no colour when NO_COLOR is set or off a terminal"
    );
}

#[test]
fn the_sample_report_is_stable() {
    let output = attest(&["analyze", "--color", "never"]);
    insta::assert_snapshot!("sample_report", stdout(&output));
}

#[test]
fn reads_a_plain_text_file() {
    let output = attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("article.txt"),
    ]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let docs = json_lines(&output);
    assert_eq!(docs.len(), 1);
    assert!(
        docs[0]["sentences"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
    );
}

#[test]
fn reads_standard_input() {
    let output = attest_with_stdin(
        &["analyze", "--format", "jsonl", "-"],
        "“We will reopen,” the mayor said. Critics were unconvinced.".as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let docs = json_lines(&output);
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["id"], "-");
    assert_eq!(docs[0]["sentences"].as_array().map(Vec::len), Some(2));
}

#[test]
fn reads_an_html_page_with_its_metadata() {
    let output = attest(&[
        "analyze",
        "--format",
        "json",
        &reader_fixture("article.html"),
    ]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert!(doc["title"].is_string(), "{doc}");
    assert!(
        doc["paragraphs"].as_array().is_some_and(|p| p.len() >= 3),
        "{doc}"
    );
}

#[test]
fn reads_a_gzipped_warc_file() {
    let output = attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("crawl.warc.gz"),
    ]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let docs = json_lines(&output);
    assert!(!docs.is_empty());
    assert!(docs.iter().all(|doc| doc["url"].is_string()));
}

#[test]
fn a_malformed_json_line_fails_alone_and_names_its_line() {
    let output = attest(&["analyze", "--format", "jsonl", &data("bad-batch.jsonl")]);
    assert_eq!(output.status.code(), Some(1));
    let ids: Vec<String> = json_lines(&output)
        .iter()
        .map(|doc| doc["id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        ids,
        ["first", "third"],
        "the other lines are processed, in order"
    );
    assert!(
        stderr(&output).contains("bad-batch.jsonl:2"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn invalid_utf8_is_decoded_with_a_warning_naming_the_byte() {
    let output = attest(&["analyze", "--format", "jsonl", &data("invalid-utf8.txt")]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let text = json_lines(&output)[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains('\u{FFFD}') && text.contains("Workers returned"));
    assert!(
        stderr(&output).contains("37"),
        "the first bad byte is at offset 37: {}",
        stderr(&output)
    );
}

#[test]
fn empty_and_missing_inputs_fail_while_the_rest_is_processed() {
    let output = attest(&[
        "analyze",
        "--format",
        "jsonl",
        &data("empty.txt"),
        &data("no-such-file.txt"),
        &reader_fixture("article.txt"),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output).len(), 1);
    let errors = stderr(&output);
    assert!(
        errors.contains("empty.txt") && errors.contains("no-such-file.txt"),
        "{errors}"
    );
}

#[test]
fn articles_over_the_size_limit_fail_with_the_limit_named() {
    let output = attest(&[
        "analyze",
        "--max-article-bytes",
        "100",
        &reader_fixture("article.txt"),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("100"), "{}", stderr(&output));
}

#[test]
fn usage_errors_exit_with_status_2() {
    assert_eq!(
        attest(&["analyze", "--format", "brat"]).status.code(),
        Some(2)
    );
    assert_eq!(
        attest(&["analyze", "--format", "yaml"]).status.code(),
        Some(2)
    );
    assert_eq!(attest(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(attest(&["--help"]).status.code(), Some(0));
}

#[test]
fn brat_output_writes_the_text_and_annotations_in_code_points() {
    let dir = temp_dir("brat");
    let output = attest(&[
        "analyze",
        "--format",
        "brat",
        "--out",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the brat directory exists")
        .filter_map(|entry| {
            entry
                .ok()
                .map(|e| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    let txt = names
        .iter()
        .find(|n| n.ends_with(".txt"))
        .expect("a .txt file");
    let text = std::fs::read_to_string(dir.join(txt)).expect("the text is readable");
    assert!(text.starts_with("Dockworkers strike"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_spans_round_trip_to_their_text() {
    let output = attest(&["analyze", "--format", "json", "--tokens"]);
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    let text = doc["text"].as_str().expect("the text is written");
    let chars: Vec<char> = text.chars().collect();
    let mut checked = 0;
    for sentence in doc["sentences"].as_array().expect("sentences") {
        let span = &sentence["span"];
        let (b0, b1) = (
            span["byte_start"].as_u64().unwrap_or(0) as usize,
            span["byte_end"].as_u64().unwrap_or(0) as usize,
        );
        let (c0, c1) = (
            span["cp_start"].as_u64().unwrap_or(0) as usize,
            span["cp_end"].as_u64().unwrap_or(0) as usize,
        );
        assert_eq!(&text[b0..b1], span["text"].as_str().unwrap_or_default());
        assert_eq!(
            chars[c0..c1].iter().collect::<String>(),
            span["text"].as_str().unwrap_or_default()
        );
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let first = attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("batch.jsonl"),
        &reader_fixture("crawl.warc"),
    ]);
    let second = attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("batch.jsonl"),
        &reader_fixture("crawl.warc"),
    ]);
    assert_eq!(first.stdout, second.stdout);
}

/// Runs attest with its standard output closed at once, as `attest … | head -0`
/// would: it must end quietly with status 0, not panic.
fn attest_into_closed_pipe(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the attest binary runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("attest finishes")
}

#[test]
fn a_closed_output_pipe_ends_analyze_quietly() {
    let dir = temp_dir("pipe");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let batch = dir.join("many.jsonl");
    let line = "{\"text\":\"The port reopened on Friday, officials said. Workers returned.\"}\n";
    std::fs::write(&batch, line.repeat(3000)).expect("the batch is written");
    let output =
        attest_into_closed_pipe(&["analyze", "--format", "jsonl", &batch.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn a_closed_output_pipe_ends_eval_quietly() {
    let dev = attest_corpus::testing::polnear_split("dev");
    let output = attest_into_closed_pipe(&["eval", "tokens", &dev.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

/// The texts of a document's attribution and source layers, which do not
/// depend on where its paragraphs start.
fn sourcing_texts(doc: &serde_json::Value) -> Vec<String> {
    let texts = |spans: &serde_json::Value| -> String {
        spans
            .as_array()
            .into_iter()
            .flatten()
            .map(|span| span["text"].as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let mut out = Vec::new();
    for a in doc["attributions"].as_array().expect("attributions") {
        out.push(format!(
            "attribution {} / {} / {}",
            texts(&a["source"]),
            texts(&a["cue"]),
            texts(&a["content"])
        ));
    }
    for s in doc["sources"].as_array().expect("sources") {
        out.push(format!(
            "source {} {} {} {:?}",
            s["name"],
            s["kind"],
            texts(&s["mentions"]),
            s["attributions"]
        ));
    }
    out
}

#[test]
fn single_line_breaks_and_blank_lines_give_the_same_sourcing() {
    let paragraphs = [
        "Ferry workers walk out over rotas",
        "By Tomas Reyes",
        "GULLHAVEN, Maine — About 90 ferry workers walked off the job on Monday, the Seaboard Mariners Union said.",
        "The operator, Gullhaven Ferries, said it had offered a new rota in March and called the strike “reckless.”",
        "“Nobody wants to strand islanders,” said union steward Ines Okafor. “But we cannot work sixteen-hour days.”",
        "Okafor said the crews would return if the company agreed to talks. The company did not respond to a request for comment.",
        "Island residents said they had been told to expect delays all week.",
    ];
    let dir = temp_dir("line-paragraphs");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut docs = Vec::new();
    for (name, separator) in [("blank.txt", "\n\n"), ("lines.txt", "\n")] {
        let path = dir.join(name);
        std::fs::write(&path, paragraphs.join(separator)).expect("the article is written");
        let output = attest(&["analyze", "--format", "json", &path.to_string_lossy()]);
        assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
        let doc: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("one JSON document");
        assert_eq!(
            doc["paragraphs"].as_array().map(Vec::len),
            Some(paragraphs.len()),
            "{name}"
        );
        docs.push(sourcing_texts(&doc));
    }
    assert!(docs[0].len() > 5, "{:?}", docs[0]);
    assert_eq!(docs[0], docs[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tiny random-weight encoder in a directory of its own.
fn tiny_encoder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attest-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    attest_encoder::testing::write_random_model(&dir, attest_encoder::testing::Size::TINY, 5)
        .expect("the tiny model is written");
    dir
}

#[test]
fn json_names_the_model_that_made_it() {
    let text = "“The bridge is safe,” the mayor said on Monday.\n\nCritics disagreed.";
    let fast = attest_with_stdin(&["analyze", "--format", "jsonl", "-"], text.as_bytes());
    assert!(fast.status.success(), "{}", stderr(&fast));
    assert_eq!(json_lines(&fast)[0]["model"], "fast");
    let dir = tiny_encoder("json");
    let dir = dir.to_string_lossy();
    let accurate = attest_with_stdin(
        &[
            "analyze",
            "--format",
            "jsonl",
            "--model",
            "accurate",
            "--model-dir",
            &dir,
            "-",
        ],
        text.as_bytes(),
    );
    assert!(accurate.status.success(), "{}", stderr(&accurate));
    let doc = &json_lines(&accurate)[0];
    assert_eq!(doc["model"], "accurate");
    let layers = doc["layers"].as_array().expect("layers");
    for layer in [
        "attributions",
        "entities",
        "stances",
        "sources",
        "hedges",
        "times",
    ] {
        assert!(layers.iter().any(|l| l == layer), "{layer} in {layers:?}");
    }
    assert_eq!(
        doc["diagnostics"].as_array().map(Vec::len),
        Some(0),
        "{doc}"
    );
}

#[test]
fn a_missing_encoder_directory_is_a_clear_usage_error() {
    let missing = std::env::temp_dir().join("attest-no-such-encoder");
    let missing = missing.to_string_lossy();
    let output = attest(&["analyze", "--model", "accurate", "--model-dir", &missing]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("attest-no-such-encoder") && message.contains("not found"),
        "{message}"
    );
}

#[test]
fn eval_sources_scores_each_gold_set_and_all_together() {
    let set = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../sources/tests/data")
            .join(name)
            .to_string_lossy()
            .into_owned()
    };
    let (gold, gold2) = (set("gold"), set("gold2"));
    let output = attest(&["eval", "sources", &gold, &gold2, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let sets = json["sets"].as_array().expect("sets");
    assert_eq!(sets.len(), 2);
    let count = |v: &serde_json::Value| v["attributions"].as_u64().expect("a count");
    assert_eq!(
        count(&json["overall"]),
        count(&sets[0]["scores"]) + count(&sets[1]["scores"])
    );

    let dir = temp_dir("floors");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let floors = dir.join("floors.json");
    let zero = r#"{"source_resolution": 0, "source_type": 0, "stance": 0, "hedge_f1": 0, "quotations": 0}"#;
    std::fs::write(
        &floors,
        format!(r#"{{"sources": {zero}, "sources_gold2": {zero}}}"#),
    )
    .expect("written");
    let output = attest(&[
        "eval",
        "sources",
        &gold,
        &gold2,
        "--floors",
        &floors.to_string_lossy(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("Overall, 2 sets"), "{text}");
    assert!(text.contains("floor sources.stance"), "{text}");
    assert!(text.contains("floor sources_gold2.stance"), "{text}");
}

/// attest's first gold set of sources.
fn gold_set() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sources/tests/data/gold")
        .to_string_lossy()
        .into_owned()
}

/// A PolNeAR-format split of one article written for this test, and labels of it.
fn labelled_split(name: &str, sources_rows: &str) -> (PathBuf, PathBuf) {
    let root = temp_dir(name);
    let split = root.join("mini");
    std::fs::create_dir_all(split.join("text")).expect("a directory");
    std::fs::create_dir_all(split.join("attributions")).expect("a directory");
    let text = "Mayor Ines Calloway denied the report. The port probably lost money.\n";
    std::fs::write(split.join("text/story.txt"), text).expect("written");
    let ann = "T1\tSource 0 19\tMayor Ines Calloway\nT2\tCue 20 26\tdenied\nT3\tContent 27 37\tthe report\n\
               T4\tAttribution 20 26\tdenied\nE1\tAttribution:T4 Source:T1 Cue:T2 Content:T3\n";
    std::fs::write(split.join("attributions/story_a1.ann"), ann).expect("written");
    let labels = root.join("labels");
    std::fs::create_dir_all(&labels).expect("a directory");
    std::fs::write(
        labels.join("mini.sources.tsv"),
        format!("article\tattribution_id\tstance\tsource_type\tcanonical_source\tdirect_quote\n{sources_rows}"),
    )
    .expect("written");
    std::fs::write(
        labels.join("mini.hedges.tsv"),
        "article\thedge_id\tcue_start\tcue_end\tscope_start\tscope_end\tannotated_as\tinside_content_of\n\
         story\tH1\t48\t56\t39\t67\t-\t-\n",
    )
    .expect("written");
    (split, labels)
}

#[test]
fn eval_sources_scores_a_labelled_split_given_and_end_to_end() {
    let (split, labels) = labelled_split(
        "labelled-split",
        "story\tE1\tdenies\tnamed person\tInes Calloway\tno\n",
    );
    let (split, labels) = (split.to_string_lossy(), labels.to_string_lossy());
    let gold = gold_set();
    let output = attest(&[
        "eval",
        "sources",
        &gold,
        "--polnear",
        &split,
        "--labels",
        &labels,
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let given = &json["polnear"]["given"];
    assert_eq!(given["labelled"], 1);
    assert_eq!(given["matched"], 1);
    assert_eq!(given["stance"]["right"], 1, "{given}");
    assert_eq!(given["source_type"]["right"], 1, "{given}");
    assert_eq!(given["canonical_source"]["right"], 1, "{given}");
    assert_eq!(given["stance_confusion"][0]["labelled"], "denies");
    let hedges = &json["polnear"]["hedges"];
    assert_eq!(hedges["labelled"], 1);
    assert_eq!(hedges["matched"], 1, "\"probably\" is found: {hedges}");

    let output = attest(&[
        "eval",
        "sources",
        &gold,
        "--polnear",
        &split,
        "--labels",
        &labels,
    ]);
    let text = stdout(&output);
    assert!(
        text.contains("stance confusion (rows labelled, columns found)"),
        "{text}"
    );
    assert!(text.contains("source type confusion"), "{text}");
}

#[test]
fn eval_sources_refuses_labels_that_disagree_with_the_gold_naming_the_line() {
    let (split, labels) = labelled_split(
        "mislabelled-split",
        "story\tE1\tdenies\tnamed person\tInes Calloway\tno\nstory\tE2\tasserts\tnamed person\tInes Calloway\tno\n",
    );
    let output = attest(&[
        "eval",
        "sources",
        &gold_set(),
        "--polnear",
        &split.to_string_lossy(),
        "--labels",
        &labels.to_string_lossy(),
    ]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("story line 3 (E2): no such attribution in the .ann file"),
        "{err}"
    );
}

// ------------------------------------------------------- the streaming filter

/// Five records on standard input: a good one, one that is not JSON, one whose
/// date is bad but whose id reads, and two good ones.
const PIPED: &str = concat!(
    r#"{"id":"p1","text":"The mayor said the bridge would reopen in May."}"#,
    "\n",
    r#"{"id":"p2","text": oops}"#,
    "\n",
    r#"{"id":"p3","text":"Officials declined to comment.","published":"someday"}"#,
    "\n",
    r#"{"id":"p4","text":"Prices will rise, the bank said on Tuesday."}"#,
    "\n",
    r#"{"text":"A record without an id is known by its place."}"#,
    "\n",
);

#[test]
fn a_bad_record_in_a_pipe_is_one_error_line_in_its_place() {
    let output = attest_with_stdin(
        &[
            "analyze",
            "--input-format",
            "jsonl",
            "--format",
            "jsonl",
            "--errors",
            "inline",
            "-",
        ],
        PIPED.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 5, "one line per record: {}", stdout(&output));
    assert_eq!(lines[0]["id"], "p1");
    assert_eq!(lines[0]["schema"], "attest.document/1");
    assert_eq!(
        lines[1]["id"],
        serde_json::Value::Null,
        "no id could be read"
    );
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("-:2: ")),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["id"], "p3", "the id read before the record failed");
    assert_eq!(lines[2]["line"], 3);
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("published"))
    );
    assert_eq!(lines[3]["id"], "p4");
    assert_eq!(lines[4]["id"], "-:5");
    assert!(
        lines
            .iter()
            .filter(|line| line.get("error").is_some())
            .count()
            == 2,
        "only the two bad records are errors"
    );
}

#[test]
fn without_inline_errors_a_bad_piped_record_goes_to_standard_error() {
    let output = attest_with_stdin(
        &[
            "analyze",
            "--input-format",
            "jsonl",
            "--format",
            "jsonl",
            "-",
        ],
        PIPED.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json_lines(&output).len(), 3);
    assert!(stderr(&output).contains("-:2: "), "{}", stderr(&output));
}

#[test]
fn inline_errors_need_json_lines_output() {
    let output = attest_with_stdin(&["analyze", "--errors", "inline", "-"], b"Some text.");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--format jsonl"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn standard_input_is_read_in_the_format_given() {
    let html = std::fs::read(reader_fixture("article.html")).expect("the fixture reads");
    let output = attest_with_stdin(
        &[
            "analyze",
            "--input-format",
            "html",
            "--format",
            "jsonl",
            "-",
        ],
        &html,
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let from_stdin = json_lines(&output);
    let from_file = json_lines(&attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("article.html"),
    ]));
    assert_eq!(from_stdin.len(), 1);
    assert_eq!(from_stdin[0]["title"], from_file[0]["title"]);
    assert_eq!(from_stdin[0]["text"], from_file[0]["text"]);

    let warc = std::fs::read(reader_fixture("crawl.warc.gz")).expect("the fixture reads");
    let output = attest_with_stdin(
        &[
            "analyze",
            "--input-format",
            "warc",
            "--format",
            "jsonl",
            "-",
        ],
        &warc,
    );
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    let from_file = json_lines(&attest(&[
        "analyze",
        "--format",
        "jsonl",
        &reader_fixture("crawl.warc.gz"),
    ]));
    let urls = |docs: &[serde_json::Value]| {
        docs.iter()
            .map(|doc| doc["url"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(urls(&json_lines(&output)), urls(&from_file));
}

#[test]
fn models_from_a_directory_analyse_as_the_bundled_ones_and_a_missing_one_is_named() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let shipped = shipped.to_string_lossy();
    let bundled = attest(&["analyze", "--format", "jsonl"]);
    let read = attest(&["analyze", "--format", "jsonl", "--models", &shipped]);
    assert!(read.status.success(), "{}", stderr(&read));
    assert_eq!(stdout(&read), stdout(&bundled));

    let empty = temp_dir("no-models");
    std::fs::create_dir_all(&empty).unwrap();
    let missing = attest(&["analyze", "--models", &empty.to_string_lossy()]);
    assert!(!missing.status.success());
    let message = stderr(&missing);
    assert!(
        message.contains("--models") && message.contains("pos.model"),
        "{message}"
    );
    std::fs::remove_dir_all(&empty).unwrap();
}
