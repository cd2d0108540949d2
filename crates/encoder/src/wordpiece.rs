//! The word pieces of one token, as Hugging Face's uncased `BertTokenizer`
//! makes them: its basic tokenizer (clean, lowercase, strip accents, split
//! punctuation and CJK ideographs) and greedy longest-match WordPiece.
//!
//! attest labels its own tokens, so each token is split alone and every piece
//! belongs to exactly one token: offsets map back exactly by construction.

use std::collections::HashMap;

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// A word longer than this many characters becomes one `[UNK]` piece, as in BERT.
const MAX_WORD_CHARS: usize = 100;

/// The most pieces a token keeps; the contract reads a token at its first piece,
/// and more pieces would only crowd the window.
pub const MAX_PIECES: usize = 16;

/// A WordPiece vocabulary: piece to id, id = line number of `vocab.txt`.
#[derive(Clone, Debug)]
pub struct Vocab {
    ids: HashMap<String, u32>,
    len: usize,
    /// Id of `[UNK]`.
    pub unk: u32,
    /// Id of `[CLS]`.
    pub cls: u32,
    /// Id of `[SEP]`.
    pub sep: u32,
    /// Id of `[PAD]`.
    pub pad: u32,
}

/// What is wrong with a vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VocabError {
    /// A special piece the encoder needs is not in the file.
    #[error("the vocabulary has no {0} piece")]
    MissingSpecial(&'static str),
    /// The same piece on two lines.
    #[error("line {line}: piece {piece:?} is already on line {first}")]
    Duplicate {
        /// 1-based line of the repetition.
        line: usize,
        /// 1-based line where it first stood.
        first: usize,
        /// The piece.
        piece: String,
    },
}

impl Vocab {
    /// Reads `vocab.txt`'s text: one piece a line, id = 0-based line number.
    pub fn parse(text: &str) -> Result<Vocab, VocabError> {
        let mut ids = HashMap::new();
        let mut len = 0;
        for (index, line) in text.lines().enumerate() {
            let piece = line.strip_suffix('\r').unwrap_or(line);
            let id = u32::try_from(index).unwrap_or(u32::MAX);
            if let Some(first) = ids.insert(piece.to_owned(), id) {
                return Err(VocabError::Duplicate {
                    line: index + 1,
                    first: first as usize + 1,
                    piece: piece.to_owned(),
                });
            }
            len = index + 1;
        }
        let special = |name: &'static str| {
            ids.get(name)
                .copied()
                .ok_or(VocabError::MissingSpecial(name))
        };
        Ok(Vocab {
            unk: special("[UNK]")?,
            cls: special("[CLS]")?,
            sep: special("[SEP]")?,
            pad: special("[PAD]")?,
            ids,
            len,
        })
    }

    /// How many pieces it has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has none (never true of a parsed vocabulary).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The id of a piece.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.ids.get(piece).copied()
    }

    /// The piece ids of one token's text, appended to `out`: at least one
    /// (`[UNK]` when the text yields none), at most [`MAX_PIECES`].
    pub fn token_pieces(&self, token: &str, out: &mut Vec<u32>) {
        let start = out.len();
        let mut piece = String::new();
        for word in basic_words(token) {
            if out.len() - start >= MAX_PIECES {
                break;
            }
            self.word_pieces(&word, &mut piece, out);
        }
        out.truncate(start + MAX_PIECES);
        if out.len() == start {
            out.push(self.unk);
        }
    }

    /// Greedy longest-match-first WordPiece of one basic word.
    fn word_pieces(&self, word: &str, piece: &mut String, out: &mut Vec<u32>) {
        if word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unk);
            return;
        }
        let start_len = out.len();
        let mut begin = 0;
        while begin < word.len() {
            let mut end = word.len();
            let mut found = None;
            while end > begin {
                piece.clear();
                if begin > 0 {
                    piece.push_str("##");
                }
                piece.push_str(word.get(begin..end).unwrap_or_default());
                if let Some(id) = self.id(piece) {
                    found = Some(id);
                    break;
                }
                end = word
                    .get(begin..end)
                    .and_then(|s| s.char_indices().next_back())
                    .map_or(begin, |(i, _)| begin + i);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    begin = end;
                }
                None => {
                    out.truncate(start_len);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

/// The words BERT's basic tokenizer makes of a text (lowercased, accents
/// stripped), in order.
pub fn basic_words(text: &str) -> Vec<String> {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let mut words = Vec::new();
    for raw in cleaned.split(' ').filter(|w| !w.is_empty()) {
        let folded: String = raw
            .to_lowercase()
            .nfd()
            .filter(|c| get_general_category(*c) != GeneralCategory::NonspacingMark)
            .collect();
        let mut current = String::new();
        for c in folded.chars() {
            if is_punctuation(c) {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                words.push(c.to_string());
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
    }
    words
}

/// BERT's whitespace: space, tab, line feed, carriage return and category Zs.
fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
        || get_general_category(c) == GeneralCategory::SpaceSeparator
}

/// BERT's control characters: any category C* except tab and line breaks.
fn is_control(c: char) -> bool {
    if matches!(c, '\t' | '\n' | '\r') {
        return false;
    }
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::Surrogate
            | GeneralCategory::PrivateUse
            | GeneralCategory::Unassigned
    )
}

/// BERT's punctuation: every non-alphanumeric ASCII symbol, and category P*.
fn is_punctuation(c: char) -> bool {
    let cp = c as u32;
    if (33..=47).contains(&cp)
        || (58..=64).contains(&cp)
        || (91..=96).contains(&cp)
        || (123..=126).contains(&cp)
    {
        return true;
    }
    matches!(
        get_general_category(c),
        GeneralCategory::ConnectorPunctuation
            | GeneralCategory::DashPunctuation
            | GeneralCategory::OpenPunctuation
            | GeneralCategory::ClosePunctuation
            | GeneralCategory::InitialPunctuation
            | GeneralCategory::FinalPunctuation
            | GeneralCategory::OtherPunctuation
    )
}

/// The CJK ideograph blocks BERT splits into single characters.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocab {
        let pieces = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "cafe", "said", "un", "##believ", "##able",
            "“", "”", "\"", ",", ".", "'", "s", "-", "well", "known", "a", "##b", "中",
        ];
        Vocab::parse(&pieces.join("\n")).unwrap()
    }

    fn pieces(text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        vocab().token_pieces(text, &mut out);
        out
    }

    fn id(piece: &str) -> u32 {
        vocab().id(piece).unwrap()
    }

    #[test]
    fn accents_are_stripped_after_lowercasing() {
        assert_eq!(pieces("Café"), [id("cafe")]);
        assert_eq!(pieces("CAFÉ"), [id("cafe")]);
        assert_eq!(pieces("cafe\u{301}"), [id("cafe")], "a combining accent");
    }

    #[test]
    fn continuation_pieces_match_longest_first() {
        assert_eq!(
            pieces("Unbelievable"),
            [id("un"), id("##believ"), id("##able")]
        );
        assert_eq!(
            pieces("unbelievablex"),
            [id("[UNK]")],
            "one miss spoils the word"
        );
    }

    #[test]
    fn punctuation_is_split_char_by_char() {
        assert_eq!(pieces("well-known"), [id("well"), id("-"), id("known")]);
        assert_eq!(pieces("“"), [id("“")], "a curly quote is category Pi");
        assert_eq!(pieces("”"), [id("”")], "and Pf");
        assert_eq!(pieces("'s"), [id("'"), id("s")]);
        assert_eq!(
            pieces("$"),
            [id("[UNK]")],
            "ASCII symbols split but are not in this vocab"
        );
        assert_eq!(basic_words("a$b"), ["a", "$", "b"]);
    }

    #[test]
    fn cjk_ideographs_are_words_of_their_own() {
        assert_eq!(basic_words("a中b"), ["a", "中", "b"]);
        assert_eq!(pieces("中"), [id("中")]);
    }

    #[test]
    fn control_characters_vanish_and_a_token_keeps_one_piece() {
        assert_eq!(
            pieces("\u{200B}said\u{0007}"),
            [id("said")],
            "Cf and Cc dropped"
        );
        assert_eq!(pieces("\u{0007}"), [id("[UNK]")]);
        assert_eq!(pieces("\u{FFFD}"), [id("[UNK]")]);
        assert_eq!(
            basic_words("a\u{00A0}b"),
            ["a", "b"],
            "no-break space is Zs"
        );
    }

    #[test]
    fn long_words_are_unknown() {
        let long = "a".repeat(101);
        assert_eq!(pieces(&long), [id("[UNK]")]);
        let just = format!("a{}", "b".repeat(99));
        assert_eq!(
            pieces(&just).len(),
            MAX_PIECES,
            "100 chars is WordPiece'd, then cut"
        );
    }

    #[test]
    fn a_token_keeps_its_first_sixteen_pieces() {
        let many = ",".repeat(40);
        assert_eq!(pieces(&many), vec![id(","); MAX_PIECES]);
    }

    #[test]
    fn bad_vocabularies_are_errors() {
        assert_eq!(
            Vocab::parse("[PAD]\n[UNK]\n[CLS]").unwrap_err(),
            VocabError::MissingSpecial("[SEP]")
        );
        assert!(matches!(
            Vocab::parse("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[UNK]"),
            Err(VocabError::Duplicate {
                line: 5,
                first: 2,
                ..
            })
        ));
    }
}
