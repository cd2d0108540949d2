//! The number grammar both taggers share: digits ("1,200", "7.2bn"), words
//! ("twenty-five", "a dozen", "three hundred thousand"), mixes ("1.2 billion"),
//! vague amounts ("hundreds", "tens of thousands") and fractions ("two-thirds").

use attest_doc::TokenView;

/// A number read from the tokens `start..end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Number {
    pub(crate) low: f64,
    pub(crate) high: f64,
    pub(crate) end: usize,
    pub(crate) form: Form,
    /// The scale word or suffix that multiplied it, 1 when none did.
    pub(crate) scale: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Written in digits, possibly with a scale ("1.2 billion", "7.2bn").
    Digits {
        /// Whether a scale word or suffix multiplied it.
        scaled: bool,
    },
    /// Spelled out ("four", "a dozen").
    Words,
    /// A plural of a scale: a lower bound, not a value ("hundreds").
    Vague,
    /// A part of a whole ("two-thirds", "a quarter of").
    Fraction,
}

/// The number words from "zero" to "nineteen", each at its value.
const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];

/// The tens from "twenty" to "ninety", in order.
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// The value of "0".."99" spelled as one word or a hyphenated pair.
pub(crate) fn small_word(lower: &str) -> Option<f64> {
    if let Some((tens, ones)) = lower.split_once('-') {
        let t = tens_word(tens)?;
        let o = digit_word(ones)?;
        return Some(t + o);
    }
    unit_word(lower).or_else(|| tens_word(lower))
}

/// The value of "zero".."nineteen".
fn unit_word(lower: &str) -> Option<f64> {
    UNITS
        .iter()
        .position(|word| *word == lower)
        .map(|v| v as f64)
}

/// The value of "one".."nine": a word that counts the parts of a fraction or
/// ends a hyphenated pair ("twenty-one").
fn digit_word(lower: &str) -> Option<f64> {
    unit_word(lower).filter(|v| (1.0..10.0).contains(v))
}

/// The value of "twenty".."ninety".
fn tens_word(lower: &str) -> Option<f64> {
    TENS.iter()
        .position(|word| *word == lower)
        .map(|i| 10.0 * (i + 2) as f64)
}

/// The multiplier of a scale word or its newsroom abbreviation.
pub(crate) fn scale_word(lower: &str) -> Option<f64> {
    let v = match lower {
        "hundred" => 1e2,
        "thousand" => 1e3,
        "million" | "mln" | "mn" => 1e6,
        "billion" | "bn" | "bln" => 1e9,
        "trillion" | "tn" | "trn" => 1e12,
        _ => return None,
    };
    Some(v)
}

/// The multiplier of a letter suffix glued to digits ("7.2bn", "5m", "300k").
/// A bare "m" is a million only after a currency symbol: "a 5m wall" is metres.
fn suffix_scale(suffix: &str, money: bool) -> Option<f64> {
    match suffix {
        "k" => Some(1e3),
        "m" | "b" if !money => None,
        "m" => Some(1e6),
        "b" => Some(1e9),
        _ => scale_word(suffix),
    }
}

fn plural_scale(lower: &str) -> Option<f64> {
    let v = match lower {
        "tens" => 10.0,
        "dozens" => 12.0,
        "scores" => 20.0,
        "hundreds" => 1e2,
        "thousands" => 1e3,
        "millions" => 1e6,
        "billions" => 1e9,
        "trillions" => 1e12,
        _ => return None,
    };
    Some(v)
}

/// The value of a fraction word ("two-thirds", "one-half").
fn fraction_word(lower: &str) -> Option<f64> {
    let (count, part) = lower.split_once('-')?;
    let n = digit_word(count)?;
    let d = part_of_whole(part.strip_suffix('s').unwrap_or(part))
        .or_else(|| (part == "halves").then_some(2.0))?;
    (n < d).then_some(n / d)
}

/// Into how many parts a fraction's word cuts the whole ("third" 3); "one
/// tenth" is a tenth, but "a second" is no part.
fn part_of_whole(word: &str) -> Option<f64> {
    Some(match word {
        "half" => 2.0,
        "third" => 3.0,
        "quarter" | "fourth" => 4.0,
        "fifth" => 5.0,
        "sixth" => 6.0,
        "eighth" => 8.0,
        "tenth" => 10.0,
        _ => return None,
    })
}

/// The value of a token in digits with optional thousands commas and decimals.
pub(crate) fn digits(token: &str) -> Option<f64> {
    let bytes = token.as_bytes();
    if bytes.is_empty()
        || !bytes
            .iter()
            .all(|b| b.is_ascii_digit() || *b == b',' || *b == b'.')
    {
        return None;
    }
    if !bytes.first().is_some_and(u8::is_ascii_digit) && bytes.first() != Some(&b'.') {
        return None;
    }
    if !bytes.last().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if bytes.iter().filter(|b| **b == b'.').count() > 1 {
        return None;
    }
    let plain: String = token.chars().filter(|c| *c != ',').collect();
    plain.parse().ok()
}

/// A digits token with a letter suffix: its value, the suffix, and where the
/// suffix starts ("7.2bn" is 7.2 and "bn").
pub(crate) fn split_suffix(token: &str) -> Option<(f64, &str)> {
    let at = token.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, suffix) = token.split_at(at);
    if !suffix.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    Some((digits(number)?, suffix))
}

/// Reads a number at token `i`, not reading token `end` or beyond: a whole
/// number below 100 may go on "and a half" ("seven and a half hours").
///
/// `money` says a currency symbol comes just before, which makes "5m" a million.
pub(crate) fn parse(view: &TokenView<'_>, i: usize, end: usize, money: bool) -> Option<Number> {
    let mut number = parse_one(view, i, end, money)?;
    let whole = matches!(number.form, Form::Words | Form::Digits { scaled: false })
        && number.low == number.high
        && number.low.fract() == 0.0
        && number.low < 100.0;
    let at = |k: usize| if k < end { view.word(k) } else { "" };
    if whole
        && at(number.end) == "and"
        && matches!(at(number.end + 1), "a" | "an")
        && at(number.end + 2) == "half"
    {
        number.low += 0.5;
        number.high += 0.5;
        number.end += 3;
    }
    Some(number)
}

fn parse_one(view: &TokenView<'_>, i: usize, end: usize, money: bool) -> Option<Number> {
    if i >= end {
        return None;
    }
    let lower = view.word(i);
    if let Some(value) = digits(lower) {
        if let Some(scale) = (i + 1 < end)
            .then(|| scale_word(view.word(i + 1)))
            .flatten()
        {
            return Some(scaled(value, scale, i + 2));
        }
        return Some(exact(value, i + 1, Form::Digits { scaled: false }));
    }
    if let Some((value, suffix)) = split_suffix(lower) {
        let scale = suffix_scale(suffix, money)?;
        return Some(scaled(value, scale, i + 1));
    }
    if let Some(value) = fraction_word(lower) {
        return Some(exact(value, i + 1, Form::Fraction));
    }
    if let Some(number) = vague(view, i, end) {
        return Some(number);
    }
    words(view, i, end)
}

fn exact(value: f64, end: usize, form: Form) -> Number {
    Number {
        low: value,
        high: value,
        end,
        form,
        scale: 1.0,
    }
}

fn scaled(value: f64, scale: f64, end: usize) -> Number {
    Number {
        low: value * scale,
        high: value * scale,
        end,
        form: Form::Digits { scaled: true },
        scale,
    }
}

/// "hundreds", "tens of thousands", "hundreds of millions": at least twice the
/// scale, with no upper bound (`high` is infinite): "hundreds" is at least 200.
fn vague(view: &TokenView<'_>, i: usize, end: usize) -> Option<Number> {
    let mut product = plural_scale(view.word(i))?;
    let mut next = i + 1;
    while next + 1 < end && view.word(next) == "of" {
        match plural_scale(view.word(next + 1)) {
            Some(scale) if scale >= 1e3 => {
                product *= scale;
                next += 2;
            }
            _ => break,
        }
    }
    Some(Number {
        low: 2.0 * product,
        high: f64::INFINITY,
        end: next,
        form: Form::Vague,
        scale: 1.0,
    })
}

/// Spelled-out numbers with scales: "four", "twenty-five", "a dozen", "three
/// hundred and twenty thousand", "half a million", "a third of".
fn words(view: &TokenView<'_>, i: usize, end: usize) -> Option<Number> {
    let first = view.word(i);
    let at = |k: usize| if k < end { view.word(k) } else { "" };
    // "a"/"an"/"half a" count only before a scale: "a dozen", "half a million".
    let (mut total, mut current, mut next) = match first {
        "a" | "an" | "one" if at(i + 2) == "of" && part_of_whole(at(i + 1)).is_some() => {
            let value = part_of_whole(at(i + 1)).map_or(0.0, |parts| 1.0 / parts);
            return Some(exact(value, i + 2, Form::Fraction));
        }
        "half" if matches!(at(i + 1), "a" | "an") => {
            let scale = scale_word(at(i + 2)).or_else(|| (at(i + 2) == "dozen").then_some(12.0))?;
            return Some(exact(0.5 * scale, i + 3, Form::Words));
        }
        "half" if matches!(at(i + 1), "of" | "the") => {
            return Some(exact(0.5, i + 1, Form::Fraction));
        }
        "a" | "an" => {
            let scale = scale_word(at(i + 1)).or_else(|| (at(i + 1) == "dozen").then_some(12.0))?;
            if scale >= 1e3 {
                (scale, 0.0, i + 2)
            } else {
                (0.0, scale, i + 2)
            }
        }
        _ => (0.0, small_word(first)?, i + 1),
    };
    let mut last_was_scale = matches!(first, "a" | "an");
    loop {
        let word = at(next);
        if word == "dozen" {
            current = current.max(1.0) * 12.0;
            next += 1;
            last_was_scale = true;
        } else if word == "hundred" {
            current = current.max(1.0) * 100.0;
            next += 1;
            last_was_scale = true;
        } else if let Some(scale) = scale_word(word).filter(|s| *s >= 1e3) {
            total += current.max(1.0) * scale;
            current = 0.0;
            next += 1;
            last_was_scale = true;
        } else if last_was_scale && word == "and" && small_word(at(next + 1)).is_some() {
            current += small_word(at(next + 1)).unwrap_or(0.0);
            next += 2;
            last_was_scale = false;
        } else if last_was_scale && let Some(small) = small_word(word) {
            current += small;
            next += 1;
            last_was_scale = false;
        } else {
            break;
        }
    }
    Some(exact(total + current, next, Form::Words))
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, Doc};

    fn read(text: &str) -> Option<(f64, f64, usize)> {
        let mut doc = Doc::new(Article::new("t", text));
        crate::testing::prepare(&mut doc);
        let view = TokenView::new(&doc);
        parse(&view, 0, view.len(), false).map(|n| (n.low, n.high, n.end))
    }

    #[test]
    fn reads_digits_words_and_mixes() {
        assert_eq!(read("1,200 workers"), Some((1200.0, 1200.0, 1)));
        assert_eq!(read("1.2 billion"), Some((1.2e9, 1.2e9, 2)));
        assert_eq!(read("7.2bn"), Some((7.2e9, 7.2e9, 1)));
        assert_eq!(read("twenty-five"), Some((25.0, 25.0, 1)));
        assert_eq!(read("a dozen eggs"), Some((12.0, 12.0, 2)));
        assert_eq!(
            read("three hundred and twenty thousand"),
            Some((320_000.0, 320_000.0, 5))
        );
        assert_eq!(read("half a million"), Some((500_000.0, 500_000.0, 3)));
        assert_eq!(read("two million"), Some((2e6, 2e6, 2)));
    }

    #[test]
    fn reads_vague_amounts_and_fractions() {
        assert_eq!(read("hundreds of workers"), Some((200.0, f64::INFINITY, 1)));
        assert_eq!(
            read("tens of thousands of"),
            Some((20_000.0, f64::INFINITY, 3))
        );
        assert_eq!(read("two-thirds"), Some((2.0 / 3.0, 2.0 / 3.0, 1)));
        assert_eq!(read("a quarter of"), Some((0.25, 0.25, 2)));
    }

    #[test]
    fn every_word_below_a_hundred_is_its_value() {
        for (value, word) in (0..).zip(UNITS) {
            assert_eq!(small_word(word), Some(f64::from(value)), "{word}");
        }
        assert_eq!(small_word("ninety"), Some(90.0));
        assert_eq!(small_word("forty-one"), Some(41.0));
        assert_eq!(small_word("ninety-nine"), Some(99.0));
        for pair in ["twenty-zero", "twenty-ten", "ten-one", "twenty-thirty"] {
            assert_eq!(small_word(pair), None, "{pair}");
        }
        assert_eq!(fraction_word("nine-tenths"), Some(0.9));
    }

    #[test]
    fn refuses_what_is_no_number() {
        assert_eq!(read("a man"), None);
        assert_eq!(read("5m"), None, "metres unless money");
        assert_eq!(read("21st"), None);
        assert_eq!(read("1990s"), None);
        assert_eq!(digits("1.2.3"), None);
        assert_eq!(digits(","), None);
    }
}
