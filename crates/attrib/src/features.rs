//! What the taggers see of a document: per-token facts computed once, and the
//! feature keys of the cue tagger and of the role (source/content) tagger.

use attest_doc::{Doc, PosTag, TokenKind, TokenView};

use attest_learn::{KeyMap, fnv1a64, key1, key2, key3};

/// How often a lowercased word is part of a cue in the training data, as one
/// byte: the share of its occurrences inside cues in tenths (high nibble, 0–10)
/// and the log2 of its cue count (low nibble, 0–15). Words seen in a cue fewer
/// than twice are absent, and words seen often but never in a cue are
/// [`NEVER_CUE`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Lexicon {
    pub(crate) entries: KeyMap<u8>,
}

/// The lexicon value of a word seen at least [`NEVER_CUE_MIN`] times in
/// training and never in a cue ("the", ",", "of"): the cue tagger labels it O
/// without scoring it, which spares it about half the tokens of a text.
pub(crate) const NEVER_CUE: u8 = 0xF0;

/// How often a word must have been seen, never in a cue, to be [`NEVER_CUE`].
const NEVER_CUE_MIN: u32 = 30;

impl Lexicon {
    /// The lexicon of counts `(in cues, in total)` per lowercase-word hash.
    pub(crate) fn from_counts(counts: &KeyMap<(u32, u32)>) -> Lexicon {
        let mut entries = KeyMap::default();
        for (word, (in_cue, total)) in counts {
            if *in_cue == 0 && *total >= NEVER_CUE_MIN {
                entries.insert(*word, NEVER_CUE);
                continue;
            }
            if *in_cue < 2 || *total == 0 {
                continue;
            }
            let share = ((u64::from(*in_cue) * 10) / u64::from(*total)).min(10) as u8;
            let count = (32 - in_cue.leading_zeros()).min(15) as u8;
            entries.insert(*word, (share << 4) | count);
        }
        Lexicon { entries }
    }

    fn get(&self, word: u64) -> u8 {
        self.entries.get(&word).copied().unwrap_or(0)
    }
}

/// How a token stands to double quotation marks in its paragraph.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct QuoteState {
    /// One past the index of the quoted region (opening mark to closing mark,
    /// or to the paragraph end when none closes it) that holds the token, marks
    /// included: a zero that is not a region keeps the state small.
    region: Option<std::num::NonZeroU32>,
    /// The token opens a region.
    pub(crate) opens: bool,
    /// The token closes a region.
    pub(crate) closes: bool,
}

impl QuoteState {
    /// The index in [`View::regions`] of the quoted region that holds the token.
    pub(crate) fn region(&self) -> Option<u32> {
        self.region.map(|after| after.get() - 1)
    }
}

/// A quoted region: token indices of its marks, and whether a closing mark
/// ends it.
pub(crate) use attest_lang::QuotedRegion as Region;

/// Per-token facts. A view holds one for every token of the article, so its
/// size is most of the attribution stage's memory per byte of text: indices
/// are 32-bit, as the document's spans are, and the tag is its index.
#[derive(Clone, Debug)]
pub(crate) struct TokenFacts {
    pub(crate) lower: u64,
    pub(crate) word: u64,
    lemma: u64,
    suffix: u64,
    shape: u64,
    /// The index of its part-of-speech tag in [`PosTag::NAMES`], or
    /// [`NO_TAG`] when the document is not tagged.
    tag: u8,
    lex: u8,
    lemma_lex: u8,
    pub(crate) quote: QuoteState,
    sentence: u32,
    paragraph: u32,
    /// Which of the [`Flag`]s hold, one bit each.
    flags: u16,
}

/// What may be true of a token, a bit each of [`TokenFacts::flags`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Flag {
    /// The word is [`NEVER_CUE`].
    NeverCue,
    /// The word is one of those [`crate::verbs`] lists.
    Listed,
    FirstInSentence,
    LastInSentence,
    Comma,
    Colon,
    Punct,
    That,
    According,
}

/// A document as the taggers see it.
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub(crate) tokens: Vec<TokenFacts>,
    /// Token ranges of the sentences.
    pub(crate) sentences: Vec<(usize, usize)>,
    /// Sentence ranges of the paragraphs.
    pub(crate) paragraphs: Vec<(usize, usize)>,
    pub(crate) regions: Vec<Region>,
}

const NONE: u64 = 0x6e6f_6e65;

/// [`TokenFacts::tag`] of a token without one.
const NO_TAG: u8 = u8::MAX;

/// The hash of each tag's name, the key its features use.
const TAG_HASHES: [u64; PosTag::NAMES.len()] = {
    let mut hashes = [0; PosTag::NAMES.len()];
    let mut index = 0;
    while index < hashes.len() {
        hashes[index] = fnv1a64(PosTag::NAMES[index].as_bytes());
        index += 1;
    }
    hashes
};

/// A sentence or paragraph index as [`TokenFacts`] keeps it: there are fewer
/// of them than bytes of text, whose offsets are 32-bit.
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

impl TokenFacts {
    /// Whether `flag` holds.
    pub(crate) fn is(&self, flag: Flag) -> bool {
        self.flags & (1 << flag as u16) != 0
    }

    /// The index of its sentence in [`View::sentences`].
    pub(crate) fn sentence(&self) -> usize {
        self.sentence as usize
    }

    /// The index of its paragraph in [`View::paragraphs`].
    pub(crate) fn paragraph(&self) -> usize {
        self.paragraph as usize
    }

    /// Its part-of-speech tag, whose classes are its methods; `None` when
    /// the document is not tagged.
    pub(crate) fn tag(&self) -> Option<PosTag> {
        PosTag::from_index(usize::from(self.tag))
    }

    /// The key of its part-of-speech tag.
    pub(crate) fn pos(&self) -> u64 {
        TAG_HASHES
            .get(usize::from(self.tag))
            .copied()
            .unwrap_or(NONE)
    }
}

/// The cue keys over a token's own facts, which its text and tag decide: the
/// same for every occurrence of a word with a tag.
pub(crate) fn own_cue_keys(t: &TokenFacts, out: &mut Vec<u64>) {
    let lex = u64::from(t.lex);
    out.extend([
        key1(0, 0),
        key1(1, t.lower),
        key1(2, t.word),
        key1(3, t.lemma),
        key1(4, t.suffix),
        key1(5, t.shape),
        key1(6, t.pos()),
        key1(17, lex),
        key2(18, lex, t.pos()),
        key1(21, u64::from(t.lemma_lex)),
        key2(25, t.lemma, t.pos()),
        key2(45, u64::from(t.is(Flag::Listed) && t.lex == 0), t.pos()),
    ]);
}

/// The offsets of the neighbours that some cue keys read alone.
pub(crate) const NEIGHBOURS: [isize; 4] = [-2, -1, 1, 2];

/// The cue keys over the facts of the neighbour at `offset` alone (`None`
/// past the sentence's edge), which its text and tag decide.
pub(crate) fn neighbour_cue_keys(f: Option<&TokenFacts>, offset: isize, out: &mut Vec<u64>) {
    let lower = f.map_or(NONE, |f| f.lower);
    let pos = f.map_or(NONE, |f| f.pos());
    let lex = f.map_or(255, |f| u64::from(f.lex));
    match offset {
        -2 => out.push(key1(9, lower)),
        -1 => out.extend([key1(7, lower), key1(13, pos), key1(19, lex)]),
        1 => out.extend([key1(8, lower), key1(14, pos), key1(20, lex)]),
        2 => out.push(key1(10, lower)),
        _ => {}
    }
}

/// A rough lemma: the lowercase word without a common inflection, so that
/// "says", "said" and "saying" share evidence with "say" only through the
/// lexicon, while "claims", "claimed", "claiming" collapse to "claim".
pub(crate) fn lemma(lower: &str) -> &str {
    for suffix in ["ing", "ied", "ies", "ed", "es", "s"] {
        if let Some(stem) = lower.strip_suffix(suffix)
            && stem.chars().count() >= 3
        {
            return stem;
        }
    }
    lower
}

/// The shape of a word: runs of upper (X), lower (x), digit (d) and other
/// characters collapsed, at most four runs.
fn shape(word: &str) -> u64 {
    let mut out = [0u8; 4];
    let mut len = 0;
    for c in word.chars() {
        let class = if c.is_uppercase() {
            b'X'
        } else if c.is_lowercase() {
            b'x'
        } else if c.is_numeric() {
            b'd'
        } else {
            b'-'
        };
        if len > 0 && out.get(len - 1) == Some(&class) {
            continue;
        }
        if len == out.len() {
            break;
        }
        out[len] = class;
        len += 1;
    }
    fnv1a64(out.get(..len).unwrap_or(&[]))
}

/// `word.to_lowercase()` into `out`, which keeps its buffer from word to
/// word: most words are ASCII and need no allocation of their own.
fn lowercase_into(out: &mut String, word: &str) {
    out.clear();
    if word.is_ascii() {
        out.push_str(word);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&word.to_lowercase());
    }
}

fn suffix3(lower: &str) -> u64 {
    let start = lower
        .char_indices()
        .rev()
        .nth(2)
        .map(|(at, _)| at)
        .unwrap_or(0);
    fnv1a64(lower.get(start..).unwrap_or("").as_bytes())
}

impl View {
    /// Computes the facts of every token of a segmented document, read
    /// through its [`TokenView`]. Words are lowercased here rather than read
    /// folded: the model's keys hash the lowercase word as written, and
    /// change only when it is retrained.
    pub(crate) fn new(doc: &Doc, lexicon: &Lexicon) -> View {
        let view = TokenView::new(doc);
        let sentences: Vec<(usize, usize)> = view
            .sentence_ranges()
            .map(|range| (range.start, range.end))
            .collect();
        let paragraphs: Vec<(usize, usize)> = doc
            .paragraphs()
            .iter()
            .map(|p| (p.sentences.start.index(), p.sentences.end.index()))
            .collect();
        let mut sentence_of = vec![0; view.len()];
        let mut first = vec![false; view.len()];
        let mut last = vec![false; view.len()];
        for (index, (start, end)) in sentences.iter().enumerate() {
            for slot in sentence_of.iter_mut().take(*end).skip(*start) {
                *slot = index;
            }
            if let Some(slot) = first.get_mut(*start) {
                *slot = true;
            }
            if let Some(slot) = end.checked_sub(1).and_then(|e| last.get_mut(e)) {
                *slot = true;
            }
        }
        let mut paragraph_of_sentence = vec![0; sentences.len()];
        for (index, (start, end)) in paragraphs.iter().enumerate() {
            for slot in paragraph_of_sentence.iter_mut().take(*end).skip(*start) {
                *slot = index;
            }
        }
        let mut tokens = Vec::with_capacity(view.len());
        let mut lower = String::new();
        for index in 0..view.len() {
            let word = view.raw(index);
            lowercase_into(&mut lower, word);
            let lower = lower.as_str();
            let lemma_text = lemma(lower);
            let lower_hash = fnv1a64(lower.as_bytes());
            let lex = lexicon.get(lower_hash);
            let lemma_hash = fnv1a64(lemma_text.as_bytes());
            let tag = view
                .pos(index)
                .and_then(|tag| u8::try_from(tag.index()).ok())
                .unwrap_or(NO_TAG);
            let sentence = sentence_of.get(index).copied().unwrap_or(0);
            tokens.push(TokenFacts {
                lower: lower_hash,
                word: fnv1a64(word.as_bytes()),
                lemma: lemma_hash,
                suffix: suffix3(lower),
                shape: shape(word),
                tag,
                lex,
                lemma_lex: lexicon.get(lemma_hash),
                quote: QuoteState::default(),
                sentence: index_u32(sentence),
                paragraph: index_u32(paragraph_of_sentence.get(sentence).copied().unwrap_or(0)),
                flags: [
                    (Flag::NeverCue, lex == NEVER_CUE),
                    (Flag::Listed, crate::verbs::attributes(lemma_hash)),
                    (
                        Flag::FirstInSentence,
                        first.get(index).copied().unwrap_or(false),
                    ),
                    (
                        Flag::LastInSentence,
                        last.get(index).copied().unwrap_or(false),
                    ),
                    (Flag::Comma, word == ","),
                    (Flag::Colon, word == ":"),
                    (Flag::Punct, view.kind(index) == Some(TokenKind::Punct)),
                    (Flag::That, lower == "that"),
                    (Flag::According, lower == "according"),
                ]
                .into_iter()
                .filter(|(_, holds)| *holds)
                .fold(0, |flags, (flag, _)| flags | 1 << flag as u16),
            });
        }
        let mut facts = View {
            tokens,
            sentences,
            paragraphs,
            regions: Vec::new(),
        };
        facts.find_quotes(doc);
        facts
    }

    /// Marks each token with the quoted region holding it
    /// ([`attest_lang::double_quote_regions`]).
    fn find_quotes(&mut self, doc: &Doc) {
        self.regions = attest_lang::double_quote_regions(doc);
        for (id, region) in self.regions.iter().enumerate() {
            for index in region.first..=region.last {
                if let Some(token) = self.tokens.get_mut(index) {
                    token.quote.region = u32::try_from(id + 1)
                        .ok()
                        .and_then(std::num::NonZeroU32::new);
                    token.quote.opens = index == region.first;
                    token.quote.closes = index == region.last && region.closed;
                }
            }
        }
    }

    fn fact(&self, index: isize, sentence: (usize, usize)) -> Option<&TokenFacts> {
        let index = usize::try_from(index).ok()?;
        if index < sentence.0 || index >= sentence.1 {
            return None;
        }
        self.tokens.get(index)
    }

    /// The cue tagger's feature keys of token `index` of sentence `sentence`.
    /// The cue tagger's keys of the token at `index` of `sentence`.
    pub(crate) fn cue_keys(&self, index: usize, sentence: (usize, usize), out: &mut Vec<u64>) {
        out.clear();
        let Some(t) = self.tokens.get(index) else {
            return;
        };
        own_cue_keys(t, out);
        for offset in NEIGHBOURS {
            neighbour_cue_keys(self.fact(index as isize + offset, sentence), offset, out);
        }
        self.context_cue_keys(index, sentence, out);
    }

    /// The cue keys that read more than one token, or the token's place: all
    /// but [`own_cue_keys`] and [`neighbour_cue_keys`]. Appended to `out`.
    pub(crate) fn context_cue_keys(
        &self,
        index: usize,
        sentence: (usize, usize),
        out: &mut Vec<u64>,
    ) {
        let Some(t) = self.tokens.get(index) else {
            return;
        };
        let at = index as isize;
        let lower = |offset: isize| self.fact(at + offset, sentence).map_or(NONE, |f| f.lower);
        let pos = |offset: isize| self.fact(at + offset, sentence).map_or(NONE, |f| f.pos());
        let quoted = t.quote.region().is_some();
        out.extend([
            key2(11, lower(-1), t.lower),
            key2(12, t.lower, lower(1)),
            key2(15, pos(-1), t.pos()),
            key2(16, t.pos(), pos(1)),
            key3(
                22,
                u64::from(quoted),
                u64::from(t.quote.opens),
                u64::from(t.quote.closes),
            ),
            key2(23, t.lower, u64::from(quoted)),
            key2(
                24,
                u64::from(t.is(Flag::FirstInSentence)),
                u64::from(t.is(Flag::LastInSentence)),
            ),
            key3(26, lower(-1), t.lower, lower(1)),
            key2(27, pos(-2), pos(-1)),
            key2(28, u64::from(t.lex), lower(1)),
        ]);
        let previous_closes = self.fact(at - 1, sentence).is_some_and(|f| f.quote.closes)
            || self.fact(at - 2, sentence).is_some_and(|f| f.quote.closes);
        let next_opens = self.fact(at + 1, sentence).is_some_and(|f| f.quote.opens)
            || self.fact(at + 2, sentence).is_some_and(|f| f.quote.opens);
        let lemma = |offset: isize| self.fact(at + offset, sentence).map_or(NONE, |f| f.lemma);
        let from_start = (index - sentence.0).min(4) as u64;
        let from_end = (sentence.1 - index).min(4) as u64;
        out.extend([
            key3(
                29,
                u64::from(previous_closes),
                u64::from(next_opens),
                t.pos(),
            ),
            key3(
                30,
                u64::from(previous_closes),
                u64::from(next_opens),
                u64::from(t.lex >> 4),
            ),
            key2(31, t.lower, pos(1)),
            key2(32, pos(-1), t.lower),
            key3(33, pos(-1), t.pos(), pos(1)),
            key2(34, t.lower, lower(2)),
            key2(35, lower(-2), t.lower),
            key2(36, lemma(-1), t.lemma),
            key2(37, t.lemma, lemma(1)),
            key3(38, from_start, from_end, t.pos()),
            key3(39, t.lower, lower(1), lower(2)),
        ]);
    }

    pub(crate) fn role_keys(
        &self,
        index: usize,
        cue: (usize, usize),
        cue_lemma: u64,
        context: &RoleContext,
        out: &mut Vec<u64>,
    ) {
        out.clear();
        let Some(t) = self.tokens.get(index) else {
            return;
        };
        let (direction, distance) = if index < cue.0 {
            (0u64, cue.0 - index)
        } else if index >= cue.1 {
            (2, index + 1 - cue.1)
        } else {
            (1, 0)
        };
        let bucket = match distance {
            0..=5 => distance as u64,
            6..=8 => 6,
            9..=13 => 7,
            14..=21 => 8,
            22..=40 => 9,
            _ => 10,
        };
        let cue_sentence = self.tokens.get(cue.0).map_or(0, |f| f.sentence());
        let sentence_delta = (t.sentence() as i64 - cue_sentence as i64).clamp(-3, 3) as u64;
        let whole = (0, self.tokens.len());
        let at = index as isize;
        let lower = |offset: isize| self.fact(at + offset, whole).map_or(NONE, |f| f.lower);
        let pos = |offset: isize| self.fact(at + offset, whole).map_or(NONE, |f| f.pos());
        let quote = context.quote_relation(t.quote.region());
        let between = context.between(index);
        // Side of the cue, split by "same sentence or not": most tokens of a
        // window outside the cue's sentence are O, and word features must not
        // learn that from them for the tokens of the cue's own sentence.
        let d = direction + 3 * u64::from(t.sentence() != cue_sentence);
        let last_before_end = self
            .tokens
            .get(index + 1)
            .is_some_and(|next| next.is(Flag::LastInSentence) && next.is(Flag::Punct));
        if t.sentence() != cue_sentence {
            // Outside the cue's sentence a token is content of a running quote
            // or nothing: these few features tell which, at a third of the cost.
            out.extend([
                key1(100, d),
                key2(101, d, bucket),
                key2(102, d, sentence_delta),
                key2(103, d, t.lower),
                key2(104, d, t.pos()),
                key3(
                    113,
                    d,
                    quote,
                    u64::from(t.quote.opens) | (u64::from(t.quote.closes) << 1),
                ),
                key3(114, d, quote, sentence_delta),
                key2(116, d, between),
                key2(118, d, u64::from(context.in_other_cue(index))),
                key3(
                    120,
                    d,
                    u64::from(t.is(Flag::FirstInSentence)),
                    u64::from(t.is(Flag::LastInSentence)),
                ),
                key3(122, d, quote, t.pos()),
                key3(125, d, cue_lemma, quote),
                key3(127, d, context.cue_quote, quote),
                key3(
                    130,
                    d,
                    u64::from(last_before_end),
                    u64::from(t.is(Flag::LastInSentence)),
                ),
            ]);
            return;
        }
        out.extend([
            key3(128, d, between, t.pos()),
            key3(129, d, between, t.lower),
            key3(
                130,
                d,
                u64::from(last_before_end),
                u64::from(t.is(Flag::LastInSentence)),
            ),
            key3(131, d, lower(-1), t.lower),
            key1(100, d),
            key2(101, d, bucket),
            key2(102, d, sentence_delta),
            key2(103, d, t.lower),
            key2(104, d, t.pos()),
            key3(105, d, pos(-1), t.pos()),
            key3(106, d, t.pos(), pos(1)),
            key2(107, d, t.shape),
            key2(108, d, lower(-1)),
            key2(109, d, lower(1)),
            key2(110, d, cue_lemma),
            key3(111, d, cue_lemma, bucket),
            key3(112, d, bucket, t.pos()),
            key3(
                113,
                d,
                quote,
                u64::from(t.quote.opens) | (u64::from(t.quote.closes) << 1),
            ),
            key3(114, d, quote, sentence_delta),
            key3(115, d, quote, bucket),
            key2(116, d, between),
            key3(117, d, between, sentence_delta),
            key2(118, d, u64::from(context.in_other_cue(index))),
            key2(119, d, u64::from(t.lex)),
            key3(
                120,
                d,
                u64::from(t.is(Flag::FirstInSentence)),
                u64::from(t.is(Flag::LastInSentence)),
            ),
            key3(121, d, t.lower, bucket.min(3)),
            key3(122, d, quote, t.pos()),
            key2(123, d, t.suffix),
            key3(124, d, cue_lemma, t.pos()),
            key3(125, d, cue_lemma, quote),
            key3(126, d, t.pos(), sentence_delta),
            key3(127, d, context.cue_quote, quote),
        ]);
        // What lies beyond the token, away from the cue, to its sentence's edge:
        // "says on its website that …" starts its content at "that".
        let sentence = self.sentences.get(t.sentence()).copied().unwrap_or((0, 0));
        let beyond = context.beyond(index, direction, sentence);
        out.extend([
            key3(132, d, beyond, t.pos()),
            key3(133, d, beyond, u64::from(between & 0b1000 != 0)),
            key3(134, d, beyond, t.lower),
        ]);
    }
}

/// What the role tagger knows about one cue beyond the token: the quoted
/// regions next to it and the other cues of the article.
#[derive(Clone, Debug)]
pub(crate) struct RoleContext<'a> {
    cue: (usize, usize),
    cue_region: Option<u32>,
    left_region: Option<u32>,
    right_region: Option<u32>,
    /// Whether the cue itself is quoted, as a feature value.
    cue_quote: u64,
    /// Per token: a token of some cue of the article.
    cues: &'a [bool],
    view: &'a View,
    /// Running counts of each [`Counted`] kind over the cue's role window,
    /// so that what lies between a token and the cue is two lookups: built
    /// per cue over the window the role tagger reads anyway, never per token
    /// of the article.
    counts: Counts,
}

/// The kinds of token counted between a token and its cue.
#[derive(Clone, Copy, Debug)]
enum Counted {
    Opens,
    Cues,
    Commas,
    Thats,
    According,
}

const COUNTED: usize = 5;

/// Running counts over tokens `start..`: entry `i` counts tokens
/// `start..start + i`.
#[derive(Clone, Debug, Default)]
struct Counts {
    start: usize,
    running: Vec<[u32; COUNTED]>,
}

/// Which [`Counted`] kinds token `index` is.
fn counted(view: &View, cues: &[bool], index: usize) -> [bool; COUNTED] {
    let Some(token) = view.tokens.get(index) else {
        return [false; COUNTED];
    };
    let mut kinds = [false; COUNTED];
    kinds[Counted::Opens as usize] = token.quote.opens;
    kinds[Counted::Cues as usize] = cues.get(index).copied().unwrap_or(false);
    kinds[Counted::Commas as usize] = token.is(Flag::Comma);
    kinds[Counted::Thats as usize] = token.is(Flag::That);
    kinds[Counted::According as usize] = token.is(Flag::According);
    kinds
}

impl<'a> RoleContext<'a> {
    /// The context of the cue over tokens `cue`, whose role window is `span`.
    pub(crate) fn new(
        view: &'a View,
        cue: (usize, usize),
        span: (usize, usize),
        cues: &'a [bool],
    ) -> RoleContext<'a> {
        let mut running = Vec::with_capacity(span.1.saturating_sub(span.0) + 1);
        let mut totals = [0u32; COUNTED];
        running.push(totals);
        for index in span.0..span.1 {
            for (total, holds) in totals.iter_mut().zip(counted(view, cues, index)) {
                *total += u32::from(holds);
            }
            running.push(totals);
        }
        let cue_region = view.tokens.get(cue.0).and_then(|t| t.quote.region());
        let paragraph = view.tokens.get(cue.0).map(|t| t.paragraph());
        let near = |index: usize| {
            view.tokens
                .get(index)
                .filter(|t| Some(t.paragraph()) == paragraph)
                .and_then(|t| t.quote.region())
                .filter(|r| Some(*r) != cue_region)
        };
        // The closest region ending up to three tokens before the cue, and the
        // one starting up to three after: "“…,” she said" and "she said: “…”".
        let left_region = (1..=3).find_map(|back| cue.0.checked_sub(back).and_then(near));
        let right_region = (0..3).find_map(|ahead| near(cue.1 + ahead));
        RoleContext {
            cue,
            cue_region,
            left_region,
            right_region,
            cue_quote: u64::from(cue_region.is_some()),
            cues,
            view,
            counts: Counts {
                start: span.0,
                running,
            },
        }
    }

    /// How many tokens of `kind` lie in `start..end`, counted up to `most`:
    /// two lookups inside the role window, a walk outside it.
    fn count(&self, kind: Counted, start: usize, end: usize, most: u32) -> u32 {
        if start >= end {
            return 0;
        }
        let inside = |at: usize| {
            at.checked_sub(self.counts.start)
                .and_then(|offset| self.counts.running.get(offset))
                .map(|totals| totals[kind as usize])
        };
        match (inside(start), inside(end)) {
            (Some(low), Some(high)) => high.saturating_sub(low).min(most),
            _ => {
                let found = (start..end)
                    .filter(|&index| counted(self.view, self.cues, index)[kind as usize])
                    .take(most as usize)
                    .count();
                index_u32(found)
            }
        }
    }

    fn quote_relation(&self, region: Option<u32>) -> u64 {
        match region {
            None => 0,
            Some(r) if Some(r) == self.cue_region => 1,
            Some(r) if Some(r) == self.left_region => 2,
            Some(r) if Some(r) == self.right_region => 3,
            Some(_) => 4,
        }
    }

    fn in_other_cue(&self, index: usize) -> bool {
        (index < self.cue.0 || index >= self.cue.1)
            && self.cues.get(index).copied().unwrap_or(false)
    }

    /// What lies beyond the token on the side away from the cue, within its
    /// sentence: another cue, a "that", an opening quotation mark.
    fn beyond(&self, index: usize, direction: u64, sentence: (usize, usize)) -> u64 {
        let (start, end) = match direction {
            0 => (sentence.0, index),
            2 => (index + 1, sentence.1),
            _ => return 0,
        };
        let cues = self.count(Counted::Cues, start, end, 1);
        let thats = self.count(Counted::Thats, start, end, 1);
        let opens = self.count(Counted::Opens, start, end, 1);
        let commas = self.count(Counted::Commas, start, end, 1);
        u64::from(cues | (thats << 1) | (opens << 2) | (commas << 3))
    }

    /// What lies between the token and the cue, as a small code: another cue,
    /// commas (0, 1, 2+), a "that", an "according".
    fn between(&self, index: usize) -> u64 {
        let (start, end) = if index < self.cue.0 {
            (index + 1, self.cue.0)
        } else if index >= self.cue.1 {
            (self.cue.1, index)
        } else {
            return 0;
        };
        let cues = self.count(Counted::Cues, start, end, 1);
        let commas = self.count(Counted::Commas, start, end, 2);
        let thats = self.count(Counted::Thats, start, end, 1);
        let according = self.count(Counted::According, start, end, 1);
        u64::from(cues | (commas << 1) | (thats << 3) | (according << 4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lemma_and_shape() {
        assert_eq!(lemma("claimed"), "claim");
        assert_eq!(lemma("says"), "say");
        assert_eq!(lemma("is"), "is");
        assert_eq!(shape("McCain"), fnv1a64(b"XxXx"));
        assert_eq!(shape("U.S."), fnv1a64(b"X-X-"));
        assert_eq!(shape("1,200"), fnv1a64(b"d-d"));
    }

    #[test]
    fn lexicon_buckets() {
        let mut counts = KeyMap::default();
        counts.insert(1, (9, 10));
        counts.insert(2, (1, 10));
        counts.insert(3, (40, 400));
        counts.insert(4, (0, NEVER_CUE_MIN));
        counts.insert(5, (0, NEVER_CUE_MIN - 1));
        let lexicon = Lexicon::from_counts(&counts);
        assert_eq!(lexicon.get(1), (9 << 4) | 4);
        assert_eq!(lexicon.get(2), 0);
        assert_eq!(lexicon.get(3), (1 << 4) | 6);
        assert_eq!(lexicon.get(4), NEVER_CUE, "often seen, never in a cue");
        assert_eq!(lexicon.get(5), 0, "too rarely seen to be sure");
    }
}

#[cfg(test)]
mod quote_tests {
    use super::*;
    use attest_doc::{Article, Limits};

    #[test]
    fn a_tokens_facts_stay_within_a_cache_line() {
        // A view holds one per token: at 96 bytes they were most of fast
        // mode's 38 MB of memory per megabyte of article.
        assert!(std::mem::size_of::<TokenFacts>() <= 64);
        assert_eq!(std::mem::size_of::<QuoteState>(), 8);
    }

    fn analyse(text: &str) -> (Doc, View) {
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let view = View::new(&doc, &Lexicon::default());
        (doc, view)
    }

    fn region_texts(doc: &Doc, view: &View) -> Vec<(String, bool)> {
        view.regions
            .iter()
            .map(|r| {
                let start = doc.tokens()[r.first].span.byte_start();
                let end = doc.tokens()[r.last].span.byte_end();
                (doc.text()[start..end].to_owned(), r.closed)
            })
            .collect()
    }

    #[test]
    fn pairs_curly_and_straight_quotes() {
        let (doc, view) = analyse("She said “yes, twice,” and he said \"no.\" Then silence.");
        assert_eq!(
            region_texts(&doc, &view),
            [
                ("“yes, twice,”".to_owned(), true),
                ("\"no.\"".to_owned(), true)
            ]
        );
        let said = doc
            .tokens()
            .iter()
            .position(|t| doc.span_text(t.span) == "said");
        assert_eq!(said.map(|i| view.tokens[i].quote.region()), Some(None));
    }

    #[test]
    fn doubled_apostrophes_open_and_close_quotes() {
        let (doc, view) = analyse("He said ''we will win,'' and left. ''Soon,'' she said.");
        assert_eq!(
            region_texts(&doc, &view),
            [
                ("''we will win,''".to_owned(), true),
                ("''Soon,''".to_owned(), true)
            ]
        );
    }

    #[test]
    fn an_open_quote_closes_at_its_paragraph_end() {
        let text = "He said “we will win.\n\n“And soon,” he added.";
        let (doc, view) = analyse(text);
        assert_eq!(
            region_texts(&doc, &view),
            [
                ("“we will win.".to_owned(), false),
                ("“And soon,”".to_owned(), true)
            ]
        );
        // The window of "said" runs into the paragraph that reopens the quote.
        let said = doc
            .tokens()
            .iter()
            .position(|t| doc.span_text(t.span) == "said")
            .unwrap();
        let window = crate::tagging::window(&view, (said, said + 1));
        assert_eq!(window, (0, doc.tokens().len()));
    }

    #[test]
    fn an_unbalanced_quote_does_not_open_the_next_paragraph() {
        let text = "He said “we will win.\n\nThe polls closed at eight.";
        let (doc, view) = analyse(text);
        let said = doc
            .tokens()
            .iter()
            .position(|t| doc.span_text(t.span) == "said")
            .unwrap();
        let window = crate::tagging::window(&view, (said, said + 1));
        let first_paragraph = doc.sentences()[0].tokens.end.index();
        assert_eq!(window, (0, first_paragraph));
        // A stray closing mark opens nothing.
        let (doc, view) = analyse("Prices rose.” Nobody knew why.");
        assert!(region_texts(&doc, &view).is_empty());
    }
}
