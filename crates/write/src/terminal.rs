//! The one sanitiser for text bound to a terminal.
//!
//! Article text, outlets, source names, ids and error messages come from inputs
//! that anyone can write; printed raw, an escape sequence in them can move the
//! cursor, recolour or retitle the terminal, hide lines (carriage return), or
//! reorder what is shown (bidirectional overrides, as in "Trojan Source").
//! Every string attest prints for people (the report, query tables, search
//! hits, warnings and errors) passes through [`terminal_safe`]; machine formats
//! (JSON, CSV, brat) keep the text exact instead.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as it is: C0 controls, DEL, C1
/// controls, and every bidirectional control: the embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069) and the marks (U+200E, U+200F,
/// U+061C), which reorder neutral characters around them. Line feed and tab
/// are decided by the caller.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
        )
}

/// `text` with every character a terminal would act on shown as a visible
/// escape, `\u{1b}` style; line feeds and tabs are kept when `multiline`
/// (a layout that needs them), escaped otherwise. Text without such
/// characters is returned as it is, without copying.
pub fn terminal_safe(text: &str, multiline: bool) -> Cow<'_, str> {
    let keep = |c: char| multiline && matches!(c, '\n' | '\t');
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) && !keep(c) {
            let _ = write!(safe, "\\u{{{:x}}}", u32::from(c));
        } else {
            safe.push(c);
        }
    }
    Cow::Owned(safe)
}

/// A writer that hands `inner` what it is given line by line through
/// [`terminal_safe`]: for a machine format (CSV, JSON Lines) written to a
/// terminal, where a person reads it. It holds one line at a time; call
/// `flush` at the end to write an unterminated last line.
pub struct TerminalSafeWriter<W: std::io::Write> {
    inner: W,
    line: Vec<u8>,
}

impl<W: std::io::Write> TerminalSafeWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> TerminalSafeWriter<W> {
        TerminalSafeWriter {
            inner,
            line: Vec::new(),
        }
    }

    fn write_line(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line);
        self.inner
            .write_all(terminal_safe(&text, false).as_bytes())?;
        self.line.clear();
        Ok(())
    }
}

impl<W: std::io::Write> std::io::Write for TerminalSafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&rest[..end]);
            self.write_line()?;
            self.inner.write_all(b"\n")?;
            rest = &rest[end + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.write_line()?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_format_reaches_a_terminal_escaped_line_by_line() {
        use std::io::Write;
        let mut out = TerminalSafeWriter::new(Vec::new());
        // A multi-byte character split across writes stays whole.
        let row = "id,name\n7,Jo \u{1b}[2JQuill \u{200f}é\n8,last".as_bytes();
        let (first, second) = row.split_at(row.len() - 8);
        out.write_all(first).unwrap();
        out.write_all(second).unwrap();
        out.flush().unwrap();
        assert_eq!(
            String::from_utf8(out.inner).unwrap(),
            "id,name\n7,Jo \\u{1b}[2JQuill \\u{200f}é\n8,last"
        );
    }

    #[test]
    fn controls_and_bidi_overrides_become_visible_escapes() {
        assert_eq!(
            terminal_safe("a\u{1b}[2Jb\rc\u{7f}\u{9b}d\u{202e}e\u{2066}f\0", false),
            "a\\u{1b}[2Jb\\u{d}c\\u{7f}\\u{9b}d\\u{202e}e\\u{2066}f\\u{0}"
        );
        assert_eq!(
            terminal_safe("x\u{200f}y\u{61c}z\u{200e}", false),
            "x\\u{200f}y\\u{61c}z\\u{200e}",
            "the bidirectional marks too"
        );
    }

    #[test]
    fn line_feeds_and_tabs_stay_only_where_layout_needs_them() {
        assert_eq!(terminal_safe("a\n\tb", true), "a\n\tb");
        assert_eq!(terminal_safe("a\n\tb", false), "a\\u{a}\\u{9}b");
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(
            terminal_safe("Café “quoted” — ok", false),
            Cow::Borrowed(_)
        ));
    }
}
