//! Hand-built documents that the writers' tests share.
//!
//! The texts are written for these tests; every layer is set through the
//! `Doc::set_*` methods, so the fixtures obey the same checks as a real pipeline.

use attest_doc::{
    Article, Attribution, AttributionId, AttributionKind, ClusterId, Diagnostic, Doc, Entity,
    EntityLabel, Gender, Granularity, Hedge, Merge, MergeReason, Paragraph, ParagraphRole, PosTag,
    Quantity, Quotation, QuoteStatus, Segmentation, Sentence, SentenceId, Source, SourceId,
    SourceKind, Span, Stance, StanceLabel, TimeExpr, Token, TokenId, TokenKind,
};
use proptest::prelude::*;

pub(crate) const STORY: &str = "Harbour Bridge vote delayed

By Ana Núñez

The city council will not vote on the €4.2 million Harbour Bridge repair until March, Mayor Lena Ortiz said on Monday. “We need the engineers’ report first,” she told reporters, “and then we vote.”

The contractor, Brightline Works, denied that the work was late. Costs are expected to rise by 15 percent, according to a draft budget. The bridge is said to be safe for now.

The repair has reportedly been delayed twice since the Olympics. More than 300 residents signed a petition.

Ortiz did not confirm the new date.
";

/// The span of the `n`th (from 0) occurrence of `needle`.
#[track_caller]
pub(crate) fn nth(text: &str, needle: &str, n: usize) -> Span {
    let start = text
        .match_indices(needle)
        .nth(n)
        .map(|(start, _)| start)
        .unwrap_or_else(|| panic!("{needle:?} occurs fewer than {} times", n + 1));
    Span::must(start, start + needle.len())
}

/// The span of the first occurrence of `needle`.
#[track_caller]
pub(crate) fn first(text: &str, needle: &str) -> Span {
    nth(text, needle, 0)
}

fn token_kind(token: &str) -> TokenKind {
    let mut chars = token.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() => TokenKind::Number,
        Some('“' | '”' | '‘' | '’' | '"' | '\'') => TokenKind::Quote,
        Some('€' | '$' | '%') => TokenKind::Symbol,
        Some(c) if c.is_alphanumeric() => TokenKind::Word,
        _ => TokenKind::Punct,
    }
}

/// A crude segmentation for fixtures: words (with inner apostrophes and
/// periods between digits), one token per other character; a sentence ends
/// after `.`, `?` or `!` and a closing quote; a paragraph at a blank line.
pub(crate) fn segment(text: &str) -> Segmentation {
    let mut spans: Vec<Span> = Vec::new();
    let mut word_start: Option<usize> = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let prev = i.checked_sub(1).and_then(|p| chars.get(p)).map(|&(_, p)| p);
        let inner = matches!(c, '’' | '.' | ',')
            && word_start.is_some()
            && next.is_some_and(char::is_alphanumeric)
            && (c == '’' || prev.is_some_and(|p| p.is_ascii_digit()));
        if c.is_alphanumeric() || inner {
            word_start.get_or_insert(at);
            continue;
        }
        if let Some(start) = word_start.take() {
            spans.push(Span::must(start, at));
        }
        if !c.is_whitespace() {
            spans.push(Span::must(at, at + c.len_utf8()));
        }
    }
    if let Some(start) = word_start {
        spans.push(Span::must(start, text.len()));
    }

    let tokens: Vec<Token> = spans
        .iter()
        .map(|span| Token {
            span: *span,
            kind: token_kind(span.slice(text)),
        })
        .collect();
    let mut sentences = Vec::new();
    let mut paragraphs = Vec::new();
    let mut sentence_start = 0;
    let mut paragraph_start = 0;
    for (i, token) in tokens.iter().enumerate() {
        let here = token.span.slice(text);
        let gap_after = tokens.get(i + 1).map_or("\n\n", |next| {
            &text[token.span.byte_end()..next.span.byte_start()]
        });
        let next_text = tokens.get(i + 1).map(|t| t.span.slice(text));
        let paragraph_ends = gap_after.contains("\n\n");
        let previous_text = i.checked_sub(1).map(|p| tokens[p].span.slice(text));
        let ends = |t: Option<&str>| matches!(t, Some("." | "?" | "!"));
        let closes =
            (ends(Some(here)) && next_text != Some("”")) || (here == "”" && ends(previous_text));
        if closes || paragraph_ends {
            let span = Span::must(
                tokens[sentence_start].span.byte_start(),
                token.span.byte_end(),
            );
            sentences.push(Sentence {
                span,
                tokens: TokenId::must(sentence_start)..TokenId::must(i + 1),
            });
            sentence_start = i + 1;
        }
        if paragraph_ends {
            let first_sentence: &Sentence = &sentences[paragraph_start];
            let role = match paragraphs.len() {
                0 => ParagraphRole::Headline,
                1 => ParagraphRole::Byline,
                _ => ParagraphRole::Body,
            };
            paragraphs.push(Paragraph {
                span: Span::must(first_sentence.span.byte_start(), token.span.byte_end()),
                sentences: SentenceId::must(paragraph_start)..SentenceId::must(sentences.len()),
                role,
            });
            paragraph_start = sentences.len();
        }
    }
    Segmentation {
        tokens,
        sentences,
        paragraphs,
    }
}

fn article() -> Article {
    Article {
        id: "harbour/2026-03-04".to_string(),
        title: Some("Harbour Bridge vote delayed".to_string()),
        text: STORY.to_string(),
        outlet: Some("The Harbour Gazette".to_string()),
        url: Some("https://example.org/news/harbour-bridge".to_string()),
        published: "2026-03-04T18:30:00-05:00".parse().ok(),
        language: Some("en".to_string()),
    }
}

/// The story with only tokens, sentences and paragraphs.
pub(crate) fn segmented_doc() -> Doc {
    let mut doc = Doc::new(article());
    doc.set_segmentation(segment(STORY)).unwrap();
    doc
}

/// A crude part-of-speech tag for each token, from its kind.
pub(crate) fn tag(doc: &mut Doc) {
    let pos = doc
        .tokens()
        .iter()
        .map(|token| {
            let name = match token.kind {
                TokenKind::Number => "CD",
                TokenKind::Word => "NN",
                TokenKind::Symbol => "$",
                TokenKind::Quote => "``",
                _ => ".",
            };
            PosTag::from_name(name).unwrap()
        })
        .collect();
    doc.set_pos(pos).unwrap();
}

/// The story with every layer set by hand.
pub(crate) fn full_doc() -> Doc {
    let t = STORY;
    let mut doc = segmented_doc();
    tag(&mut doc);

    let attribution =
        |source: Vec<Span>, cue: Vec<Span>, content: Vec<Span>, kind, confidence| Attribution {
            source,
            cue,
            content,
            kind,
            confidence,
        };
    doc.set_attributions(vec![
        attribution(
            vec![first(t, "Mayor Lena Ortiz")],
            vec![first(t, "said")],
            vec![first(
                t,
                "The city council will not vote on the €4.2 million Harbour Bridge repair until March",
            )],
            AttributionKind::Indirect,
            0.93,
        ),
        attribution(
            vec![first(t, "she")],
            vec![first(t, "told")],
            vec![
                first(t, "“We need the engineers’ report first,”"),
                first(t, "“and then we vote.”"),
            ],
            AttributionKind::Direct,
            0.97,
        ),
        attribution(
            vec![first(t, "The contractor, Brightline Works")],
            vec![first(t, "denied")],
            vec![first(t, "that the work was late")],
            AttributionKind::Indirect,
            0.881_234,
        ),
        attribution(
            vec![first(t, "a draft budget")],
            vec![first(t, "according to")],
            vec![first(t, "Costs are expected to rise by 15 percent")],
            AttributionKind::AccordingTo,
            0.9,
        ),
        attribution(
            Vec::new(),
            vec![first(t, "is said")],
            vec![first(t, "The bridge"), first(t, "to be safe for now")],
            AttributionKind::Indirect,
            0.61,
        ),
        attribution(
            vec![nth(t, "Ortiz", 1)],
            vec![first(t, "did not confirm")],
            vec![first(t, "the new date")],
            AttributionKind::Indirect,
            0.75,
        ),
    ])
    .unwrap();

    let id = AttributionId::must;
    doc.set_stances(vec![
        Stance {
            attribution: id(0),
            label: StanceLabel::Asserts,
            evidence: vec![first(t, "said")],
        },
        Stance {
            attribution: id(2),
            label: StanceLabel::Denies,
            evidence: vec![first(t, "denied")],
        },
        Stance {
            attribution: id(5),
            label: StanceLabel::Declines,
            evidence: vec![first(t, "did not"), first(t, "confirm")],
        },
    ])
    .unwrap();

    doc.set_sources(vec![
        Source {
            name: "Lena Ortiz".to_string(),
            kind: SourceKind::Person,
            mentions: vec![
                first(t, "Mayor Lena Ortiz"),
                first(t, "she"),
                nth(t, "Ortiz", 1),
            ],
            descriptors: vec![first(t, "Mayor")],
            gender: Some(Gender::Feminine),
            attributions: vec![id(0), id(1), id(5)],
            merges: vec![
                Merge {
                    mention: first(t, "she"),
                    reason: MergeReason::Pronoun,
                },
                Merge {
                    mention: nth(t, "Ortiz", 1),
                    reason: MergeReason::Surname,
                },
            ],
        },
        Source {
            name: "Brightline Works".to_string(),
            kind: SourceKind::Organization,
            mentions: vec![first(t, "Brightline Works")],
            descriptors: vec![first(t, "The contractor")],
            gender: None,
            attributions: vec![id(2)],
            merges: Vec::new(),
        },
        Source {
            name: "a draft budget".to_string(),
            kind: SourceKind::Document,
            mentions: vec![first(t, "a draft budget")],
            descriptors: Vec::new(),
            gender: None,
            attributions: vec![id(3)],
            merges: Vec::new(),
        },
    ])
    .unwrap();

    // "is said" is both the cue of a source-less attribution and the
    // writer's hedge of it; "reportedly" hedges a sentence of the writer's.
    doc.set_hedges(vec![
        Hedge {
            cue: first(t, "is said"),
            scope: first(t, "to be safe for now"),
        },
        Hedge {
            cue: first(t, "reportedly"),
            scope: first(t, "been delayed twice since the Olympics"),
        },
    ])
    .unwrap();

    let quoted = |words, n| Quotation {
        span: first(t, words),
        status: QuoteStatus::Attributed,
        attribution: Some(id(n)),
        source: Some(SourceId::must(0)),
    };
    doc.set_quotations(vec![
        quoted("We need the engineers’ report first,", 1),
        quoted("and then we vote.", 1),
    ])
    .unwrap();

    let cluster = ClusterId::must;
    let entity = |span, label, c| Entity {
        span,
        label,
        cluster: cluster(c),
    };
    doc.set_entities(vec![
        entity(first(t, "Ana Núñez"), EntityLabel::Person, 0),
        entity(nth(t, "Harbour Bridge", 1), EntityLabel::Location, 1),
        entity(first(t, "Lena Ortiz"), EntityLabel::Person, 2),
        entity(first(t, "Brightline Works"), EntityLabel::Organization, 3),
        entity(first(t, "Olympics"), EntityLabel::Other, 4),
        entity(nth(t, "Ortiz", 1), EntityLabel::Person, 2),
    ])
    .unwrap();

    doc.set_quantities(vec![
        Quantity {
            span: first(t, "€4.2 million"),
            low: Some(4_200_000.0),
            high: Some(4_200_000.0),
            unit: "EUR".to_string(),
        },
        Quantity {
            span: first(t, "15 percent"),
            low: Some(15.0),
            high: Some(15.0),
            unit: "percent".to_string(),
        },
        Quantity {
            span: first(t, "More than 300"),
            low: Some(300.0),
            high: None,
            unit: "residents".to_string(),
        },
    ])
    .unwrap();

    doc.set_times(vec![
        TimeExpr {
            span: first(t, "March"),
            value: Some("2026-03".to_string()),
            granularity: Some(Granularity::Month),
            unresolved: None,
        },
        TimeExpr {
            span: first(t, "Monday"),
            value: Some("2026-03-02".to_string()),
            granularity: Some(Granularity::Day),
            unresolved: None,
        },
        TimeExpr {
            span: first(t, "since the Olympics"),
            value: None,
            granularity: None,
            unresolved: Some("names an event, not a date".to_string()),
        },
    ])
    .unwrap();

    doc.push_diagnostic(Diagnostic {
        origin: "read",
        message: "title taken from the first line (byte 0)".to_string(),
    });
    doc
}

/// Texts with multi-byte characters, CRLF and emoji, and 1 to 5 spans on
/// character boundaries of each.
pub(crate) fn text_and_spans() -> impl Strategy<Value = (String, Vec<(usize, usize)>)> {
    "(\\PC|\r\n|\n|😀|é|—){0,40}".prop_flat_map(|text| {
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|b| text.is_char_boundary(*b))
            .collect();
        let n = boundaries.len();
        let pairs = proptest::collection::vec((0..n, 0..n), 1..6).prop_map(move |pairs| {
            pairs
                .into_iter()
                .map(|(a, b)| {
                    let (a, b) = (a.min(b), a.max(b));
                    (boundaries.get(a).copied(), boundaries.get(b).copied())
                })
                .filter_map(|(a, b)| Some((a?, b?)))
                .collect::<Vec<_>>()
        });
        (Just(text), pairs)
    })
}

#[test]
fn the_fixture_segmentation_is_what_the_tests_expect() {
    let doc = segmented_doc();
    let sentences: Vec<&str> = doc
        .sentences()
        .iter()
        .map(|s| s.span.slice(STORY))
        .collect();
    assert_eq!(sentences.len(), 10, "{sentences:#?}");
    assert_eq!(
        sentences[3],
        "“We need the engineers’ report first,” she told reporters, “and then we vote.”"
    );
    assert_eq!(doc.paragraphs().len(), 6);
    assert_eq!(doc.token_text(TokenId::must(0)), "Harbour");
    assert!(doc.tokens().iter().any(|t| t.span.slice(STORY) == "4.2"));
}
