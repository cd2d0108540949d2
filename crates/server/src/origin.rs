//! Who may ask: the `Host` a request names, and where a POST comes from.
//!
//! A page on another site can make a browser send requests here in two ways.
//! Through DNS rebinding, its own name comes to point at this server, so the
//! browser lets the page read the answers: the server answers only to the
//! `Host` values it is known by (those of its bind address, the names of
//! loopback when it listens there, and the names given with
//! `attest serve --allow-host`), and every other gets 421. Through a plain
//! form, it can POST `text/plain` without asking the server first: a POST
//! must be `application/json`, which a browser sends across sites only after a
//! CORS preflight this server never grants, or carry the token that
//! `GET /v1/token` gives (a header, which needs the same preflight); every
//! other gets 403.

use std::hash::{BuildHasher, Hasher};
use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{ApiError, AppState};

/// The header that carries the token of `GET /v1/token`.
pub(crate) const TOKEN_HEADER: &str = "x-attest-token";

/// The `Host` values the server answers to, and its token.
#[derive(Debug)]
pub(crate) struct Origin {
    bind: IpAddr,
    names: Vec<String>,
    token: String,
}

impl Origin {
    pub(crate) fn new(bind: IpAddr, names: Vec<String>) -> Origin {
        Origin {
            bind,
            names: names.iter().map(|name| normal_name(name)).collect(),
            token: new_token(),
        }
    }

    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// Whether `host`, a `Host` header's value, names this server. The port is
    /// not compared: a name that reaches the server is what rebinding forges.
    fn allows(&self, host: &str) -> bool {
        let name = normal_name(strip_port(host.trim()));
        if self.names.contains(&name) {
            return true;
        }
        let local = self.bind.is_loopback() || self.bind.is_unspecified();
        if name == "localhost" {
            return local;
        }
        let literal = match name.strip_prefix('[') {
            Some(bracketed) => match bracketed.strip_suffix(']') {
                Some(inner) => inner,
                None => return false,
            },
            None => name.as_str(),
        };
        match literal.parse::<IpAddr>() {
            // An address is no name a page can rebind; on a wildcard bind any
            // of the machine's addresses may reach the server.
            Ok(ip) => {
                ip == self.bind
                    || self.bind.is_unspecified()
                    || (self.bind.is_loopback() && ip.is_loopback())
            }
            Err(_) => false,
        }
    }
}

/// A host name compared as DNS compares it: without case or a final dot.
fn normal_name(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// `host` without its `:port`, if any (`[::1]:8080` gives `[::1]`).
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

/// 128 bits from the operating system's randomness, which std draws on to
/// seed each hasher; a token need be neither guessable nor more.
fn new_token() -> String {
    let half = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0);
        hasher.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// Refuses a request that repeats `Host` or `Content-Type` (400: which one
/// counts would be a guess, and a proxy and this server may guess apart), a
/// request whose `Host` is not this server's (421) and a POST that is neither
/// JSON nor carries the token (403).
pub(crate) async fn check(State(state): State<AppState>, request: Request, next: Next) -> Response {
    for name in [header::HOST, header::CONTENT_TYPE] {
        if request.headers().get_all(&name).iter().nth(1).is_some() {
            return ApiError::bad_request(format!("the request gives {name} more than once"))
                .into_response();
        }
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()));
    let origin = &state.origin;
    match host {
        Some(host) if origin.allows(host) => {}
        Some(host) => {
            return ApiError::misdirected(format!(
                "this server does not answer to Host {host:?}; start it with attest serve --allow-host NAME to add a name"
            ))
            .into_response();
        }
        None => {
            return ApiError::misdirected("the request names no Host").into_response();
        }
    }
    if request.method() == Method::POST && !is_json(&request) && !has_token(&request, origin) {
        return ApiError::forbidden(format!(
            "a POST must be Content-Type: application/json, or carry the {TOKEN_HEADER} header that GET /v1/token gives"
        ))
        .into_response();
    }
    next.run(request).await
}

fn is_json(request: &Request) -> bool {
    is_json_type(request.headers())
}

pub(crate) fn is_json_type(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

fn has_token(request: &Request, origin: &Origin) -> bool {
    carries_token(request.headers(), origin)
}

fn carries_token(headers: &HeaderMap, origin: &Origin) -> bool {
    headers
        .get(TOKEN_HEADER)
        .is_some_and(|value| value.as_bytes() == origin.token.as_bytes())
}

/// What a write (a correction) needs beyond what [`check`] asks of every
/// POST: the token, which only this server's own page can read, and, where
/// the browser says where the request comes from (`Sec-Fetch-Site`,
/// `Origin`), a page of a name this server answers to. A JSON POST alone is safe from other
/// sites only while no CORS preflight is ever granted; a write should not
/// rest on that alone.
pub(crate) fn check_write(origin: &Origin, headers: &HeaderMap) -> Result<(), ApiError> {
    if !carries_token(headers, origin) {
        return Err(ApiError::forbidden(format!(
            "a correction must carry the {TOKEN_HEADER} header that GET /v1/token gives"
        )));
    }
    let site = headers
        .get("sec-fetch-site")
        .map(|value| value.to_str().unwrap_or_default());
    if site.is_some_and(|site| site != "same-origin" && site != "none") {
        return Err(ApiError::forbidden(
            "a correction must come from this server's own page (Sec-Fetch-Site)",
        ));
    }
    if let Some(from) = headers.get(header::ORIGIN) {
        let from = from.to_str().unwrap_or_default();
        let host = headers
            .get(header::HOST)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default();
        if !same_page(from, host) || !origin.allows(host) {
            return Err(ApiError::forbidden(format!(
                "a correction must come from this server's own page, not from {from:?} (Origin)"
            )));
        }
    }
    Ok(())
}

/// Whether a page at `origin` (`scheme://host[:port]`) is this server's own,
/// reached as `host` (the `Host` header): the same scheme, name and port. The
/// server speaks plain HTTP, so its pages are `http://` pages.
fn same_page(origin: &str, host: &str) -> bool {
    let Some(authority) = origin.strip_prefix("http://") else {
        return false;
    };
    let with_port = |authority: &str| {
        let name = normal_name(strip_port(authority));
        let port = authority[strip_port(authority).len()..]
            .strip_prefix(':')
            .unwrap_or("80")
            .to_string();
        (name, port)
    };
    !host.is_empty() && with_port(authority.trim()) == with_port(host.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(bind: &str, names: &[&str]) -> Origin {
        Origin::new(
            bind.parse().unwrap(),
            names.iter().map(|n| n.to_string()).collect(),
        )
    }

    #[test]
    fn loopback_answers_to_its_names_only() {
        let origin = origin("127.0.0.1", &[]);
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "localhost.",
            "127.0.0.1",
            "127.0.0.1:9",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(origin.allows(host), "{host}");
        }
        for host in [
            "attacker.example",
            "attacker.example:8080",
            "localhost.attacker.example",
            "10.0.0.1",
            "",
            "[::1",
        ] {
            assert!(!origin.allows(host), "{host}");
        }
    }

    #[test]
    fn other_binds_answer_to_their_address_and_the_names_given() {
        let lan = origin("192.168.1.5", &["News.Example."]);
        assert!(lan.allows("192.168.1.5:8080"));
        assert!(lan.allows("news.example"));
        assert!(lan.allows("NEWS.EXAMPLE:443"));
        assert!(!lan.allows("localhost"), "not on loopback");
        assert!(!lan.allows("127.0.0.1"));
        assert!(!lan.allows("192.168.1.6"));

        let any = origin("0.0.0.0", &[]);
        assert!(any.allows("192.168.1.6:8080"));
        assert!(any.allows("localhost"));
        assert!(!any.allows("rebound.example"));
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn a_write_needs_the_token_and_its_own_page() {
        let origin = origin("127.0.0.1", &[]);
        let token = origin.token().to_string();
        let allowed =
            |pairs: &[(&'static str, &str)]| check_write(&origin, &headers(pairs)).is_ok();
        assert!(allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost:8080")
        ]));
        assert!(allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost:8080"),
            ("origin", "http://localhost:8080"),
            ("sec-fetch-site", "same-origin"),
        ]));
        assert!(!allowed(&[("host", "localhost:8080")]), "no token");
        assert!(!allowed(&[
            (TOKEN_HEADER, "0123"),
            ("host", "localhost:8080")
        ]));
        assert!(!allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost:8080"),
            ("sec-fetch-site", "cross-site"),
        ]));
        assert!(!allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost:8080"),
            ("origin", "http://attacker.example"),
        ]));
        assert!(!allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost:8080"),
            ("origin", "null"),
        ]));
        for other in [
            "https://localhost:8080",
            "http://localhost:9090",
            "http://localhost",
            "http://127.0.0.1:8080",
        ] {
            assert!(
                !allowed(&[
                    (TOKEN_HEADER, &token),
                    ("host", "localhost:8080"),
                    ("origin", other),
                ]),
                "another scheme, port or name: {other}"
            );
        }
        assert!(allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "LOCALHOST:8080"),
            ("origin", "http://localhost:8080"),
        ]));
        assert!(allowed(&[
            (TOKEN_HEADER, &token),
            ("host", "localhost"),
            ("origin", "http://localhost:80"),
        ]));
    }

    #[test]
    fn tokens_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
