//! The records of each layer of a [`crate::Doc`].
//!
//! Records hold byte [`Span`]s into the article text and refer to records of other
//! layers by index ([`TokenId`], [`AttributionId`], ...), never by pointer, so a
//! layer can be written, stored and read back on its own.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::{AttributionId, ClusterId, SentenceId, SourceId, Span, TokenId};

/// What kind of text a token is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum TokenKind {
    /// Letters, possibly with inner hyphens, apostrophes or periods ("U.S.", "front-runner").
    Word,
    /// A clitic split off a word: "'s", "n't", "'re".
    Clitic,
    /// Digits, possibly with separators and decimals ("1,200", "7.2", "9/11", "7:30").
    Number,
    /// A quotation mark, straight or curly, single or double.
    Quote,
    /// A dash: "—", "–", "--".
    Dash,
    /// Other punctuation: ". , ; : ! ? ( ) ...".
    Punct,
    /// A currency or other symbol: "$", "€", "%", "&".
    Symbol,
    /// A web address.
    Url,
    /// An e-mail address.
    Email,
    /// A hashtag: "#BlackLivesMatter".
    Hashtag,
    /// A social-media handle: "@AP".
    Handle,
    /// A markup tag left in the text: `<tweet author=...>`.
    Markup,
}

/// One token: a span of the text and its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token {
    /// Where the token stands.
    pub span: Span,
    /// What it is.
    pub kind: TokenKind,
}

/// One sentence: a run of tokens.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sentence {
    /// From the first byte of its first token to the last byte of its last.
    pub span: Span,
    /// Its tokens, a range of [`crate::Doc::tokens`].
    pub tokens: Range<TokenId>,
}

/// What part of an article a paragraph plays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ParagraphRole {
    /// A headline or subhead: a short first line with no closing punctuation.
    Headline,
    /// "By Jane Doe" or "Jane Doe, Reuters".
    Byline,
    /// Running text.
    Body,
}

/// One paragraph: a run of sentences between blank lines.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Paragraph {
    /// From its first non-blank byte to its last.
    pub span: Span,
    /// Its sentences, a range of [`crate::Doc::sentences`].
    pub sentences: Range<SentenceId>,
    /// What the paragraph is.
    pub role: ParagraphRole,
}

/// A Penn Treebank part-of-speech tag, as CoreNLP writes them. Its classes
/// (a plural noun, a past form, a function word, ...) are its methods, so no
/// stage compares tag names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, strum::FromRepr)]
#[repr(u8)]
pub enum PosTag {
    /// "CC": a coordinating conjunction.
    Cc,
    /// "CD": a cardinal number.
    Cd,
    /// "DT": a determiner.
    Dt,
    /// "EX": existential "there".
    Ex,
    /// "FW": a foreign word.
    Fw,
    /// "IN": a preposition or subordinating conjunction.
    In,
    /// "JJ": an adjective.
    Jj,
    /// "JJR": a comparative adjective.
    Jjr,
    /// "JJS": a superlative adjective.
    Jjs,
    /// "LS": a list item marker.
    Ls,
    /// "MD": a modal.
    Md,
    /// "NN": a singular or mass noun.
    Nn,
    /// "NNS": a plural noun.
    Nns,
    /// "NNP": a singular proper noun.
    Nnp,
    /// "NNPS": a plural proper noun.
    Nnps,
    /// "PDT": a predeterminer.
    Pdt,
    /// "POS": a possessive ending.
    Pos,
    /// "PRP": a personal pronoun.
    Prp,
    /// "PRP$": a possessive pronoun.
    PrpPossessive,
    /// "RB": an adverb.
    Rb,
    /// "RBR": a comparative adverb.
    Rbr,
    /// "RBS": a superlative adverb.
    Rbs,
    /// "RP": a particle.
    Rp,
    /// "SYM": a symbol.
    Sym,
    /// "TO": "to".
    To,
    /// "UH": an interjection.
    Uh,
    /// "VB": a verb's base form.
    Vb,
    /// "VBD": a verb in the past tense.
    Vbd,
    /// "VBG": a gerund or present participle.
    Vbg,
    /// "VBN": a past participle.
    Vbn,
    /// "VBP": a present verb, not third person singular.
    Vbp,
    /// "VBZ": a present verb, third person singular.
    Vbz,
    /// "WDT": a wh-determiner.
    Wdt,
    /// "WP": a wh-pronoun.
    Wp,
    /// "WP$": a possessive wh-pronoun.
    WpPossessive,
    /// "WRB": a wh-adverb.
    Wrb,
    /// ".": a sentence-final mark.
    Period,
    /// ",": a comma.
    Comma,
    /// ":": a colon, semicolon or ellipsis.
    Colon,
    /// "``": an opening quotation mark.
    OpenQuote,
    /// "''": a closing quotation mark.
    CloseQuote,
    /// "-LRB-": an opening bracket.
    OpenBracket,
    /// "-RRB-": a closing bracket.
    CloseBracket,
    /// "#": a pound sign.
    Hash,
    /// "$": a currency sign.
    Currency,
    /// "HYPH": a hyphen.
    Hyph,
    /// "NFP": superfluous punctuation.
    Nfp,
    /// "ADD": an address (a URL, an e-mail).
    Add,
}

impl PosTag {
    /// Every tag's name, in a fixed order that model files rely on: a tag's
    /// [`PosTag::index`] is its place here.
    pub const NAMES: [&'static str; 48] = [
        "CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNS", "NNP",
        "NNPS", "PDT", "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB",
        "VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "WP$", "WRB", ".", ",", ":", "``", "''",
        "-LRB-", "-RRB-", "#", "$", "HYPH", "NFP", "ADD",
    ];

    /// The tag of a name, or `None` for a name outside the tag set.
    pub fn from_name(name: &str) -> Option<PosTag> {
        PosTag::NAMES
            .iter()
            .position(|candidate| *candidate == name)
            .and_then(PosTag::from_index)
    }

    /// The tag of an index into [`PosTag::NAMES`].
    pub fn from_index(index: usize) -> Option<PosTag> {
        u8::try_from(index).ok().and_then(PosTag::from_repr)
    }

    /// Its index in [`PosTag::NAMES`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name: "NNP", "VBD", ...
    pub fn name(self) -> &'static str {
        PosTag::NAMES[self.index()]
    }

    /// A verb, in any form ("VB", "VBD", "VBG", ...).
    pub fn is_verb(self) -> bool {
        use PosTag::*;
        matches!(self, Vb | Vbd | Vbg | Vbn | Vbp | Vbz)
    }

    /// A verb or a modal: what a clause turns on.
    pub fn is_verb_or_modal(self) -> bool {
        self.is_verb() || self.is_modal()
    }

    /// A finite verb or a modal, which only a clause of its own holds
    /// ("said", "says", "will"), unlike an infinitive or a participle.
    pub fn is_finite(self) -> bool {
        matches!(self, PosTag::Vbd | PosTag::Vbz | PosTag::Vbp | PosTag::Md)
    }

    /// A modal ("will", "could").
    pub fn is_modal(self) -> bool {
        self == PosTag::Md
    }

    /// A verb in the past tense ("said").
    pub fn is_past_tense(self) -> bool {
        self == PosTag::Vbd
    }

    /// A past participle ("reported").
    pub fn is_past_participle(self) -> bool {
        self == PosTag::Vbn
    }

    /// A past tense or a past participle, which a word like "reported"
    /// may be either of.
    pub fn is_past_form(self) -> bool {
        self.is_past_tense() || self.is_past_participle()
    }

    /// A gerund or present participle ("saying").
    pub fn is_gerund(self) -> bool {
        self == PosTag::Vbg
    }

    /// An adverb, comparative and superlative included.
    pub fn is_adverb(self) -> bool {
        matches!(self, PosTag::Rb | PosTag::Rbr | PosTag::Rbs)
    }

    /// A plain adverb ("nearly"), neither comparative nor superlative.
    pub fn is_plain_adverb(self) -> bool {
        self == PosTag::Rb
    }

    /// An adjective, comparative and superlative included.
    pub fn is_adjective(self) -> bool {
        matches!(self, PosTag::Jj | PosTag::Jjr | PosTag::Jjs)
    }

    /// A noun, common or proper, singular or plural.
    pub fn is_noun(self) -> bool {
        matches!(self, PosTag::Nn | PosTag::Nns | PosTag::Nnp | PosTag::Nnps)
    }

    /// A proper noun, singular or plural.
    pub fn is_proper_noun(self) -> bool {
        matches!(self, PosTag::Nnp | PosTag::Nnps)
    }

    /// A plural noun, common or proper.
    pub fn is_plural_noun(self) -> bool {
        matches!(self, PosTag::Nns | PosTag::Nnps)
    }

    /// A determiner ("the", "a").
    pub fn is_determiner(self) -> bool {
        self == PosTag::Dt
    }

    /// A cardinal number.
    pub fn is_number(self) -> bool {
        self == PosTag::Cd
    }

    /// A preposition, a subordinating conjunction or "to" ("by", "of", "to").
    pub fn is_preposition(self) -> bool {
        matches!(self, PosTag::In | PosTag::To)
    }

    /// A wh-pronoun or wh-determiner ("who", "which"), which opens a
    /// relative clause.
    pub fn is_relative(self) -> bool {
        matches!(self, PosTag::Wp | PosTag::Wdt)
    }

    /// A function word (a determiner, conjunction, preposition, pronoun,
    /// adverb or modal), which no name begins with.
    pub fn is_function_word(self) -> bool {
        use PosTag::*;
        matches!(
            self,
            Cc | Dt
                | Ex
                | In
                | Md
                | Pdt
                | Prp
                | PrpPossessive
                | Rb
                | To
                | Wdt
                | Wp
                | WpPossessive
                | Wrb
        )
    }
}

/// How an attribution gives its content.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[strum(serialize_all = "snake_case")]
pub enum AttributionKind {
    /// The content lies wholly inside quotation marks.
    Direct,
    /// Part of the content is quoted.
    Mixed,
    /// A paraphrase, with no quotation marks.
    Indirect,
    /// "According to ..." and its kin.
    AccordingTo,
}

/// One attribution in the PolNeAR scheme: who (source) says (cue) what (content).
///
/// Each role is a list of fragments, in text order, because PolNeAR spans may be
/// discontinuous (a content interrupted by its cue, or running over a paragraph break).
#[derive(Clone, PartialEq, Debug)]
pub struct Attribution {
    /// Who it is attributed to; empty when the article names no source.
    pub source: Vec<Span>,
    /// The words that attribute.
    pub cue: Vec<Span>,
    /// What is attributed.
    pub content: Vec<Span>,
    /// How the content is given.
    pub kind: AttributionKind,
    /// The model's confidence, in `[0, 1]`.
    pub confidence: f32,
}

/// One attribution as a tagger found it, in token indices of the document,
/// before the attribution rules turn it into an [`Attribution`]: the encoder
/// makes these and `attest_attrib::attributions_from` reads them, so the record
/// lives here, where both stage crates meet.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundAttribution {
    /// The cue's tokens.
    pub cue: Range<usize>,
    /// Source runs, in order.
    pub sources: Vec<Range<usize>>,
    /// Content runs, in order.
    pub content: Vec<Range<usize>>,
    /// How sure the tagger is of the cue, in `[0, 1]`.
    pub confidence: f32,
}

/// How firmly an attribution puts its content.
///
/// Its order is the order of the enum, the order every list of stances
/// follows (summaries, the ledger's statistics, their columns).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum StanceLabel {
    /// Said, told, wrote, according to.
    Asserts,
    /// Confirmed, acknowledged, verified.
    Confirms,
    /// Denied, rejected, disputed.
    Denies,
    /// Declined to confirm, refused to comment, could not be reached.
    Declines,
    /// Claimed, alleged, insisted: the article keeps its distance.
    Claims,
    /// Reported, was quoted as saying.
    Reports,
    /// Thinks, believes, fears, expects.
    Believes,
    /// Plans, vows, promises, threatens.
    Intends,
}

impl StanceLabel {
    /// Every stance, in the order summaries list them (the order of the enum).
    pub const ALL: &'static [StanceLabel] = <StanceLabel as strum::VariantArray>::VARIANTS;

    /// Its name, as JSON, the ledger and table columns spell it.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The stance of one attribution and the words that decided it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Stance {
    /// The attribution it qualifies.
    pub attribution: AttributionId,
    /// The stance.
    pub label: StanceLabel,
    /// The words that decided it ("did not", "confirm").
    pub evidence: Vec<Span>,
}

/// What kind of source speaks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SourceKind {
    /// A named person.
    Person,
    /// A company, union, agency, government body or police force.
    Organization,
    /// A person or group the article does not name ("officials", "a source familiar with").
    Unnamed,
    /// A document: a report, a statement, court filings.
    Document,
    /// A news outlet ("Reuters reported").
    MediaOutlet,
    /// A social-media post.
    SocialMedia,
}

impl SourceKind {
    /// Every source type, in the order summaries list them (the order of the enum).
    pub const ALL: &'static [SourceKind] = <SourceKind as strum::VariantArray>::VARIANTS;
}

/// A source type as the labelling guideline names it: coarser than attest's
/// [`SourceKind`], which tells documents, outlets and social media
/// apart, and with a value for the attribution that has no source span.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Debug,
    strum::VariantArray,
    strum::IntoStaticStr,
    strum::EnumString,
)]
pub enum LabelledType {
    /// A person named anywhere in the article.
    #[strum(serialize = "named person")]
    NamedPerson,
    /// An organization named in the article, or someone speaking for it.
    #[strum(serialize = "named organization")]
    NamedOrganization,
    /// People or groups the article does not name.
    #[strum(serialize = "unnamed-or-anonymous")]
    UnnamedOrAnonymous,
    /// A text, an artifact or a news outlet.
    #[strum(serialize = "document-or-media")]
    DocumentOrMedia,
    /// The attribution has no source span.
    #[strum(serialize = "none (implicit)")]
    Implicit,
}

impl LabelledType {
    /// Every type, in the order confusion tables list them.
    pub const ALL: &'static [LabelledType] = <LabelledType as strum::VariantArray>::VARIANTS;

    /// The guideline's name of the type.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The guideline's type of one of attest's source kinds.
    pub fn of_kind(kind: SourceKind) -> LabelledType {
        match kind {
            SourceKind::Person => LabelledType::NamedPerson,
            SourceKind::Organization => LabelledType::NamedOrganization,
            SourceKind::Unnamed => LabelledType::UnnamedOrAnonymous,
            SourceKind::Document | SourceKind::MediaOutlet | SourceKind::SocialMedia => {
                LabelledType::DocumentOrMedia
            }
        }
    }
}

/// Grammatical gender as the article states it, by pronoun or honorific.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Gender {
    /// He, Mr.
    Masculine,
    /// She, Mrs., Ms.
    Feminine,
}

/// One canonical source of an article.
#[derive(Clone, PartialEq, Debug)]
pub struct Source {
    /// The fullest name the article gives.
    pub name: String,
    /// What kind of source it is.
    pub kind: SourceKind,
    /// Every span that refers to it.
    pub mentions: Vec<Span>,
    /// Descriptions the article attaches ("a Reuters photographer").
    pub descriptors: Vec<Span>,
    /// Gender, only where the article states it.
    pub gender: Option<Gender>,
    /// The attributions it speaks in.
    pub attributions: Vec<AttributionId>,
    /// Why each mention that joined a source named or described before it was
    /// taken for this source, in text order: identity, not shared words, is
    /// what merges two mentions.
    pub merges: Vec<Merge>,
}

/// One mention joined to a source it does not first name, and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Merge {
    /// The mention joined.
    pub mention: Span,
    /// Why it is the same source.
    pub reason: MergeReason,
}

/// Why a mention names a source already in the article.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MergeReason {
    /// The same name again ("Acme Corp." and "Acme Corp.").
    SameName,
    /// A person's surname alone ("Smalls" for "Chris Smalls").
    Surname,
    /// A surname with an honorific or title ("Mr. Smalls", "Sen. Ortiz").
    Honorific,
    /// A shorter or fuller form of the name ("Brightwater" and "Brightwater
    /// Terminals Inc.").
    ShortenedName,
    /// An acronym of the name ("FDA" for "Food and Drug Administration").
    Acronym,
    /// A pronoun resolved to the source ("she", "it").
    Pronoun,
    /// A description of the one source in play that fits it ("the company",
    /// "the senator", "the report").
    Description,
    /// A spokesperson, lawyer or representative speaking for the source.
    Spokesperson,
}

/// One passage of the article inside quotation marks, and whose words it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Quotation {
    /// The quoted words without their marks; to the end of the paragraph when
    /// the quotation runs on into the next one.
    pub span: Span,
    /// Whose words they are, or why no one's.
    pub status: QuoteStatus,
    /// The attribution whose content holds the passage.
    pub attribution: Option<AttributionId>,
    /// The canonical source whose words they are: its attribution's, or the
    /// speaker a floating quote continues.
    pub source: Option<SourceId>,
}

/// Whose words a quotation is, or why it has no speaker.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum QuoteStatus {
    /// The content of an attribution.
    Attributed,
    /// A quote paragraph with no cue of its own that continues the speaker
    /// before it ("…," she said. / "And we will win.").
    Floating,
    /// The title of a work: a film, a book, a show.
    Title,
    /// Scare quotes: words the writer sets off ("green" energy).
    Scare,
    /// A chant, a slogan, the text of a sign or a banner.
    Slogan,
    /// Someone's words, but no speaker can be told.
    Unattributed,
}

impl QuoteStatus {
    /// Every status, in the order summaries list them (the order of the enum).
    pub const ALL: &'static [QuoteStatus] = <QuoteStatus as strum::VariantArray>::VARIANTS;
}

/// A statement the article makes only on hearsay ("reportedly", "allegedly").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hedge {
    /// The hedging words.
    pub cue: Span,
    /// What they hedge.
    pub scope: Span,
}

/// The type of a named entity.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[strum(serialize_all = "snake_case")]
pub enum EntityLabel {
    /// A person.
    Person,
    /// An organization.
    Organization,
    /// A place.
    Location,
    /// Any other name: events, nationalities, works.
    Other,
}

/// One mention of a named entity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entity {
    /// Where it is mentioned.
    pub span: Span,
    /// Its type.
    pub label: EntityLabel,
    /// Mentions of the same entity in an article share a cluster.
    pub cluster: ClusterId,
}

/// A number with what it counts.
#[derive(Clone, PartialEq, Debug)]
pub struct Quantity {
    /// Where it is written.
    pub span: Span,
    /// The lowest value it allows; equal to `high` for an exact value.
    pub low: Option<f64>,
    /// The highest value it allows; `None` for a lower bound ("more than 200").
    pub high: Option<f64>,
    /// What is counted: an ISO 4217 code, "percent", "years", or the counted noun.
    pub unit: String,
}

/// How precise a resolved time is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Granularity {
    /// A year.
    Year,
    /// A month.
    Month,
    /// A week.
    Week,
    /// A day.
    Day,
    /// A part of a day ("Monday night").
    PartOfDay,
    /// An hour or minute.
    Minute,
}

/// A time expression and, when it can be resolved, its value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TimeExpr {
    /// Where it is written.
    pub span: Span,
    /// An ISO 8601 value or interval, when resolved.
    pub value: Option<String>,
    /// How precise the value is.
    pub granularity: Option<Granularity>,
    /// Why it was left unresolved ("no publication time").
    pub unresolved: Option<String>,
}

/// Something a stage noticed about an article without failing it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// Who noticed: a reader or a stage.
    pub origin: &'static str,
    /// What, in a sentence that names the place (byte offset, line).
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::PosTag;

    fn tags(class: fn(PosTag) -> bool) -> Vec<&'static str> {
        (0..PosTag::NAMES.len())
            .filter_map(PosTag::from_index)
            .filter(|tag| class(*tag))
            .map(PosTag::name)
            .collect()
    }

    #[test]
    fn each_class_holds_exactly_its_penn_treebank_tags() {
        assert_eq!(tags(PosTag::is_finite), ["MD", "VBD", "VBP", "VBZ"]);
        assert_eq!(
            tags(PosTag::is_verb_or_modal),
            ["MD", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ"]
        );
        assert_eq!(tags(PosTag::is_past_form), ["VBD", "VBN"]);
        assert_eq!(tags(PosTag::is_adverb), ["RB", "RBR", "RBS"]);
        assert_eq!(tags(PosTag::is_adjective), ["JJ", "JJR", "JJS"]);
        assert_eq!(tags(PosTag::is_noun), ["NN", "NNS", "NNP", "NNPS"]);
        assert_eq!(tags(PosTag::is_proper_noun), ["NNP", "NNPS"]);
        assert_eq!(tags(PosTag::is_plural_noun), ["NNS", "NNPS"]);
        let function = tags(PosTag::is_function_word);
        assert!(function.contains(&"PRP$") && function.contains(&"MD"));
        assert!(!function.contains(&"RBR") && !function.contains(&"NN"));
        assert_eq!(tags(PosTag::is_plain_adverb), ["RB"]);
        assert_eq!(tags(PosTag::is_preposition), ["IN", "TO"]);
        assert_eq!(tags(PosTag::is_relative), ["WDT", "WP"]);
    }

    #[test]
    fn each_tag_is_its_place_among_the_names() {
        // Model files store tags by index: the enum's order is the names'.
        for (index, name) in PosTag::NAMES.iter().enumerate() {
            let tag = PosTag::from_name(name).unwrap();
            assert_eq!((tag.index(), tag.name()), (index, *name));
            assert_eq!(PosTag::from_index(index), Some(tag));
        }
        assert_eq!(PosTag::from_index(PosTag::NAMES.len()), None);
        assert_eq!(PosTag::from_name("NNX"), None);
    }
}
