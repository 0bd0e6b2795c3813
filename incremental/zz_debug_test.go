package incremental

import (
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
)

func TestZZDebug(t *testing.T) {
	d, err := (&dataset.Locator{DataDir: "/work/shared/data"}).Load("cora", dataset.SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graph.Undirected()
	ex, _ := NewUndirected(g, Options{})
	sk, err := NewSketch(g, SketchOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	isc := map[int]bool{}
	for _, c := range sk.cand {
		isc[sk.kept[c]] = true
	}
	top := Top(g.N(), 30, false, func(i, j int) (float64, bool) { return ex.R(i, j), true })
	for _, p := range top {
		t.Logf("%d-%d R %.4f cand %v %v  comp %d %d  diag %.3f %.3f", p.U, p.V, p.Score, isc[p.U], isc[p.V], ex.Component(p.U), ex.Component(p.V), ex.Pinv(p.U, p.U), ex.Pinv(p.V, p.V))
	}
	t.Logf("candidates %d kept %d", len(sk.cand), len(sk.kept))
}
