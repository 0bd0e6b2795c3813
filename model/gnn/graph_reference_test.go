package gnn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// graphReference is testdata/graph_reference.json, written by
// testdata/graph_reference.py (pure PyTorch, float64).
type graphReference struct {
	Features, Classes, Hidden, Layers int
	Graphs                            []struct {
		N              int
		X              [][]float64
		Src, Dst, Type []int
		Label          int
	}
	Models []struct {
		Kind, Pool string
		Params     map[string]struct{ Value, Grad [][]float64 }
		Running    map[string]struct{ Mean, Var []float64 }
		Scores     [][]float64
		Loss       float64
		EvalScores [][]float64 `json:"eval_scores"`
	}
	// Plateau is torch's ReduceLROnPlateau (defaults, Adam at 1e-3) stepped
	// on Metrics: the learning rate after each step.
	Plateau struct{ Metrics, LR []float64 }
	// Trajectory is three epochs of GIN with sum pooling, Adam at 1e-2, no
	// dropout, over fixed batches of the graphs.
	Trajectory struct {
		Batches       [][]int
		Before, After map[string][][]float64
		Losses        []float64
		Running       map[string]struct{ Mean, Var []float64 }
		EvalScores    [][]float64 `json:"eval_scores"`
	}
}

// refTol is the largest absolute difference allowed from PyTorch.
const refTol = 1e-5

// TestGraphReference checks GCN, GIN, R-GCN and R-GIN models with mean and
// sum pooling against PyTorch on a batch of eight MUTAG graphs: the pooled
// scores and the cross-entropy in training mode, every parameter's gradient,
// BatchNorm's running statistics after that pass, and the scores in
// evaluation mode, within 1e-5.
func TestGraphReference(t *testing.T) {
	raw, err := os.ReadFile("testdata/graph_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref graphReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	set := &GraphSet{Name: "mutag-batch", Features: ref.Features, Classes: ref.Classes}
	var ids []int
	for i, g := range ref.Graphs {
		it := GraphItem{N: g.N, Src: g.Src, Dst: g.Dst, Type: g.Type, Label: g.Label}
		for _, row := range g.X {
			it.X = append(it.X, row...)
		}
		set.Graphs = append(set.Graphs, it)
		ids = append(ids, i)
	}
	if len(ref.Models) != 8 {
		t.Fatalf("%d reference models, want 8", len(ref.Models))
	}
	for _, rm := range ref.Models {
		t.Run(rm.Kind+"/"+rm.Pool, func(t *testing.T) {
			kind, err := ParseGraphKind(rm.Kind)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := ParsePool(rm.Pool)
			if err != nil {
				t.Fatal(err)
			}
			d, err := NewGraphData(set, kind)
			if err != nil {
				t.Fatal(err)
			}
			b := d.NewBatch(ids)
			m, err := NewGraphModel(GraphArch{Kind: kind, Layers: ref.Layers, In: ref.Features, Hidden: ref.Hidden,
				Classes: ref.Classes, Pool: pl}, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			ps := m.Params()
			if len(ps) != len(rm.Params) {
				t.Fatalf("%d parameters, PyTorch has %d", len(ps), len(rm.Params))
			}
			for _, p := range ps {
				rp, ok := rm.Params[p.Name]
				if !ok {
					t.Fatalf("parameter %s missing from the reference", p.Name)
				}
				setRows(t, p.Name, p.Value, rp.Value)
			}
			scores := m.Forward(b, true)
			grad := mat.NewDense(len(ids), ref.Classes, nil)
			loss := CrossEntropy(scores, b.Labels, ids, grad)
			compare(t, "scores", rawDense(scores), flat(rm.Scores))
			compare(t, "loss", []float64{loss}, []float64{rm.Loss})
			m.Backward(b, grad)
			for _, p := range ps {
				compare(t, p.Name+" gradient", rawDense(p.Grad), flat(rm.Params[p.Name].Grad))
			}
			bns := m.BatchNorms()
			if len(bns) != len(rm.Running) {
				t.Fatalf("%d BatchNorms, PyTorch has %d", len(bns), len(rm.Running))
			}
			for _, bn := range bns {
				name := bn.Gamma.Name[:len(bn.Gamma.Name)-len(".weight")]
				r, ok := rm.Running[name]
				if !ok {
					t.Fatalf("BatchNorm %s missing from the reference", name)
				}
				compare(t, name+" running mean", bn.RunMean, r.Mean)
				compare(t, name+" running var", bn.RunVar, r.Var)
			}
			compare(t, "evaluation scores", rawDense(m.Forward(b, false)), flat(rm.EvalScores))
		})
	}
}

// TestGraphTrajectoryReference trains GIN (sum pooling) for three epochs of
// two fixed batches with Adam, as the reference did in PyTorch: the six
// losses, the weights and running statistics after, and the evaluation
// scores agree within 1e-5. (The Linear bias before each BatchNorm has a
// gradient of zero up to rounding, which Adam turns into steps that differ
// between the two by about 1e-8; through the running means the evaluation
// scores then differ by about 1e-7, everything else by 1e-14.)
func TestGraphTrajectoryReference(t *testing.T) {
	raw, err := os.ReadFile("testdata/graph_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref graphReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	tr := ref.Trajectory
	set := &GraphSet{Name: "mutag-batch", Features: ref.Features, Classes: ref.Classes}
	var all []int
	for i, g := range ref.Graphs {
		it := GraphItem{N: g.N, Src: g.Src, Dst: g.Dst, Type: g.Type, Label: g.Label}
		for _, row := range g.X {
			it.X = append(it.X, row...)
		}
		set.Graphs = append(set.Graphs, it)
		all = append(all, i)
	}
	d, err := NewGraphData(set, GraphGIN)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewGraphModel(GraphArch{Kind: GraphGIN, Layers: ref.Layers, In: ref.Features, Hidden: ref.Hidden,
		Classes: ref.Classes, Pool: PoolSum}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Losses) != 6 || len(tr.Before) != len(m.Params()) {
		t.Fatalf("reference: %d losses, %d parameters (ohm %d)", len(tr.Losses), len(tr.Before), len(m.Params()))
	}
	for _, p := range m.Params() {
		setRows(t, p.Name, p.Value, tr.Before[p.Name])
	}
	opt := NewAdam(1e-2)
	step := 0
	for range 3 {
		for _, ids := range tr.Batches {
			b := d.NewBatch(ids)
			g := mat.NewDense(len(ids), ref.Classes, nil)
			rows := make([]int, len(ids))
			for i := range rows {
				rows[i] = i
			}
			loss := CrossEntropy(m.Forward(b, true), b.Labels, rows, g)
			compare(t, fmt.Sprintf("loss of step %d", step+1), []float64{loss}, []float64{tr.Losses[step]})
			m.Backward(b, g)
			opt.Step(m.Params())
			step++
		}
	}
	for _, p := range m.Params() {
		compare(t, p.Name+" after training", rawDense(p.Value), flat(tr.After[p.Name]))
	}
	for _, bn := range m.BatchNorms() {
		name := bn.Gamma.Name[:len(bn.Gamma.Name)-len(".weight")]
		compare(t, name+" running mean", bn.RunMean, tr.Running[name].Mean)
		compare(t, name+" running var", bn.RunVar, tr.Running[name].Var)
	}
	compare(t, "evaluation scores", rawDense(m.Forward(d.NewBatch(all), false)), flat(tr.EvalScores))
}

// TestPlateauReference steps Plateau on the metrics torch's
// ReduceLROnPlateau was stepped on (testdata/graph_reference.py) and
// expects the same learning rate, bit for bit, after every step.
func TestPlateauReference(t *testing.T) {
	raw, err := os.ReadFile("testdata/graph_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref graphReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Plateau.Metrics) < 50 || len(ref.Plateau.Metrics) != len(ref.Plateau.LR) {
		t.Fatalf("%d metrics, %d rates", len(ref.Plateau.Metrics), len(ref.Plateau.LR))
	}
	opt, p := NewAdam(1e-3), NewPlateau()
	drops := 0
	for i, m := range ref.Plateau.Metrics {
		if p.Step(m, opt) {
			drops++
		}
		if opt.LR != ref.Plateau.LR[i] {
			t.Fatalf("step %d (metric %v): lr %v, torch %v", i+1, m, opt.LR, ref.Plateau.LR[i])
		}
	}
	if drops < 3 {
		t.Errorf("only %d reductions: the sequence tests little", drops)
	}
}

// setRows copies the reference rows into v, failing on a shape mismatch.
func setRows(t *testing.T, name string, v *mat.Dense, rows [][]float64) {
	t.Helper()
	r, c := v.Dims()
	if len(rows) != r || len(rows[0]) != c {
		t.Fatalf("%s: ohm's shape %d×%d, PyTorch's %d×%d", name, r, c, len(rows), len(rows[0]))
	}
	for i, row := range rows {
		v.SetRow(i, row)
	}
}

// flat concatenates rows.
func flat(rows [][]float64) []float64 {
	var f []float64
	for _, r := range rows {
		f = append(f, r...)
	}
	return f
}

// compare fails unless got and want have the same length and agree within
// refTol everywhere.
func compare(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, PyTorch has %d", what, len(got), len(want))
	}
	worst := 0.0
	for k := range got {
		worst = max(worst, math.Abs(got[k]-want[k]))
	}
	if worst > refTol || math.IsNaN(worst) {
		t.Errorf("%s: largest difference from PyTorch %.3g > %g", what, worst, refTol)
	} else if testing.Verbose() {
		t.Logf("%s: largest difference %.2g", what, worst)
	}
}
