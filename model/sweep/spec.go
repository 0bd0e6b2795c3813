package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/rewire"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// None is the method name of the baseline without rewiring. Its runs have no
// budget: they are recorded with budget 0 and run once, whatever the budgets.
const None = "none"

// Forms.
const (
	Undirected = "undirected"
	Directed   = "directed"
)

// PaperMethods are the methods of the paper's grid, in the order reports
// use: the default of a sweep.
var PaperMethods = []string{None, string(rewire.Curvature), string(rewire.Res), string(rewire.ResHop), string(rewire.ERR), string(rewire.ERRHop)}

// AllMethods lists every method a sweep knows, in the order reports use: the
// paper's, then the baselines beyond it (GTR, FoSR; undirected only).
var AllMethods = append(slices.Clone(PaperMethods), string(rewire.GTR), string(rewire.FoSR))

// PaperBudgets are the budgets of the paper (definitions §6).
var PaperBudgets = []float64{0.01, 0.05, 0.1, 0.15}

// Spec is a sweep: the grid of runs. The zero value of a field means its
// default (see Normalize). It is also the format of `ohm sweep --config`
// (JSON, these field names; unknown fields are an error).
type Spec struct {
	// Datasets: cora, citeseer, cornell, texas, bottleneck, ring, sbm.
	// Required unless Graph is given; exclusive with it.
	Datasets []string `json:"datasets,omitempty"`
	// Graph is a dataset archive (.npz: edge_index, num_nodes, x, y and
	// the split masks, see dataset.ReadArchive) swept as one more dataset,
	// named Name, in place of Datasets. Its directed form is the file's
	// arcs, its undirected form their pairs, as for every dataset; its
	// records carry the SHA-256 of its arrays (Record.GraphSHA256), so that
	// two different files of the same name never share a run or a cached
	// graph.
	Graph string `json:"graph,omitempty"`
	// Name names Graph's dataset in records and reports (default: the
	// file's base name without its extension). Letters, digits, '.', '_'
	// and '-'. Training takes the hyperparameters of a dataset of that
	// name (gnn.Defaults: cora's for "cora", …, Cornell's for any other).
	Name string `json:"name,omitempty"`
	// SplitRule makes Graph's splits when the file holds no masks (or
	// replaces them): random:TRAIN,VAL,TEST (fractions) or
	// per-class:TRAIN,VAL,TEST (counts), see dataset.ParseSplitRule. Split
	// k is drawn from (SplitSeed, k); Splits must then list split numbers
	// (not all).
	SplitRule string `json:"split_rule,omitempty"`
	SplitSeed uint64 `json:"split_seed,omitempty"`
	// Forms: undirected and/or directed (default undirected).
	Forms []string `json:"forms,omitempty"`
	// Methods: none, curvature, res, res-hop, err, err-hop (default all six).
	Methods []string `json:"methods,omitempty"`
	// Budgets r in (0, 1] (default 0.01, 0.05, 0.1, 0.15).
	Budgets []float64 `json:"budgets,omitempty"`
	// Models: gcn, dirgcn. Default: gcn on the undirected form, dirgcn on
	// the directed form. When given, gcn runs on every form (a directed
	// graph is symmetrized, definitions §4) and dirgcn on the directed form only.
	Models []string `json:"models,omitempty"`
	// PairNorm settings to run (default both: false, true).
	PairNorm []bool `json:"pairnorm,omitempty"`
	// Depths L ≥ 1 (default 1..12).
	Depths []int `json:"depths,omitempty"`
	// Seeds: every run is trained with seeds 0..Seeds-1 (default 1).
	Seeds int `json:"seeds,omitempty"`
	// Splits: "all" (every split of the dataset: 10 for WebKB, 1 for the
	// others) or a comma list of split numbers (default "0"). A split
	// number a dataset lacks is an error.
	Splits string `json:"splits,omitempty"`
	// Epochs per training run (default 200).
	Epochs int `json:"epochs,omitempty"`
	// Alpha is the curvature method's laziness α in [0, 1] (default 0.5).
	// Nil means the default.
	Alpha *float64 `json:"alpha,omitempty"`
	// SynthSeed and Heterophilic configure the built-in datasets.
	SynthSeed    uint64 `json:"synth_seed,omitempty"`
	Heterophilic bool   `json:"heterophilic,omitempty"`
	// Features is how node features enter training: row (row-normalised)
	// or raw (as loaded). Default: each dataset's family's
	// (gnn.DefaultFeatures, definitions §4.3).
	Features string `json:"features,omitempty"`
	// PairNormAt is where PairNorm sits: pre (before the ReLU) or post
	// (after it). Default gnn.DefaultPairNormAt (definitions §4.2).
	PairNormAt string `json:"pairnorm_at,omitempty"`
}

// FeaturesOf returns how the named dataset's features enter training: the
// spec's choice, else the dataset's default. The spec must be normalized.
func (s *Spec) FeaturesOf(dataset string) gnn.Features {
	if s.Features == "" {
		return gnn.DefaultFeatures(dataset)
	}
	f, _ := gnn.ParseFeatures(s.Features)
	return f
}

// PairNormPosition returns where PairNorm sits. The spec must be
// normalized.
func (s *Spec) PairNormPosition() gnn.PairNormAt {
	a, _ := gnn.ParsePairNormAt(s.PairNormAt)
	return a
}

// ReadSpec reads a JSON spec (ohm sweep --config). Unknown fields are an
// error, so that a typo does not silently fall back to a default.
func ReadSpec(path string) (Spec, error) {
	var s Spec
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	if dec.More() {
		return s, fmt.Errorf("%s: more than one JSON value", path)
	}
	// An explicit 0 is not "the default": seeds and epochs must be ≥ 1.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err == nil {
		for _, k := range []string{"seeds", "epochs"} {
			if v, ok := raw[k]; ok && string(bytes.TrimSpace(v)) == "0" {
				return s, fmt.Errorf("%s: %s 0: must be ≥ 1", path, k)
			}
		}
	}
	return s, nil
}

// AlphaValue returns α (the default when unset).
func (s *Spec) AlphaValue() float64 {
	if s.Alpha == nil {
		return curvature.DefaultAlpha
	}
	return *s.Alpha
}

// Normalize fills the defaults, lower-cases the names and checks every
// field; it does not load datasets (Plan checks the splits). Its errors are
// *FieldError.
func (s *Spec) Normalize() error {
	if err := s.normalizeNames(); err != nil {
		return err
	}
	if err := s.normalizeGrid(); err != nil {
		return err
	}
	return s.normalizeRuns()
}

// normalizeNames fills and checks the named axes: datasets, forms, methods
// and models.
func (s *Spec) normalizeNames() error {
	var err error
	if err := s.normalizeInput(); err != nil {
		return err
	}
	if s.Forms, err = names("forms", s.Forms, []string{Undirected, Directed}, []string{Undirected}); err != nil {
		return err
	}
	if s.Methods, err = names("methods", s.Methods, AllMethods, PaperMethods); err != nil {
		return err
	}
	for _, m := range s.Methods {
		if info := rewire.Method(m).Info(); info.Name != "" && !info.Directed && slices.Contains(s.Forms, Directed) {
			return &FieldError{Field: "methods", Msg: m + " rewires undirected graphs only", Remedy: &Setting{Field: "forms", Value: Undirected}}
		}
	}
	if s.Models, err = names("models", s.Models, []string{"gcn", "dirgcn"}, nil); err != nil {
		return err
	}
	if len(s.Models) > 0 && !slices.Contains(s.Models, "gcn") && !slices.Contains(s.Forms, Directed) {
		return fieldErrorf("models", "dirgcn runs on the directed form only; add directed to forms")
	}
	return nil
}

// nameRE is what a graph file's dataset may be named: a word that is safe
// in file names (report figures are named after it).
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// normalizeInput checks what is swept: datasets, or a graph file with its
// name and split rule.
func (s *Spec) normalizeInput() error {
	if s.Graph == "" {
		switch {
		case len(s.Datasets) == 0:
			return fieldErrorf("datasets", "none given (name datasets or a graph file)")
		case s.Name != "":
			return fieldErrorf("name", "%q names a graph file's dataset, and no graph file is given", s.Name)
		case s.SplitRule != "" || s.SplitSeed != 0:
			return fieldErrorf("split_rule", "splits a graph file's nodes, and no graph file is given (the datasets have their own splits)")
		}
		var err error
		s.Datasets, err = names("datasets", s.Datasets, dataset.Names(), nil)
		return err
	}
	if len(s.Datasets) > 0 {
		return fieldErrorf("graph", "a graph file is swept instead of datasets, not with them (%s given too)", strings.Join(s.Datasets, ", "))
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(s.Graph), filepath.Ext(s.Graph))
	}
	if !nameRE.MatchString(s.Name) {
		return fieldErrorf("name", "%q: a graph file's dataset name holds letters, digits, '.', '_' and '-' only, and starts with a letter or digit", s.Name)
	}
	if s.SplitRule == "" {
		if s.SplitSeed != 0 {
			return fieldErrorf("split_seed", "seeds a split rule, and none is given")
		}
		return nil
	}
	r, err := dataset.ParseSplitRule(s.SplitRule)
	if err != nil {
		return fieldErrorf("split_rule", "%v", err)
	}
	s.SplitRule = r.String()
	return nil
}

// names returns xs trimmed and lower-cased, or def when xs is empty; a name
// not in known, or given twice, is an error of field.
func names(field string, xs []string, known []string, def []string) ([]string, error) {
	if len(xs) == 0 {
		return slices.Clone(def), nil
	}
	var out []string
	for _, x := range xs {
		x = strings.ToLower(strings.TrimSpace(x))
		if !slices.Contains(known, x) {
			return nil, fieldErrorf(field, "unknown %q (known: %s)", x, strings.Join(known, ", "))
		}
		if slices.Contains(out, x) {
			return nil, fieldErrorf(field, "%s given twice", x)
		}
		out = append(out, x)
	}
	return out, nil
}

// normalizeGrid fills and checks the numeric axes: budgets, PairNorm
// settings and depths.
func (s *Spec) normalizeGrid() error {
	if len(s.Budgets) == 0 {
		s.Budgets = slices.Clone(PaperBudgets)
	}
	for i, r := range s.Budgets {
		if !(r > 0 && r <= 1) {
			return fieldErrorf("budgets", "%v outside (0, 1] (a fraction of E0, e.g. 0.05)", r)
		}
		if slices.Contains(s.Budgets[:i], r) {
			return fieldErrorf("budgets", "%v given twice", r)
		}
	}
	if len(s.PairNorm) == 0 {
		s.PairNorm = []bool{false, true}
	}
	for i, p := range s.PairNorm {
		if slices.Contains(s.PairNorm[:i], p) {
			return fieldErrorf("pairnorm", "%v given twice", p)
		}
	}
	if len(s.Depths) == 0 {
		for l := 1; l <= 12; l++ {
			s.Depths = append(s.Depths, l)
		}
	}
	for i, l := range s.Depths {
		if l < 1 {
			return fieldErrorf("depths", "%d must be ≥ 1", l)
		}
		if slices.Contains(s.Depths[:i], l) {
			return fieldErrorf("depths", "%d given twice", l)
		}
	}
	return nil
}

// normalizeRuns fills and checks what every run shares: seeds, splits,
// epochs and α.
func (s *Spec) normalizeRuns() error {
	switch {
	case s.Seeds == 0:
		s.Seeds = 1
	case s.Seeds < 0:
		return fieldErrorf("seeds", "%d must be ≥ 1", s.Seeds)
	}
	if s.Splits == "" {
		s.Splits = "0"
	}
	if ks, err := parseSplits(s.Splits); err != nil {
		return err
	} else if ks == nil && s.SplitRule != "" {
		return fieldErrorf("splits", "all: a split rule makes the splits asked by number (e.g. 0,1,2), as many as asked")
	}
	switch {
	case s.Epochs == 0:
		s.Epochs = 200
	case s.Epochs < 0:
		return fieldErrorf("epochs", "%d must be ≥ 1", s.Epochs)
	}
	if err := curvature.ValidateAlpha(s.AlphaValue()); err != nil {
		return fieldErrorf("alpha", "%v must lie in [0, 1]", s.AlphaValue())
	}
	return s.normalizeTraining()
}

// normalizeTraining checks the training choices: features and the
// PairNorm position (filled with its default, so that the spec says it).
func (s *Spec) normalizeTraining() error {
	if s.Features != "" {
		f, err := gnn.ParseFeatures(strings.TrimSpace(s.Features))
		if err != nil {
			return fieldErrorf("features", "%q: want row or raw", s.Features)
		}
		s.Features = f.String()
	}
	if s.PairNormAt == "" {
		s.PairNormAt = gnn.DefaultPairNormAt.String()
	}
	a, err := gnn.ParsePairNormAt(strings.TrimSpace(s.PairNormAt))
	if err != nil {
		return fieldErrorf("pairnorm_at", "%q: want pre or post", s.PairNormAt)
	}
	s.PairNormAt = a.String()
	return nil
}

// parseSplits returns nil for "all", else the split numbers.
func parseSplits(s string) ([]int, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 0 {
			return nil, fieldErrorf("splits", "%q: want split numbers ≥ 0 or all", s)
		}
		if slices.Contains(out, k) {
			return nil, fieldErrorf("splits", "%d given twice", k)
		}
		out = append(out, k)
	}
	return out, nil
}

// ParseDepths parses a comma list of depths and ranges: "1-6", "1,2,4-8".
// Its errors are *FieldError of the field depths.
func ParseDepths(items []string) ([]int, error) {
	var out []int
	for f := range commaFields(items) {
		f = strings.TrimSpace(f)
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 1 || b < a {
			return nil, fieldErrorf("depths", "%q: want depths ≥ 1 or ranges like 1-12", f)
		}
		for l := a; l <= b; l++ {
			out = append(out, l)
		}
	}
	return out, nil
}

// ParseBudgets parses a comma list of budgets. Its errors are *FieldError
// of the field budgets.
func ParseBudgets(items []string) ([]float64, error) {
	var out []float64
	for f := range commaFields(items) {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(r) {
			return nil, fieldErrorf("budgets", "%q is not a number", f)
		}
		out = append(out, r)
	}
	return out, nil
}

// ParseBools parses a comma list of no/yes (also false/true, off/on, 0/1).
// Its errors are *FieldError of field.
func ParseBools(field string, items []string) ([]bool, error) {
	var out []bool
	for f := range commaFields(items) {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "no", "false", "off", "0":
			out = append(out, false)
		case "yes", "true", "on", "1":
			out = append(out, true)
		default:
			return nil, fieldErrorf(field, "%q: want no or yes", f)
		}
	}
	return out, nil
}

// commaFields yields the fields of comma lists, as they are (kong has split
// the lists already, but one item may still hold commas).
func commaFields(items []string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, it := range items {
			for _, f := range strings.Split(it, ",") {
				if !yield(f) {
					return
				}
			}
		}
	}
}

// models returns the models run on a form.
func (s *Spec) models(form string) []string {
	if len(s.Models) == 0 {
		if form == Directed {
			return []string{"dirgcn"}
		}
		return []string{"gcn"}
	}
	var out []string
	for _, m := range s.Models {
		if m == "dirgcn" && form != Directed {
			continue
		}
		out = append(out, m)
	}
	return out
}
