#!/usr/bin/env python3
"""Seeded generator for the blind8 temporal memory test set.

Writes temporal-blind8-tune.json and temporal-blind8-holdout.json into the folder above this
one (bench/data), as committed: python bench/data/blind8/gen.py (kept for how the suite was
made; written by a helper that read neither graphmem's code nor any earlier suite).
Tune draws only from the first half of every template list / value pool, holdout only from
the second half.  Standard library only.
"""
import json
import os
import random
import re
import sys
from collections import Counter
from datetime import datetime, timedelta

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from templates import T, Q, POOLS, PHONE_OLD, PERSONS, FILLERS, EMOJI  # noqa: E402

SEED = 80808
OUT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLOTS = ["employer", "city", "language", "sport", "phone", "diet", "manager"]
N_CASES = 15

TL_START = datetime(2020, 2, 1)
TL_END = datetime(2025, 10, 31)
PROBE_END = datetime(2025, 12, 20)
PROBE_MIN = datetime(2019, 3, 1)
MIN_GAP_DAYS = 150
MARGIN = timedelta(days=7)          # probe must be this far outside any ambiguity window
EPISODE_CLEAR = timedelta(days=2)   # probe must be this far from any message

P2 = [["first", "change"], ["first", "stop"]]
P3 = [["first", "change", "change"], ["first", "change", "stop"], ["first", "stop", "restart"],
      ["first", "change", "corr_old"]]
P4 = [["first", "change", "change", "stop"], ["first", "change", "stop", "restart"],
      ["first", "change", "corr_old", "change"], ["first", "stop", "restart", "change"],
      ["first", "change", "change", "corr_old"]]
DISTRACTOR_KINDS = ["other", "hypo", "neg", "past", "ask"]


def half(lst, h):
    n = len(lst) // 2
    return lst[:n] if h == 0 else lst[n:]


def parse(tpl):
    meta = {"back": 0, "fwd": 0, "open": False, "tag": None}
    while True:
        m = re.match(r"\[(b\d+|f\d+|open|old|typo|mix)\]", tpl)
        if not m:
            break
        k = m.group(1)
        if k == "open":
            meta["open"] = True
        elif k in ("old", "typo", "mix"):
            meta["tag"] = k
        elif k[0] == "b":
            meta["back"] = int(k[1:])
        else:
            meta["fwd"] = int(k[1:])
        tpl = tpl[m.end():]
    return tpl, meta


def key(slot, v):
    """The string a probe expects/forbids for value v."""
    return v.split()[0] if slot == "manager" else v


def ww(needle, hay):
    return re.search(r"(?<!\w)" + re.escape(needle.lower()) + r"(?!\w)", hay.lower()) is not None


def misspell(v, slot, rng):
    words = v.split()
    idxs = [0] if slot == "manager" else list(range(len(words)))
    idxs = [i for i in idxs if len(words[i]) >= 5 and words[i].isalpha()]
    if not idxs:
        return None
    i = rng.choice(idxs)
    w = words[i]
    for _ in range(10):
        j = rng.randint(1, len(w) - 3)
        nw = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        if nw.lower() != w.lower():
            words[i] = nw
            return " ".join(words)
    return None


def inject_typo(text, rng):
    """Swap two interior letters of one ordinary word (never inside a placeholder)."""
    cands = [m for m in re.finditer(r"(?<![{\w])[A-Za-z]{6,}(?![}\w])", text)]
    if not cands:
        return text
    m = rng.choice(cands)
    w = m.group(0)
    j = rng.randint(1, len(w) - 3)
    nw = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return text[:m.start()] + nw + text[m.end():]


def fill(tpl, X=None, Y=None, S=None):
    out = tpl
    for name, val in (("X", X), ("Y", Y), ("S", S)):
        if val is None:
            continue
        out = out.replace("{%sf}" % name, val.split()[0]).replace("{%s}" % name, val)
    assert "{" not in out, (tpl, out)
    return out


class Case:
    def __init__(self, h, cid, person, rng):
        self.h, self.cid, self.person, self.rng = h, cid, person, rng
        self.fname = person.split()[0]
        self.episodes = []   # (datetime, text, tag)
        self.slots = {}      # slot -> dict(events, distractors, ...)
        self.stats = Counter()

    # ---------- rendering helpers ----------
    def tpl(self, slot, kind, filt=None):
        lst = half(T[slot][kind], self.h)
        parsed = [parse(t) for t in lst]
        if filt:
            parsed = [p for p in parsed if filt(p[1])]
        return self.rng.choice(parsed)

    def finish(self, text, allow_filler=True):
        r = self.rng
        if allow_filler and r.random() < 0.3:
            f = r.choice(FILLERS[self.h])
            sep = r.choice([". ", ". ", " \u2014 ", "! ", ", "]) if not text.rstrip().endswith(
                (".", "!", "?", ")")) else " "
            text = text.rstrip() + sep + f
        if r.random() < 0.08:
            text += " " + r.choice(EMOJI)
        if r.random() < 0.15:
            text = text.lower()
        return text

    def add(self, t, text, tag):
        self.episodes.append((t, text, tag))

    def rand_time(self, d):
        return d.replace(hour=self.rng.randint(7, 23), minute=self.rng.randint(0, 59), second=0)

    # ---------- timeline ----------
    def sample_dates(self, n):
        span = (TL_END - TL_START).days
        while True:
            ds = sorted(TL_START + timedelta(days=self.rng.randint(0, span)) for _ in range(n))
            if all((b - a).days >= MIN_GAP_DAYS for a, b in zip(ds, ds[1:])):
                return ds

    def build_slot(self, slot, pattern):
        r = self.rng
        pool = POOLS[slot][self.h]
        used = set()
        events = []
        cur, prev = None, None
        for kind, d in zip(pattern, self.sample_dates(len(pattern))):
            t = self.rand_time(d)
            ev = {"kind": kind, "t": t, "t_last": t, "value": None, "old": cur, "slip": None,
                  "back": 0, "fwd": 0, "open": False, "form": None}
            if kind in ("first", "change", "restart"):
                X = r.choice([v for v in pool if v not in used])
                used.add(X)
                ev["value"] = X
                corr = r.random() < 0.25
                if kind == "first":
                    if not corr and r.random() < 0.2:
                        form = "help"
                    else:
                        form = "first"
                elif kind == "change":
                    form = "change_named" if r.random() < 0.55 else "change_unnamed"
                else:
                    form = "change_unnamed"
                text, meta = self.tpl(slot, form)
                ev.update(back=meta["back"], fwd=meta["fwd"], open=meta["open"] or form == "help", form=form)
                if r.random() < 0.08:
                    text = inject_typo(text, r)
                if corr:
                    S, how = None, None
                    if r.random() < 0.5:
                        S = misspell(X, slot, r)
                        how = "typo"
                    if S is None:
                        S = r.choice([v for v in pool if v not in used and v != cur])
                        how = "mixup"
                    if how == "mixup":
                        used.add(S)
                    ev["slip"], ev["slip_how"] = S, how
                    slip_text = fill(text, X=S, Y=cur)
                    fix_tpl, _ = self.tpl(slot, "corr", lambda m, how=how: m["tag"] in (None, {"typo": "typo", "mixup": "mix"}[how]))
                    fix = fill(fix_tpl, X=X, S=S)
                    self._emit_correction(t, slip_text, fix, ev, "corr_new:" + how)
                else:
                    self.add(t, self.finish(fill(text, X=X, Y=cur)), "%s:%s" % (kind, form))
                self.stats["event:" + kind] += 1
                self.stats["form:" + form] += 1
                prev, cur = cur, X
            elif kind == "stop":
                text, meta = self.tpl(slot, "stop")
                ev.update(back=meta["back"], fwd=meta["fwd"], form="stop")
                if r.random() < 0.08:
                    text = inject_typo(text, r)
                self.add(t, self.finish(fill(text, Y=cur)), "stop")
                self.stats["event:stop"] += 1
                prev, cur = cur, None
            elif kind == "corr_old":
                # present-tense restatement that slips to the previous value, then fixes it
                assert cur is not None and prev is not None
                S = prev
                ev["value"], ev["slip"], ev["slip_how"] = cur, S, "old"
                text, _ = self.tpl(slot, "help")
                fix_tpl, _ = self.tpl(slot, "corr", lambda m: m["tag"] in (None, "old"))
                self._emit_correction(t, fill(text, X=S), fill(fix_tpl, X=cur, S=S), ev, "corr_old")
                self.stats["event:corr_old"] += 1
            # ambiguity window
            p = ev["t"] - timedelta(days=ev["back"]) + timedelta(days=ev["fwd"])
            slack = timedelta(days=2 + 0.3 * (ev["back"] + ev["fwd"]))
            ev["point"] = p
            ev["wlo"] = min(ev["t"], p) - slack
            ev["whi"] = max(ev["t_last"], p) + slack
            events.append(ev)
        return events

    def _emit_correction(self, t, slip_text, fix, ev, tag):
        r = self.rng
        if r.random() < 0.45:
            sep = r.choice([" \u2014 ", "... ", ". ", " ", "\n", " (", " - "])
            body = slip_text.rstrip() + sep + fix + (")" if sep == " (" else "")
            self.add(t, self.finish(body, allow_filler=False), tag + ":same")
            self.stats["corr_msg:same"] += 1
        else:
            t2 = t + timedelta(minutes=r.randint(1, 25))
            self.add(t, self.finish(slip_text), tag + ":slip")
            self.add(t2, self.finish(fix, allow_filler=False), tag + ":fix")
            ev["t_last"] = t2
            self.stats["corr_msg:next"] += 1

    # ---------- intervals ----------
    @staticmethod
    def intervals(events):
        st = [e for e in events if e["kind"] in ("first", "change", "restart", "stop")]
        iv = []
        e0 = st[0]
        if not e0["open"]:
            hi = e0["wlo"] - timedelta(days=45)
            iv.append({"value": None, "lo": max(hi - timedelta(days=420), PROBE_MIN), "hi": hi,
                       "cat": "before", "current": False})
        for i, e in enumerate(st):
            lo = e["whi"] + MARGIN
            hi = st[i + 1]["wlo"] - MARGIN if i + 1 < len(st) else PROBE_END
            val = e["value"] if e["kind"] != "stop" else None
            iv.append({"value": val, "lo": lo, "hi": hi, "cat": "value" if val else "after_stop",
                       "current": i + 1 == len(st)})
        return iv

    def pick_date(self, lo, hi):
        if hi <= lo:
            return None
        span = int((hi - lo).total_seconds() // 86400)
        for _ in range(80):
            d = (lo + timedelta(days=self.rng.randint(0, span))).replace(hour=12, minute=0, second=0)
            if d < lo or d > hi:
                continue
            if all(abs(d - t) > EPISODE_CLEAR for t, _, _ in self.episodes):
                return d
        return None


def truth(events, T_):
    """Independent re-derivation of the value of a slot at time T_ (None = now)."""
    state = None
    for e in events:
        if e["kind"] not in ("first", "change", "restart", "stop"):
            continue
        if T_ is None or T_ >= e["point"]:
            state = e["value"] if e["kind"] != "stop" else None
        if T_ is not None:
            assert not (e["wlo"] <= T_ <= e["whi"]), "probe inside ambiguity window"
    return state


def weighted_slots(n, usage, rng):
    """Sample n distinct slots, favouring the ones used least so far (keeps slots balanced)."""
    left, out = list(SLOTS), []
    for _ in range(n):
        w = [1.0 / (1 + usage[s]) ** 3 for s in left]
        s = rng.choices(left, weights=w)[0]
        out.append(s)
        left.remove(s)
    return out


def build_case(h, idx, person, rng, usage):
    for attempt in range(500):
        c = Case(h, "b8%s-%02d" % ("t" if h == 0 else "h", idx), person, rng)
        n = rng.choice([3, 3, 4, 4])
        slots = weighted_slots(n, usage, rng)
        if "employer" in slots and "manager" in slots:
            continue
        pats = {}
        for s in slots:
            if n == 3:
                pats[s] = rng.choice(P2 + P3 + P3 + P4)
            else:
                pats[s] = rng.choice(P2 + P2 + P3 + P3 + [rng.choice(P4)])
        if not any("stop" in p for p in pats.values()):
            s = rng.choice(slots)
            pats[s] = rng.choice([p for p in P2 + P3 + P4 if "stop" in p])
        for s in slots:
            c.slots[s] = {"events": c.build_slot(s, pats[s]), "distractors": []}
        # corrections must be present in each case
        if not any(e["slip"] for s in slots for e in c.slots[s]["events"]):
            continue
        # at least one slot whose first statement is not open-ended (for before-first probes)
        if all(c.slots[s]["events"][0]["open"] for s in slots):
            continue
        # distractors
        nd = rng.randint(2, 4)
        kinds = rng.sample(DISTRACTOR_KINDS, min(nd, len(DISTRACTOR_KINDS)))
        ok = True
        for k in kinds:
            s = rng.choice(slots)
            sd = c.slots[s]
            taken = set()
            for e in sd["events"]:
                taken.update([e["value"], e["old"], e["slip"]])
            taken.update(d["value"] for d in sd["distractors"])
            pool = PHONE_OLD[h] if (s == "phone" and k == "past") else POOLS[s][h]
            # value must not collide (as whole word) with any value of this slot
            cands = [v for v in pool if v not in taken and not any(
                x and (ww(key(s, v), x) or ww(key(s, x), v)) for x in taken)]
            if not cands:
                ok = False
                break
            Y = rng.choice(cands)
            text, _ = c.tpl(s, k)
            if rng.random() < 0.08:
                text = inject_typo(text, rng)
            d = c.pick_date(TL_START, TL_END + timedelta(days=30))
            if d is None:
                ok = False
                break
            d = c.rand_time(d)
            c.add(d, c.finish(fill(text, Y=Y)), "distractor:" + k)
            sd["distractors"].append({"kind": k, "value": Y, "t": d})
            c.stats["distractor:" + k] += 1
        if not ok:
            continue
        # help-request reaffirmations of the current value (0-2)
        for _ in range(rng.choice([0, 1, 1, 2])):
            s = rng.choice(slots)
            ivs = [iv for iv in Case.intervals(c.slots[s]["events"]) if iv["value"]]
            iv = rng.choice(ivs) if ivs else None
            if not iv:
                continue
            d = c.pick_date(iv["lo"], min(iv["hi"], TL_END + timedelta(days=40)))
            if d is None:
                continue
            text, _ = c.tpl(s, "help")
            c.add(c.rand_time(d), c.finish(fill(text, X=iv["value"])), "help_reaffirm")
            c.stats["help_reaffirm"] += 1
        c.episodes.sort(key=lambda e: e[0])
        times = [e[0] for e in c.episodes]
        if len(set(times)) != len(times):
            continue
        res = make_probes(c, rng)
        if res is None:
            continue
        usage.update(slots)
        return c, res
    raise RuntimeError("could not build case")


def make_probes(c, rng):
    h = c.h
    req, opt = [], []
    before_opts, stop_opts = [], []
    for s, sd in c.slots.items():
        evs = sd["events"]
        ivs = Case.intervals(evs)
        sd["ivals"] = ivs
        cur = ivs[-1]["value"]
        req.append((s, None, cur, "now"))
        for iv in ivs:
            if iv["cat"] == "before":
                before_opts.append((s, iv))
            elif iv["cat"] == "after_stop":
                stop_opts.append((s, iv))
            elif not iv["current"]:
                req.append((s, iv, iv["value"], "past_value"))
            else:
                opt.append((s, iv, iv["value"], "current_asof"))
            if (iv["hi"] - iv["lo"]).days > 240:
                opt.append((s, iv, iv["value"], "extra"))
    if not before_opts or not stop_opts:
        return None
    rng.shuffle(before_opts)
    rng.shuffle(stop_opts)
    req.append((before_opts[0][0], before_opts[0][1], None, "before"))
    req.append((stop_opts[0][0], stop_opts[0][1], None, "after_stop"))
    for s, iv in before_opts[1:]:
        opt.append((s, iv, None, "before"))
    for s, iv in stop_opts[1:]:
        opt.append((s, iv, None, "after_stop"))
    if len(req) > 14:
        return None
    target = rng.randint(10, 14)
    opt.sort(key=lambda o: rng.random() - (0.6 if o[3] == "current_asof" else 0))
    chosen = list(req)
    for o in opt:
        if len(chosen) >= target:
            break
        chosen.append(o)
    probes, meta = [], []
    used_dates = set()
    for s, iv, exp, cat in chosen:
        sd = c.slots[s]
        if iv is None:
            as_of = None
        else:
            as_of = None
            for _ in range(10):
                d = c.pick_date(iv["lo"], iv["hi"])
                if d is not None and (s, d) not in used_dates:
                    as_of = d
                    break
            if as_of is None:
                if cat in ("past_value", "before", "after_stop") and (s, iv, exp, cat) in req:
                    return None
                continue
            used_dates.add((s, as_of))
        # forbid list
        vals = []
        for e in sd["events"]:
            for v in (e["value"], e["old"], e["slip"]):
                if v:
                    vals.append(key(s, v))
        for d in sd["distractors"]:
            if cat == "before" and d["kind"] == "past":
                continue  # long-ago trivia may pre-date the first statement; don't forbid there
            vals.append(key(s, d["value"]))
        ek = key(s, exp) if exp else None
        forbid = []
        for v in vals:
            if v not in forbid and v != ek:
                forbid.append(v)
        qs = half(Q[s]["now" if as_of is None else "past"], h)
        q = rng.choice(qs).format(n=c.fname)
        probes.append({"question": q, "as_of": as_of.isoformat() if as_of else None,
                       "expect": ek, "forbid": forbid, "slot": s})
        meta.append(cat)
    if len(probes) < 10:
        return None
    order = list(range(len(probes)))
    rng.shuffle(order)
    return [probes[i] for i in order], [meta[i] for i in order]


def verify(c, probes, cats):
    """Re-check every probe against the internal timeline."""
    texts = [(t, txt) for t, txt, _ in c.episodes]
    times = [t for t, _ in texts]
    assert times == sorted(times)
    n_dis = 0
    for p, cat in zip(probes, cats):
        s = p["slot"]
        sd = c.slots[s]
        T_ = datetime.fromisoformat(p["as_of"]) if p["as_of"] else None
        if T_ is not None:
            assert all(abs(T_ - t) > timedelta(days=1) for t in times)
        v = truth(sd["events"], T_)
        ek = key(s, v) if v else None
        assert ek == p["expect"], (c.cid, p, v)
        if ek:
            assert ek not in p["forbid"]
            # the expected value must have been said by the person at or before as_of
            lim = T_ or datetime.max
            assert any(ww(ek, txt) for t, txt in texts if t <= lim), (c.cid, p)
            for f in p["forbid"]:
                assert not ww(f, ek) and not ww(ek, f), (c.cid, p, f)
        else:
            assert p["forbid"], p
        dvals = {key(s, d["value"]) for d in sd["distractors"]}
        if dvals & set(p["forbid"]):
            n_dis += 1
        # every forbid value is mentioned somewhere in the person's messages
        for f in p["forbid"]:
            assert any(ww(f, txt) for _, txt in texts), (c.cid, f)
    assert n_dis >= 1, c.cid
    cs = set(cats)
    assert "now" in cs and "before" in cs and "after_stop" in cs, (c.cid, cats)
    assert 10 <= len(probes) <= 14


def main():
    rng = random.Random(SEED)
    totals = {}
    all_text = {0: [], 1: []}
    for h, name in ((0, "tune"), (1, "holdout")):
        persons = rng.sample(PERSONS[h], N_CASES)
        cases, stats, catc, slotc, kindc = [], Counter(), Counter(), Counter(), Counter()
        usage = Counter()
        for i, person in enumerate(persons):
            c, (probes, cats) = build_case(h, i, person, rng, usage)
            verify(c, probes, cats)
            stats.update(c.stats)
            catc.update(cats)
            for p in probes:
                slotc[p["slot"]] += 1
                kindc["now" if p["as_of"] is None else "as-of"] += 1
                if p["expect"] is None:
                    kindc["expect-null"] += 1
            cases.append({
                "id": c.cid, "person": person,
                "episodes": [{"speaker": person, "time": t.isoformat(), "text": txt}
                             for t, txt, _ in c.episodes],
                "probes": probes,
            })
            all_text[h].extend(txt for _, txt, _ in c.episodes)
        path = os.path.join(OUT_DIR, "temporal-blind8-%s.json" % name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cases, f, ensure_ascii=False, indent=1)
        totals[name] = (path, cases, stats, catc, slotc, kindc)

    # reload + report
    for name, (path, cases, stats, catc, slotc, kindc) in totals.items():
        data = json.load(open(path, encoding="utf-8"))
        assert len(data) == N_CASES
        for case in data:
            assert set(case) == {"id", "person", "episodes", "probes"}
            for e in case["episodes"]:
                assert set(e) == {"speaker", "time", "text"}
            for p in case["probes"]:
                assert set(p) == {"question", "as_of", "expect", "forbid", "slot"}
                assert p["slot"] in SLOTS
        n_ep = sum(len(c["episodes"]) for c in data)
        n_pr = sum(len(c["probes"]) for c in data)
        print("== %s: %s" % (name, path))
        print("  cases=%d episodes=%d probes=%d (per case %d-%d)" % (
            len(data), n_ep, n_pr, min(len(c["probes"]) for c in data), max(len(c["probes"]) for c in data)))
        print("  probes per slot:", dict(sorted(slotc.items())))
        print("  cases per slot:", dict(sorted(Counter(p["slot"] for c in data for p in c["probes"] if p["as_of"] is None).items())))
        print("  probes per kind:", dict(kindc))
        grid = Counter(("now" if p["as_of"] is None else "as-of", "null" if p["expect"] is None else "value")
                       for c in data for p in c["probes"])
        print("  now/as-of x value/null:", {"%s-%s" % k: v for k, v in sorted(grid.items())})
        print("  distinct question wordings used:", len({p["question"].replace(c["person"].split()[0], "{n}")
                                                         for c in data for p in c["probes"]}))
        print("  probes per category:", dict(sorted(catc.items())))
        print("  message kinds:", dict(sorted(stats.items())))

    # leakage check: no value of the other half's pools appears in a file's messages
    for h in (0, 1):
        other = 1 - h
        leaks = []
        for s in SLOTS:
            for v in POOLS[s][other] + PHONE_OLD[other] * (s == "phone"):
                for txt in all_text[h]:
                    if ww(key(s, v), txt):
                        leaks.append((v, txt))
        print("  cross-half value leaks in %s: %d %s" % (["tune", "holdout"][h], len(leaks), leaks[:5]))


if __name__ == "__main__":
    main()
