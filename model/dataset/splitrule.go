package dataset

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Split rule kinds.
const (
	// RuleRandom splits the nodes at random by fractions: the first
	// round(train·n) nodes of a random permutation train, the next
	// round(val·n) validate, the next round(test·n) test (fewer when the
	// fractions sum to 1 and rounding would overshoot n).
	RuleRandom = "random"
	// RulePerClass is Planetoid's random split (PyG's RandomNodeSplit with
	// num_train_per_class, num_val, num_test): train nodes of each class
	// (all of a smaller class), then val and test nodes from the rest.
	RulePerClass = "per-class"
)

// SplitRule makes train/validation/test splits for a dataset whose file
// holds no masks (or to replace them). Written "random:TRAIN,VAL,TEST" with
// fractions in (0, 1) summing to at most 1 (e.g. random:0.6,0.2,0.2, the
// Geom-GCN proportions), or "per-class:TRAIN,VAL,TEST" with counts ≥ 1
// (e.g. per-class:20,500,1000, Planetoid's).
type SplitRule struct {
	Kind             string  // RuleRandom or RulePerClass
	Train, Val, Test float64 // fractions (random) or counts (per-class)
}

// ParseSplitRule parses a split rule. Its errors say what is wrong and
// which rules exist.
func ParseSplitRule(s string) (SplitRule, error) {
	kind, args, ok := strings.Cut(strings.TrimSpace(s), ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	if kind != RuleRandom && kind != RulePerClass {
		return SplitRule{}, fmt.Errorf("%q: want random:TRAIN,VAL,TEST (fractions, e.g. random:0.6,0.2,0.2) or per-class:TRAIN,VAL,TEST (counts, e.g. per-class:20,500,1000)", s)
	}
	f := strings.Split(args, ",")
	if !ok || len(f) != 3 {
		return SplitRule{}, fmt.Errorf("%q: want three numbers after %s:, train, val and test", s, kind)
	}
	var v [3]float64
	for i, x := range f {
		var err error
		if kind == RulePerClass {
			var c int
			c, err = strconv.Atoi(strings.TrimSpace(x))
			v[i] = float64(c)
			if err == nil && c < 1 {
				err = fmt.Errorf("below 1")
			}
		} else {
			v[i], err = strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err == nil && !(v[i] > 0 && v[i] < 1) {
				err = fmt.Errorf("outside (0, 1)")
			}
		}
		if err != nil {
			what := "a count ≥ 1"
			if kind == RuleRandom {
				what = "a fraction in (0, 1)"
			}
			return SplitRule{}, fmt.Errorf("%q: %q is not %s", s, strings.TrimSpace(x), what)
		}
	}
	if kind == RuleRandom && v[0]+v[1]+v[2] > 1+1e-9 {
		return SplitRule{}, fmt.Errorf("%q: the fractions sum to %.4g, more than 1", s, v[0]+v[1]+v[2])
	}
	return SplitRule{Kind: kind, Train: v[0], Val: v[1], Test: v[2]}, nil
}

// String returns the rule in its canonical form, e.g. "random:0.6,0.2,0.2".
func (r SplitRule) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("%s:%s,%s,%s", r.Kind, g(r.Train), g(r.Val), g(r.Test))
}

// Apply replaces d's splits by count splits made by the rule: split k is
// drawn with the seed (seed, k) alone (a PCG stream and Fisher–Yates
// shuffles), so asking for more splits keeps the first ones. The same
// inputs give the same splits on every platform. Splits are not PyTorch's:
// the random numbers differ. An error says why the rule does not fit d
// (an empty part, too few nodes). O(count·n).
func (r SplitRule) Apply(d *Dataset, seed uint64, count int) error {
	splits := make([]Split, count)
	for k := range splits {
		sp, err := r.split(d.Labels, d.NumClasses, seed, k)
		if err != nil {
			return fmt.Errorf("split rule %s on %s (%d nodes): %w", r, d.Name, len(d.Labels), err)
		}
		splits[k] = sp
	}
	d.Splits = splits
	return nil
}

// split makes split k.
func (r SplitRule) split(labels []int, classes int, seed uint64, k int) (Split, error) {
	n := len(labels)
	rng := &shuffler{src: rand.NewPCG(seed, uint64(k))}
	var sp Split
	switch r.Kind {
	case RuleRandom:
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		rng.shuffle(perm)
		round := func(f float64) int { return int(math.Floor(f*float64(n) + 0.5)) }
		ntr, nva := round(r.Train), round(r.Val)
		nte := min(round(r.Test), n-ntr-nva)
		if ntr < 1 || nva < 1 || nte < 1 {
			return sp, fmt.Errorf("%d train, %d val and %d test nodes: every part needs at least one", ntr, nva, max(nte, 0))
		}
		sp = Split{Train: perm[:ntr], Val: perm[ntr : ntr+nva], Test: perm[ntr+nva : ntr+nva+nte]}
	case RulePerClass:
		byClass := make([][]int, classes)
		for i, y := range labels {
			byClass[y] = append(byClass[y], i)
		}
		train := make([]bool, n)
		for _, ids := range byClass {
			rng.shuffle(ids)
			for _, i := range ids[:min(len(ids), int(r.Train))] {
				train[i] = true
				sp.Train = append(sp.Train, i)
			}
		}
		var rest []int
		for i := range n {
			if !train[i] {
				rest = append(rest, i)
			}
		}
		nva, nte := int(r.Val), int(r.Test)
		if len(rest) < nva+nte {
			return sp, fmt.Errorf("%d nodes left after %d train nodes, fewer than %d val + %d test", len(rest), len(sp.Train), nva, nte)
		}
		rng.shuffle(rest)
		sp.Val, sp.Test = rest[:nva], rest[nva:nva+nte]
	default:
		return sp, fmt.Errorf("dataset: unknown rule kind %q", r.Kind)
	}
	for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
		slices.Sort(part)
	}
	return sp, nil
}

// shuffler shuffles with a fixed algorithm over a PCG stream (math/rand's
// own Shuffle may change between Go releases).
type shuffler struct{ src *rand.PCG }

// below returns a uniform integer in [0, m), m ≥ 1 (Lemire's method).
func (s *shuffler) below(m uint64) uint64 {
	hi, lo := bits.Mul64(s.src.Uint64(), m)
	if lo < m {
		thresh := -m % m
		for lo < thresh {
			hi, lo = bits.Mul64(s.src.Uint64(), m)
		}
	}
	return hi
}

// shuffle permutes v in place (Fisher–Yates).
func (s *shuffler) shuffle(v []int) {
	for i := len(v) - 1; i > 0; i-- {
		j := s.below(uint64(i + 1))
		v[i], v[j] = v[j], v[i]
	}
}
