"""The worked example runs end to end, as a notebook would run it."""

import subprocess
import sys

import pytest

from conftest import ARTICLES, REPO

EXAMPLE = REPO / "examples" / "python" / "who_gets_quoted.py"


def test_who_gets_quoted_makes_the_table_and_the_chart(tmp_path):
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    corpus = tmp_path / "corpus"
    for article in ARTICLES:
        folder = corpus / article["outlet"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{article['id']}.txt").write_text(article["text"], encoding="utf-8")
    chart, table = tmp_path / "chart.png", tmp_path / "table.csv"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(corpus), "--chart", str(chart), "--csv", str(table)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "The Gazette" in done.stdout and "The Herald" in done.stdout
    assert "Dana Whitfield (2)" in done.stdout
    assert chart.read_bytes().startswith(b"\x89PNG")
    lines = table.read_text().splitlines()
    assert lines[0] == "outlet,articles,attributions,anonymous_share,direct_quote_share,most_quoted"
    assert len(lines) == 3
