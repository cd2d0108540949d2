"""attest for Python: who the news quotes, and how.

attest finds the sourcing of news articles: attributions (who said what,
through which cue), their stance, the article's canonical sources, hedges,
entities, quantities and times.
The analysis runs in Rust (the same engine as the ``attest`` command); this
module reads its output as typed, read-only Python objects.

>>> import attest
>>> doc = attest.analyze("The mayor said the bridge was safe.")
>>> [(a.source[0].text, a.cue[0].text) for a in doc.attributions]
[('The mayor', 'said')]

Every span has ``start`` and ``end`` in Python string offsets (code points), so
``doc.text[s.start:s.end] == s.text``, and ``byte_start`` and ``byte_end`` in
UTF-8 bytes.
``Document.to_dict()`` is the ``attest.document/1`` JSON object that
``attest analyze --format json`` writes (docs/schema.md).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping, Optional, Union

from . import _attest
from ._attest import SCHEMA, AttestError, InputError, LedgerError, ModelError
from ._views import (
    AnalysisModel,
    Attribution,
    AttributionKind,
    Certainty,
    Entity,
    EntityLabel,
    Gender,
    Granularity,
    Hedge,
    Layer,
    Merge,
    MergeReason,
    Quantity,
    Quotation,
    QuoteStatus,
    Source,
    SourceKind,
    Span,
    Stance,
    StanceLabel,
    Summary,
    Time,
)

__all__ = [
    "SCHEMA",
    "AttestError",
    "InputError",
    "ModelError",
    "LedgerError",
    "analyze",
    "analyze_many",
    "Document",
    "Span",
    "Attribution",
    "Stance",
    "Source",
    "Merge",
    "Quotation",
    "Hedge",
    "Entity",
    "Quantity",
    "Time",
    "Certainty",
    "Summary",
    "Ledger",
    "AnalysisModel",
    "AttributionKind",
    "EntityLabel",
    "Gender",
    "Granularity",
    "Layer",
    "MergeReason",
    "QuoteStatus",
    "SourceKind",
    "StanceLabel",
]

#: How many articles ``analyze_many`` hands to Rust at once: enough to keep
#: every thread busy, few enough that a long input streams.
CHUNK = 64

_analyzers: dict[tuple[str, Optional[str]], _attest.Analyzer] = {}


def _analyzer(model: str, model_dir: Optional[str]) -> _attest.Analyzer:
    """The pipeline of a model, loaded once per process (loading takes a while)."""
    key = (model, None if model_dir is None else str(model_dir))
    if key not in _analyzers:
        _analyzers[key] = _attest.Analyzer(model, key[1])
    return _analyzers[key]


# The views' classes are generated from the document's JSON Schema
# (python/attest/_views.py); what they do beyond holding and reading their
# fields is written here.
def _span_repr(span: Span) -> str:
    return f"Span({span.start}, {span.end}, {span.text!r})"


def _texts(spans: tuple[Span, ...]) -> str:
    return " … ".join(span.text for span in spans)


def _attribution_repr(attribution: Attribution) -> str:
    return (
        f"Attribution(source={_texts(attribution.source)!r}, cue={_texts(attribution.cue)!r}, "
        f"content={_texts(attribution.content)!r}, kind={attribution.kind!r}, "
        f"stance={attribution.stance!r})"
    )


# The generated dataclasses of these two write no repr (`repr=False`): a span
# shows its offsets and text, an attribution the text of its roles.
setattr(Span, "__repr__", _span_repr)
setattr(Attribution, "__repr__", _attribution_repr)


class Document:
    """An analysed article: its text and read-only views of every layer.

    A layer that was not looked for (a stage failed; see ``diagnostics``) is
    None, and one looked for with nothing found is an empty tuple.
    """

    __slots__ = ("_data", "_views")

    def __init__(self, data: Mapping[str, Any]):
        self._data = data
        self._views: dict[str, Any] = {}

    def __repr__(self) -> str:
        count = "?" if self.attributions is None else len(self.attributions)
        return f"<attest.Document id={self.id!r} attributions={count}>"

    def to_dict(self) -> dict[str, Any]:
        """The ``attest.document/1`` object, as ``attest analyze --format json`` writes it."""
        return json.loads(json.dumps(self._data))

    def has(self, layer: Layer) -> bool:
        """Whether ``layer`` (``"attributions"``, ``"entities"``, ...) was looked for."""
        return layer in self._data["layers"]

    @property
    def id(self) -> str:
        return self._data["id"]

    @property
    def text(self) -> str:
        return self._data["text"]

    @property
    def title(self) -> Optional[str]:
        return self._data["title"]

    @property
    def url(self) -> Optional[str]:
        return self._data["url"]

    @property
    def outlet(self) -> Optional[str]:
        return self._data["outlet"]

    @property
    def published(self) -> Optional[str]:
        return self._data["published"]

    @property
    def language(self) -> Optional[str]:
        return self._data["language"]

    @property
    def model(self) -> AnalysisModel:
        return self._data["model"]

    @property
    def diagnostics(self) -> tuple[tuple[str, str], ...]:
        """What a reader or stage noticed without failing: ``(origin, message)`` pairs."""
        return tuple((d["origin"], d["message"]) for d in self._data["diagnostics"])

    def _view(self, layer: str, make: Any) -> Any:
        if layer not in self._views:
            values = self._data.get(layer)
            self._views[layer] = None if values is None else tuple(make(v) for v in values)
        return self._views[layer]

    @property
    def attributions(self) -> Optional[tuple[Attribution, ...]]:
        stances = self._data.get("stances")
        labels = None if stances is None else {s["attribution"]: s["label"] for s in stances}
        return self._view(
            "attributions",
            lambda a: Attribution._of(a, None if labels is None else labels.get(a["index"])),
        )

    @property
    def quotations(self) -> Optional[tuple[Quotation, ...]]:
        """Every quoted passage, with the attribution or source it belongs to, or why none."""
        return self._view("quotations", Quotation._of)

    @property
    def stances(self) -> Optional[tuple[Stance, ...]]:
        return self._view("stances", Stance._of)

    @property
    def sources(self) -> Optional[tuple[Source, ...]]:
        return self._view("sources", Source._of)

    @property
    def hedges(self) -> Optional[tuple[Hedge, ...]]:
        return self._view("hedges", Hedge._of)

    @property
    def entities(self) -> Optional[tuple[Entity, ...]]:
        return self._view("entities", Entity._of)

    @property
    def quantities(self) -> Optional[tuple[Quantity, ...]]:
        return self._view("quantities", Quantity._of)

    @property
    def times(self) -> Optional[tuple[Time, ...]]:
        return self._view("times", Time._of)

    @property
    def summary(self) -> Optional[Summary]:
        """The sourcing summary; None when attributions were not looked for."""
        summary = self._data.get("summary")
        return None if summary is None else Summary._of(summary)


Article = Union[str, Mapping[str, Any]]


def _record(article: Article, number: int) -> tuple[str, str, bool]:
    """A JSON Lines record for ``article``, the place its errors name, and whether it has an id."""
    if isinstance(article, str):
        fields: dict[str, Any] = {"text": article}
    elif isinstance(article, Mapping):
        # Read as the command line reads the same JSON Lines record: fields
        # it does not know are passed over.
        fields = dict(article)
    else:
        raise InputError(
            f"article {number}: expected a str or a dict, not {type(article).__name__}"
        )
    given = "id" in fields
    place = str(fields["id"]) if given else f"article {number}"
    try:
        line = json.dumps(fields, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise InputError(f"{place}: {err}") from None
    return place, line, given


def _documents(outcomes: list[tuple[bool, str]]) -> Iterator[Document]:
    for ok, value in outcomes:
        if not ok:
            raise InputError(value)
        yield Document(json.loads(value))


def analyze(
    text: str,
    *,
    id: Optional[str] = None,
    title: Optional[str] = None,
    url: Optional[str] = None,
    outlet: Optional[str] = None,
    published: Optional[str] = None,
    language: Optional[str] = None,
    model: str = "fast",
    model_dir: Optional[str] = None,
) -> Document:
    """Analyses one article.

    ``published`` is an RFC 3339 instant or a date (``2026-03-04``); relative
    times ("last Tuesday") resolve against it.
    ``model="accurate"`` runs the fine-tuned encoder, read from ``model_dir``,
    else ``$ATTEST_MODEL_DIR``, else the source tree's ``models/encoder``;
    ``ModelError`` says so when it is not there.
    Raises ``InputError`` for an article attest cannot read.
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a str, not {type(text).__name__}")
    given = {
        "id": id if id is not None else "article",
        "text": text,
        "title": title,
        "url": url,
        "outlet": outlet,
        "published": published,
        "language": language,
    }
    article = {k: v for k, v in given.items() if v is not None}
    place, line, _ = _record(article, 1)
    outcomes, _threads = _analyzer(model, model_dir).analyze([(place, line)], 1)
    return next(_documents(outcomes))


class Documents(Iterator[Document]):
    """The documents of ``analyze_many``, in input order.

    ``threads_used`` is the most Rust threads any chunk of articles ran on.
    """

    def __init__(
        self,
        articles: Iterable[Article],
        threads: Optional[int],
        model: str,
        model_dir: Optional[str],
    ):
        self._articles = iter(articles)
        self._threads = threads
        self._analyzer = _analyzer(model, model_dir)
        self._ready: Iterator[Document] = iter(())
        self._count = 0
        self.threads_used = 0

    def __iter__(self) -> "Documents":
        return self

    def __next__(self) -> Document:
        while True:
            for doc in self._ready:
                return doc
            chunk = []
            for article in self._articles:
                self._count += 1
                place, line, _ = _record(article, self._count)
                chunk.append((place, line))
                if len(chunk) == CHUNK:
                    break
            if not chunk:
                raise StopIteration
            outcomes, used = self._analyzer.analyze(chunk, self._threads)
            self.threads_used = max(self.threads_used, used)
            self._ready = _documents(outcomes)


def analyze_many(
    articles: Iterable[Article],
    *,
    threads: Optional[int] = None,
    model: str = "fast",
    model_dir: Optional[str] = None,
) -> Documents:
    """Analyses many articles on Rust threads, yielding Documents in input order.

    Each article is a text or a dict with the fields of the command line's
    JSON Lines input (``id``, ``text``, ``title``, ``url``, ``outlet``,
    ``published``, ``language``).
    ``threads`` defaults to every core; the GIL is released while Rust works.
    An article that cannot be read raises ``InputError`` when its turn comes.
    """
    return Documents(articles, threads, model, model_dir)


def _frame(rows_json: str) -> Any:
    """Rows as a pandas DataFrame when pandas is installed, else a list of dicts."""
    rows = json.loads(rows_json)
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


class Ledger:
    """A ledger, as ``attest ingest`` writes it and the query commands read it:
    a SQLite file path, or a ``postgres://`` URL for a PostgreSQL ledger.

    Queries return a ``pandas.DataFrame`` when pandas is installed and a list
    of dicts otherwise, with the rows and columns of the command line's
    ``--format json``.
    """

    def __init__(self, path: Any):
        self._native = _attest.Ledger(str(path))
        #: Why each article of the last ``ingest`` that failed did.
        self.failures: list[str] = []

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Writes everything into the file and closes it."""
        self._native.close()

    def ingest(
        self,
        articles: Iterable[Article],
        *,
        update: bool = False,
        model: str = "fast",
        model_dir: Optional[str] = None,
    ) -> dict[str, int]:
        """Analyses and stores articles, as ``attest ingest`` does.

        An article with an ``id`` is stored under it, one without under its
        content; one already stored is skipped, or replaced with ``update=True``.
        Returns the counts of ``added``, ``replaced``, ``skipped`` and ``failed``;
        a failed article raises nothing, and ``failures`` lists why.
        """
        analyzer = _analyzer(model, model_dir)
        counts = {"added": 0, "replaced": 0, "skipped": 0, "failed": 0}
        self.failures = []
        chunk: list[tuple[str, str, bool]] = []
        number = 0

        def flush() -> None:
            for ok, value in self._native.ingest(analyzer, chunk, update):
                if ok:
                    counts[value] += 1
                else:
                    counts["failed"] += 1
                    self.failures.append(value)
            chunk.clear()

        for article in articles:
            number += 1
            chunk.append(_record(article, number))
            if len(chunk) == CHUNK:
                flush()
        if chunk:
            flush()
        return counts

    def sources(
        self,
        *,
        limit: int = 20,
        offset: int = 0,
        kind: Optional[SourceKind] = None,
        name: Optional[str] = None,
        outlet: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
    ) -> Any:
        """The most-quoted sources, as ``attest sources``; ``name`` keeps those
        whose name holds these words."""
        return _frame(self._native.sources(limit, offset, outlet, since, until, kind, name))

    def said(
        self,
        name: str,
        *,
        limit: int = 200,
        outlet: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
    ) -> Any:
        """What the source called ``name`` said, oldest first, as ``attest said``."""
        return _frame(self._native.said(name, limit, outlet, since, until))

    def search(
        self,
        query: str,
        *,
        limit: int = 20,
        fts: bool = False,
        outlet: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
    ) -> Any:
        """Full-text search over what was said, best first, as ``attest search``."""
        return _frame(self._native.search(query, limit, fts, outlet, since, until))

    def stats(
        self,
        by: str = "outlet",
        *,
        outlet: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
    ) -> Any:
        """Sourcing statistics by ``"outlet"``, ``"month"`` or ``"all"``, as ``attest stats``."""
        return _frame(self._native.stats(by, outlet, since, until))
