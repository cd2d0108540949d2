//! Every token's word in one folded form, computed once when a document is
//! segmented, so that the stages that match words against lists read the same
//! form and none of them lowercases the article again.
//!
//! The form is the word lowercased (Unicode case folding by
//! `char::to_lowercase`), with typographic apostrophes (’ ‘) written `'`, so
//! that "Didn’t" and "didn't" are one word. Learned models hash their own
//! features and do not read it: a model's features change only when it is
//! retrained.

use crate::Token;

/// The folded words of a document's tokens, one string for the article.
#[derive(Clone, Debug, Default)]
pub struct FoldedWords {
    text: String,
    ends: Vec<usize>,
}

impl FoldedWords {
    /// The folded words of `tokens`, spans of `text`.
    pub fn of(text: &str, tokens: &[Token]) -> FoldedWords {
        let mut folded = String::with_capacity(text.len());
        let mut ends = Vec::with_capacity(tokens.len());
        for token in tokens {
            fold_into(&mut folded, token.span.get(text).unwrap_or(""));
            ends.push(folded.len());
        }
        FoldedWords { text: folded, ends }
    }

    /// Token `index`'s folded word, or `""` past the end, so that matchers
    /// looking ahead need no bounds checks.
    pub fn get(&self, index: usize) -> &str {
        let start = match index.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.ends.get(index).copied().unwrap_or(start);
        self.text.get(start..end).unwrap_or("")
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Appends `word` in the folded form.
fn fold_into(out: &mut String, word: &str) {
    let start = out.len();
    if word.is_ascii() {
        out.push_str(word);
        if let Some(pushed) = out.get_mut(start..) {
            pushed.make_ascii_lowercase();
        }
        return;
    }
    for c in word.chars() {
        out.extend(if matches!(c, '’' | '‘') { '\'' } else { c }.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Span, TokenKind};

    fn tokens(text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        let mut at = 0;
        for word in text.split(' ') {
            out.push(Token {
                span: Span::try_new(at, at + word.len()).unwrap(),
                kind: TokenKind::Word,
            });
            at += word.len() + 1;
        }
        out
    }

    #[test]
    fn words_are_lowercased_with_straight_apostrophes() {
        let text = "Didn’t ÉTÉ say It's N’T";
        let folded = FoldedWords::of(text, &tokens(text));
        let words: Vec<&str> = (0..folded.len()).map(|i| folded.get(i)).collect();
        assert_eq!(words, ["didn't", "été", "say", "it's", "n't"]);
        assert_eq!(folded.get(5), "");
        assert_eq!(folded.get(usize::MAX), "");
    }
}
