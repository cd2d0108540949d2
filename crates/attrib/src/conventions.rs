//! Attributions news writes in fixed forms that the training split shows too
//! rarely for the model to learn them, found by exact patterns over tokens.
//!
//! - Non-responses: "X did not respond to requests for comment", "did not
//!   return calls", "declined to comment", "could not be reached for comment".
//!   PolNeAR annotates them as attributions: the cue is the verb group ("did
//!   not respond to", "declined"), the content what follows up to the end of
//!   the clause ("requests for comment", "to comment"). The source is left to
//!   the role tagger.
//! - Signed quotations: a quotation followed on its line by a dash and a name,
//!   "“…” ― Ana Ruiz", as in collections of readers' or voters' comments. The
//!   dash is the cue, the name the source, the quotation the content.
//! - Transcript turns: paragraphs that open with a speaker's name in capitals
//!   and a colon, "TAPPER: Do you think …", when the article has at least two
//!   such turns by two speakers (a headline's "BREAKING:" or "UPDATE:" is not a
//!   transcript). The colon is the cue, the name the source, the rest of the
//!   paragraph the content.
//!
//! Everything here is written English convention, not taken from the corpus.

use attest_doc::{Doc, TokenKind, TokenView};

use crate::features::View;

/// An attribution found by convention, as token ranges.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Convention {
    pub(crate) cue: (usize, usize),
    /// The source when the convention says it; `None` leaves it to the role tagger.
    pub(crate) source: Option<(usize, usize)>,
    pub(crate) content: (usize, usize),
    /// How often attributions of its kind match PolNeAR's gold.
    pub(crate) confidence: f32,
}

/// About half the non-responses the patterns find are in PolNeAR's gold (the
/// annotators often left them out), in the train and dev splits alike.
const NON_RESPONSE_CONFIDENCE: f32 = 0.5;

/// Nearly every signed quotation of the dev split is in its gold (train has none).
const SIGNED_CONFIDENCE: f32 = 0.9;

/// About two transcript turns in three are in the gold of train, nearly all in dev.
const TURN_CONFIDENCE: f32 = 0.7;

/// Auxiliaries a negated non-response verb group starts with ("wo" is the
/// first half of "won't").
const AUXILIARIES: &[&str] = &[
    "did", "does", "do", "has", "have", "had", "would", "could", "will", "wo",
];

/// Adverbs a non-response verb group may hold: "did not immediately respond".
const ADVERBS: &[&str] = &[
    "immediately",
    "yet",
    "directly",
    "also",
    "still",
    "publicly",
];

/// What an unreturned call is: the content of "did not return" must name one.
const MESSAGES: &[&str] = &[
    "call",
    "calls",
    "message",
    "messages",
    "request",
    "requests",
    "email",
    "emails",
    "e-mail",
    "e-mails",
    "inquiry",
    "inquiries",
    "comment",
    "phone",
];

/// Words a capitalised "NAME:" opening a paragraph can be that name no speaker.
const NOT_SPEAKERS: &[&str] = &[
    "UPDATE",
    "UPDATED",
    "CORRECTION",
    "CLARIFICATION",
    "EDITOR",
    "NOTE",
    "VIDEO",
    "PHOTO",
    "PHOTOS",
    "WATCH",
    "LISTEN",
    "LOOK",
    "READ",
    "MORE",
    "RELATED",
    "SOURCE",
    "SOURCES",
    "BREAKING",
    "EXCLUSIVE",
    "PREVIOUSLY",
    "EMAIL",
    "BYLINE",
    "CREDIT",
    "ABSTRACT",
];

/// The most tokens a speaker's name or a quotation's signature holds.
const NAME_TOKENS: usize = 5;

/// Whether token `index`'s folded word is one of `words`.
fn is_one_of(tokens: &TokenView<'_>, index: usize, words: &[&str]) -> bool {
    words.contains(&tokens.word(index))
}

fn negation(tokens: &TokenView<'_>, index: usize) -> bool {
    matches!(tokens.word(index), "not" | "n't" | "n’t" | "never")
}

/// Finds the conventional attributions of a document, in text order.
pub(crate) fn find(view: &View, doc: &Doc) -> Vec<Convention> {
    let words = TokenView::new(doc);
    let mut out = Vec::new();
    for &sentence in &view.sentences {
        for index in sentence.0..sentence.1 {
            if let Some(found) = non_response(&words, index, sentence.1) {
                out.push(found);
            }
        }
    }
    out.extend(signed_quotes(view, &words));
    out.extend(transcript_turns(view, &words));
    out.sort_by_key(|c| c.cue);
    out.dedup_by(|later, earlier| later.cue.0 < earlier.cue.1);
    out
}

/// A non-response whose verb group starts at token `start`, in a sentence
/// ending before `end`.
fn non_response(words: &TokenView<'_>, start: usize, end: usize) -> Option<Convention> {
    let skip_adverbs = |mut at: usize| {
        while at < end && is_one_of(words, at, ADVERBS) {
            at += 1;
        }
        at
    };
    // "declined to comment": the cue is the verb, the content starts at "to".
    if matches!(
        words.word(start),
        "declined" | "declines" | "refused" | "refuses"
    ) && words.word(start + 1) == "to"
        && is_one_of(
            words,
            start + 2,
            &["comment", "respond", "discuss", "elaborate", "answer"],
        )
    {
        let content = (start + 1, clause_end(words, start + 1, end));
        return Some(Convention {
            cue: (start, start + 1),
            source: None,
            content,
            confidence: NON_RESPONSE_CONFIDENCE,
        });
    }
    if !is_one_of(words, start, AUXILIARIES) || !negation(words, start + 1) {
        return None;
    }
    let verb = skip_adverbs(start + 2);
    let (cue_end, needs) = match words.word(verb) {
        "respond" | "responded" | "reply" | "replied" => {
            let to = skip_adverbs(verb + 1);
            if words.word(to) != "to" {
                return None;
            }
            (to + 1, None)
        }
        "return" | "returned" => (verb + 1, Some(MESSAGES)),
        "comment" | "commented" => {
            let on = verb + 1;
            (if words.word(on) == "on" { on + 1 } else { on }, None)
        }
        "be" | "been" => {
            let reached = skip_adverbs(verb + 1);
            if !matches!(words.word(reached), "reached" | "contacted") {
                return None;
            }
            (reached + 1, Some(&["comment"][..]))
        }
        _ => return None,
    };
    let content = (cue_end, clause_end(words, cue_end, end));
    if content.0 >= content.1 {
        return None;
    }
    if let Some(needed) = needs
        && !(content.0..content.1).any(|i| is_one_of(words, i, needed))
    {
        return None;
    }
    Some(Convention {
        cue: (start, cue_end),
        source: None,
        content,
        confidence: NON_RESPONSE_CONFIDENCE,
    })
}

/// Where the clause that starts at token `start` ends: at the first comma,
/// semicolon, colon, dash or parenthesis, or before the sentence's closing
/// punctuation.
fn clause_end(words: &TokenView<'_>, start: usize, end: usize) -> usize {
    let mut at = start;
    while at < end {
        let stops = matches!(words.word(at), "," | ";" | ":" | "(" | ")")
            || words.kind(at) == Some(TokenKind::Dash);
        let closes = at + 1 == end && matches!(words.word(at), "." | "!" | "?");
        if stops || closes {
            break;
        }
        at += 1;
    }
    at
}

fn is_double_mark(text: &str) -> bool {
    attest_lang::quote_mark(text).is_some_and(|mark| mark.double)
}

/// Whether a token may be part of a name signing a quotation or opening a
/// transcript turn: a capitalised word, an initial ("P."), or a particle
/// between two such ("de", "van").
fn name_word(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_uppercase) && text.chars().any(char::is_alphabetic)
}

/// "“…” ― Name": a dash right after a closing quotation mark on the same line,
/// then a name that ends its line.
fn signed_quotes(view: &View, words: &TokenView<'_>) -> Vec<Convention> {
    let mut out = Vec::new();
    for dash in 1..view.tokens.len() {
        if words.kind(dash) != Some(TokenKind::Dash) || words.breaks_after(dash - 1) {
            continue;
        }
        let mark = dash - 1;
        if !is_double_mark(words.raw(mark)) {
            continue;
        }
        // The name: capitalised words that end their line, or end it but for
        // a full stop.
        let first = dash + 1;
        let mut at = first;
        let name_end = loop {
            if at - first >= NAME_TOKENS || !name_word(words.raw(at)) {
                break None;
            }
            if words.breaks_after(at) {
                break Some(at + 1);
            }
            if words.raw(at + 1) == "." && words.breaks_after(at + 1) {
                break Some(at + 1);
            }
            at += 1;
        };
        let Some(name_end) = name_end else {
            continue;
        };
        // The quotation: the region the mark closes, or the line it ends when
        // that line opens with a mark (quotes set one to a line are often
        // opened with a closing mark).
        let opening = view
            .tokens
            .get(mark)
            .and_then(|t| t.quote.region())
            .and_then(|r| view.regions.get(r as usize))
            .filter(|r| r.last == mark)
            .map(|r| r.first)
            .or_else(|| {
                let mut start = mark;
                while start > 0 && !words.breaks_after(start - 1) {
                    start -= 1;
                }
                (start < mark && is_double_mark(words.raw(start))).then_some(start)
            });
        if let Some(opening) = opening {
            out.push(Convention {
                cue: (dash, dash + 1),
                source: Some((first, name_end)),
                content: (opening, mark + 1),
                confidence: SIGNED_CONFIDENCE,
            });
        }
    }
    out
}

/// "NAME: words" turns of a transcript: see the module docs.
fn transcript_turns(view: &View, words: &TokenView<'_>) -> Vec<Convention> {
    let mut turns = Vec::new();
    for &(first_sentence, end_sentence) in &view.paragraphs {
        let start = view.sentences.get(first_sentence).map(|s| s.0);
        let end = end_sentence
            .checked_sub(1)
            .and_then(|s| view.sentences.get(s))
            .map(|s| s.1);
        let (Some(start), Some(end)) = (start, end) else {
            continue;
        };
        let name_start = if is_double_mark(words.raw(start)) {
            start + 1
        } else {
            start
        };
        let mut colon = name_start;
        while colon < end && colon - name_start < 3 && speaker_word(words.raw(colon)) {
            colon += 1;
        }
        if colon == name_start || words.raw(colon) != ":" || colon + 1 >= end {
            continue;
        }
        if NOT_SPEAKERS.contains(&words.raw(name_start)) {
            continue;
        }
        let speaker: Vec<&str> = (name_start..colon).map(|i| words.raw(i)).collect();
        turns.push((
            speaker.join(" "),
            Convention {
                cue: (colon, colon + 1),
                source: Some((name_start, colon)),
                content: (colon + 1, end),
                confidence: TURN_CONFIDENCE,
            },
        ));
    }
    let speakers: std::collections::BTreeSet<&str> =
        turns.iter().map(|(speaker, _)| speaker.as_str()).collect();
    // One speaker's last name stands for the full name in later turns
    // ("JAKE TAPPER", then "TAPPER"), so count distinct last words.
    let last_names: std::collections::BTreeSet<&str> = speakers
        .iter()
        .filter_map(|s| s.split(' ').next_back())
        .collect();
    if turns.len() < 2 || last_names.len() < 2 {
        return Vec::new();
    }
    turns.into_iter().map(|(_, turn)| turn).collect()
}

/// A word of a speaker's name in a transcript: capitals only ("WALLACE",
/// "O'REILLY", "JR.").
fn speaker_word(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && text
            .chars()
            .all(|c| c.is_uppercase() || matches!(c, '.' | '\'' | '’' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Lexicon;
    use attest_doc::{Article, Limits};

    fn found(text: &str) -> Vec<(String, Option<String>, String)> {
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let view = View::new(&doc, &Lexicon::default());
        let slice = |(a, b): (usize, usize)| {
            let start = doc.tokens()[a].span.byte_start();
            let end = doc.tokens()[b - 1].span.byte_end();
            text[start..end].to_owned()
        };
        find(&view, &doc)
            .into_iter()
            .map(|c| (slice(c.cue), c.source.map(slice), slice(c.content)))
            .collect()
    }

    fn cue_and_content(text: &str) -> Vec<(String, String)> {
        found(text).into_iter().map(|(c, _, t)| (c, t)).collect()
    }

    #[test]
    fn non_responses() {
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        assert_eq!(
            cue_and_content("The mayor's office did not respond to requests for comment."),
            pairs(&[("did not respond to", "requests for comment")])
        );
        assert_eq!(
            cue_and_content("A spokesman didn’t immediately respond to an email on Friday."),
            pairs(&[("didn’t immediately respond to", "an email on Friday")])
        );
        assert_eq!(
            cue_and_content("The club declined to comment on the vote, citing privacy."),
            pairs(&[("declined", "to comment on the vote")])
        );
        assert_eq!(
            cue_and_content("Her lawyer did not return calls seeking comment."),
            pairs(&[("did not return", "calls seeking comment")])
        );
        assert_eq!(
            cue_and_content("Smith could not be reached for comment on Sunday."),
            pairs(&[("could not be reached", "for comment on Sunday")])
        );
        assert_eq!(
            cue_and_content("He would not comment on the lawsuit."),
            pairs(&[("would not comment on", "the lawsuit")])
        );
    }

    #[test]
    fn look_alikes_of_non_responses_are_left_alone() {
        for text in [
            "He did not return to the firm after the war.",
            "She did not respond.",
            "They declined to take part.",
            "The team could not be reached by road.",
        ] {
            let found = found(text);
            assert!(found.is_empty(), "{text}: {found:?}");
        }
    }

    #[test]
    fn signed_quotations() {
        let text = "Readers wrote in.\n\n“He never listens.” ― Ana P. Ruiz\n“Too little, too late.”― Bo Li.\nThat was all.";
        assert_eq!(
            found(text),
            [
                (
                    "―".to_owned(),
                    Some("Ana P. Ruiz".to_owned()),
                    "“He never listens.”".to_owned()
                ),
                (
                    "―".to_owned(),
                    Some("Bo Li".to_owned()),
                    "“Too little, too late.”".to_owned()
                ),
            ]
        );
        // A dash inside a sentence after a quoted phrase signs nothing.
        assert!(found("They called it “a win” — and moved on to other things.").is_empty());
    }

    #[test]
    fn transcript_turns_need_two_speakers() {
        let text = "Partial transcript:\n\n\"MARSH: Will the port open?\n\n\"JAKE OKAFOR: Not this week.\n\nOKAFOR: Maybe next.";
        let turns = found(text);
        assert_eq!(turns.len(), 3, "{turns:?}");
        assert_eq!(
            turns[1],
            (
                ":".to_owned(),
                Some("JAKE OKAFOR".to_owned()),
                "Not this week.".to_owned()
            )
        );
        assert!(found("BREAKING: The port is closed.\n\nUPDATE: It reopened.").is_empty());
        assert!(found("MARSH: One turn is no transcript.").is_empty());
    }
}
