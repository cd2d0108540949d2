//! The web page: one HTML file, a script, a style sheet and an icon, compiled into the
//! binary so the page works offline and needs no CDN.
//!
//! The page builds everything it shows with DOM text nodes, never `innerHTML`
//! on article text, and the Content-Security-Policy header allows scripts only
//! from this server, so text that looks like markup stays text.

use axum::Router;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

const INDEX: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/app.css");
const ICON: &str = include_str!("../assets/favicon.svg");

/// Each asset as (path, type, body). Browsers ask for /favicon.ico whatever
/// the page links, so the SVG icon answers under both names.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", INDEX),
    ("/app.js", "text/javascript; charset=utf-8", SCRIPT),
    ("/app.css", "text/css; charset=utf-8", STYLE),
    ("/favicon.svg", "image/svg+xml", ICON),
    ("/favicon.ico", "image/svg+xml", ICON),
];

const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

pub(crate) fn routes() -> Router<AppState> {
    ASSETS
        .iter()
        .fold(Router::new(), |router, &(path, content_type, body)| {
            router.route(path, get(move || async move { asset(content_type, body) }))
        })
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
