package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
)

// SynthOptions configures the built-in synthetic datasets. The zero value is
// the default: seed 0, homophilic SBM.
type SynthOptions struct {
	// Seed makes the graph, features and split reproducible.
	Seed uint64
	// Heterophilic makes the SBM connect mostly nodes of different classes
	// (p_in < p_out) instead of the same class.
	Heterophilic bool
}

// Sizes of the built-in datasets, fixed so that tests and `make run` see the
// same data everywhere.
const (
	bottleneckCliques = 8  // cliques in the ring
	bottleneckSize    = 10 // nodes per clique
	bottleneckClasses = 4  // clique c has label c mod 4
	sbmNodes          = 400
	sbmClasses        = 4
	synthFeatures     = 64 // feature columns; each class owns 16 signature columns
	synthActive       = 8  // active features per node
)

// Bottleneck returns the built-in bottleneck graph: a ring of 8 cliques of 10
// nodes, each clique joined to the next by a single edge (the bottlenecks ERR
// is meant to find). Node c·10+k is node k of clique c; clique c has label
// c mod 4, so same-class cliques sit on opposite sides of the ring and
// information has to cross bottlenecks. Features are sparse and
// class-dependent (see synthFeaturesFor); the split takes 3 training, 3
// validation and 4 test nodes per clique, drawn with the seed. O(n²) at most.
func Bottleneck(opt SynthOptions) *Dataset {
	r := rand.New(rand.NewPCG(opt.Seed, 0xb0771e))
	n := bottleneckCliques * bottleneckSize
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i / bottleneckSize % bottleneckClasses
	}
	sp := cliqueSplit(r, bottleneckCliques, bottleneckSize)
	return &Dataset{
		Name:       "bottleneck",
		Graph:      cliqueRing(bottleneckCliques, bottleneckSize),
		Features:   synthFeaturesFor(r, labels, bottleneckClasses),
		Labels:     labels,
		NumClasses: bottleneckClasses,
		Splits:     []Split{sp},
	}
}

// SBM returns the built-in stochastic block model: 400 nodes in 4 equal
// classes, expected degree about 8. Homophilic (default): an edge inside a
// class with probability p_in = 0.06, across classes p_out = 0.0067;
// heterophilic swaps the roles (p_in = 0.006, p_out = 0.0247), so most edges
// join different classes. Features are class-dependent (synthFeaturesFor);
// its Name is "sbm" or "sbm-heterophilic". The split takes 20 training nodes per class, 100 validation and the rest
// for testing, drawn with the seed. O(n²).
func SBM(opt SynthOptions) *Dataset {
	r := rand.New(rand.NewPCG(opt.Seed, 0x5b3))
	n := sbmNodes
	per := n / sbmClasses
	pIn, pOut := 0.06, 0.0067
	name := "sbm"
	if opt.Heterophilic {
		pIn, pOut = 0.006, 0.0247
		name = "sbm-heterophilic"
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i / per
	}
	g := linalg.NewGraph(n, true)
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := pOut
			if labels[i] == labels[j] {
				p = pIn
			}
			if r.Float64() < p {
				g.AddEdge(i, j)
				g.AddEdge(j, i)
			}
		}
	}
	var sp Split
	perm := r.Perm(n)
	taken := make([]int, sbmClasses)
	var rest []int
	for _, id := range perm {
		if c := labels[id]; taken[c] < 20 {
			taken[c]++
			sp.Train = append(sp.Train, id)
		} else {
			rest = append(rest, id)
		}
	}
	sp.Val, sp.Test = rest[:100], rest[100:]
	sortSplit(&sp)
	return &Dataset{
		Name:       name,
		Graph:      g,
		Features:   synthFeaturesFor(r, labels, sbmClasses),
		Labels:     labels,
		NumClasses: sbmClasses,
		Splits:     []Split{sp},
	}
}

// synthFeaturesFor draws sparse binary features: class c owns columns
// [16c, 16c+16); each node switches on 8 distinct columns, each one from its
// own class's block with probability 0.6 and uniformly from all 64 otherwise,
// so features are informative but noisy.
func synthFeaturesFor(r *rand.Rand, labels []int, classes int) *sparse.CSR {
	if synthFeatures%classes != 0 {
		panic(fmt.Sprintf("dataset: %d classes do not divide %d features", classes, synthFeatures))
	}
	block := synthFeatures / classes
	n := len(labels)
	ia := make([]int, n+1)
	ja := make([]int, 0, n*synthActive)
	for i, y := range labels {
		row := make([]int, 0, synthActive)
		for len(row) < synthActive {
			var f int
			if r.Float64() < 0.6 {
				f = y*block + r.IntN(block)
			} else {
				f = r.IntN(synthFeatures)
			}
			if !slices.Contains(row, f) {
				row = append(row, f)
			}
		}
		slices.Sort(row)
		ja = append(ja, row...)
		ia[i+1] = len(ja)
	}
	data := make([]float64, len(ja))
	for i := range data {
		data[i] = 1
	}
	return sparse.NewCSR(n, synthFeatures, ia, ja, data)
}

func sortSplit(s *Split) {
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
}
