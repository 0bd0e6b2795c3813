package bench

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// cora returns the undirected Cora graph, or skips.
func cora(b *testing.B) *linalg.Graph {
	root := datatest.Root(b, "Cora/raw/ind.cora.x")
	d, err := (&dataset.Locator{DataDir: root}).Load("cora", dataset.SynthOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return d.Graph.Undirected()
}

// stream reads and writes every element of a once, split over w goroutines:
// the memory traffic of a rank-one update of the stored triangle, without the
// arithmetic.
func stream(a []float64, w int) {
	var wg sync.WaitGroup
	for t := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a[len(a)*t/w : len(a)*(t+1)/w]
			for i := range s {
				s[i] = s[i]*0.5 + 1
			}
		}()
	}
	wg.Wait()
}

// timeOp returns the median time of k runs of f.
func timeOp(k int, f func()) time.Duration {
	ts := make([]time.Duration, k)
	for i := range ts {
		t0 := time.Now()
		f()
		ts[i] = time.Since(t0)
	}
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			if ts[j] < ts[i] {
				ts[i], ts[j] = ts[j], ts[i]
			}
		}
	}
	return ts[k/2]
}

// BenchmarkUndirectedStep measures one undirected edit of the incremental
// engine on Cora (n = 2708): a Sherman–Morrison update of the stored triangle
// of L⁺ fused with the scan for the most resistant pair, alternately adding
// and removing a non-edge inside the largest component. Besides ns/op it
// reports x-stream (the step as a multiple of one read+write pass over a
// buffer the size of the stored triangle, same thread count; target ≤ 3) and
// exact/step (how many steps fit in one exact recomputation of L⁺; target ≥
// 500).
func BenchmarkUndirectedStep(b *testing.B) {
	g := cora(b)
	t0 := time.Now()
	e, err := incremental.NewUndirected(g, incremental.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	exact := time.Since(t0)
	// A non-edge inside the largest component (both ends in node 0's).
	u, v := 0, -1
	for j := 1; j < g.N(); j++ {
		if e.Component(j) == e.Component(0) && !g.HasEdge(0, j) {
			v = j
			break
		}
	}
	stored := make([]float64, g.N()*(g.N()+1)/2)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", w), func(b *testing.B) {
			e.SetWorkers(w)
			st := timeOp(15, func() { stream(stored, w) })
			b.ResetTimer()
			for k := 0; b.Loop(); k++ {
				if k%2 == 0 {
					err = e.Add(u, v)
				} else {
					err = e.Remove(u, v)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			step := float64(b.Elapsed()) / float64(b.N)
			b.ReportMetric(step/float64(st), "x-stream")
			b.ReportMetric(float64(exact)/step, "exact/step")
			b.ReportMetric(float64(st)/1e6, "stream-ms")
		})
	}
}
