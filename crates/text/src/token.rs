//! The tokenizer: splits a paragraph into tokens, following the Penn Treebank
//! conventions that CoreNLP and the PolNeAR silver layer use.
//!
//! Tokens are spans of the original text, never rewritten: "n’t" stays curly and
//! "—" stays an em dash. Whitespace separates tokens and is never part of one,
//! except inside a markup tag (`<tweet author="x">`), which is one token as in
//! CoreNLP.

use attest_doc::{Span, Token, TokenKind};

use crate::abbrev;

/// Appends the tokens of `text[start..end]` to `out`.
pub(crate) fn tokenize_range(text: &str, start: usize, end: usize, out: &mut Vec<Token>) {
    let mut lexer = Lexer {
        text: &text[..end],
        out,
    };
    let mut pos = start;
    while let Some(ch) = lexer.peek(pos) {
        if is_space(ch) {
            pos += ch.len_utf8();
            continue;
        }
        pos = lexer.lex_one(pos, ch);
    }
}

/// Whitespace, including the no-break and zero-width spaces that web text carries.
pub(crate) fn is_space(ch: char) -> bool {
    ch.is_whitespace()
        || matches!(
            ch,
            '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}'
        )
}

fn is_word_char(ch: char) -> bool {
    ch.is_alphanumeric() || is_combining(ch)
}

fn is_combining(ch: char) -> bool {
    matches!(ch, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

fn is_apostrophe(ch: char) -> bool {
    matches!(ch, '\'' | '’' | 'ʼ')
}

fn is_hyphen(ch: char) -> bool {
    matches!(ch, '-' | '\u{2010}' | '\u{2011}')
}

/// Characters that close a URL or e-mail address when they end it.
fn is_trailing_punct(ch: char) -> bool {
    matches!(
        ch,
        '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']' | '}' | '\'' | '"' | '’' | '”' | '»'
    )
}

struct Lexer<'t, 'o> {
    text: &'t str,
    out: &'o mut Vec<Token>,
}

impl Lexer<'_, '_> {
    fn peek(&self, pos: usize) -> Option<char> {
        self.text.get(pos..)?.chars().next()
    }

    fn starts_with(&self, pos: usize, prefix: &str) -> bool {
        self.text.get(pos..).is_some_and(|rest| {
            rest.len() >= prefix.len()
                && rest.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        })
    }

    fn push(&mut self, start: usize, end: usize, kind: TokenKind) {
        if start < end {
            self.out.push(Token {
                span: Span::must(start, end),
                kind,
            });
        }
    }

    /// The end of the run of non-space characters at `pos`.
    fn chunk_end(&self, pos: usize) -> usize {
        let rest = &self.text[pos..];
        rest.find(is_space)
            .map_or(self.text.len(), |offset| pos + offset)
    }

    /// Lexes the token at `pos`, whose first character is `ch`, and returns the
    /// position after it.
    fn lex_one(&mut self, pos: usize, ch: char) -> usize {
        if let Some(end) = self.url_end(pos) {
            self.push(pos, end, TokenKind::Url);
            return end;
        }
        if is_word_char(ch) {
            if let Some(end) = self.email_end(pos) {
                self.push(pos, end, TokenKind::Email);
                return end;
            }
            return self.lex_word(pos);
        }
        let next = self.peek(pos + ch.len_utf8());
        match ch {
            '<' => {
                if let Some(end) = self.markup_end(pos) {
                    self.push(pos, end, TokenKind::Markup);
                    return end;
                }
                self.single(pos, ch, TokenKind::Symbol)
            }
            '@' if next.is_some_and(|c| c.is_alphanumeric() || c == '_') => {
                let end = self.scan(pos + 1, |c| c.is_alphanumeric() || c == '_');
                self.push(pos, end, TokenKind::Handle);
                end
            }
            '#' if next.is_some_and(|c| c.is_alphanumeric()) => {
                let end = self.scan(pos + 1, |c| c.is_alphanumeric() || c == '_');
                self.push(pos, end, TokenKind::Hashtag);
                end
            }
            '`' => {
                let end = self.scan(pos, |c| c == '`').min(pos + 2);
                self.push(pos, end, TokenKind::Quote);
                end
            }
            '\'' | '’' | '‘' => self.lex_apostrophe(pos, ch),
            '"' | '“' | '”' | '„' | '«' | '»' | '‹' | '›' | '‟' => {
                self.single(pos, ch, TokenKind::Quote)
            }
            '-' => {
                let end = self.scan(pos, |c| c == '-');
                self.push(pos, end, TokenKind::Dash);
                end
            }
            '—' | '–' | '―' | '‒' => self.single(pos, ch, TokenKind::Dash),
            '.' => {
                let end = self.ellipsis_end(pos);
                self.push(pos, end, TokenKind::Punct);
                end
            }
            '!' | '?' => {
                let end = self.scan(pos, |c| c == '!' || c == '?');
                self.push(pos, end, TokenKind::Punct);
                end
            }
            '_' | '*' | '=' | '~' | '+' | '#' => {
                let end = self.scan(pos, |c| c == ch);
                let kind = if ch == '_' {
                    TokenKind::Punct
                } else {
                    TokenKind::Symbol
                };
                self.push(pos, end, kind);
                end
            }
            _ if is_symbol(ch) => self.single(pos, ch, TokenKind::Symbol),
            _ => self.single(pos, ch, TokenKind::Punct),
        }
    }

    fn single(&mut self, pos: usize, ch: char, kind: TokenKind) -> usize {
        let end = pos + ch.len_utf8();
        self.push(pos, end, kind);
        end
    }

    /// The end of the run of characters satisfying `pred` from `pos`.
    fn scan(&self, pos: usize, pred: impl Fn(char) -> bool) -> usize {
        let rest = &self.text[pos..];
        rest.find(|c: char| !pred(c))
            .map_or(self.text.len(), |offset| pos + offset)
    }

    /// "..." and ". . ." are one token; a lone "." is one token.
    fn ellipsis_end(&self, pos: usize) -> usize {
        if self.starts_with(pos, ". . .") {
            return pos + 5;
        }
        let end = self.scan(pos, |c| c == '.');
        if end - pos >= 2 { end } else { pos + 1 }
    }

    fn starts_url(&self, pos: usize) -> bool {
        self.starts_with(pos, "http://")
            || self.starts_with(pos, "https://")
            || self.starts_with(pos, "www.")
            || self.starts_with(pos, "pic.twitter.com/")
    }

    fn url_end(&self, pos: usize) -> Option<usize> {
        if !self.starts_url(pos) {
            return None;
        }
        let chunk_end = self.chunk_end(pos);
        let chunk = &self.text[pos..chunk_end];
        let stop = chunk.find(['<', '>', '"', '“', '”']).unwrap_or(chunk.len());
        let url = chunk[..stop].trim_end_matches(|c: char| {
            is_trailing_punct(c) && !(c == ')' && chunk[..stop].contains('('))
        });
        (url.len() > 4).then_some(pos + url.len())
    }

    fn email_end(&self, pos: usize) -> Option<usize> {
        let chunk = &self.text[pos..self.chunk_end(pos)];
        let at = chunk.find('@')?;
        let local = &chunk[..at];
        if local.is_empty()
            || !local
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'))
        {
            return None;
        }
        let domain_len = chunk[at + 1..]
            .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-'))
            .unwrap_or(chunk.len() - at - 1);
        let domain = chunk[at + 1..at + 1 + domain_len].trim_end_matches(['.', '-']);
        let has_dot = domain.contains('.') && !domain.starts_with('.');
        has_dot.then_some(pos + at + 1 + domain.len())
    }

    fn markup_end(&self, pos: usize) -> Option<usize> {
        let after = self.peek(pos + 1)?;
        if !(after.is_ascii_alphabetic() || after == '/' || after == '!') {
            return None;
        }
        let rest = self.text.get(pos..)?;
        let window = &rest[..floor_char_boundary(rest, 2000)];
        let close = window[1..].find(['>', '<']).map(|at| at + 1)?;
        (window.as_bytes()[close] == b'>').then_some(pos + close + 1)
    }

    /// An apostrophe that does not sit inside a word: a quotation mark, a doubled
    /// `''` quotation mark, or the start of "'90s", "'16" or "'em".
    fn lex_apostrophe(&mut self, pos: usize, ch: char) -> usize {
        let after = pos + ch.len_utf8();
        if ch == '\'' && self.peek(after) == Some('\'') {
            self.push(pos, after + 1, TokenKind::Quote);
            return after + 1;
        }
        let digits_end = self.scan(after, |c| c.is_ascii_digit());
        if digits_end - after == 2 {
            let end = if self.peek(digits_end) == Some('s') {
                digits_end + 1
            } else {
                digits_end
            };
            if !self.peek(end).is_some_and(is_word_char) {
                self.push(pos, end, TokenKind::Word);
                return end;
            }
        }
        if self.starts_with(after, "em") && !self.peek(after + 2).is_some_and(is_word_char) {
            self.push(pos, after + 2, TokenKind::Word);
            return after + 2;
        }
        self.single(pos, ch, TokenKind::Quote)
    }

    /// A word or number, with its inner joiners ("front-runner", "U.S.", "1,200",
    /// "9/11", "AT&T"), its abbreviation period, and its clitics split off.
    fn lex_word(&mut self, start: usize) -> usize {
        let mut pos = start;
        let mut prev = '\0';
        while let Some(ch) = self.peek(pos) {
            if is_word_char(ch) {
                prev = ch;
                pos += ch.len_utf8();
                continue;
            }
            let after = pos + ch.len_utf8();
            let Some(next) = self.peek(after) else { break };
            if is_apostrophe(ch) && next.is_alphabetic() {
                if let Some(clitic_start) = self.clitic_at(start, pos, prev) {
                    return self.finish_word_with_clitic(start, clitic_start);
                }
                prev = ch;
                pos = after;
                continue;
            }
            let joins = match ch {
                _ if is_hyphen(ch) => is_word_char(next),
                // A link pasted after a sentence with no space, as tweets are
                // quoted ("…on the 30th.https://t.co/…"), is not part of the word.
                '.' if self.starts_url(after) => false,
                '.' => {
                    (is_word_char(next) && (next.is_alphabetic() || prev.is_ascii_digit()))
                        || (is_hyphen(next)
                            && self.text[start..pos].contains('.')
                            && self
                                .peek(after + next.len_utf8())
                                .is_some_and(char::is_alphabetic))
                }
                ',' => prev.is_ascii_digit() && self.is_thousands_group(after),
                '/' => is_word_char(next),
                ':' => prev.is_ascii_digit() && next.is_ascii_digit(),
                '&' => prev.is_uppercase() && next.is_uppercase(),
                '_' => is_word_char(next),
                _ => false,
            };
            if !joins {
                break;
            }
            prev = ch;
            pos = after;
        }
        let word = &self.text[start..pos];
        if let Some(split) = contraction_split(word) {
            self.push(start, start + split, TokenKind::Word);
            self.push(start + split, pos, TokenKind::Clitic);
            return pos;
        }
        let end = if self.peek(pos) == Some('.')
            && takes_period(word)
            && (!abbrev::is_number_abbreviation(word) || self.digit_follows(pos + 1))
        {
            pos + 1
        } else {
            pos
        };
        self.push(start, end, word_kind(&self.text[start..end]));
        end
    }

    /// At an apostrophe inside a word: where a clitic starts, if one does.
    fn clitic_at(&self, word_start: usize, apostrophe: usize, prev: char) -> Option<usize> {
        let apostrophe_char = self.peek(apostrophe)?;
        let after = apostrophe + apostrophe_char.len_utf8();
        let letters_end = self.scan(after, char::is_alphabetic);
        if self.peek(letters_end).is_some_and(is_word_char) {
            return None;
        }
        let letters = &self.text[after..letters_end];
        let lower = letters.to_ascii_lowercase();
        if matches!(lower.as_str(), "t") && matches!(prev, 'n' | 'N') {
            let n_pos = apostrophe - 1;
            return (n_pos > word_start).then_some(n_pos);
        }
        matches!(lower.as_str(), "s" | "re" | "ve" | "ll" | "d" | "m").then_some(apostrophe)
    }

    fn finish_word_with_clitic(&mut self, start: usize, clitic_start: usize) -> usize {
        self.push(
            start,
            clitic_start,
            word_kind(&self.text[start..clitic_start]),
        );
        let apostrophe_or_n = self.peek(clitic_start).map_or(1, char::len_utf8);
        let mut end = clitic_start + apostrophe_or_n;
        if !is_apostrophe(self.peek(clitic_start).unwrap_or(' ')) {
            end += self.peek(end).map_or(0, char::len_utf8);
        }
        end = self.scan(end, char::is_alphabetic);
        self.push(clitic_start, end, TokenKind::Clitic);
        end
    }

    /// Whether the next non-space character after `pos` is a digit.
    fn digit_follows(&self, pos: usize) -> bool {
        let rest = self.text.get(pos..).unwrap_or("");
        rest.trim_start_matches(is_space)
            .starts_with(|c: char| c.is_ascii_digit())
    }

    fn is_thousands_group(&self, pos: usize) -> bool {
        let digits_end = self.scan(pos, |c| c.is_ascii_digit());
        digits_end - pos == 3
    }
}

/// The split point of a contraction PTB writes as two tokens without an
/// apostrophe: "cannot" is "can" + "not", "gonna" is "gon" + "na".
fn contraction_split(word: &str) -> Option<usize> {
    let lower = word.to_ascii_lowercase();
    match lower.as_str() {
        "cannot" => Some(3),
        "gonna" | "wanna" | "gotta" => Some(3),
        _ => None,
    }
}

/// Whether a word followed by "." keeps the period as part of itself.
///
/// Hyphenated words never do ("R-Fla" + "."), as in PTB; the sentence splitter
/// still reads that period as an abbreviation's. Numbers never do either: the
/// period after "$7.2bn" ends a sentence, where the one after "U.S" is part of
/// the initialism.
pub(crate) fn takes_period(word: &str) -> bool {
    if word.contains(is_hyphen) {
        return false;
    }
    if word.contains('.') {
        return !word.contains(|c: char| c.is_ascii_digit())
            && word.chars().last().is_some_and(char::is_alphabetic);
    }
    let mut chars = word.chars();
    let single_capital =
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_uppercase());
    single_capital || abbrev::is_abbreviation(word)
}

/// Whether the last part of a hyphenated word is an abbreviation ("D-Ill").
pub(crate) fn ends_in_abbreviation(word: &str) -> bool {
    word.contains(is_hyphen)
        && word
            .rsplit(is_hyphen)
            .next()
            .is_some_and(abbrev::is_abbreviation)
}

fn word_kind(word: &str) -> TokenKind {
    if word.chars().any(char::is_alphabetic) {
        TokenKind::Word
    } else {
        TokenKind::Number
    }
}

fn is_symbol(ch: char) -> bool {
    matches!(
        ch,
        '$' | '€'
            | '£'
            | '¥'
            | '₹'
            | '¢'
            | '%'
            | '‰'
            | '&'
            | '+'
            | '='
            | '*'
            | '^'
            | '~'
            | '|'
            | '\\'
            | '§'
            | '¶'
            | '©'
            | '®'
            | '™'
            | '°'
            | '#'
            | '@'
            | '>'
            | '<'
            | '•'
            | '·'
            | '×'
            | '÷'
            | '±'
    ) || (!ch.is_ascii() && !is_general_punctuation(ch))
}

/// Non-ASCII punctuation that is not a symbol: brackets, inverted marks, the
/// General Punctuation block's dots and daggers.
fn is_general_punctuation(ch: char) -> bool {
    matches!(
        ch,
        '¡' | '¿'
            | '…'
            | '‹'
            | '›'
            | '«'
            | '»'
            | '（'
            | '）'
            | '、'
            | '。'
            | '，'
            | '：'
            | '；'
            | '！'
            | '？'
    ) || ('\u{2000}'..='\u{206F}').contains(&ch)
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use attest_doc::Limits;

    fn check(text: &str, expected: &str) {
        let segmentation = crate::segment(text, &Limits::DEFAULT);
        let tokens: Vec<&str> = segmentation
            .tokens
            .iter()
            .map(|t| t.span.slice(text))
            .collect();
        assert_eq!(tokens.join(" | "), expected, "tokens of {text:?}");
    }

    #[test]
    fn abbreviations_and_initials_keep_their_period() {
        check(
            "Sen. Warren and Gov. J. B. Pritzker met Rep. Lee on Jan. 5 at 10 St. Mark's Pl.",
            "Sen. | Warren | and | Gov. | J. | B. | Pritzker | met | Rep. | Lee | on | Jan. | 5 | at | 10 | St. | Mark | 's | Pl | .",
        );
        check(
            "Acme Inc. and the U.S. Army",
            "Acme | Inc. | and | the | U.S. | Army",
        );
        check("No. 2 seed", "No. | 2 | seed");
        check(
            "The answer was no. Then",
            "The | answer | was | no | . | Then",
        );
    }

    #[test]
    fn numbers_money_and_times_stay_whole() {
        check(
            "$1.2 billion, 7.2bn, 1,200 workers, 12% at 7:30 p.m. on 9/11, the 21st",
            "$ | 1.2 | billion | , | 7.2bn | , | 1,200 | workers | , | 12 | % | at | 7:30 | p.m. | on | 9/11 | , | the | 21st",
        );
        check("It paid $7.2bn. Then", "It | paid | $ | 7.2bn | . | Then");
    }

    #[test]
    fn clitics_split_as_in_the_penn_treebank() {
        check(
            "O’Malley’s aide can’t, won't and cannot say; they're gonna.",
            "O’Malley | ’s | aide | ca | n’t | , | wo | n't | and | can | not | say | ; | they | 're | gon | na | .",
        );
        check(
            "the Joneses' house in the '90s",
            "the | Joneses | ' | house | in | the | '90s",
        );
    }

    #[test]
    fn web_tokens_stay_whole() {
        check(
            "See https://example.org/a?b=1. Mail desk@example.com, @AttestNews or #Vote2026!",
            "See | https://example.org/a?b=1 | . | Mail | desk@example.com | , | @AttestNews | or | #Vote2026 | !",
        );
        check(
            "Polls close on the 30th.https://t.co/AbC12 and www.example.org",
            "Polls | close | on | the | 30th | . | https://t.co/AbC12 | and | www.example.org",
        );
        check(
            "A post<tweet id=\"1\">here</tweet>.",
            "A | post | <tweet id=\"1\"> | here | </tweet> | .",
        );
    }

    #[test]
    fn quotes_dashes_and_hyphens() {
        check(
            "“Front-runner” -- 'yes' — and ''no'' — AT&T’s e-mail…",
            "“ | Front-runner | ” | -- | ' | yes | ' | — | and | '' | no | '' | — | AT&T | ’s | e-mail | …",
        );
        check("He said . . . nothing", "He | said | . . . | nothing");
    }
}
