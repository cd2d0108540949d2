"""The generated views against the document's JSON Schema: label types, nullable fields, reading."""

import dataclasses
import json
import typing

import attest
from conftest import REPO

SCHEMA = json.loads((REPO / "docs" / "attest.document.schema.json").read_text(encoding="utf-8"))
DEFS = SCHEMA["$defs"]


def enum_values(name):
    return tuple(value["const"] for value in DEFS[name]["oneOf"])


def test_every_label_type_lists_exactly_the_schemas_values():
    enums = [name for name, definition in DEFS.items() if "oneOf" in definition]
    assert "StanceLabel" in enums and "SourceKind" in enums
    for name in enums:
        alias = getattr(attest._views, name)
        assert typing.get_args(alias) == enum_values(name), name
    assert typing.get_args(attest.Layer) == tuple(SCHEMA["properties"]["layers"]["items"]["enum"])


def test_label_fields_are_typed_by_their_enum_and_nullable_fields_are_optional():
    hints = typing.get_type_hints(attest.Attribution)
    assert hints["kind"] == attest.AttributionKind
    assert hints["stance"] == typing.Optional[attest.StanceLabel]
    assert typing.get_type_hints(attest.Source)["gender"] == typing.Optional[attest.Gender]
    assert typing.get_type_hints(attest.Time)["granularity"] == typing.Optional[attest.Granularity]
    summary = typing.get_type_hints(attest.Summary)
    assert summary["stances"] == typing.Mapping[attest.StanceLabel, int]
    assert summary["certainty"] == typing.Optional[attest.Certainty]


def test_views_hold_the_schemas_fields():
    record_of = {"Entity": attest.Entity, "Quotation": attest.Quotation, "Hedge": attest.Hedge,
                 "Quantity": attest.Quantity, "Time": attest.Time, "Stance": attest.Stance}
    for name, record in record_of.items():
        fields = [field.name for field in dataclasses.fields(record)]
        assert fields == DEFS[name]["required"], name


def test_a_view_reads_what_a_later_schema_adds_as_nothing():
    span = {"byte_start": 0, "byte_end": 4, "cp_start": 0, "cp_end": 4, "text": "Acme", "new": 1}
    entity = attest.Entity._of({"span": span, "label": "organization", "cluster": 0, "new": []})
    assert (entity.text, entity.label, entity.span) == ("Acme", "organization", attest.Span(0, 4, 0, 4, "Acme"))
    assert repr(entity.span) == "Span(0, 4, 'Acme')"
