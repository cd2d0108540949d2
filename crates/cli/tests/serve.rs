//! `attest serve` over a real socket: every route, every error, and a clean stop
//! on SIGTERM. Requests are written by hand over TCP, so what is tested is what
//! any HTTP client sees.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus};

#[path = "common/server.rs"]
mod server;
use server::serve;
use std::time::{Duration, Instant};

/// A running `attest serve` on a free loopback port, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
    /// The token of `GET /v1/token`, which POSTs of plain text or HTML carry.
    token: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let (child, port) = serve(args);
        let token = request(port, "GET", "/v1/token", &[], b"").json()["token"]
            .as_str()
            .expect("a token")
            .to_string();
        Server { child, port, token }
    }

    /// Sends SIGTERM and waits for the server to exit, which it must within
    /// its grace period (far less than the patience here).
    fn terminate(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        exit_within(&mut self.child, Duration::from_secs(20))
            .expect("the server exits within its grace period")
    }

    /// A request as the page's own script or a client that fetched the token
    /// sends it.
    fn request(&self, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
        let mut headers = vec![("X-Attest-Token", self.token.as_str())];
        headers.extend(content_type.map(|value| ("Content-Type", value)));
        request(self.port, method, path, &headers, body)
    }

    fn get(&self, path: &str) -> Reply {
        self.request("GET", path, None, b"")
    }

    fn post_json(&self, path: &str, body: &serde_json::Value) -> Reply {
        let body = body.to_string();
        self.request("POST", path, Some("application/json"), body.as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| {
            panic!(
                "not JSON ({error}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Checks that the request succeeded.
    fn served(&self, what: &str) {
        assert_eq!(
            self.status,
            200,
            "{what}: {}",
            String::from_utf8_lossy(&self.body)
        );
    }

    /// The status and message of a JSON error body, checked to be one.
    fn error(&self) -> (u16, String) {
        let json = self.json();
        let status = json["error"]["status"].as_u64().expect("an error status") as u16;
        assert_eq!(status, self.status, "the body's status is the response's");
        let message = json["error"]["message"].as_str().expect("an error message");
        assert!(!message.is_empty());
        (status, message.to_string())
    }
}

fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    receive(send(port, method, path, headers, body))
}

/// Sends a request with `headers` (and `Host: 127.0.0.1` unless they name
/// one) and returns the connection its answer will come on.
fn send(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout can be set");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        head.push_str("Host: 127.0.0.1\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .expect("the request head is sent");
    // A server that answers before the whole body arrives (413) may close the
    // connection under the rest of it; the answer is still there to read.
    let _ = stream.write_all(body);
    stream
}

fn receive(mut stream: TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16)
            .expect("a chunk size");
        if size == 0 {
            break;
        }
        body.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
    body
}

/// An article long enough to keep the pipeline busy for a while.
fn long_article(bytes: usize) -> String {
    let paragraph = "“The harbor will reopen on Monday,” the mayor said, according to officials who declined to be named. \
                     Dock workers reportedly rejected the offer of $4.5 million, a union spokesperson told reporters.\n\n";
    paragraph.repeat(bytes / paragraph.len() + 1)
}

#[test]
fn health_openapi_and_the_page() {
    let server = Server::start(&[]);
    let health = server.get("/v1/health");
    assert_eq!(health.status, 200);
    let json = health.json();
    assert_eq!(json["status"], "ok");
    assert_eq!(json["max_body_bytes"], 2 * 1024 * 1024, "the default limit");
    assert!(
        json["stages"]
            .as_array()
            .is_some_and(|s| s.iter().any(|s| s == "attributions"))
    );

    let openapi = server.get("/v1/openapi.json");
    assert_eq!(openapi.status, 200);
    assert_eq!(openapi.json()["openapi"], "3.1.0");

    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .is_some_and(|v| v.starts_with("text/html"))
    );
    assert!(
        page.header("content-security-policy")
            .is_some_and(|v| v.contains("script-src 'self'")),
        "scripts only from the server: {:?}",
        page.headers
    );
    let page = String::from_utf8_lossy(&page.body);
    assert!(page.contains("<script src=\"/app.js\""));
    for asset in ["/app.js", "/app.css"] {
        let reply = server.get(asset);
        assert_eq!(reply.status, 200, "{asset}");
        assert!(!reply.body.is_empty(), "{asset}");
    }
}

#[test]
fn analyze_reads_json_text_and_html() {
    let server = Server::start(&[]);
    let record = serde_json::json!({
        "id": "harbor-1",
        "text": "The mayor said the harbor would reopen. “It is safe,” she told reporters.",
        "outlet": "Harbor Gazette",
        "published": "2026-03-04",
    });
    let reply = server.post_json("/v1/analyze", &record);
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert!(
        reply
            .header("content-type")
            .is_some_and(|v| v.starts_with("application/json"))
    );
    let doc = reply.json();
    assert_eq!(doc["schema"], "attest.document/1");
    assert_eq!(doc["id"], "harbor-1");
    assert_eq!(doc["outlet"], "Harbor Gazette");
    let text = doc["text"].as_str().expect("the text");
    let attributions = doc["attributions"].as_array().expect("attributions");
    assert!(!attributions.is_empty());
    for attribution in attributions {
        for role in ["source", "cue", "content"] {
            for span in attribution[role].as_array().expect("a role") {
                let (start, end) = (
                    span["byte_start"].as_u64().expect("a start") as usize,
                    span["byte_end"].as_u64().expect("an end") as usize,
                );
                assert_eq!(&text[start..end], span["text"], "spans slice to their text");
            }
        }
    }
    assert_eq!(
        doc["summary"]["attributions"].as_u64(),
        Some(attributions.len() as u64),
        "the summary counts the attributions listed"
    );
    assert!(doc.get("tokens").is_none(), "tokens only on request");

    let with_tokens = server.request(
        "POST",
        "/v1/analyze?tokens=true",
        Some("application/json"),
        record.to_string().as_bytes(),
    );
    assert!(with_tokens.json()["tokens"].is_array());

    // The page's brat download is the .ann file `attest analyze --format brat` writes.
    let brat = server.request(
        "POST",
        "/v1/analyze?format=brat",
        Some("application/json"),
        record.to_string().as_bytes(),
    );
    brat.served("the brat answer");
    assert_eq!(
        brat.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let dir = std::env::temp_dir().join(format!("attest-serve-brat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let article = dir.join("article.txt");
    std::fs::write(&article, record["text"].as_str().expect("a text")).expect("written");
    let out = dir.join("brat");
    cli(&[
        "analyze",
        "--format",
        "brat",
        "--out",
        out.to_str().expect("a UTF-8 path"),
        article.to_str().expect("a UTF-8 path"),
    ]);
    let ann = std::fs::read(out.join("article.ann")).expect("the .ann file");
    assert!(
        ann.starts_with(b"T1\tSource "),
        "{}",
        String::from_utf8_lossy(&ann)
    );
    assert_eq!(
        String::from_utf8_lossy(&brat.body),
        String::from_utf8_lossy(&ann)
    );
    let _ = std::fs::remove_dir_all(&dir);

    // A misspelt key would otherwise be dropped without a word.
    let misspelt =
        serde_json::json!({"text": "Officials said the road would reopen.", "outlets": "X"});
    let (status, message) = server.post_json("/v1/analyze", &misspelt).error();
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("\"outlets\""), "{message}");

    let plain = server.request(
        "POST",
        "/v1/analyze",
        Some("text/plain; charset=utf-8"),
        "Officials said the road would reopen.".as_bytes(),
    );
    assert_eq!(plain.status, 200);
    assert_eq!(plain.json()["id"], "request");

    let html = server.request(
        "POST",
        "/v1/analyze",
        Some("text/html"),
        b"<html><head><title>Road reopens</title></head><body><article><p>Officials said the road would reopen on Monday after repairs.</p></article></body></html>",
    );
    assert_eq!(html.status, 200, "{}", String::from_utf8_lossy(&html.body));
    assert!(
        html.json()["text"]
            .as_str()
            .is_some_and(|t| t.contains("Officials said"))
    );
}

#[test]
fn bad_requests_get_clear_json_errors() {
    let server = Server::start(&["--max-body-bytes", "1000"]);

    let (status, message) = server
        .request(
            "POST",
            "/v1/analyze",
            Some("application/json"),
            b"{not json",
        )
        .error();
    assert_eq!(status, 400);
    assert!(message.contains("request"), "{message}");

    let (status, message) = server
        .post_json("/v1/analyze", &serde_json::json!({ "title": "no text" }))
        .error();
    assert_eq!(status, 400);
    assert!(message.contains("text"), "{message}");

    let (status, message) = server
        .post_json("/v1/analyze", &serde_json::json!({ "text": "   " }))
        .error();
    assert_eq!(status, 400, "{message}");

    let (status, message) = server
        .post_json(
            "/v1/analyze",
            &serde_json::json!({ "text": "Some text.", "published": "last Tuesday" }),
        )
        .error();
    assert_eq!(status, 400);
    assert!(message.contains("published"), "{message}");

    let (status, _) = server
        .request(
            "POST",
            "/v1/analyze",
            Some("text/plain"),
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0",
        )
        .error();
    assert_eq!(status, 400);

    let (status, message) = server
        .request("POST", "/v1/analyze", Some("image/png"), b"x")
        .error();
    assert_eq!(status, 415);
    assert!(message.contains("image/png"), "{message}");

    let big = "word ".repeat(400);
    let (status, message) = server
        .request("POST", "/v1/analyze", Some("text/plain"), big.as_bytes())
        .error();
    assert_eq!(status, 413);
    assert!(message.contains("1000"), "{message}");

    let (status, _) = server.get("/v1/no-such-route").error();
    assert_eq!(status, 404);
    let (status, _) = server.get("/v1/analyze").error();
    assert_eq!(status, 405);
}

#[test]
fn a_saturated_server_answers_503_and_recovers() {
    let server = Server::start(&[
        "--max-analyses",
        "1",
        "--max-body-bytes",
        "30000000",
        "--timeout-secs",
        "600",
    ]);
    let article = long_article(1_000_000);
    let small = b"Officials said so.";
    // The long article takes the only analysis slot as soon as its body is in;
    // a request a moment later finds it taken. Should the long one end first on
    // a fast machine, the round is tried again.
    let mut refused = None;
    for _ in 0..5 {
        let slow = send(
            server.port,
            "POST",
            "/v1/analyze",
            &[
                ("Content-Type", "text/plain"),
                ("X-Attest-Token", &server.token),
            ],
            article.as_bytes(),
        );
        std::thread::sleep(Duration::from_millis(100));
        let second = server.request("POST", "/v1/analyze", Some("text/plain"), small);
        let first = receive(slow);
        assert_eq!(first.status, 200, "the long article is analysed");
        if second.status == 503 {
            refused = Some(second);
            break;
        }
    }
    let refused = refused.expect("a second analysis is refused while the first runs");
    let (_, message) = refused.error();
    assert!(message.contains("analyses are running"), "{message}");
    assert_eq!(refused.header("retry-after"), Some("1"));
    let after = server.request("POST", "/v1/analyze", Some("text/plain"), small);
    after.served("the slot is free again");
}

#[test]
fn a_request_over_the_time_limit_answers_503() {
    let server = Server::start(&["--timeout-secs", "1"]);
    // A client that announces a body and never sends it would hold a worker
    // forever without the limit.
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).expect("the server accepts");
    stream
        .write_all(
            b"POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
              Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"text\": \"The mayor",
        )
        .expect("the head is sent");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout can be set");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let (status, message) = parse_reply(&raw).error();
    assert_eq!(status, 503);
    assert!(message.contains("longer than 1 s"), "{message}");
    assert_eq!(server.get("/v1/health").status, 200, "the server goes on");
}

#[test]
fn sigterm_stops_the_server_cleanly() {
    let mut server = Server::start(&[]);
    assert_eq!(server.get("/v1/health").status, 200);
    let status = server.terminate();
    assert!(status.success(), "a clean stop exits 0: {status:?}");
}

/// Waits for `child` to exit for at most `patience`.
fn exit_within(child: &mut Child, patience: Duration) -> Option<ExitStatus> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the server can be waited for") {
            return Some(status);
        }
        if started.elapsed() > patience {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads whatever comes until the server closes `stream`, for at most
/// `patience`; how long that took, or `None` when the connection stayed open.
fn closed_within(stream: &mut TcpStream, patience: Duration) -> Option<Duration> {
    stream
        .set_read_timeout(Some(patience))
        .expect("a timeout can be set");
    let started = Instant::now();
    let mut buffer = [0; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None;
            }
            // Reset by the server: closed too.
            Err(_) => return Some(started.elapsed()),
        }
    }
}

/// A connection that has sent half a request head and then nothing.
fn half_a_head(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    stream
        .write_all(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .expect("half a head is sent");
    stream
}

#[test]
fn a_client_that_sends_half_a_head_or_idles_is_disconnected() {
    let server = Server::start(&["--header-timeout-secs", "1"]);
    let mut slow = half_a_head(server.port);
    let closed = closed_within(&mut slow, Duration::from_secs(30))
        .expect("a half-sent head does not hold the connection");
    assert!(closed < Duration::from_secs(10), "closed after {closed:?}");

    // A keep-alive connection that asks nothing more after its answer is
    // closed after the same time.
    let mut idle = TcpStream::connect(("127.0.0.1", server.port)).expect("the server accepts");
    idle.write_all(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("a request is sent");
    let closed = closed_within(&mut idle, Duration::from_secs(30))
        .expect("an idle connection is not kept for ever");
    assert!(closed < Duration::from_secs(10), "closed after {closed:?}");
    assert_eq!(server.get("/v1/health").status, 200, "the server goes on");
}

#[test]
fn sigterm_exits_within_the_grace_period_whatever_the_clients_do() {
    let mut server = Server::start(&[
        "--grace-secs",
        "1",
        "--header-timeout-secs",
        "600",
        "--timeout-secs",
        "600",
        "--max-body-bytes",
        "30000000",
    ]);
    let _half = half_a_head(server.port);
    // An analysis that takes far longer than the grace period.
    let record = serde_json::json!({ "text": long_article(8_000_000) }).to_string();
    let _busy = send(
        server.port,
        "POST",
        "/v1/analyze",
        &[("Content-Type", "application/json")],
        record.as_bytes(),
    );
    std::thread::sleep(Duration::from_millis(300));
    let status = server.terminate();
    assert!(status.success(), "a stop on a signal exits 0: {status:?}");
}

#[test]
fn sigterm_closes_waiting_connections_at_once_and_finishes_answers() {
    // A grace period far longer than `terminate`'s patience: only the request
    // being answered may use it.
    let mut server = Server::start(&[
        "--grace-secs",
        "600",
        "--header-timeout-secs",
        "600",
        "--max-body-bytes",
        "30000000",
    ]);
    let _half = half_a_head(server.port);
    let _silent = TcpStream::connect(("127.0.0.1", server.port)).expect("the server accepts");
    let record = serde_json::json!({ "text": long_article(500_000) }).to_string();
    let busy = send(
        server.port,
        "POST",
        "/v1/analyze",
        &[("Content-Type", "application/json")],
        record.as_bytes(),
    );
    let answer = std::thread::spawn(move || receive(busy));
    std::thread::sleep(Duration::from_millis(300));
    let status = server.terminate();
    assert!(status.success(), "a stop on a signal exits 0: {status:?}");
    let answer = answer.join().expect("the answer is read");
    answer.served("the request in flight when the signal came");
}

#[test]
fn an_analysis_past_its_time_limit_gives_its_slot_back_at_once() {
    let server = Server::start(&[
        "--max-analyses",
        "1",
        "--timeout-secs",
        "1",
        "--max-body-bytes",
        "30000000",
    ]);
    // The abandoned analysis may still run, but not in the only slot.
    refused_then_served(&server, long_article(8_000_000), 503, "longer than 1 s");
}

#[test]
fn an_answer_over_the_output_limit_gets_413() {
    let server = Server::start(&["--max-output-bytes", "20000"]);
    refused_then_served(&server, long_article(20_000), 413, "--max-output-bytes");
}

/// Posts `text`, which must get `status` with `needle` in its message, then a
/// short article, which must be analysed.
fn refused_then_served(server: &Server, text: String, status: u16, needle: &str) {
    let record = serde_json::json!({ "text": text });
    let (got, message) = server.post_json("/v1/analyze", &record).error();
    assert_eq!(got, status, "{message}");
    assert!(message.contains(needle), "{message}");
    server
        .post_json(
            "/v1/analyze",
            &serde_json::json!({ "text": "Officials said the road would reopen." }),
        )
        .served("the next request");
}

#[test]
fn only_the_servers_own_host_names_are_answered() {
    let server = Server::start(&["--allow-host", "news.example"]);
    let port = server.port.to_string();
    let local = format!("localhost:{port}");
    for host in [
        "127.0.0.1",
        &local,
        "[::1]",
        "news.example",
        "NEWS.example.:443",
    ] {
        let reply = request(server.port, "GET", "/v1/health", &[("Host", host)], b"");
        assert_eq!(reply.status, 200, "Host {host}");
    }
    // What a DNS-rebinding page sends: its own name, now pointing here.
    for host in [
        "rebound.example",
        "rebound.example:8080",
        "localhost.rebound.example",
        "10.1.2.3",
    ] {
        for path in ["/v1/health", "/", "/v1/token"] {
            let (status, message) =
                request(server.port, "GET", path, &[("Host", host)], b"").error();
            assert_eq!(status, 421, "Host {host} {path}");
            assert!(message.contains("--allow-host"), "{message}");
        }
    }
    // Two Hosts, or two Content-Types: a proxy and this server might each
    // read a different one.
    let (status, message) = request(
        server.port,
        "GET",
        "/v1/health",
        &[("Host", "127.0.0.1"), ("Host", "rebound.example")],
        b"",
    )
    .error();
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("more than once"), "{message}");
    let (status, message) = request(
        server.port,
        "POST",
        "/v1/analyze",
        &[
            ("Content-Type", "application/json"),
            ("Content-Type", "text/plain"),
        ],
        b"{}",
    )
    .error();
    assert_eq!(status, 400, "{message}");
}

#[test]
fn a_post_must_be_json_or_carry_the_token() {
    let server = Server::start(&[]);
    let text = b"Officials said the road would reopen.";
    // What a form on another site can send without asking the server first.
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let headers: Vec<(&str, &str)> = content_type
            .map(|value| ("Content-Type", value))
            .into_iter()
            .collect();
        let (status, message) = request(server.port, "POST", "/v1/analyze", &headers, text).error();
        assert_eq!(status, 403, "{content_type:?}");
        assert!(message.contains("application/json"), "{message}");
    }
    let forged = request(
        server.port,
        "POST",
        "/v1/analyze",
        &[("Content-Type", "text/plain"), ("X-Attest-Token", "guess")],
        text,
    );
    assert_eq!(forged.status, 403);

    let json = request(
        server.port,
        "POST",
        "/v1/analyze",
        &[("Content-Type", "application/json; charset=utf-8")],
        serde_json::json!({ "text": "Officials said the road would reopen." })
            .to_string()
            .as_bytes(),
    );
    assert_eq!(json.status, 200, "{}", String::from_utf8_lossy(&json.body));
    let token = server.get("/v1/token").json();
    assert_eq!(token["header"], "x-attest-token");
    let with_token = server.request("POST", "/v1/analyze", Some("text/plain"), text);
    assert_eq!(with_token.status, 200);
}

#[test]
fn every_route_is_in_the_openapi_document_and_back() {
    let server = Server::start(&[]);
    let openapi = server.get("/v1/openapi.json").json();
    let paths = openapi["paths"].as_object().expect("paths");
    let mut documented: Vec<(String, String)> = paths
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .into_iter()
                .flat_map(|methods| methods.keys())
                .filter(|method| {
                    matches!(method.as_str(), "get" | "post" | "put" | "delete" | "patch")
                })
                .map(move |method| (method.clone(), path.clone()))
        })
        .collect();
    documented.sort();
    let mut served: Vec<(String, String)> = attest_server::ROUTES
        .iter()
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect();
    served.sort();
    assert_eq!(documented, served);
    // And each route answers as something other than "no such route".
    for (method, path) in &served {
        let concrete = path.replace("{id}", "1");
        let reply = server.request(&method.to_uppercase(), &concrete, None, b"");
        if reply.status == 404 {
            let (_, message) = reply.error();
            assert!(
                !message.starts_with("no route"),
                "{method} {path}: {message}"
            );
        }
    }
}

/// A fresh directory named after `name` holding a ledger made by
/// `attest ingest` from articles written for this test; the directory and the
/// ledger.
fn ingested_ledger(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("attest-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let corpus = dir.join("corpus.jsonl");
    let records = [
        serde_json::json!({
            "id": "ferry-1",
            "outlet": "Harbor Gazette",
            "published": "2026-03-02",
            "text": "Ferry service to Gull Island will stop in May.\n\n\
                     Mayor Ines Calloway said the city could no longer pay for the boat. \
                     “We looked at every option,” Calloway said.\n\n\
                     Officials at the port authority declined to comment.",
        }),
        serde_json::json!({
            "id": "ferry-2",
            "outlet": "Island Weekly",
            "published": "2026-03-09",
            "text": "Residents of Gull Island packed the town hall on Monday.\n\n\
                     Mayor Ines Calloway told them the ferry contract would be put out to bid again. \
                     The operator reportedly asked for $2 million a year.",
        }),
    ];
    let lines: Vec<String> = records.iter().map(|r| r.to_string()).collect();
    std::fs::write(&corpus, lines.join("\n") + "\n").expect("the corpus is written");
    let db = dir.join("ledger.db");
    cli(&[
        "ingest",
        corpus.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    (dir, db)
}

/// Checks `value` against a schema of the OpenAPI document's components.
fn conforms(openapi: &serde_json::Value, schema: &str, value: &serde_json::Value) {
    let root = serde_json::json!({
        "$ref": format!("#/components/schemas/{schema}"),
        "components": openapi["components"],
    });
    let validator = jsonschema::validator_for(&root).expect("the OpenAPI schemas compile");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{schema}: {errors:?} in {value}");
}

fn rows_of<'a>(
    openapi: &serde_json::Value,
    schema: &str,
    reply: &'a serde_json::Value,
) -> &'a Vec<serde_json::Value> {
    let rows = reply["rows"].as_array().expect("rows");
    for row in rows {
        conforms(openapi, schema, row);
    }
    rows
}

#[test]
fn ledger_routes_answer_from_an_ingested_ledger() {
    let (dir, db) = ingested_ledger("ledger");
    let server = Server::start(&["--db", db.to_str().unwrap()]);
    let openapi = server.get("/v1/openapi.json").json();
    assert_eq!(server.get("/v1/health").json()["ledger"], true);

    let articles = server.get("/v1/articles").json();
    let ids: Vec<&str> = rows_of(&openapi, "ArticleRow", &articles)
        .iter()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert_eq!(ids, ["ferry-2", "ferry-1"], "newest first");
    let island = server.get("/v1/articles?outlet=Island%20Weekly").json();
    assert_eq!(island["rows"].as_array().map(Vec::len), Some(1));

    let article = server.get("/v1/articles/ferry-1").json();
    conforms(&openapi, "ArticleDetail", &article);
    assert!(
        article["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Ferry service"))
    );

    let sources = server.get("/v1/sources?type=person").json();
    let top = &rows_of(&openapi, "SourceRow", &sources)[0];
    assert_eq!(top["name"], "Ines Calloway");
    assert_eq!(top["articles"], 2, "one person across both articles");
    let page = server.get(&format!("/v1/sources/{}", top["id"])).json();
    conforms(&openapi, "SourceRow", &page["source"]);
    let statements = page["statements"].as_array().expect("statements");
    for statement in statements {
        conforms(&openapi, "Statement", statement);
    }
    let outlets: Vec<&str> = statements
        .iter()
        .filter_map(|s| s["outlet"].as_str())
        .collect();
    assert!(outlets.contains(&"Harbor Gazette") && outlets.contains(&"Island Weekly"));

    let hits = server.get("/v1/search?q=option").json();
    let hit = &rows_of(&openapi, "SearchHit", &hits)[0];
    let text = hit["text"].as_str().expect("the hit's text");
    for range in hit["matches"].as_array().expect("matches") {
        let (start, end) = (
            range[0].as_u64().unwrap() as usize,
            range[1].as_u64().unwrap() as usize,
        );
        let found = text[start..end].to_lowercase();
        assert_eq!(found, "option");
    }
    // Each hit names its cue and links to its source, and the search pages.
    assert_eq!(hit["cue"], "said");
    let source = hit["source_id"].as_i64().expect("the hit's source id");
    assert_eq!(
        server.get(&format!("/v1/sources/{source}")).json()["source"]["name"],
        "Ines Calloway"
    );
    assert_eq!(hits["more"], false);
    let first = server.get("/v1/search?q=the&limit=1").json();
    assert_eq!(first["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(first["more"], true);
    let next = server.get("/v1/search?q=the&limit=1&offset=1").json();
    assert_eq!(next["offset"], 1);
    assert_ne!(
        next["rows"][0], first["rows"][0],
        "the second page holds the next hit"
    );

    for by in ["outlet", "month", "all"] {
        let stats = server.get(&format!("/v1/stats?by={by}")).json();
        assert!(!rows_of(&openapi, "StatsRow", &stats).is_empty(), "{by}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `attest` prints for these arguments, which must succeed.
fn cli(args: &[&str]) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(args)
        .output()
        .expect("attest runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn cli_json(args: &[&str]) -> serde_json::Value {
    serde_json::from_slice(&cli(args)).expect("JSON")
}

#[test]
fn claim_routes_answer_as_attest_claims_and_trace_do() {
    let dir = std::env::temp_dir().join(format!("attest-serve-claims-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let db = dir.join("ledger.db");
    let db = db.to_str().unwrap();
    // The provenance set: invented articles in which claims travel through
    // several outlets in every role.
    let corpus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../eval/claims/articles.jsonl"
    );
    cli(&["ingest", corpus, "--db", db]);
    let server = Server::start(&["--db", db]);
    let openapi = server.get("/v1/openapi.json").json();

    // One serialisation: each route's rows are what the command prints.
    let filters: [(&str, &[&str]); 5] = [
        ("", &[]),
        ("?role=denied", &["--role", "denied"]),
        (
            "?min_articles=4&limit=3",
            &["--min-articles", "4", "--limit", "3"],
        ),
        (
            "?outlet=The%20Northfield%20Courier&since=2026-02-01&until=2026-02-28",
            &[
                "--outlet",
                "The Northfield Courier",
                "--since",
                "2026-02-01",
                "--until",
                "2026-02-28",
            ],
        ),
        ("?article=A-01", &["--article", "A-01"]),
    ];
    let mut listed = Vec::new();
    for (query, flags) in filters {
        let served = server.get(&format!("/v1/claims{query}")).json();
        let rows = rows_of(&openapi, "ClaimRow", &served);
        let mut args = vec!["claims", "--db", db, "--format", "json"];
        args.extend(flags);
        assert_eq!(
            serde_json::Value::Array(rows.clone()),
            cli_json(&args),
            "{query}"
        );
        assert!(!rows.is_empty(), "{query}: claims travelled");
        listed.push(rows.clone());
    }
    let all = &listed[0];
    let roles: std::collections::BTreeSet<&str> = all
        .iter()
        .flat_map(|claim| claim["appearances"].as_array().unwrap())
        .filter_map(|a| a["role"].as_str())
        .collect();
    assert!(roles.len() >= 4, "the set travels in many roles: {roles:?}");
    for claim in &listed[1] {
        let appearances = claim["appearances"].as_array().unwrap();
        assert!(appearances.iter().any(|a| a["role"] == "denied"), "{claim}");
    }

    // One claim by its id: the same claim, its timeline in order of
    // publication, each appearance naming its attribution when it is one.
    let first = &all[0];
    let claim = server.get(&format!("/v1/claims/{}", first["claim"])).json();
    conforms(&openapi, "ClaimRow", &claim);
    assert_eq!(&claim, first);
    let appearances = claim["appearances"].as_array().unwrap();
    assert_eq!(appearances[0]["role"], "origin");
    let published: Vec<&str> = appearances
        .iter()
        .filter_map(|a| a["published"].as_str())
        .collect();
    assert!(published.is_sorted(), "{published:?}");
    let attributed = appearances
        .iter()
        .find(|a| a["attribution"].is_i64())
        .expect("an appearance that is an attribution");
    let article = server
        .get(&format!(
            "/v1/articles/{}",
            attributed["article"].as_str().unwrap()
        ))
        .json();
    let index = attributed["attribution"].as_i64().unwrap();
    let credited = article["attributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["index"] == index)
        .expect("the attribution the appearance names");
    assert_eq!(credited["source"], attributed["source"]);

    // A trace finds the claims a text carries, as `attest trace` does.
    let text =
        "Officials said the city may have overspent its 2025 road-repair budget by $4.2 million.";
    let traced = server
        .get(&format!(
            "/v1/trace?q={}",
            text.replace(' ', "+").replace('$', "%24")
        ))
        .json();
    let rows = rows_of(&openapi, "ClaimRow", &traced);
    assert_eq!(
        serde_json::Value::Array(rows.clone()),
        cli_json(&["trace", text, "--db", db, "--format", "json"])
    );
    assert!(
        rows.iter().any(|row| row["first"]["article"] == "A-01"),
        "the road-repair claim: {traced}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_ledger_query_is_stopped_at_the_statement_timeout() {
    let (dir, db) = ingested_ledger("slow");
    // Statistics over 200,000 cells take millions of SQLite steps: far more
    // than a millisecond on any machine.
    let conn = rusqlite::Connection::open(&db).expect("the ledger opens");
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) \
         INSERT INTO stats_cells SELECT 'Outlet ' || (i % 500), '2026-03-02', \
         1, 100, 1, 0, 1, 0, 0, 1, 0, 100, 0, 0, 0, 0 FROM n",
    )
    .expect("cells are added");
    drop(conn);
    let server = Server::start(&["--db", db.to_str().unwrap(), "--query-timeout-ms", "1"]);
    let (status, message) = server.get("/v1/stats?by=outlet").error();
    assert_eq!(status, 503);
    assert!(message.contains("statement timeout"), "{message}");
    assert_eq!(server.get("/v1/health").status, 200, "the server goes on");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ledger_routes_refuse_bad_questions_clearly() {
    let (dir, db) = ingested_ledger("bad");
    let server = Server::start(&["--db", db.to_str().unwrap()]);
    let long_search = format!("/v1/search?q={}", "harbor+".repeat(400));
    // Under the bytes a ledger question may take, over the characters a
    // trace analyses.
    let long_trace = format!("/v1/trace?q={}", "ferry+".repeat(170));
    let cases = [
        ("/v1/articles?since=yesterday", 400, "since"),
        ("/v1/articles?colour=red", 400, "colour"),
        ("/v1/articles?limit=many", 400, "limit"),
        ("/v1/sources?type=robot", 400, "robot"),
        ("/v1/sources/abc", 400, "abc"),
        ("/v1/sources/999999", 404, "999999"),
        ("/v1/articles/no-such-article", 404, "no-such-article"),
        ("/v1/articles/%ff%fe", 400, "UTF-8"),
        ("/v1/search", 400, "q="),
        ("/v1/search?q=%22unclosed", 200, ""),
        ("/v1/search?q=***", 400, "no word"),
        ("/v1/search?q=harbor&offset=9990&limit=20", 400, "deepest"),
        ("/v1/stats?by=weather", 400, "weather"),
        ("/v1/articles?limit=5000", 400, "5000"),
        (&long_search, 414, "--max-query-bytes"),
        ("/v1/claims?role=rumour", 400, "misattributed"),
        ("/v1/claims?min_articles=many", 400, "min_articles"),
        ("/v1/claims?limit=5000", 400, "5000"),
        ("/v1/claims/abc", 400, "abc"),
        ("/v1/claims/999999", 404, "no claim 999999"),
        ("/v1/trace", 400, "q="),
        ("/v1/trace?q=%2A%2A", 400, "no word"),
        (&long_trace, 400, "1000"),
    ];
    for (path, status, needle) in cases {
        let reply = server.get(path);
        assert_eq!(
            reply.status,
            status,
            "{path}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        if status != 200 {
            let (_, message) = reply.error();
            assert!(message.contains(needle), "{path}: {message}");
        }
    }
    drop(server);

    let bare = Server::start(&[]);
    let (status, message) = bare.get("/v1/sources").error();
    assert_eq!(status, 404);
    assert!(message.contains("--db"), "{message}");
    drop(bare);

    let not_a_ledger = dir.join("notes.txt");
    std::fs::write(&not_a_ledger, "shopping list").expect("a file is written");
    let output = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            not_a_ledger.to_str().unwrap(),
        ])
        .output()
        .expect("attest serve runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("notes.txt"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&not_a_ledger).unwrap(),
        "shopping list",
        "the file is left as it was"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrections_are_written_only_when_allowed_and_read_back_through_the_api_and_export() {
    let (dir, db) = ingested_ledger("corrections");
    let db_arg = db.to_str().unwrap();
    let first = serde_json::json!({"attribution": 0, "stance": "claims", "note": "checked"});

    let read_only = Server::start(&["--db", db_arg]);
    assert_eq!(read_only.get("/v1/health").json()["corrections"], false);
    let refused = read_only.post_json("/v1/articles/ferry-1/corrections", &first);
    assert_eq!(refused.status, 403);
    assert!(refused.error().1.contains("--allow-corrections"));
    drop(read_only);

    let server = Server::start(&["--db", db_arg, "--allow-corrections"]);
    let openapi = server.get("/v1/openapi.json").json();
    assert_eq!(server.get("/v1/health").json()["corrections"], true);
    let path = "/v1/articles/ferry-1/corrections";
    let body = first.to_string();
    let host = format!("127.0.0.1:{}", server.port);
    let json = ("Content-Type", "application/json");
    let token = ("X-Attest-Token", server.token.as_str());
    let send =
        |headers: &[(&str, &str)], body: &[u8]| request(server.port, "POST", path, headers, body);
    for (headers, why) in [
        (vec![json, ("Host", host.as_str())], "no token"),
        (
            vec![
                json,
                token,
                ("Host", host.as_str()),
                ("Origin", "http://news.example"),
            ],
            "another site's page",
        ),
        (
            vec![
                json,
                token,
                ("Host", host.as_str()),
                ("Sec-Fetch-Site", "cross-site"),
            ],
            "a cross-site request",
        ),
    ] {
        let reply = send(&headers, body.as_bytes());
        assert_eq!(reply.status, 403, "{why}");
        reply.error();
    }
    let oversized = serde_json::json!({"attribution": 0, "note": "n".repeat(20_000)}).to_string();
    assert_eq!(send(&[json, token], oversized.as_bytes()).status, 413);
    assert_eq!(
        send(&[("Content-Type", "text/plain"), token], body.as_bytes()).status,
        415
    );
    for bad in [
        serde_json::json!({"attribution": 0, "stance": "shouts"}),
        serde_json::json!({"attribution": 0, "verdict": "wrong"}),
        serde_json::json!({"attribution": 99}),
        serde_json::json!({"attribution": 0, "wrong": true, "kind": "direct"}),
    ] {
        let reply = server.post_json(path, &bad);
        assert_eq!(reply.status, 400, "{bad}");
        reply.error();
    }
    let missing = server.post_json("/v1/articles/no-such/corrections", &first);
    assert_eq!(missing.status, 404);

    let before = server.get("/v1/articles/ferry-1").json();
    let found_stance = before["attributions"][0]["stance"].clone();
    let same_page = send(
        &[
            json,
            token,
            ("Host", host.as_str()),
            ("Origin", &format!("http://{host}")),
            ("Sec-Fetch-Site", "same-origin"),
        ],
        body.as_bytes(),
    );
    assert_eq!(
        same_page.status,
        201,
        "{}",
        String::from_utf8_lossy(&same_page.body)
    );
    conforms(&openapi, "Correction", &same_page.json());

    let after = server.get("/v1/articles/ferry-1").json();
    conforms(&openapi, "ArticleDetail", &after);
    let corrected = &after["attributions"][0];
    assert_eq!(corrected["stance"], "claims");
    assert_eq!(corrected["correction"]["note"], "checked");
    assert_eq!(
        corrected["found"]["stance"], found_stance,
        "what attest found is kept"
    );
    assert_eq!(after["corrections"].as_array().map(Vec::len), Some(1));
    assert_eq!(after["review"], serde_json::Value::Null);

    // Only a reviewed article is exported as gold; a review is an empty
    // object, with the same signs of the server's own page as a correction.
    let review = "/v1/articles/ferry-1/review";
    let empty = serde_json::json!({});
    let no_token = request(
        server.port,
        "POST",
        review,
        &[json, ("Host", host.as_str())],
        b"{}",
    );
    assert_eq!(no_token.status, 403);
    let not_empty = server.post_json(review, &serde_json::json!({"reviewed": true}));
    assert_eq!(not_empty.status, 400);
    assert!(not_empty.error().1.contains("\"reviewed\""));
    let missing = server.post_json("/v1/articles/no-such/review", &empty);
    assert_eq!(missing.status, 404);
    let reviewed = server.post_json(review, &empty);
    assert_eq!(
        reviewed.status,
        201,
        "{}",
        String::from_utf8_lossy(&reviewed.body)
    );
    conforms(&openapi, "Review", &reviewed.json());
    let after = server.get("/v1/articles/ferry-1").json();
    conforms(&openapi, "ArticleDetail", &after);
    assert_eq!(after["review"]["applies"], true);
    drop(server);

    let attest = |args: &[&str]| String::from_utf8(cli(args)).expect("UTF-8");
    let rows = attest(&[
        "export",
        "corrections",
        "--format",
        "jsonl",
        "--out",
        "-",
        "--db",
        db_arg,
    ]);
    assert_eq!(rows.lines().count(), 1);
    assert!(rows.contains("\"stance\":\"claims\""), "{rows}");

    let gold = dir.join("gold");
    attest(&[
        "export",
        "corrections",
        "--format",
        "brat",
        "--out",
        gold.to_str().unwrap(),
        "--db",
        db_arg,
    ]);
    let corpus = attest_corpus::Corpus::open(&gold).expect("the export is a PolNeAR split");
    assert_eq!(corpus.names().collect::<Vec<_>>(), ["ferry-1"]);
    let article = corpus.article("ferry-1").expect("its files read back");
    assert_eq!(
        article.gold.len(),
        before["attributions"].as_array().map_or(0, Vec::len)
    );
    let ann = std::fs::read_to_string(gold.join("attributions/ferry-1_corrections.ann")).unwrap();
    assert!(ann.contains("Stance E1 claims"), "{ann}");
    let _ = std::fs::remove_dir_all(&dir);
}
#[test]
fn a_ledger_failure_names_no_server_path() {
    let (dir, db) = ingested_ledger("no-path");
    // A damaged full-text index: the search fails in SQLite.
    let conn = rusqlite::Connection::open(&db).expect("the ledger opens");
    conn.execute_batch("DELETE FROM attributions_fts_data WHERE id > 1")
        .expect("the index is damaged");
    drop(conn);
    let server = Server::start(&["--db", db.to_str().unwrap()]);
    let (status, message) = server.get("/v1/search?q=harbor").error();
    assert_eq!(status, 500, "{message}");
    assert!(!message.contains(dir.to_str().unwrap()), "{message}");
    assert!(!message.contains("ledger.db"), "{message}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
#[test]
fn answers_nobody_takes_hold_memory_within_a_budget_until_the_stall_limit() {
    // An answer far larger than what the kernel buffers for a client that
    // does not read, and a budget that holds one of them but not two.
    let record = serde_json::json!({ "text": long_article(1_000_000) }).to_string();
    let server = Server::start(&[
        "--max-body-bytes",
        "30000000",
        "--max-output-bytes",
        "30000000",
        "--max-held-answer-bytes",
        "30000000",
        "--timeout-secs",
        "600",
        // Long enough to analyse the article on a loaded machine, short
        // enough not to keep the suite waiting: the test waits it out.
        "--header-timeout-secs",
        "8",
    ]);
    // A client that pipelines two requests, reads the start of the first
    // answer and then nothing.
    let mut stuck = TcpStream::connect(("127.0.0.1", server.port)).expect("the server accepts");
    let request = format!(
        "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{record}",
        record.len()
    );
    stuck
        .write_all(format!("{request}{request}").as_bytes())
        .expect("the requests are sent");
    let mut start = [0; 12];
    stuck.read_exact(&mut start).expect("the answer starts");
    assert_eq!(&start, b"HTTP/1.1 200");

    let refused = server.request(
        "POST",
        "/v1/analyze",
        Some("application/json"),
        record.as_bytes(),
    );
    let (status, message) = refused.error();
    assert_eq!(status, 503, "{message}");
    assert!(message.contains("--max-held-answer-bytes"), "{message}");
    assert_eq!(refused.header("retry-after"), Some("1"));

    // The stalled connection is closed at the header timeout, which gives
    // its answer's bytes back.
    let started = Instant::now();
    loop {
        let reply = server.request(
            "POST",
            "/v1/analyze",
            Some("application/json"),
            record.as_bytes(),
        );
        if reply.status == 200 {
            break;
        }
        assert_eq!(reply.status, 503);
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the stalled answer is never given up"
        );
        std::thread::sleep(Duration::from_secs(1));
    }
    drop(stuck);
}
#[test]
fn requests_that_are_not_http_get_json_errors_too() {
    let server = Server::start(&[]);
    let many_fields = format!(
        "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\n",
        "X-Many: 1\r\n".repeat(200)
    );
    let cases = [
        (
            "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n".to_string(),
            400,
        ),
        (
            "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: many\r\n\r\n"
                .to_string(),
            400,
        ),
        (many_fields, 431),
    ];
    for (raw, status) in cases {
        let mut stream =
            TcpStream::connect(("127.0.0.1", server.port)).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout can be set");
        // The server may answer, and close, before it has read everything.
        let _ = stream.write_all(raw.as_bytes());
        let reply = receive(stream);
        assert_eq!(reply.status, status, "{:?}", &raw[..40]);
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let (_, message) = reply.error();
        assert!(!message.is_empty());
    }
    assert_eq!(server.get("/v1/health").status, 200, "the server goes on");
}
