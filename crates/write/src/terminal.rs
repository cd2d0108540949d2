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
/// controls, and the bidirectional embeddings, overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069). Line feed and tab are decided by the caller.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_become_visible_escapes() {
        assert_eq!(
            terminal_safe("a\u{1b}[2Jb\rc\u{7f}\u{9b}d\u{202e}e\u{2066}f\0", false),
            "a\\u{1b}[2Jb\\u{d}c\\u{7f}\\u{9b}d\\u{202e}e\\u{2066}f\\u{0}"
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
