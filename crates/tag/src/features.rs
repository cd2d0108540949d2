//! The features of one token, in the style of the greedy averaged perceptron
//! tagger: the word and its neighbours, affixes, shape and the two previous tags.
//!
//! Training and tagging share this code, so a model always sees the features it
//! was trained on; names are formatted into one reused buffer. Tagging hashes
//! the context features in [`context_hashes`], onto hashes of their prefixes
//! computed at compile time; a test checks that it finds the features
//! [`extract_context`] names.

use attest_learn::{
    FeatureTable, FeatureWriter, Scorer, first_chars as prefix, fnv1a64, fnv1a64_extend,
    last_chars as suffix,
};

/// The tag name used before the first token.
pub(crate) const START: &str = "-START-";

/// The words of one sentence with the normalized forms the features use,
/// kept in buffers that are reused from sentence to sentence.
#[derive(Default, Debug)]
pub(crate) struct Context {
    lower: String,
    lower_ends: Vec<usize>,
    norm: String,
    norm_ends: Vec<usize>,
    raw: String,
    raw_ends: Vec<usize>,
    shape: String,
    shape_ends: Vec<usize>,
}

impl Context {
    /// Fills the buffers for a sentence of words.
    pub(crate) fn set<'a>(&mut self, words: impl Iterator<Item = &'a str>) {
        self.lower.clear();
        self.lower_ends.clear();
        self.norm.clear();
        self.norm_ends.clear();
        self.raw.clear();
        self.raw_ends.clear();
        self.shape.clear();
        self.shape_ends.clear();
        for word in words {
            push_shape(&mut self.shape, word);
            self.shape_ends.push(self.shape.len());
            self.raw.push_str(word);
            self.raw_ends.push(self.raw.len());
            let lower_start = self.lower.len();
            if word.is_ascii() {
                self.lower.push_str(word);
                if let Some(lower) = self.lower.get_mut(lower_start..) {
                    lower.make_ascii_lowercase();
                }
            } else {
                for c in word.chars() {
                    self.lower.extend(c.to_lowercase());
                }
            }
            self.lower_ends.push(self.lower.len());
            let first_digit = word.chars().next().is_some_and(|c| c.is_ascii_digit());
            if word.contains('-') && !word.starts_with('-') && word.len() > 1 {
                self.norm.push_str("!HYPHEN");
            } else if word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()) {
                self.norm.push_str("!YEAR");
            } else if first_digit {
                self.norm.push_str("!DIGITS");
            } else {
                self.norm
                    .push_str(self.lower.get(lower_start..).unwrap_or_default());
            }
            self.norm_ends.push(self.norm.len());
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.raw_ends.len()
    }

    fn piece<'a>(text: &'a str, ends: &[usize], i: isize) -> &'a str {
        if i < 0 {
            return "-START-";
        }
        let i = i as usize;
        let Some(end) = ends.get(i) else {
            return "-END-";
        };
        let start = i
            .checked_sub(1)
            .and_then(|p| ends.get(p))
            .copied()
            .unwrap_or(0);
        text.get(start..*end).unwrap_or_default()
    }

    /// The word at `i` as written.
    pub(crate) fn raw(&self, i: isize) -> &str {
        Context::piece(&self.raw, &self.raw_ends, i)
    }

    fn lower(&self, i: isize) -> &str {
        Context::piece(&self.lower, &self.lower_ends, i)
    }

    fn norm(&self, i: isize) -> &str {
        Context::piece(&self.norm, &self.norm_ends, i)
    }

    fn shape(&self, i: isize) -> &str {
        Context::piece(&self.shape, &self.shape_ends, i)
    }
}

/// Appends a word's shape: X for upper case, x for lower, d for digits, other
/// characters as themselves, runs of one class written twice at most.
fn push_shape(out: &mut String, word: &str) {
    if word.is_ascii() {
        push_ascii_shape(out, word.as_bytes());
        return;
    }
    let mut previous = None;
    let mut run = 0;
    for c in word.chars() {
        let class = if c.is_uppercase() {
            'X'
        } else if c.is_lowercase() {
            'x'
        } else if c.is_numeric() {
            'd'
        } else {
            c
        };
        if Some(class) == previous {
            run += 1;
        } else {
            run = 1;
            previous = Some(class);
        }
        if run <= 2 {
            out.push(class);
        }
    }
}

/// [`push_shape`] of an ASCII word, a byte at a time: most words of English news.
fn push_ascii_shape(out: &mut String, word: &[u8]) {
    let mut previous = 0;
    let mut run = 0;
    for byte in word {
        let class = match byte {
            b'A'..=b'Z' => b'X',
            b'a'..=b'z' => b'x',
            b'0'..=b'9' => b'd',
            other => *other,
        };
        if class == previous {
            run += 1;
        } else {
            run = 1;
            previous = class;
        }
        if run <= 2 {
            out.push(char::from(class));
        }
    }
}

/// Where the features of a token go: ids to train on, or scores to tag by.
pub(crate) trait Sink {
    /// Takes the feature named by `parts` concatenated.
    fn feature(&mut self, parts: &[&str]);
}

/// Collects feature ids, adding new names to the table: training.
pub(crate) struct Interning<'a> {
    pub(crate) table: &'a mut FeatureTable,
    pub(crate) writer: &'a mut FeatureWriter,
}

impl Sink for Interning<'_> {
    fn feature(&mut self, parts: &[&str]) {
        self.writer.add_parts(self.table, parts);
    }
}

/// Collects the hashes of the features, for [`Scorer::add_all`]: tagging.
pub(crate) struct Hashing<'a> {
    pub(crate) hashes: &'a mut Vec<u64>,
}

impl Sink for Hashing<'_> {
    fn feature(&mut self, parts: &[&str]) {
        self.hashes.push(Scorer::hash(parts));
    }
}

/// Sends the features of token `i`, given the two previous tags, to `out`.
pub(crate) fn extract<S: Sink>(
    out: &mut S,
    context: &Context,
    i: usize,
    previous: &str,
    previous2: &str,
) {
    extract_word(out, context, i);
    extract_context(out, context, i, previous, previous2);
}

/// The features of token `i` that depend on its word alone: a model can sum
/// their weights per known word ahead of time.
pub(crate) fn extract_word<S: Sink>(out: &mut S, context: &Context, i: usize) {
    let i = i as isize;
    let word = context.raw(i);
    let lower = context.lower(i);
    let norm = context.norm(i);
    let shape = context.shape(i);
    out.feature(&["bias"]);
    out.feature(&["w ", norm]);
    out.feature(&["raw ", word]);
    out.feature(&["s1 ", suffix(lower, 1)]);
    out.feature(&["s2 ", suffix(lower, 2)]);
    out.feature(&["s3 ", suffix(lower, 3)]);
    out.feature(&["s4 ", suffix(lower, 4)]);
    out.feature(&["p1 ", prefix(word, 1)]);
    out.feature(&["p3 ", prefix(lower, 3)]);
    out.feature(&["shape ", shape]);
}

/// The start of a feature's name and its hash, onto which tagging hashes the rest.
pub(crate) struct Prefix {
    pub(crate) name: &'static str,
    hash: u64,
}

impl Prefix {
    const fn new(name: &'static str) -> Prefix {
        Prefix {
            name,
            hash: fnv1a64(name.as_bytes()),
        }
    }

    /// The hash of the name `self.name` followed by `parts`.
    fn hash(&self, parts: &[&str]) -> u64 {
        parts.iter().fold(self.hash, |hash, part| {
            fnv1a64_extend(hash, part.as_bytes())
        })
    }
}

const T1: Prefix = Prefix::new("t1 ");
const T2: Prefix = Prefix::new("t2 ");
const T12: Prefix = Prefix::new("t12 ");
pub(crate) const T1_WORD: Prefix = Prefix::new("t1w ");
pub(crate) const T1_SHAPE: Prefix = Prefix::new("t1shape ");
const WORD_BEFORE: Prefix = Prefix::new("w-1 ");
const SUFFIX_BEFORE: Prefix = Prefix::new("s3-1 ");
const WORD_BEFORE2: Prefix = Prefix::new("w-2 ");
const WORD_AFTER: Prefix = Prefix::new("w+1 ");
const SUFFIX_AFTER: Prefix = Prefix::new("s3+1 ");
const WORD_AFTER2: Prefix = Prefix::new("w+2 ");
const WORD_NEXT: Prefix = Prefix::new("w w+1 ");
const PREVIOUS_WORD: Prefix = Prefix::new("w-1 w ");
const SHAPE_AFTER: Prefix = Prefix::new("shape+1 ");

/// The features of token `i` that depend on its neighbours and the previous tags.
pub(crate) fn extract_context<S: Sink>(
    out: &mut S,
    context: &Context,
    i: usize,
    previous: &str,
    previous2: &str,
) {
    let i = i as isize;
    let norm = context.norm(i);
    let shape = context.shape(i);
    extract_tags(out, previous, previous2);
    out.feature(&[T1_WORD.name, previous, " ", norm]);
    out.feature(&[T1_SHAPE.name, previous, " ", shape]);
    out.feature(&[WORD_BEFORE.name, context.norm(i - 1)]);
    out.feature(&[SUFFIX_BEFORE.name, suffix(context.lower(i - 1), 3)]);
    out.feature(&[WORD_BEFORE2.name, context.norm(i - 2)]);
    out.feature(&[WORD_AFTER.name, context.norm(i + 1)]);
    out.feature(&[SUFFIX_AFTER.name, suffix(context.lower(i + 1), 3)]);
    out.feature(&[WORD_AFTER2.name, context.norm(i + 2)]);
    out.feature(&[WORD_NEXT.name, norm, " ", context.norm(i + 1)]);
    out.feature(&[PREVIOUS_WORD.name, context.norm(i - 1), " ", norm]);
    out.feature(&[SHAPE_AFTER.name, context.shape(i + 1)]);
}

/// The features of the two previous tags alone: a model can sum their weights
/// per pair of tags ahead of time.
pub(crate) fn extract_tags<S: Sink>(out: &mut S, previous: &str, previous2: &str) {
    out.feature(&[T1.name, previous]);
    out.feature(&[T2.name, previous2]);
    out.feature(&[T12.name, previous, " ", previous2]);
}

/// The hash of the start of a feature that goes on with the previous tag and a
/// space (`T1_WORD` or `T1_SHAPE`), computed per tag when a model loads.
pub(crate) fn tag_prefix_hash(prefix: &Prefix, previous: &str) -> u64 {
    prefix.hash(&[previous, " "])
}

/// Pushes the hashes of the features of [`extract_context`] but those of
/// [`extract_tags`], given the
/// hashes of the starts of the `t1w` and `t1shape` features for the previous
/// tag (see [`tag_prefix_hash`]).
pub(crate) fn context_hashes(
    context: &Context,
    i: usize,
    t1_word: u64,
    t1_shape: u64,
    out: &mut Vec<u64>,
) {
    let i = i as isize;
    let norm = context.norm(i);
    out.extend([
        fnv1a64_extend(t1_word, norm.as_bytes()),
        fnv1a64_extend(t1_shape, context.shape(i).as_bytes()),
        WORD_BEFORE.hash(&[context.norm(i - 1)]),
        SUFFIX_BEFORE.hash(&[suffix(context.lower(i - 1), 3)]),
        WORD_BEFORE2.hash(&[context.norm(i - 2)]),
        WORD_AFTER.hash(&[context.norm(i + 1)]),
        SUFFIX_AFTER.hash(&[suffix(context.lower(i + 1), 3)]),
        WORD_AFTER2.hash(&[context.norm(i + 2)]),
        WORD_NEXT.hash(&[norm, " ", context.norm(i + 1)]),
        PREVIOUS_WORD.hash(&[context.norm(i - 1), " ", norm]),
        SHAPE_AFTER.hash(&[context.shape(i + 1)]),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_collapse_runs() {
        let shape = |word: &str| {
            let mut out = String::new();
            push_shape(&mut out, word);
            out
        };
        assert_eq!(shape("McDonald's"), "XxXxx'x");
        assert_eq!(shape("1,200"), "d,dd");
        assert_eq!(shape("U.S."), "X.X.");
        assert_eq!(shape("Éclair-42"), "Xxx-dd", "not ASCII: by character");
        assert_eq!(shape("ÅÅÅ"), "XX");
    }

    #[test]
    fn context_normalizes_numbers_and_hyphens() {
        let mut context = Context::default();
        context.set(["In", "2016", "well-known", "42nd", "Voters"].into_iter());
        assert_eq!(context.len(), 5);
        assert_eq!(context.norm(0), "in");
        assert_eq!(context.norm(1), "!YEAR");
        assert_eq!(context.norm(2), "!HYPHEN");
        assert_eq!(context.norm(3), "!DIGITS");
        assert_eq!(context.norm(4), "voters");
        assert_eq!(context.raw(4), "Voters");
        assert_eq!(context.norm(-1), START);
        assert_eq!(context.norm(5), "-END-");
        assert_eq!(context.shape(4), "Xxx");
        context.set(["ÉTAT", "Ünïon"].into_iter());
        assert_eq!(context.norm(0), "état");
        assert_eq!(context.norm(1), "ünïon");
    }

    #[test]
    fn context_hashes_are_those_of_the_named_features() {
        let mut context = Context::default();
        context.set(["The", "well-known", "Café", "closed", "."].into_iter());
        for i in 0..context.len() {
            for (p, p2) in [("NN", "DT"), (START, START)] {
                let mut named = Vec::new();
                extract_context(&mut Hashing { hashes: &mut named }, &context, i, p, p2);
                let mut fast = Vec::new();
                context_hashes(
                    &context,
                    i,
                    tag_prefix_hash(&T1_WORD, p),
                    tag_prefix_hash(&T1_SHAPE, p),
                    &mut fast,
                );
                // The first three named features are extract_tags'.
                assert_eq!(fast, named[3..], "token {i} after {p} {p2}");
            }
        }
    }
}
