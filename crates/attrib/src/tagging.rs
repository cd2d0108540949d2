//! The two taggers and how their labels become attributions.
//!
//! The cue tagger labels each sentence with O / B-CUE / I-CUE. For each cue
//! found, the role tagger labels a window around it (its sentence, one
//! sentence either side within the paragraph, and following paragraphs while
//! a quote runs on) with O / B-SRC / I-SRC / B-CON / I-CON, with features
//! relative to that cue. One labelling per cue lets contents nest: the content of
//! "she said" may hold another attribution whole.

use attest_doc::{Attribution, AttributionKind, Doc, PosTag, Span, TokenKind, TokenView};

use crate::features::{Flag, RoleContext, View};
use attest_learn::{QuantisedModel, TransitionMask};

use attest_learn::fnv1a64;

/// Cue labels.
pub(crate) const CUE_O: usize = 0;
pub(crate) const CUE_B: usize = 1;
pub(crate) const CUE_I: usize = 2;
pub(crate) const CUE_LABELS: usize = 3;

/// Role labels.
pub(crate) const ROLE_O: usize = 0;
pub(crate) const SRC_B: usize = 1;
pub(crate) const SRC_I: usize = 2;
pub(crate) const CON_B: usize = 3;
pub(crate) const CON_I: usize = 4;
pub(crate) const ROLE_LABELS: usize = 5;

/// The most tokens a role window holds; longer windows keep the sentences
/// nearest the cue.
const WINDOW_TOKENS: usize = 400;

/// Sentences either side of the cue's that a window holds, within its paragraph.
const SENTENCES_AROUND: usize = 1;

/// Paragraphs a running quote may carry a window into, past the cue's own.
const QUOTE_PARAGRAPHS: usize = 3;

pub(crate) fn cue_constraints() -> TransitionMask {
    TransitionMask::bio(CUE_LABELS as u16, |l| {
        (usize::from(l) == CUE_I).then_some(CUE_B as u16)
    })
}

pub(crate) fn role_constraints() -> TransitionMask {
    TransitionMask::bio(ROLE_LABELS as u16, |l| match usize::from(l) {
        SRC_I => Some(SRC_B as u16),
        CON_I => Some(CON_B as u16),
        _ => None,
    })
}

/// Whether the cue tagger labels token `index` O without scoring it.
pub(crate) fn never_cue(view: &View, index: usize) -> bool {
    view.tokens.get(index).is_some_and(|t| t.is(Flag::NeverCue))
}

/// Maximal runs of a BIO labelling: (first, end) position pairs of runs that
/// start with `begin` and continue with `inside`.
pub(crate) fn runs(labels: &[u16], begin: usize, inside: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (position, label) in labels.iter().enumerate() {
        let label = usize::from(*label);
        if label == inside && open.is_some() {
            continue;
        }
        if let Some(start) = open.take() {
            out.push((start, position));
        }
        if label == begin {
            open = Some(position);
        }
    }
    if let Some(start) = open {
        out.push((start, labels.len()));
    }
    out
}

/// The token range of the role window of a cue over tokens `cue`.
pub(crate) fn window(view: &View, cue: (usize, usize)) -> (usize, usize) {
    let Some(first) = view.tokens.get(cue.0) else {
        return cue;
    };
    let sentence = first.sentence();
    let paragraph = first.paragraph();
    let (paragraph_start, paragraph_end) = view
        .paragraphs
        .get(paragraph)
        .copied()
        .unwrap_or((sentence, sentence + 1));
    let low = sentence
        .saturating_sub(SENTENCES_AROUND)
        .max(paragraph_start);
    let mut high = (sentence + SENTENCES_AROUND + 1).min(paragraph_end);
    // A quote still open at the end of the cue's paragraph runs on into the next
    // ones (each reopened with a mark, news style), the content with it.
    let mut next = paragraph;
    while high == view.paragraphs.get(next).map_or(0, |p| p.1)
        && next < paragraph + QUOTE_PARAGRAPHS
    {
        let open_at_end = view
            .paragraphs
            .get(next)
            .and_then(|p| view.sentences.get(p.1.saturating_sub(1)))
            .and_then(|s| view.tokens.get(s.1.saturating_sub(1)))
            .and_then(|t| t.quote.region())
            .and_then(|r| view.regions.get(r as usize))
            .is_some_and(|r| !r.closed);
        let colon_at_end = next == paragraph
            && view
                .paragraphs
                .get(next)
                .and_then(|p| view.sentences.get(p.1.saturating_sub(1)))
                .and_then(|s| view.tokens.get(s.1.saturating_sub(1)))
                .is_some_and(|t| t.is(Flag::Colon));
        // "She said:" closing a paragraph introduces the next one.
        if !open_at_end && !colon_at_end {
            break;
        }
        let Some(following) = view.paragraphs.get(next + 1) else {
            break;
        };
        // Only a paragraph that reopens the quote continues it; an unbalanced
        // mark must not carry the content into plain narration.
        let reopens = view
            .sentences
            .get(following.0)
            .and_then(|s| view.tokens.get(s.0))
            .is_some_and(|t| t.quote.opens);
        if open_at_end && !reopens {
            break;
        }
        next += 1;
        high = following.1;
    }
    let start = view.sentences.get(low).map_or(cue.0, |s| s.0);
    let end = high
        .checked_sub(1)
        .and_then(|s| view.sentences.get(s))
        .map_or(cue.1, |s| s.1);
    let (mut start, mut end) = (start.min(cue.0), end.max(cue.1));
    if end - start > WINDOW_TOKENS {
        let half = WINDOW_TOKENS / 2;
        start = start.max(cue.0.saturating_sub(half));
        end = end.min(cue.1 + half).max(cue.1);
    }
    (start, end)
}

/// Widens content runs that start or end inside a quotation to the whole
/// quotation: a quote is attributed whole, and the role window may cut a long
/// one. A run that begins before the opening mark keeps its start (a mixed
/// content: "… a plan to “fix it all.”"). Runs that come to overlap are merged.
pub(crate) fn snap_to_quotes(view: &View, runs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let region_of = |index: usize| {
        view.tokens
            .get(index)
            .and_then(|t| t.quote.region())
            .and_then(|r| view.regions.get(r as usize))
            .copied()
    };
    let mut snapped: Vec<(usize, usize)> = runs
        .into_iter()
        .map(|(start, end)| {
            let mut start = start;
            let mut end = end;
            if let Some(region) = end.checked_sub(1).and_then(region_of) {
                end = end.max(region.last + 1);
            }
            if let Some(region) = region_of(start) {
                start = start.min(region.first);
            }
            (start, end)
        })
        .collect();
    snapped.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(snapped.len());
    for (start, end) in snapped {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Widens a content that opens with a quotation mid-clause back to where its
/// clause starts, when the cue comes after the content: in "The plan was
/// “a mistake,” she said" the content is "The plan was “a mistake,”", as
/// PolNeAR marks it. The lead-in runs back from the mark, within the sentence
/// and the line, to a "that" (kept), and stops short of any cue or the source.
/// Only a mark right after a word counts: after a comma or at the sentence
/// start the quotation is the whole content.
pub(crate) fn lead_in(
    view: &View,
    doc: &Doc,
    cue: (usize, usize),
    source: Option<(usize, usize)>,
    flags: &[bool],
    mut content: Vec<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let Some(first) = content.first_mut() else {
        return content;
    };
    let mark = first.0;
    let tokens = TokenView::new(doc);
    let opens = view.tokens.get(mark).is_some_and(|t| t.quote.opens);
    let after_word = mark.checked_sub(1).is_some_and(|prev| {
        matches!(
            tokens.kind(prev),
            Some(TokenKind::Word | TokenKind::Clitic | TokenKind::Number)
        ) && view.tokens.get(prev).map(|t| t.sentence())
            == view.tokens.get(mark).map(|t| t.sentence())
    });
    if cue.0 < first.1 || !opens || !after_word {
        return content;
    }
    let sentence_start = view
        .tokens
        .get(mark)
        .and_then(|t| view.sentences.get(t.sentence()))
        .map_or(mark, |s| s.0);
    let mut start = mark;
    while start > sentence_start {
        let index = start - 1;
        let in_source = source.is_some_and(|(a, b)| index >= a && index < b);
        if flags.get(index).copied().unwrap_or(true) || in_source || tokens.breaks_after(index) {
            break;
        }
        start = index;
        if view.tokens.get(index).is_some_and(|t| t.is(Flag::That)) {
            break;
        }
    }
    first.0 = start;
    content
}

/// The content of a cue the role tagger left without one, when the cue (with
/// a source right before it, if any) follows a comma: the clause from the
/// start of the sentence, within its line, to that comma. "Prices will
/// rise, the bank said." PolNeAR gives every attribution a content, and in
/// this shape it is nearly always the clause before the comma.
pub(crate) fn comma_content(
    view: &View,
    doc: &Doc,
    cue: (usize, usize),
    source: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    let block = match source {
        Some((start, end)) if end == cue.0 => start,
        _ => cue.0,
    };
    let comma = block.checked_sub(1)?;
    let sentence = view.tokens.get(cue.0)?.sentence();
    if view.tokens.get(comma)?.sentence() != sentence
        || doc.tokens().get(comma).map(|t| doc.span_text(t.span)) != Some(",")
    {
        return None;
    }
    let sentence_start = view.sentences.get(sentence)?.0;
    let tokens = TokenView::new(doc);
    let mut start = comma;
    while start > sentence_start && !tokens.breaks_after(start - 1) {
        start -= 1;
    }
    (start < comma).then_some((start, comma))
}

/// The most tokens an appositive between a name and its cue may hold.
const APPOSITIVE_TOKENS: usize = 20;
/// The most words a name before an appositive may hold.
const NAME_TOKENS: usize = 5;

/// The source of a cue the role tagger left without one, when a name and
/// an appositive between commas stand right before it: "…, Ana Ruiz,
/// regional secretary of the dockers' union, claimed on Thursday." The
/// tagger learns sources next to their cue, and a long title pushes the
/// name out of its reach. The source is the name with its appositive and
/// the comma closing it, as PolNeAR marks such sources. The name is a run
/// of capitalized words that a clause boundary opens (the sentence's
/// start, a comma, a dash, a quotation mark or a bracket); the appositive
/// keeps to the sentence and its line and holds a word in lowercase, so
/// that a list of names ("Ruiz, Lee, said") is not read as one. In a tagged
/// document the name's words are proper nouns, the appositive holds no
/// finite verb but after "who" or "which" (else it is a clause: "Later, it
/// attacked the plan, saying"), and the cue is no participle, whose subject
/// is the main clause's.
pub(crate) fn appositive_source(
    view: &View,
    doc: &Doc,
    cue: (usize, usize),
) -> Option<(usize, usize)> {
    let tokens = TokenView::new(doc);
    let word = |index: usize| doc.tokens().get(index).map(|t| doc.span_text(t.span));
    let tag = |index: usize| view.tokens.get(index).and_then(|t| t.tag());
    if tag(cue.0).is_some_and(PosTag::is_gerund) {
        return None;
    }
    let sentence = view.tokens.get(cue.0)?.sentence();
    let sentence_start = view.sentences.get(sentence)?.0;
    let closing = cue.0.checked_sub(1)?;
    if word(closing)? != "," {
        return None;
    }
    let mut opening = closing;
    let mut lowercase = false;
    let mut finite_verb = false;
    loop {
        opening = opening.checked_sub(1).filter(|&at| at > sentence_start)?;
        if closing - opening > APPOSITIVE_TOKENS + 1 || tokens.breaks_after(opening) {
            return None;
        }
        let text = word(opening)?;
        if text == "," {
            break;
        }
        if view.tokens.get(opening)?.quote.region().is_some() {
            return None;
        }
        match tag(opening) {
            Some(tag) if tag.is_finite() => finite_verb = true,
            // The verbs seen so far are the relative clause's.
            Some(tag) if tag.is_relative() => finite_verb = false,
            _ => {}
        }
        lowercase |= text.chars().next().is_some_and(char::is_lowercase);
    }
    if !lowercase || finite_verb || opening + 1 == closing {
        return None;
    }
    let capitalized = |index: usize| {
        word(index).is_some_and(|text| text.chars().next().is_some_and(char::is_uppercase))
            && tag(index).is_none_or(PosTag::is_proper_noun)
    };
    let mut start = opening;
    while start > sentence_start
        && opening - start < NAME_TOKENS
        && capitalized(start - 1)
        && !tokens.breaks_after(start - 1)
    {
        start -= 1;
    }
    let opens_clause = start == sentence_start
        || word(start - 1).is_some_and(|text| {
            matches!(text, "," | "—" | "–" | "(" | ":")
                || view
                    .tokens
                    .get(start - 1)
                    .is_some_and(|t| t.quote.opens || t.quote.closes)
        });
    (start < opening && opens_clause).then_some((start, cue.0))
}

/// The lemma key of a cue: its tokens' lowercase hashes folded, so that
/// "according to" and "said" are distinct values.
pub(crate) fn cue_key(view: &View, cue: (usize, usize)) -> u64 {
    let mut key = fnv1a64(b"cue");
    for index in cue.0..cue.1.min(cue.0 + 4) {
        if let Some(t) = view.tokens.get(index) {
            key = attest_learn::mix(key, t.lower);
        }
    }
    key
}

/// Per-position masks for a role window: cue tokens may only be O.
pub(crate) fn role_masks(window: (usize, usize), cue: (usize, usize)) -> Vec<u64> {
    (window.0..window.1)
        .map(|index| {
            if index >= cue.0 && index < cue.1 {
                1 << ROLE_O
            } else {
                u64::MAX
            }
        })
        .collect()
}

/// The role keys of every position of a window.
pub(crate) fn role_sequence_keys(
    view: &View,
    window: (usize, usize),
    cue: (usize, usize),
    context: &RoleContext<'_>,
) -> Vec<Vec<u64>> {
    let lemma = cue_key(view, cue);
    (window.0..window.1)
        .map(|index| {
            let mut keys = Vec::with_capacity(32);
            view.role_keys(index, cue, lemma, context, &mut keys);
            keys
        })
        .collect()
}

/// The role tagger's emission scores over a window, reusing `keys` as scratch.
pub(crate) fn role_emissions(
    model: &QuantisedModel,
    view: &View,
    window: (usize, usize),
    cue: (usize, usize),
    context: &RoleContext<'_>,
    keys: &mut Vec<u64>,
) -> Vec<f32> {
    let lemma = cue_key(view, cue);
    let mut out = Vec::with_capacity((window.1 - window.0) * ROLE_LABELS);
    for index in window.0..window.1 {
        view.role_keys(index, cue, lemma, context, keys);
        model.score(keys, &mut out);
    }
    out
}

/// How many of the non-punctuation tokens of some runs lie inside quotes, of how many.
fn quote_coverage(view: &View, doc: &Doc, spans: &[(usize, usize)]) -> (usize, usize) {
    let mut quoted = 0;
    let mut total = 0;
    for &(start, end) in spans {
        for index in start..end {
            let Some(token) = doc.tokens().get(index) else {
                continue;
            };
            if matches!(token.kind, attest_doc::TokenKind::Punct) {
                continue;
            }
            total += 1;
            if view
                .tokens
                .get(index)
                .is_some_and(|t| t.quote.region().is_some())
            {
                quoted += 1;
            }
        }
    }
    (quoted, total)
}

/// The kind of an attribution from its cue and the quotation of its content.
pub(crate) fn kind(
    view: &View,
    doc: &Doc,
    cue: (usize, usize),
    content: &[(usize, usize)],
) -> AttributionKind {
    let according = fnv1a64(b"according");
    if view.tokens.get(cue.0).is_some_and(|t| t.lower == according) {
        return AttributionKind::AccordingTo;
    }
    let (quoted, total) = quote_coverage(view, doc, content);
    if total > 0 && quoted == total {
        AttributionKind::Direct
    } else if quoted > 0 {
        AttributionKind::Mixed
    } else {
        AttributionKind::Indirect
    }
}

/// The byte spans of tokens `first..end`, one per line: a span is cut where a
/// line break lies between two of its tokens, as PolNeAR cuts its fragments
/// (brat shows a fragment on one line).
pub(crate) fn token_spans(doc: &Doc, range: (usize, usize)) -> Vec<Span> {
    let view = TokenView::new(doc);
    let tokens = doc.tokens();
    let mut out = Vec::new();
    let mut first = range.0;
    for last in range.0..range.1.min(tokens.len()) {
        if last + 1 == range.1 || view.breaks_after(last) {
            let (start, end) = (
                tokens[first].span.byte_start(),
                tokens[last].span.byte_end(),
            );
            out.extend(Span::try_new_in(doc.text(), start, end).ok());
            first = last + 1;
        }
    }
    out
}

/// Assembles one attribution from token ranges; `line_breaks` cuts its spans
/// at line breaks ([`token_spans`]), otherwise each run is one span. `None`
/// without a cue or without content.
pub(crate) fn attribution(
    view: &View,
    doc: &Doc,
    cue: (usize, usize),
    sources: &[(usize, usize)],
    content: &[(usize, usize)],
    confidence: f32,
    line_breaks: bool,
) -> Option<Attribution> {
    let spans = |range: (usize, usize)| {
        if line_breaks {
            token_spans(doc, range)
        } else {
            run_span(doc, range).into_iter().collect()
        }
    };
    let cue_spans = spans(cue);
    // A cue with nothing attributed ("Amazon has pushed back") is no
    // attribution in PolNeAR's scheme; on dev dropping those raised the
    // attribution precision from 0.750 to 0.759 at the same recall.
    if cue_spans.is_empty() || content.is_empty() {
        return None;
    }
    Some(Attribution {
        source: sources.iter().flat_map(|s| spans(*s)).collect(),
        cue: cue_spans,
        content: content.iter().flat_map(|c| spans(*c)).collect(),
        kind: kind(view, doc, cue, content),
        confidence,
    })
}

/// The byte span of tokens `first..end` as one span, line breaks and all.
fn run_span(doc: &Doc, range: (usize, usize)) -> Option<Span> {
    let tokens = doc.tokens().get(range.0..range.1)?;
    let (first, last) = (tokens.first()?, tokens.last()?);
    Span::try_new_in(doc.text(), first.span.byte_start(), last.span.byte_end()).ok()
}

/// Turns a non-negative perceptron score margin into a confidence in [0, 1):
/// twice the logistic function minus one, so margin 0 maps to 0 and `scale`
/// to about 0.46.
pub(crate) fn squash(margin: f32, scale: f32) -> f32 {
    let value = 2.0 / (1.0 + (-margin.max(0.0) / scale).exp()) - 1.0;
    if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_follow_bio() {
        let labels = [0, 1, 2, 2, 0, 1, 1, 2, 0, 2];
        assert_eq!(runs(&labels, 1, 2), [(1, 4), (5, 6), (6, 8)]);
        assert_eq!(runs(&[1, 2], 1, 2), [(0, 2)]);
        assert!(runs(&[0, 0], 1, 2).is_empty());
    }

    #[test]
    fn spans_are_cut_at_line_breaks() {
        use attest_doc::{Article, Limits};
        let text = "She said the plan\nwould work and\n\nit did.";
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let all = (0, doc.tokens().len());
        let pieces: Vec<&str> = token_spans(&doc, all)
            .into_iter()
            .map(|s| doc.span_text(s))
            .collect();
        assert_eq!(pieces, ["She said the plan", "would work and", "it did."]);
        assert!(token_spans(&doc, (2, 2)).is_empty());
    }

    /// A segmented document and its view, with no lexicon.
    fn parsed(text: &str) -> (Doc, View) {
        use attest_doc::{Article, Limits};
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let view = View::new(&doc, &crate::features::Lexicon::default());
        (doc, view)
    }

    /// The token range of the last occurrence of `piece` in the text.
    fn tokens_of(doc: &Doc, piece: &str) -> (usize, usize) {
        let start = doc.text().rfind(piece).unwrap();
        let tokens = doc.tokens();
        let first = tokens.iter().position(|t| t.span.byte_start() == start);
        let last = tokens
            .iter()
            .position(|t| t.span.byte_end() == start + piece.len());
        (first.unwrap(), last.unwrap() + 1)
    }

    /// The content `lead_in` gives a quotation (token range of the text's
    /// first quotation) with the cue at `cue` and, if any, the source.
    fn led_in(text: &str, cue: &str, source: Option<&str>) -> String {
        let (doc, view) = parsed(text);
        let token_at = |piece: &str| tokens_of(&doc, piece);
        let region = view.regions[0];
        let cue = token_at(cue);
        let mut flags = vec![false; doc.tokens().len()];
        flags[cue.0..cue.1].fill(true);
        let content = lead_in(
            &view,
            &doc,
            cue,
            source.map(token_at),
            &flags,
            vec![(region.first, region.last + 1)],
        );
        let spans = token_spans(&doc, content[0]);
        doc.span_text(spans[0]).to_string()
    }

    #[test]
    fn a_quotation_opening_mid_clause_takes_its_lead_in() {
        assert_eq!(
            led_in(
                "The plan was “a costly mistake,” she said.",
                "said",
                Some("she")
            ),
            "The plan was “a costly mistake,”"
        );
        assert_eq!(
            led_in(
                "On Monday he said that the plan was “a mistake,” officials said.",
                "officials said",
                None
            ),
            "that the plan was “a mistake,”",
        );
        // The source bounds the lead-in.
        assert_eq!(
            led_in(
                "Critics call it “a mistake,” the mayor said.",
                "said",
                Some("Critics")
            ),
            "call it “a mistake,”"
        );
    }

    #[test]
    fn a_quotation_after_punctuation_or_before_its_cue_stays_whole() {
        assert_eq!(
            led_in(
                "In short, “it was a mistake,” she said.",
                "said",
                Some("she")
            ),
            "“it was a mistake,”"
        );
        assert_eq!(
            led_in("She called the plan “a mistake.”", "called", Some("She")),
            "“a mistake.”"
        );
        assert_eq!(
            led_in(
                "It rained.\nThe plan was “a mistake,” she said.",
                "said",
                None
            ),
            "The plan was “a mistake,”"
        );
    }

    /// The content `comma_content` gives the cue `cue` with the source `source`.
    fn after_comma(text: &str, cue: &str, source: Option<&str>) -> Option<String> {
        let (doc, view) = parsed(text);
        let range = |piece: &str| tokens_of(&doc, piece);
        comma_content(&view, &doc, range(cue), source.map(range))
            .map(|found| doc.span_text(token_spans(&doc, found)[0]).to_string())
    }

    #[test]
    fn a_cue_after_a_comma_takes_the_clause_before_it() {
        let text = "It rained. Prices will rise this year, the bank said on Monday.";
        assert_eq!(
            after_comma(text, "said", Some("the bank")).as_deref(),
            Some("Prices will rise this year")
        );
        assert_eq!(
            after_comma("Prices will rise, said the bank.", "said", Some("the bank")).as_deref(),
            Some("Prices will rise")
        );
        let lines = "A title line\nPrices will rise, she said.";
        assert_eq!(
            after_comma(lines, "said", Some("she")).as_deref(),
            Some("Prices will rise")
        );
        assert_eq!(
            after_comma("The bank said prices will rise.", "said", None),
            None
        );
        assert_eq!(after_comma("Prices, she said.", "Prices", None), None);
    }

    #[test]
    fn squash_stays_in_range() {
        assert!(squash(0.0, 1.0).abs() < 1e-6);
        assert!((squash(1.0, 1.0) - 0.462).abs() < 1e-3);
        assert!(squash(1e9, 1.0) <= 1.0);
        assert!(squash(-1e9, 1.0) >= 0.0);
    }
}
