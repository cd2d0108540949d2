//! Paragraphs from blank lines, and from single line breaks in text written one
//! paragraph a line, and sentences within each paragraph.
//!
//! A blank line always ends a paragraph and a sentence: news text puts headlines,
//! bylines and timestamps on lines of their own without a full stop. Inside a
//! paragraph a sentence ends after ".", "!" or "?" with the closing quotes and
//! brackets glued to it, unless the next word starts in lower case ("“Why?” she
//! asked."). An abbreviation's period ("U.S.", "Inc.") ends a sentence only
//! before a word that typically starts one ("The", "He", an opening quote), since
//! "the U.S. Senate" is far more common than a sentence ending in "U.S.".

use std::ops::Range;

use attest_doc::{
    Limits, Paragraph, ParagraphRole, Segmentation, Sentence, SentenceId, Span, Token, TokenId,
    TokenKind,
};
use attest_lang::{WordList, listed};

use crate::{abbrev, token};

/// Splits `text` into paragraphs, sentences and tokens.
pub(crate) fn segment(text: &str, limits: &Limits) -> Segmentation {
    let mut segmentation = Segmentation::default();
    let mut paragraph_tokens = Vec::new();
    for (index, range) in paragraph_ranges(text).into_iter().enumerate() {
        paragraph_tokens.clear();
        token::tokenize_range(text, range.start, range.end, &mut paragraph_tokens);
        if paragraph_tokens.is_empty() {
            continue;
        }
        let role = paragraph_role(text, &paragraph_tokens, index);
        let first_sentence = segmentation.sentences.len();
        let mut start = 0;
        for end in sentence_ends(text, &paragraph_tokens, limits) {
            let split_final_period = end < paragraph_tokens.len();
            push_sentence(
                text,
                &paragraph_tokens[start..end],
                split_final_period,
                &mut segmentation,
            );
            start = end;
        }
        let span = paragraph_tokens[0]
            .span
            .cover(paragraph_tokens[paragraph_tokens.len() - 1].span);
        segmentation.paragraphs.push(Paragraph {
            span,
            sentences: SentenceId::must(first_sentence)
                ..SentenceId::must(segmentation.sentences.len()),
            role,
        });
    }
    segmentation
}

/// Appends one sentence and its tokens. A sentence-final abbreviation gives its
/// period to the sentence as a token of its own ("U.S" + "."), as PTB does, so
/// that a full stop inside a paragraph is always a "." token. At a paragraph's
/// end the abbreviation keeps its period: the blank line already ends the
/// sentence, and headlines and timestamps ("7:30 p.m.") end in abbreviations.
fn push_sentence(
    text: &str,
    tokens: &[Token],
    split_final_period: bool,
    segmentation: &mut Segmentation,
) {
    let first = segmentation.tokens.len();
    segmentation.tokens.extend_from_slice(tokens);
    if split_final_period && let Some(last) = segmentation.tokens.last_mut() {
        let word = last.span.slice(text);
        if last.kind == TokenKind::Word && word.len() > 1 && word.ends_with('.') {
            let period = last.span.byte_end() - 1;
            let full_stop = Span::must(period, period + 1);
            last.span = Span::must(last.span.byte_start(), period);
            segmentation.tokens.push(Token {
                span: full_stop,
                kind: TokenKind::Punct,
            });
        }
    }
    let span = segmentation.tokens[first]
        .span
        .cover(segmentation.tokens[segmentation.tokens.len() - 1].span);
    segmentation.sentences.push(Sentence {
        span,
        tokens: TokenId::must(first)..TokenId::must(segmentation.tokens.len()),
    });
}

/// The byte ranges of the paragraphs.
///
/// Blank lines separate blocks. A block of several lines is one paragraph a
/// line when it reads that way ([`lines_are_paragraphs`]); otherwise it is one
/// hard-wrapped paragraph.
fn paragraph_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut block: Vec<Range<usize>> = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        if line.chars().all(token::is_space) {
            push_block(text, &block, &mut ranges);
            block.clear();
        } else {
            block.push(line_start..line_end);
        }
        line_start = line_end;
    }
    push_block(text, &block, &mut ranges);
    ranges
}

/// Pushes the paragraphs of one block of non-blank lines.
fn push_block(text: &str, lines: &[Range<usize>], ranges: &mut Vec<Range<usize>>) {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return;
    };
    if !lines_are_paragraphs(text, lines) {
        ranges.push(first.start..last.end);
        return;
    }
    let mut current: Option<Range<usize>> = None;
    for (i, line) in lines.iter().enumerate() {
        let range = match current.take() {
            Some(open) => open.start..line.end,
            None => line.clone(),
        };
        let wraps = !line_ends_sentence(&text[line.clone()])
            && lines
                .get(i + 1)
                .is_some_and(|next| starts_lowercase(&text[next.clone()]));
        if wraps {
            current = Some(range);
        } else {
            ranges.push(range);
        }
    }
    ranges.extend(current);
}

/// Whether each line of a block is a paragraph of its own: at least half of the
/// lines before the last end a sentence (".", "!", "?" or ":", with closing
/// quotes and brackets after it). A hard-wrapped paragraph breaks its lines
/// wherever the width runs out, so few of them end a sentence; text written one
/// paragraph a line ends almost every line with one, headlines and bylines
/// aside.
fn lines_are_paragraphs(text: &str, lines: &[Range<usize>]) -> bool {
    let before_last = &lines[..lines.len().saturating_sub(1)];
    let ending = before_last
        .iter()
        .filter(|line| line_ends_sentence(&text[(*line).clone()]))
        .count();
    !before_last.is_empty() && ending * 2 >= before_last.len()
}

fn line_ends_sentence(line: &str) -> bool {
    let trimmed = line
        .trim_end_matches(token::is_space)
        .trim_end_matches(['"', '\'', '”', '’', ')', ']', '»']);
    trimmed.ends_with(['.', '!', '?', ':', '…'])
}

fn starts_lowercase(line: &str) -> bool {
    line.trim_start_matches(token::is_space)
        .chars()
        .next()
        .is_some_and(char::is_lowercase)
}

/// The exclusive end index of each sentence of a paragraph's tokens; the last is
/// always `tokens.len()`.
fn sentence_ends(text: &str, tokens: &[Token], limits: &Limits) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < tokens.len() {
        let mut end = i + 1;
        let terminal = terminal(text, tokens, i);
        if terminal != Terminal::No {
            while end < tokens.len() && is_glued_closer(text, tokens, end) {
                end += 1;
            }
        }
        let breaks = tokens.get(end).is_some_and(|next| {
            let next_text = next.span.slice(text);
            match terminal {
                Terminal::No => false,
                Terminal::Abbreviation => {
                    let after_quote = tokens.get(end + 1).map(|t| (t.span.slice(text), t.kind));
                    starts_sentence(next_text, next.kind, after_quote)
                }
                Terminal::FullStop => !continues_sentence(next_text, next.kind),
            }
        });
        if breaks || end - start >= limits.sentence_tokens.max(1) || end == tokens.len() {
            ends.push(end);
            start = end;
        }
        i = end;
    }
    ends
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Terminal {
    No,
    FullStop,
    Abbreviation,
}

fn terminal(text: &str, tokens: &[Token], i: usize) -> Terminal {
    let token = tokens[i];
    let word = token.span.slice(text);
    match token.kind {
        TokenKind::Punct if word == "." => {
            let glued_to_abbreviation = i > 0
                && tokens[i - 1].span.byte_end() == token.span.byte_start()
                && token::ends_in_abbreviation(tokens[i - 1].span.slice(text));
            if glued_to_abbreviation {
                Terminal::Abbreviation
            } else {
                Terminal::FullStop
            }
        }
        TokenKind::Punct if word.chars().all(|c| c == '!' || c == '?') => Terminal::FullStop,
        TokenKind::Word if word.len() > 1 && word.ends_with('.') => {
            if abbrev::may_end_sentence(word) {
                Terminal::Abbreviation
            } else {
                Terminal::No
            }
        }
        _ => Terminal::No,
    }
}

/// A closing quote or bracket written right after the token before it.
fn is_glued_closer(text: &str, tokens: &[Token], i: usize) -> bool {
    let token = tokens[i];
    let glued = tokens[i - 1].span.byte_end() == token.span.byte_start();
    let closer = match token.kind {
        TokenKind::Quote => attest_lang::quote_mark(token.span.slice(text))
            .is_none_or(|mark| mark.side != attest_lang::QuoteSide::Opening),
        TokenKind::Punct => matches!(token.span.slice(text), ")" | "]" | "}"),
        _ => false,
    };
    glued && closer
}

/// Whether the token after a full stop carries the same sentence on: a word in
/// lower case ("“Why?” she asked") or punctuation that cannot start a sentence.
fn continues_sentence(next: &str, kind: TokenKind) -> bool {
    match kind {
        TokenKind::Word | TokenKind::Clitic => next.chars().next().is_some_and(char::is_lowercase),
        TokenKind::Punct => matches!(next, "," | ";" | ":" | ")" | "]" | "}" | "."),
        _ => false,
    }
}

/// Whether the token after an abbreviation opens a new sentence: a sentence
/// starter, or an opening quote before a capitalized word ("the U.S. “clearly”"
/// does not). A bracket does not: "Louisville, Ky. (AP)" is a dateline.
fn starts_sentence(next: &str, kind: TokenKind, after: Option<(&str, TokenKind)>) -> bool {
    match kind {
        TokenKind::Quote => after.is_some_and(|(word, kind)| {
            kind == TokenKind::Word && word.chars().next().is_some_and(char::is_uppercase)
        }),
        TokenKind::Word => listed(WordList::SentenceStarters, next),
        _ => false,
    }
}

fn paragraph_role(text: &str, tokens: &[Token], index: usize) -> ParagraphRole {
    let words: Vec<&str> = tokens.iter().map(|t| t.span.slice(text)).collect();
    let starts_capitalized = words[0].chars().next().is_some_and(char::is_uppercase);
    if index < 4
        && words.len() <= 12
        && words.len() >= 2
        && words[0].eq_ignore_ascii_case("by")
        && words[1].chars().next().is_some_and(char::is_uppercase)
    {
        return ParagraphRole::Byline;
    }
    let last = tokens.len() - 1;
    let ends_like_sentence = (0..=last).rev().take(3).any(|i| {
        terminal(text, tokens, i) != Terminal::No
            || matches!(words[i], ":" | "," | ";" | "…" | "...")
    });
    if words.len() <= 20 && starts_capitalized && !ends_like_sentence {
        return ParagraphRole::Headline;
    }
    ParagraphRole::Body
}

/// The span of a paragraph range, for callers that need it without tokens.
#[cfg(test)]
fn paragraph_spans(text: &str) -> Vec<Span> {
    paragraph_ranges(text)
        .into_iter()
        .map(|range| Span::must(range.start, range.end).trim(text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_with_spaces_or_crlf_separate_paragraphs() {
        let text =
            "Headline here\r\n \r\nThe first paragraph runs on\nover two lines.\n\n\nSecond.";
        assert_eq!(
            spans(text),
            [
                "Headline here",
                "The first paragraph runs on\nover two lines.",
                "Second."
            ]
        );
    }

    fn spans(text: &str) -> Vec<&str> {
        paragraph_spans(text)
            .iter()
            .map(|s| s.slice(text))
            .collect()
    }

    #[test]
    fn lines_ending_sentences_are_paragraphs_of_their_own() {
        let text = "Mill closes after 80 years\nBy Ada Park\nThe mill shut on Friday, the owner said.\n“We tried everything,” she said.\nWorkers will be paid through March.";
        assert_eq!(
            spans(text),
            [
                "Mill closes after 80 years",
                "By Ada Park",
                "The mill shut on Friday, the owner said.",
                "“We tried everything,” she said.",
                "Workers will be paid through March."
            ]
        );
    }

    #[test]
    fn hard_wrapped_lines_stay_one_paragraph() {
        let text = "The council voted on Monday to close the pool for\nthe summer, the mayor said. Swimmers will have to\ndrive to the next town, where the lanes are\nalready full.";
        assert_eq!(spans(text), [text]);
    }

    #[test]
    fn a_line_wrapped_mid_sentence_joins_the_next_in_line_paragraphs() {
        let text = "The dam held overnight, officials said.\nEngineers will inspect the spillway, which\ncracked in 2019.\nThe road stays closed.";
        assert_eq!(
            spans(text),
            [
                "The dam held overnight, officials said.",
                "Engineers will inspect the spillway, which\ncracked in 2019.",
                "The road stays closed."
            ]
        );
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::*;

    fn sentences(text: &str) -> Vec<&str> {
        let segmentation = segment(text, &Limits::DEFAULT);
        segmentation
            .sentences
            .iter()
            .map(|s| s.span.slice(text))
            .collect()
    }

    #[test]
    fn ends_inside_quotes_and_after_question_marks() {
        assert_eq!(
            sentences("“We will win.” The crowd cheered. “Why?” she asked. Was it over?"),
            [
                "“We will win.”",
                "The crowd cheered.",
                "“Why?” she asked.",
                "Was it over?"
            ]
        );
    }

    #[test]
    fn abbreviations_end_sentences_only_before_sentence_starters() {
        assert_eq!(
            sentences(
                "He moved to the U.S. The move paid off. She met Sen. Smith at Acme Inc. on Monday."
            ),
            [
                "He moved to the U.S.",
                "The move paid off.",
                "She met Sen. Smith at Acme Inc. on Monday."
            ]
        );
        let text = "He moved to the U.S. The move paid off.";
        let segmentation = segment(text, &Limits::DEFAULT);
        let first: Vec<&str> = segmentation.tokens[..segmentation.sentences[0].tokens.end.index()]
            .iter()
            .map(|t| t.span.slice(text))
            .collect();
        assert_eq!(
            first,
            ["He", "moved", "to", "the", "U.S", "."],
            "the full stop is its own token"
        );
    }

    #[test]
    fn datelines_stay_in_the_first_sentence() {
        assert_eq!(
            sentences("LOUISVILLE, Ky. (AP) — The mayor spoke. NEW YORK (Reuters) — Stocks fell."),
            [
                "LOUISVILLE, Ky. (AP) — The mayor spoke.",
                "NEW YORK (Reuters) — Stocks fell."
            ]
        );
    }

    #[test]
    fn quotations_over_several_paragraphs_keep_paragraph_sentences() {
        let text = "Strike ends at plant\n\nBy Dana Ruiz\n\n“We held out. We won.\n\n“Now we rest,” said the organizer.";
        let segmentation = segment(text, &Limits::DEFAULT);
        let roles: Vec<ParagraphRole> = segmentation.paragraphs.iter().map(|p| p.role).collect();
        assert_eq!(
            roles,
            [
                ParagraphRole::Headline,
                ParagraphRole::Byline,
                ParagraphRole::Body,
                ParagraphRole::Body
            ]
        );
        assert_eq!(
            sentences(text),
            [
                "Strike ends at plant",
                "By Dana Ruiz",
                "“We held out.",
                "We won.",
                "“Now we rest,” said the organizer."
            ]
        );
    }

    #[test]
    fn long_runs_are_cut_at_the_sentence_limit() {
        let text = "word ".repeat(25);
        let limits = Limits {
            sentence_tokens: 10,
            ..Limits::DEFAULT
        };
        let segmentation = segment(&text, &limits);
        assert_eq!(segmentation.sentences.len(), 3);
    }
}
