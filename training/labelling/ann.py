"""Shared reader for PolNeAR brat files (code-point offsets)."""
import os, re, glob

ROOT = os.environ.get("POLNEAR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/data/polnear"))

# The guideline's own checker of a finished table.
CHECK = os.path.join(ROOT, "..", "..", "tools", "check_sources_tsv.py")

def ann_path(split, name):
    """The first annotator's .ann in sorted order."""
    c = sorted(glob.glob(os.path.join(ROOT, split, "attributions", name + "_*.ann")))
    if not c:
        raise SystemExit("no .ann for %s/%s" % (split, name))
    return c[0]

def text_of(split, name):
    with open(os.path.join(ROOT, split, "text", name + ".txt"), encoding="utf-8", newline="") as f:
        return f.read()

def parse(path):
    spans, ents = {}, []
    with open(path, encoding="utf-8", newline="") as f:
        for line in f.read().split("\n"):
            fields = line.split("\t", 2)
            # A T line's text may run over a line break; its continuation is no line of its own.
            if not re.fullmatch(r"[TE]\d+", fields[0]) or len(fields) < 2:
                continue
            if line.startswith("T"):
                tid, mid, txt = (fields + [""])[:3]
                kind, rng = mid.split(" ", 1)
                pieces = [tuple(int(x) for x in p.split()) for p in rng.split(";")]
                spans[tid] = (kind, pieces, txt)
            elif line.startswith("E"):
                eid, rest = line.split("\t", 1)
                roles = {}
                for part in rest.split():
                    r, t = part.split(":")
                    roles.setdefault(r, []).append(t)
                ents.append((eid, roles))
    out = []
    for eid, roles in ents:
        def pieces(role):
            ps = []
            for r, ts in roles.items():
                if r.rstrip("0123456789") == role:
                    for t in ts:
                        ps.extend(spans[t][1])
            return sorted(ps)
        kind = "Attribution-no-source" if "Attribution-no-source" in roles else "Attribution"
        out.append(dict(id=eid, kind=kind, source=pieces("Source"), cue=pieces("Cue"),
                        content=pieces("Content")))
    out.sort(key=lambda e: int(e["id"][1:]))
    return out

def span_text(text, pieces, sep=" … "):
    return sep.join(text[a:b] for a, b in pieces)

QUOTES = "\"“”«»"

def direct_quote(text, pieces):
    c = span_text(text, pieces, " ").strip()
    if not c:
        return "no"
    has = any(q in c for q in QUOTES)
    if not has:
        return "no"
    if c[0] in "\"“" and c.rstrip(".,")[-1:] in "\"”" or (c[0] in "\"“" and c[-1] in "\"”"):
        # whole content quoted if the only quote marks are the outer pair
        inner = c[1:-1] if c[-1] in "\"”" else c[1:].rstrip(".,")[:-1]
        if not any(q in inner for q in QUOTES):
            return "yes"
    return "mixed"
