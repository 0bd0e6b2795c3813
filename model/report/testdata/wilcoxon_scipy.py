#!/usr/bin/env python3
"""Writes wilcoxon_scipy.json: paired samples and the two-sided p-values
scipy.stats.wilcoxon gives them, the reference of TestWilcoxonScipy
(model/report). Run it from this folder with Debian's Python and
python3-scipy (apt-get install python3-scipy):

    /usr/bin/python3 wilcoxon_scipy.py

Each case holds x, y (accuracies rounded to 1/1000, so that |x − y| ties
and some differences are zero, as test accuracies on a fixed test set do),
"approx": scipy's normal approximation with the tie and continuity
corrections (method="approx", correction=True, zero_method="wilcox": the
zero differences dropped), and, for the cases without ties or zeros,
"exact": scipy's exact p (method="exact").
"""
import json

import numpy as np
import scipy
from scipy.stats import wilcoxon


def case(name, x, y):
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    d = np.array(x) - np.array(y)
    nz = d[d != 0]
    out = {"name": name, "x": x, "y": y, "n": int(nz.size)}
    out["approx"] = float(wilcoxon(x, y, zero_method="wilcox", correction=True,
                                   method="approx").pvalue)
    if nz.size == d.size and np.unique(np.abs(nz)).size == nz.size:
        out["exact"] = float(wilcoxon(x, y, method="exact").pvalue)
    return out


def main():
    rng = np.random.default_rng(54)
    cases = []
    # Without ties or zeros: exact and approximate p, up to and past 64 pairs.
    # |x − y| = k + u_k, k = 1 … n, u_k in [0, 0.5): all distinct; each
    # difference positive with probability up.
    for n, up in [(10, 0.8), (25, 0.5), (40, 0.7), (64, 0.6), (65, 0.6), (100, 0.45)]:
        y = np.round(rng.normal(0, 1, n), 6)
        sign = np.where(rng.uniform(size=n) < up, 1.0, -1.0)
        x = y + sign * (rng.permutation(np.arange(1, n + 1)) + np.round(rng.uniform(0, 0.5, n), 3))
        cases.append(case(f"distinct n={n}", x, y))
    # Accuracies with ties and zero differences, small and large effects.
    for n, effect in [(20, 0.01), (64, 0.0), (65, 0.005), (80, 0.002), (100, 0.01), (150, 0.0), (250, 0.003)]:
        y = np.round(rng.normal(0.8, 0.02, n), 3)
        x = np.round(y + rng.normal(effect, 0.01, n), 3)
        cases.append(case(f"accuracies n={n} effect {effect}", x, y))
    # Every difference the same sign, one tie class.
    cases.append(case("all up by 0.01, n=70", [0.81] * 70, [0.80] * 70))
    with open("wilcoxon_scipy.json", "w") as f:
        json.dump({"scipy": scipy.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


main()
