//! Canonical sources: every attribution's source span resolved to one source
//! of the article.
//!
//! Resolution runs in three passes over an article.
//!
//! 1. **Names**, from the entity layer. Each mention of a person or an
//!    organization is a name, and the mentions of one entity cluster are one
//!    entity: the resolver links no names itself ("Smalls" and "Mr. Smalls"
//!    join "Chris Smalls", "NYPD" the New York Police Department, because
//!    the entity stage clustered them). Honorifics ("Mr.", "Sen.", "Fire
//!    Chief") are split off a name: they state gender and title. Narrow rules
//!    correct the tagger on names it has never seen: a mention is widened
//!    over the capitalized words it left beside it ("Youth Voices Dunmore",
//!    "Riders for Reliable Transit"), without the common nouns that open a
//!    sentence ("Owner Kenji Ōtani"), a word tagged a determiner or
//!    conjunction ("Neither Acme nor the city") or a person before her group
//!    ("Ines Marlow of Clean Kettle"); a name holding an organization word
//!    ("Inc.", "Department", "Union"), or a plural noun beside other words ("Warehouse
//!    Workers United"), is an organization's, and one holding an outlet word
//!    ("Post", "News") an outlet's, whatever its label; a person-labelled
//!    name the article speaks of as an organization (an apposition, "which",
//!    "said that it", "the Harlan Plastics factory") is one; a person-labelled
//!    name that is or opens an organization's name joins it ("Pinecrest",
//!    "Pinecrest Logistics"), and an outlet's or organization's name that
//!    ends another's joins it ("the Sentinel", "The Varden Sentinel"), since
//!    the entity stage clusters each label apart; a name closed by a company
//!    suffix ("Novalight Inc.") is read where the tagger found none; a source
//!    phrase of capitalized words that the tagger missed is the name written
//!    with those words before it, or the organization whose name it ends,
//!    opens or spells ("Pinecrest also said", "The Mariners", "HLA"), else an
//!    outlet's name when it ends with an outlet word ("The Ledger has
//!    learned"), and one that is a place and nothing more ("Russia said", "the
//!    White House said") the organization that speaks there; names joined by "and" ("Obama and
//!    Clinton", "NASA and the Pentagon") are one named source. Other mentions
//!    of places, other names and a platform a post is made on ("on LinkedIn")
//!    are no names.
//! 2. **Source phrases**, in text order. A source span is split at its commas;
//!    the part that is a name, else a pronoun, else the first part is its core,
//!    the other parts its descriptors ("Hugh Hill, a doctor" → "a doctor").
//!    A pronoun takes the most recent compatible referent before it (he/she: a
//!    person or unnamed individual whose stated gender does not conflict; it:
//!    an organization, outlet or document; they/we: those or an unnamed group).
//!    A description is read by its head noun (the head-noun lexicon):
//!    "the company" joins the most recent organization of that kind, "the
//!    senator" or "the doctor" the most recent person with that title or
//!    descriptor, "the source" the most recent unnamed source of that head;
//!    "officials", "witnesses", "a source familiar with" are unnamed; "court
//!    documents", "the report", "a statement" documents. A spokesperson speaks
//!    for the organization they are attached to ("a spokesperson for Acme",
//!    "an Acme spokeswoman", "the company's spokesman"): the source is that
//!    organization, the spokesperson phrase a descriptor; a named spokesperson
//!    ("spokesman Tom Ferreira") is a person, and one with no organization is
//!    unnamed. One description shared by two attributions ("Shop owners say
//!    … and plan …") is one source. "They", "both men" or "the senators"
//!    after two people named together stand for the pair; a transcript's
//!    speaker label in capitals that names no one before is a person of its
//!    own; a relative "who" after a description of a named person ("Ann Lee
//!    is a former lawyer who") is that person.
//! 3. **Continuity.** An attribution with no source span inherits the source
//!    of the attribution just before it when that one stands in the same or the
//!    preceding paragraph (a quote paragraph after "…," she said.), and when it
//!    is someone speaking: no cue at all, or an active verb ("said",
//!    "saying", "told"). A passive ("was criticized as"), a noun ("criticism
//!    of") or an appearance ("seems") has no speaker to continue: on PolNeAR
//!    dev, inheriting for those credited the speaker before with 101 statements
//!    whose readers found no source. Otherwise the attribution keeps no
//!    source: nothing is invented.
//!
//! A source that is no person and speaks only through social-media cues ("wrote
//! on Facebook", "tweeted", "in a post on X") is typed social media. Gender
//! comes only from honorifics and from pronouns resolved to the source.

use attest_doc::{
    AttributionId, ClusterId, Doc, Entity, EntityLabel, Gender, Layer, LayerError, Merge,
    MergeReason, PosTag, Source, SourceKind, Span, Stage, TokenKind, TokenView,
};
use attest_lang::{WordList, head_noun_is, listed};
use attest_learn::ModelError;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::classifier::Classifier;
use crate::hedge::is_hedge_adverb;
use crate::lexicon::{
    Head, head_class, honorific, is_advocacy_word, is_be, is_description_stop, is_name_stopword,
    is_org_follower, is_org_word, is_outlet_word, is_platform, is_posting_verb,
    is_public_body_word, names_kind_of, title_noun,
};
use crate::link::{Anaphor, Candidate, Choice};

/// How far back (in mentions, or in names and entities for the rules that
/// join them) an antecedent is looked for: far more than any news article needs, and a bound that keeps
/// a multi-megabyte text linear.
const LOOKBACK: usize = 400;

/// The source stage: the rules, with the learned pronoun links
/// ([`crate::link`]) and then the learned source types ([`crate::types`])
/// when it has their models.
#[derive(Clone, Debug, Default)]
pub struct SourceResolver {
    types: Option<Classifier>,
    links: Option<Classifier>,
}

/// The source type model shipped with attest, trained by `attest train`.
static BUNDLED_TYPES: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/source-type.model"
));

/// The pronoun link model shipped with attest, trained by `attest train`.
static BUNDLED_LINKS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/source-link.model"
));

impl SourceResolver {
    /// The stage with the rules alone.
    pub fn rules() -> SourceResolver {
        SourceResolver::default()
    }

    /// The stage with a source type model file's bytes and a pronoun link
    /// model file's, each with the file's name for its errors.
    pub fn from_bytes(
        (types, types_file): (&[u8], &str),
        (links, links_file): (&[u8], &str),
    ) -> Result<SourceResolver, ModelError> {
        Ok(SourceResolver {
            types: Some(
                Classifier::from_bytes(types, crate::types::MODEL_KIND)
                    .map_err(|e| e.in_file(types_file))?,
            ),
            links: Some(
                Classifier::from_bytes(links, crate::link::MODEL_KIND)
                    .map_err(|e| e.in_file(links_file))?,
            ),
        })
    }

    /// The stage with the models built into attest; an error names the file.
    pub fn bundled() -> Result<SourceResolver, ModelError> {
        SourceResolver::from_bytes(
            (BUNDLED_TYPES, "bundled source-type.model"),
            (BUNDLED_LINKS, "bundled source-link.model"),
        )
    }

    /// The sources of `doc`, linked and typed by the models it has.
    pub fn resolve(&self, doc: &Doc) -> Resolution {
        let mut resolution = resolve_counted(doc, self.links.as_ref(), false).resolution;
        if let Some(types) = &self.types {
            crate::types::retype(doc, &mut resolution, types);
        }
        resolution
    }
}

impl Stage for SourceResolver {
    const NAME: &'static str = "sources";
    const REQUIRES: &'static [Layer] = &[
        Layer::Tokens,
        Layer::Sentences,
        Layer::Paragraphs,
        Layer::Entities,
        Layer::Attributions,
    ];
    const ASSIGNS: &'static [Layer] = &[Layer::Sources];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let resolution = self.resolve(doc);
        doc.set_sources(resolution.sources)
    }
}

/// How one attribution's source was found, for the sourcing distribution.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Route {
    /// The source span names a person, organization or outlet.
    Named,
    /// A pronoun resolved to a named source.
    PronounToName,
    /// A pronoun resolved to an unnamed source.
    PronounToUnnamed,
    /// A pronoun with no antecedent in the article.
    PronounUnresolved,
    /// A description ("the company", "the senator") resolved to a named source.
    DescriptionToName,
    /// An unnamed person or group ("officials", "a source").
    Unnamed,
    /// A document ("the report").
    Document,
    /// A social-media post.
    SocialMedia,
    /// A description that names no one and is of no other kind.
    Description,
    /// No source span: inherited from the quote before it.
    Inherited,
    /// No source span and no speaker to inherit.
    None,
}

/// The sources of an article and how each attribution found its own.
#[derive(Clone, Debug)]
pub struct Resolution {
    /// The canonical sources, in order of first mention.
    pub sources: Vec<Source>,
    /// For each attribution, the index of its source in `sources`.
    pub source_of: Vec<Option<usize>>,
    /// For each attribution, how its source was found.
    pub routes: Vec<Route>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Person,
    Organization,
    Media,
    Unnamed { plural: bool },
    Document,
    Social,
}

/// A name found in the text.
#[derive(Clone, Debug)]
struct Name {
    /// Tokens of the whole name, honorific and outlet "The" included.
    start: usize,
    end: usize,
    /// Tokens of the name proper.
    core: usize,
    kind: Kind,
    referent: Option<usize>,
    /// Why it was linked to a referent an earlier name made.
    link: Option<MergeReason>,
}

impl Name {
    /// A person's name of more than one word or with an honorific: a lone
    /// word may be a place's ("federal court in Marren").
    fn is_full_person(&self) -> bool {
        self.kind == Kind::Person && (self.end - self.core > 1 || self.core > self.start)
    }
}

/// A referent: a named entity or a described source.
#[derive(Clone, Debug)]
struct Referent {
    kind: Kind,
    name: String,
    /// The words of the fullest name, as written.
    words: Vec<String>,
    /// Titles and descriptor heads ("senator", "doctor", "spokesman").
    heads: BTreeSet<String>,
    /// For described sources: the description without its determiner.
    key: Option<String>,
    gender: Option<Gender>,
    /// Where it was mentioned, as byte offsets: a set, so that the last
    /// mention before a place is a lookup however often it was mentioned.
    positions: BTreeSet<usize>,
    mentions: Vec<Span>,
    descriptors: Vec<Span>,
    attributions: Vec<usize>,
    social: Vec<bool>,
    has_honorific: bool,
    /// Whether the words around one of its names speak of it as an
    /// organization ([`State::org_context`]).
    org_context: bool,
    /// Whether a word right after one of its names speaks of it as an
    /// organization ("the Harlan Plastics factory").
    org_follower: bool,
    /// Where a spokesperson spoke for it: "he" and "she" may stand for those.
    voices: BTreeSet<usize>,
    /// The mentions that joined it, and why.
    merges: Vec<Merge>,
}

impl Referent {
    fn new(kind: Kind, name: String, words: Vec<String>) -> Referent {
        Referent {
            kind,
            name,
            words,
            heads: BTreeSet::new(),
            key: None,
            gender: None,
            positions: BTreeSet::new(),
            mentions: Vec::new(),
            descriptors: Vec::new(),
            attributions: Vec::new(),
            social: Vec::new(),
            has_honorific: false,
            org_context: false,
            org_follower: false,
            voices: BTreeSet::new(),
            merges: Vec::new(),
        }
    }

    /// The last position before `at` the referent was mentioned at.
    fn last_before(&self, at: usize) -> Option<usize> {
        self.positions.range(..at).next_back().copied()
    }

    fn is_person_like(&self) -> bool {
        match self.kind {
            Kind::Person => {
                self.words.len() > 1 || self.has_honorific || !self.attributions.is_empty()
            }
            Kind::Unnamed { plural } => !plural,
            _ => false,
        }
    }

    /// A name typed person by its shape that the article speaks of as an
    /// organization, and never as a person: no honorific, no "he" or "she",
    /// no person's title.
    fn speaks_as_organization(&self) -> bool {
        self.org_context
            && !self.has_honorific
            && self.gender.is_none()
            && !self
                .heads
                .iter()
                .any(|h| matches!(head_class(h), Some(Head::Person | Head::Spokesperson)))
    }

    fn has_word(&self, word: &str) -> bool {
        self.words.iter().any(|w| w.eq_ignore_ascii_case(word))
    }
}

/// Resolves the sources of `doc` by the rules alone; `doc` must hold tokens,
/// sentences, paragraphs, entities and attributions.
pub fn resolve(doc: &Doc) -> Resolution {
    resolve_counted(doc, None, false).resolution
}

/// What one resolution made, beyond the sources.
struct Resolved {
    resolution: Resolution,
    /// How many stored names, mentions and referents the searches visited:
    /// the work that must stay linear in the attributions, which the tests
    /// hold.
    #[cfg_attr(not(test), allow(dead_code))]
    visited: usize,
    /// Each pronoun's candidates, when asked for.
    choices: Vec<Choice>,
    /// Each referent's name, by the index the choices use.
    names: Vec<String>,
}

/// The pronoun choices of `doc`'s attributions by the rules, and the names
/// of the referents they weigh, for training the link model.
pub(crate) fn pronoun_choices(doc: &Doc) -> (Vec<Choice>, Vec<String>) {
    let resolved = resolve_counted(doc, None, true);
    (resolved.choices, resolved.names)
}

/// Resolves the sources of `doc`, linking pronouns with `links` when given,
/// and keeping each pronoun's candidates when `keep_choices`.
fn resolve_counted(doc: &Doc, links: Option<&Classifier>, keep_choices: bool) -> Resolved {
    let view = TokenView::new(doc);
    let mut state = State {
        links,
        choices: keep_choices.then(Vec::new),
        attribution: 0,
        last_speaker: None,
        view: &view,
        names: Vec::new(),
        read: 0,
        added_at: BTreeMap::new(),
        places: Vec::new(),
        place_referents: BTreeMap::new(),
        missed_outlets: BTreeMap::new(),
        pairs: BTreeMap::new(),
        events: Default::default(),
        referents: Vec::new(),
        visited: Cell::new(0),
    };
    state.read_entities(doc.entities());
    state.read = state.names.len();
    state.join_shortened_organizations();
    state.type_by_context();

    let attributions = doc.attributions();
    let mut order: Vec<usize> = (0..attributions.len()).collect();
    let position = |index: usize| -> usize {
        attributions.get(index).map_or(0, |a| {
            a.source
                .iter()
                .chain(&a.cue)
                .chain(&a.content)
                .map(|s| s.byte_start())
                .min()
                .unwrap_or(0)
        })
    };
    order.sort_by_key(|&index| (position(index), index));

    let mut referent_of: Vec<Option<usize>> = vec![None; attributions.len()];
    let mut routes: Vec<Route> = vec![Route::None; attributions.len()];
    for &index in &order {
        let Some(attribution) = attributions.get(index) else {
            continue;
        };
        let source_tokens: Vec<usize> = attribution
            .source
            .iter()
            .flat_map(|span| view.tokens_in(*span))
            .collect();
        if source_tokens.is_empty() || is_hedge_cue(&view, attribution) {
            continue;
        }
        let social = is_social(&view, attribution);
        state.attribution = index;
        if let Some((referent, route)) = state.resolve_phrase(&source_tokens) {
            if let Some(r) = state.referents.get_mut(referent) {
                r.attributions.push(index);
                r.social.push(social);
            }
            referent_of[index] = Some(referent);
            routes[index] = route;
            state.last_speaker = Some(referent);
        }
    }

    // Continuity: a sourceless quote inherits from the attribution just before it.
    let paragraph_of = |byte: usize| -> usize {
        doc.paragraphs()
            .partition_point(|p| p.span.byte_end() <= byte)
    };
    let mut previous: Option<usize> = None;
    for &index in &order {
        let Some(attribution) = attributions.get(index) else {
            continue;
        };
        if referent_of[index].is_none()
            && attribution.source.is_empty()
            && (attribution.cue.is_empty() || is_speaking_cue(&view, attribution))
            && !is_hedge_cue(&view, attribution)
            && !is_question_cue(&view, attribution)
        {
            let inherited = previous.and_then(|before| {
                let earlier = attributions.get(before)?;
                let end = earlier
                    .content
                    .iter()
                    .chain(&earlier.cue)
                    .map(|s| s.byte_end())
                    .max()?;
                let start = position(index);
                let gap = paragraph_of(start).checked_sub(paragraph_of(end.saturating_sub(1)))?;
                (gap <= 1).then_some(referent_of[before]).flatten()
            });
            if let Some(referent) = inherited {
                let social = is_social(&view, attribution);
                if let Some(r) = state.referents.get_mut(referent) {
                    r.attributions.push(index);
                    r.social.push(social);
                }
                referent_of[index] = Some(referent);
                routes[index] = Route::Inherited;
            }
        }
        if referent_of[index].is_some() {
            previous = Some(index);
        }
    }

    let visited = state.visited.get();
    let choices = state.choices.take().unwrap_or_default();
    let names = state.referents.iter().map(|r| r.name.clone()).collect();
    Resolved {
        resolution: state.into_resolution(referent_of, routes),
        visited,
        choices,
        names,
    }
}

/// Whether a sourceless attribution's cue is a question put to someone ("When
/// asked whether…", "Asked about…"): the reporter asks, an implicit source, and
/// the speaker before is not the one asking.
fn is_question_cue(view: &TokenView<'_>, attribution: &attest_doc::Attribution) -> bool {
    attribution
        .cue
        .iter()
        .flat_map(|span| view.tokens_in(*span))
        .map(|k| view.word(k))
        .find(|w| *w != "when")
        .is_some_and(|w| w.eq_ignore_ascii_case("asked"))
}

/// Whether the cue is someone speaking in the active voice ("said", "told",
/// "according to"): only such a cue can continue the speaker before it. A
/// passive ("was criticized"), a noun ("criticism of") or an appearance
/// ("seems") has no speaker to continue.
fn is_speaking_cue(view: &TokenView<'_>, attribution: &attest_doc::Attribution) -> bool {
    let cue = view.tokens_of(&attribution.cue);
    let be_at = |k: usize| is_be(view.word(k));
    // A verb of its own: "were" in "there were complaints" is none.
    let verb = cue.iter().any(|&k| {
        (view
            .pos(k)
            .is_some_and(|t| t.is_verb_or_modal() && !t.is_past_participle())
            && !be_at(k))
            || view.word(k) == "according"
    });
    // "was said", "is not expected", "was widely seen as".
    let passive = cue.iter().enumerate().any(|(at, &k)| {
        be_at(k)
            && cue[at + 1..]
                .iter()
                .find(|&&j| !view.tag_is(j, PosTag::is_adverb))
                .is_some_and(|&j| view.tag_is(j, PosTag::is_past_participle))
    });
    let seeming = cue.iter().any(|&k| {
        matches!(
            view.word(k),
            "seem"
                | "seems"
                | "seemed"
                | "appear"
                | "appears"
                | "appeared"
                | "look"
                | "looks"
                | "looked"
        )
    });
    // A cue that opens with its own subject ("it showed", "there has been
    // speculation", "suspicions run high") or is a noun phrase ("the failure
    // to comprehend", "a rising tide of skepticism") says who speaks inside
    // it, or that no one does: only a cue that opens with the verb, an
    // adverb or "according" continues the speaker before it.
    let opens_with_verb = cue.first().is_some_and(|&k| {
        view.word(k) == "according"
            || view
                .pos(k)
                .is_some_and(|t| t.is_verb_or_modal() || t.is_adverb())
    });
    verb && !passive && !seeming && opens_with_verb
}

/// Whether the attribution's cue is only a hedge adverb ("reportedly", "was
/// reportedly"): such a statement names no speaker, and a source span beside
/// it is the subject of what is reported, not who reports it.
fn is_hedge_cue(view: &TokenView<'_>, attribution: &attest_doc::Attribution) -> bool {
    let mut words = view
        .tokens_of(&attribution.cue)
        .into_iter()
        .map(|k| view.word(k))
        .filter(|w| !is_be(w) && !matches!(*w, "has" | "have" | "had"));
    words.next().is_some_and(is_hedge_adverb) && words.next().is_none()
}

/// Whether an attribution is delivered as a social-media post.
fn is_social(view: &TokenView<'_>, attribution: &attest_doc::Attribution) -> bool {
    let cue: Vec<usize> = attribution
        .cue
        .iter()
        .flat_map(|span| view.tokens_in(*span))
        .collect();
    if cue.iter().any(|&i| is_posting_verb(view.word(i))) {
        return true;
    }
    let Some(&last) = cue.iter().max() else {
        return false;
    };
    let sentence = view.sentence_of(last);
    let window = cue
        .iter()
        .copied()
        .chain((last + 1)..sentence.end.min(last + 6))
        .chain(
            attribution
                .source
                .iter()
                .flat_map(|span| view.tokens_in(*span)),
        );
    window.into_iter().any(|i| is_platform(view.raw(i)))
}

struct State<'v, 'a> {
    /// The pronoun link model, if any.
    links: Option<&'v Classifier>,
    /// Each pronoun's candidates, kept when training.
    choices: Option<Vec<Choice>>,
    /// The attribution whose source is being resolved.
    attribution: usize,
    /// The source of the attribution resolved last.
    last_speaker: Option<usize>,
    view: &'v TokenView<'a>,
    names: Vec<Name>,
    /// How many of `names` were read from the entity layer (in text order);
    /// the rest were added for source phrases.
    read: usize,
    /// For each token inside a name added for a source phrase, the first
    /// such name: an index, so that finding a name is a lookup however many
    /// were added.
    added_at: BTreeMap<usize, usize>,
    /// The tokens and cluster of each place the tagger found, in text order.
    places: Vec<(std::ops::Range<usize>, ClusterId)>,
    /// The organization each place that speaks stands for.
    place_referents: BTreeMap<ClusterId, usize>,
    /// The outlets read from source phrases the tagger left out, by their words.
    missed_outlets: BTreeMap<Vec<String>, usize>,
    /// The joint source of two people named together ("Obama and McCain"),
    /// by their referents, made when "they" or "the two men" stands for them.
    pairs: BTreeMap<(usize, usize), usize>,
    /// Every (position, referent) mention, for recency searches.
    events: BTreeSet<(usize, usize)>,
    referents: Vec<Referent>,
    /// Stored items the searches visited (see [`resolve_counted`]).
    visited: Cell<usize>,
}

/// What a source phrase's core is.
enum Core {
    Name(usize),
    Pronoun(usize),
    Description(std::ops::Range<usize>),
}

/// A described source, read from its words.
struct Description {
    head: Option<Head>,
    head_word: String,
    definite: bool,
    fresh: bool,
    key: String,
    /// A name the description is attached to ("for Acme", "Acme's", "an Acme").
    affiliation: Option<usize>,
    /// An organization noun it is attached to ("the company's", "a company").
    affiliation_noun: Option<String>,
    /// Counsel acting for the name it is attached to ("lawyers for Acme"),
    /// who speak for it as a spokesperson does.
    counsel: bool,
    /// A person's title it is possessed by ("the mayor's spokesman"): the
    /// spokesperson of a person speaks as that person.
    possessor: Option<String>,
}

impl<'v, 'a> State<'v, 'a> {
    /// Counts one stored item visited by a search.
    fn visit(&self) {
        self.visited.set(self.visited.get() + 1);
    }

    /// The names closed by a company suffix ("Novalight Inc.", "Acme Corp.")
    /// that no mention of `mentions` holds: the tagger misses some names it
    /// has never seen, and a suffix leaves no doubt.
    fn company_names(
        &self,
        mentions: &[(std::ops::Range<usize>, EntityLabel, Option<ClusterId>)],
    ) -> Vec<std::ops::Range<usize>> {
        let view = self.view;
        let mut mentioned = mentions.iter().map(|(range, _, _)| range).peekable();
        let mut found = Vec::new();
        let mut last_end = 0;
        for k in 1..view.len() {
            while let Some(range) = mentioned.next_if(|range| range.end <= k) {
                last_end = last_end.max(range.end);
            }
            if !attest_lang::organization_word(view.raw(k), attest_lang::OrganizationUse::Suffix)
                || mentioned.peek().is_some_and(|range| range.start <= k)
            {
                continue;
            }
            let sentence = view.sentence_of(k);
            let mut start = k;
            while start > sentence.start.max(last_end)
                && view.kind(start - 1) == Some(TokenKind::Word)
                && view.is_capitalized(start - 1)
                && honorific(view.raw(start - 1)).is_none()
                && !is_name_stopword(view.raw(start - 1))
            {
                start -= 1;
            }
            if start < k {
                found.push(start..k + 1);
            }
        }
        found
    }

    /// Joins, before or after it, each untitled person the tagger found to
    /// the organization whose name it is or opens ("Pinecrest" and
    /// "Pinecrest Logistics", "Redrock Basin" and "Redrock Basin Mining"), and
    /// each outlet to the outlet whose name it ends ("the Sentinel", "The
    /// Varden Sentinel"): the tagger clusters each label apart and took a name
    /// it has never seen for a person's where the lexicon knows it for an
    /// organization's, and its clusters join a name only to those it opens.
    fn join_shortened_organizations(&mut self) {
        let mut joined: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, r) in self.referents.iter().enumerate() {
            let organization = self
                .referents
                .iter()
                .enumerate()
                .skip(i.saturating_sub(LOOKBACK))
                .take(2 * LOOKBACK)
                .find(|(_, o)| {
                    self.visit();
                    match (r.kind, o.kind) {
                        (Kind::Person, Kind::Organization | Kind::Media) => {
                            !r.has_honorific
                                && r.gender.is_none()
                                && o.words.len() >= r.words.len()
                                && o.words.starts_with(&r.words)
                        }
                        (Kind::Organization | Kind::Media, Kind::Organization | Kind::Media) => {
                            o.words.len() > r.words.len() && o.words.ends_with(&r.words)
                        }
                        _ => false,
                    }
                });
            if let Some((o, _)) = organization {
                joined.insert(i, o);
            }
        }
        for (&from, &to) in &joined {
            let positions = self
                .referents
                .get_mut(from)
                .map(|r| std::mem::take(&mut r.positions))
                .unwrap_or_default();
            for &position in &positions {
                self.events.remove(&(position, from));
                self.events.insert((position, to));
            }
            if let Some(r) = self.referents.get_mut(to) {
                r.positions.extend(positions);
            }
        }
        for name in &mut self.names {
            if let Some(&to) = name.referent.and_then(|r| joined.get(&r)) {
                name.referent = Some(to);
                name.link = Some(MergeReason::ShortenedName);
            }
        }
    }

    /// Whether the words around the name at `start..end` speak of it as an
    /// organization: an apposition headed by an organization noun after it
    /// ("Fair Play, a coalition of tenants") or before it ("the developer,
    /// Bend Homes,"), a "which" after it where a person takes "who", or "it"
    /// or "its" as what its cue reports ("Keel said in a statement that it").
    fn org_context(&self, start: usize, end: usize) -> bool {
        let view = self.view;
        let sentence_end = view.sentence_of(start).end;
        let phrase_head = |from: usize| -> Option<Head> {
            let mut head = None;
            for k in from..(from + 8).min(sentence_end) {
                if matches!(view.word(k), "'s" | "’s") {
                    // "the company's head of operations" is headed after it.
                    head = None;
                    continue;
                }
                if view.kind(k) != Some(TokenKind::Word)
                    || is_description_stop(view.word(k))
                    || matches!(view.word(k), "among" | "based" | "whose")
                {
                    break;
                }
                head = Some(k);
            }
            let head = view.word(head?);
            if head_noun_is(head, Head::Job) {
                return None;
            }
            head_class(head)
        };
        if view.word(end) == "," {
            let next = view.word(end + 1);
            if next == "which" {
                return true;
            }
            if matches!(next, "a" | "an" | "the" | "its")
                && phrase_head(end + 2) == Some(Head::Organization)
            {
                return true;
            }
        }
        let before = |k: usize| start.checked_sub(k).map_or("", |i| view.word(i));
        if before(1) == ","
            && head_class(before(2)) == Some(Head::Organization)
            && !head_noun_is(before(2), Head::Job)
            && (3..6).any(|k| {
                matches!(
                    before(k),
                    "a" | "an" | "the" | "its" | "their" | "'s" | "’s"
                )
            })
        {
            return true;
        }
        if attest_lang::stance_class(view.word(end)).is_some() {
            // "Vasquez said it was" speaks of something else; "said that it
            // had" and "said its crews" of the speaker.
            if view.word(end + 1) == "its" {
                return true;
            }
            for k in end + 1..(end + 9).min(sentence_end) {
                match view.word(k) {
                    "it" | "its" if view.word(k - 1) == "that" => return true,
                    "he" | "she" | "his" | "her" | "they" | "their" | "i" | "we" => return false,
                    _ if view.is_capitalized(k) => return false,
                    _ => {}
                }
            }
        }
        false
    }

    fn words_of(&self, from: usize, to: usize) -> Vec<String> {
        (from..to)
            .filter(|&k| self.view.kind(k) == Some(TokenKind::Word))
            .map(|k| self.view.raw(k).to_string())
            .collect()
    }

    fn text_of(&self, from: usize, to: usize) -> String {
        match (
            self.view.span(from),
            to.checked_sub(1).and_then(|k| self.view.span(k)),
        ) {
            (Some(a), Some(b)) if from < to => {
                a.cover(b).get(self.view.text()).unwrap_or("").into()
            }
            _ => String::new(),
        }
    }

    /// Reads the names of the article from its entity layer, with the rules
    /// of pass 1 in the module doc that correct the tagger.
    fn read_entities(&mut self, entities: &[Entity]) {
        let view = self.view;
        let mut mentions: Vec<(std::ops::Range<usize>, EntityLabel, Option<ClusterId>)> = entities
            .iter()
            .map(|e| (view.tokens_in(e.span), e.label, Some(e.cluster)))
            .collect();
        mentions.extend(
            self.company_names(&mentions)
                .into_iter()
                .map(|range| (range, EntityLabel::Organization, None)),
        );
        mentions.sort_by_key(|(range, _, _)| (range.start, range.end));
        let mut referent_of: BTreeMap<ClusterId, usize> = BTreeMap::new();
        let mut company_of: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        let mut mentions = mentions.into_iter().peekable();
        // Per sentence start, whether its words are capitalized like a
        // headline's: computed once per sentence.
        let mut headline: BTreeMap<usize, bool> = BTreeMap::new();
        while let Some((tokens, label, cluster)) = mentions.next() {
            let floor = self.names.last().map_or(0, |n| n.end);
            let ceiling = mentions
                .peek()
                .map_or(view.len(), |(next, _, _)| next.start);
            let (mut start, mut end) = (tokens.start, tokens.end);
            while start < end && !view.is_capitalized(start) {
                start += 1;
            }
            if start >= end || start < floor {
                continue;
            }
            let sentence = view.sentence_of(start);
            // Sentence-opening function words and common nouns ("Residents",
            // "Owner Kenji Ōtani") are no part of a name, nor a person's title
            // noun anywhere; inside a sentence an organization's name may
            // open with either ("activist group Everyone Hates Elon").
            let common = |k: usize| {
                let opens = k == sentence.start;
                (opens && is_name_stopword(view.raw(k)))
                    || ((opens || label == EntityLabel::Person)
                        && matches!(
                            head_class(view.word(k)),
                            Some(Head::Group | Head::Person | Head::Police)
                        ))
            };
            // A capitalized determiner or conjunction opening a sentence
            // ("Neither Acme nor the city responded") is no part of a name.
            let widens = |k: usize| {
                view.kind(k) == Some(TokenKind::Word)
                    && view.is_capitalized(k)
                    && !view.tag_is(k, PosTag::is_function_word)
                    && honorific(view.raw(k)).is_none()
                    && !is_name_stopword(view.raw(k))
            };
            // In a headline every word is capitalized, so the words beside a
            // name are no evidence of a longer name ("Warren Hammers Wells
            // Fargo CEO").
            let title_case = *headline.entry(sentence.start).or_insert_with(|| {
                let words: Vec<usize> = sentence
                    .clone()
                    .filter(|&k| {
                        view.kind(k) == Some(TokenKind::Word)
                            && !view.tag_is(k, PosTag::is_function_word)
                    })
                    .collect();
                words.len() >= 3 && words.iter().all(|&k| view.is_capitalized(k))
            });
            let widens = |k: usize| !title_case && widens(k);
            let lowest = floor.max(sentence.start);
            loop {
                while start > lowest && widens(start - 1) {
                    start -= 1;
                }
                // "Riders for Reliable Transit", "Friends of the Marsh".
                let mut before = start;
                if before > lowest && view.word(before - 1) == "the" {
                    before -= 1;
                }
                // "Members of the Brotherhood of Rail Conductors" and "Lawyers
                // for the Harlow Water Board" are people of an organization,
                // and "Ines Marlow of Clean Kettle" a person of hers: a name
                // so joined has one word before the connector.
                let people = |k: usize| {
                    common(k) && before < start && (start..end).any(|j| is_org_word(view.raw(j)))
                };
                match before.checked_sub(2) {
                    Some(k)
                        if k >= lowest
                            && matches!(view.word(k + 1), "of" | "for" | "and" | "&")
                            && widens(k)
                            && !(k > lowest && widens(k - 1))
                            && !people(k) =>
                    {
                        start = k;
                    }
                    _ => break,
                }
            }
            while end < ceiling.min(sentence.end) && widens(end) {
                end += 1;
            }
            // "Tenants Union of Lorne County" is an organization's name all along.
            if !(start..end).any(|k| is_org_word(view.raw(k))) {
                while start + 1 < end
                    && honorific(view.raw(start)).is_none()
                    && common(start)
                    && view.is_capitalized(start + 1)
                {
                    start += 1;
                }
            }
            // "Ines Marlow of Clean Kettle" is a person and her group; "Bank of
            // Dunmore" and "Friends of the Marsh" are one name.
            let mut person_of = false;
            if let Some(j) = (start + 2..end).find(|&j| matches!(view.word(j), "of" | "for"))
                && (start..j).all(|k| {
                    widens(k)
                        && !common(k)
                        && !is_org_word(view.raw(k))
                        && !is_outlet_word(view.raw(k))
                        && head_class(view.word(k)).is_none()
                })
            {
                end = j;
                person_of = true;
            }
            while start > floor && honorific(view.raw(start - 1)).is_some() {
                start -= 1;
            }
            // "Fire Chief Raymond Ortiz": a title may follow a capitalized word.
            // A title closes no name, and opens no organization's: "Varden
            // General" and "Varden General Hospital" are a hospital's.
            let mut core = (start..(end - 1).min(start + 3))
                .rev()
                .find(|&k| honorific(view.raw(k)).is_some())
                .filter(|&k| !(k..end).any(|j| is_org_word(view.raw(j))))
                .map_or(start, |k| k);
            let mut gender = None;
            let mut title = None;
            while core + 1 < end
                && let Some(stated) = honorific(view.raw(core))
            {
                gender = gender.or(stated);
                title = title.or(title_noun(view.raw(core)));
                core += 1;
            }
            if core >= end || (end - core == 1 && common(core)) {
                continue;
            }
            // "A post on LinkedIn" names where it was posted, no one who speaks.
            if start > 0
                && matches!(view.word(start - 1), "on" | "to" | "via")
                && (core..end).all(|k| is_platform(view.raw(k)))
            {
                continue;
            }
            let organization = (core..end).any(|k| is_org_word(view.raw(k)));
            let outlet = !organization && (core..end).any(|k| is_outlet_word(view.raw(k)));
            // A person's name holds no plural noun: "Warehouse Workers United",
            // "Growers for Tomorrow" are groups.
            let group = end - core > 1
                && (core..end).any(|k| head_class(view.word(k)) == Some(Head::Group));
            let kind = match label {
                _ if person_of => Kind::Person,
                _ if organization || group => Kind::Organization,
                _ if outlet => Kind::Media,
                _ if core > start => Kind::Person,
                EntityLabel::Person => Kind::Person,
                EntityLabel::Organization => Kind::Organization,
                EntityLabel::Location => {
                    if let Some(cluster) = cluster {
                        self.places.push((tokens, cluster));
                    }
                    continue;
                }
                EntityLabel::Other => continue,
            };
            if kind == Kind::Media && start > floor && view.raw(start - 1) == "The" {
                start -= 1;
            }
            let mut name = Name {
                start,
                end,
                core,
                kind,
                referent: None,
                link: None,
            };
            let words = self.words_of(core, end);
            let known = match cluster {
                Some(cluster) => referent_of.get(&cluster),
                None => company_of.get(&words),
            };
            let referent = match known.copied() {
                Some(r) => {
                    name.link = self.link_reason(&name, &words, r);
                    self.absorb(r, &name, &words);
                    r
                }
                None => {
                    let r = self.new_entity(&name, words.clone());
                    match cluster {
                        Some(cluster) => referent_of.insert(cluster, r),
                        None => company_of.insert(words, r),
                    };
                    r
                }
            };
            name.referent = Some(referent);
            let organization_follows = is_org_follower(view.word(end));
            let org_context = self.org_context(start, end);
            let position = view.span(start).map_or(0, |s| s.byte_start());
            self.events.insert((position, referent));
            if let Some(r) = self.referents.get_mut(referent) {
                r.positions.insert(position);
                if r.gender.is_none() {
                    r.gender = gender;
                }
                if let Some(title) = title {
                    r.heads.insert(title.to_string());
                }
                if core > start && kind == Kind::Person {
                    r.has_honorific = true;
                }
                r.org_context |= org_context;
                r.org_follower |= organization_follows;
            }
            self.names.push(name);
        }
    }

    /// Types organization, once all names are linked, each name typed person
    /// by its shape that the article speaks of as an organization, so that
    /// "the company" and "it" may find it.
    fn type_by_context(&mut self) {
        for r in &mut self.referents {
            if r.kind == Kind::Person
                && ((r.org_follower && !r.has_honorific) || r.speaks_as_organization())
            {
                r.kind = Kind::Organization;
            }
        }
    }

    /// Why `name` (of `words`) is the referent an earlier name made: read
    /// before [`State::absorb`] lengthens the referent's name.
    fn link_reason(&self, name: &Name, words: &[String], referent: usize) -> Option<MergeReason> {
        let r = self.referents.get(referent)?;
        let person = r.kind == Kind::Person;
        Some(if r.words == words {
            MergeReason::SameName
        } else if words.len() == 1 && person && r.words.last() == words.last() {
            if name.core > name.start {
                MergeReason::Honorific
            } else {
                MergeReason::Surname
            }
        } else if words.len() == 1 && words.first().is_some_and(|w| is_acronym_of(w, &r.words)) {
            MergeReason::Acronym
        } else {
            MergeReason::ShortenedName
        })
    }

    fn absorb(&mut self, referent: usize, name: &Name, words: &[String]) {
        let text = self.name_text(name);
        let Some(r) = self.referents.get_mut(referent) else {
            return;
        };
        // The lexicon types a name the tagger took for a person's.
        if r.kind == Kind::Person && name.kind != Kind::Person && !r.has_honorific {
            r.kind = name.kind;
        }
        if words.len() > r.words.len()
            || (words.len() == r.words.len() && text.len() > r.name.len())
        {
            r.words = words.to_vec();
            r.name = text;
        }
    }

    fn name_text(&self, name: &Name) -> String {
        // A bare surname keeps its honorific: "Mr. Smalls" says more than "Smalls".
        let from = if name.kind == Kind::Media || name.end - name.core == 1 {
            name.start
        } else {
            name.core
        };
        self.text_of(from, name.end)
    }

    fn new_entity(&mut self, name: &Name, words: Vec<String>) -> usize {
        let text = self.name_text(name);
        self.referents.push(Referent::new(name.kind, text, words));
        self.referents.len() - 1
    }

    /// The name whose tokens hold every word token of `from..to`.
    fn name_covering(&self, from: usize, to: usize) -> Option<usize> {
        let words: Vec<usize> = (from..to)
            .filter(|&k| self.view.kind(k) == Some(TokenKind::Word))
            .filter(|&k| !matches!(self.view.word(k), "the" | "a" | "an"))
            .collect();
        let (&first, &last) = (words.first()?, words.last()?);
        self.name_at(first)
            .filter(|&i| self.names.get(i).is_some_and(|n| last < n.end))
    }

    /// The names read from the entity layer, in text order and disjoint.
    fn read_names(&self) -> &[Name] {
        self.names.get(..self.read).unwrap_or(&[])
    }

    /// The name holding `token`: a binary search over the names read from the
    /// entity layer, else the first added later that holds it, from their
    /// index.
    fn name_at(&self, token: usize) -> Option<usize> {
        self.visit();
        let at = self.read_names().partition_point(|n| n.start <= token);
        at.checked_sub(1)
            .filter(|&i| self.names.get(i).is_some_and(|n| token < n.end))
            .or_else(|| self.added_at.get(&token).copied())
    }

    /// Resolves one source phrase; returns the referent and the route.
    fn resolve_phrase(&mut self, tokens: &[usize]) -> Option<(usize, Route)> {
        let parts = self.split_parts(tokens);
        let mut core: Option<(Core, usize)> = None;
        let mut title_prefix: Option<std::ops::Range<usize>> = None;
        for (p, part) in parts.iter().enumerate() {
            if let Some(name) = self.name_covering(part.start, part.end) {
                core = Some((Core::Name(name), p));
                break;
            }
            // "Ada Byrne of Clean Water": the name before "of" or "for" speaks.
            if let Some(name) = self.name_at(part.start)
                && let Some(n) = self.names.get(name)
                && n.start == part.start
                && n.is_full_person()
                && matches!(self.view.word(n.end), "of" | "for")
            {
                core = Some((Core::Name(name), p));
                break;
            }
        }
        if core.is_none()
            && let Some((p, name)) = parts
                .iter()
                .enumerate()
                .find_map(|(p, part)| Some((p, self.names_joined(part.clone())?)))
        {
            core = Some((Core::Name(name), p));
        }
        if core.is_none() {
            // "chief executive Priya Raman", "Board chair Peter Lindqvist": a
            // person's name closing the part, the words before it a
            // descriptor; so is an organization's after the noun that says
            // what it is ("the consulting firm Harlow Partners", "activist
            // group Clean Rivers Now").
            for (p, part) in parts.iter().enumerate() {
                let Some(last) = part.end.checked_sub(1) else {
                    continue;
                };
                if let Some(name) = self.name_at(last)
                    && let Some(n) = self.names.get(name)
                    && n.end == part.end
                    && n.start > part.start
                    && (n.is_full_person()
                        || (matches!(n.kind, Kind::Organization | Kind::Media)
                            && matches!(
                                head_class(self.view.word(n.start - 1)),
                                Some(Head::Organization | Head::Media | Head::Group)
                            )
                            // "a report by the firm Greyfin Labs" is the report's.
                            && !(part.start..n.start).any(|k| {
                                self.view.tag_is(k, PosTag::is_preposition)
                            })))
                {
                    title_prefix = Some(part.start..n.start);
                    core = Some((Core::Name(name), p));
                    break;
                }
            }
        }
        // "A statement posted to his account": the account's owner speaks.
        let mut owner = None;
        if core.is_none()
            && let Some(token) = self.account_owner(tokens)
            && let Some(p) = parts.iter().position(|part| part.contains(&token))
        {
            core = Some((Core::Pronoun(token), p));
            owner = Some(token);
        }
        if core.is_none() {
            for (p, part) in parts.iter().enumerate() {
                let word = self.view.word(part.start);
                // A relative pronoun after the noun it follows ("an official,
                // who") stands for that noun, which is then the core.
                let relative = p > 0 && matches!(word, "who" | "which");
                // A source that is "that" alone is the relative pronoun of
                // "groups that say".
                let bare_that = word == "that" && parts.len() == 1;
                if part.len() == 1 && (pronoun(word).is_some() || bare_that) && !relative {
                    core = Some((Core::Pronoun(part.start), p));
                    break;
                }
            }
        }
        if core.is_none()
            && let Some(first) = parts.first()
            && let Some(name) = self
                .name_repeated(first.clone())
                .or_else(|| self.outlet_named(first.clone()))
                .or_else(|| self.place_named(first.clone()))
        {
            core = Some((Core::Name(name), 0));
        }
        let (core, core_part) = match core {
            Some(found) => found,
            None => {
                let first = parts.first()?.clone();
                (Core::Description(first), 0)
            }
        };
        let mut core_range = parts.get(core_part)?.clone();
        if let Some(prefix) = &title_prefix {
            core_range.start = prefix.end;
        }
        if let Some(token) = owner {
            core_range = token..token + 1;
        }
        let core_span = self.span_of(core_range.start, core_range.end)?;
        let at = core_span.byte_start();

        let known = self.referents.len();
        let (referent, route) = match core {
            Core::Name(name) => {
                let referent = self.names.get(name)?.referent?;
                (referent, Route::Named)
            }
            Core::Pronoun(token) => self.resolve_pronoun(token, at),
            // One description shared by two attributions ("Shop owners say …
            // and plan …") is one source.
            Core::Description(_) if let Some(r) = self.described_at(core_span) => {
                (r, Route::Description)
            }
            Core::Description(ref range) => self.resolve_description(range.clone(), at),
        };

        let descriptors: Vec<(Span, String)> = parts
            .iter()
            .enumerate()
            .filter(|(p, part)| {
                // A bare relative pronoun ("an official, who") describes nothing.
                let relative = part.len() == 1
                    && matches!(self.view.word(part.start), "who" | "which" | "that");
                *p != core_part
                    && !relative
                    && (part.start..part.end).any(|k| self.view.kind(k) == Some(TokenKind::Word))
            })
            .map(|(_, part)| part.clone())
            .chain(title_prefix)
            .filter_map(|part| {
                let span = self.span_of(part.start, part.end)?;
                Some((span, self.describe(part).head_word))
            })
            .collect();
        // A spokesperson speaking for an organization is how it speaks: kept as
        // a descriptor of the organization.
        let described =
            matches!(core, Core::Description(_)).then(|| self.describe(core_range.clone()));
        let spokesperson = described
            .as_ref()
            .is_some_and(|d| d.head == Some(Head::Spokesperson))
            && self
                .referents
                .get(referent)
                .is_some_and(|r| matches!(r.kind, Kind::Organization | Kind::Media));
        if matches!(core, Core::Description(_)) {
            // A name inside a description ("officials at the Agency") is an
            // affiliation, not a mention a later pronoun should find.
            let from = self
                .read_names()
                .partition_point(|n| n.start < core_range.start);
            let inside: Vec<(usize, usize)> = self
                .read_names()
                .get(from..)
                .unwrap_or(&[])
                .iter()
                .take_while(|n| n.start < core_range.end)
                .filter(|n| n.end <= core_range.end)
                .filter_map(|n| Some((n.referent?, self.view.span(n.start)?.byte_start())))
                .collect();
            for (other, position) in inside {
                if other != referent
                    && let Some(r) = self.referents.get_mut(other)
                {
                    r.positions.remove(&position);
                    self.events.remove(&(position, other));
                }
            }
        }
        self.events.insert((at, referent));
        let reason = match core {
            Core::Name(name) => self.names.get(name).and_then(|n| n.link),
            // A pronoun or description that made a referent of its own joined none.
            _ if referent >= known => None,
            Core::Pronoun(_) => Some(MergeReason::Pronoun),
            Core::Description(_)
                if spokesperson || described.as_ref().is_some_and(|d| d.counsel) =>
            {
                Some(MergeReason::Spokesperson)
            }
            Core::Description(_) => Some(MergeReason::Description),
        };
        let r = self.referents.get_mut(referent)?;
        r.positions.insert(at);
        r.mentions.push(core_span);
        if let Some(reason) = reason {
            r.merges.push(Merge {
                mention: core_span,
                reason,
            });
        }
        if spokesperson {
            r.descriptors.push(core_span);
            r.voices.insert(at);
        }
        for (span, head) in descriptors {
            r.descriptors.push(span);
            if !head.is_empty() {
                r.heads.insert(head);
            }
        }
        Some((referent, route))
    }

    /// The possessive pronoun of "…posted to his account" in a source phrase
    /// that does not start with it.
    fn account_owner(&self, tokens: &[usize]) -> Option<usize> {
        let first = *tokens.first()?;
        tokens.windows(2).find_map(|pair| {
            let (owner, place) = (pair[0], pair[1]);
            (owner > first
                && place == owner + 1
                && matches!(
                    self.view.word(owner),
                    "his" | "her" | "its" | "their" | "my" | "our"
                )
                && listed(WordList::AccountWords, self.view.word(place)))
            .then_some(owner)
        })
    }

    /// A source part of capitalized words only that the tagger left out is a
    /// mention of the name written with the same words before it ("Pinecrest
    /// also said"), or of the organization whose name it ends ("The Mariners
    /// tweeted") or opens ("Brightline denied", after "Brightline Freight
    /// Inc."), if any.
    fn name_repeated(&mut self, part: std::ops::Range<usize>) -> Option<usize> {
        let (core, words, before) = self.missed_name(part.clone())?;
        // As the tagger's clusters and [`State::join_shortened_organizations`]
        // join names: "the Mariners" ends "the Harbor City Mariners",
        // "Pinecrest" opens "Pinecrest Logistics", "HLA" spells "Harbor Labor
        // Authority".
        let organization = |n: &Name| {
            matches!(n.kind, Kind::Organization | Kind::Media)
                .then(|| n.referent.and_then(|r| self.referents.get(r)))
                .flatten()
        };
        let (earlier, link) = (0..before).rev().take(LOOKBACK).find_map(|i| {
            self.visit();
            let n = self.names.get(i)?;
            if self.words_of(n.core, n.end) == words {
                return Some((n, MergeReason::SameName));
            }
            // "Mr. Okafor" or "Okafor" where the tagger found only "Grace
            // Okafor" earlier: a person's family name.
            if n.kind == Kind::Person
                && let [surname] = words.as_slice()
                && n.is_full_person()
                && self.words_of(n.core, n.end).last() == Some(surname)
            {
                let reason = if core > part.start {
                    MergeReason::Honorific
                } else {
                    MergeReason::Surname
                };
                return Some((n, reason));
            }
            let r = organization(n)?;
            if r.words.len() > words.len()
                && (r.words.ends_with(&words) || r.words.starts_with(&words))
            {
                Some((n, MergeReason::ShortenedName))
            } else if let [acronym] = words.as_slice()
                && is_acronym_of(acronym, &r.words)
            {
                Some((n, MergeReason::Acronym))
            } else {
                None
            }
        })?;
        let name = Name {
            start: part.start,
            end: part.end,
            core,
            kind: earlier.kind,
            referent: earlier.referent,
            link: Some(link),
        };
        Some(self.add_name(name))
    }

    /// A source part of capitalized words only that no name read from the
    /// entity layer overlaps: where its name starts past a leading "the", its
    /// words, and how many read names come before it.
    fn missed_name(&self, part: std::ops::Range<usize>) -> Option<(usize, Vec<String>, usize)> {
        let view = self.view;
        if part.is_empty() || !part.clone().all(|k| view.is_capitalized(k)) {
            return None;
        }
        let mut core = self.past_the(part.start);
        while core + 1 < part.end && honorific(view.raw(core)).is_some() {
            core += 1;
        }
        let words = self.words_of(core, part.end);
        if words.is_empty() {
            return None;
        }
        let before = self.read_names().partition_point(|n| n.start < part.start);
        let overlapped = self
            .read_names()
            .get(before)
            .is_some_and(|n| n.start < part.end)
            || before
                .checked_sub(1)
                .and_then(|i| self.names.get(i))
                .is_some_and(|n| n.end > part.start);
        (!overlapped).then_some((core, words, before))
    }

    /// A source part of capitalized words only that the tagger left out and
    /// that ends with an outlet word ("The Ledger has learned", "Harbor
    /// Courier reported") is an outlet's name, as such a name the tagger finds
    /// is; its repetitions are the same outlet.
    fn outlet_named(&mut self, part: std::ops::Range<usize>) -> Option<usize> {
        let (core, words, _) = self.missed_name(part.clone())?;
        if !is_outlet_word(words.last()?) || (core..part.end).any(|k| is_org_word(self.view.raw(k)))
        {
            return None;
        }
        Some(
            self.add_found_name(part, core, Kind::Media, words, |state| {
                &mut state.missed_outlets
            }),
        )
    }

    /// A source part that is a place the tagger found, and nothing more
    /// ("Russia said", "the White House said"), is the government or office
    /// that speaks there: an organization, one for all mentions of that place
    /// that are sources.
    fn place_named(&mut self, part: std::ops::Range<usize>) -> Option<usize> {
        let core = self.past_the(part.start);
        let &(ref range, cluster) = self.place_at(core)?;
        if range.end != part.end {
            return None;
        }
        Some(
            self.add_found_name(part, core, Kind::Organization, cluster, |state| {
                &mut state.place_referents
            }),
        )
    }

    /// Adds the name of `kind` over `part`, its name proper from `core`: the
    /// entity of the names found before under `key` in the map `known` picks,
    /// else a new one.
    fn add_found_name<K: Ord>(
        &mut self,
        part: std::ops::Range<usize>,
        core: usize,
        kind: Kind,
        key: K,
        known: fn(&mut Self) -> &mut BTreeMap<K, usize>,
    ) -> usize {
        let mut name = Name {
            start: part.start,
            end: part.end,
            core,
            kind,
            referent: None,
            link: None,
        };
        let referent = match known(self).get(&key) {
            Some(&r) => {
                name.link = Some(MergeReason::SameName);
                r
            }
            None => {
                let words = self.words_of(core, part.end);
                let r = self.new_entity(&name, words);
                known(self).insert(key, r);
                r
            }
        };
        name.referent = Some(referent);
        self.add_name(name)
    }

    /// A source part that is two or more names or places joined by "and" or
    /// "&" and nothing more ("Obama and Clinton said", "Germany and France
    /// said", "NASA and the Pentagon declined"): the people or bodies it names
    /// speak together, a named source of its own, a person's when any of them
    /// is a person.
    fn names_joined(&mut self, part: std::ops::Range<usize>) -> Option<usize> {
        let core = self.past_the(part.start);
        let (mut at, mut items, mut person) = (core, 0, false);
        let mut joined = Vec::new();
        while at < part.end {
            if items > 0 {
                if !matches!(self.view.word(at), "and" | "&") {
                    return None;
                }
                at += 1;
                // "NASA and the Pentagon".
                at = self.past_the(at);
            }
            let name = self
                .name_at(at)
                .and_then(|i| self.names.get(i))
                .filter(|n| n.start == at && n.end <= part.end);
            let place = self
                .place_at(at)
                .map(|(range, _)| range)
                .filter(|range| range.end <= part.end);
            at = match (name, place) {
                (Some(n), _) => {
                    person |= n.kind == Kind::Person;
                    joined.extend(n.referent);
                    n.end
                }
                (None, Some(range)) => range.end,
                (None, None) => return None,
            };
            items += 1;
        }
        if items < 2 {
            return None;
        }
        let kind = if person {
            Kind::Person
        } else {
            Kind::Organization
        };
        let mut name = Name {
            start: part.start,
            end: part.end,
            core,
            kind,
            referent: None,
            link: None,
        };
        // Two people named together are the one source "they" stood for
        // before or will stand for after ([`State::pair_before`]).
        let pair = match joined[..] {
            [one, other] if items == 2 && person => Some((one, other)),
            _ => None,
        };
        let referent = match pair.and_then(|pair| self.pairs.get(&pair)) {
            Some(&r) => r,
            None => {
                let words = self.words_of(core, part.end);
                let r = self.new_entity(&name, words);
                if let Some(pair) = pair {
                    self.pairs.insert(pair, r);
                }
                r
            }
        };
        name.referent = Some(referent);
        Some(self.add_name(name))
    }

    /// The token after `at` when `at` is "the", else `at`.
    fn past_the(&self, at: usize) -> usize {
        if self.view.word(at) == "the" {
            at + 1
        } else {
            at
        }
    }

    /// The place mention that starts at token `at`.
    fn place_at(&self, at: usize) -> Option<&(std::ops::Range<usize>, ClusterId)> {
        let index = self.places.partition_point(|(range, _)| range.start < at);
        self.places
            .get(index)
            .filter(|(range, _)| range.start == at)
    }

    /// Adds a name found for a source phrase.
    fn add_name(&mut self, name: Name) -> usize {
        let index = self.names.len();
        // The tokens are those of a source part, which the caller has already
        // walked, so indexing them adds no more than a constant factor.
        for token in name.start..name.end {
            self.added_at.entry(token).or_insert(index);
        }
        self.names.push(name);
        index
    }

    fn span_of(&self, from: usize, to: usize) -> Option<Span> {
        let first = self.view.span(from)?;
        let last = self.view.span(to.checked_sub(1)?)?;
        (from < to).then(|| first.cover(last))
    }

    /// Splits a source phrase at commas, dashes and parentheses, and before a
    /// relative "who".
    fn split_parts(&self, tokens: &[usize]) -> Vec<std::ops::Range<usize>> {
        let mut sorted = tokens.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut parts: Vec<std::ops::Range<usize>> = Vec::new();
        let mut current: Option<std::ops::Range<usize>> = None;
        let mut previous: Option<usize> = None;
        for k in sorted {
            let word = self.view.word(k);
            let splits = matches!(word, "," | "(" | ")" | ";" | ":")
                || self.view.kind(k) == Some(TokenKind::Dash)
                || (self.view.kind(k) == Some(TokenKind::Quote) && !matches!(word, "'" | "’"));
            let gap = previous.is_some_and(|p| p + 1 != k);
            previous = Some(k);
            if splits || gap || (matches!(word, "who" | "whose") && current.is_some()) {
                if let Some(part) = current.take() {
                    parts.push(part);
                }
                if splits {
                    continue;
                }
            }
            current = Some(match current {
                Some(part) => part.start..k + 1,
                None => k..k + 1,
            });
        }
        if let Some(part) = current {
            parts.push(part);
        }
        // Keep relative clauses after their noun: "who spoke ..." is a descriptor.
        parts
    }

    fn describe(&self, range: std::ops::Range<usize>) -> Description {
        let view = self.view;
        let mut definite = false;
        let mut fresh = false;
        let mut start = range.start;
        while start < range.end {
            match view.word(start) {
                "the" | "this" | "that" | "these" | "those" => definite = true,
                "a" | "an" | "another" | "other" | "one" | "two" | "three" | "several" | "some"
                | "many" | "most" | "few" | "all" | "both" => {
                    fresh |= matches!(view.word(start), "a" | "an" | "another" | "other" | "one");
                }
                _ => break,
            }
            start += 1;
        }
        let stop = (start..range.end)
            .find(|&k| k > start && is_description_stop(view.word(k)))
            .unwrap_or(range.end);
        // The head is the last word of a known class ("court documents filed last
        // month" is headed by "documents"), else the last word.
        let head_at = (start..stop)
            .rev()
            .find(|&k| view.kind(k) == Some(TokenKind::Word) && head_class(view.word(k)).is_some())
            .or_else(|| {
                (start..stop)
                    .rev()
                    .find(|&k| view.kind(k) == Some(TokenKind::Word))
            });
        let head_word = head_at.map_or(String::new(), |k| view.word(k).to_string());
        let mut affiliation = None;
        let mut affiliation_noun = None;
        let mut possessor = None;
        for k in start..stop {
            if Some(k) == head_at {
                continue;
            }
            if view.kind(k + 1) == Some(TokenKind::Clitic)
                && head_class(view.word(k)) == Some(Head::Person)
            {
                possessor = possessor.or_else(|| Some(view.word(k).to_string()));
            }
            if view.kind(k) == Some(TokenKind::Clitic) {
                definite = true;
            }
            if let Some(name) = self.name_at(k)
                && let Some(referent) = self.names.get(name).and_then(|n| n.referent)
            {
                affiliation = affiliation.or(Some(referent));
            } else if matches!(
                head_class(view.word(k)),
                Some(Head::Organization | Head::Police)
            ) {
                affiliation_noun = affiliation_noun.or(Some(view.word(k).to_string()));
            }
        }
        if affiliation_noun.is_none() && matches!(view.word(stop), "for" | "at" | "of") {
            affiliation_noun = (stop..range.end)
                .map(|k| view.word(k))
                .find(|w| head_class(w) == Some(Head::Organization))
                .map(str::to_string);
        }
        let counsel = view.word(stop) == "for" && head_noun_is(&head_word, Head::Counsel);
        // "A spokesman for Ms. Lund" speaks for her as her own words.
        let voice_of_person =
            view.word(stop) == "for" && head_class(&head_word) == Some(Head::Spokesperson);
        if affiliation.is_none() {
            affiliation = (stop..range.end).find_map(|k| {
                let name = self.name_at(k)?;
                let referent = self.names.get(name)?.referent?;
                self.referents
                    .get(referent)
                    .is_some_and(|r| {
                        matches!(r.kind, Kind::Organization | Kind::Media)
                            || (voice_of_person && r.kind == Kind::Person)
                    })
                    .then_some(referent)
            });
        }
        let key = (start..stop)
            .map(|k| view.word(k))
            .collect::<Vec<_>>()
            .join(" ");
        Description {
            head: head_class(&head_word),
            head_word,
            definite,
            fresh,
            key,
            affiliation,
            affiliation_noun,
            counsel,
            possessor,
        }
    }

    /// The referent mentioned last before `at` that `accept`s, looking back
    /// over at most [`LOOKBACK`] mentions so a huge article stays linear.
    fn most_recent(&self, at: usize, accept: impl Fn(&Referent) -> bool) -> Option<usize> {
        self.events
            .range(..(at, 0))
            .rev()
            .take(LOOKBACK)
            .find(|(_, r)| {
                self.visit();
                self.referents.get(*r).is_some_and(&accept)
            })
            .map(|(_, r)| *r)
    }

    fn resolve_pronoun(&mut self, token: usize, at: usize) -> (usize, Route) {
        let word = self.view.word(token);
        let class = pronoun(word);
        let relative = if matches!(word, "who" | "which" | "that") {
            self.relative_antecedent(token)
        } else {
            None
        };
        let found = if relative.is_some() {
            relative
        } else {
            match class {
                Some(Pronoun::Person(gender)) => {
                    let sentence_start = self
                        .view
                        .span(self.view.sentence_of(token).start)
                        .map_or(0, |s| s.byte_start());
                    let person = self.most_recent(at, |r| {
                        r.is_person_like()
                            && (gender.is_none() || r.gender.is_none() || r.gender == gender)
                            && (word != "who"
                                || r.last_before(at).is_some_and(|p| p >= sentence_start))
                    });
                    let person_at = person
                        .and_then(|r| self.referents.get(r)?.last_before(at))
                        .unwrap_or(0);
                    let voice = self
                        .referents
                        .iter()
                        .enumerate()
                        .rev()
                        .take(LOOKBACK)
                        .filter_map(|(i, r)| {
                            self.visit();
                            Some((*r.voices.range(..at).next_back()?, i))
                        })
                        .max();
                    let rule = match voice {
                        Some((p, i)) if person.is_none() || p > person_at => Some(i),
                        _ => person,
                    };
                    self.link_person(token, at, rule)
                }
                Some(Pronoun::Thing) => {
                    let best = self.most_recent(at, |r| {
                        matches!(
                            r.kind,
                            Kind::Organization | Kind::Media | Kind::Document | Kind::Social
                        )
                    });
                    let best_at = best.and_then(|r| self.referents.get(r)?.last_before(at));
                    match self.phrase_before(token, Head::Document, false) {
                        // "Shareholders have filed a lawsuit. It claims": the document
                        // just named is the nearer antecedent.
                        Some((range, position)) if best_at.is_none_or(|p| position > p) => {
                            Some(self.mention_described(range, position))
                        }
                        _ => best,
                    }
                }
                Some(Pronoun::Group) => {
                    let best = self.most_recent(at, |r| {
                        matches!(
                            r.kind,
                            Kind::Organization | Kind::Media | Kind::Unnamed { plural: true }
                        )
                    });
                    let best_at = best.and_then(|r| self.referents.get(r)?.last_before(at));
                    let pair = (word == "they")
                        .then(|| self.pair_before(token))
                        .flatten()
                        .filter(|&(_, position)| best_at.is_none_or(|p| position > p));
                    let best_at = pair.map_or(best_at, |(_, position)| Some(position));
                    match self.phrase_before(token, Head::Group, true) {
                        // "Canadian officials were more pointed. They said": a group
                        // named in the text, not yet a source, is the nearer antecedent.
                        Some((range, position)) if best_at.is_none_or(|p| position > p) => {
                            Some(self.mention_described(range, position))
                        }
                        _ => pair.map(|(referent, _)| referent).or(best),
                    }
                }
                None => None,
            }
        };
        if let Some(referent) = found {
            let Some(r) = self.referents.get_mut(referent) else {
                return (referent, Route::PronounUnresolved);
            };
            if let Some(Pronoun::Person(Some(gender))) = class
                && r.gender.is_none()
            {
                r.gender = Some(gender);
            }
            let route = match r.kind {
                Kind::Person | Kind::Organization | Kind::Media => Route::PronounToName,
                _ => Route::PronounToUnnamed,
            };
            return (referent, route);
        }
        let plural = matches!(class, Some(Pronoun::Group));
        let text = self.view.raw(token).to_string();
        let mut referent = Referent::new(Kind::Unnamed { plural }, text, Vec::new());
        if let Some(Pronoun::Person(gender)) = class {
            referent.gender = gender;
        }
        self.referents.push(referent);
        (self.referents.len() - 1, Route::PronounUnresolved)
    }

    /// The antecedent of the person pronoun at `token`: the rules' choice
    /// `rule`, unless the link model prefers another of the people mentioned
    /// last ([`crate::link`]).
    fn link_person(&mut self, token: usize, at: usize, rule: Option<usize>) -> Option<usize> {
        if self.links.is_none() && self.choices.is_none() {
            return rule;
        }
        let rule = rule?;
        let anaphor = Anaphor {
            form: self.view.word(token).to_owned(),
            ..Anaphor::default()
        };
        // "He" is never someone the article calls "Ms.": a stated gender
        // rules a candidate out, as it does for the rules.
        let gender = match pronoun(&anaphor.form) {
            Some(Pronoun::Person(gender)) => gender,
            _ => None,
        };
        let mut candidates = self.candidates(token, at, Some(rule), "");
        candidates
            .retain(|c| c.rule || gender.is_none() || c.gender.is_none() || c.gender == gender);
        Some(self.link(anaphor, candidates).unwrap_or(rule))
    }

    /// The person a definite description no rule linked stands for ("the GOP
    /// nominee" for the candidate named before), if the link model prefers
    /// one of the people mentioned last to a new source.
    fn link_description(
        &mut self,
        range: std::ops::Range<usize>,
        at: usize,
        head: &str,
    ) -> Option<usize> {
        if self.links.is_none() && self.choices.is_none() {
            return None;
        }
        let view = self.view;
        let anaphor = Anaphor {
            form: "desc".to_owned(),
            head: head.to_owned(),
            modifiers: (range.start..range.end)
                .map(|k| view.word(k).to_owned())
                .filter(|w| w != head && !matches!(w.as_str(), "the" | "a" | "an"))
                .collect(),
        };
        let mut candidates = vec![Candidate {
            rule: true,
            ..Candidate::default()
        }];
        candidates.extend(self.candidates(range.start, at, None, head));
        self.link(anaphor, candidates)
    }

    /// The referent the link model takes among `candidates`, kept for
    /// training when asked.
    fn link(&mut self, anaphor: Anaphor, candidates: Vec<Candidate>) -> Option<usize> {
        let chosen = match self.links {
            Some(model) => {
                crate::link::choose(model, &anaphor, &candidates).and_then(|c| c.referent)
            }
            None => candidates.iter().find(|c| c.rule).and_then(|c| c.referent),
        };
        if let Some(choices) = &mut self.choices {
            choices.push(Choice {
                attribution: self.attribution,
                anaphor,
                candidates,
            });
        }
        chosen
    }

    /// The people (and organizations a spokesperson spoke for) mentioned last
    /// before `at`, the most recent first, as the link model sees them;
    /// `rule` marks the rules' choice, and `head` a description's head noun.
    fn candidates(
        &self,
        token: usize,
        at: usize,
        rule: Option<usize>,
        head: &str,
    ) -> Vec<Candidate> {
        let view = self.view;
        let here = view.sentence_index(token);
        let mut seen = BTreeSet::new();
        let mut candidates = Vec::new();
        for &(position, referent) in self.events.range(..(at, 0)).rev().take(LOOKBACK) {
            self.visit();
            if candidates.len() == crate::link::CANDIDATES {
                break;
            }
            let Some(r) = self.referents.get(referent) else {
                continue;
            };
            let voice = r.voices.range(..at).next_back().is_some();
            let person = matches!(r.kind, Kind::Person | Kind::Unnamed { plural: false });
            if !(person || voice || Some(referent) == rule) || !seen.insert(referent) {
                continue;
            }
            let at_token = view
                .tokens()
                .partition_point(|t| t.span.byte_start() < position);
            let opening = view.sentence_of(at_token).start;
            candidates.push(Candidate {
                referent: Some(referent),
                shares_head: !head.is_empty() && r.heads.contains(head),
                rank: candidates.len(),
                gender: r.gender,
                named: r.kind == Kind::Person,
                words: r.words.len(),
                first_word: r
                    .words
                    .first()
                    .map(|w| w.to_lowercase())
                    .unwrap_or_default(),
                honorific: r.has_honorific,
                spoke: r.attributions.len(),
                last_speaker: self.last_speaker == Some(referent),
                mentions: r.positions.range(..at).rev().take(4).count(),
                sentences_back: here.saturating_sub(view.sentence_index(at_token)),
                subject: at_token - opening <= 12
                    && !(opening..at_token).any(|k| view.tag_is(k, PosTag::is_verb_or_modal)),
                voice: !person && voice,
                rule: Some(referent) == rule,
            });
        }
        candidates
    }

    /// The nearest noun phrase of class `class` before `token` ("Canadian
    /// officials", "a separate lawsuit"): in the sentence before, and in its own
    /// sentence too when `same_sentence`.
    fn phrase_before(
        &self,
        token: usize,
        class: Head,
        same_sentence: bool,
    ) -> Option<(std::ops::Range<usize>, usize)> {
        let view = self.view;
        let sentence = view.sentence_of(token);
        let previous = view.sentence_of(sentence.start.checked_sub(1)?);
        let floor = previous.start;
        let ceiling = if same_sentence { token } else { previous.end };
        let head = (floor..ceiling)
            .rev()
            .find(|&k| head_class(view.word(k)) == Some(class))?;
        let mut start = head;
        while start > floor
            && (view.is_capitalized(start - 1)
                || matches!(
                    view.word(start - 1),
                    "the"
                        | "a"
                        | "an"
                        | "new"
                        | "separate"
                        | "some"
                        | "many"
                        | "several"
                        | "local"
                        | "senior"
                        | "other"
                        | "top"
                ))
        {
            start -= 1;
        }
        Some((start..head + 1, view.span(start)?.byte_start()))
    }

    /// Two people named together ("Ann Lee and Tom Reyes", the later pair
    /// first) in the sentence of `token` before it or in the sentence
    /// before: the joint source "they" or "the two men" stands for, with
    /// where the pair was named. The guideline names such a source by both
    /// names, a named person's source.
    fn pair_before(&mut self, token: usize) -> Option<(usize, usize)> {
        let view = self.view;
        let sentence = view.sentence_of(token);
        let floor = sentence
            .start
            .checked_sub(1)
            .map_or(sentence.start, |k| view.sentence_of(k).start);
        let names = self.read_names();
        let to = names.partition_point(|n| n.start < token);
        let from = names.partition_point(|n| n.start < floor);
        let people = |n: &Name| {
            n.kind == Kind::Person
                && n.referent.is_some_and(|r| {
                    self.referents
                        .get(r)
                        .is_some_and(|r| r.kind == Kind::Person)
                })
        };
        let (first, second) = names.get(from..to)?.windows(2).rev().find_map(|w| {
            let (a, b) = (&w[0], &w[1]);
            // "Ann Lee, a Democrat, and Tom Reyes": an apposition may stand
            // between, but no verb, which would make two clauses.
            let between = a.end..b.start.saturating_sub(1);
            (people(a)
                && people(b)
                && b.start > a.end
                && view.word(b.start - 1) == "and"
                && between.len() <= 12
                && !between
                    .clone()
                    .any(|k| view.tag_is(k, PosTag::is_verb_or_modal)))
            .then_some((a, b))
        })?;
        let (one, other) = (first.referent?, second.referent?);
        if one == other {
            return None;
        }
        let position = view.span(first.start)?.byte_start();
        let text = self.text_of(first.start, second.end);
        let referent = match self.pairs.get(&(one, other)) {
            Some(&r) => r,
            None => {
                let name = |r: usize| self.referents.get(r).map(|r| r.name.clone());
                let joined = format!("{} and {}", name(one)?, name(other)?);
                let words = self.words_of(first.core, second.end);
                let mut referent = Referent::new(Kind::Person, joined, words);
                referent.key = Some(text);
                self.referents.push(referent);
                let r = self.referents.len() - 1;
                self.pairs.insert((one, other), r);
                r
            }
        };
        self.events.insert((position, referent));
        if let Some(r) = self.referents.get_mut(referent) {
            r.positions.insert(position);
        }
        Some((referent, position))
    }

    /// What the relative pronoun at `token` stands for: the noun phrase right
    /// before it, a comma aside ("activists who argue", "Ann Lee, who said"),
    /// whatever its number or kind.
    fn relative_antecedent(&mut self, token: usize) -> Option<usize> {
        let view = self.view;
        let floor = view.sentence_of(token).start;
        let mut head = token.checked_sub(1).filter(|&k| k >= floor)?;
        if view.word(head) == "," {
            head = head.checked_sub(1).filter(|&k| k >= floor)?;
        }
        if !view.tag_is(head, PosTag::is_noun) {
            return None;
        }
        if let Some(name) = self.name_at(head) {
            return self.names.get(name)?.referent;
        }
        let mut start = head;
        while start > floor
            && head - start < 8
            && view.tag_is(start - 1, |t| {
                t.is_noun() || t.is_adjective() || t.is_determiner() || t.is_number()
            })
        {
            start -= 1;
        }
        if let Some(person) = self.person_described_as(start) {
            return Some(person);
        }
        let position = view.span(start)?.byte_start();
        Some(self.mention_described(start..head + 1, position))
    }

    /// The person named right before the description that opens at `start`
    /// and says what they are: after "is" or "was" ("Ann Lee is a former
    /// lawyer who"), or as an apposition after a comma ("Ann Lee, now the
    /// board's chair, who", "Ann Lee, 59, of Dunmore, who"). A relative
    /// pronoun after such a description stands for the person, not for a
    /// new unnamed one.
    fn person_described_as(&self, start: usize) -> Option<usize> {
        let view = self.view;
        let floor = view.sentence_of(start).start;
        let mut before = start.checked_sub(1).filter(|&k| k >= floor)?;
        while view.tag_is(before, PosTag::is_adverb) {
            before = before.checked_sub(1).filter(|&k| k >= floor)?;
        }
        let person_ending_at = |end: usize| {
            let name = self.names.get(self.name_at(end.checked_sub(1)?)?)?;
            let referent = name.referent?;
            (name.end == end
                && self
                    .referents
                    .get(referent)
                    .is_some_and(|r| r.kind == Kind::Person))
            .then_some(referent)
        };
        // "is", not the possessive "’s" of "Lee’s best seller".
        if is_be(view.word(before)) && view.tag_is(before, PosTag::is_verb) {
            return person_ending_at(before);
        }
        if !matches!(view.word(before), "," | "of" | "from") {
            return None;
        }
        // Back over the apposition's parts to the name before its first comma.
        (floor..before)
            .rev()
            .take(16)
            .take_while(|&k| !view.tag_is(k, PosTag::is_verb_or_modal))
            .filter(|&k| view.word(k) == ",")
            .find_map(person_ending_at)
    }

    /// The referent of the noun phrase `range` at byte `position`, which is
    /// no source phrase, recorded as mentioned there so that later pronouns
    /// find it.
    fn mention_described(&mut self, range: std::ops::Range<usize>, position: usize) -> usize {
        let (referent, _) = self.resolve_description(range, position);
        self.events.insert((position, referent));
        if let Some(r) = self.referents.get_mut(referent) {
            r.positions.insert(position);
        }
        referent
    }

    /// A source written in capitals alone is a transcript's speaker label
    /// ("HAVERFORD:"): the person of that surname named before it.
    fn label_speaker(&self, range: std::ops::Range<usize>, at: usize) -> Option<usize> {
        let raw = self.view.raw(range.start);
        let letters = raw.chars().filter(|c| c.is_alphabetic()).count();
        if range.len() != 1 || letters < 2 || raw.chars().any(char::is_lowercase) {
            return None;
        }
        self.most_recent(at, |r| {
            r.kind == Kind::Person
                && r.words.len() > 1
                && r.words
                    .last()
                    .is_some_and(|w| w.to_lowercase() == raw.to_lowercase())
        })
    }

    /// A speaker label in capitals before a colon ("MORVANT:") that names no
    /// one the article named before: a transcript names its host or guests
    /// by surname alone, so the label is a person's name, and each turn under
    /// it the same person's.
    fn unknown_label_speaker(&mut self, range: std::ops::Range<usize>, at: usize) -> Option<usize> {
        let raw = self.view.raw(range.start);
        let letters = raw.chars().filter(|c| c.is_alphabetic()).count();
        if range.len() != 1
            || letters < 3
            || letters != raw.chars().count()
            || raw.chars().any(char::is_lowercase)
            || self.view.word(range.end) != ":"
        {
            return None;
        }
        let key = raw.to_lowercase();
        if let Some(person) = self.most_recent(at, |r| {
            r.kind == Kind::Person && r.key.as_deref() == Some(&key)
        }) {
            return Some(person);
        }
        let mut referent = Referent::new(Kind::Person, raw.to_string(), vec![raw.to_string()]);
        referent.key = Some(key);
        self.referents.push(referent);
        Some(self.referents.len() - 1)
    }

    fn resolve_description(&mut self, range: std::ops::Range<usize>, at: usize) -> (usize, Route) {
        if let Some(person) = self.label_speaker(range.clone(), at) {
            return (person, Route::Named);
        }
        if let Some(person) = self.unknown_label_speaker(range.clone(), at) {
            return (person, Route::Named);
        }
        let description = self.describe(range.clone());
        let text = self.text_of(range.start, range.end);
        let head = description.head_word.clone();
        // "Both men", "the two women", "the senators" after two people named
        // together are those two.
        let of_two = matches!(self.view.word(range.start), "both" | "the")
            && match description.head {
                None => head.ends_with('s'),
                Some(_) => head_noun_is(&head, Head::People),
            };
        if of_two && let Some((pair, _)) = self.pair_before(range.start) {
            return (pair, Route::DescriptionToName);
        }
        let found: Option<(usize, Route)> = match description.head {
            _ if description.counsel && description.affiliation.is_some() => description
                .affiliation
                .map(|r| (r, Route::DescriptionToName)),
            Some(Head::Spokesperson) => {
                let organization = description.affiliation.or_else(|| {
                    let noun = description.affiliation_noun.as_deref()?;
                    self.find_organization(noun, at)
                });
                let person = || {
                    let title = description.possessor.as_deref()?;
                    self.most_recent(at, |r| {
                        matches!(r.kind, Kind::Person | Kind::Unnamed { plural: false })
                            && r.heads.contains(title)
                    })
                };
                organization
                    .or_else(person)
                    .map(|r| (r, Route::DescriptionToName))
                    .or_else(|| {
                        description
                            .definite
                            .then(|| self.most_recent(at, |r| r.heads.contains(&head)))
                            .flatten()
                            .map(|r| (r, Route::Unnamed))
                    })
            }
            Some(Head::Organization)
                if description.affiliation.is_some_and(|r| {
                    self.referents
                        .get(r)
                        .is_some_and(|r| r.kind == Kind::Organization && r.has_word(&head))
                }) =>
            {
                description.affiliation.map(|r| (r, Route::Named))
            }
            Some(Head::Organization) => {
                let possessed = description.key.contains("'s");
                if possessed {
                    self.find_key(&description.key, at)
                        .map(|r| (r, Route::Description))
                } else {
                    self.find_organization(&head, at)
                        .map(|r| (r, Route::DescriptionToName))
                        .or_else(|| {
                            self.find_key(&description.key, at)
                                .map(|r| (r, Route::Description))
                        })
                }
            }
            Some(Head::Media) => self
                .most_recent(at, |r| r.kind == Kind::Media)
                .map(|r| (r, Route::DescriptionToName)),
            Some(Head::Police) => self.find_organization("police", at).map(|r| {
                let named = self.referents.get(r).is_some_and(|r| !r.words.is_empty());
                (
                    r,
                    if named {
                        Route::DescriptionToName
                    } else {
                        Route::Description
                    },
                )
            }),
            Some(Head::Document) | Some(Head::Social) => {
                if description.definite && !description.fresh {
                    let head = head.clone();
                    self.most_recent(at, |r| {
                        matches!(r.kind, Kind::Document | Kind::Social) && r.heads.contains(&head)
                    })
                    .map(|r| {
                        let route = if self.referents.get(r).map(|x| x.kind) == Some(Kind::Social) {
                            Route::SocialMedia
                        } else {
                            Route::Document
                        };
                        (r, route)
                    })
                } else {
                    None
                }
            }
            Some(Head::Person) if description.definite && !description.fresh => self
                .most_recent(at, |r| {
                    (matches!(r.kind, Kind::Person | Kind::Unnamed { plural: false })
                        && r.heads.contains(&head))
                        || r.key.as_deref().is_some_and(|k| k.ends_with(&head))
                })
                .map(|r| (r, self.person_described(r))),
            Some(Head::Group) if !description.fresh => self
                .most_recent(at, |r| {
                    r.kind == Kind::Unnamed { plural: true } && r.heads.contains(&head)
                })
                .map(|r| (r, Route::Unnamed)),
            _ => None,
        };
        if let Some(found) = found {
            return found;
        }
        if description.definite
            && !description.fresh
            && matches!(description.head, Some(Head::Person) | None)
            && !head.ends_with('s')
            && let Some(person) = self.link_description(range.clone(), at, &head)
        {
            return (person, self.person_described(person));
        }
        let (kind, route) = match description.head {
            Some(Head::Organization) | Some(Head::Police) => {
                (Kind::Organization, Route::Description)
            }
            Some(Head::Media) => (Kind::Media, Route::Description),
            Some(Head::Document) => (Kind::Document, Route::Document),
            Some(Head::Social) => (Kind::Social, Route::SocialMedia),
            Some(Head::Person) | Some(Head::Spokesperson) => {
                (Kind::Unnamed { plural: false }, Route::Unnamed)
            }
            Some(Head::Group) => (Kind::Unnamed { plural: true }, Route::Unnamed),
            // No class: head_class never gives it.
            Some(Head::Description | Head::Business | Head::Job | Head::Counsel | Head::People)
            | None => (
                Kind::Unnamed {
                    plural: head.ends_with('s'),
                },
                Route::Description,
            ),
        };
        let mut referent = Referent::new(kind, text, Vec::new());
        referent.key = Some(description.key);
        if !head.is_empty() {
            referent.heads.insert(head);
        }
        self.referents.push(referent);
        (self.referents.len() - 1, route)
    }

    /// How a description of a person found `referent`: a named person, or an
    /// unnamed one described before.
    fn person_described(&self, referent: usize) -> Route {
        match self.referents.get(referent).map(|r| r.kind) {
            Some(Kind::Person) => Route::DescriptionToName,
            _ => Route::Unnamed,
        }
    }

    /// The most recent organization an organization noun can stand for: one
    /// whose name holds the noun ("the department"), else, for company nouns, the
    /// most recent company.
    fn find_organization(&self, noun: &str, at: usize) -> Option<usize> {
        if head_class(noun) == Some(Head::Police) {
            return self.most_recent(at, |r| {
                r.kind == Kind::Organization
                    && (r.has_word("Police")
                        || r.has_word("Sheriff")
                        || r.heads.iter().any(|h| h == "police"))
            });
        }
        let named = self.most_recent(at, |r| {
            r.kind == Kind::Organization
                && (r.words.iter().any(|w| names_kind_of(noun, w))
                    || (r.words.is_empty() && r.heads.iter().any(|h| h == noun)))
        });
        if named.is_some() {
            return named;
        }
        if noun == "union" {
            // Teachers' and nurses' unions are often Associations; an
            // employers' association is "the association" when a union is in
            // play, so only where none is.
            return self.most_recent(at, |r| {
                r.kind == Kind::Organization && r.has_word("Association")
            });
        }
        if !head_noun_is(noun, Head::Business) {
            return None;
        }
        // "The company" is not the advocacy group that criticizes it.
        let group = matches!(noun, "group" | "organization");
        self.most_recent(at, |r| {
            r.kind == Kind::Organization
                && (group || !r.words.iter().any(|w| is_advocacy_word(w)))
                && !r.words.iter().any(|w| is_public_body_word(w))
        })
    }

    /// The source whose mention is exactly `span`, already resolved for
    /// another attribution.
    fn described_at(&self, span: Span) -> Option<usize> {
        let at = span.byte_start();
        self.events
            .range((at, 0)..(at + 1, 0))
            .find(|(_, r)| {
                self.visit();
                self.referents
                    .get(*r)
                    .is_some_and(|r| r.mentions.contains(&span))
            })
            .map(|(_, r)| *r)
    }

    /// The most recent described source with the same description.
    fn find_key(&self, key: &str, at: usize) -> Option<usize> {
        self.most_recent(at, |r| r.key.as_deref() == Some(key))
    }

    fn into_resolution(self, referent_of: Vec<Option<usize>>, routes: Vec<Route>) -> Resolution {
        let mut speaking: Vec<(usize, usize)> = self
            .referents
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.attributions.is_empty())
            .map(|(i, r)| {
                let first = r
                    .mentions
                    .iter()
                    .map(|s| s.byte_start())
                    .chain(r.positions.first().copied())
                    .min()
                    .unwrap_or(usize::MAX);
                (first, i)
            })
            .collect();
        speaking.sort_unstable();
        let mut index_of = vec![None; self.referents.len()];
        let mut sources = Vec::with_capacity(speaking.len());
        for (_, referent) in speaking {
            let Some(r) = self.referents.get(referent) else {
                continue;
            };
            let mut kind = match r.kind {
                Kind::Person => SourceKind::Person,
                Kind::Organization => SourceKind::Organization,
                Kind::Media => SourceKind::MediaOutlet,
                Kind::Unnamed { .. } => SourceKind::Unnamed,
                Kind::Document => SourceKind::Document,
                Kind::Social => SourceKind::SocialMedia,
            };
            if kind != SourceKind::Person && !r.social.is_empty() && r.social.iter().all(|s| *s) {
                kind = SourceKind::SocialMedia;
            }
            let mut mentions = r.mentions.clone();
            mentions.sort_unstable();
            mentions.dedup();
            let mut descriptors = r.descriptors.clone();
            descriptors.sort_unstable();
            descriptors.dedup();
            let mut attributions: Vec<AttributionId> = r
                .attributions
                .iter()
                .filter_map(|&a| AttributionId::new(a))
                .collect();
            attributions.sort_unstable();
            attributions.dedup();
            let mut merges = r.merges.clone();
            merges.sort_unstable_by_key(|m| (m.mention, m.reason));
            merges.dedup_by_key(|m| m.mention);
            index_of[referent] = Some(sources.len());
            sources.push(Source {
                name: r.name.clone(),
                kind,
                mentions,
                descriptors,
                gender: r.gender,
                attributions,
                merges,
            });
        }
        let source_of = referent_of
            .into_iter()
            .map(|r| r.and_then(|r| index_of.get(r).copied().flatten()))
            .collect();
        Resolution {
            sources,
            source_of,
            routes,
        }
    }
}

/// Whether `acronym` ("FDA") spells the initials of the capitalized words of
/// `words` ("Food and Drug Administration").
fn is_acronym_of(acronym: &str, words: &[String]) -> bool {
    let initials: String = words
        .iter()
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_uppercase())
        .collect();
    acronym.len() > 1
        && acronym.chars().all(|c| c.is_ascii_uppercase())
        && initials.len() > 1
        && initials == acronym
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pronoun {
    Person(Option<Gender>),
    Thing,
    Group,
}

/// Whether a source's name is only a pronoun ("he", "who", "that"): a source
/// the resolver could not name, which an editor should never see.
pub fn is_pronoun_name(name: &str) -> bool {
    let word = name.trim().to_lowercase();
    pronoun(&word).is_some() || word == "that"
}

fn pronoun(word: &str) -> Option<Pronoun> {
    Some(match word {
        "he" | "him" | "his" => Pronoun::Person(Some(Gender::Masculine)),
        "she" | "her" | "hers" => Pronoun::Person(Some(Gender::Feminine)),
        "i" | "me" | "my" | "who" => Pronoun::Person(None),
        "it" | "its" | "which" => Pronoun::Thing,
        "they" | "them" | "their" | "we" | "us" | "our" => Pronoun::Group,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{attribution, doc_with};
    use attest_doc::{Attribution, AttributionKind};

    /// The name and kind of each attribution's source.
    fn sources_of(text: &str, parts: &[(&str, &str, &str)]) -> Vec<Option<(String, SourceKind)>> {
        let doc = doc_with(
            text,
            parts
                .iter()
                .map(|(s, c, t)| attribution(text, s, c, t))
                .collect(),
        );
        named_sources(&doc)
    }

    /// The name and kind of each attribution's source in `doc`.
    fn named_sources(doc: &Doc) -> Vec<Option<(String, SourceKind)>> {
        let resolution = resolve(doc);
        resolution
            .source_of
            .iter()
            .map(|s| {
                s.and_then(|s| resolution.sources.get(s))
                    .map(|s| (s.name.clone(), s.kind))
            })
            .collect()
    }

    fn named(name: &str, kind: SourceKind) -> Option<(String, SourceKind)> {
        Some((name.to_string(), kind))
    }

    #[test]
    fn an_organization_named_after_the_noun_that_says_what_it_is_speaks() {
        let text = "The consulting firm Harlow Partners said the deal was fair. \
                    Later, activist group Everyone Hates Elon claimed the stunt.";
        let got = sources_of(
            text,
            &[
                (
                    "The consulting firm Harlow Partners",
                    "said",
                    "the deal was fair",
                ),
                ("activist group Everyone Hates Elon", "claimed", "the stunt"),
            ],
        );
        assert_eq!(got[0], named("Harlow Partners", SourceKind::Organization));
        assert_eq!(
            got[1],
            named("Everyone Hates Elon", SourceKind::Organization),
            "a capitalized word inside a sentence opens the name"
        );
    }

    #[test]
    fn a_relative_pronoun_alone_takes_the_group_or_person_before_it() {
        let group = "The plan drew fire from tenants who say rents will rise.";
        let got = sources_of(group, &[("who", "say", "rents will rise")]);
        assert_eq!(got[0], named("tenants", SourceKind::Unnamed));
        let that = "The plan drew fire from groups that say rents will rise.";
        let got = sources_of(that, &[("that", "say", "rents will rise")]);
        assert_eq!(got[0], named("groups", SourceKind::Unnamed));
        let person = "The plan was praised by Mayor Ann Lee, who said it was fair.";
        let got = sources_of(person, &[("who", "said", "it was fair")]);
        assert_eq!(got[0], named("Ann Lee", SourceKind::Person));
    }

    #[test]
    fn a_relative_pronoun_stands_for_the_noun_before_it() {
        let text = "A city engineer, who asked not to be named, said the dam held.";
        let got = sources_of(text, &[("A city engineer, who", "said", "the dam held")]);
        assert_eq!(got, vec![named("A city engineer", SourceKind::Unnamed)]);
        let doc = doc_with(
            text,
            vec![attribution(
                text,
                "A city engineer, who",
                "said",
                "the dam held",
            )],
        );
        let resolution = resolve(&doc);
        assert!(
            resolution.sources.iter().all(|s| s.descriptors.is_empty()),
            "a bare relative pronoun is no descriptor"
        );
    }

    #[test]
    fn a_hedge_adverb_cue_names_no_source() {
        let text = "Ada Byrne reportedly sold the farm. Byrne said she was tired.";
        let got = sources_of(
            text,
            &[
                ("Ada Byrne", "reportedly", "sold the farm"),
                ("Byrne", "said", "she was tired"),
            ],
        );
        assert_eq!(got, vec![None, named("Ada Byrne", SourceKind::Person)]);
        let text = "Ada Byrne said she was tired. The farm reportedly sold for less.";
        let got = sources_of(
            text,
            &[
                ("Ada Byrne", "said", "she was tired"),
                ("", "reportedly", "sold for less"),
            ],
        );
        assert_eq!(
            got,
            vec![named("Ada Byrne", SourceKind::Person), None],
            "nor does it inherit the speaker before it"
        );
        let text = "Ada Byrne was reportedly arrested on Monday.";
        let got = sources_of(
            text,
            &[("Ada Byrne", "was reportedly", "arrested on Monday")],
        );
        assert_eq!(
            got,
            vec![None],
            "an auxiliary beside the adverb changes nothing"
        );
    }

    /// An entity mention written by hand: its words, label and cluster.
    type Mention<'a> = (&'a str, EntityLabel, usize);

    /// An attribution written by hand: its source and cue, each with its
    /// occurrence in the text.
    type Said<'a> = ((&'a str, usize), (&'a str, usize));

    /// A case of [`sources_with_entities`] and the one source it finds.
    type Case<'a> = (
        &'a str,
        &'a [Mention<'a>],
        &'a [Said<'a>],
        (&'a str, SourceKind),
    );

    /// The name and kind of each attribution's source, with the entity layer
    /// written by hand: `mentions` are (words, label, cluster), each found
    /// after the one before it, and `parts` are (source, cue) with the
    /// occurrence of each, found anywhere.
    fn sources_with_entities(
        text: &str,
        mentions: &[Mention],
        parts: &[Said],
    ) -> Vec<Option<(String, SourceKind)>> {
        sources_with_tags(text, mentions, parts, &[])
    }

    /// [`sources_with_entities`] with a part-of-speech layer when `determiners`
    /// is not empty: those words tagged DT, every other token NNP.
    fn sources_with_tags(
        text: &str,
        mentions: &[Mention],
        parts: &[Said],
        determiners: &[&str],
    ) -> Vec<Option<(String, SourceKind)>> {
        let nth = |needle: &str, n: usize| {
            let start = text.match_indices(needle).nth(n).expect("present").0;
            Span::must(start, start + needle.len())
        };
        let mut doc = doc_with(
            text,
            parts
                .iter()
                .map(|((source, s), (cue, c))| Attribution {
                    source: vec![nth(source, *s)],
                    cue: vec![nth(cue, *c)],
                    content: Vec::new(),
                    kind: AttributionKind::Indirect,
                    confidence: 1.0,
                })
                .collect(),
        );
        let mut from = 0;
        let entities = mentions
            .iter()
            .map(|(words, label, cluster)| {
                let start = from + text[from..].find(words).expect("present");
                from = start + words.len();
                Entity {
                    span: Span::must(start, from),
                    label: *label,
                    cluster: ClusterId::must(*cluster),
                }
            })
            .collect();
        doc.set_entities(entities).expect("the spans fit");
        if !determiners.is_empty() {
            let tags = doc
                .tokens()
                .iter()
                .map(|t| {
                    let word = t.span.get(text).unwrap_or("");
                    if determiners.contains(&word) {
                        PosTag::Dt
                    } else {
                        PosTag::Nnp
                    }
                })
                .collect();
            doc.set_pos(tags).expect("one tag a token");
        }
        named_sources(&doc)
    }

    #[test]
    fn the_lexicon_corrects_a_company_the_tagger_took_for_a_person() {
        use EntityLabel::Person;
        let text = "Pinecrest fired four drivers. Pinecrest Logistics denied it. \
                    Pinecrest also said it would appeal.";
        let got = sources_with_entities(
            text,
            &[("Pinecrest", Person, 0), ("Pinecrest Logistics", Person, 1)],
            &[
                (("Pinecrest Logistics", 0), ("denied", 0)),
                (("Pinecrest", 2), ("said", 0)),
            ],
        );
        let company = named("Pinecrest Logistics", SourceKind::Organization);
        assert_eq!(
            got,
            vec![company.clone(), company],
            "typed by its organization word, joined by the short form the tagger \
             clustered apart, and found again where the tagger missed it"
        );
    }

    #[test]
    fn a_company_suffix_names_what_the_tagger_missed() {
        let text = "Novalight Inc. is cutting jobs. In a post on LinkedIn, its chief \
                    wrote that it was hard. A company spokesman confirmed the cuts.";
        let got = sources_with_entities(
            text,
            &[("LinkedIn", EntityLabel::Organization, 0)],
            &[(("A company spokesman", 0), ("confirmed", 0))],
        );
        assert_eq!(
            got,
            vec![named("Novalight Inc.", SourceKind::Organization)],
            "the platform a post is made on speaks for no company"
        );
    }

    #[test]
    fn a_company_named_by_its_first_word_where_the_tagger_missed_it() {
        let text = "Brightline Freight Inc. runs the depot. Brightline denied that jobs would go.";
        let got = sources_with_entities(
            text,
            &[("Brightline Freight Inc.", EntityLabel::Organization, 0)],
            &[(("Brightline", 1), ("denied", 0))],
        );
        assert_eq!(
            got,
            vec![named("Brightline Freight Inc.", SourceKind::Organization)]
        );
    }

    #[test]
    fn a_family_name_the_tagger_missed_is_the_person_named_before() {
        let text = "Grace Okafor chairs the board. Mr. Okafor said the vote was fair. \
                    Okafor added that it was final.";
        let got = sources_with_entities(
            text,
            &[("Grace Okafor", EntityLabel::Person, 0)],
            &[
                (("Mr. Okafor", 0), ("said", 0)),
                (("Okafor", 2), ("added", 0)),
            ],
        );
        assert_eq!(got, vec![named("Grace Okafor", SourceKind::Person); 2]);
    }

    #[test]
    fn an_outlet_the_tagger_missed_is_read_from_its_outlet_word() {
        let text = "The Harbor Courier has learned that the mill will close. The Harbor \
                    Courier also reported that talks had failed.";
        let got = sources_with_entities(
            text,
            &[],
            &[
                (("The Harbor Courier", 0), ("has learned", 0)),
                (("The Harbor Courier", 1), ("reported", 0)),
            ],
        );
        let courier = named("The Harbor Courier", SourceKind::MediaOutlet);
        assert_eq!(got, vec![courier.clone(), courier]);
    }

    #[test]
    fn a_place_that_speaks_is_an_organization() {
        let text = "Talks in Oslo stalled. Norway said it would wait. Norway also said \
                    the offer stood.";
        let got = sources_with_entities(
            text,
            &[
                ("Oslo", EntityLabel::Location, 0),
                ("Norway", EntityLabel::Location, 1),
                ("Norway", EntityLabel::Location, 1),
            ],
            &[(("Norway", 0), ("said", 0)), (("Norway", 1), ("said", 1))],
        );
        let norway = named("Norway", SourceKind::Organization);
        assert_eq!(got, vec![norway.clone(), norway]);
    }

    #[test]
    fn a_determiner_opening_the_sentence_is_no_part_of_a_name() {
        let text = "Bellmere said in a statement that it would reopen. Neither Bellmere \
                    nor the county would say more.";
        let source = |determiners: &[&str]| {
            sources_with_tags(
                text,
                &[
                    ("Bellmere", EntityLabel::Organization, 0),
                    ("Bellmere", EntityLabel::Organization, 0),
                ],
                &[(("Bellmere", 0), ("said", 0))],
                determiners,
            )
        };
        let tagged = source(&["Neither", "nor", "the", "a", "that", "it"]);
        assert_eq!(
            tagged,
            vec![named("Bellmere", SourceKind::Organization)],
            "not \"Neither Bellmere\""
        );
    }

    #[test]
    fn names_joined_by_and_are_a_named_source() {
        use EntityLabel::{Location, Person};
        let text = "Obama and Clinton said the deal was dead. Germany and France said \
                    they would wait.";
        let got = sources_with_entities(
            text,
            &[
                ("Obama", Person, 0),
                ("Clinton", Person, 1),
                ("Germany", Location, 2),
                ("France", Location, 3),
            ],
            &[
                (("Obama and Clinton", 0), ("said", 0)),
                (("Germany and France", 0), ("said", 1)),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Obama and Clinton", SourceKind::Person),
                named("Germany and France", SourceKind::Organization),
            ],
            "named sources, not unnamed ones"
        );
        let text = "John Smith and Mary Jones said they were leaving.";
        let got = sources_with_entities(
            text,
            &[("John Smith", Person, 0), ("Mary Jones", Person, 1)],
            &[(("John Smith and Mary Jones", 0), ("said", 0))],
        );
        assert_eq!(
            got,
            vec![named("John Smith and Mary Jones", SourceKind::Person)],
            "the first name is no title of the second"
        );
        let text = "NASA and the Pentagon declined to comment.";
        let got = sources_with_entities(
            text,
            &[
                ("NASA", EntityLabel::Organization, 0),
                ("Pentagon", EntityLabel::Organization, 1),
            ],
            &[(("NASA and the Pentagon", 0), ("declined", 0))],
        );
        assert_eq!(
            got,
            vec![named("NASA and the Pentagon", SourceKind::Organization)]
        );
    }

    #[test]
    fn a_title_inside_a_mention_makes_it_a_persons() {
        let text = "Wexley Fire Chief Dolores Hayworth said the air was clean.";
        let got = sources_with_entities(
            text,
            &[(
                "Wexley Fire Chief Dolores Hayworth",
                EntityLabel::Organization,
                0,
            )],
            &[(("Wexley Fire Chief Dolores Hayworth", 0), ("said", 0))],
        );
        assert_eq!(got, vec![named("Dolores Hayworth", SourceKind::Person)]);
    }

    #[test]
    fn a_shortened_outlet_and_a_shared_description_are_one_source() {
        use EntityLabel::{Location, Organization};
        let outlet =
            "The Varden Sentinel reported the merger. The Sentinel said talks had stalled.";
        let owners = "Shop owners on Fenwick Street say sales fell and plan to ask for relief.";
        let cases: [Case; 2] = [
            (
                outlet,
                &[
                    ("Varden Sentinel", Organization, 0),
                    ("Sentinel", Organization, 1),
                ],
                &[
                    (("The Varden Sentinel", 0), ("reported", 0)),
                    (("The Sentinel", 0), ("said", 0)),
                ],
                ("The Varden Sentinel", SourceKind::MediaOutlet),
            ),
            (
                owners,
                &[("Fenwick Street", Location, 0)],
                &[
                    (("Shop owners on Fenwick Street", 0), ("say", 0)),
                    (("Shop owners on Fenwick Street", 0), ("plan", 0)),
                ],
                ("Shop owners on Fenwick Street", SourceKind::Unnamed),
            ),
        ];
        for (text, mentions, parts, (name, kind)) in cases {
            let got = sources_with_entities(text, mentions, parts);
            assert_eq!(got, vec![named(name, kind), named(name, kind)], "{text}");
        }
    }

    #[test]
    fn every_merge_records_why() {
        let text = "Dana Whitcombe said the pier was safe. Whitcombe added that repairs were done. \
                    Mr. Whitcombe called it finished. Brightwater Terminals Inc. said it agreed. \
                    Brightwater said the work was late. The company denied any delay. \
                    He said he was proud. The Food and Drug Administration said it would look. \
                    The FDA said the pier was clean.";
        let nth = |needle: &str, n: usize| {
            let start = text.match_indices(needle).nth(n).expect("present").0;
            Span::must(start, start + needle.len())
        };
        let said = |source: Span, cue: &str, n: usize| Attribution {
            source: vec![source],
            cue: vec![nth(cue, n)],
            content: Vec::new(),
            kind: AttributionKind::Indirect,
            confidence: 1.0,
        };
        let doc = doc_with(
            text,
            vec![
                said(nth("Dana Whitcombe", 0), "said", 0),
                said(nth("Whitcombe", 1), "added", 0),
                said(nth("Mr. Whitcombe", 0), "called", 0),
                said(nth("Brightwater Terminals Inc.", 0), "said", 1),
                said(nth("Brightwater", 1), "said", 2),
                said(nth("The company", 0), "denied", 0),
                said(nth("He", 0), "said", 3),
                said(nth("The Food and Drug Administration", 0), "said", 4),
                said(nth("The FDA", 0), "said", 5),
            ],
        );
        let resolution = resolve(&doc);
        let reasons: Vec<(String, Vec<(&str, MergeReason)>)> = resolution
            .sources
            .iter()
            .map(|s| {
                let merges = s
                    .merges
                    .iter()
                    .map(|m| (doc.span_text(m.mention), m.reason))
                    .collect();
                (s.name.clone(), merges)
            })
            .collect();
        use MergeReason::*;
        assert_eq!(
            reasons,
            vec![
                (
                    "Dana Whitcombe".to_string(),
                    vec![
                        ("Whitcombe", Surname),
                        ("Mr. Whitcombe", Honorific),
                        ("He", Pronoun)
                    ]
                ),
                (
                    "Brightwater Terminals Inc.".to_string(),
                    vec![("Brightwater", ShortenedName), ("The company", Description)]
                ),
                (
                    "Food and Drug Administration".to_string(),
                    vec![("The FDA", Acronym)]
                ),
            ]
        );
    }

    #[test]
    fn a_reporters_question_inherits_no_speaker() {
        let text = "Dana Whitcombe said the pier was safe. Asked about the layoffs, \
                    Whitcombe did not answer. When asked whether it would reopen, \
                    a guard shrugged.";
        let got = sources_of(
            text,
            &[
                ("Dana Whitcombe", "said", "the pier was safe"),
                ("", "Asked about", "the layoffs"),
                ("", "asked", "whether it would reopen"),
            ],
        );
        assert_eq!(
            got,
            vec![named("Dana Whitcombe", SourceKind::Person), None, None]
        );
    }

    #[test]
    fn surnames_honorifics_and_titles_join_the_full_name() {
        let text = "Sen. Ada Byrne spoke first. Byrne said taxes would rise. \
                    The senator added that cuts were coming. Ms. Byrne wrote that it was over.";
        let got = sources_of(
            text,
            &[
                ("Byrne", "said", "taxes would rise"),
                ("The senator", "added", "that cuts were coming"),
                ("Ms. Byrne", "wrote", "that it was over"),
            ],
        );
        assert_eq!(got, vec![named("Ada Byrne", SourceKind::Person); 3]);
    }

    /// Every title of the shared list is split off a name: "Adm." and
    /// "Maj." were missing from the resolver's own list, so a name kept them.
    #[test]
    fn military_and_legal_titles_are_split_off_the_name() {
        let text = "Adm. Lena Voss said the fleet would sail. Maj. Omar Dell said the base \
                    would stay open. Atty. Ruth Kane said the case was closed.";
        let got = sources_of(
            text,
            &[
                ("Adm. Lena Voss", "said", "the fleet would sail"),
                ("Maj. Omar Dell", "said", "the base would stay open"),
                ("Atty. Ruth Kane", "said", "the case was closed"),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Lena Voss", SourceKind::Person),
                named("Omar Dell", SourceKind::Person),
                named("Ruth Kane", SourceKind::Person),
            ]
        );
    }

    #[test]
    fn pronouns_follow_stated_gender() {
        let text = "Mr. Tom Vale met Ms. Ida Roe. She said the deal was off. He said it was not.";
        let doc = doc_with(
            text,
            vec![
                attribution(text, "She", "said", "the deal was off"),
                attribution(text, "He", "said it", "it was not"),
            ],
        );
        let resolution = resolve(&doc);
        let names: Vec<&str> = resolution
            .source_of
            .iter()
            .filter_map(|s| s.and_then(|s| resolution.sources.get(s)))
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["Ida Roe", "Tom Vale"]);
        assert_eq!(
            resolution.routes,
            [Route::PronounToName, Route::PronounToName]
        );
    }

    #[test]
    fn appositives_become_descriptors() {
        let text = "Hugh Hill, a doctor in Salem, said the ward was full.";
        let doc = doc_with(
            text,
            vec![attribution(
                text,
                "Hugh Hill, a doctor in Salem",
                "said",
                "the ward was full",
            )],
        );
        let resolution = resolve(&doc);
        let hill = &resolution.sources[0];
        assert_eq!(hill.name, "Hugh Hill");
        let descriptors: Vec<&str> = hill.descriptors.iter().map(|d| doc.span_text(*d)).collect();
        assert_eq!(descriptors, ["a doctor in Salem"]);
        assert_eq!(hill.gender, None, "never guessed from the name");
    }

    #[test]
    fn spokespeople_speak_for_their_organization() {
        let text = "Acme Corp. lost the bid. A spokeswoman for Acme said it would appeal. \
                    A spokesman said nothing. Officials said the bid was fair.";
        let got = sources_of(
            text,
            &[
                ("A spokeswoman for Acme", "said", "it would appeal"),
                ("A spokesman", "said nothing", "nothing"),
                ("Officials", "said the bid", "the bid was fair"),
            ],
        );
        assert_eq!(got[0], named("Acme Corp.", SourceKind::Organization));
        assert_eq!(got[1], named("A spokesman", SourceKind::Unnamed));
        assert_eq!(got[2], named("Officials", SourceKind::Unnamed));
    }

    #[test]
    fn documents_outlets_and_posts_get_their_types() {
        let text = "The levee failed, according to court documents. Reuters reported the same. \
                    The union wrote on Facebook that it would strike.";
        let got = sources_of(
            text,
            &[
                ("court documents", "according to", "The levee failed"),
                ("Reuters", "reported", "the same"),
                ("The union", "wrote on Facebook", "that it would strike"),
            ],
        );
        assert_eq!(got[0], named("court documents", SourceKind::Document));
        assert_eq!(got[1], named("Reuters", SourceKind::MediaOutlet));
        assert_eq!(got[2], named("The union", SourceKind::SocialMedia));
    }

    #[test]
    fn a_post_to_someones_account_is_theirs() {
        let text = "Governor Alan Pryce defended the budget on Friday. \
                    A statement posted to his account said the cuts were fair. \
                    The union said in a post on its page that the cuts were not.";
        let got = sources_of(
            text,
            &[
                ("Governor Alan Pryce", "defended", "the budget"),
                (
                    "A statement posted to his account",
                    "said",
                    "the cuts were fair",
                ),
                (
                    "The union",
                    "said in a post on its page",
                    "that the cuts were not",
                ),
            ],
        );
        assert_eq!(got[1].as_ref().map(|(n, _)| n.as_str()), Some("Alan Pryce"));
        assert_eq!(got[2].as_ref().map(|(n, _)| n.as_str()), Some("The union"));
    }

    #[test]
    fn quotes_inherit_only_from_the_paragraph_before() {
        let text = "“We stay,” said Ann Lee.\n\n“We will not move.”\n\nThe rain stopped.\n\n\
                    The river rose.\n\n“Nobody knows.”";
        let got = sources_of(
            text,
            &[
                ("Ann Lee", "said", "“We stay,”"),
                ("", "", "“We will not move.”"),
                ("", "", "“Nobody knows.”"),
            ],
        );
        assert_eq!(got[1], named("Ann Lee", SourceKind::Person));
        assert_eq!(got[2], None, "three paragraphs away: no source is invented");
    }

    #[test]
    fn only_someone_speaking_continues_the_speaker_before() {
        let text = "“We stay,” said Ann Lee.\n\nThe plan was criticized as too slow. \
                    She is widely expected to resign. She added that it would rain.";
        let got = sources_of(
            text,
            &[
                ("Ann Lee", "said", "“We stay,”"),
                ("", "was criticized as", "too slow"),
                ("", "is widely expected", "to resign"),
                ("", "added", "that it would rain"),
            ],
        );
        assert_eq!(got[1], None, "a passive has no speaker to continue");
        assert_eq!(got[2], None, "nor has an expectation stated in the passive");
        assert_eq!(got[3], named("Ann Lee", SourceKind::Person));
    }

    #[test]
    fn a_cue_holding_its_own_subject_or_a_noun_continues_no_one() {
        let text = "“We stay,” said Ann Lee.\n\nThere has been speculation that the mill \
                    will close. “We stay,” said Ann Lee. The failure to grasp the cost is \
                    plain. “We stay,” said Ann Lee. Later, she added that it would rain.";
        let got = sources_of(
            text,
            &[
                ("Ann Lee", "said", "“We stay,”"),
                ("", "There has been speculation", "that the mill will close"),
                ("", "The failure to grasp", "the cost"),
                ("", "added", "that it would rain"),
            ],
        );
        assert_eq!(got[1], None, "an expletive subject: no one speaks");
        assert_eq!(got[2], None, "a noun phrase: no one speaks");
        assert_eq!(got[3], named("Ann Lee", SourceKind::Person));
    }

    type Unit = fn(usize) -> String;

    /// The work of resolving `repeats` copies of `unit(i)`, each one
    /// attribution whose source is the text before " said".
    fn work_for(repeats: usize, unit: Unit) -> usize {
        let mut text = String::new();
        let mut attributions = Vec::new();
        for i in 0..repeats {
            let piece = unit(i);
            let said = piece.find(" said").expect("the unit has a cue");
            let start = text.len();
            let source = piece[..said]
                .rsplit_once("” ")
                .map_or(0, |(before, _)| before.len() + "” ".len());
            attributions.push(Attribution {
                source: vec![Span::must(start + source, start + said)],
                cue: vec![Span::must(start + said + 1, start + said + 5)],
                content: Vec::new(),
                kind: AttributionKind::Indirect,
                confidence: 1.0,
            });
            text.push_str(&piece);
        }
        resolve_counted(&doc_with(&text, attributions), None, false).visited
    }

    #[test]
    fn resolving_stays_linear_in_the_attributions() {
        const SURNAMES: [&str; 6] = ["Reyes", "Okafor", "Brandt", "Moreau", "Tanaka", "Novak"];
        let units: [(&str, Unit); 3] = [
            // Each sentence-opening surname is a name added after the scan.
            ("surnames", |i| {
                format!("{} said. ", SURNAMES[i % SURNAMES.len()])
            }),
            ("new names", |i| format!("Dana Reyes{i} said. ")),
            ("pronouns", |_| "“We will.” She said. ".to_string()),
        ];
        // Past the look-back bound, linear work grows as the input does (4x);
        // a search through everything stored before grows as its square (16x).
        for (family, unit) in units {
            let (small, large) = (work_for(1_000, unit), work_for(4_000, unit));
            assert!(
                large < 6 * small,
                "{family}: {small} items visited for 1,000 attributions, {large} for 4,000"
            );
        }
    }

    #[test]
    fn a_shortened_company_name_is_the_company() {
        let text = "Marl Bay Shipping closed the dock. Marl Bay denied that it had broken the deal. \
                    The Harbor Labor Authority (HLA) objected. HLA said talks would resume.";
        let got = sources_of(
            text,
            &[
                ("Marl Bay", "denied", "that it had broken the deal"),
                ("HLA", "said", "talks would resume"),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Marl Bay Shipping", SourceKind::Organization),
                named("Harbor Labor Authority", SourceKind::Organization),
            ]
        );
    }

    #[test]
    fn the_words_around_a_name_type_it_organization() {
        let text = "Clean Kettle Now, a coalition of tenants, said rents were too high. \
                    The retailer, Tovey Brook Outfitters, said rents were fair. \
                    Jamal Ode, a 40-year-old crane operator, said he was striking. \
                    Ines Marlow, the coalition's head of research, said talks failed. \
                    Pell Orchard Growers, which grows apples, said prices would rise. \
                    Dunmore Quarry said in a statement that it would appeal. \
                    Ada Byrne said it was too late.";
        let got = sources_of(
            text,
            &[
                (
                    "Clean Kettle Now, a coalition of tenants",
                    "said",
                    "rents were too high",
                ),
                (
                    "The retailer, Tovey Brook Outfitters",
                    "said",
                    "rents were fair",
                ),
                (
                    "Jamal Ode, a 40-year-old crane operator",
                    "said",
                    "he was striking",
                ),
                (
                    "Ines Marlow, the coalition's head of research",
                    "said",
                    "talks failed",
                ),
                ("Pell Orchard Growers", "said", "prices would rise"),
                ("Dunmore Quarry", "said", "that it would appeal"),
                ("Ada Byrne", "said", "it was too late"),
            ],
        );
        let organization = |name| named(name, SourceKind::Organization);
        assert_eq!(
            got,
            vec![
                organization("Clean Kettle Now"),
                organization("Tovey Brook Outfitters"),
                named("Jamal Ode", SourceKind::Person),
                named("Ines Marlow", SourceKind::Person),
                organization("Pell Orchard Growers"),
                organization("Dunmore Quarry"),
                named("Ada Byrne", SourceKind::Person),
            ]
        );
    }

    #[test]
    fn a_group_named_with_a_plural_noun_keeps_it() {
        let text = "The suit was filed by Neighbors of the Creek, which opposes the dam. \
                    Neighbors of the Creek said the permit was flawed. \
                    Worried Parents of Alder, a group of families, said the school was unsafe.";
        let got = sources_of(
            text,
            &[
                ("Neighbors of the Creek", "said", "the permit was flawed"),
                (
                    "Worried Parents of Alder, a group of families",
                    "said",
                    "the school was unsafe",
                ),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Neighbors of the Creek", SourceKind::Organization),
                named("Worried Parents of Alder", SourceKind::Organization),
            ]
        );
    }

    #[test]
    fn a_speaker_label_in_capitals_is_the_person_of_that_surname() {
        let text = "The panel heard Judge Ada Byrne and lawyer Tom Reyes-Oduya.\n\n\
                    BYRNE: The hearing is open.\n\nREYES-ODUYA: We are ready.";
        let got = sources_of(
            text,
            &[
                ("BYRNE", "", "The hearing is open."),
                ("REYES-ODUYA", "", "We are ready."),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Ada Byrne", SourceKind::Person),
                named("Tom Reyes-Oduya", SourceKind::Person),
            ]
        );
    }

    #[test]
    fn who_after_a_description_of_a_named_person_is_that_person() {
        let copula = "Ann Lee is a former tax lawyer who said the levy was unfair.";
        let got = sources_of(copula, &[("who", "said", "the levy was unfair")]);
        assert_eq!(got, vec![named("Ann Lee", SourceKind::Person)]);
        let apposition =
            "Tom Reyes, 61, a retired teacher, who spoke next, argued the levy was fair.";
        let got = sources_of(apposition, &[("who", "argued", "the levy was fair")]);
        assert_eq!(got, vec![named("Tom Reyes", SourceKind::Person)]);
    }

    #[test]
    fn they_and_both_men_after_two_people_named_together_are_the_two() {
        let text = "Governor Ann Lee and Mayor Tom Reyes toured the new bridge on Monday. \
                    They said it would open soon, and both men added that tolls would stay.";
        let got = sources_of(
            text,
            &[
                ("They", "said", "it would open soon"),
                ("both men", "added", "that tolls would stay"),
            ],
        );
        let pair = named("Ann Lee and Tom Reyes", SourceKind::Person);
        assert_eq!(got, vec![pair.clone(), pair]);
    }

    #[test]
    fn a_speaker_label_naming_no_one_before_is_a_person_of_its_own() {
        let text = "Partial transcript of the broadcast.\n\n\
                    MORVANT: Why did you leave?\n\nBYRNE: The job was done.\n\n\
                    MORVANT: Will you run again?";
        let mut again = attribution(text, "", "", "Will you run again?");
        let second = text.rfind("MORVANT").expect("the second label");
        again.source = vec![Span::must(second, second + "MORVANT".len())];
        let doc = doc_with(
            text,
            vec![
                attribution(text, "MORVANT", "", "Why did you leave?"),
                attribution(text, "BYRNE", "", "The job was done."),
                again,
            ],
        );
        assert_eq!(
            named_sources(&doc),
            vec![
                named("MORVANT", SourceKind::Person),
                named("BYRNE", SourceKind::Person),
                named("MORVANT", SourceKind::Person),
            ]
        );
        let resolution = resolve(&doc);
        assert_eq!(
            resolution.source_of[0], resolution.source_of[2],
            "each turn under a label is one person's"
        );
    }

    #[test]
    fn a_person_of_a_group_and_a_spokesman_for_a_person() {
        let text = "Ines Marlow of Clean Kettle, a tenants group, said rents rose. \
                    Lars Dahl resigned. A spokesman for Dahl said he was tired.";
        let got = sources_of(
            text,
            &[
                (
                    "Ines Marlow of Clean Kettle, a tenants group",
                    "said",
                    "rents rose",
                ),
                ("A spokesman for Dahl", "said", "he was tired"),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Ines Marlow", SourceKind::Person),
                named("Lars Dahl", SourceKind::Person),
            ]
        );
    }

    #[test]
    fn the_spokesman_of_a_titled_person_speaks_as_that_person() {
        let text = "Mayor Ines Carrow closed the pier. The mayor's spokesman said the beams were rotten. \
                    A union's spokeswoman said nothing.";
        let got = sources_of(
            text,
            &[
                ("The mayor's spokesman", "said", "the beams were rotten"),
                ("A union's spokeswoman", "said nothing", ""),
            ],
        );
        assert_eq!(got[0], named("Ines Carrow", SourceKind::Person));
        assert_ne!(
            got[1],
            named("Ines Carrow", SourceKind::Person),
            "an organization's possessive is no person's"
        );
    }

    #[test]
    fn counsel_speak_for_their_client_and_the_union_may_be_an_association() {
        let text = "Lawyers for the Harlow Water Board argued that the dam was safe. \
                    The board said repairs would start soon. \
                    The Dunmore Nurses Association called a strike. The union said pay was too low.";
        let got = sources_of(
            text,
            &[
                (
                    "Lawyers for the Harlow Water Board",
                    "argued",
                    "that the dam was safe",
                ),
                ("The union", "said", "pay was too low"),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Harlow Water Board", SourceKind::Organization),
                named("Dunmore Nurses Association", SourceKind::Organization),
            ]
        );
        let text = "The Brotherhood of Ferry Pilots met the Coastal Shippers Association. \
                    The union said talks had failed.";
        let got = sources_of(text, &[("The union", "said", "talks had failed")]);
        assert_eq!(
            got,
            vec![named(
                "Brotherhood of Ferry Pilots",
                SourceKind::Organization
            )],
            "an employers' association is no union where a union is in play"
        );
    }

    #[test]
    fn a_name_holding_a_plural_noun_is_a_group() {
        let text =
            "Harbor Riders United said fares were too high. Forecasters said snow was coming.";
        let got = sources_of(
            text,
            &[
                ("Harbor Riders United", "said", "fares were too high"),
                ("Forecasters", "said", "snow was coming"),
            ],
        );
        assert_eq!(
            got,
            vec![
                named("Harbor Riders United", SourceKind::Organization),
                named("Forecasters", SourceKind::Unnamed),
            ]
        );
    }
}
