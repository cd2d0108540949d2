//! Quotations: every passage of the article inside quotation marks, with
//! whose words it is.
//!
//! Passages between double marks are the ones the attribution stage reads,
//! paired by [`attest_lang::double_quote_regions`] from the marks of
//! `quote-marks.tsv` (“…”, "…", ``…'', and ''…'' as some archives write
//! them); one left open runs to the end of its paragraph, as a quote that runs
//! on into the next paragraph does (the next one opens with a mark of its
//! own). Outside them, a passage opens at `‘` and closes at the next `’` of
//! its paragraph that no letter follows: a `’` inside a word ("don’t") closes
//! nothing, and an unclosed `‘` is taken for an apostrophe and dropped.
//!
//! Each passage is, in this order:
//!
//! 1. **attributed**, when an attribution's content overlaps it: the
//!    attribution overlapping it most, and that attribution's source;
//! 2. **floating**, when its paragraph opens with it and the last attribution
//!    before it, in this paragraph or the one before, has a source (or the
//!    paragraph before was itself a floating quote): a quote paragraph after
//!    "…," she said. continues her until another speaker appears;
//! 3. a **slogan** when a word of signs or chants comes just before it
//!    ("signs reading", "chanted");
//! 4. a **title** when a word of works comes just before it ("the film",
//!    "titled") or every word of two or more is capitalized;
//! 5. **scare** quotes when it is three words or fewer and does not open its
//!    paragraph;
//! 6. **unattributed** otherwise: someone's words, no speaker told.
//!
//! A passage joined by "and" or "or" to one before it that has no speaker
//! ("signs reading “No Farms” and “Let Us Grow”") is what that one is.

use attest_doc::{
    AttributionId, Doc, Layer, LayerError, Quotation, QuoteStatus, SourceId, Span, Stage,
};
use attest_lang::{WordList, listed};

/// The quotations stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuotationFinder;

impl Stage for QuotationFinder {
    const NAME: &'static str = "quotations";
    const REQUIRES: &'static [Layer] = &[Layer::Paragraphs, Layer::Attributions, Layer::Sources];
    const ASSIGNS: &'static [Layer] = &[Layer::Quotations];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let quotations = find_quotations(doc);
        doc.set_quotations(quotations)
    }
}

/// A passage between quotation marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Passage {
    /// The words, without the marks and the blanks inside them.
    inner: Span,
    /// The byte offset of the opening mark.
    mark: usize,
    /// The paragraph holding it.
    paragraph: usize,
    /// Whether the paragraph opens with its mark.
    opens_paragraph: bool,
}

/// The quotations of `doc`, in text order.
pub fn find_quotations(doc: &Doc) -> Vec<Quotation> {
    let text = doc.text();
    let passages = passages(doc);
    let mut attribution_of: Vec<Option<(AttributionId, usize)>> = vec![None; passages.len()];
    for (index, attribution) in doc.attributions().iter().enumerate() {
        let Some(id) = AttributionId::new(index) else {
            continue;
        };
        for content in &attribution.content {
            // Passages are disjoint and in text order: those overlapping a
            // content span are one run found by binary search.
            let from = passages.partition_point(|p| p.inner.byte_end() <= content.byte_start());
            for (at, passage) in passages.iter().enumerate().skip(from) {
                if passage.inner.byte_start() >= content.byte_end() {
                    break;
                }
                let overlap = passage.inner.byte_end().min(content.byte_end())
                    - passage.inner.byte_start().max(content.byte_start());
                if let Some(slot) = attribution_of.get_mut(at)
                    && slot.is_none_or(|(_, best)| overlap > best)
                {
                    *slot = Some((id, overlap));
                }
            }
        }
    }
    let mut source_of: Vec<Option<SourceId>> = vec![None; doc.attributions().len()];
    for (index, source) in doc.sources().iter().enumerate() {
        for id in &source.attributions {
            if let Some(slot) = source_of.get_mut(id.index()) {
                *slot = SourceId::new(index);
            }
        }
    }
    let paragraph_of = |byte: usize| -> usize {
        doc.paragraphs()
            .partition_point(|p| p.span.byte_end() <= byte)
    };
    // Where each attribution ends, in text order, for "the last speaker
    // before this passage".
    let mut ends: Vec<(usize, usize)> = doc
        .attributions()
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let end = a
                .source
                .iter()
                .chain(&a.cue)
                .chain(&a.content)
                .map(|s| s.byte_end())
                .max()?;
            Some((end, i))
        })
        .collect();
    ends.sort_unstable();
    let mut next_end = 0;
    // The last speaker: their source and the paragraph they last spoke in.
    let mut speaker: Option<(Option<SourceId>, usize)> = None;
    let mut quotations = Vec::with_capacity(passages.len());
    for (passage, attributed) in passages.iter().zip(&attribution_of) {
        while let Some(&(end, index)) = ends.get(next_end) {
            if end > passage.mark {
                break;
            }
            let paragraph = paragraph_of(end.saturating_sub(1));
            speaker = Some((source_of.get(index).copied().flatten(), paragraph));
            next_end += 1;
        }
        let quotation = match attributed {
            Some((id, _)) => {
                let source = source_of.get(id.index()).copied().flatten();
                Quotation {
                    span: passage.inner,
                    status: QuoteStatus::Attributed,
                    attribution: Some(*id),
                    source,
                }
            }
            None => {
                let floating = match speaker {
                    Some((Some(source), paragraph))
                        if passage.opens_paragraph && passage.paragraph <= paragraph + 1 =>
                    {
                        Some(source)
                    }
                    _ => None,
                };
                match floating {
                    Some(source) => {
                        speaker = Some((Some(source), passage.paragraph));
                        Quotation {
                            span: passage.inner,
                            status: QuoteStatus::Floating,
                            attribution: None,
                            source: Some(source),
                        }
                    }
                    None => {
                        // "signs reading “No Farms” and “Let Us Grow”": the second
                        // of a list is what the first is.
                        let listed = quotations.last().filter(|q: &&Quotation| {
                            q.source.is_none() && joined_by_and(text, q.span, passage.mark)
                        });
                        Quotation {
                            span: passage.inner,
                            status: listed.map_or_else(|| reason(text, passage), |q| q.status),
                            attribution: None,
                            source: None,
                        }
                    }
                }
            }
        };
        quotations.push(quotation);
    }
    quotations
}

/// Whether only quotation marks, commas and "and" or "or" stand between the
/// end of `before` and the mark at `mark`.
fn joined_by_and(text: &str, before: Span, mark: usize) -> bool {
    let Some(gap) = text.get(before.byte_end()..mark) else {
        return false;
    };
    let words: Vec<&str> = gap
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '"' | '”' | '’' | '.'))
        .filter(|w| !w.is_empty())
        .collect();
    matches!(words.as_slice(), ["and" | "or"])
}

/// How far before a mark its last three words are looked for, in bytes: cue
/// words are short, and a longer look would make the stage quadratic in a text
/// of marks with no spaces.
const LOOK_BACK: usize = 96;

/// Why a passage that is no one's attributed words has no speaker.
fn reason(text: &str, passage: &Passage) -> QuoteStatus {
    let mut from = passage.mark.saturating_sub(LOOK_BACK);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut pieces: Vec<&str> = text
        .get(from..passage.mark)
        .unwrap_or("")
        .rsplit(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    // A word the window cut into is not a word.
    if from > 0 && !text[..from].ends_with(char::is_whitespace) {
        pieces.pop();
    }
    let before: Vec<String> = pieces
        .iter()
        .take(3)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let near = |list: WordList| before.iter().any(|w| listed(list, w));
    if near(WordList::SloganWords) {
        return QuoteStatus::Slogan;
    }
    let inner = passage.inner.get(text).unwrap_or("");
    let words: Vec<&str> = inner.split_whitespace().collect();
    let capitalized = words.len() >= 2
        && words.iter().enumerate().all(|(i, w)| {
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
            bare.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_numeric())
                || (i > 0 && listed(WordList::TitleSmallWords, bare))
        });
    let sentence_end = inner.trim_end().ends_with(['.', '!', '?']);
    if near(WordList::WorkTitleWords) || (capitalized && !sentence_end) {
        return QuoteStatus::Title;
    }
    // Scare quotes keep a comma or full stop set inside the marks ("tidy.").
    if words.len() <= 3 && !passage.opens_paragraph {
        return QuoteStatus::Scare;
    }
    QuoteStatus::Unattributed
}

/// Every passage between quotation marks, in text order and disjoint: those
/// between double marks as [`attest_lang::double_quote_regions`] pairs them,
/// then those between single marks outside them.
fn passages(doc: &Doc) -> Vec<Passage> {
    let text = doc.text();
    let tokens = doc.tokens();
    let paragraphs = doc.paragraphs();
    let paragraph_of = |byte: usize| paragraphs.partition_point(|p| p.span.byte_end() <= byte);
    let opens_paragraph = |paragraph: usize, mark: usize| {
        paragraphs.get(paragraph).is_some_and(|p| {
            let start = p.span.byte_start();
            let body = text.get(start..p.span.byte_end()).unwrap_or("");
            body.char_indices()
                .find(|(_, c)| !c.is_whitespace())
                .is_some_and(|(i, _)| start + i == mark)
        })
    };
    let mut found = Vec::new();
    // Each double passage's bytes, marks included, which single marks do not
    // pair across.
    let mut doubles = Vec::new();
    for region in attest_lang::double_quote_regions(doc) {
        let (Some(open), Some(last)) = (tokens.get(region.first), tokens.get(region.last)) else {
            continue;
        };
        let mark = open.span.byte_start();
        let to = if region.closed {
            last.span.byte_start()
        } else {
            last.span.byte_end()
        };
        doubles.push((mark, last.span.byte_end()));
        if let Some(inner) = trimmed(text, open.span.byte_end(), to) {
            let paragraph = paragraph_of(mark);
            found.push(Passage {
                inner,
                mark,
                paragraph,
                opens_paragraph: opens_paragraph(paragraph, mark),
            });
        }
    }
    // The first double passage not yet behind the scan: both are in text order.
    let mut next_double = 0;
    for (index, paragraph) in paragraphs.iter().enumerate() {
        let (start, end) = (paragraph.span.byte_start(), paragraph.span.byte_end());
        let Some(body) = text.get(start..end) else {
            continue;
        };
        let mut open: Option<usize> = None;
        let mut chars = body.char_indices().peekable();
        let mut previous: Option<char> = None;
        while let Some((offset, c)) = chars.next() {
            let at = start + offset;
            let next = chars.peek().map(|&(_, c)| c);
            while doubles.get(next_double).is_some_and(|&(_, to)| to <= at) {
                next_double += 1;
            }
            if doubles
                .get(next_double)
                .is_some_and(|&(from, to)| (from..to).contains(&at))
            {
                // A single mark left open before a double quotation closes nothing.
                open = None;
            } else if c == '‘' && open.is_none() && !previous.is_some_and(char::is_alphanumeric) {
                open = Some(at);
            } else if let Some(mark) =
                open.filter(|_| c == '’' && !next.is_some_and(char::is_alphanumeric))
            {
                if let Some(inner) = trimmed(text, text_after(text, mark), at) {
                    found.push(Passage {
                        inner,
                        mark,
                        paragraph: index,
                        opens_paragraph: opens_paragraph(index, mark),
                    });
                }
                open = None;
            }
            previous = Some(c);
        }
    }
    found.sort_by_key(|passage| passage.mark);
    found
}

/// The byte after the quotation mark at `mark`.
fn text_after(text: &str, mark: usize) -> usize {
    mark + text
        .get(mark..)
        .and_then(|rest| rest.chars().next())
        .map_or(0, char::len_utf8)
}

/// The span of `from..to` without blanks at either end, or none if empty.
fn trimmed(text: &str, from: usize, to: usize) -> Option<Span> {
    let slice = text.get(from..to)?;
    let lead = slice.len() - slice.trim_start().len();
    let body = slice.trim();
    if body.is_empty() {
        return None;
    }
    Span::try_new_in(text, from + lead, from + lead + body.len()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceResolver;
    use crate::testing::{attribution, doc_with};

    fn quotations(
        text: &str,
        attributions: &[(&str, &str, &str)],
    ) -> Vec<(String, QuoteStatus, Option<String>)> {
        let mut doc = doc_with(
            text,
            attributions
                .iter()
                .map(|(s, c, t)| attribution(text, s, c, t))
                .collect(),
        );
        SourceResolver::rules().run(&mut doc).expect("sources fit");
        QuotationFinder.run(&mut doc).expect("quotations fit");
        doc.quotations()
            .iter()
            .map(|q| {
                let source = q
                    .source
                    .and_then(|s| doc.sources().get(s.index()))
                    .map(|s| s.name.clone());
                (doc.span_text(q.span).to_string(), q.status, source)
            })
            .collect()
    }

    #[test]
    fn a_quote_paragraph_after_a_speaker_floats_with_them_until_another_speaks() {
        let text = "“We will reopen the pier,” Mayor Ines Carrow said.\n\n\
                    “And we will do it by spring.”\n\n\
                    “Nobody here believes that,” Tom Reyes, a fisherman, replied.\n\n\
                    “Not one of us.”";
        let got = quotations(
            text,
            &[
                ("Mayor Ines Carrow", "said", "We will reopen the pier,"),
                (
                    "Tom Reyes, a fisherman",
                    "replied",
                    "Nobody here believes that,",
                ),
            ],
        );
        let status: Vec<(QuoteStatus, Option<&str>)> =
            got.iter().map(|(_, s, n)| (*s, n.as_deref())).collect();
        assert_eq!(
            status,
            vec![
                (QuoteStatus::Attributed, Some("Ines Carrow")),
                (QuoteStatus::Floating, Some("Ines Carrow")),
                (QuoteStatus::Attributed, Some("Tom Reyes")),
                (QuoteStatus::Floating, Some("Tom Reyes")),
            ]
        );
        assert_eq!(got[1].0, "And we will do it by spring.", "marks left out");
    }

    #[test]
    fn a_quote_running_on_ends_at_its_paragraph_and_the_next_one_floats() {
        let text = "Ines Carrow said: “The pier is safe. The beams are new.\n\
                    “The paint is new too.”\n\
                    Later the council met.\n\
                    “This floats on nothing.”";
        let got = quotations(
            text,
            &[(
                "Ines Carrow",
                "said",
                "The pier is safe. The beams are new.",
            )],
        );
        assert_eq!(got[0].0, "The pier is safe. The beams are new.");
        assert_eq!(got[1].1, QuoteStatus::Floating);
        assert_eq!(
            got[2].1,
            QuoteStatus::Unattributed,
            "a speaker two paragraphs back is not continued"
        );
    }

    #[test]
    fn titles_scare_quotes_and_slogans_have_no_speaker() {
        let text = "The documentary “Salt and Iron” opened on Friday. \
                    Critics called its ending “tidy.” \
                    Protesters carried signs reading “Save Our Pier” and “Fish Not Ships.” \
                    A note left on the door said only: “Gone fishing, back never.”";
        let got = quotations(text, &[]);
        let status: Vec<QuoteStatus> = got.iter().map(|(_, s, _)| *s).collect();
        assert_eq!(
            status,
            vec![
                QuoteStatus::Title,
                QuoteStatus::Scare,
                QuoteStatus::Slogan,
                QuoteStatus::Slogan,
                QuoteStatus::Unattributed,
            ]
        );
    }

    #[test]
    fn straight_quotes_and_apostrophes_in_words() {
        let text = "Reyes said \"it’s over\" and the union called it a \"lockout\". \
                    Nobody said ‘never’ and nobody’s sure.";
        let got = quotations(text, &[("Reyes", "said", "it’s over")]);
        let spans: Vec<&str> = got.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(spans, vec!["it’s over", "lockout", "never"]);
        assert_eq!(got[0].1, QuoteStatus::Attributed);
    }

    #[test]
    fn archive_text_opens_and_closes_quotes_with_two_apostrophes() {
        // Some newspapers' archive text writes '' on both sides; Penn
        // Treebank text opens with ``. Both are double marks, paired as the
        // attribution stage pairs them.
        let text = "''We will reopen the pier,'' Ines Carrow said. \
                    Tom Reyes said ``not by spring'' and left.";
        let got = quotations(
            text,
            &[
                ("Ines Carrow", "said", "We will reopen the pier,"),
                ("Tom Reyes", "said", "not by spring"),
            ],
        );
        let spans: Vec<&str> = got.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(spans, vec!["We will reopen the pier,", "not by spring"]);
        assert!(got.iter().all(|(_, s, _)| *s == QuoteStatus::Attributed));
    }

    #[test]
    fn a_single_mark_left_open_pairs_nothing_across_a_double_quotation() {
        let text = "She wrote ‘maybe “the pier is safe,” Carrow said’ later.";
        let got = quotations(text, &[]);
        let spans: Vec<&str> = got.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(spans, vec!["the pier is safe,"]);
    }

    #[test]
    fn only_whole_words_before_a_mark_are_read() {
        // The look-back window ends inside the long word: its tail "signs" is
        // not the word "signs".
        let text = format!("{}signs “No Farms Here”", "x".repeat(LOOK_BACK));
        let got = quotations(&text, &[]);
        assert_eq!(got[0].1, QuoteStatus::Title);
        let text = format!("{} signs “No Farms Here”", "x".repeat(LOOK_BACK));
        assert_eq!(quotations(&text, &[])[0].1, QuoteStatus::Slogan);
    }
}
