//! The features of one token, in the style of the greedy averaged perceptron
//! tagger: the word and its neighbours, affixes, shape and the two previous tags.
//!
//! Training and tagging share this code, so a model always sees the features it
//! was trained on; names are formatted into one reused buffer.

use attest_learn::{
    FeatureTable, FeatureWriter, Scorer, first_chars as prefix, last_chars as suffix,
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
            for c in word.chars() {
                self.lower.extend(c.to_lowercase());
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
    let (p, p2) = (previous, previous2);
    out.feature(&["t1 ", p]);
    out.feature(&["t2 ", p2]);
    out.feature(&["t12 ", p, " ", p2]);
    out.feature(&["t1w ", p, " ", norm]);
    out.feature(&["t1shape ", p, " ", shape]);
    out.feature(&["w-1 ", context.norm(i - 1)]);
    out.feature(&["s3-1 ", suffix(context.lower(i - 1), 3)]);
    out.feature(&["w-2 ", context.norm(i - 2)]);
    out.feature(&["w+1 ", context.norm(i + 1)]);
    out.feature(&["s3+1 ", suffix(context.lower(i + 1), 3)]);
    out.feature(&["w+2 ", context.norm(i + 2)]);
    out.feature(&["w w+1 ", norm, " ", context.norm(i + 1)]);
    out.feature(&["w-1 w ", context.norm(i - 1), " ", norm]);
    out.feature(&["shape+1 ", context.shape(i + 1)]);
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
    }
}
