//! A bounded load test of `POST /v1/analyze`, run from a second process on
//! loopback: N connections each send the same article M times, one request at
//! a time (a closed loop, as wrk does), and the run reports analyses per second
//! and latency percentiles. Given the server's process id, it also samples the
//! server's threads and resident memory (from `/proc`, on Linux) while the
//! clients run, to show that both stay bounded however many clients there are.
//! docs/benchmarks.md quotes its output.
//!
//! ```text
//! attest serve --addr 127.0.0.1:8080 --max-analyses 2 &
//! cargo run --release -p attest-server --example load -- \
//!     --addr 127.0.0.1:8080 --connections 2 --requests 200 --pid $! crates/cli/sample/article.txt
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;

/// Load-tests `POST /v1/analyze` of a running `attest serve`.
#[derive(Parser)]
struct Flags {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Concurrent connections (at least 1).
    #[arg(long, default_value_t = 2)]
    connections: usize,
    /// Requests each connection sends (at least 1).
    #[arg(long, default_value_t = 200)]
    requests: usize,
    /// The server's process, whose threads and memory are sampled.
    #[arg(long)]
    pid: Option<u32>,
    /// The article file to send.
    file: String,
}

struct Options {
    addr: String,
    connections: usize,
    requests: usize,
    pid: Option<u32>,
    /// The article as the JSON record that is posted.
    body: String,
}

fn options() -> Result<Options, String> {
    let flags = Flags::parse();
    let article =
        std::fs::read_to_string(&flags.file).map_err(|e| format!("{}: {e}", flags.file))?;
    Ok(Options {
        addr: flags.addr,
        connections: flags.connections.max(1),
        requests: flags.requests.max(1),
        pid: flags.pid,
        body: serde_json::json!({ "text": article }).to_string(),
    })
}

/// Sends one request on a fresh connection and waits for the whole answer;
/// returns the status code.
fn analyse(addr: &str, body: &[u8]) -> Result<u16, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connecting to {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let head = format!(
        "POST /v1/analyze HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .map_err(|e| format!("sending: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("reading: {e}"))?;
    let status = answer
        .split(|b| *b == b' ')
        .nth(1)
        .and_then(|code| std::str::from_utf8(code).ok()?.parse().ok())
        .ok_or("no status line")?;
    Ok(status)
}

/// The server's threads and resident memory in kB, as `/proc` gives them.
fn process_status(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|line| line.starts_with(name))?;
        line[name.len()..].split_whitespace().next()?.parse().ok()
    };
    Some((field("Threads:")?, field("VmRSS:")?))
}

/// The most threads and resident memory seen while the clients run.
#[derive(Default)]
struct Peak {
    before: Option<(u64, u64)>,
    threads: u64,
    rss_kb: u64,
    after: Option<(u64, u64)>,
}

fn sample(pid: u32, running: &AtomicBool) -> Peak {
    let mut peak = Peak {
        before: process_status(pid),
        ..Peak::default()
    };
    while running.load(Ordering::Relaxed) {
        if let Some((threads, rss)) = process_status(pid) {
            peak.threads = peak.threads.max(threads);
            peak.rss_kb = peak.rss_kb.max(rss);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    peak.after = process_status(pid);
    peak
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("load: {message}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let running = AtomicBool::new(true);
    let mut peak = None;
    let outcomes: Vec<Vec<(Duration, Result<u16, String>)>> = std::thread::scope(|scope| {
        let running = &running;
        let sampler = options
            .pid
            .map(|pid| scope.spawn(move || sample(pid, running)));
        let workers: Vec<_> = (0..options.connections)
            .map(|_| {
                scope.spawn(|| {
                    (0..options.requests)
                        .map(|_| {
                            let sent = Instant::now();
                            let status = analyse(&options.addr, options.body.as_bytes());
                            (sent.elapsed(), status)
                        })
                        .collect()
                })
            })
            .collect();
        let outcomes = workers
            .into_iter()
            .map(|worker| worker.join().unwrap_or_default())
            .collect();
        running.store(false, Ordering::Relaxed);
        peak = sampler.and_then(|sampler| sampler.join().ok());
        outcomes
    });
    let elapsed = started.elapsed();
    let mut latencies = Vec::new();
    let (mut ok, mut refused, mut failed) = (0, 0, 0);
    for (latency, status) in outcomes.into_iter().flatten() {
        match status {
            Ok(200) => {
                ok += 1;
                latencies.push(latency);
            }
            Ok(503) => refused += 1,
            Ok(other) => {
                failed += 1;
                eprintln!("load: status {other}");
            }
            Err(message) => {
                failed += 1;
                eprintln!("load: {message}");
            }
        }
    }
    latencies.sort();
    println!(
        "{} connections x {} requests of {} bytes in {:.2} s",
        options.connections,
        options.requests,
        options.body.len(),
        elapsed.as_secs_f64()
    );
    println!("analysed {ok}, refused (503) {refused}, failed {failed}");
    if !latencies.is_empty() {
        println!(
            "{:.1} analyses/s; latency p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ok as f64 / elapsed.as_secs_f64(),
            percentile(&latencies, 0.50).as_secs_f64() * 1e3,
            percentile(&latencies, 0.90).as_secs_f64() * 1e3,
            percentile(&latencies, 0.99).as_secs_f64() * 1e3,
            latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        );
    }
    if let Some(peak) = peak {
        let show = |at: Option<(u64, u64)>| {
            at.map_or("unknown".to_string(), |(threads, rss)| {
                format!("{threads} threads, {:.1} MB", rss as f64 / 1024.0)
            })
        };
        println!(
            "server: before {}; peak {} threads, {:.1} MB; after {}",
            show(peak.before),
            peak.threads,
            peak.rss_kb as f64 / 1024.0,
            show(peak.after)
        );
    }
    if failed > 0 {
        std::process::exit(1);
    }
}
