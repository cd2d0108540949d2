"""The ledger's rule for grouping statements into claims, restated for the
Spark job (attest_spark.py): the pair check (attest_claims' `Fingerprint::
same_claim`), the choice among candidates (`best_match`) and the sequential
assignment the ledger makes as it stores each statement in turn
(crates/ledger/src/claims.rs). Features are never computed here: stems,
figures, names and band keys come from `attest statements`.

crates/claims/tests/data/rule-cases.json holds cases that the Rust tests and
`check_cases` below both decide, so that the two statements of the rule
cannot drift; the Spark test runs `check_cases` first.
"""

import json

# attest_claims::fingerprint's thresholds and attest_claims::index's bounds.
CONTAINMENT_WITH_FIGURES = 0.3
CONTAINMENT_WITHOUT_FIGURES = 0.6
LEAST_SHARED_STEMS = 3
EXEMPLARS = 8
PER_BAND_KEY = 8
MOST_CANDIDATES = 16


class Print:
    """A statement's fingerprint, as sets for the comparisons."""

    __slots__ = ("stems", "figures", "names", "years")

    def __init__(self, stems, figures, names, years):
        self.stems = frozenset(stems)
        self.figures = frozenset(figures)
        self.names = frozenset(names)
        self.years = frozenset(years)

    @staticmethod
    def of(record):
        return Print(record["stems"], record["figures"], record["names"], record["years"])


def conflict(a, b):
    """Each of two sets of figures holds one the other lacks."""
    return bool(a) and bool(b) and bool(a - b) and bool(b - a)


def apart(a, b):
    """Two sets of name words with none in common."""
    return bool(a) and bool(b) and a.isdisjoint(b)


def containment(a, b):
    return len(a.stems & b.stems) / max(min(len(a.stems), len(b.stems)), 1)


def same_claim(a, b):
    if bool(a.figures) != bool(b.figures) or apart(a.names, b.names) or conflict(a.figures, b.figures):
        return False
    least = CONTAINMENT_WITH_FIGURES if a.figures else CONTAINMENT_WITHOUT_FIGURES
    return len(a.stems & b.stems) >= LEAST_SHARED_STEMS and containment(a, b) >= least


def apart_from(print_, traits):
    names, years = traits
    return apart(print_.names, names) or conflict(print_.years, years)


def best_match(print_, candidates, traits_of):
    """The claim of the most alike candidate that carries the same claim and
    whose claim's names and years do not keep it apart; ties go to the lowest
    claim. `candidates` are (claim, Print) pairs."""
    best = None
    for claim, candidate in candidates:
        traits = traits_of(claim)
        if (traits is not None and apart_from(print_, traits)) or not same_claim(print_, candidate):
            continue
        alike = containment(print_, candidate)
        if best is None or alike > best[0] or (alike == best[0] and claim < best[1]):
            best = (alike, claim)
    return None if best is None else best[1]


def assign(statements):
    """The ledger's assignment over statements in the order it stores them:
    each `(key, print, may_start, candidates)`, where `candidates` are the
    keys of earlier statements its band keys find (each key cut to the
    PER_BAND_KEY latest exemplars stored before it), at most MOST_CANDIDATES:
    those found under the most keys, the latest first among equals. A claim is named by its first statement's key,
    so that the lowest claim is the oldest, as the ledger's ids are. Yields
    `(key, claim, exemplar)` for each statement stored; a statement that
    carries no claim and may not start one is not stored."""
    claim_of, print_of, exemplar_of = {}, {}, {}
    count, traits = {}, {}
    for key, print_, may_start, candidates in statements:
        options = [
            (claim_of[c], print_of[c]) for c in candidates if c in claim_of and exemplar_of[c]
        ]
        claim = best_match(print_, options, traits.get)
        if claim is None:
            if not may_start:
                continue
            claim = key
            count[claim] = 0
            traits[claim] = (frozenset(), frozenset())
        exemplar = count[claim] < EXEMPLARS
        if exemplar:
            names, years = traits[claim]
            traits[claim] = (names | print_.names, years | print_.years)
        count[claim] += 1
        claim_of[key], print_of[key], exemplar_of[key] = claim, print_, exemplar
        yield key, claim, exemplar


def check_cases(path):
    """Decides the shared cases; returns the failures, as text."""
    with open(path, encoding="utf-8") as file:
        cases = json.load(file)
    failures = []
    for name, value in cases["bounds"].items():
        if globals()[name] != value:
            failures.append(f"bounds: {name} is {globals()[name]}, not {value}")
    for case in cases["same_claim"]:
        a, b = Print.of(case["a"]), Print.of(case["b"])
        if same_claim(a, b) != case["same"] or same_claim(b, a) != case["same"]:
            failures.append(f"same_claim: {case['why']}")
        if containment(a, b) != case["containment"]:
            failures.append(f"containment: {case['why']}")
    for case in cases["best_match"]:
        traits = {
            int(claim): (frozenset(held["names"]), frozenset(held["years"]))
            for claim, held in case["traits"].items()
        }
        candidates = [(claim, Print.of(print_)) for claim, print_ in case["candidates"]]
        if best_match(Print.of(case["statement"]), candidates, traits.get) != case["claim"]:
            failures.append(f"best_match: {case['why']}")
    return failures
