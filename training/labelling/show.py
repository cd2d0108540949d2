#!/usr/bin/env python3
"""show.py SPLIT NAME: the article with code-point offsets, then its attributions."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ann import *

split, name = sys.argv[1], sys.argv[2]
text = text_of(split, name)
print("=" * 20, split, name)
pos = 0
for i, line in enumerate(text.split("\n")):
    if line.strip():
        print("[p%d @%d] %s" % (i, pos, line))
    pos += len(line) + 1
print("-" * 20, "attributions (first annotator: %s)" % ann_path(split, name).rsplit("/", 1)[1])
for e in parse(ann_path(split, name)):
    src = span_text(text, e["source"]) if e["source"] else "(no source span)"
    at = e["cue"][0][0] if e["cue"] else (e["content"][0][0] if e["content"] else -1)
    print("%s @%d\n   SOURCE: %s\n   CUE: %s\n   CONTENT: %s\n   direct_quote guess: %s" % (
        e["id"], at, src, span_text(text, e["cue"]), span_text(text, e["content"]),
        direct_quote(text, e["content"])))
