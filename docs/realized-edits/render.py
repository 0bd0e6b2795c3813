#!/usr/bin/env python3
"""Renders the realized-edits tables of docs/realized-edits from the JSON that
`ohm stats --json` wrote (the same cells as `ohm stats --markdown`: operations,
then after the slash the net change of the edge set, each with its share of
E0). Usage: render.py undirected.json [directed.json] > tables.md"""
import json
import sys


def cell(ops, ops_pct, net, net_pct):
    return f"{ops} ({ops_pct:.1f}%) / {net} ({net_pct:.1f}%)"


def table(runs, title):
    datasets = list(dict.fromkeys(r["dataset"] for r in runs))
    keys = list(dict.fromkeys((r["method"], r["budget"]) for r in runs))
    by = {(r["dataset"], r["method"], r["budget"]): r for r in runs}
    e0 = {r["dataset"]: r["e0"] for r in runs}
    out = [f"### {title}", "", "E0: " + ", ".join(f"{d} {e0[d]}" for d in datasets), ""]
    out.append("| method | budget | " + " | ".join(f"{d} added | {d} removed" for d in datasets) + " |")
    out.append("|---|---:|" + "---:|---:|" * len(datasets))
    notes = []
    for m, b in keys:
        row = [m, f"{b:g}"]
        for d in datasets:
            r = by.get((d, m, b))
            if r is None:
                row += ["—", "—"]
                continue
            row.append(cell(r["added"], r["added_pct"], r.get("added_net", r["added"]), r.get("added_net_pct", r["added_pct"])))
            row.append(cell(r["removed"], r["removed_pct"], r.get("removed_net", r["removed"]), r.get("removed_net_pct", r["removed_pct"])))
            if r.get("stopped_early"):
                notes.append(f"- {d} {m} {b:g}: {r['stopped_early']}")
        out.append("| " + " | ".join(row) + " |")
    if notes:
        out += ["", "Stopped early:"] + notes
    return "\n".join(out) + "\n"


for path in sys.argv[1:]:
    with open(path) as f:
        runs = json.load(f)
    form = runs[0]["form"] if runs else path
    print(table(runs, f"{form} form"))
