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
//!
//! Main-text extraction costs, per element, the size of what the element holds,
//! so its work grows with the page's size times its depth. To keep it linear
//! whatever the depth limit, the same scan unwraps the elements nested deeper
//! than [`FLAT_DEPTH`] before parsing: their text is kept, a block's start and
//! end become a line break, and the page gets a warning saying so. Pages as
//! shallow as real ones are read unchanged.
//!
//! Reading counts against the article's [`Budget`], which is checked between
//! the steps of reading (parsing, metadata, and each of `dom_smoothie`'s
//! extraction attempts, strict to raw); a page whose reading runs out of it is
//! refused with [`crate::ReadErrorKind::Exhausted`], and the item carries the
//! budget on to the analysis with the time reading took already spent.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use attest_doc::{Article, Budget, Diagnostic, Limits, Published};
use dom_query::{Document, NodeRef};
use dom_smoothie::{Config, ParsePolicy, Readability, ReadabilityError, TextMode};

use crate::decode::{ORIGIN, decode_html, is_binary, nul_bytes_warning, read_bounded};
use crate::error::{ReadError, ReadErrorKind};
use crate::text::{check_body, read_file_bounded};
use crate::{Origin, ReadItem};

/// The depth past which elements are unwrapped before parsing: deeper than the
/// pages of news sites nest, shallow enough that extraction stays fast.
pub const FLAT_DEPTH: usize = 96;

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
    html_bytes_to_item(
        bytes,
        None,
        display,
        limits,
        "of the file",
        Budget::new(limits),
    )
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
    html_bytes_to_item(
        bytes,
        None,
        "-",
        limits,
        "of standard input",
        Budget::new(limits),
    )
    .map_err(place)
}

/// Checks, decodes and reads the bytes of one HTML document within `budget`;
/// `charset` is the one an HTTP header declared.
pub(crate) fn html_bytes_to_item(
    bytes: Vec<u8>,
    charset: Option<&str>,
    id: &str,
    limits: &Limits,
    within: &str,
    budget: Budget,
) -> Result<ReadItem, ReadErrorKind> {
    within_budget(budget, |budget| {
        if is_binary(&bytes) {
            return Err(ReadErrorKind::Binary);
        }
        // The HTML parser drops NULs from text, so they are named in the raw page.
        let nuls = nul_bytes_warning(id, &bytes, &format!("{within}, dropped by the HTML parser"));
        let (html, warning) = decode_html(bytes, charset, id, within);
        let (article, mut warnings) = read_page(&html, id, limits, budget)?;
        warnings.splice(0..0, nuls.into_iter().chain(warning));
        Ok((article, warnings))
    })
}

/// Reads one HTML document given as text within `budget`.
pub(crate) fn html_to_item(
    html: &str,
    id: &str,
    limits: &Limits,
    budget: Budget,
) -> Result<ReadItem, ReadErrorKind> {
    within_budget(budget, |budget| read_page(html, id, limits, budget))
}

/// Runs `read` with `budget`'s clock running, and hands the budget on in the item.
fn within_budget(
    mut budget: Budget,
    read: impl FnOnce(&Budget) -> Result<(Article, Vec<Diagnostic>), ReadErrorKind>,
) -> Result<ReadItem, ReadErrorKind> {
    budget.resume();
    let read = read(&budget);
    budget.pause();
    let (article, warnings) = read?;
    Ok(ReadItem {
        article,
        warnings,
        id_given: false,
        origin: Origin::default(),
        budget,
    })
}

/// The article of one page and what was noticed reading it.
fn read_page(
    html: &str,
    id: &str,
    limits: &Limits,
    budget: &Budget,
) -> Result<(Article, Vec<Diagnostic>), ReadErrorKind> {
    let mut warnings = Vec::new();
    let scanned = scan(html, limits.html_depth);
    if scanned.depth > limits.html_depth {
        return Err(ReadErrorKind::HtmlTooDeep {
            depth: scanned.depth,
            limit: limits.html_depth,
        });
    }
    if matches!(scanned.html, Cow::Owned(_)) {
        warnings.push(Diagnostic {
            origin: ORIGIN,
            message: format!(
                "{id}: elements nest {} deep; those deeper than {FLAT_DEPTH} were unwrapped before reading: their text is kept, their markup is not",
                scanned.depth
            ),
        });
    }
    budget.check()?;
    let document = Document::from(scanned.html.as_ref());
    budget.check()?;
    let depth = tree_depth(&document.root(), limits.html_depth);
    if depth > limits.html_depth {
        return Err(ReadErrorKind::HtmlTooDeep {
            depth,
            limit: limits.html_depth,
        });
    }
    let meta = PageMeta::from_document(&document);
    let extracted = main_text(document, budget)?;
    let text = paragraphs(&extracted.text_content);
    check_body(&text, limits)?;
    // A page whose reading used up the budget is named as such, not left for
    // the first stage of its analysis to report.
    budget.check()?;

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
    Ok((article, warnings))
}

/// `dom_smoothie`'s extraction, attempt by attempt as its own `parse` makes
/// them (strict first, then with fewer cleaning rules, keeping the longest
/// text when none is long enough), with the budget checked before each.
fn main_text(document: Document, budget: &Budget) -> Result<dom_smoothie::Article, ReadErrorKind> {
    let config = Config {
        text_mode: TextMode::Formatted,
        ..Config::default()
    };
    let enough = config.char_threshold;
    let mut best: Option<(usize, dom_smoothie::Article)> = None;
    for policy in [
        ParsePolicy::Strict,
        ParsePolicy::Moderate,
        ParsePolicy::Clean,
        ParsePolicy::Raw,
    ] {
        budget.check()?;
        let mut readability =
            Readability::with_document(document.clone(), None, Some(config.clone()))
                .map_err(|error| ReadErrorKind::Html(error.to_string()))?;
        let extracted = match readability.parse_with_policy(policy) {
            Ok(extracted) => extracted,
            Err(ReadabilityError::GrabFailed) => continue,
            Err(other) => return Err(ReadErrorKind::Html(other.to_string())),
        };
        let length = normalized_length(&extracted.text_content);
        if length >= enough {
            return Ok(extracted);
        }
        if best.as_ref().is_none_or(|(longest, _)| length > *longest) {
            best = Some((length, extracted));
        }
    }
    // Every attempt, down to the one without cleaning, found no text.
    best.map(|(_, extracted)| extracted)
        .ok_or(ReadErrorKind::Empty)
}

/// The length in characters of `text` with each run of whitespace one space,
/// as `dom_smoothie` measures an attempt.
fn normalized_length(text: &str) -> usize {
    let (words, chars) = text
        .split_whitespace()
        .fold((0usize, 0usize), |(words, chars), word| {
            (words + 1, chars + word.chars().count())
        });
    chars + words.saturating_sub(1)
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

/// What the tag scan found: the deepest nesting, and the page to parse.
struct Scanned<'a> {
    /// The estimated depth, or the first depth past the limit.
    depth: usize,
    /// The page, with the elements nested deeper than [`FLAT_DEPTH`]
    /// unwrapped when it has any.
    html: Cow<'a, str>,
}

/// The element nesting depth of a page, estimated from its tags alone without
/// building a tree, stopping as soon as it passes `limit`; and the page with
/// the tags of elements deeper than [`FLAT_DEPTH`] taken out (a block's
/// become `<br>`).
///
/// It follows the parser rules that keep real pages shallow (void elements, raw
/// text, end tags closing what they match, `<p>` `<li>` `<dt>` `<dd>` `<tr>` `<td>`
/// `<th>` `<option>` closed by the next one); the tree check after parsing catches
/// what this estimate misses. Every tag costs the same however deep it is.
fn scan(html: &str, limit: usize) -> Scanned<'_> {
    let bytes = html.as_bytes();
    let mut open = OpenElements::default();
    let mut deepest = 0;
    let mut at = 0;
    // The page as rewritten so far, and how far into `html` it has copied.
    let mut flat: Option<String> = None;
    let mut copied = 0;
    let mut rewrite = |from: usize, to: usize, block: bool| {
        let flat = flat.get_or_insert_with(|| String::with_capacity(html.len()));
        flat.push_str(html.get(copied..from).unwrap_or_default());
        if block {
            flat.push_str("<br>");
        }
        copied = to;
    };
    while let Some(found) = find(bytes, at, b"<") {
        let rest = bytes.get(found + 1..).unwrap_or_default();
        at = found + 1;
        if rest.starts_with(b"!--") {
            at = find(bytes, found + 4, b"-->").map_or(bytes.len(), |end| end + 3);
        } else if rest.starts_with(b"!") || rest.starts_with(b"?") {
            at = find(bytes, found, b">").map_or(bytes.len(), |end| end + 1);
        } else if let Some(after_slash) = rest.strip_prefix(b"/") {
            let name = tag_name(after_slash);
            at = find(bytes, found, b">").map_or(bytes.len(), |end| end + 1);
            if let Some(index) = open.last(&name) {
                if index >= FLAT_DEPTH {
                    rewrite(found, at, is_block(&name));
                }
                open.truncate(index);
            }
        } else if rest.first().is_some_and(u8::is_ascii_alphabetic) {
            let name = tag_name(rest);
            let (end, self_closing) = tag_end(bytes, found + 1 + name.len());
            at = end;
            let name_str = std::str::from_utf8(&name).unwrap_or_default();
            if RAW_TEXT.contains(&name_str) {
                let mut closing = b"</".to_vec();
                closing.extend_from_slice(&name);
                at = find_ignore_case(bytes, at, &closing).unwrap_or(bytes.len());
                continue;
            }
            if VOID.contains(&name_str) || self_closing {
                continue;
            }
            open.close_implied(name_str);
            if open.depth() >= FLAT_DEPTH {
                rewrite(found, at, is_block(&name));
            }
            open.push(name);
            deepest = deepest.max(open.depth());
            if deepest > limit {
                break;
            }
        }
    }
    let html = match flat {
        Some(mut flat) => {
            flat.push_str(html.get(copied..).unwrap_or_default());
            Cow::Owned(flat)
        }
        None => Cow::Borrowed(html),
    };
    Scanned {
        depth: deepest,
        html,
    }
}

/// Whether an element named `name` stands apart from the text around it, so
/// that unwrapping it leaves a line break.
fn is_block(name: &[u8]) -> bool {
    let name = std::str::from_utf8(name).unwrap_or_default();
    CLOSES_P.contains(&name) || matches!(name, "tr" | "td" | "th" | "caption" | "table")
}

/// The stack of open elements the scan keeps, with where each name is open, so
/// that finding the nearest one of a name costs the same at any depth.
#[derive(Default)]
struct OpenElements {
    stack: Vec<Vec<u8>>,
    /// For each name, the places in `stack` where it is open, nearest last.
    places: HashMap<Vec<u8>, Vec<usize>>,
}

impl OpenElements {
    fn depth(&self) -> usize {
        self.stack.len()
    }

    fn push(&mut self, name: Vec<u8>) {
        self.places
            .entry(name.clone())
            .or_default()
            .push(self.stack.len());
        self.stack.push(name);
    }

    /// Closes every element from place `index` up.
    fn truncate(&mut self, index: usize) {
        while self.stack.len() > index {
            if let Some(name) = self.stack.pop()
                && let Some(places) = self.places.get_mut(&name)
            {
                places.pop();
            }
        }
    }

    /// The place of the nearest open element named `name`.
    fn last(&self, name: &[u8]) -> Option<usize> {
        self.places.get(name)?.last().copied()
    }

    /// The place of the nearest open element with one of `names`.
    fn nearest(&self, names: &[&str]) -> Option<usize> {
        names
            .iter()
            .filter_map(|name| self.last(name.as_bytes()))
            .max()
    }

    /// Closes the elements a new `name` element implicitly ends.
    fn close_implied(&mut self, name: &str) {
        let (closes, boundaries): (&[&str], &[&str]) = match name {
            "li" => (&["li"], &["ul", "ol", "menu"]),
            "dt" | "dd" => (&["dt", "dd"], &["dl"]),
            "tr" => (&["tr"], &["thead", "tbody", "tfoot"]),
            "td" | "th" => (&["td", "th"], &["tr"]),
            "option" => (&["option"], &["select", "datalist", "optgroup"]),
            _ => (&[], &[]),
        };
        if !closes.is_empty() {
            self.close_nearest(closes, boundaries);
        }
        if CLOSES_P.contains(&name) {
            self.close_nearest(&["p"], &[]);
        }
    }

    /// Closes the nearest open element named in `closes` and all above it,
    /// unless a boundary (or a scope-ending table, cell or button) is nearer.
    fn close_nearest(&mut self, closes: &[&str], boundaries: &[&str]) {
        let Some(close) = self.nearest(closes) else {
            return;
        };
        let boundary = self
            .nearest(boundaries)
            .max(self.nearest(&["table", "button", "td", "th"]));
        // The nearest element named in `closes` ends even when it is a boundary too.
        if boundary.is_none_or(|boundary| boundary <= close) {
            self.truncate(close);
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
        let item = html_bytes_to_item(
            page,
            None,
            "page.html",
            &Limits::DEFAULT,
            "of the file",
            Budget::unlimited(),
        )
        .unwrap();
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
        assert_eq!(scan("<html><body><p>a<p>b<p>c</body></html>", 100).depth, 3);
        assert_eq!(scan("<ul><li>a<li>b<li>c</ul>", 100).depth, 2);
        assert_eq!(scan("<div><br><img src='>'><p>x</p></div>", 100).depth, 2);
        assert_eq!(
            scan("<script>if (a<b) { '<div>' }</script><i>x</i>", 100).depth,
            1
        );
        assert_eq!(scan("<!-- <div><div> --><b/>", 100).depth, 0);
        assert_eq!(scan("<ul><li><ul><li>x</ul></ul>", 100).depth, 4);
    }

    #[test]
    fn scan_stops_past_the_limit() {
        let deep = "<div>".repeat(10_000);
        assert_eq!(scan(&deep, 256).depth, 257);
    }

    #[test]
    fn tree_depth_counts_nesting() {
        let document =
            Document::from("<html><body><div><span>x</span></div><p>y</p></body></html>");
        // html > body > div > span > text
        assert_eq!(tree_depth(&document.root(), 100), 5);
    }

    #[test]
    fn reading_stops_when_the_budget_is_spent_or_cancelled() {
        let page =
            "<html><body><p>The bridge reopened on Friday, the county said.</p></body></html>";
        let mut spent = Budget::new(&Limits {
            article_seconds: 1,
            ..Limits::DEFAULT
        });
        spent.resume();
        std::thread::sleep(std::time::Duration::from_millis(1_050));
        spent.pause();
        let outcome = html_to_item(page, "p", &Limits::DEFAULT, spent);
        assert!(
            matches!(
                outcome,
                Err(ReadErrorKind::Exhausted(attest_doc::Exhausted::Time {
                    seconds: 1
                }))
            ),
            "{outcome:?}"
        );
        let cancelled = Budget::unlimited();
        cancelled.canceller().cancel();
        let outcome = html_to_item(page, "p", &Limits::DEFAULT, cancelled);
        assert!(
            matches!(
                outcome,
                Err(ReadErrorKind::Exhausted(attest_doc::Exhausted::Cancelled))
            ),
            "{outcome:?}"
        );
    }

    #[test]
    fn elements_past_the_flat_depth_are_unwrapped_keeping_text_and_breaks() {
        let depth = 3 * FLAT_DEPTH;
        let page = format!(
            "<html><body>{}<p>The ferry left at <b>dawn</b>.</p><p>It came back at noon.</p>{}</body></html>",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let limits = Limits {
            html_depth: 10 * FLAT_DEPTH,
            ..Limits::DEFAULT
        };
        let scanned = scan(&page, limits.html_depth);
        // html, body, the divs, p, b.
        assert_eq!(scanned.depth, depth + 4);
        assert!(scanned.html.len() < page.len());
        let item = html_to_item(&page, "deep", &limits, Budget::unlimited()).unwrap();
        assert_eq!(
            item.article.text,
            "The ferry left at dawn.\n\nIt came back at noon."
        );
        let [warning] = &item.warnings[..] else {
            panic!("one warning, not {:?}", item.warnings);
        };
        assert!(warning.message.contains("unwrapped"), "{warning:?}");
    }

    #[test]
    fn a_page_within_the_flat_depth_is_read_as_it_is() {
        let page = format!(
            "<html><body>{}<p>x</p>{}</body></html>",
            "<div>".repeat(FLAT_DEPTH - 3),
            "</div>".repeat(FLAT_DEPTH - 3)
        );
        let scanned = scan(&page, Limits::DEFAULT.html_depth);
        assert_eq!(scanned.depth, FLAT_DEPTH);
        assert!(matches!(scanned.html, Cow::Borrowed(_)));
    }

    #[test]
    fn every_line_becomes_a_paragraph() {
        assert_eq!(paragraphs("a \nb\n\n\n  c  \n"), "a\n\nb\n\nc");
    }
}
