//! HTML pages (`.html`, `.htm`): the main text by `dom_smoothie`, metadata from the
//! page's own tags.
//!
//! | Article field | value, first found wins |
//! |---|---|
//! | `id` | the path as given (for [`crate::read_html_str`], the id passed in) |
//! | `text` | the main text found by `dom_smoothie` (navigation, headers, footers, asides dropped), one block per paragraph: headings, paragraphs, list items, quotes and line breaks each end a paragraph, and paragraphs are separated by one blank line; runs of spaces are collapsed |
//! | `title` | `<meta property="og:title">`, `<title>`, the title `dom_smoothie` guesses |
//! | `url` | `<link rel="canonical">`, `<meta property="og:url">` |
//! | `published` | `<meta property="article:published_time">`, `og:article:published_time`, `<meta name="date">`, the first `<time datetime>` inside `<article>`, the time `dom_smoothie` finds (JSON-LD `datePublished`, other meta tags) |
//! | `outlet` | `<meta property="og:site_name">`, the site name `dom_smoothie` finds (JSON-LD) |
//! | `language` | `<html lang>` |
//!
//! A publication time must be an RFC 3339 instant or a date; a candidate that is
//! neither is passed over with a warning. The page is decoded as UTF-8 when it is
//! valid UTF-8, else in the charset declared by the HTTP header (in a WARC record)
//! or a `<meta>` tag in its first 1024 bytes (`windows-1252`, `iso-8859-1`,
//! `shift_jis`, ... as browsers name them), else as UTF-8 with invalid bytes
//! replaced and a warning. A file is refused when it is over
//! [`attest_doc::Limits::warc_record_bytes`] (the limit for one raw web document)
//! and its text when over [`attest_doc::Limits::article_bytes`].
//!
//! Pages nesting elements deeper than [`attest_doc::Limits::html_depth`] are refused
//! with [`crate::ReadErrorKind::HtmlTooDeep`], twice checked: a cheap scan of the
//! tags before parsing, then the parsed tree, without recursion, before any tree walk.

use std::path::Path;

use attest_doc::{Article, Diagnostic, Limits, Published};
use dom_query::{Document, NodeRef};
use dom_smoothie::{Config, Readability, TextMode};

use crate::decode::{ORIGIN, decode_html, is_binary, nul_bytes_warning, read_bounded};
use crate::error::{ReadError, ReadErrorKind};
use crate::text::{check_body, read_file_bounded};
use crate::{Origin, ReadItem};

/// Reads an HTML file as one article whose id is `display`.
pub(crate) fn read_html_file(
    path: &Path,
    display: &str,
    limits: &Limits,
) -> Result<ReadItem, ReadError> {
    let bytes = read_file_bounded(path, limits.warc_record_bytes, |size, limit| {
        ReadErrorKind::HtmlTooLarge { size, limit }
    })
    .map_err(|kind| ReadError::new(display, kind))?;
    html_bytes_to_item(bytes, None, display, limits, "of the file")
        .map_err(|kind| ReadError::new(display, kind))
}

/// Reads one HTML page from standard input, up to one byte past the limit, as
/// an article whose id is `-`.
pub(crate) fn read_html_stdin(limits: &Limits) -> Result<ReadItem, ReadError> {
    let place = |kind| ReadError::new("-", kind);
    let (bytes, over) = read_bounded(std::io::stdin().lock(), limits.warc_record_bytes)
        .map_err(|error| place(ReadErrorKind::Io(error)))?;
    if over {
        return Err(place(ReadErrorKind::HtmlTooLarge {
            size: bytes.len() as u64,
            limit: limits.warc_record_bytes,
        }));
    }
    html_bytes_to_item(bytes, None, "-", limits, "of standard input").map_err(place)
}

/// Checks, decodes and reads the bytes of one HTML document; `charset` is the one an
/// HTTP header declared.
pub(crate) fn html_bytes_to_item(
    bytes: Vec<u8>,
    charset: Option<&str>,
    id: &str,
    limits: &Limits,
    within: &str,
) -> Result<ReadItem, ReadErrorKind> {
    if is_binary(&bytes) {
        return Err(ReadErrorKind::Binary);
    }
    // The HTML parser drops NULs from text, so they are named in the raw page.
    let nuls = nul_bytes_warning(id, &bytes, &format!("{within}, dropped by the HTML parser"));
    let (html, warning) = decode_html(bytes, charset, id, within);
    let mut item = html_to_item(&html, id, limits)?;
    item.warnings.splice(0..0, nuls.into_iter().chain(warning));
    Ok(item)
}

/// Reads one HTML document given as text.
pub(crate) fn html_to_item(
    html: &str,
    id: &str,
    limits: &Limits,
) -> Result<ReadItem, ReadErrorKind> {
    let depth = scan_depth(html.as_bytes(), limits.html_depth);
    if depth > limits.html_depth {
        return Err(ReadErrorKind::HtmlTooDeep {
            depth,
            limit: limits.html_depth,
        });
    }
    let document = Document::from(html);
    let depth = tree_depth(&document.root(), limits.html_depth);
    if depth > limits.html_depth {
        return Err(ReadErrorKind::HtmlTooDeep {
            depth,
            limit: limits.html_depth,
        });
    }
    let mut warnings = Vec::new();
    let meta = PageMeta::from_document(&document);
    let config = Config {
        text_mode: TextMode::Formatted,
        ..Config::default()
    };
    let mut readability = Readability::with_document(document, None, Some(config))
        .map_err(|error| ReadErrorKind::Html(error.to_string()))?;
    let extracted = readability.parse().map_err(|error| match error {
        // Every extraction attempt, down to the one without cleaning, found no text.
        dom_smoothie::ReadabilityError::GrabFailed => ReadErrorKind::Empty,
        other => ReadErrorKind::Html(other.to_string()),
    })?;
    let text = paragraphs(&extracted.text_content);
    check_body(&text, limits)?;

    let mut time_candidates = meta.published;
    if let Some(time) = extracted.published_time {
        time_candidates.push(("the page's metadata (JSON-LD or meta tags)", time));
    }
    let published = first_published(id, time_candidates, &mut warnings);
    let article = Article {
        id: id.to_string(),
        title: meta.title.or_else(|| non_empty(&extracted.title)),
        text,
        outlet: meta
            .site_name
            .or_else(|| extracted.site_name.as_deref().and_then(non_empty)),
        url: meta.url,
        published,
        language: meta.language,
    };
    Ok(ReadItem {
        article,
        warnings,
        id_given: false,
        origin: Origin::default(),
    })
}

/// The metadata a page states about itself, read before `dom_smoothie` changes the tree.
struct PageMeta {
    title: Option<String>,
    url: Option<String>,
    site_name: Option<String>,
    language: Option<String>,
    /// Publication time candidates in order of trust, with where each came from.
    published: Vec<(&'static str, String)>,
}

impl PageMeta {
    fn from_document(document: &Document) -> PageMeta {
        let meta = |key: &str| {
            first_attr(
                document,
                &format!(r#"meta[property="{key}"], meta[name="{key}"]"#),
                "content",
            )
        };
        let title = meta("og:title").or_else(|| {
            document
                .select("title")
                .iter()
                .next()
                .and_then(|title| non_empty(&title.text()))
        });
        let url =
            first_attr(document, r#"link[rel~="canonical"]"#, "href").or_else(|| meta("og:url"));
        let mut published = Vec::new();
        for (place, key) in [
            (
                "<meta property=\"article:published_time\">",
                "article:published_time",
            ),
            (
                "<meta property=\"og:article:published_time\">",
                "og:article:published_time",
            ),
            ("<meta name=\"date\">", "date"),
        ] {
            if let Some(time) = meta(key) {
                published.push((place, time));
            }
        }
        if let Some(time) = first_attr(document, "article time[datetime]", "datetime") {
            published.push(("<time datetime> in <article>", time));
        }
        PageMeta {
            title,
            url,
            site_name: meta("og:site_name"),
            language: first_attr(document, "html[lang]", "lang"),
            published,
        }
    }
}

/// The first non-empty value of `attr` on the elements `selector` matches.
fn first_attr(document: &Document, selector: &str, attr: &str) -> Option<String> {
    document
        .select(selector)
        .iter()
        .find_map(|element| element.attr(attr).and_then(|value| non_empty(&value)))
}

/// Whitespace-collapsed text, or nothing if there is none.
fn non_empty(text: &str) -> Option<String> {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// The first candidate that parses as a publication time; the ones passed over
/// before it are reported, since a page stating a time attest cannot read is worth
/// knowing about.
fn first_published(
    id: &str,
    candidates: Vec<(&'static str, String)>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Published> {
    let mut tried: Vec<String> = Vec::new();
    for (place, value) in candidates {
        // dom_smoothie reads some of the same tags, so a value can come twice.
        if tried.contains(&value) {
            continue;
        }
        tried.push(value.clone());
        match value.parse::<Published>() {
            Ok(published) => return Some(published),
            Err(error) => warnings.push(Diagnostic {
                origin: ORIGIN,
                message: format!("{id}: publication time in {place} ignored: {error}"),
            }),
        }
    }
    None
}

/// One paragraph per line of the formatted text, separated by blank lines.
///
/// `dom_smoothie`'s formatted text ends list items and line breaks with a single
/// newline and inline text before a block with one too; making every line break a
/// paragraph break gives the sentence splitter one rule, and pages that separate
/// paragraphs with `<br><br>` come out right.
fn paragraphs(formatted: &str) -> String {
    let mut text = String::with_capacity(formatted.len());
    for line in formatted
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
    {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(line);
    }
    text
}

/// The deepest element nesting of the parsed tree, walked without recursion and
/// given up as soon as it passes `limit`.
fn tree_depth(root: &NodeRef<'_>, limit: usize) -> usize {
    let mut deepest = 0;
    let mut depth = 0;
    let mut node = root.first_child();
    while let Some(current) = node {
        depth += 1;
        deepest = deepest.max(depth);
        if deepest > limit {
            return deepest;
        }
        if let Some(child) = current.first_child() {
            node = Some(child);
            continue;
        }
        let mut climbing = Some(current);
        node = None;
        while let Some(up) = climbing {
            if let Some(sibling) = up.next_sibling() {
                node = Some(sibling);
                break;
            }
            depth = depth.saturating_sub(1);
            climbing = up.parent().filter(|parent| parent.id != root.id);
        }
        depth = depth.saturating_sub(1);
    }
    deepest
}

/// Elements that never have content, so never nest.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "frame", "basefont", "bgsound",
];

/// Elements whose content is text up to their end tag, not markup.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
];

/// Elements that open a block and so close an open `<p>`, as HTML parsers do.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
    "li",
    "dd",
    "dt",
];

/// The element nesting depth of a page, estimated from its tags alone without
/// building a tree, stopping as soon as it passes `limit`.
///
/// It follows the parser rules that keep real pages shallow (void elements, raw
/// text, end tags closing what they match, `<p>` `<li>` `<dt>` `<dd>` `<tr>` `<td>`
/// `<th>` `<option>` closed by the next one); the tree check after parsing catches
/// what this estimate misses.
fn scan_depth(html: &[u8], limit: usize) -> usize {
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut deepest = 0;
    let mut at = 0;
    while let Some(found) = find(html, at, b"<") {
        let rest = html.get(found + 1..).unwrap_or_default();
        at = found + 1;
        if rest.starts_with(b"!--") {
            at = find(html, found + 4, b"-->").map_or(html.len(), |end| end + 3);
        } else if rest.starts_with(b"!") || rest.starts_with(b"?") {
            at = find(html, found, b">").map_or(html.len(), |end| end + 1);
        } else if let Some(after_slash) = rest.strip_prefix(b"/") {
            let name = tag_name(after_slash);
            if let Some(open) = stack.iter().rposition(|open| *open == name) {
                stack.truncate(open);
            }
            at = find(html, found, b">").map_or(html.len(), |end| end + 1);
        } else if rest.first().is_some_and(u8::is_ascii_alphabetic) {
            let name = tag_name(rest);
            let (end, self_closing) = tag_end(html, found + 1 + name.len());
            at = end;
            let name_str = std::str::from_utf8(&name).unwrap_or_default();
            if RAW_TEXT.contains(&name_str) {
                let mut closing = b"</".to_vec();
                closing.extend_from_slice(&name);
                at = find_ignore_case(html, at, &closing).unwrap_or(html.len());
                continue;
            }
            if VOID.contains(&name_str) || self_closing {
                continue;
            }
            close_implied(&mut stack, name_str);
            stack.push(name);
            deepest = deepest.max(stack.len());
            if deepest > limit {
                return deepest;
            }
        }
    }
    deepest
}

/// Pops the elements a new `name` element implicitly ends.
fn close_implied(stack: &mut Vec<Vec<u8>>, name: &str) {
    let (closes, boundaries): (&[&str], &[&str]) = match name {
        "li" => (&["li"], &["ul", "ol", "menu"]),
        "dt" | "dd" => (&["dt", "dd"], &["dl"]),
        "tr" => (&["tr"], &["thead", "tbody", "tfoot"]),
        "td" | "th" => (&["td", "th"], &["tr"]),
        "option" => (&["option"], &["select", "datalist", "optgroup"]),
        _ => (&[], &[]),
    };
    if !closes.is_empty() {
        close_nearest(stack, closes, boundaries);
    }
    if CLOSES_P.contains(&name) {
        close_nearest(stack, &["p"], &[]);
    }
}

/// Pops the nearest open element named in `closes` and all above it, unless a
/// boundary (or a scope-ending table, cell or button) comes first.
fn close_nearest(stack: &mut Vec<Vec<u8>>, closes: &[&str], boundaries: &[&str]) {
    for (index, open) in stack.iter().enumerate().rev() {
        let open = std::str::from_utf8(open).unwrap_or_default();
        if closes.contains(&open) {
            stack.truncate(index);
            return;
        }
        if boundaries.contains(&open) || matches!(open, "table" | "button" | "td" | "th") {
            return;
        }
    }
}

/// The lowercase tag name at the start of `bytes`.
fn tag_name(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .take_while(|byte| !byte.is_ascii_whitespace() && !matches!(byte, b'/' | b'>'))
        .map(u8::to_ascii_lowercase)
        .collect()
}

/// Where the tag starting before `from` ends (past its `>`), skipping quoted
/// attribute values, and whether it is written self-closing.
fn tag_end(html: &[u8], from: usize) -> (usize, bool) {
    let mut quote = None;
    let mut previous = 0u8;
    for (offset, &byte) in html.get(from..).unwrap_or_default().iter().enumerate() {
        match quote {
            Some(open) if byte == open => quote = None,
            Some(_) => {}
            None if byte == b'"' || byte == b'\'' => quote = Some(byte),
            None if byte == b'>' => return (from + offset + 1, previous == b'/'),
            None => {}
        }
        previous = byte;
    }
    (html.len(), false)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|position| from + position)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
        .map(|position| from + position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_bytes_in_a_page_are_named_by_their_offset_in_the_page() {
        let page =
            b"<html><body><article><p>The ferry left at dawn,\0 the harbour master said.</p>\
            <p>Passengers were told to wait.</p></article></body></html>"
                .to_vec();
        let at = page.iter().position(|&b| b == 0).unwrap();
        let item =
            html_bytes_to_item(page, None, "page.html", &Limits::DEFAULT, "of the file").unwrap();
        assert!(!item.article.text.contains('\0'));
        let messages: Vec<&str> = item.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [format!(
                "page.html: 1 NUL byte of the file, dropped by the HTML parser, at byte {at}"
            )]
        );
    }

    #[test]
    fn scan_follows_parser_rules_for_shallow_pages() {
        assert_eq!(
            scan_depth(b"<html><body><p>a<p>b<p>c</body></html>", 100),
            3
        );
        assert_eq!(scan_depth(b"<ul><li>a<li>b<li>c</ul>", 100), 2);
        assert_eq!(scan_depth(b"<div><br><img src='>'><p>x</p></div>", 100), 2);
        assert_eq!(
            scan_depth(b"<script>if (a<b) { '<div>' }</script><i>x</i>", 100),
            1
        );
        assert_eq!(scan_depth(b"<!-- <div><div> --><b/>", 100), 0);
        assert_eq!(scan_depth(b"<ul><li><ul><li>x</ul></ul>", 100), 4);
    }

    #[test]
    fn scan_stops_past_the_limit() {
        let deep = "<div>".repeat(10_000);
        assert_eq!(scan_depth(deep.as_bytes(), 256), 257);
    }

    #[test]
    fn tree_depth_counts_nesting() {
        let document =
            Document::from("<html><body><div><span>x</span></div><p>y</p></body></html>");
        // html > body > div > span > text
        assert_eq!(tree_depth(&document.root(), 100), 5);
    }

    #[test]
    fn every_line_becomes_a_paragraph() {
        assert_eq!(paragraphs("a \nb\n\n\n  c  \n"), "a\n\nb\n\nc");
    }
}
