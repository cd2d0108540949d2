//! Fixture builders shared by the integration tests.

#![allow(dead_code)] // each test crate uses its own part of this module

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;

/// The directory of the committed fixtures.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A page with its own publication time and canonical URL.
pub const PAGE_ONE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Tram line extension approved - Riverside Daily</title>
<meta property="og:site_name" content="Riverside Daily">
<meta property="article:published_time" content="2026-01-20T09:15:00Z">
<link rel="canonical" href="https://riverside.example/tram-extension">
</head><body>
<nav><a href="/">Home</a> <a href="/local">Local</a></nav>
<article>
<h1>Tram line extension approved</h1>
<p>The regional assembly approved a four-stop extension of the eastern tram line on Monday, ending a dispute that had delayed the project for almost three years.</p>
<p>"Commuters from the new estates have waited long enough," the transport chair said after the vote, adding that construction could begin before the summer holidays.</p>
<p>Opponents argued that the cost estimate, put at 140 million, was likely to rise, and one member said he doubted the line would open on schedule.</p>
</article>
<footer>Riverside Daily, all rights reserved</footer>
</body></html>"#;

/// A page with no publication time of its own, so the crawl time stands in.
pub const PAGE_TWO: &str = r#"<!DOCTYPE html>
<html lang="en"><head><title>Library hours to grow</title></head><body>
<div class="content">
<p>The central library will stay open until nine in the evening from next month, the city's culture office announced, citing a rise in student visitors during exam season.</p>
<p>A librarian said the extra hours would be staffed by volunteers at first, and that the office had promised to review the arrangement in the spring.</p>
</div>
</body></html>"#;

fn record(
    kind: &str,
    uri: Option<&str>,
    date: &str,
    content_type: &str,
    content: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"WARC/1.1\r\n");
    out.extend_from_slice(format!("WARC-Type: {kind}\r\n").as_bytes());
    out.extend_from_slice(format!("WARC-Date: {date}\r\n").as_bytes());
    out.extend_from_slice(
        format!(
            "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{:012}>\r\n",
            content.len()
        )
        .as_bytes(),
    );
    if let Some(uri) = uri {
        out.extend_from_slice(format!("WARC-Target-URI: {uri}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", content.len()).as_bytes());
    out.extend_from_slice(content);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn response(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    out.extend_from_slice(body);
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(bytes)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

fn chunked(body: &[u8], chunk: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in body.chunks(chunk) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// The records of the WARC fixtures, each one complete.
///
/// 1 warcinfo, 2 request, 3 HTML response, 4 request, 5 HTML response sent
/// chunked and gzip-encoded, 6 PNG response, 7 metadata.
pub fn warc_records() -> Vec<Vec<u8>> {
    let warcinfo = b"software: attest-read test fixtures\r\nformat: WARC File Format 1.1\r\n";
    let request_one =
        b"GET /tram-extension HTTP/1.1\r\nHost: riverside.example\r\nUser-Agent: fixture\r\n\r\n";
    let request_two = b"GET /library HTTP/1.1\r\nHost: city.example\r\n\r\n";
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01";
    vec![
        record(
            "warcinfo",
            None,
            "2026-01-21T06:00:00Z",
            "application/warc-fields",
            warcinfo,
        ),
        record(
            "request",
            Some("https://riverside.example/tram-extension"),
            "2026-01-21T06:00:01Z",
            "application/http; msgtype=request",
            request_one,
        ),
        record(
            "response",
            Some("https://riverside.example/tram-extension?utm=feed"),
            "2026-01-21T06:00:02Z",
            "application/http; msgtype=response",
            &response(
                "Content-Type: text/html; charset=utf-8\r\nServer: fixture\r\n",
                PAGE_ONE.as_bytes(),
            ),
        ),
        record(
            "request",
            Some("https://city.example/library"),
            "2026-01-21T06:00:03Z",
            "application/http; msgtype=request",
            request_two,
        ),
        record(
            "response",
            Some("https://city.example/library"),
            "2026-01-21T06:00:04Z",
            "application/http; msgtype=response",
            &response(
                "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
                &chunked(&gzip(PAGE_TWO.as_bytes()), 100),
            ),
        ),
        record(
            "response",
            Some("https://city.example/logo.png"),
            "2026-01-21T06:00:05Z",
            "application/http; msgtype=response",
            &response("Content-Type: image/png\r\n", png),
        ),
        record(
            "metadata",
            Some("https://city.example/library"),
            "2026-01-21T06:00:06Z",
            "application/warc-fields",
            b"outlinks: https://city.example/\r\n",
        ),
    ]
}

/// `crawl.warc`: the records one after another.
pub fn warc_bytes() -> Vec<u8> {
    warc_records().concat()
}

/// `crawl.warc.gz`: one gzip member per record, as crawlers write them.
pub fn warc_gz_bytes() -> Vec<u8> {
    warc_records()
        .iter()
        .flat_map(|record| gzip(record))
        .collect()
}

/// gzip of arbitrary bytes, for tests that build broken archives.
pub fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    gzip(bytes)
}

/// One complete `response` record for `uri` with the given HTTP headers and body.
pub fn response_record(uri: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    record(
        "response",
        Some(uri),
        "2026-01-22T12:00:00Z",
        "application/http; msgtype=response",
        &response(headers, body),
    )
}
