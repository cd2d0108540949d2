#!/usr/bin/env python3
"""collect.py LABELDIR OUTDIR: gathers the finished batches' tables into the repository's
standoff tables OUTDIR/{dev,train}.{sources,hedges}.tsv (no text), and writes the blind
agreement of the articles labelled twice to OUTDIR/agreement.tsv.

A batch's article counts when fill.py has written both its tables and they check.
An article labelled twice keeps its primary batch's labels (doubles.tsv: split, name,
primary batch, second batch)."""
import csv, os, re, sys, subprocess
from collections import defaultdict
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ann import parse, ann_path, ROOT, CHECK

lab, out = sys.argv[1], sys.argv[2]
SRC_COLS = ["attribution_id", "stance", "source_type", "canonical_source", "direct_quote"]
HED_COLS = ["hedge_id", "cue_start", "cue_end", "scope_start", "scope_end", "annotated_as", "inside_content_of"]

def read_tsv(p):
    with open(p, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))

second = {}
for line in open(os.path.join(lab, "doubles.tsv")):
    sp, name, prim, dst = line.split()
    second[(dst, name)] = prim

labels = defaultdict(dict)   # split -> name -> (sources rows, hedges rows)
seconds = {}                 # name -> (sources, hedges) of the blind second labelling
for batch in sorted(os.listdir(lab)):
    d = os.path.join(lab, batch)
    if not os.path.isfile(os.path.join(d, "articles.txt")):
        continue
    for line in open(os.path.join(d, "articles.txt")):
        sp, name = line.split()
        s, h = os.path.join(d, name + ".tsv"), os.path.join(d, name + ".hedges.tsv")
        if not (os.path.exists(s) and os.path.exists(h)):
            continue
        if subprocess.run(["python3", CHECK, s], capture_output=True).returncode:
            print("skipped, does not check:", batch, name, file=sys.stderr); continue
        # Trigger-only events (no cue, no content) repeat a complete one; the
        # corpus reader leaves them out, and so do the tables.
        complete = {e["id"] for e in parse(ann_path(sp, name)) if e["cue"] or e["content"]}
        rows = ([r for r in read_tsv(s) if r["attribution_id"] in complete], read_tsv(h))
        if (batch, name) in second:
            seconds[name] = rows
        else:
            labels[sp][name] = rows

# A split is labelled in name order: keep the run of finished articles from the
# first one, so that the tables never hold a gap a later batch would fill.
for sp in ("dev", "train"):
    names = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, sp, "text")))
    run = []
    for name in names:
        if name not in labels[sp]:
            break
        run.append(name)
    labels[sp] = {n: labels[sp][n] for n in run}

os.makedirs(out, exist_ok=True)
enum = lambda x: int(re.sub(r"\D", "", x) or 0)
for sp in ("dev", "train"):
    with open(os.path.join(out, sp + ".sources.tsv"), "w", encoding="utf-8") as f:
        f.write("\t".join(["article"] + SRC_COLS) + "\n")
        for name in sorted(labels[sp]):
            for r in sorted(labels[sp][name][0], key=lambda r: enum(r["attribution_id"])):
                f.write("\t".join([name] + [r[c] for c in SRC_COLS]) + "\n")
    with open(os.path.join(out, sp + ".hedges.tsv"), "w", encoding="utf-8") as f:
        f.write("\t".join(["article"] + HED_COLS) + "\n")
        for name in sorted(labels[sp]):
            for r in sorted(labels[sp][name][1], key=lambda r: (int(r["cue_start"]), int(r["cue_end"]))):
                f.write("\t".join([name] + [r[c] for c in HED_COLS]) + "\n")
    print(sp, len(labels[sp]), "articles", sum(len(v[0]) for v in labels[sp].values()), "attributions",
          sum(len(v[1]) for v in labels[sp].values()), "hedges")

def norm(s):
    return re.sub(r"\s+", " ", s.strip().lower())

agree = defaultdict(lambda: [0, 0])
hed = [0, 0, 0]  # matched, first only, second only
arts = 0
for name, (s2, h2) in sorted(seconds.items()):
    first = labels["dev"].get(name) or labels["train"].get(name)
    if not first:
        continue
    arts += 1
    s1, h1 = first
    b = {r["attribution_id"]: r for r in s2}
    # Canonical sources agree when the two labellings credit the same
    # attributions to one party: the second's names are mapped one to one onto
    # the first's, greedily by shared attributions, as attest is scored.
    shared = defaultdict(int)
    for r in s1:
        o = b.get(r["attribution_id"])
        if o and r["canonical_source"] != "-" and o["canonical_source"] != "-":
            shared[(o["canonical_source"], r["canonical_source"])] += 1
    mapping, taken = {}, set()
    for (o, f), _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0])):
        if o not in mapping and f not in taken:
            mapping[o] = f; taken.add(f)
    for r in s1:
        o = b.get(r["attribution_id"])
        if not o: continue
        for c in ("stance", "source_type", "direct_quote"):
            agree[c][0] += norm(r[c]) == norm(o[c]); agree[c][1] += 1
        same = (r["canonical_source"] == o["canonical_source"] == "-") or mapping.get(o["canonical_source"]) == r["canonical_source"]
        agree["canonical_source"][0] += same; agree["canonical_source"][1] += 1
        agree["canonical_name"][0] += norm(r["canonical_source"]) == norm(o["canonical_source"]); agree["canonical_name"][1] += 1
    used = set()
    for r in h1:
        a0, a1 = int(r["cue_start"]), int(r["cue_end"])
        hit = next((i for i, o in enumerate(h2) if i not in used and int(o["cue_start"]) < a1 and a0 < int(o["cue_end"])), None)
        if hit is None: hed[1] += 1
        else: used.add(hit); hed[0] += 1
    hed[2] += len(h2) - len(used)
with open(os.path.join(out, "agreement.tsv"), "w") as f:
    f.write("column\tagreeing\tcompared\tagreement\n")
    for c in ("source_type", "canonical_source", "canonical_name", "stance", "direct_quote"):
        a, n = agree[c]
        f.write("%s\t%d\t%d\t%.3f\n" % (c, a, n, a / n if n else 0))
    m, x, y = hed
    f1 = 2 * m / (2 * m + x + y) if m + x + y else 0
    f.write("hedge_cue_overlap_f1\t%d\t%d\t%.3f\n" % (m, m + x + y, f1))
print("agreement over", arts, "articles labelled twice:")
print(open(os.path.join(out, "agreement.tsv")).read())
