package sweep

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// TaskGraph is the Task of graph-classification records.
const TaskGraph = "graph"

// Budget units of a graph-classification grid.
const (
	UnitEdits    = "edits"    // B edits per graph (Config.Edits), as FoSR and BORF count them
	UnitFraction = "fraction" // B = ⌊r·E0⌋ of each graph
)

// GraphBudget is one budget of a graph-classification grid: Value edits per
// graph (Unit UnitEdits) or the fraction Value of each graph's edges.
type GraphBudget struct {
	Value float64
	Unit  string
}

// String returns "10" for 10 edits per graph, "0.1" for a fraction.
func (b GraphBudget) String() string { return strconv.FormatFloat(b.Value, 'g', -1, 64) }

// less orders budgets: edits before fractions, then by value.
func (b GraphBudget) less(c GraphBudget) bool {
	return b.Unit < c.Unit || b.Unit == c.Unit && b.Value < c.Value
}

// ParseGraphBudget parses an integer N ≥ 1 as N edits per graph and a
// number with a decimal point in (0, 1] as a fraction.
func ParseGraphBudget(s string) (GraphBudget, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return GraphBudget{}, fmt.Errorf("budget %q: edits per graph must be ≥ 1", s) // reason: the CLI names the flag or the run before it
		}
		return GraphBudget{float64(n), UnitEdits}, nil
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || !(r > 0 && r <= 1) {
		return GraphBudget{}, fmt.Errorf("budget %q: want edits per graph (an integer ≥ 1) or a fraction in (0, 1] with a decimal point", s) // reason: the CLI names the flag or the run before it
	}
	return GraphBudget{r, UnitFraction}, nil
}

// GraphSpec is a graph-classification grid (definitions §6.4): TU datasets ×
// methods × budgets × models × trials, each trial FoSR's protocol
// (definitions §4.5) from its seed. The JSON field names are those below;
// unknown fields are an error.
type GraphSpec struct {
	// Datasets are TU names (mutag, enzymes, proteins, …).
	Datasets []string `json:"datasets"`
	// Methods: none, curvature, res, res-hop, err, err-hop, gtr, fosr
	// (default all eight).
	Methods []string `json:"methods,omitempty"`
	// Budgets: edits per graph ("10") or fractions ("0.1"); default 10.
	// The baseline none runs once, whatever the budgets.
	Budgets []string `json:"budgets,omitempty"`
	// Models: gcn, gin, rgcn, rgin (default gcn, gin).
	Models []string `json:"models,omitempty"`
	// Trials: seeds 0..Trials-1 (default 10).
	Trials int `json:"trials,omitempty"`
	// Layers is the number of hidden layers (default 4); Epochs the most
	// epochs of a trial (default 1 000 000: early stopping ends it).
	Layers int `json:"layers,omitempty"`
	Epochs int `json:"epochs,omitempty"`
	// Alpha is curvature's laziness (default 0.5).
	Alpha *float64 `json:"alpha,omitempty"`
	// ChooseOn, when > 0, makes the grid run each (dataset, method, model)
	// at one budget only: the one of Budgets whose trials of seeds
	// 0..ChooseOn-1, already in the results file (a pre-sweep), have the
	// highest mean validation accuracy (the smallest on ties).
	ChooseOn int `json:"choose_on,omitempty"`

	budgets []GraphBudget
	kinds   []gnn.GraphKind
}

// ReadGraphSpec reads a JSON graph spec. Unknown fields are an error.
func ReadGraphSpec(path string) (GraphSpec, error) {
	var s GraphSpec
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("sweep: %s: %w", path, err)
	}
	return s, nil
}

// Normalize fills the defaults, canonicalizes names and checks every field;
// errors are *FieldError naming the field.
func (s *GraphSpec) Normalize() error {
	if len(s.Datasets) == 0 {
		return fieldErrorf("datasets", "no dataset")
	}
	for i, d := range s.Datasets {
		n, ok := dataset.TUName(d)
		if !ok {
			return fieldErrorf("datasets", "%q is not a graph-classification (TU) dataset (known: %s)", d, strings.Join(dataset.TUNames, ", "))
		}
		s.Datasets[i] = n
	}
	var err error
	if s.Methods, err = names("methods", s.Methods, AllMethods, AllMethods); err != nil {
		return err
	}
	if len(s.Budgets) == 0 {
		s.Budgets = []string{"10"}
	}
	s.budgets = nil
	for _, b := range s.Budgets {
		gb, err := ParseGraphBudget(b)
		if err != nil {
			return fieldErrorf("budgets", "%v", err)
		}
		s.budgets = append(s.budgets, gb)
	}
	if s.Models, err = names("models", s.Models, []string{"gcn", "gin", "rgcn", "rgin"}, []string{"gcn", "gin"}); err != nil {
		return err
	}
	s.kinds = nil
	for _, m := range s.Models {
		k, _ := gnn.ParseGraphKind(m)
		s.kinds = append(s.kinds, k)
	}
	switch {
	case s.Trials == 0:
		s.Trials = 10
	case s.Trials < 0:
		return fieldErrorf("trials", "%d: must be ≥ 1", s.Trials)
	}
	switch {
	case s.Layers == 0:
		s.Layers = 4
	case s.Layers < 0:
		return fieldErrorf("layers", "%d: must be ≥ 1", s.Layers)
	}
	switch {
	case s.Epochs == 0:
		s.Epochs = gnn.GraphDefaults(gnn.GraphGCN).MaxEpochs
	case s.Epochs < 0:
		return fieldErrorf("epochs", "%d: must be ≥ 1", s.Epochs)
	}
	if s.ChooseOn < 0 {
		return fieldErrorf("choose_on", "%d: must be ≥ 0", s.ChooseOn)
	}
	if a := s.alpha(); !(a >= 0 && a <= 1) {
		return fieldErrorf("alpha", "%v: must lie in [0, 1]", a)
	}
	return nil
}

// alpha returns curvature's α (default 0.5).
func (s *GraphSpec) alpha() float64 {
	if s.Alpha == nil {
		return 0.5
	}
	return *s.Alpha
}

// config returns the training configuration of kind k.
func (s *GraphSpec) config(k gnn.GraphKind) gnn.GraphConfig {
	c := gnn.GraphDefaults(k)
	c.Layers, c.MaxEpochs = s.Layers, s.Epochs
	return c
}
