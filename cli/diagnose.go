package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/rewire"
)

// MethodNone names the original graph in --methods of `ohm diagnose`.
const MethodNone = "none"

// DiagnoseCmd is `ohm diagnose`: representation diagnostics (SPEC §5) of
// models trained on the original and on rewired graphs.
type DiagnoseCmd struct {
	Datasets []string `required:"" help:"Comma-separated datasets: cora, citeseer, cornell, texas, bottleneck, sbm."`
	Methods  []string `required:"" help:"Comma-separated graphs to train on: none (the original graph), res, res-hop, err, err-hop, curvature."`
	Budget   float64  `required:"" short:"r" help:"Rewiring budget r in (0, 1]: B = floor(r·E0) iterations."`
	Depths   []string `required:"" help:"Comma-separated model depths L ≥ 1."`
	Directed bool     `help:"Use the directed form and DirGCN (default: the undirected form and GCN)."`
	Seed     uint64   `default:"0" help:"Seed of every training run (and of the cosine pair sample)."`
	Split    int      `default:"0" help:"Split K (0-based) to train on; its training nodes fit the probes, its test nodes score them."`
	Alpha    float64  `default:"0.5" help:"curvature: laziness α of the measures, in [0, 1]."`
	Out      string   `default:"." type:"path" help:"Folder to write diagnostics.json to (must exist)."`
	JSON     bool     `name:"json" help:"Print the diagnostics JSON instead of the text summary."`
}

// DiagnoseSpec is what `ohm diagnose` computes; RunDiagnostics checks it.
// Methods are "none" (the original graph) and rewire's methods; Depths are
// model depths L ≥ 1; Split indexes the dataset's splits; Alpha is the
// curvature baseline's laziness.
type DiagnoseSpec struct {
	Datasets []string
	Methods  []string
	Budget   float64
	Depths   []int
	Directed bool
	Seed     uint64
	Split    int
	Alpha    float64
}

// DiagnosticsFile is the name of the file `ohm diagnose` writes in --out.
const DiagnosticsFile = "diagnostics.json"

// spec parses the flags into a DiagnoseSpec (checked by RunDiagnostics).
func (c *DiagnoseCmd) spec() (DiagnoseSpec, error) {
	s := DiagnoseSpec{Budget: c.Budget, Directed: c.Directed, Seed: c.Seed, Split: c.Split, Alpha: c.Alpha}
	var err error
	if s.Datasets, err = splitList("--datasets", c.Datasets); err != nil {
		return s, err
	}
	if s.Methods, err = splitList("--methods", c.Methods); err != nil {
		return s, err
	}
	ds, err := splitList("--depths", c.Depths)
	if err != nil {
		return s, err
	}
	for _, d := range ds {
		L, err := strconv.Atoi(d)
		if err != nil {
			return s, usagef("--depths: %q is not an integer", d)
		}
		s.Depths = append(s.Depths, L)
	}
	return s, nil
}

// Run checks the flags and --out, computes the diagnostics, writes
// DIR/diagnostics.json atomically and prints the summary (or the JSON).
func (c *DiagnoseCmd) Run(g *Globals) error {
	spec, err := c.spec()
	if err != nil {
		return err
	}
	if _, err := spec.check(); err != nil {
		return err
	}
	st, err := os.Stat(c.Out)
	if err != nil {
		return fmt.Errorf("--out %s: %w", c.Out, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--out %s: not a directory", c.Out)
	}
	diag, err := RunDiagnostics(g, spec)
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, DiagnosticsFile)
	if err := graphio.WriteFileAtomic(path, func(w io.Writer) error { return writeJSON(w, diag) }); err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if !g.Quiet {
		fmt.Fprintf(g.Stderr, "wrote %s\n", path)
	}
	if c.JSON {
		return writeJSON(g.Stdout, diag)
	}
	return printDiagnostics(g.Stdout, spec, diag)
}

// check validates spec and returns it normalised (lower-case names); every
// problem is a usage error (exit status 2).
func (s DiagnoseSpec) check() (DiagnoseSpec, error) {
	out := s
	out.Datasets, out.Methods = nil, nil
	if len(s.Datasets) == 0 {
		return s, usagef("--datasets: empty list")
	}
	known := dataset.Names()
	for _, n := range s.Datasets {
		l := strings.ToLower(strings.TrimSpace(n))
		if !slices.Contains(known, l) {
			return s, usagef("--datasets: unknown dataset %q (known: %s)", n, strings.Join(known, ", "))
		}
		if slices.Contains(out.Datasets, l) {
			return s, usagef("--datasets: %s given twice", l)
		}
		out.Datasets = append(out.Datasets, l)
	}
	if len(s.Methods) == 0 {
		return s, usagef("--methods: empty list")
	}
	for _, m := range s.Methods {
		l := strings.ToLower(strings.TrimSpace(m))
		if l != MethodNone {
			pm, err := rewire.ParseMethod(l)
			if err != nil {
				return s, usagef("--methods: %v (or %s for the original graph)", err, MethodNone)
			}
			l = string(pm)
		}
		if slices.Contains(out.Methods, l) {
			return s, usagef("--methods: %s given twice", l)
		}
		out.Methods = append(out.Methods, l)
	}
	if !(s.Budget > 0 && s.Budget <= 1) {
		return s, usagef("--budget %v: must lie in (0, 1] (a fraction of E0, e.g. 0.05)", s.Budget)
	}
	if len(s.Depths) == 0 {
		return s, usagef("--depths: empty list")
	}
	for i, L := range s.Depths {
		if L < 1 {
			return s, usagef("--depths: depth %d must be ≥ 1", L)
		}
		if slices.Contains(s.Depths[:i], L) {
			return s, usagef("--depths: %d given twice", L)
		}
	}
	if s.Split < 0 {
		return s, usagef("--split %d: must be ≥ 0", s.Split)
	}
	if err := rewire.ValidateAlpha(s.Alpha); err != nil {
		return s, usagef("--alpha %v: must lie in [0, 1]", s.Alpha)
	}
	return out, nil
}

// diagJob is one training of RunDiagnostics and what it measured.
type diagJob struct {
	method int // index into the methods
	depth  int // L
	cosine []diagnose.Cosine
	probe  []diagnose.Probe
	last   *mat.Dense // last layer's embedding (logits), all nodes
	err    error
}

// RunDiagnostics computes the diagnostics of SPEC §5 for spec. For each
// dataset (loaded by g's locator, built-in ones with their default options)
// it takes the undirected form with GCN (directed: the arcs with DirGCN),
// rewires it with each method (none: the original graph; rewire.Run, or
// rewire.RunCurvature with spec.Alpha, with spec.Budget and g.Workers()
// workers), and trains one model per (method, depth) with gnn.Defaults of the
// dataset, the depth, split spec.Split and seed spec.Seed. The model's
// weights are those of its best validation epoch (earliest on ties), the one
// whose test accuracy `ohm train` reports. Of each model it measures, from
// gnn.Model.Embeddings (each layer's convolution output, eval mode):
//
//   - Cosine for every layer 1..L over all nodes (diagnose.MeanAbsCosine,
//     at most 10⁶ pairs, sampled with spec.Seed);
//   - Probe for every inner layer ℓ < L (diagnose.LinearProbe fitted on the
//     split's training nodes with l2 = 1/#training nodes, scikit-learn's C =
//     1, scored on its test nodes);
//   - CKA, when curvature is among the methods, between the curvature
//     model's last layer and every other method's, per depth, on all nodes;
//
// and, when some methods rewire, one Overlap of their added-edge sets: the
// pairs their edit logs add (undirected as U < V, directed as arcs; an edge
// added and later removed counts as added).
//
// Entries come in the order dataset, method, depth, layer as given. The
// trainings of one dataset run on g.Workers() goroutines; the result does not
// depend on their number. A progress bar counts the trainings when g draws
// progress. Errors in spec are usage errors (exit status 2 from the CLI), as
// is a split the dataset does not have.
func RunDiagnostics(g *Globals, spec DiagnoseSpec) (*diagnose.Diagnostics, error) {
	spec, err := spec.check()
	if err != nil {
		return nil, err
	}
	kind := gnn.GCN
	if spec.Directed {
		kind = gnn.DirGCN
	}
	// Load every dataset first: a missing file fails before any work.
	ds := make([]*dataset.Dataset, len(spec.Datasets))
	for i, name := range spec.Datasets {
		if ds[i], err = g.Locator().Load(name, dataset.SynthOptions{}); err != nil {
			return nil, err
		}
		if spec.Split >= len(ds[i].Splits) {
			return nil, usagef("--split %d: %s has %d split(s), 0..%d", spec.Split, ds[i].Name, len(ds[i].Splits), len(ds[i].Splits)-1)
		}
	}
	diag := &diagnose.Diagnostics{Cosine: []diagnose.Cosine{}, Probe: []diagnose.Probe{},
		CKA: []diagnose.CKA{}, Overlap: []diagnose.Overlap{}}
	b := newBar(g, len(ds)*len(spec.Methods)*len(spec.Depths), "diagnose")
	defer b.finish()
	for _, d := range ds {
		if err := diagnoseDataset(g, spec, d, kind, diag, b); err != nil {
			return nil, err
		}
	}
	return diag, nil
}

// diagnoseDataset appends the diagnostics of one dataset to diag.
func diagnoseDataset(g *Globals, spec DiagnoseSpec, d *dataset.Dataset, kind gnn.Kind, diag *diagnose.Diagnostics, b *bar) error {
	gr := d.Graph
	if !spec.Directed {
		gr = gr.Undirected()
	}
	// Rewire.
	datas := make([]*gnn.Data, len(spec.Methods))
	added := map[string][]linalg.Edge{}
	var rewiring []string
	for i, m := range spec.Methods {
		graph := gr
		if m != MethodNone {
			b.describe(fmt.Sprintf("%s: rewiring %s", d.Name, m))
			cfg := rewire.Config{Method: rewire.Method(m), Budget: spec.Budget, Workers: g.Workers()}
			cfg.Alpha = &spec.Alpha
			res, err := rewire.Run(gr, cfg)
			if err != nil {
				return fmt.Errorf("diagnose %s: rewire %s: %w", d.Name, m, err)
			}
			graph = res.Graph
			edges := []linalg.Edge{}
			for _, e := range res.Log {
				if e.Op == "add" {
					edges = append(edges, linalg.Edge{U: e.U, V: e.V})
				}
			}
			added[m] = edges
			rewiring = append(rewiring, m)
		}
		var err error
		if datas[i], err = gnn.NewData(d, graph, kind); err != nil {
			return fmt.Errorf("diagnose %s (%s): %w", d.Name, m, err)
		}
	}
	// Train and measure, one job per (method, depth).
	b.describe(fmt.Sprintf("%s: training", d.Name))
	var jobs []*diagJob
	for i := range spec.Methods {
		for _, L := range spec.Depths {
			jobs = append(jobs, &diagJob{method: i, depth: L})
		}
	}
	next := make(chan *diagJob)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(1, min(g.Workers(), len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j.err = diagnoseModel(spec, d, datas[j.method], spec.Methods[j.method], kind, j)
				mu.Lock()
				b.add(1)
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	last := map[string]map[int]*mat.Dense{}
	for _, j := range jobs {
		if j.err != nil {
			return fmt.Errorf("diagnose %s (%s, depth %d): %w", d.Name, spec.Methods[j.method], j.depth, j.err)
		}
		diag.Cosine = append(diag.Cosine, j.cosine...)
		diag.Probe = append(diag.Probe, j.probe...)
		m := spec.Methods[j.method]
		if last[m] == nil {
			last[m] = map[int]*mat.Dense{}
		}
		last[m][j.depth] = j.last
	}
	curv := string(rewire.Curvature)
	if slices.Contains(spec.Methods, curv) {
		for _, m := range spec.Methods {
			if m == curv {
				continue
			}
			for _, L := range spec.Depths {
				diag.CKA = append(diag.CKA, diagnose.CKA{Dataset: d.Name, Method: m, Depth: L,
					CKA: diagnose.LinearCKA(last[curv][L], last[m][L])})
			}
		}
	}
	if len(rewiring) > 0 {
		diag.Overlap = append(diag.Overlap, diagnose.EdgeOverlap(d.Name, spec.Budget, rewiring, added))
	}
	return nil
}

// diagnoseModel trains the depth-j.depth model of method on data and fills
// j's measurements.
func diagnoseModel(spec DiagnoseSpec, d *dataset.Dataset, data *gnn.Data, method string, kind gnn.Kind, j *diagJob) error {
	cfg := gnn.Defaults(d.Name)
	cfg.Kind, cfg.Layers = kind, j.depth
	model, err := trainBest(data, cfg, spec.Split, spec.Seed)
	if err != nil {
		return err
	}
	emb := model.Embeddings(data.X)
	n := d.N()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	sp := data.Splits[spec.Split]
	ytr, yte := pick(data.Labels, sp.Train), pick(data.Labels, sp.Test)
	for l, h := range emb {
		same, diff := diagnose.MeanAbsCosine(h, data.Labels, all, diagnose.DefaultMaxPairs, spec.Seed)
		j.cosine = append(j.cosine, diagnose.Cosine{Dataset: d.Name, Method: method, Depth: j.depth,
			Layer: l + 1, Same: same, Diff: diff})
		if l == len(emb)-1 {
			break
		}
		acc, err := diagnose.LinearProbe(rows(h, sp.Train), rows(h, sp.Test), ytr, yte, data.Classes,
			1/float64(len(sp.Train)))
		if err != nil {
			return fmt.Errorf("layer %d: %w", l+1, err)
		}
		j.probe = append(j.probe, diagnose.Probe{Dataset: d.Name, Method: method, Depth: j.depth, Layer: l + 1, Acc: acc})
	}
	j.last = emb[len(emb)-1]
	return nil
}

// trainBest trains cfg on split k from seed for cfg.Epochs epochs and
// returns the model with the weights of its best validation epoch (earliest
// on ties).
func trainBest(data *gnn.Data, cfg gnn.Config, k int, seed uint64) (*gnn.Model, error) {
	tr, err := gnn.NewTrainer(data, cfg, k, seed)
	if err != nil {
		return nil, err
	}
	params := tr.Model().Params()
	best := make([]*mat.Dense, len(params))
	for i, p := range params {
		best[i] = mat.DenseCopyOf(p.Value)
	}
	for range cfg.Epochs {
		st := tr.Epoch()
		if tr.Result().BestEpoch == st.Epoch {
			for i, p := range params {
				best[i].Copy(p.Value)
			}
		}
	}
	for i, p := range params {
		p.Value.Copy(best[i])
	}
	return tr.Model(), nil
}

// rows returns the rows ids of h as a new matrix.
func rows(h *mat.Dense, ids []int) *mat.Dense {
	_, c := h.Dims()
	out := mat.NewDense(len(ids), c, nil)
	for r, i := range ids {
		out.SetRow(r, h.RawRowView(i))
	}
	return out
}

func pick(labels, ids []int) []int {
	out := make([]int, len(ids))
	for r, i := range ids {
		out[r] = labels[i]
	}
	return out
}

// printDiagnostics writes the text summary: per dataset, one line per
// (method, depth) with the last layer's cosines, the probe accuracies by
// layer and the CKA with curvature; then the edge overlap.
func printDiagnostics(w io.Writer, spec DiagnoseSpec, diag *diagnose.Diagnostics) error {
	spec, _ = spec.check()
	form, model := "undirected", "gcn"
	if spec.Directed {
		form, model = "directed", "dirgcn"
	}
	for di, name := range spec.Datasets {
		if di > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s, %s), budget %g, seed %d, split %d\n", name, form, model, spec.Budget, spec.Seed, spec.Split)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "method\tL\tcos same\tcos diff\tprobe acc, layers 1..L-1\tcka vs curvature")
		for _, m := range spec.Methods {
			for _, L := range spec.Depths {
				var same, diff float64
				for _, c := range diag.Cosine {
					if c.Dataset == name && c.Method == m && c.Depth == L && c.Layer == L {
						same, diff = c.Same, c.Diff
					}
				}
				var probes []string
				for _, p := range diag.Probe {
					if p.Dataset == name && p.Method == m && p.Depth == L {
						probes = append(probes, fmt.Sprintf("%.3f", p.Acc))
					}
				}
				pr := "-"
				if len(probes) > 0 {
					pr = strings.Join(probes, " ")
				}
				cka := "-"
				for _, c := range diag.CKA {
					if c.Dataset == name && c.Method == m && c.Depth == L {
						cka = fmt.Sprintf("%.3f", c.CKA)
					}
				}
				fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%s\t%s\n", m, L, same, diff, pr, cka)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, o := range diag.Overlap {
			if o.Dataset != name {
				continue
			}
			fmt.Fprintln(w, "\nadded edges: size and Jaccard index")
			tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "method\tadded\t%s\n", strings.Join(o.Methods, "\t"))
			for i, m := range o.Methods {
				js := make([]string, len(o.Methods))
				for k, v := range o.Jaccard[i] {
					js[k] = fmt.Sprintf("%.3f", v)
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\n", m, o.Sizes[i], strings.Join(js, "\t"))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			var ex []string
			for _, in := range o.Exclusive {
				if in.Count > 0 {
					ex = append(ex, fmt.Sprintf("%s %d", strings.Join(in.Methods, "+"), in.Count))
				}
			}
			if len(ex) > 0 {
				fmt.Fprintf(w, "only by: %s\n", strings.Join(ex, ", "))
			}
		}
	}
	return nil
}
