"""analyze and analyze_many: offsets, order, threads, errors, and the command line's JSON."""

import json
import subprocess
import sys

import pytest

import attest
from conftest import ARTICLES, run_cli

# Emoji outside the BMP, a ZWJ family, combining accents and curly quotes, so that
# code points, UTF-16 units and bytes all differ.
TRICKY = (
    "Ünal said the cafe\u0301 🍕 was “fine, really 👩\u200d👩\u200d👧,” on Tuesday. "
    "“We will reopen in 3 weeks,” said Zoë Ngata\u0308, the owner. "
    "The ministry reportedly fined the café €4,000."
)


def all_spans(value):
    if isinstance(value, dict):
        if "cp_start" in value:
            yield value
        for item in value.values():
            yield from all_spans(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_spans(item)


def test_the_readme_line_prints_the_attribution():
    code = "import attest; print(attest.analyze('The mayor said the bridge was safe.').attributions)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "source='The mayor'" in out
    assert "cue='said'" in out
    assert "content='the bridge was safe'" in out


def test_every_span_slices_the_python_string_and_the_bytes():
    doc = attest.analyze(TRICKY, published="2026-03-04")
    data = doc.to_dict()
    spans = list(all_spans(data))
    assert len(spans) > 5
    raw = doc.text.encode("utf-8")
    for span in spans:
        assert doc.text[span["cp_start"] : span["cp_end"]] == span["text"]
        assert raw[span["byte_start"] : span["byte_end"]].decode("utf-8") == span["text"]
    views = [s for a in doc.attributions for s in (*a.source, *a.cue, *a.content)]
    views += [e.span for e in doc.entities] + [q.span for q in doc.quantities] + [t.span for t in doc.times]
    views += [h.cue for h in doc.hedges] + [m for s in doc.sources for m in s.mentions]
    assert len(views) > 5
    for span in views:
        assert doc.text[span.start : span.end] == span.text
        assert raw[span.byte_start : span.byte_end].decode("utf-8") == span.text
    assert any(span.byte_start != span.start for span in views), "the text must make the units differ"


def test_views_carry_what_the_pipeline_found():
    doc = attest.analyze(ARTICLES[0]["text"], outlet="The Gazette")
    assert doc.outlet == "The Gazette"
    assert doc.model == "fast"
    first = doc.attributions[0]
    assert [s.text for s in first.source] == ["The mayor"]
    assert first.stance == "asserts"
    assert 0 <= first.confidence <= 1
    for quotation in doc.quotations:
        assert doc.text[quotation.span.start : quotation.span.end] == quotation.text
    attributed = [q for q in doc.quotations if q.status == "attributed"]
    assert attributed, "a quotation is someone's words"
    assert all(doc.attributions[q.attribution].kind in ("direct", "mixed") for q in attributed)
    assert doc.summary.quotations["attributed"] == len(attributed)
    assert {s.kind for s in doc.sources} >= {"person", "unnamed"}
    assert doc.summary.attributions == len(doc.attributions)
    hedged = [a for a in doc.attributions if a.hedged_by_writer]
    assert doc.summary.certainty.hedged_attributions == len(hedged)
    certainty = doc.summary.certainty
    assert 0 <= certainty.hedged_sentences <= certainty.writers_voice_sentences
    # Every sentence of that article is attributed; a plain statement of fact is
    # the writer's own, and unhedged.
    plain = attest.analyze("The bridge reopened on Monday.").summary.certainty
    assert (plain.writers_voice_sentences, plain.hedged_sentences) == (1, 0)
    assert any(q.unit == "USD" for q in doc.quantities)


def test_to_dict_is_the_command_lines_json(attest_bin, articles_jsonl):
    lines = run_cli(attest_bin, "analyze", "--format", "jsonl", str(articles_jsonl)).splitlines()
    expected = [json.loads(line) for line in lines]
    got = [doc.to_dict() for doc in attest.analyze_many(ARTICLES)]
    assert got == expected
    assert expected[0]["schema"] == attest.SCHEMA


def test_analyze_many_keeps_order_and_uses_threads():
    texts = [f"Reporter {i} said the count was {i}. " + ARTICLES[i % 3]["text"] for i in range(256)]
    docs = attest.analyze_many(({"id": f"a-{i}", "text": t} for i, t in enumerate(texts)), threads=2)
    got = list(docs)
    assert [d.id for d in got] == [f"a-{i}" for i in range(256)]
    assert [d.text for d in got] == texts
    assert docs.threads_used == 2


def test_analyze_many_takes_plain_texts():
    docs = list(attest.analyze_many(["Officials said it was late.", "Nothing here."]))
    assert [d.text for d in docs] == ["Officials said it was late.", "Nothing here."]


def test_bad_input_raises_input_error():
    with pytest.raises(attest.InputError, match="text"):
        attest.analyze(42)
    with pytest.raises(attest.InputError, match="article 2"):
        list(attest.analyze_many(["Fine.", {"title": "no text"}]))
    with pytest.raises(attest.InputError, match="limit"):
        attest.analyze("x" * (11 * 1024 * 1024))
    with pytest.raises(attest.InputError, match="fast"):
        attest.analyze("Fine.", model="huge")
    with pytest.raises(attest.InputError, match="threads"):
        list(attest.analyze_many(["Fine."], threads=0))
    with pytest.raises(attest.InputError):
        attest.analyze_many([3.5]).__next__()


def test_accurate_mode_without_its_model_raises_model_error(tmp_path):
    with pytest.raises(attest.ModelError, match="model_dir"):
        attest.analyze("The mayor said it.", model="accurate", model_dir=str(tmp_path / "nothing"))
    assert issubclass(attest.ModelError, attest.AttestError)
