//! Properties of segmentation over arbitrary text: it never panics, its layers
//! fit the document model's checks, and tokens cover every visible character.

use attest_doc::{Article, Doc, Limits, TokenKind};
use proptest::prelude::*;

fn news_like() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "Sen.",
        "U.S.",
        " ",
        "\n",
        "\n\n",
        "“",
        "”",
        "\"",
        "'",
        "’s",
        "n’t",
        "—",
        "--",
        ".",
        "?",
        "!",
        ",",
        "said",
        "Smith",
        "$1.2",
        "7:30",
        "p.m.",
        "http://x.io/a",
        "a@b.co",
        "#tag",
        "@who",
        "<b>",
        "é",
        "😀",
        "\r\n",
        "\u{a0}",
        "(",
        ")",
        "...",
        "''",
        "-",
        "9/11",
        "No.",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|pieces| pieces.concat())
}

fn check_segmentation(text: &str) -> Result<(), TestCaseError> {
    let segmentation = attest_text::segment(
        text,
        &Limits {
            sentence_tokens: 7,
            ..Limits::DEFAULT
        },
    );
    let tokens = segmentation.tokens.clone();
    let mut doc = Doc::new(Article::new("p", text));
    prop_assert!(
        doc.set_segmentation(segmentation).is_ok(),
        "layers must fit the document"
    );
    let mut covered = vec![false; text.len()];
    for token in &tokens {
        let slice = token.span.get(text);
        prop_assert!(slice.is_some(), "token span must slice the text");
        let slice = slice.unwrap_or_default();
        if token.kind != TokenKind::Markup {
            prop_assert!(
                !slice.chars().any(char::is_whitespace),
                "token {slice:?} holds whitespace"
            );
        }
        for flag in &mut covered[token.span.byte_start()..token.span.byte_end()] {
            *flag = true;
        }
    }
    for (byte, ch) in text.char_indices() {
        if !ch.is_whitespace() && !matches!(ch, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}') {
            prop_assert!(covered[byte], "{ch:?} at byte {byte} is in no token");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings_segment_into_tiling_tokens(text in "\\PC{0,200}") {
        check_segmentation(&text)?;
    }

    #[test]
    fn news_like_strings_segment_into_tiling_tokens(text in news_like()) {
        check_segmentation(&text)?;
    }

    #[test]
    fn arbitrary_bytes_decoded_lossily_segment(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_segmentation(&String::from_utf8_lossy(&bytes))?;
    }
}
