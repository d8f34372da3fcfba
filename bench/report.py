"""Render bench/results/*.json as the README's "Figures" section.

    python bench/report.py          # rewrites the part of README.md between the bench markers

Every number in the README comes from a results file written by a script in
bench/, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
README = ROOT / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def write_section() -> list[str]:
    out: list[str] = []
    data = _load("write_throughput")
    if data:
        rows = []
        for store, goal in (("embedded", 5000), ("neo4j", 2000)):
            r = data["results"].get(store)
            if r:
                rows.append([store, r["store_write"]["facts_per_s"], r["ingest_no_model"]["facts_per_s"],
                             r["ingest"]["facts_per_s"], goal,
                             _mark(r["store_write"]["facts_per_s"] >= goal)])
        out += ["### Writes: structured facts per second (`bench/write_throughput.py`)", "",
                _table(["store", "store alone (vectors precomputed)", "add_facts, no model",
                        "add_facts with MiniLM", "goal", "store alone vs goal"], rows), ""]
        if data.get("note"):  # how the run was taken, when it differs from the usual
            out += [f"**This run:** {data['note']}", ""]
    return out


def locomo_section() -> list[str]:
    out: list[str] = []
    cats = ["all", "multi-hop", "temporal", "open-domain", "single-hop"]
    for store in ("embedded", "neo4j"):
        data = _load(f"locomo_recall_{store}")
        if not data:
            continue
        table = data["frac_at_k"]
        systems = ["graphmem@5", "graphmem@10", "graphmem@25", "graphmem@ctx2000",
                   "bm25_turns@10", "dense_turns@10", "bm25_dense_rrf@10", "bm25_turns@ctx2000",
                   "bm25_dense_rrf@ctx2000"]
        rows = [[s, *[table[s].get(c, "") for c in cats]] for s in systems if s in table]
        ten = table.get("graphmem@10", {})
        out += [f"### LoCoMo evidence recall, {store} store ({data['conversations']} conversations, "
                f"{data['questions']} questions, `bench/locomo_recall.py`)", "",
                _table(["system", *cats], rows), "",
                f"Goal frac@10 >= 75 overall and >= 45 multi-hop: overall {ten.get('all')} "
                f"({_mark(ten.get('all', 0) >= 75)}), multi-hop {ten.get('multi-hop')} "
                f"({_mark(ten.get('multi-hop', 0) >= 45)}). Ingestion with the offline extractor: "
                f"{data['ingest']['turns_per_second']} turns/s "
                f"(goal {300 if store == 'embedded' else 150}: "
                f"{_mark(data['ingest']['turns_per_second'] >= (300 if store == 'embedded' else 150))}); "
                f"search p50 {data['search_ms']['p50']} ms, p95 {data['search_ms']['p95']} ms.", ""]
        if data.get("note"):  # how the run was taken, when it differs from the usual
            out += [f"**This run:** {data['note']}", ""]
    if out:
        out += ["The turn context window (two turns before, one after), the neighbour pooling of "
                "turn vectors, the speaker prior and the channel weights were chosen on these same "
                "five conversations: there is no held-out split, so graphmem's margin over the "
                "baselines is an optimistic estimate. Our bm25s baseline indexes `speaker: text` "
                "with English stopwords and gives 52.6, not the issue's anchor of 61.0.", ""]
    return out


def latency_section() -> list[str]:
    data = _load("search_latency")
    if not data:
        return []
    rows = [[r["store"], f"{r['facts']:,}", r["p50_ms"], r["p95_ms"], r.get("rss_mb", ""),
             r.get("ranked_in_process", "-")] for r in data["rows"]]
    out = ["### Search latency, one client, query embedding included (`bench/search_latency.py`)", "",
           _table(["store", "facts", "p50 ms", "p95 ms", "benchmark process RSS MB",
                   "Neo4j: share of searches whose vectors the process ranked"], rows), ""]
    if data.get("store_process"):
        p = data["store_process"]
        out += [f"A fresh process holding the embedded store at {p['facts']:,} facts: "
                f"{p['rss_mb']} MB RSS (goal 1,024 MB: {_mark(p['rss_mb'] <= 1024)}).", ""]
    goals = data.get("goals_p95_ms_at_100k", {})
    for store, goal in goals.items():
        at = [r for r in data["rows"] if r["store"] == store and r["facts"] == 100_000]
        if at:
            out.append(f"- {store} at 100k: p95 {at[0]['p95_ms']} ms vs goal {goal} ms: "
                       f"{_mark(at[0]['p95_ms'] <= goal)}")
    return [*out, ""]


def temporal_section() -> list[str]:
    data = _load("temporal_suite")
    if not data:
        return []
    kinds = ["now", "as-of", "before-any"]
    rows = []
    for suite in data["suites"]:
        for store, by_suite in data["results"].items():
            r = by_suite[suite]
            by = r["by_kind"]
            rows.append([suite, f"graphmem, {store}", r["accuracy"],
                         *(by[k]["percent"] for k in kinds), r["http_errors"],
                         r["results_after_as_of"],
                         f"{r['search_ms']['p50']} / {r['search_ms']['p95']}" if r["search_ms"] else "-"])
        base = data["baseline_bm25_turns"][suite]
        rows.append([suite, "BM25 over raw turns said by as_of", base["accuracy"],
                     *(base["by_kind"][k]["percent"] for k in kinds), "-", "-", "-"])
    dev = [by_suite["dev"] for by_suite in data["results"].values()]
    as_of_ok = all(min(r["by_kind"]["as-of"]["percent"], r["by_kind"]["before-any"]["percent"]) >= 95
                   for r in dev)
    overall_ok = all(r["accuracy"] >= 90 for r in dev)
    clean = all(r["http_errors"] == "none" and r["results_after_as_of"] == 0
                for by_suite in data["results"].values() for r in by_suite.values())
    misses = sorted({f for by_suite in data["results"].values()
                     for name, r in by_suite.items() if name in ("dev", "extra")
                     for f in r["failures"]})
    extra_probes = sum(k["probes"] for k in data["baseline_bm25_turns"]["extra"]["by_kind"].values())
    out = ["### Temporal knowledge updates through REST (`bench/temporal_suite.py`)", "",
           "`dev` is the shared suite (24 people in one group scope, 201 single-message episodes, "
           f"273 probes); `extra` is ours ({extra_probes} probes about 5 people, with slots and phrasings "
           "dev lacks: car, job title, likes, 'traded in', 'employed by', 'quit X to freelance'), "
           "written after tuning on dev. Its first run scored 96.6% on both stores; its one failure "
           "('I quit Acme Robotics to freelance' read as a goal) was then fixed in the extractor, so "
           "it is no longer untouched. Top 3 of `POST /v1/memories/search` with "
           "naive `as_of`, each store behind `graphmem serve`:", "",
           _table(["suite", "system", "all %", "now %", "as-of %", "before-any %", "HTTP errors",
                   "results after as_of", "search p50 / p95 ms"], rows), "",
           f"Goals on dev: 0 HTTP errors and 0 results after as_of ({_mark(clean)}); as-of and "
           f"before-any >= 95% ({_mark(as_of_ok)}); overall >= 90% ({_mark(overall_ok)}). The "
           "extractor's change rules, the slot channel's match threshold and the entity-focus floor "
           "were chosen on dev (and checked against LoCoMo dev recall), so dev figures are "
           "optimistic.", "",
           "`blind`, `blind2_tune` and `blind2_holdout` measure what dev cannot: chat as people "
           "write it (lowercase, emoji, help requests that mention a fact in passing, slips "
           "corrected, plans, other people's values) over 12 slots (dev's 7 plus car, job title, "
           "partner, pet, school). Each was written by a helper that never read the code; the "
           "second helper saw neither the code nor `blind`. `blind` (30 people, 235 probes) scored "
           "70.2% (embedded) on its first run and the rules were then tuned on its failures, so it "
           "is no longer out of sample. The second suite (24 people, 239 probes) was split by case "
           "number into halves, both scored before any tuning (79.2% and 69.7%, embedded); only "
           "the `tune` half was looked at since; `blind2_holdout` (69.7% before) is out of sample.",
           "",
           "`blind3_*` and `blind4_*` come from seeded generators two more helpers wrote without "
           "reading the code (dev's seven slots; first statements, changes, endings, slips "
           "corrected, plans, questions, hypotheticals, other people's facts, past facts), with "
           "each slot's templates of each kind split into two disjoint halves, so a holdout's "
           "phrasings never occur in its tune half. First runs (embedded): blind3 79.7% / 79.6%, "
           "blind4 64.8% / 63.5%. blind3 was tuned on since (both halves, tune first: its holdout "
           "moved 79.6 -> 80.9 from the tune half's rules alone); of blind4 the tune half was "
           "looked at, and the holdout's failure list was read in the last round after it was "
           "measured (no rule was written from it). `blind5_*` is a fifth helper's generator of "
           "the same design (15 + 15 people, disjoint templates, names and values per half); "
           "first run 63.6% / 70.1% on both stores; five mechanisms were since chosen or "
           "checked on its tune half (for a slot question, a turn that only asks or muses is "
           "left out; slips of the keyboard mended; chat's shorthand corrections such as "
           "'*Elixir. no idea why I said Erlang'; home said as residence); its holdout was never "
           "looked at (70.1 -> 72.2 -> 74.3, embedded). The residence rules cost blind3_holdout "
           "one probe (91.2 -> 90.9). The last round read more of blind5_tune's chat shorthand "
           "('99% of what I write is X', 'X is what I reach for now', 'X made me an offer... so "
           "I took it', 'not under X anymore', 'traded X for Y', a slot label after a lead-in, "
           "'autocorrect changed it to X'): blind5_tune 72.7 -> 81.1 and blind4_tune 67.1 -> "
           "67.8 (in sample), while every holdout stayed where it was (blind5_holdout 74.3, "
           "blind4_holdout 68.3): those phrasings did not recur in the held-out templates. "
           "`blind6_*` (session 33) was written by hand by a sixth helper that read neither the "
           "code nor any earlier suite (12 + 12 people, 116 + 118 probes; chat with facts inside "
           "help requests, slips corrected in many styles, other people's values, wishes, past "
           "mentions, retractions without a new value). First run at the session's start, "
           "embedded: 72.4% / 72.0%. Rules were then chosen on its tune half and on blind4/5's "
           "tune halves (corrections said as 'the city is X' after a slip owned or named, "
           "presuppositions in questions such as 'my boss Gunnar', 'no longer Y' after a stated "
           "value, 'I have no car', towns typed without their marks, and more). Embedded, "
           "from the session's start to its end: blind6_tune 72.4 -> 84.5, blind4_tune 74.8 -> "
           "84.1, blind5_tune 82.5 -> 91.6, while the holdouts barely moved (blind6_holdout "
           "72.0 -> 72.9, blind5_holdout 75.0 -> 75.7, blind4_holdout 71.0 -> 71.0) and every "
           "other suite kept its score: most of what the tune halves taught were phrasings "
           "that do not recur. `blind7_*` (session 34) came from a seventh helper under the same "
           "rules (12 + 12 people, 120 + 119 probes; most endings do not name the value "
           "ended). First run at the session's start, embedded: 67.5% / 67.2%. Rules were chosen "
           "on its tune half only (a language typed in lower case where the sentence says a "
           "language is meant, cars known by their model alone, partners called 'my fella' or "
           "'my namorada', 'X and I called it quits', a full stop before chat's lower-case "
           "openings, 'I'll be a nurse manager from March', and more), besides three general "
           "changes: an object under 'no' denied at the clause for every rule, the dropped "
           "subject put back from a table of openings, and, in recall, a turn that names only a "
           "value the slot had lost to a retraction by the view's time no longer answers a "
           "question about that slot. Embedded, from the session's start to its end: "
           "blind7_tune 67.5 -> 85.8, blind7_holdout 67.2 -> 68.1, blind2_holdout 75.6 -> 77.3, "
           "blind5_holdout 75.7 -> 76.4, blind4_tune 84.1 -> 84.7; every other suite kept its "
           "score (a first form of the recall rule cost blind4_holdout a probe, found by diffing "
           "its failure lists and mended: a value another replaced hides no turn). "
           "`blind8_*` (session 35) is an eighth helper's seeded generator (kept in "
           "`bench/data/blind8`; 15 + 15 people, 183 + 189 probes, dev's seven slots; templates, "
           "question wordings and values split into disjoint halves; typos, slips corrected "
           "without cues, idioms of change, the past and denials). First run at the session's "
           "start, embedded: 66.1% / 54.0%. Rules were chosen on its tune half only (a correction "
           "without its cue, 'iPhone SE, not Xperia 1 V!', placed only where the wrong value was "
           "said; a correction placed nowhere still states a value that names its slot; switches "
           "said as idioms, 'made the jump to X', 'out of X and into Y'; 'X now instead of Y'; a "
           "stay in the perfect with how long it lasted, 'I've been at Stripe since March'; 'left "
           "Google for Meta'), and in recall a turn no fact was read from that only speaks of the "
           "past or of what never was ('did rowing in high school, ages ago') no longer answers a "
           "slot question. Embedded, from the session's start to its end: blind8_tune 66.1 -> "
           "84.2, blind8_holdout 54.0 -> 57.1, and the older holdouts rose with it (blind2 77.3 "
           "-> 78.2, blind3 91.8 -> 92.8, blind4 71.0 -> 71.3, blind5 76.4 -> 78.5, blind6 72.9 "
           "-> 74.6; blind7 68.1 equal); no suite fell. A rule tried and dropped (a turn the "
           "extractor read as telling only other one-valued slots leaves a slot question) moved "
           "the holdouts both ways and the tune halves down. "
           "Session 36 wrote no rule from any suite: its changes to the rules came from a "
           "helper that tried graphmem through REST as eight new users over a year of chat "
           "(a move is a job or a home, never both, judged against every town GeoNames lists; "
           "'I'm not a customs broker, I'm a compliance officer'; a heading that announces a "
           "correction; 70 more trades; a clause spliced before 'he wants'; 'since my trip in "
           "May' dated this May; 'any tips for ...' is no hobby; a firm named by its first word "
           "restates the current one). On the suites' texts they changed four extractions, "
           "seen only in that diff (embedded / Neo4j): blind6_holdout 74.6 / 75.4 -> 75.4 / "
           "76.3 ('i'm a geologist at Equinor' now read), blind8_holdout 57.1 / 58.2 -> 56.6 / "
           "57.1 ('Moved over to Swift' is no longer read as a home Swift, a wrong fact whose "
           "text had answered a language question), blind7_tune 86.7 -> 87.5 (embedded, with "
           "a later commit: 'stopped climbing ..., doc says maybe in a year' ends climbing); "
           "'gone dairy-free, wish me luck' (blind4_tune) moved no score, and every other "
           "suite kept its score. The session's last rule ('my manager Greta Lund asked me to "
           "...' states the manager) changed two more: blind8_holdout 56.6 -> 57.7 and blind "
           "95.3 equal, embedded, measured on their own after the run (not on Neo4j). "
           "**The holdouts are the out-of-sample figures, and misses**: phrasings no "
           "rule reads are still the main failure, and probes that expect nothing fail when a "
           "raw turn in the top 3 mentions another value (the rules extractor, not the LLM path, "
           "is measured here)."]
    if data.get("note"):  # how the run was taken, when it differs from the usual
        out += ["", f"**This run:** {data['note']}"]
    if misses:
        out += ["", "Failed probes (dev and extra):", "", *(f"- `{m}`" for m in misses)]
    return [*out, ""]


def other_sections() -> list[str]:
    out: list[str] = []
    quality = _load("extraction_quality")
    if quality:
        held = quality.get("test_batch4") or quality["test"]
        change = quality.get("test_batch5")
        speed = quality.get("locomo_speed", {})
        rows = [["held out (batch 4, written last, never tuned on)", held["strict"]["sentences"],
                 held["strict"]["precision"], held["strict"]["recall"],
                 held["strict"].get("negated_asserted", "?")]]
        if change:
            rows.append(["held out change/negation/state (batch 5, never tuned on)",
                         change["strict"]["sentences"], change["strict"]["precision"],
                         change["strict"]["recall"], change["strict"]["negated_asserted"]])
        rows.append(["all labelled sentences", quality["all"]["strict"]["sentences"],
                     quality["all"]["strict"]["precision"], quality["all"]["strict"]["recall"],
                     quality["all"]["strict"].get("negated_asserted", "?")])
        goal = ""
        if change:
            c = change["strict"]
            met = c["precision"] >= 0.9 and c["recall"] >= 0.8 and \
                quality["all"]["strict"]["negated_asserted"] == 0
            goal = (" Change set goal precision >= 0.9, recall >= 0.8 and no negated statement "
                    f"asserted: {_mark(met)}.")
        out += ["### Extraction quality of the offline rules (`bench/extraction_quality.py`)", "",
                _table(["set", "sentences", "precision", "recall", "negated statements asserted"],
                       rows), "",
                f"Goal precision >= 0.8 and recall >= 0.7 (held out: "
                f"{_mark(held['strict']['precision'] >= 0.8 and held['strict']['recall'] >= 0.7)})."
                f"{goal} On LoCoMo chat it finds {speed.get('facts_per_message', '?')} facts per "
                "turn: casual conversation states few durable facts, which is why raw turns are "
                "searchable too.", ""]
    llm = _load("llm_calls")
    if llm:
        calls = llm["calls"]
        out += [f"### LLM extraction: calls per episode (`bench/llm_calls.py`)", "",
                f"{calls['per_episode_mean']} calls per episode on average, at most "
                f"{calls['per_episode_max']}, over {llm['settings']['episodes']} episodes with a 429 "
                f"injected every {llm['settings']['rate_limit_every']} requests "
                f"({calls['retries']} retries, {calls['failures']} failures). {llm['note']}", ""]
    for name in ("api_load", "api_load_neo4j"):
        api = _load(name)
        if not api:
            continue
        cfg = api["config"]
        out += [f"### REST API under load, {cfg['store']} store (`bench/api_load.py`)", "",
                f"{cfg['facts']:,} facts, {cfg['concurrency']} concurrent clients for "
                f"{cfg['duration_s']} s per run, {int(cfg['ingest_ratio'] * 100)}% of the requests "
                f"ingesting one message. Goal 200 search req/s at p95 <= 100 ms.", "",
                "| `graphmem serve` workers | search req/s | p50 ms | p95 ms | errors | "
                "`/health` p50 ms | goal |", "|---|---|---|---|---|---|---|"]
        for run in api.get("runs", [api]):
            s = run["search"]
            met = s["per_second"] >= 200 and s["p95_ms"] <= 100
            out.append(f"| {run['workers']} | {s['per_second']} | {s['p50_ms']} | {s['p95_ms']} | "
                       f"{sum(run['errors'].values()) if run['errors'] else 0} | "
                       f"{run['health']['p50_ms']} | {_mark(met)} |")
        out.append("")
        if api.get("note"):  # how the run was taken, when it differs from the usual
            out += [f"**This run:** {api['note']}", ""]
    red = _load("redaction")
    if red:
        out += ["### Redaction of secrets before storage (`bench/redaction.py`)", "",
                f"On {red['all']['lines']} lines ({red['all']['secrets']} secrets): precision "
                f"{red['all']['precision']}, recall {round(red['all']['recall'], 3)}; missed kinds: "
                f"{', '.join(red['all']['missed']) or 'none'}.", ""]
    return out


def first_requests_section() -> list[str]:
    """The first requests after a start (``bench/first_requests.py``), with a baseline run of
    an older commit if one was kept beside (``first_requests_before.json``)."""
    runs = [(name, data) for name in ("first_requests_before", "first_requests")
            if (data := _load(name))]
    if not runs:
        return []
    names = list(next(iter(runs[-1][1]["stores"].values()))["new database"]["first_ms"])
    out = ["### First requests after a start (`bench/first_requests.py`)", "",
           "Through REST, right after `/ready` answered 200: each request once (first), then "
           "the median of five more (warm), in ms; a new user's scope each start.", "",
           "| commit | store | start | ready s | " + " | ".join(names) + " |",
           "|---|---|---|---|" + "---|" * len(names)]
    for _, data in runs:
        for store, starts in data["stores"].items():
            for start, run in starts.items():
                warm = run["warm_median_ms"]  # no warm figure for a second change
                cells = [f"{run['first_ms'][n]:,.0f} / "
                         + (f"{warm[n]:,.0f}" if n in warm else "–") for n in names]
                out.append(f"| {data.get('commit', '?')} | {store} | {start} | {run['ready_s']} | "
                           + " | ".join(cells) + " |")
    return [*out, ""]


def render() -> str:
    machine = None
    for name in ("search_latency", "locomo_recall_embedded", "write_throughput"):
        data = _load(name)
        if data and data.get("machine"):
            machine = data["machine"]
            break
    head = ["All figures below were measured by the scripts in `bench/` on this project's build "
            "machine, with the baselines run beside graphmem in the same run, and are read from "
            "`bench/results/*.json` by `bench/report.py`. Misses are marked."]
    if machine:
        head.append(f"Machine: {machine.get('cpu')} ({machine.get('cores')} cores), "
                    f"{machine.get('memory_gb')} GB RAM, Python {machine.get('python')}.")
    sections = [*temporal_section(), *write_section(), *locomo_section(), *latency_section(),
                *other_sections(), *first_requests_section()]
    return "\n".join([" ".join(head), "", *sections]).strip()


def main() -> None:
    text = README.read_text()
    block = f"{START}\n{render()}\n{END}"
    README.write_text(re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, text,
                             flags=re.S))
    print(f"updated {README}")


if __name__ == "__main__":
    main()
