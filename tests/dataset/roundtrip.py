"""The Parquet dataset read back with pyarrow and compared with the ledger.

Generates a corpus, stores it with `attest ingest`, writes it with `attest
export dataset` and with `attest analyze --format parquet`, and reads each
table of both as a Hive-partitioned pyarrow dataset: every row of the ledger
(read with Python's sqlite3, not through attest; claims and statements as
`attest export claims|statements` gives them, since their export leaves out
what grouping compares) must be there with the same values, ids included, each
in the month of its article.

    python tests/dataset/roundtrip.py --attest target/release/attest \
        --gencorpus target/release/attest-gencorpus [--articles 300]

Exit status 0 when the dataset round-trips, 1 when it does not.
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

import pyarrow.dataset as ds

# The tables of a dataset and how each one's rows are ordered in the ledger.
TABLES = {
    "articles": "a.id",
    "article_stances": "r.article, r.stance",
    "sources": "r.id",
    "appearances": "r.id",
    "attributions": "r.id",
    "quotes": "r.id",
    "hedges": "r.id",
    "entities": "r.id",
    "quantities": "r.id",
    "times": "r.id",
    "claims": "r.id",
    "statements": "r.id",
}

# The tables whose rows belong to no one article: one file, no month.
UNPARTITIONED = ("sources", "claims")


def exported_rows(attest, ledger, db, table):
    """The columns and rows of `attest export TABLE`, for the tables whose
    export is not the table's own columns (claims and statements keep what
    grouping compares out of it), with each row's month from the ledger."""
    out = subprocess.run(
        [attest, "export", table, "--format", "jsonl", "--out", "-", "--db", ledger], stdout=subprocess.PIPE, check=True
    ).stdout.decode("utf-8")
    rows = [json.loads(line) for line in out.splitlines()]
    months = dict(db.execute("SELECT id, substr(published_date, 1, 7) FROM articles"))
    columns = list(rows[0]) if rows else []
    month = (lambda row: None) if table in UNPARTITIONED else (lambda row: months[row["article"]])
    return columns, [(tuple(row.values()), month(row)) for row in rows]


def ledger_rows(db, table):
    """The ledger's columns and rows of a table, with each row's month."""
    if table == "articles":
        sql = (
            "SELECT a.*, t.text, substr(a.published_date, 1, 7) FROM articles a "
            "JOIN article_texts t ON t.article = a.id ORDER BY a.id"
        )
    elif table == "sources":
        sql = "SELECT r.*, NULL FROM sources r ORDER BY r.id"
    else:
        sql = (
            f"SELECT r.*, substr(m.published_date, 1, 7) FROM {table} r "
            f"JOIN articles m ON m.id = r.article ORDER BY {TABLES[table]}"
        )
    cursor = db.execute(sql)
    columns = [d[0] for d in cursor.description][:-1]
    return columns, [(row[:-1], row[-1]) for row in cursor]


def dataset_rows(root, table, columns):
    """The rows of a table of the dataset in `root`, ordered as the ledger's."""
    path = os.path.join(root, table)
    partitioned = table not in UNPARTITIONED
    data = ds.dataset(path, format="parquet", partitioning="hive" if partitioned else None)
    found = data.to_table()
    names = [n for n in found.column_names if n != "month"]
    if names != columns:
        raise AssertionError(f"{table}: columns {names}, the ledger has {columns}")
    values = [found.column(name).to_pylist() for name in columns]
    months = found.column("month").to_pylist() if partitioned else [None] * found.num_rows
    rows = [(tuple(v[i] for v in values), months[i]) for i in range(found.num_rows)]
    if table == "article_stances":
        rows.sort(key=lambda r: (r[0][0], r[0][1]))
    else:
        rows.sort(key=lambda r: r[0][0])
    return rows


def compare(root, db, label, exported):
    failures = []
    for table in TABLES:
        columns, expected = exported[table] if table in exported else ledger_rows(db, table)
        found = dataset_rows(root, table, columns)
        if len(found) != len(expected):
            failures.append(f"{label} {table}: {len(found)} rows, the ledger has {len(expected)}")
            continue
        for (row, month), (want, want_month) in zip(found, expected):
            if row != want:
                failures.append(f"{label} {table}: row {row[:3]}… differs from the ledger's {want[:3]}…")
                break
            if month != want_month:
                failures.append(f"{label} {table}: row {row[:2]} in month {month}, its article's is {want_month}")
                break
        print(f"{label} {table}: {len(found)} rows agree with the ledger")
    return failures


def write_corpus(work, gencorpus, articles):
    """`articles` generated articles and one without a date, whose rows go to
    Hive's null partition; returns the corpus's path."""
    corpus = os.path.join(work, "corpus.jsonl")
    with open(corpus, "wb") as out:
        subprocess.run([gencorpus, str(articles), "23"], stdout=out, check=True)
    undated = {
        "id": "undated",
        "text": "The board will vote in the spring, its treasurer, Ola Brandt, said. "
        "\"Nothing is settled,\" she added.",
    }
    with open(corpus, "a", encoding="utf-8") as out:
        out.write(json.dumps(undated) + "\n")
    return corpus


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attest", required=True, type=os.path.abspath)
    parser.add_argument("--gencorpus", required=True)
    parser.add_argument("--articles", type=int, default=300)
    return parser.parse_args()


def main():
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="attest-dataset-") as work:
        corpus = write_corpus(work, args.gencorpus, args.articles)
        ledger = os.path.join(work, "ledger.db")
        exported = os.path.join(work, "exported")
        analysed = os.path.join(work, "analysed")
        subprocess.run([args.attest, "ingest", corpus, "--db", ledger], check=True)
        subprocess.run([args.attest, "export", "dataset", "--out", exported, "--db", ledger], check=True)
        subprocess.run([args.attest, "analyze", "--format", "parquet", "--out", analysed, corpus], check=True)

        db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
        articles = db.execute("SELECT count(*) FROM articles").fetchone()[0]
        if articles != args.articles + 1:
            print(f"the ledger holds {articles} articles, not {args.articles + 1}")
            return 1
        by_export = {table: exported_rows(args.attest, ledger, db, table) for table in ("claims", "statements")}
        if not by_export["claims"][1]:
            print("the ledger holds no claims: the generated corpus should make some")
            return 1
        failures = compare(exported, db, "export dataset", by_export) + compare(
            analysed, db, "analyze --format parquet", by_export
        )
        db.close()

    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
