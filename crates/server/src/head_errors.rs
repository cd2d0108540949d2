//! hyper answers a request head it cannot read itself, before any route runs:
//! 400 for a malformed one, 414 for too long a path, 431 for too large a head,
//! each with an empty body. [`JsonErrors`] gives these answers the JSON body of
//! every other error ([`ApiError`]) on their way out.
//!
//! hyper's own answers are the only ones with `content-length: 0` and one of
//! those statuses, and, since hyper closes the connection after one, it is the
//! last thing written: the end of the bytes hyper hands over in one write.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::http::StatusCode;
use tokio::io::AsyncWrite;

use crate::ApiError;
use crate::listen::{BUFFER_BYTES, HEADER_FIELDS};

/// A connection that writes hyper's answers to unreadable heads with a JSON
/// body.
pub(crate) struct JsonErrors<T> {
    inner: T,
    /// A rewritten answer, taken from hyper whole, and how much of it is
    /// written.
    rewritten: Vec<u8>,
    sent: usize,
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    pub(crate) fn new(inner: T) -> JsonErrors<T> {
        JsonErrors {
            inner,
            rewritten: Vec::new(),
            sent: 0,
        }
    }

    /// Writes what is left of a rewritten answer; ready when nothing is.
    fn poll_rewritten(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.rewritten.len() {
            let written =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.rewritten[self.sent..]))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += written;
        }
        self.rewritten = Vec::new();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` whole when it ends with one of hyper's answers; the
    /// flush or shutdown that hyper does next writes it out.
    fn take_rewritten(&mut self, buf: &[u8]) -> bool {
        match with_json_body(buf) {
            Some(rewritten) => {
                self.rewritten = rewritten;
                self.sent = 0;
                true
            }
            None => false,
        }
    }
}

/// `written` with the answer of hyper's at its end given a JSON body, or
/// `None` when it does not end with one.
fn with_json_body(written: &[u8]) -> Option<Vec<u8>> {
    // Only the end can be hyper's answer: a long answer is not searched.
    let from = written.len().saturating_sub(HEAD_BYTES);
    let start = from
        + written[from..]
            .windows(STATUS_LINE.len())
            .rposition(|window| window == STATUS_LINE)?;
    let head = std::str::from_utf8(written[start..].strip_suffix(b"\r\n\r\n")?).ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let error = match status_line.get(STATUS_LINE.len()..STATUS_LINE.len() + 3)? {
        "400" => ApiError::bad_request(
            "the request is not HTTP/1.1 this server reads: its request line, a header or its length is malformed",
        ),
        "414" => ApiError::new(
            StatusCode::URI_TOO_LONG,
            "the request's path is longer than this server reads",
        ),
        "431" => ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "the request's head is over {BUFFER_BYTES} bytes or {HEADER_FIELDS} header fields"
            ),
        ),
        _ => return None,
    };
    let fields: Vec<&str> = lines.collect();
    if !fields
        .iter()
        .any(|field| field.eq_ignore_ascii_case("content-length: 0"))
    {
        return None;
    }
    let body = error.json();
    let mut rewritten = written[..start].to_vec();
    rewritten.extend_from_slice(status_line.as_bytes());
    rewritten.extend_from_slice(b"\r\n");
    for field in fields {
        if field.eq_ignore_ascii_case("content-length: 0") {
            rewritten.extend_from_slice(
                format!(
                    "content-type: application/json\r\ncontent-length: {}",
                    body.len()
                )
                .as_bytes(),
            );
        } else {
            rewritten.extend_from_slice(field.as_bytes());
        }
        rewritten.extend_from_slice(b"\r\n");
    }
    rewritten.extend_from_slice(b"\r\n");
    rewritten.extend_from_slice(&body);
    Some(rewritten)
}

/// How every answer hyper writes begins.
const STATUS_LINE: &[u8] = b"HTTP/1.1 ";

/// More than the head of any of hyper's answers to an unreadable head: a
/// status line, `connection`, `content-length` and `date`.
const HEAD_BYTES: usize = 512;

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_rewritten(cx))?;
        if this.take_rewritten(buf) {
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_rewritten(cx))?;
        // An answer to an unreadable head has no body, so hyper hands it
        // over in one slice.
        let mut filled = bufs.iter().filter(|buf| !buf.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next())
            && this.take_rewritten(only)
        {
            return Poll::Ready(Ok(only.len()));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_rewritten(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_rewritten(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPERS: &[u8] =
        b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\n\
                            date: Sat, 05 Dec 2026 17:54:36 GMT\r\n\r\n";

    #[test]
    fn hypers_answer_gets_a_json_body_after_what_came_before() {
        let written = [b"the end of an earlier answer".as_slice(), HYPERS].concat();
        let rewritten = with_json_body(&written).expect("hyper's answer is found");
        let text = String::from_utf8(rewritten).expect("text");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        assert!(head.starts_with("the end of an earlier answerHTTP/1.1 414 URI Too Long\r\n"));
        assert!(
            head.contains("\r\ncontent-type: application/json\r\n"),
            "{head}"
        );
        assert!(
            head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())),
            "{head}"
        );
        assert!(head.ends_with("GMT"), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert_eq!(json["error"]["status"], 414);
    }

    #[test]
    fn other_answers_are_left_alone() {
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\
                     content-length: 52\r\n\r\n";
        let empty_ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        let cut = &HYPERS[..HYPERS.len() - 2];
        for written in [ours.as_slice(), empty_ok, cut] {
            assert_eq!(with_json_body(written), None, "{written:?}");
        }
    }
}
