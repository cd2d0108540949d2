//! The features of one token, for training and tagging alike.
//!
//! A token is described by its word (as written and in lower case), its shape
//! ("Xx", "X.X.", "d"), affixes, part-of-speech tag, the words and tags of its
//! neighbours in the sentence, whether it stands in a headline or a byline,
//! the word lists that match over it and its neighbours
//! ([`crate::gazetteer`]), and two facts about the whole article:
//! whether the word also appears in lower case (so a capital may only mark the
//! start of a sentence), and whether it appears capitalized inside a sentence
//! (so it is a name even where it opens one).
//!
//! A [`Context`] holds these for every token of a document once; [`extract`]
//! hands each feature of a token to a closure as the parts of its name, which
//! the trainer interns and the tagger hashes.

use std::collections::HashSet;

use attest_doc::{Doc, ParagraphRole, PosTag, Span};
use attest_learn::{Prehashed, first_chars, fnv1a64, last_chars};

use crate::gazetteer::{self, Kind};

/// What is known of one token, in 32-bit offsets as the document's spans
/// are: a context holds one for every token of the article, so its size is
/// most of the entity stage's memory per byte of text.
#[derive(Clone, Copy, Debug, Default)]
struct TokenFacts {
    /// Its text.
    raw: Span,
    /// Its lower-case form and its shape, as ranges of [`Context::scratch`].
    lower: (u32, u32),
    shape: (u32, u32),
    /// Its tag as a [`pos_name`] index.
    pos: u8,
    marks: u16,
    /// The first and last-plus-one token of its sentence.
    sentence: (u32, u32),
    headline: bool,
    byline: bool,
    /// The first word of its sentence, after any opening quotation marks or brackets.
    opens: bool,
    /// It holds a capital letter.
    capital: bool,
    /// Capitalized, and the same word appears in lower case in the article.
    lower_elsewhere: bool,
    /// Capitalized, and the same word appears capitalized inside a sentence.
    capital_inside: bool,
}

/// The facts of every token of a document.
#[derive(Debug)]
pub(crate) struct Context<'a> {
    text: &'a str,
    scratch: String,
    tokens: Vec<TokenFacts>,
}

impl Context<'_> {
    /// Reads the tokens, sentences, paragraphs and tags of a document.
    pub(crate) fn new(doc: &Doc) -> Context<'_> {
        let text = doc.text();
        let mut context = Context {
            text,
            scratch: String::with_capacity(text.len() * 2),
            tokens: Vec::with_capacity(doc.tokens().len()),
        };
        let pos = doc.pos();
        for (index, token) in doc.tokens().iter().enumerate() {
            let raw = token.span.get(text).unwrap_or_default();
            let lower_start = context.scratch.len();
            if raw.is_ascii() {
                context.scratch.push_str(raw);
                if let Some(pushed) = context.scratch.get_mut(lower_start..) {
                    pushed.make_ascii_lowercase();
                }
            } else {
                context
                    .scratch
                    .extend(raw.chars().flat_map(char::to_lowercase));
            }
            let lower = (offset(lower_start), offset(context.scratch.len()));
            let shape_start = context.scratch.len();
            push_shape(&mut context.scratch, raw);
            context.tokens.push(TokenFacts {
                raw: token.span,
                lower,
                shape: (offset(shape_start), offset(context.scratch.len())),
                pos: pos.get(index).map_or(NO_TAG, |tag| tag.index()) as u8,
                capital: if raw.is_ascii() {
                    raw.bytes().any(|b| b.is_ascii_uppercase())
                } else {
                    raw.chars().any(char::is_uppercase)
                },
                ..TokenFacts::default()
            });
        }
        for paragraph in doc.paragraphs() {
            let headline = paragraph.role == ParagraphRole::Headline;
            let byline = paragraph.role == ParagraphRole::Byline;
            let sentences = doc
                .sentences()
                .get(paragraph.sentences.start.index()..paragraph.sentences.end.index())
                .unwrap_or_default();
            for sentence in sentences {
                let bounds = (sentence.tokens.start.index(), sentence.tokens.end.index());
                let sentence_bounds = (offset(bounds.0), offset(bounds.1));
                let mut opened = false;
                for (facts, token) in context
                    .tokens
                    .get_mut(bounds.0..bounds.1)
                    .unwrap_or_default()
                    .iter_mut()
                    .zip(doc.tokens().get(bounds.0..bounds.1).unwrap_or_default())
                {
                    facts.sentence = sentence_bounds;
                    facts.headline = headline;
                    facts.byline = byline;
                    let word = token.span.get(text).unwrap_or_default();
                    if !opened && word.chars().any(char::is_alphanumeric) {
                        facts.opens = true;
                        opened = true;
                    }
                }
            }
        }
        context.mark_lists();
        context.mark_article_facts();
        context
    }

    /// Marks the word lists that match over each token, a sentence at a time,
    /// so that only one sentence's words are gathered at once.
    fn mark_lists(&mut self) {
        let mut words: Vec<&str> = Vec::new();
        let mut lower: Vec<&str> = Vec::new();
        let mut all_marks = Vec::with_capacity(self.tokens.len());
        let mut marks = Vec::new();
        let mut start = 0;
        while start < self.tokens.len() {
            let end = self.sentence_of(start).1.max(start + 1);
            words.clear();
            lower.clear();
            words.extend((start..end).map(|i| self.raw(i)));
            lower.extend((start..end).map(|i| self.lower(i)));
            gazetteer::mark(&words, &lower, &mut marks);
            all_marks.extend_from_slice(&marks);
            start = end;
        }
        for (facts, mark) in self.tokens.iter_mut().zip(all_marks) {
            facts.marks = mark;
        }
    }

    fn mark_article_facts(&mut self) {
        // Only the lower-case forms of capitalized words are worth looking for
        // among the lower-case words: a small set, where all of them would be a large one.
        let mut wanted: HashSet<u64, Prehashed> = HashSet::default();
        let mut capitals_inside: HashSet<u64, Prehashed> = HashSet::default();
        for i in 0..self.tokens.len() {
            let raw = self.raw(i);
            if !raw.chars().next().is_some_and(char::is_uppercase) {
                continue;
            }
            wanted.insert(fnv1a64(self.lower(i).as_bytes()));
            if self.tokens.get(i).is_some_and(|t| !t.headline && !t.opens)
                && raw.chars().skip(1).any(char::is_lowercase)
            {
                capitals_inside.insert(fnv1a64(raw.as_bytes()));
            }
        }
        let mut lower_words: HashSet<u64, Prehashed> = HashSet::default();
        for i in 0..self.tokens.len() {
            let raw = self.raw(i);
            if raw.chars().next().is_some_and(char::is_lowercase) {
                let hash = fnv1a64(raw.as_bytes());
                if wanted.contains(&hash) {
                    lower_words.insert(hash);
                }
            }
        }
        for i in 0..self.tokens.len() {
            let raw = self.raw(i);
            if !raw.chars().next().is_some_and(char::is_uppercase) {
                continue;
            }
            let lower_elsewhere = lower_words.contains(&fnv1a64(self.lower(i).as_bytes()));
            let capital_inside = capitals_inside.contains(&fnv1a64(raw.as_bytes()));
            if let Some(facts) = self.tokens.get_mut(i) {
                facts.lower_elsewhere = lower_elsewhere;
                facts.capital_inside = capital_inside;
            }
        }
    }

    /// The first and last-plus-one token of the sentence of token `i`.
    fn sentence_of(&self, i: usize) -> (usize, usize) {
        self.tokens.get(i).map_or((i, i + 1), |t| {
            (t.sentence.0 as usize, t.sentence.1 as usize)
        })
    }

    fn raw(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .and_then(|t| t.raw.get(self.text))
            .unwrap_or_default()
    }

    /// The lower-case word of token `i`.
    pub(crate) fn lower(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .and_then(|t| self.scratch.get(t.lower.0 as usize..t.lower.1 as usize))
            .unwrap_or_default()
    }

    fn shape(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .and_then(|t| self.scratch.get(t.shape.0 as usize..t.shape.1 as usize))
            .unwrap_or_default()
    }

    /// The token at `offset` from `i` inside its sentence, if there is one.
    fn neighbour(&self, i: usize, offset: isize) -> Option<usize> {
        let (start, end) = self.sentence_of(i);
        let at = i.checked_add_signed(offset)?;
        (start..end).contains(&at).then_some(at)
    }

    /// The lower-case word at `offset` from token `i`, or a sentence boundary mark.
    pub(crate) fn lower_at(&self, i: usize, offset: isize) -> &str {
        match self.neighbour(i, offset) {
            Some(at) => self.lower(at),
            None if offset < 0 => SENTENCE_START,
            None => SENTENCE_END,
        }
    }

    /// The tag index of the token at `offset` from token `i` (see [`pos_name`]).
    pub(crate) fn pos_at(&self, i: usize, offset: isize) -> usize {
        match self.neighbour(i, offset) {
            Some(at) => self.tokens.get(at).map_or(NO_TAG, |t| usize::from(t.pos)),
            None if offset < 0 => NO_TAG + 1,
            None => NO_TAG + 2,
        }
    }

    /// Whether token `i` or a neighbour holds a capital letter or is in a word
    /// list: a name, or a word next to one.
    pub(crate) fn near_name(&self, i: usize) -> bool {
        [-1, 0, 1].into_iter().any(|offset| {
            self.neighbour(i, offset)
                .and_then(|at| self.tokens.get(at))
                .is_some_and(|t| t.capital || t.marks != 0)
        })
    }

    /// The word-list marks of the token at `offset` from token `i`.
    pub(crate) fn marks_at(&self, i: usize, offset: isize) -> u16 {
        self.neighbour(i, offset)
            .and_then(|at| self.tokens.get(at))
            .map_or(0, |t| t.marks)
    }
}

/// Appends a word's shape: `X` for a run of capitals, `x` for a run of lower
/// case, `d` for a run of digits, other characters as they are.
fn push_shape(out: &mut String, word: &str) {
    if word.is_ascii() {
        let mut last = 0;
        for byte in word.bytes() {
            let class = match byte {
                b'A'..=b'Z' => b'X',
                b'a'..=b'z' => b'x',
                b'0'..=b'9' => b'd',
                other => other,
            };
            if last != class || !matches!(class, b'X' | b'x' | b'd') {
                out.push(char::from(class));
            }
            last = class;
        }
        return;
    }
    let mut last = None;
    for c in word.chars() {
        let class = match c {
            c if c.is_uppercase() => 'X',
            c if c.is_lowercase() => 'x',
            c if c.is_numeric() => 'd',
            c => c,
        };
        if last != Some(class) || !matches!(class, 'X' | 'x' | 'd') {
            out.push(class);
        }
        last = Some(class);
    }
}

/// The mark standing for the word before a sentence's first.
const SENTENCE_START: &str = "<s>";
/// The mark standing for the word after a sentence's last.
const SENTENCE_END: &str = "</s>";

/// The tag index of a token without a tag; the two after it stand for the
/// sentence boundaries.
const NO_TAG: usize = PosTag::NAMES.len();
// A token's tag index, and the two sentence-boundary ones after it, fit a byte.
const _: () = assert!(NO_TAG + 2 <= u8::MAX as usize);

/// A place in the text or the scratch as a [`TokenFacts`] keeps it. Spans are
/// 32-bit, so a text's offsets fit; the scratch (lower-case forms and shapes)
/// can only outgrow them for a text over a gigabyte, far past
/// `Limits::article_bytes`, where its words would read as empty.
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// How many tag indices there are: the tags, no tag, and the two boundaries.
pub(crate) const N_TAGS: usize = NO_TAG + 3;

/// The name of a tag index in feature names.
pub(crate) fn pos_name(index: usize) -> &'static str {
    match index.checked_sub(NO_TAG) {
        None => PosTag::from_index(index).map_or("", PosTag::name),
        Some(0) => "",
        Some(1) => SENTENCE_START,
        Some(_) => SENTENCE_END,
    }
}

/// The features naming a neighbour's lower-case word, and where it stands.
pub(crate) const WORD_AT: [(&str, isize); 4] =
    [("w-1=", -1), ("w+1=", 1), ("w-2=", -2), ("w+2=", 2)];
/// The features naming a token's or a neighbour's tag, and where it stands.
pub(crate) const POS_AT: [(&str, isize); 5] = [
    ("p=", 0),
    ("p-1=", -1),
    ("p+1=", 1),
    ("p-2=", -2),
    ("p+2=", 2),
];
/// The features naming the tags of two neighbouring tokens, and where the first stands.
pub(crate) const POS_PAIRS: [(&str, isize); 2] = [("p-1,p=", -1), ("p,p+1=", 0)];
/// The features naming the word lists that match a token or a neighbour.
pub(crate) const MARKS_AT: [(&str, isize); 3] = [("g=", 0), ("g-1=", -1), ("g+1=", 1)];
/// The feature of a capitalized word that the article also writes in lower case.
pub(crate) const LOWER_ELSEWHERE: &str = "lower-elsewhere";
/// The feature of a capitalized word the article also capitalizes inside a sentence.
pub(crate) const CAPITAL_INSIDE: &str = "capital-inside";
/// The feature every token has.
pub(crate) const BIAS: &str = "bias";

/// The features of a token's own lower-case word: the word and its affixes.
pub(crate) fn word_features(word: &str, emit: &mut impl FnMut(&[&str])) {
    emit(&["w=", word]);
    emit(&["s3=", last_chars(word, 3)]);
    emit(&["s4=", last_chars(word, 4)]);
    emit(&["pre3=", first_chars(word, 3)]);
}

/// The features of the word lists of `marks`, under `prefix`.
pub(crate) fn mark_features(prefix: &str, marks: u16, emit: &mut impl FnMut(&[&str])) {
    for kind in Kind::ALL {
        let (begin, inside) = kind.names();
        if marks & kind.bit(false) != 0 {
            emit(&[prefix, begin]);
        }
        if marks & kind.bit(true) != 0 {
            emit(&[prefix, inside]);
        }
    }
}

/// The features of token `i` from its word as written and its shape, alone or
/// with its tag or its place: too many values to tabulate ahead, so a tagger
/// looks each up.
pub(crate) fn combined_features(context: &Context<'_>, i: usize, emit: &mut impl FnMut(&[&str])) {
    let Some(facts) = context.tokens.get(i) else {
        return;
    };
    let shape = context.shape(i);
    emit(&["r=", context.raw(i)]);
    emit(&["sh=", shape]);
    emit(&["p,sh=", pos_name(usize::from(facts.pos)), " ", shape]);
    if facts.opens {
        emit(&["first,sh=", shape]);
    }
    if facts.headline {
        emit(&["headline,sh=", shape]);
    }
    if facts.byline {
        emit(&["byline,sh=", shape]);
    }
}

/// Whether token `i` has each of the two facts about the whole article.
pub(crate) fn article_facts(context: &Context<'_>, i: usize) -> (bool, bool) {
    context
        .tokens
        .get(i)
        .map_or((false, false), |t| (t.lower_elsewhere, t.capital_inside))
}

/// Hands every feature of token `i` to `emit`, as the parts of its name.
pub(crate) fn extract(context: &Context<'_>, i: usize, emit: &mut impl FnMut(&[&str])) {
    if i >= context.tokens.len() {
        return;
    }
    emit(&[BIAS]);
    word_features(context.lower(i), emit);
    for (name, offset) in WORD_AT {
        emit(&[name, context.lower_at(i, offset)]);
    }
    for (name, offset) in POS_AT {
        emit(&[name, pos_name(context.pos_at(i, offset))]);
    }
    for (name, offset) in POS_PAIRS {
        let first = pos_name(context.pos_at(i, offset));
        let second = pos_name(context.pos_at(i, offset + 1));
        emit(&[name, first, " ", second]);
    }
    for (name, offset) in MARKS_AT {
        mark_features(name, context.marks_at(i, offset), emit);
    }
    let (lower_elsewhere, capital_inside) = article_facts(context, i);
    if lower_elsewhere {
        emit(&[LOWER_ELSEWHERE]);
    }
    if capital_inside {
        emit(&[CAPITAL_INSIDE]);
    }
    combined_features(context, i, emit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokens_facts_stay_small() {
        // A context holds one per token: at 80 bytes, with every word of the
        // article gathered twice more, they were the entity stage's 25 MB of
        // memory per megabyte of article.
        assert!(std::mem::size_of::<TokenFacts>() <= 48);
    }

    #[test]
    fn shapes_collapse_letter_and_digit_runs() {
        let shape = |word: &str| {
            let mut out = String::new();
            push_shape(&mut out, word);
            out
        };
        assert_eq!(shape("McDonald's"), "XxXx'x");
        assert_eq!(shape("U.S."), "X.X.");
        assert_eq!(shape("1,200"), "d,d");
        assert_eq!(shape("NYPD"), "X");
        assert_eq!(shape("--"), "--");
        assert_eq!(shape("Ökonom-3"), "Xx-d", "not ASCII: by character");
    }
}
