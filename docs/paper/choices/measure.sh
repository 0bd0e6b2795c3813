#!/bin/sh
# The measurements behind the training defaults (docs/paper/README.md, "The
# two training choices"): every combination of --features and --pairnorm-at
# on Cornell and Texas (undirected GCN, directed GCN and DirGCN; PairNorm
# no/yes; depths 1–12; the 10 splits; none and err at 10 %), and PairNorm
# before/after the ReLU on Cora and CiteSeer (GCN, 10 seeds, none and err at
# 10 %). Resumable: run it again to continue. OHM names the binary.
# On 2026-11-26 its pieces ran side by side into copies (a sweep locks its
# results file): raw.jsonl (raw, after the ReLU), raw-pre.jsonl (raw, before),
# planetoid-post.jsonl; evidence.py reads them all together.
set -e
OHM=${OHM:-ohm}
R=${R:-docs/paper/choices/results.jsonl}
COMMON="--results $R --methods none,err --budgets 0.1 --depths 1-12 --pairnorm no,yes"
for features in row raw; do
	for at in pre post; do
		$OHM --threads 1 sweep $COMMON --datasets cornell,texas --splits all \
			--forms undirected --models gcn --features $features --pairnorm-at $at
		$OHM --threads 1 sweep $COMMON --datasets cornell,texas --splits all \
			--forms directed --models gcn,dirgcn --features $features --pairnorm-at $at
	done
done
for at in pre post; do
	$OHM --threads 1 sweep $COMMON --datasets cora,citeseer --seeds 10 \
		--forms undirected --models gcn --features row --pairnorm-at $at
done
