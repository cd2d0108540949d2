"""attest.Ledger: ingest, and queries that answer as the command line does."""

import json

import pytest

import attest
from conftest import ARTICLES, run_cli


@pytest.fixture()
def ledger_path(tmp_path):
    path = tmp_path / "news.db"
    with attest.Ledger(path) as ledger:
        counts = ledger.ingest(ARTICLES)
        assert counts == {"added": 3, "replaced": 0, "skipped": 0, "failed": 0}
        assert ledger.ingest(ARTICLES[:1])["skipped"] == 1
        assert ledger.ingest(ARTICLES[:1], update=True)["replaced"] == 1
    return path


def records(result):
    """Rows as dicts, whether pandas gave a DataFrame or not."""
    if isinstance(result, list):
        return result
    return json.loads(result.to_json(orient="records", force_ascii=False))


def cli_rows(attest_bin, *args):
    return json.loads(run_cli(attest_bin, *args, "--format", "json"))


def test_queries_answer_as_the_command_line(attest_bin, ledger_path):
    db = ["--db", str(ledger_path)]
    with attest.Ledger(ledger_path) as ledger:
        assert records(ledger.sources()) == cli_rows(attest_bin, "sources", *db)
        named = records(ledger.sources(name="WHITFIELD", offset=0, limit=5))
        assert named == cli_rows(attest_bin, "sources", "--name", "whitfield", "--limit", "5", *db)
        assert named and all("Whitfield" in s["name"] for s in named)
        later = records(ledger.sources(offset=1))
        assert later == cli_rows(attest_bin, "sources", "--offset", "1", *db)
        assert later[0] == records(ledger.sources())[1]
        assert records(ledger.said("Dana Whitfield")) == cli_rows(attest_bin, "said", "Dana Whitfield", *db)
        assert records(ledger.search("bridge")) == cli_rows(attest_bin, "search", "bridge", *db)
        assert records(ledger.stats(by="outlet")) == cli_rows(attest_bin, "stats", "--by", "outlet", *db)
        assert records(ledger.stats(by="month")) == cli_rows(attest_bin, "stats", "--by", "month", *db)
        said = records(ledger.said("Dana Whitfield"))
        assert len(said) == 2
        assert len(records(ledger.stats(by="outlet"))) == 2


def test_queries_give_a_data_frame_with_pandas(ledger_path):
    pandas = pytest.importorskip("pandas")
    with attest.Ledger(ledger_path) as ledger:
        assert isinstance(ledger.sources(), pandas.DataFrame)


def test_ledger_errors_are_exceptions(tmp_path):
    not_a_ledger = tmp_path / "notes.db"
    not_a_ledger.write_text("these are my notes, not a database\n" * 10)
    with pytest.raises(attest.LedgerError, match="notes.db"):
        attest.Ledger(not_a_ledger)
    assert not_a_ledger.read_text().startswith("these are my notes")
    # A URL is a PostgreSQL ledger, not a file of that name: here no server
    # listens on port 1, and the error says so.
    with pytest.raises(attest.LedgerError, match="127.0.0.1"):
        attest.Ledger("postgresql://nobody@127.0.0.1:1/news")
    with attest.Ledger(tmp_path / "ok.db") as ledger:
        with pytest.raises(attest.InputError, match="by must be"):
            ledger.stats(by="weekday")
        with pytest.raises(attest.InputError, match="YYYY-MM-DD"):
            ledger.sources(since="last week")
        with pytest.raises(attest.InputError, match="kind must be"):
            ledger.sources(kind="robot")
    ledger = attest.Ledger(tmp_path / "ok.db")
    ledger.close()
    with pytest.raises(attest.LedgerError, match="closed"):
        ledger.sources()


def test_ingest_reports_articles_that_fail(tmp_path):
    with attest.Ledger(tmp_path / "n.db") as ledger:
        counts = ledger.ingest([{"id": "x", "title": "no text"}, "The mayor said it rained."])
        assert counts["failed"] == 1 and counts["added"] == 1
        assert "x" in ledger.failures[0]
