#!/usr/bin/env python3
"""fill.py BATCHDIR: turns each article's NAME.labels and NAME.hedges.spec into the
guideline's tables NAME.tsv and NAME.hedges.tsv, and reports every problem."""
import sys, os, re, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ann import *

TYPES = {"person": "named person", "named person": "named person",
         "org": "named organization", "named organization": "named organization",
         "unnamed": "unnamed-or-anonymous", "unnamed-or-anonymous": "unnamed-or-anonymous",
         "doc": "document-or-media", "document-or-media": "document-or-media",
         "none": "none (implicit)", "none (implicit)": "none (implicit)"}
STANCES = {"asserts", "confirms", "denies", "declines", "claims", "reports", "believes", "intends"}
HEAD = "attribution_id\tspec_id\tstance\tsource_type\tsource_text\tcanonical_source\tdirect_quote\tcue_text\tcontent_text\tnote"
HHEAD = "hedge_id\tcue_start\tcue_end\tcue_text\tscope_start\tscope_end\tscope_text\tannotated_as\tinside_content_of\tnote"

def clean(s):
    return s.replace("\t", " ").replace("\n", " ")

def sources(batch, split, name, text, ents, problems):
    p = os.path.join(batch, name + ".labels")
    if not os.path.exists(p):
        problems.append("%s: no .labels file" % name); return
    got = {}
    for n, line in enumerate(open(p, encoding="utf-8").read().split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 4:
            problems.append("%s.labels:%d: need E, stance, type, canonical [, dq, note]" % (name, n)); continue
        eid, st, ty, canon = (x.strip() for x in f[:4])
        dq = f[4].strip() if len(f) > 4 else ""
        note = f[5].strip() if len(f) > 5 else ""
        if st not in STANCES: problems.append("%s.labels:%d: stance %r" % (name, n, st))
        if ty not in TYPES: problems.append("%s.labels:%d: type %r" % (name, n, ty))
        if dq not in ("", "yes", "no", "mixed"): problems.append("%s.labels:%d: direct_quote %r" % (name, n, dq))
        if eid in got: problems.append("%s.labels:%d: %s twice" % (name, n, eid))
        got[eid] = (st, TYPES.get(ty, ty), canon, dq, note)
    ids = [e["id"] for e in ents]
    for e in ids:
        if e not in got: problems.append("%s.labels: %s missing" % (name, e))
    for e in got:
        if e not in ids: problems.append("%s.labels: %s is not in the .ann" % (name, e))
    rows = [HEAD]
    for e in ents:
        if e["id"] not in got: continue
        st, ty, canon, dq, note = got[e["id"]]
        src = span_text(text, e["source"], " ") if e["source"] else ""
        if (src == "") != (ty == "none (implicit)"):
            problems.append("%s %s: type %r but source span %r" % (name, e["id"], ty, src))
        if ty == "none (implicit)" and canon != "-":
            problems.append("%s %s: no source span: canonical must be -" % (name, e["id"]))
        if not canon or canon == "?":
            problems.append("%s %s: empty canonical" % (name, e["id"]))
        rows.append("\t".join(clean(x) for x in (e["id"], "-", st, ty, src, canon, dq or direct_quote(text, e["content"]),
                    span_text(text, e["cue"], " "), span_text(text, e["content"], " "), note)))
    open(os.path.join(batch, name + ".tsv"), "w", encoding="utf-8").write("\n".join(rows) + "\n")

FOLD = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})

def pattern(s):
    """Matches s whatever its whitespace and its curly or straight quotes."""
    parts = re.split(r"\s+", s.strip().translate(FOLD))
    return re.compile(r"\s+".join(re.escape(p) for p in parts))

def find_all(text, s, lo=0, hi=None):
    """(start, end) of each match of s in text[lo:hi], tolerant as pattern() is."""
    hi = len(text) if hi is None else hi
    folded = text.translate(FOLD)
    pat, out, i = pattern(s), [], lo
    while True:
        m = pat.search(folded, i, hi)
        if not m: return out
        out.append((m.start(), m.end())); i = m.start() + 1

def hedges(batch, split, name, text, ents, problems):
    p = os.path.join(batch, name + ".hedges.spec")
    if not os.path.exists(p):
        problems.append("%s: no .hedges.spec file (an empty file means no hedge)" % name); return
    rows = [HHEAD]
    byid = {e["id"]: e for e in ents}
    for n, line in enumerate(open(p, encoding="utf-8").read().split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 2:
            problems.append("%s.hedges.spec:%d: need cue_text<TAB>scope_text[<TAB>note]" % (name, n)); continue
        cue, scope = f[0], f[1]
        note = f[2].strip() if len(f) > 2 else ""
        nth = 1
        if "#" in cue and cue.rsplit("#", 1)[1].isdigit():
            cue, k = cue.rsplit("#", 1); nth = int(k)
        occ = find_all(text, scope)
        if len(occ) != 1:
            problems.append("%s.hedges.spec:%d: scope text found %d times (must be exactly once; copy it exactly, or lengthen it)" % (name, n, len(occ))); continue
        s0, s1 = occ[0]
        inside = find_all(text, cue, s0, s1)
        if len(inside) >= nth:
            c0, c1 = inside[nth - 1]
        else:
            near = find_all(text, cue, max(0, s0 - 60), min(len(text), s1 + 60))
            if len(near) != 1:
                problems.append("%s.hedges.spec:%d: cue %r not inside the scope, nor once just beside it" % (name, n, cue)); continue
            c0, c1 = near[0]
        ann_as = "-"
        for e in ents:
            if e["kind"] == "Attribution-no-source" and any(a < c1 and c0 < b for a, b in e["cue"]):
                ann_as = e["id"]
        inside_of, width = "-", None
        for e in ents:
            for a, b in e["content"]:
                if a <= c0 and c1 <= b and (width is None or b - a < width):
                    inside_of, width = e["id"], b - a
        if inside_of != "-" and byid[inside_of]["source"]:
            problems.append("%s.hedges.spec:%d: warning: %r is inside the content of %s, which has a source: "
                            "only a document/media source's content can hold a writer's hedge" % (name, n, cue, inside_of))
        rows.append("\t".join(clean(x) for x in ("H%d" % (len(rows)), str(c0), str(c1), text[c0:c1], str(s0), str(s1),
                    text[s0:s1], ann_as, inside_of, note)))
    open(os.path.join(batch, name + ".hedges.tsv"), "w", encoding="utf-8").write("\n".join(rows) + "\n")

def main():
    batch = sys.argv[1]
    problems = []
    done = 0
    for line in open(os.path.join(batch, "articles.txt")):
        if not line.strip(): continue
        split, name = line.split()
        text = text_of(split, name)
        ents = parse(ann_path(split, name))
        sources(batch, split, name, text, ents, problems)
        hedges(batch, split, name, text, ents, problems)
        if os.path.exists(os.path.join(batch, name + ".tsv")):
            r = subprocess.run(["python3", CHECK, os.path.join(batch, name + ".tsv")],
                               capture_output=True, text=True)
            if r.returncode: problems.append(r.stdout.strip())
        done += 1
    for p in problems: print(p)
    warn = sum(": warning:" in p for p in problems)
    print("%d articles, %d problems, %d warnings to review" % (done, len(problems) - warn, warn))
main()
