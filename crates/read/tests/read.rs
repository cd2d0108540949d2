//! Every format and every bad-input case, through the public API.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use attest_doc::{Budget, Limits};
use attest_read::{
    Input, InputFormat, ReadConfig, ReadError, ReadErrorKind, ReadItem, read_html_str, read_inputs,
};

fn config() -> ReadConfig {
    ReadConfig {
        limits: Limits::DEFAULT,
    }
}

fn read_with(paths: &[&Path], limits: Limits) -> Vec<Result<ReadItem, ReadError>> {
    let inputs = paths
        .iter()
        .map(|path| Input::Path(path.to_path_buf()))
        .collect();
    read_inputs(inputs, ReadConfig { limits }).collect()
}

fn read(paths: &[&Path]) -> Vec<Result<ReadItem, ReadError>> {
    read_with(paths, Limits::DEFAULT)
}

fn read_one(path: &Path) -> Result<ReadItem, ReadError> {
    let mut items = read(&[path]);
    assert_eq!(items.len(), 1, "one item expected from {}", path.display());
    items.remove(0)
}

fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, bytes).unwrap();
    path
}

fn error_text(result: &Result<ReadItem, ReadError>) -> String {
    match result {
        Ok(item) => panic!("expected an error, got article {}", item.article.id),
        Err(error) => error.to_string(),
    }
}

fn ok(result: &Result<ReadItem, ReadError>) -> &ReadItem {
    match result {
        Ok(item) => item,
        Err(error) => panic!("expected an article, got: {error}"),
    }
}

fn article(result: Result<ReadItem, ReadError>) -> ReadItem {
    match result {
        Ok(item) => item,
        Err(error) => panic!("expected an article, got: {error}"),
    }
}

// ---------------------------------------------------------------- plain text

#[test]
fn plain_text_file_is_one_article_with_its_path_as_id() {
    let path = common::data_dir().join("article.txt");
    let item = article(read_one(&path));
    assert_eq!(item.article.id, path.display().to_string());
    assert_eq!(item.article.text, fs::read_to_string(&path).unwrap());
    assert_eq!(item.article.title, None);
    assert!(item.warnings.is_empty());
}

#[test]
fn unknown_extension_named_explicitly_is_sniffed() {
    let dir = tempfile::tempdir().unwrap();
    let text = temp_file(&dir, "notes.data", b"The council met on Monday.");
    let html = temp_file(&dir, "page.data", common::PAGE_ONE.as_bytes());
    let warc = temp_file(&dir, "crawl.bin", &common::warc_bytes());
    let warc_gz = temp_file(&dir, "crawl.gzdata", &common::warc_gz_bytes());
    assert_eq!(
        article(read_one(&text)).article.text,
        "The council met on Monday."
    );
    let page = article(read_one(&html));
    assert_eq!(page.article.outlet.as_deref(), Some("Riverside Daily"));
    assert_eq!(read(&[&warc]).len(), 2);
    assert_eq!(read(&[&warc_gz]).len(), 2);
}

#[test]
fn a_chosen_format_overrides_extension_and_sniffing() {
    let dir = tempfile::tempdir().unwrap();
    let lines = temp_file(
        &dir,
        "records.txt",
        b"{\"id\":\"a\",\"text\":\"One.\"}\n{\"id\":\"b\",\"text\":\"Two.\"}\n",
    );
    let page = temp_file(&dir, "page.txt", common::PAGE_ONE.as_bytes());
    let read_as = |path: &Path, format| {
        read_inputs(vec![Input::Path(path.to_path_buf())], config())
            .format(Some(format))
            .collect::<Vec<_>>()
    };
    let ids: Vec<String> = read_as(&lines, InputFormat::Jsonl)
        .into_iter()
        .map(|item| article(item).article.id)
        .collect();
    assert_eq!(ids, ["a", "b"]);
    let read_as_html = read_as(&page, InputFormat::Html).remove(0);
    assert_eq!(
        article(read_as_html).article.outlet.as_deref(),
        Some("Riverside Daily")
    );
    assert_eq!(read(&[&lines]).len(), 1, "by extension, one text article");
}

// ---------------------------------------------------------------- JSON Lines

#[test]
fn jsonl_batch_reads_good_lines_and_names_bad_ones() {
    let path = common::data_dir().join("batch.jsonl");
    let shown = path.display().to_string();
    let items = read(&[&path]);
    assert_eq!(items.len(), 6, "{items:#?}");

    let first = ok(&items[0]);
    assert_eq!(first.article.id, "wire-001");
    assert_eq!(
        first.article.title.as_deref(),
        Some("Rail strike called off")
    );
    assert_eq!(
        first.article.url.as_deref(),
        Some("https://news.example/rail-strike")
    );
    assert_eq!(first.article.outlet.as_deref(), Some("Example Wire"));
    assert_eq!(first.article.language.as_deref(), Some("en"));
    assert_eq!(
        first.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-02-12T21:05:00+01:00")
    );
    assert!(first.article.text.contains("\n\n\"This is a pause"));

    let second = ok(&items[1]);
    // Line 2 is blank; the second article is on line 3.
    assert_eq!(second.article.id, format!("{shown}:3"));
    assert_eq!(
        second.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-02-13")
    );

    assert!(error_text(&items[2]).starts_with(&format!("{shown}:4: malformed JSON")));
    let bad_date = error_text(&items[3]);
    assert!(
        bad_date.starts_with(&format!("{shown}:5: bad `published`")),
        "{bad_date}"
    );
    assert!(bad_date.contains("next Tuesday"));
    assert_eq!(
        error_text(&items[4]),
        format!("{shown}:6: expected `text` string")
    );
    let last = ok(&items[5]);
    assert_eq!(last.article.id, "wire-004");
    assert_eq!(last.article.outlet, None);
}

#[test]
fn jsonl_line_over_the_limit_is_an_error_and_reading_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("{{\"text\":\"{}\"}}\n", "a".repeat(500));
    let contents = format!("{long}{{\"text\":\"short one\"}}\n");
    let path = temp_file(&dir, "long.jsonl", contents.as_bytes());
    let limits = Limits {
        jsonl_line_bytes: 100,
        ..Limits::DEFAULT
    };
    let items = read_with(&[&path], limits);
    assert_eq!(items.len(), 2);
    let error = items[0].as_ref().err().unwrap();
    assert_eq!(error.line(), Some(1));
    assert!(matches!(
        error.kind(),
        ReadErrorKind::LineTooLong {
            size: 511,
            limit: 100
        }
    ));
    assert_eq!(items[1].as_ref().unwrap().article.text, "short one");
}

#[test]
fn jsonl_article_over_the_limit_and_empty_text_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(
        &dir,
        "sizes.jsonl",
        b"{\"text\":\"0123456789abcdef\"}\n{\"text\":\"  \\n \"}\n{\"text\":\"fine\"}\n",
    );
    let limits = Limits {
        article_bytes: 10,
        ..Limits::DEFAULT
    };
    let items = read_with(&[&path], limits);
    assert!(matches!(
        items[0].as_ref().err().map(ReadError::kind),
        Some(ReadErrorKind::ArticleTooLarge {
            size: 16,
            limit: 10
        })
    ));
    assert!(error_text(&items[1]).ends_with(":2: empty article"));
    assert!(items[2].is_ok());
}

// ---------------------------------------------------------------- HTML

#[test]
fn html_page_gives_main_text_in_paragraphs_and_its_metadata() {
    let path = common::data_dir().join("article.html");
    let item = article(read_one(&path));
    let a = &item.article;
    assert_eq!(a.id, path.display().to_string());
    assert_eq!(
        a.title.as_deref(),
        Some("Lighthouse keepers return to Cape Morrow")
    );
    assert_eq!(
        a.url.as_deref(),
        Some("https://ledger.example/2026/03/04/lighthouse-keepers")
    );
    assert_eq!(a.outlet.as_deref(), Some("The Coastal Ledger"));
    assert_eq!(a.language.as_deref(), Some("en-GB"));
    assert_eq!(
        a.published.map(|p| p.to_string()).as_deref(),
        Some("2026-03-04T18:30:00-05:00")
    );
    for junk in [
        "Subscribe",
        "Most read",
        "Advertisement",
        "Copyright",
        "window.analytics",
    ] {
        assert!(
            !a.text.contains(junk),
            "{junk:?} leaked into the text:\n{}",
            a.text
        );
    }
    let paragraphs: Vec<&str> = a.text.split("\n\n").collect();
    assert!(paragraphs.len() >= 7, "{paragraphs:#?}");
    assert!(
        paragraphs
            .iter()
            .any(|p| p.starts_with("For the first time in forty years"))
    );
    assert!(
        paragraphs.contains(&"Fishermen welcome the decision"),
        "headings stand alone"
    );
    assert!(paragraphs.contains(
        &"We lost a night's catch each time, and nobody could tell us why the light was out."
    ));
    assert!(
        paragraphs.contains(&"Keepers start on April 1."),
        "list items stand alone"
    );
    assert!(paragraphs.contains(&"The lamp will be rewired over the summer."));
    assert!(
        paragraphs
            .iter()
            .all(|p| !p.contains('\n') && p.trim() == *p)
    );
    assert!(item.warnings.is_empty(), "{:?}", item.warnings);
}

#[test]
fn html_metadata_falls_back_in_order() {
    let page = r#"<html><head><title> Harbour  news </title>
        <meta property="og:url" content="https://x.example/og">
        <meta property="article:published_time" content="last week">
        <meta name="date" content="2026-04-01">
        </head><body><article><time datetime="2026-03-30">30 March</time>
        <p>The harbour master said the new pier would open in May, weather permitting, and that the old one would be kept for fishing boats.</p></article></body></html>"#;
    let item = read_html_str(page, "mem", &config(), Budget::unlimited()).unwrap();
    assert_eq!(item.article.title.as_deref(), Some("Harbour news"));
    assert_eq!(item.article.url.as_deref(), Some("https://x.example/og"));
    assert_eq!(
        item.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-04-01")
    );
    assert_eq!(item.warnings.len(), 1, "{:?}", item.warnings);
    assert!(item.warnings[0].message.contains("article:published_time"));
    assert!(item.warnings[0].message.contains("last week"));

    let with_time_only = page
        .replace(r#"<meta name="date" content="2026-04-01">"#, "")
        .replace(r#"content="last week""#, r#"content="""#);
    let item = read_html_str(&with_time_only, "mem", &config(), Budget::unlimited()).unwrap();
    assert_eq!(
        item.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-03-30")
    );
}

#[test]
fn html_short_pages_keep_their_text() {
    for (page, text) in [
        ("<html><body><p>Short.</p></body></html>", "Short."),
        (
            "Just some words, no tags at all.",
            "Just some words, no tags at all.",
        ),
        (
            "<nav><a href='/'>Home</a></nav><p>One line of news.</p>",
            "Home\n\nOne line of news.",
        ),
    ] {
        let item = read_html_str(page, "short", &config(), Budget::unlimited()).unwrap();
        assert_eq!(
            item.article.text, text,
            "nothing is lost from a page too short to clean"
        );
    }
}

#[test]
fn html_unreadable_time_is_warned_about_once() {
    let page = r#"<html><head><meta property="article:published_time" content="5 June"></head>
        <body><p>The ferry service will resume on Monday, the operator said in a statement.</p></body></html>"#;
    let item = read_html_str(page, "once", &config(), Budget::unlimited()).unwrap();
    assert_eq!(item.article.published, None);
    assert_eq!(item.warnings.len(), 1, "{:?}", item.warnings);
    assert_eq!(item.warnings[0].origin, "attest-read");
    assert!(item.warnings[0].message.starts_with(
        "once: publication time in <meta property=\"article:published_time\"> ignored"
    ));
}

#[test]
fn html_json_ld_gives_the_time_when_no_tag_does() {
    let page = r#"<html><head><script type="application/ld+json">
        {"@context":"https://schema.org","@type":"NewsArticle","headline":"Dunes fenced off",
         "datePublished":"2026-06-07T08:00:00+02:00","publisher":{"@type":"Organization","name":"Shore Post"}}
        </script></head><body><article><p>Wardens fenced off the northern dunes on Saturday to protect nesting birds, and asked walkers to keep to the boardwalk until August.</p></article></body></html>"#;
    let item = read_html_str(page, "ld", &config(), Budget::unlimited()).unwrap();
    assert_eq!(
        item.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-06-07T08:00:00+02:00")
    );
    assert_eq!(item.article.outlet.as_deref(), Some("Shore Post"));
}

#[test]
fn html_breaks_make_paragraphs() {
    let page = "<html><body><div>The ferry left at dawn.<br><br>It returned at noon, the captain said.<br>Nobody was hurt.</div></body></html>";
    let item = read_html_str(page, "brs", &config(), Budget::unlimited()).unwrap();
    assert_eq!(
        item.article.text,
        "The ferry left at dawn.\n\nIt returned at noon, the captain said.\n\nNobody was hurt."
    );
}

#[test]
fn html_deeper_than_the_limit_is_refused() {
    let deep = format!(
        "<html><body>{}<p>deep text</p></body></html>",
        "<div>".repeat(300)
    );
    let error = read_html_str(&deep, "deep.html", &config(), Budget::unlimited()).unwrap_err();
    assert!(matches!(
        error.kind(),
        ReadErrorKind::HtmlTooDeep { limit: 256, .. }
    ));
    assert!(
        error
            .to_string()
            .starts_with("deep.html: HTML nests elements")
    );
    // Unclosed paragraphs and list items do not nest in a parsed page.
    let flat = format!(
        "<html><body><ul>{}</ul></body></html>",
        "<li><p>an item".repeat(1000)
    );
    assert!(read_html_str(&flat, "flat.html", &config(), Budget::unlimited()).is_ok());
}

#[test]
fn html_without_text_is_empty() {
    let result = read_html_str(
        "<html><body><p>  </p></body></html>",
        "blank",
        &config(),
        Budget::unlimited(),
    );
    let error = result.unwrap_err();
    assert!(matches!(error.kind(), ReadErrorKind::Empty), "{error}");
}

// ---------------------------------------------------------------- WARC

fn check_crawl(items: Vec<Result<ReadItem, ReadError>>, shown: &str) {
    assert_eq!(items.len(), 2, "two HTML responses: {items:#?}");
    let one = ok(&items[0]);
    assert_eq!(one.article.id, format!("{shown}#3"));
    assert_eq!(
        one.article.url.as_deref(),
        Some("https://riverside.example/tram-extension?utm=feed")
    );
    assert_eq!(
        one.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-01-20T09:15:00Z"),
        "the page's own time wins"
    );
    assert_eq!(
        one.article.title.as_deref(),
        Some("Tram line extension approved - Riverside Daily")
    );
    assert!(one.article.text.contains("four-stop extension"));
    assert!(!one.article.text.contains("all rights reserved"));
    let two = ok(&items[1]);
    assert_eq!(two.article.id, format!("{shown}#5"));
    assert_eq!(
        two.article.url.as_deref(),
        Some("https://city.example/library")
    );
    assert_eq!(
        two.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-01-21T06:00:04Z"),
        "crawl time stands in"
    );
    assert!(
        two.article
            .text
            .starts_with("The central library will stay open"),
        "{}",
        two.article.text
    );
    assert!(
        two.article
            .text
            .contains("exam season.\n\nA librarian said")
    );
}

#[test]
fn warc_plain_reads_html_responses_only() {
    let path = common::data_dir().join("crawl.warc");
    check_crawl(read(&[&path]), &path.display().to_string());
}

#[test]
fn warc_gzipped_reads_html_responses_only() {
    let path = common::data_dir().join("crawl.warc.gz");
    check_crawl(read(&[&path]), &path.display().to_string());
}

#[test]
fn warc_single_gzip_member_reads_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(
        &dir,
        "one.warc.gz",
        &common::gzip_bytes(&common::warc_bytes()),
    );
    check_crawl(read(&[&path]), &path.display().to_string());
}

#[test]
fn warc_truncated_record_ends_the_file_with_its_number_and_offset() {
    let records = common::warc_records();
    let start_of_fifth: usize = records[..4].iter().map(Vec::len).sum();
    let mut bytes = common::warc_bytes();
    bytes.truncate(start_of_fifth + 400);
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "cut.warc", &bytes);
    let items = read(&[&path]);
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    let error = items[1].as_ref().unwrap_err();
    assert_eq!(error.record(), Some(5));
    assert_eq!(error.offset(), Some(start_of_fifth as u64));
    assert!(
        error.to_string().contains(&format!(
            "cut.warc: record 5 (byte {start_of_fifth}): corrupt WARC record: truncated record"
        )),
        "{error}"
    );
}

#[test]
fn warc_truncated_gzip_is_an_error() {
    let mut bytes = common::warc_gz_bytes();
    bytes.truncate(bytes.len() - 200);
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "cut.warc.gz", &bytes);
    let items = read(&[&path]);
    assert!(
        items.first().is_some_and(Result::is_ok),
        "records before the cut are read"
    );
    assert!(items.last().is_some_and(Result::is_err), "{items:#?}");
}

#[test]
fn warc_garbage_between_records_is_reported_and_skipped() {
    let records = common::warc_records();
    let mut bytes = records[..3].concat();
    let garbage_at = bytes.len();
    bytes.extend_from_slice(b"this is not a record\r\nnor is this\r\n");
    bytes.extend_from_slice(&records[3..].concat());
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "junk.warc", &bytes);
    let items = read(&[&path]);
    assert_eq!(items.len(), 3, "{items:#?}");
    let error = items[1].as_ref().unwrap_err();
    assert_eq!(error.offset(), Some(garbage_at as u64));
    assert_eq!(error.record(), Some(4));
    assert!(
        error
            .to_string()
            .contains("skipped 35 bytes to the next record"),
        "{error}"
    );
    let last = items[2].as_ref().unwrap();
    assert!(
        last.article.id.ends_with("#6"),
        "the garbage counts as one record"
    );
}

#[test]
fn warc_record_without_length_is_reported_and_the_next_one_read() {
    let records = common::warc_records();
    let broken = String::from_utf8_lossy(&records[2]).replace("Content-Length:", "Content-Size:");
    let bytes = [broken.as_bytes(), &records[3..].concat()].concat();
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "nolength.warc", &bytes);
    let items = read(&[&path]);
    assert_eq!(items.len(), 2, "{items:#?}");
    assert!(
        error_text(&items[0])
            .contains("record 1 (byte 0): corrupt WARC record: missing or bad Content-Length")
    );
    assert!(items[1].is_ok());
}

#[test]
fn warc_record_over_the_limit_is_skipped() {
    let path = common::data_dir().join("crawl.warc");
    let limits = Limits {
        warc_record_bytes: 1_000,
        ..Limits::DEFAULT
    };
    let items = read_with(&[&path], limits);
    assert_eq!(items.len(), 2, "{items:#?}");
    let error = items[0].as_ref().unwrap_err();
    assert_eq!(error.record(), Some(3));
    assert!(matches!(
        error.kind(),
        ReadErrorKind::RecordTooLarge {
            size: 1_088,
            limit: 1_000
        }
    ));
    assert!(items[1].is_ok(), "the smaller gzipped record is still read");
}

#[test]
fn warc_payload_in_a_declared_charset_is_decoded() {
    let body = b"<html><body><p>The caf\xe9 owner said the \x93new menu\x94 would arrive in time for the festival, weeks earlier than planned.</p></body></html>";
    let bytes = common::response_record(
        "https://old.example/cafe",
        "Content-Type: text/html; charset=windows-1252\r\n",
        body,
    );
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "old.warc", &bytes);
    let item = article(read_one(&path));
    assert!(
        item.article
            .text
            .contains("The café owner said the “new menu” would"),
        "{}",
        item.article.text
    );
    assert!(item.warnings.is_empty(), "{:?}", item.warnings);
    assert_eq!(
        item.article.published.map(|p| p.to_string()).as_deref(),
        Some("2026-01-22T12:00:00Z")
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn invalid_utf8_is_replaced_with_a_warning_naming_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    let text = temp_file(
        &dir,
        "latin1.txt",
        b"Caf\xe9 owners said prices would rise.\xff",
    );
    let item = article(read_one(&text));
    assert_eq!(
        item.article.text,
        "Caf\u{fffd} owners said prices would rise.\u{fffd}"
    );
    assert_eq!(item.warnings.len(), 1);
    let message = &item.warnings[0].message;
    assert!(
        message.contains("invalid UTF-8 at byte 3 of the file; 2 invalid sequences replaced"),
        "{message}"
    );

    let jsonl = temp_file(&dir, "latin1.jsonl", b"{\"text\":\"Caf\xe9 owners\"}\n");
    let item = article(read_one(&jsonl));
    assert_eq!(item.article.text, "Caf\u{fffd} owners");
    assert!(
        item.warnings[0]
            .message
            .contains("latin1.jsonl:1: invalid UTF-8 at byte 12 of the line")
    );

    let html = common::PAGE_ONE
        .replace("four-stop", "four\u{1}stop")
        .into_bytes();
    let html: Vec<u8> = html
        .into_iter()
        .map(|b| if b == 1 { 0xff } else { b })
        .collect();
    let page = temp_file(&dir, "latin1.html", &html);
    let item = article(read_one(&page));
    assert!(item.article.text.contains("four\u{fffd}stop"));
    assert!(item.warnings[0].message.contains("invalid UTF-8 at byte"));
}

#[test]
fn binary_files_are_skipped_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["blob.txt", "blob.jsonl", "blob.html", "blob.data"] {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";
        let path = temp_file(&dir, name, png);
        let items = read(&[&path]);
        assert_eq!(items.len(), 1, "{name}");
        assert_eq!(
            error_text(&items[0]),
            format!(
                "{}: binary file (over 1% of its first 8 KiB are NUL or control bytes), skipped",
                path.display()
            )
        );
    }
}

#[test]
fn text_with_a_few_nuls_is_read_with_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["nul.txt", "nul.data"] {
        let path = temp_file(&dir, name, b"\x00\x01\x02 mostly \x00 words");
        let item = read_one(&path).expect("read as text");
        assert_eq!(item.article.text, "\0\u{1}\u{2} mostly \0 words");
        let warning = &item.warnings[0].message;
        assert!(
            warning.ends_with("2 NUL bytes in the text, kept, at byte 0, 11"),
            "{warning}"
        );
    }
}

#[test]
fn empty_and_whitespace_only_articles_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("empty.txt", &b""[..]),
        ("blank.txt", b" \n\t \r\n"),
        ("blank.html", b"<html><body>  </body></html>"),
    ] {
        let path = temp_file(&dir, name, bytes);
        let text = error_text(&read_one(&path));
        assert!(
            text == format!("{}: empty article", path.display()),
            "{text}"
        );
    }
    let empty_jsonl = temp_file(&dir, "empty.jsonl", b"\n\n");
    assert!(read(&[&empty_jsonl]).is_empty(), "blank lines are skipped");
}

#[test]
fn missing_and_unreadable_files_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let text = error_text(&read_one(&missing));
    assert!(
        text.starts_with(&format!("{}: cannot read:", missing.display())),
        "{text}"
    );

    let not_a_dir = temp_file(&dir, "plain.txt", b"x");
    let below = not_a_dir.join("child.txt");
    assert!(error_text(&read_one(&below)).starts_with(&below.display().to_string()));

    // A link to itself cannot be opened by anyone, root included.
    #[cfg(unix)]
    {
        let looped = dir.path().join("looped.txt");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        let text = error_text(&read_one(&looped));
        assert!(
            text.starts_with(&format!("{}: cannot read:", looped.display())),
            "{text}"
        );
    }

    let locked = temp_file(&dir, "locked.txt", b"secret");
    set_mode(&locked, 0o000);
    let result = read_one(&locked);
    if fs::File::open(&locked).is_ok() {
        // Root reads any file: then the file is read like any other.
        assert_eq!(ok(&result).article.text, "secret");
    } else {
        let text = error_text(&result);
        assert!(
            text.starts_with(&format!("{}: cannot read:", locked.display())),
            "{text}"
        );
    }
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) {}

#[test]
fn articles_over_the_size_limit_are_refused_with_size_and_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "long.txt", &vec![b'a'; 2_000]);
    let limits = Limits {
        article_bytes: 1_000,
        ..Limits::DEFAULT
    };
    let items = read_with(&[&path], limits);
    assert_eq!(
        error_text(&items[0]),
        format!(
            "{}: article is 2000 bytes, over the limit of 1000 bytes (article_bytes)",
            path.display()
        )
    );
    let page = common::data_dir().join("article.html");
    let limits = Limits {
        article_bytes: 200,
        ..Limits::DEFAULT
    };
    let items = read_with(&[&page], limits);
    assert!(matches!(
        items[0].as_ref().err().map(ReadError::kind),
        Some(ReadErrorKind::ArticleTooLarge { limit: 200, .. })
    ));
}

// ---------------------------------------------------------------- directories and order

#[test]
fn directories_are_walked_recursively_in_byte_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("a/deeper")).unwrap();
    fs::create_dir_all(root.join("B")).unwrap();
    for (name, text) in [
        ("a/deeper/z.txt", "a deeper z"),
        ("a/b.md", "a b"),
        ("a-b.txt", "a dash b"),
        ("B/upper.TXT", "upper"),
        ("c.text", "c"),
        ("skip.bin", "not picked"),
        ("a/skip.pdf", "not picked"),
    ] {
        fs::write(root.join(name), text).unwrap();
    }
    fs::write(
        root.join("d.jsonl"),
        "{\"text\":\"first line\"}\n{\"text\":\"second line\"}\n",
    )
    .unwrap();
    let texts: Vec<String> = read(&[root])
        .into_iter()
        .map(|item| article(item).article.text)
        .collect();
    assert_eq!(
        texts,
        [
            "upper",
            "a dash b",
            "a b",
            "a deeper z",
            "c",
            "first line",
            "second line"
        ]
    );
}

#[test]
fn inputs_come_out_in_the_order_given() {
    let data = common::data_dir();
    let txt = data.join("article.txt");
    let html = data.join("article.html");
    let items = read(&[&html, &txt, &html]);
    let ids: Vec<String> = items
        .into_iter()
        .map(|item| article(item).article.id)
        .collect();
    assert_eq!(
        ids,
        [
            html.display().to_string(),
            txt.display().to_string(),
            html.display().to_string()
        ]
    );
}

#[test]
fn stdin_argument_is_recognised() {
    assert_eq!(Input::from_arg("-"), Input::Stdin);
    assert_eq!(
        Input::from_arg("x.txt"),
        Input::Path(PathBuf::from("x.txt"))
    );
}

#[test]
fn the_stream_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    assert_send(&read_inputs(Vec::new(), config()));
}

/// Run by `stdin_is_read_as_plain_text` in a child process whose standard input is
/// a pipe; does nothing in a normal test run.
#[test]
fn stdin_child() {
    if std::env::var_os("ATTEST_READ_STDIN_CHILD").is_none() {
        return;
    }
    for item in read_inputs(vec![Input::Stdin], config()) {
        match item {
            Ok(item) => println!(
                "ARTICLE id={} text={:?}",
                item.article.id, item.article.text
            ),
            Err(error) => println!("ERROR {error}"),
        }
    }
}

#[test]
fn stdin_is_read_as_plain_text() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let run = |input: &[u8]| {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "stdin_child", "--nocapture", "--test-threads=1"])
            .env("ATTEST_READ_STDIN_CHILD", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let out = run(b"The harbour reopened on Sunday.");
    assert!(
        out.contains("ARTICLE id=- text=\"The harbour reopened on Sunday.\""),
        "{out}"
    );
    let out = run(b"   \n");
    assert!(out.contains("ERROR -: empty article"), "{out}");
}
