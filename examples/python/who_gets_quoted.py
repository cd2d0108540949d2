"""Who gets quoted? A per-outlet table of anonymous-source share and the most-quoted people.

Usage: python who_gets_quoted.py FOLDER [--chart chart.png] [--csv table.csv]

FOLDER holds articles as .txt files, one article each, in a folder per outlet
(FOLDER/The Gazette/bridge.txt), and/or .jsonl files of records with an
``outlet`` field, as ``attest analyze`` reads them.
Needs pandas; the chart needs matplotlib.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys

import pandas

import attest


def read_folder(root: pathlib.Path):
    """Every article under root, in sorted order, as a dict attest.analyze_many takes."""
    for path in sorted(root.rglob("*")):
        if path.suffix == ".txt":
            outlet = path.parent.name if path.parent != root else "(no outlet)"
            yield {"id": str(path.relative_to(root)), "outlet": outlet, "text": path.read_text(encoding="utf-8")}
        elif path.suffix == ".jsonl":
            with path.open(encoding="utf-8") as lines:
                for number, line in enumerate(lines, 1):
                    if line.strip():
                        record = json.loads(line)
                        record.setdefault("id", f"{path.relative_to(root)}:{number}")
                        yield record


def per_outlet(docs) -> pandas.DataFrame:
    """One row per outlet: articles, attributions, anonymous and direct-quote shares, top people."""
    rows: dict[str, dict] = {}
    people: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for doc in docs:
        outlet = doc.outlet or "(no outlet)"
        row = rows.setdefault(outlet, {"articles": 0, "attributions": 0, "unnamed": 0, "direct": 0})
        summary = doc.summary
        row["articles"] += 1
        row["attributions"] += summary.attributions
        row["unnamed"] += summary.attributions_by_source_kind["unnamed"]
        row["direct"] += summary.direct_quotes
        for source in doc.sources:
            if source.kind == "person":
                people[outlet][source.name] += len(source.attributions)
    table = pandas.DataFrame.from_dict(rows, orient="index").sort_index()
    table.index.name = "outlet"
    quoted = table["attributions"].where(table["attributions"] > 0)
    table["anonymous_share"] = (table["unnamed"] / quoted).fillna(0).round(3)
    table["direct_quote_share"] = (table["direct"] / quoted).fillna(0).round(3)
    table["most_quoted"] = [
        ", ".join(f"{name} ({n})" for name, n in sorted(people[o].items(), key=lambda p: (-p[1], p[0]))[:3])
        for o in table.index
    ]
    return table.drop(columns=["unnamed", "direct"])


def chart(table: pandas.DataFrame, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    axes = table["anonymous_share"].plot.barh(figsize=(7, 0.5 * len(table) + 1.5), color="#8a3b12")
    axes.set_xlabel("share of attributions to unnamed sources")
    axes.set_xlim(0, 1)
    axes.set_title("Anonymous sourcing by outlet")
    plt.tight_layout()
    plt.savefig(path, dpi=120)
    plt.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--chart", type=pathlib.Path, help="write a bar chart (PNG) here")
    parser.add_argument("--csv", type=pathlib.Path, help="write the table as CSV here")
    args = parser.parse_args()
    docs = attest.analyze_many(read_folder(args.folder))
    table = per_outlet(docs)
    pandas.set_option("display.width", 200)
    print(table.to_string())
    if args.csv:
        table.to_csv(args.csv)
    if args.chart:
        chart(table, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
