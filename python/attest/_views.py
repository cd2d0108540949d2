# Generated from the JSON Schema of the attest.document/1 JSON
# (docs/attest.document.schema.json) by `cargo run -p attest-write --features schema --example python_views > python/attest/_views.py`;
# do not edit by hand.
"""Typed, read-only views of the ``attest.document/1`` JSON, one class per record,
with the label of every enum as a ``Literal``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Optional

AnalysisModel = Literal["fast", "accurate"]
"""Which model analysed a document, written as ``"model"``.

- ``fast``: The linear models (the default).
- ``accurate``: The fine-tuned encoder for attributions.
"""

AttributionKind = Literal["direct", "mixed", "indirect", "according_to"]
"""How an attribution gives its content.

- ``direct``: The content lies wholly inside quotation marks.
- ``mixed``: Part of the content is quoted.
- ``indirect``: A paraphrase, with no quotation marks.
- ``according_to``: "According to ..." and its kin.
"""

EntityLabel = Literal["person", "organization", "location", "other"]
"""The type of a named entity.

- ``person``: A person.
- ``organization``: An organization.
- ``location``: A place.
- ``other``: Any other name: events, nationalities, works.
"""

Gender = Literal["masculine", "feminine"]
"""Grammatical gender as the article states it, by pronoun or honorific.

- ``masculine``: He, Mr.
- ``feminine``: She, Mrs., Ms.
"""

Granularity = Literal["year", "month", "week", "day", "part_of_day", "minute"]
"""How precise a resolved time is.

- ``year``: A year.
- ``month``: A month.
- ``week``: A week.
- ``day``: A day.
- ``part_of_day``: A part of a day ("Monday night").
- ``minute``: An hour or minute.
"""

MergeReason = Literal[
    "same_name",
    "surname",
    "honorific",
    "shortened_name",
    "acronym",
    "pronoun",
    "description",
    "spokesperson",
]
"""Why a mention names a source already in the article.

- ``same_name``: The same name again ("Acme Corp." and "Acme Corp.").
- ``surname``: A person's surname alone ("Smalls" for "Chris Smalls").
- ``honorific``: A surname with an honorific or title ("Mr. Smalls", "Sen. Ortiz").
- ``shortened_name``: A shorter or fuller form of the name ("Brightwater" and "Brightwater Terminals Inc.").
- ``acronym``: An acronym of the name ("FDA" for "Food and Drug Administration").
- ``pronoun``: A pronoun resolved to the source ("she", "it").
- ``description``: A description of the one source in play that fits it ("the company", "the senator", "the report").
- ``spokesperson``: A spokesperson, lawyer or representative speaking for the source.
"""

ParagraphRole = Literal["headline", "byline", "body"]
"""What part of an article a paragraph plays.

- ``headline``: A headline or subhead: a short first line with no closing punctuation.
- ``byline``: "By Jane Doe" or "Jane Doe, Reuters".
- ``body``: Running text.
"""

QuoteStatus = Literal["attributed", "floating", "title", "scare", "slogan", "unattributed"]
"""Whose words a quotation is, or why it has no speaker.

- ``attributed``: The content of an attribution.
- ``floating``: A quote paragraph with no cue of its own that continues the speaker before it ("…," she said. / "And we will win.").
- ``title``: The title of a work: a film, a book, a show.
- ``scare``: Scare quotes: words the writer sets off ("green" energy).
- ``slogan``: A chant, a slogan, the text of a sign or a banner.
- ``unattributed``: Someone's words, but no speaker can be told.
"""

SourceKind = Literal[
    "person", "organization", "unnamed", "document", "media_outlet", "social_media"
]
"""What kind of source speaks.

- ``person``: A named person.
- ``organization``: A company, union, agency, government body or police force.
- ``unnamed``: A person or group the article does not name ("officials", "a source familiar with").
- ``document``: A document: a report, a statement, court filings.
- ``media_outlet``: A news outlet ("Reuters reported").
- ``social_media``: A social-media post.
"""

StanceLabel = Literal[
    "asserts", "confirms", "denies", "declines", "claims", "reports", "believes", "intends"
]
"""How firmly an attribution puts its content.

Its order is the order of the enum, the order every list of stances
follows (summaries, the ledger's statistics, their columns).

- ``asserts``: Said, told, wrote, according to.
- ``confirms``: Confirmed, acknowledged, verified.
- ``denies``: Denied, rejected, disputed.
- ``declines``: Declined to confirm, refused to comment, could not be reached.
- ``claims``: Claimed, alleged, insisted: the article keeps its distance.
- ``reports``: Reported, was quoted as saying.
- ``believes``: Thinks, believes, fears, expects.
- ``intends``: Plans, vows, promises, threatens.
"""

TokenKind = Literal[
    "word",
    "clitic",
    "number",
    "quote",
    "dash",
    "punct",
    "symbol",
    "url",
    "email",
    "hashtag",
    "handle",
    "markup",
]
"""What kind of text a token is.

- ``word``: Letters, possibly with inner hyphens, apostrophes or periods ("U.S.", "front-runner").
- ``clitic``: A clitic split off a word: "'s", "n't", "'re".
- ``number``: Digits, possibly with separators and decimals ("1,200", "7.2", "9/11", "7:30").
- ``quote``: A quotation mark, straight or curly, single or double.
- ``dash``: A dash: "—", "–", "--".
- ``punct``: Other punctuation: ". , ; : ! ? ( ) ...".
- ``symbol``: A currency or other symbol: "$", "€", "%", "&".
- ``url``: A web address.
- ``email``: An e-mail address.
- ``hashtag``: A hashtag: "#BlackLivesMatter".
- ``handle``: A social-media handle: "@AP".
- ``markup``: A markup tag left in the text: ``<tweet author=...>``.
"""

Layer = Literal[
    "tokens",
    "sentences",
    "paragraphs",
    "pos",
    "attributions",
    "stances",
    "sources",
    "hedges",
    "entities",
    "quantities",
    "times",
    "quotations",
]
"""The name of a layer, as ``Document.has`` takes it."""


@dataclass(frozen=True, repr=False)
class Span:
    """A stretch of the article text: ``doc.text[start:end] == text``."""

    start: int
    end: int
    byte_start: int
    byte_end: int
    text: str

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Span:
        return Span(
            start=value["cp_start"],
            end=value["cp_end"],
            byte_start=value["byte_start"],
            byte_end=value["byte_end"],
            text=value["text"],
        )


@dataclass(frozen=True, repr=False)
class Attribution:
    """Who said what: ``source``, ``cue`` and ``content`` spans (PolNeAR roles).

    ``kind`` is ``direct``, ``mixed``, ``indirect`` or ``according_to``;
    ``stance`` the stance label, or None when stances were not looked for;
    a role the article leaves out (a source for "reportedly") is empty;
    ``hedged_by_writer`` whether a hedge of the writer's lies in the cue or
    content ("reportedly said"), None when hedges were not looked for.
    """

    index: int
    kind: AttributionKind
    confidence: Optional[float]
    source: tuple[Span, ...]
    cue: tuple[Span, ...]
    content: tuple[Span, ...]
    stance: Optional[StanceLabel]
    """The label of its stance, from the stances layer; None when stances were not
    looked for.
    """
    hedged_by_writer: Optional[bool]
    """Whether a hedge of the writer's lies in the cue or content
    ("reportedly said"); null when sentences or hedges were not looked
    for.
    """

    @staticmethod
    def _of(value: Mapping[str, Any], stance: Optional[StanceLabel]) -> Attribution:
        return Attribution(
            index=value["index"],
            kind=value["kind"],
            confidence=value["confidence"],
            source=tuple(Span._of(item) for item in value["source"]),
            cue=tuple(Span._of(item) for item in value["cue"]),
            content=tuple(Span._of(item) for item in value["content"]),
            stance=stance,
            hedged_by_writer=value["hedged_by_writer"],
        )


@dataclass(frozen=True)
class Stance:
    """The stance of one attribution and the words that decided it."""

    attribution: int
    label: StanceLabel
    evidence: tuple[Span, ...]

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Stance:
        return Stance(
            attribution=value["attribution"],
            label=value["label"],
            evidence=tuple(Span._of(item) for item in value["evidence"]),
        )


@dataclass(frozen=True)
class Merge:
    """A mention that joined a source named or described before it, and why
    (``surname``, ``honorific``, ``acronym``, ``pronoun``, ... as docs/schema.md lists).
    """

    mention: Span
    reason: MergeReason

    @staticmethod
    def _of(value: Mapping[str, Any], mentions: tuple[Span, ...]) -> Merge:
        return Merge(mention=mentions[value["mention"]], reason=value["reason"])


@dataclass(frozen=True)
class Source:
    """One canonical source of the article, with every mention of it."""

    name: str
    kind: SourceKind
    gender: Optional[Gender]
    mentions: tuple[Span, ...]
    descriptors: tuple[Span, ...]
    attributions: tuple[int, ...]
    merges: tuple[Merge, ...]

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Source:
        mentions = tuple(Span._of(item) for item in value["mentions"])
        return Source(
            name=value["name"],
            kind=value["kind"],
            gender=value["gender"],
            mentions=mentions,
            descriptors=tuple(Span._of(item) for item in value["descriptors"]),
            attributions=tuple(value["attributions"]),
            merges=tuple(Merge._of(item, mentions) for item in value["merges"]),
        )


@dataclass(frozen=True)
class Hedge:
    """What the article asserts only on hearsay: the hedging ``cue`` and its ``scope``."""

    cue: Span
    scope: Span

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Hedge:
        return Hedge(cue=Span._of(value["cue"]), scope=Span._of(value["scope"]))


@dataclass(frozen=True)
class Entity:
    """A named entity; mentions of one entity share ``cluster``."""

    span: Span
    label: EntityLabel
    cluster: int

    @property
    def text(self) -> str:
        """The text of ``span``."""
        return self.span.text

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Entity:
        return Entity(span=Span._of(value["span"]), label=value["label"], cluster=value["cluster"])


@dataclass(frozen=True)
class Quotation:
    """A passage between quotation marks, marks left out, and whose words it is.

    ``status`` is ``attributed`` (the content of ``attribution``), ``floating``
    (a quote paragraph continuing ``source``, the last speaker), or why no one
    speaks it: ``title``, ``scare``, ``slogan`` or ``unattributed``.
    ``attribution`` and ``source`` index ``Document.attributions`` and
    ``Document.sources``.
    """

    span: Span
    status: QuoteStatus
    attribution: Optional[int]
    source: Optional[int]

    @property
    def text(self) -> str:
        """The text of ``span``."""
        return self.span.text

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Quotation:
        return Quotation(
            span=Span._of(value["span"]),
            status=value["status"],
            attribution=value["attribution"],
            source=value["source"],
        )


@dataclass(frozen=True)
class Quantity:
    """A number with its unit; ``low == high`` for an exact value, None for an open bound."""

    span: Span
    low: Optional[float]
    high: Optional[float]
    unit: str

    @property
    def text(self) -> str:
        """The text of ``span``."""
        return self.span.text

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Quantity:
        return Quantity(
            span=Span._of(value["span"]), low=value["low"], high=value["high"], unit=value["unit"]
        )


@dataclass(frozen=True)
class Time:
    """A time expression resolved to an ISO 8601 ``value``, or why it has none."""

    span: Span
    value: Optional[str]
    granularity: Optional[Granularity]
    unresolved: Optional[str]

    @property
    def text(self) -> str:
        """The text of ``span``."""
        return self.span.text

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Time:
        return Time(
            span=Span._of(value["span"]),
            value=value["value"],
            granularity=value["granularity"],
            unresolved=value["unresolved"],
        )


@dataclass(frozen=True)
class Certainty:
    """How many statements the writer hedged: attributions, and sentences in
    the writer's own voice (those that attribute and quote no one); each share
    is over its own kind.
    """

    hedged_attributions: int
    """Attributions with a hedge of the writer's in their cue or content."""
    hedged_attribution_share: float
    """Hedged attributions over all attributions."""
    writers_voice_sentences: int
    """Sentences in the writer's own voice: with a word, none of it
    attributed or quoting someone, and not in a byline.
    """
    hedged_sentences: int
    """Sentences in the writer's voice with a hedge in them."""
    hedged_sentence_share: float
    """Hedged sentences over the sentences in the writer's voice."""

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Certainty:
        return Certainty(
            hedged_attributions=value["hedged_attributions"],
            hedged_attribution_share=value["hedged_attribution_share"],
            writers_voice_sentences=value["writers_voice_sentences"],
            hedged_sentences=value["hedged_sentences"],
            hedged_sentence_share=value["hedged_sentence_share"],
        )


@dataclass(frozen=True)
class Summary:
    """The sourcing summary, counted as every attest output counts it."""

    attributions: int
    """Attributions found."""
    sources: int
    """Canonical sources found."""
    sources_by_kind: Mapping[SourceKind, int]
    """Sources of each kind."""
    attributions_by_source_kind: Mapping[SourceKind, int]
    """Attributions by the kind of their source."""
    without_source: int
    """Attributions tied to no canonical source ("reportedly", or a quote whose
    speaker the article leaves open).
    """
    unnamed_share: float
    """Attributions to unnamed or anonymous sources, over all attributions."""
    direct_quotes: int
    """Direct quotes: attributions whose content lies wholly inside quotation marks."""
    direct_quote_share: float
    """Direct quotes over all attributions."""
    stances: Mapping[StanceLabel, int]
    """Attributions of each stance."""
    hedges: int
    """Unattributed hedges."""
    quotations: Optional[Mapping[QuoteStatus, int]]
    """Quoted passages by whose words they are, floating quotes (those with no
    cue of their own, continuing the speaker before them) among them; ``None``
    when quotations were not looked for.
    """
    certainty: Optional[Certainty]
    """How many statements the writer hedged; ``None`` when sentences or
    hedges were not looked for.
    """

    @staticmethod
    def _of(value: Mapping[str, Any]) -> Summary:
        return Summary(
            attributions=value["attributions"],
            sources=value["sources"],
            sources_by_kind=value["sources_by_kind"],
            attributions_by_source_kind=value["attributions_by_source_kind"],
            without_source=value["without_source"],
            unnamed_share=value["unnamed_share"],
            direct_quotes=value["direct_quotes"],
            direct_quote_share=value["direct_quote_share"],
            stances=value["stances"],
            hedges=value["hedges"],
            quotations=value["quotations"],
            certainty=None if value["certainty"] is None else Certainty._of(value["certainty"]),
        )
