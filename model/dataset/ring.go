package dataset

import (
	"math/rand/v2"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
)

// ringOwn is the class each clique of the ring task "shows" in its
// features; a node's label is the class its opposite clique shows. The
// opposite pairs (0,4), (1,5), (2,6), (3,7) show (0,1), (0,2), (1,3), (2,3):
// every shown class has two opposite classes, so a node's own features
// leave its label to a coin toss, and only the far side of the ring decides.
var ringOwn = [bottleneckCliques]int{0, 0, 1, 2, 1, 2, 3, 3}

// Ring returns the built-in long-range task on the bottleneck ring: 8
// cliques of 10 nodes joined in a ring by single edges, as Bottleneck, but
// the features of clique c carry the class ringOwn[c] while its nodes' label
// is ringOwn[(c+4) mod 8], the class of the clique opposite — four
// bottlenecks away. Features are the one-hot code of the shown class, the
// same for every node of a clique, so no clique has a fingerprint a model
// could memorize its label by. A shallow GCN sees only its own side (at best half
// right from its features); a deep one must carry the signal through the
// bridges, where it is squashed; rewiring that joins far-apart, highly
// resistant pairs gives it a short path. The split takes 3 training, 3
// validation and 4 test nodes per clique, drawn with the seed. O(n²).
func Ring(opt SynthOptions) *Dataset {
	r := rand.New(rand.NewPCG(opt.Seed, 0x51e6))
	n := bottleneckCliques * bottleneckSize
	g := cliqueRing(bottleneckCliques, bottleneckSize)
	own := make([]int, n)
	labels := make([]int, n)
	for c := range bottleneckCliques {
		for i := range bottleneckSize {
			own[c*bottleneckSize+i] = ringOwn[c]
			labels[c*bottleneckSize+i] = ringOwn[(c+bottleneckCliques/2)%bottleneckCliques]
		}
	}
	return &Dataset{
		Name:       "ring",
		Graph:      g,
		Features:   oneHot(own, bottleneckClasses),
		Labels:     labels,
		NumClasses: bottleneckClasses,
		Splits:     []Split{cliqueSplit(r, bottleneckCliques, bottleneckSize)},
	}
}

// cliqueRing returns k cliques of size s (both arcs of every edge), node
// c·s+i being node i of clique c, the last node of clique c joined to the
// first of clique c+1 (mod k).
func cliqueRing(k, s int) *linalg.Graph {
	g := linalg.NewGraph(k*s, true)
	for c := range k {
		base := c * s
		for i := range s {
			for j := range s {
				if i != j {
					g.AddEdge(base+i, base+j)
				}
			}
		}
		u, v := base+s-1, ((c+1)%k)*s
		g.AddEdge(u, v)
		g.AddEdge(v, u)
	}
	return g
}

// cliqueSplit draws 3 training, 3 validation and 4 test nodes (the rest of
// a 10-node clique) in every clique.
func cliqueSplit(r *rand.Rand, k, s int) Split {
	var sp Split
	for c := range k {
		for j, p := range r.Perm(s) {
			id := c*s + p
			switch {
			case j < 3:
				sp.Train = append(sp.Train, id)
			case j < 6:
				sp.Val = append(sp.Val, id)
			default:
				sp.Test = append(sp.Test, id)
			}
		}
	}
	sortSplit(&sp)
	return sp
}

// oneHot returns the n×classes one-hot rows of labels.
func oneHot(labels []int, classes int) *sparse.CSR {
	n := len(labels)
	ia := make([]int, n+1)
	ja := make([]int, n)
	data := make([]float64, n)
	for i, y := range labels {
		ia[i+1] = i + 1
		ja[i] = y
		data[i] = 1
	}
	return sparse.NewCSR(n, classes, ia, ja, data)
}
