package sweep

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/rewire"
)

// Record is one finished training run: one line of the results file. Its
// fields are stable (the README lists them). Accuracies are fractions in
// [0, 1]; the rewiring fields describe the graph the model was trained on
// (for method none: added = removed = iterations = 0).
type Record struct {
	Dataset      string  `json:"dataset"`                 // canonical name: cora, citeseer, cornell, texas, bottleneck, ring, sbm; or a graph file's name
	Form         string  `json:"form"`                    // undirected or directed (the form rewired)
	Method       string  `json:"method"`                  // none, curvature, res, res-hop, err, err-hop
	Budget       float64 `json:"budget"`                  // r; 0 for none
	Alpha        float64 `json:"alpha"`                   // curvature's α; 0 for the other methods
	Model        string  `json:"model"`                   // gcn or dirgcn
	PairNorm     bool    `json:"pairnorm"`                //
	Layers       int     `json:"layers"`                  // depth L
	Hidden       int     `json:"hidden"`                  // hidden width (the dataset's default)
	Epochs       int     `json:"epochs"`                  //
	Seed         uint64  `json:"seed"`                    //
	Split        int     `json:"split"`                   //
	SynthSeed    uint64  `json:"synth_seed"`              // built-in datasets' seed (0 for real data)
	Heterophilic bool    `json:"heterophilic"`            // built-in sbm's variant
	GraphSHA256  string  `json:"graph_sha256,omitempty"`  // graph files only (Spec.Graph): SHA-256 of their arrays (dataset.Archive)
	SplitRule    string  `json:"split_rule,omitempty"`    // graph files split by a rule: its canonical form
	SplitSeed    uint64  `json:"split_seed,omitempty"`    // and its seed
	Features     string  `json:"features,omitempty"`      // row or raw (definitions §4.3); absent in records of before the choice: row
	PairNormAt   string  `json:"pairnorm_at,omitempty"`   // with PairNorm: pre or post (definitions §4.2); absent in records of before the choice: pre
	TestAcc      float64 `json:"test_acc"`                // at BestEpoch
	ValAcc       float64 `json:"val_acc"`                 // best validation accuracy
	BestEpoch    int     `json:"best_epoch"`              // 1-based
	E0           int     `json:"e0"`                      // edges of the input graph in its form (definitions §1)
	Iterations   int     `json:"iterations"`              // rewiring iterations made
	Added        int     `json:"added"`                   // edges added by the rewiring
	Removed      int     `json:"removed"`                 // edges removed by the rewiring
	AddedNet     int     `json:"added_net"`               // |E_T ∖ E_0|
	RemovedNet   int     `json:"removed_net"`             // |E_0 ∖ E_T|
	StoppedEarly string  `json:"stopped_early,omitempty"` // why the rewiring stopped before B
	RewireSecs   float64 `json:"rewire_seconds"`          // rewiring time (of the run that made the graph, cached or not)
	TrainSecs    float64 `json:"train_seconds"`           // training time of this run
	Version      string  `json:"version"`                 // CodeVersion of the rewiring
	CarriedFrom  string  `json:"carried_from,omitempty"`  // the older version that ran it, when its rewired graph is the same bytes under Version (definitions §6.2)
	OhmVersion   string  `json:"ohm_version,omitempty"`   // the release and commit that ran it (ohm.Build, e.g. 0.1.0+9ff53211a3a3); absent in records of before it; not part of the key
	Finished     string  `json:"finished"`                // RFC 3339 time the run was recorded
	// Graph classification only (definitions §6.4); absent in node records.
	Task        string  `json:"task,omitempty"`          // "graph"
	BudgetUnit  string  `json:"budget_unit,omitempty"`   // "edits" (per graph) or "fraction"
	Graphs      int     `json:"graphs,omitempty"`        // graphs in the dataset
	TrainAcc    float64 `json:"train_acc,omitempty"`     // at BestEpoch
	LastTestAcc float64 `json:"last_test_acc,omitempty"` // of the last epoch (FoSR's returned number)
	EpochsRun   int     `json:"epochs_run,omitempty"`    // epochs until early stopping (Epochs is the cap)
}

// Choices returns the record's training choices: its features and, with
// PairNorm, the PairNorm position ("" without). A record written before the
// choices existed has neither field, and was trained on row-normalised
// features with PairNorm before the ReLU: it reads as "row" and "pre"; it
// is kept as written (not filled in), so that it is written back byte for
// byte.
func (r *Record) Choices() (features, pairNormAt string) {
	features, pairNormAt = r.Features, r.PairNormAt
	if features == "" {
		features = gnn.FeaturesRow.String()
	}
	switch {
	case !r.PairNorm:
		pairNormAt = ""
	case pairNormAt == "":
		pairNormAt = gnn.PairNormPre.String()
	}
	return features, pairNormAt
}

// Key identifies a run: the inputs that make two runs the same. Epochs and
// the synthetic datasets' options are part of it; α only for curvature; the
// rewiring code version too, so that a run of older rewiring code is never
// counted as done; the training choices (features, and the PairNorm
// position of a run with PairNorm); for a graph file, the hash of its arrays and its split
// rule and seed (empty for the built-in datasets, so that records written
// before these fields existed keep their keys).
type Key struct {
	Dataset, Form, Method string
	Budget, Alpha         float64
	Model                 string
	PairNorm              bool
	Layers, Epochs        int
	Seed                  uint64
	Split                 int
	SynthSeed             uint64
	Heterophilic          bool
	Version               string // rewiring code version (CodeVersion)
	Features              string // row or raw
	PairNormAt            string // pre or post with PairNorm, "" without
	GraphSHA256           string // graph files only
	SplitRule             string
	SplitSeed             uint64
	Task                  string // "graph" for graph classification, "" for nodes
	BudgetUnit            string // graph classification: "edits" or "fraction"
}

// Key returns the record's key.
func (r *Record) Key() Key {
	k := Key{Dataset: r.Dataset, Form: r.Form, Method: r.Method, Budget: r.Budget, Model: r.Model,
		PairNorm: r.PairNorm, Layers: r.Layers, Epochs: r.Epochs, Seed: r.Seed, Split: r.Split,
		SynthSeed: r.SynthSeed, Heterophilic: r.Heterophilic, Version: r.Version,
		GraphSHA256: r.GraphSHA256, SplitRule: r.SplitRule, SplitSeed: r.SplitSeed, Task: r.Task, BudgetUnit: r.BudgetUnit}
	k.Features, k.PairNormAt = r.Choices()
	if r.Method == "curvature" {
		k.Alpha = r.Alpha
	}
	if r.Method == None {
		k.Budget = 0
	}
	return k
}

// String renders the key compactly, for messages.
func (k Key) String() string {
	pn := "no"
	if k.PairNorm {
		pn = "yes"
	}
	if k.PairNorm && k.PairNormAt != "" {
		pn += "(" + k.PairNormAt + ")"
	}
	s := fmt.Sprintf("%s/%s/%s/%s/%s/features=%s/pairnorm=%s/L=%d/seed=%d/split=%d", k.Dataset, k.Form, k.Method,
		strconv.FormatFloat(k.Budget, 'g', -1, 64), k.Model, k.Features, pn, k.Layers, k.Seed, k.Split)
	if k.GraphSHA256 != "" {
		s += "/graph=" + k.GraphSHA256[:min(12, len(k.GraphSHA256))]
	}
	if k.SplitRule != "" {
		s += fmt.Sprintf("/splits=%s,seed %d", k.SplitRule, k.SplitSeed)
	}
	if k.Task != "" {
		s += "/task=" + k.Task
		if k.BudgetUnit != "" {
			s += "/unit=" + k.BudgetUnit
		}
	}
	return s
}

// ReadResults reads every complete record of a results file. A last line
// without its newline (a write cut short) is ignored; any other line that is
// not a record is an error naming its line. A run recorded twice counts
// once (see Unique; two different results of one run are a *ConflictError
// naming both lines). A missing file has no records.
func ReadResults(path string) ([]Record, error) {
	recs, _, err := ReadResultsFields(path)
	return recs, err
}

// ReadResultsFields is ReadResults, and the fields of the records that
// this version of ohm does not know, sorted: fields a newer ohm added
// (allowed by the stability rule of docs/cli.md), read past (definitions
// §7.4). A command warns of them.
func ReadResultsFields(path string) (recs []Record, unknown []string, err error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	recs, _, unknown, err = parseResults(path, b)
	return recs, unknown, err
}

// parseResults parses the complete lines of b and returns the records,
// each run once (Unique's rule), the length of the complete part (up to
// and including the last newline) and the fields no Record field takes.
// A record out of range (Record.Check) is an error naming its line.
func parseResults(path string, b []byte) ([]Record, int, []string, error) {
	complete := bytes.LastIndexByte(b, '\n') + 1
	var recs []Record
	var lines []int
	unknown := map[string]bool{}
	line := 0
	for rest := b[:complete]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		l := bytes.TrimSpace(rest[:i])
		rest = rest[i+1:]
		line++
		if len(l) == 0 {
			continue
		}
		var r Record
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(l, &fields); err != nil {
			return nil, 0, nil, fmt.Errorf("sweep: %s line %d: not a result record: %w", path, line, err)
		}
		if err := json.Unmarshal(l, &r); err != nil {
			return nil, 0, nil, fmt.Errorf("sweep: %s line %d: not a result record: %w", path, line, err)
		}
		if r.Dataset == "" || r.Method == "" || r.Form == "" || r.Model == "" || r.Layers < 1 || r.Epochs < 1 {
			return nil, 0, nil, fmt.Errorf("sweep: %s line %d: not a result record: dataset, form, method, model, layers and epochs are required", path, line)
		}
		if err := r.Check(); err != nil {
			return nil, 0, nil, fmt.Errorf("sweep: %s line %d: not a sensible result: %w", path, line, err)
		}
		for k := range fields {
			if !recordFields[k] {
				unknown[k] = true
			}
		}
		recs = append(recs, r)
		lines = append(lines, line)
	}
	recs, err := unique(recs, func(i, j int) error {
		return &ConflictError{Path: path, Key: recs[i].Key(), First: lines[i], Second: lines[j]}
	})
	return recs, complete, slices.Sorted(maps.Keys(unknown)), err
}

// recordFields are the JSON names of Record's fields.
var recordFields = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[Record]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
}()

// Check reports the first field of r out of its range (definitions
// §7.4): accuracies and α lie in [0, 1]; the budget is a fraction in
// [0, 1], or with budget_unit "edits" a whole number of edits per graph;
// layers and epochs are at least 1, the best epoch lies in [1, epochs],
// counts and times are non-negative. O(1).
func (r *Record) Check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"test_acc", r.TestAcc}, {"val_acc", r.ValAcc}, {"train_acc", r.TrainAcc}, {"last_test_acc", r.LastTestAcc}, {"alpha", r.Alpha}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fmt.Errorf("%s %v outside [0, 1]", f.name, f.v) // reason: Read wraps it with the file and line
		}
	}
	if err := r.checkBudget(); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{{"layers", r.Layers, 1}, {"epochs", r.Epochs, 1}, {"hidden", r.Hidden, 0}, {"split", r.Split, 0}, {"best_epoch", r.BestEpoch, 0},
		{"e0", r.E0, 0}, {"iterations", r.Iterations, 0}, {"added", r.Added, 0}, {"removed", r.Removed, 0},
		{"added_net", r.AddedNet, 0}, {"removed_net", r.RemovedNet, 0}} {
		if f.v < f.min {
			return fmt.Errorf("%s %d below %d", f.name, f.v, f.min) // reason: Read wraps it with the file and line
		}
	}
	if r.BestEpoch > r.Epochs {
		return fmt.Errorf("best_epoch %d beyond epochs %d", r.BestEpoch, r.Epochs) // reason: Read wraps it with the file and line
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"rewire_seconds", r.RewireSecs}, {"train_seconds", r.TrainSecs}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return fmt.Errorf("%s %v: not a time", f.name, f.v) // reason: Read wraps it with the file and line
		}
	}
	return nil
}

// checkBudget reports a budget out of the range of its unit: a fraction
// in [0, 1] (node records and budget_unit "fraction"), a whole number of
// edits at least 0 (budget_unit "edits").
func (r *Record) checkBudget() error {
	switch r.BudgetUnit {
	case "", UnitFraction:
		if !(r.Budget >= 0 && r.Budget <= 1) {
			return fmt.Errorf("budget %v outside [0, 1]", r.Budget) // reason: Read wraps it with the file and line
		}
	case UnitEdits:
		if !(r.Budget >= 0) || r.Budget != math.Trunc(r.Budget) || math.IsInf(r.Budget, 1) {
			return fmt.Errorf("budget %v: not a number of edits", r.Budget) // reason: Read wraps it with the file and line
		}
	default:
		return fmt.Errorf("budget_unit %q: neither %q nor %q", r.BudgetUnit, UnitEdits, UnitFraction) // reason: Read wraps it with the file and line
	}
	return nil
}

// Unique returns recs with every run once, in the order of first
// appearance: the one rule for a run recorded twice, which sweeps (resuming)
// and reports (counting) both follow. Records of the same run (the same Key)
// that are equal apart from their timing fields (rewire_seconds,
// train_seconds, finished) — a run recorded again, or the same results file
// concatenated twice — count once; records of the same run with different
// results are a *ConflictError naming both (1-based positions in recs;
// ReadResults names lines). O(len(recs)).
func Unique(recs []Record) ([]Record, error) {
	return unique(slices.Clone(recs), func(i, j int) error {
		return &ConflictError{Key: recs[i].Key(), First: i + 1, Second: j + 1}
	})
}

// unique removes from recs, in place, the records of a run seen before;
// conflict(i, j) is the error for records i < j of one run that differ.
func unique(recs []Record, conflict func(i, j int) error) ([]Record, error) {
	first := make(map[Key]int, len(recs))
	keep := make([]bool, len(recs))
	for j := range recs {
		k := recs[j].Key()
		i, seen := first[k]
		if !seen {
			first[k], keep[j] = j, true
			continue
		}
		if withoutTiming(recs[i]) != withoutTiming(recs[j]) {
			return nil, conflict(i, j)
		}
	}
	out := recs[:0]
	for j, r := range recs {
		if keep[j] {
			out = append(out, r)
		}
	}
	return out, nil
}

// withoutTiming is r without the fields that differ between two recordings
// of the same result: wall times, the time of recording and the build that
// recorded it.
func withoutTiming(r Record) Record {
	r.RewireSecs, r.TrainSecs, r.Finished, r.OhmVersion = 0, 0, "", ""
	return r
}

// CheckResults checks, before any work, that path can take results: its
// folder takes new files (atomicfile.CheckWritable), the cache's folder
// (CacheDir) is absent or a folder that takes new files, and an existing
// file opens for appending. It changes nothing.
func CheckResults(path string) error {
	if err := atomicfile.CheckWritable(path, false); err != nil {
		return err
	}
	// The cache's folder: absent (created when the first graph is
	// stored), or a folder that takes new files.
	dir := CacheDir(path)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("sweep: %s: the cache of rewired graphs, %s, exists and is not a folder", path, dir)
	} else if err == nil {
		if err := atomicfile.CheckWritable(filepath.Join(dir, "probe"), false); err != nil {
			return fmt.Errorf("sweep: %s: the cache of rewired graphs: %w", path, err)
		}
	}
	if err := faults.Create(path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Results is a results file open for appending.
type Results struct {
	mu     sync.Mutex
	f      *os.File
	path   string
	size   int64 // the file's length: whole records only
	unlock func()
	// unknown are the fields of the records read that no Record field
	// takes (a newer ohm's).
	unknown []string
}

// UnknownFields returns the fields of the records read on opening that
// this version of ohm does not know, sorted (ReadResultsFields).
func (r *Results) UnknownFields() []string { return r.unknown }

// OpenResults opens (creating) the results file for appending, locks it
// against a second sweep on the same file, reads the records already there
// and repairs a truncated last line by cutting the file back to its last
// complete line (repaired reports how many bytes were cut). The run of the
// cut line was not recorded and will be made again.
func OpenResults(path string) (res *Results, recs []Record, repaired int, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, 0, err
	}
	unlock, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, nil, 0, fmt.Errorf("sweep: %s: %w (is another sweep writing it?)", path, err)
	}
	fail := func(e error) (*Results, []Record, int, error) {
		unlock()
		f.Close()
		return nil, nil, 0, e
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return fail(err)
	}
	recs, complete, unknown, err := parseResults(path, b)
	if err != nil {
		return fail(err)
	}
	if complete < len(b) {
		if err := f.Truncate(int64(complete)); err != nil {
			return fail(fmt.Errorf("sweep: %s: cutting the truncated last line: %w", path, err))
		}
		if err := f.Sync(); err != nil {
			return fail(err)
		}
		repaired = len(b) - complete
	}
	return &Results{f: f, path: path, size: int64(complete), unlock: unlock, unknown: unknown}, recs, repaired, nil
}

// Append writes the record as one line with a single write(2) on the file
// opened with O_APPEND, then fsyncs it: a crash leaves either the whole line
// or a prefix of it, which OpenResults cuts off. A write that fails or
// stops short (a full disk) or an fsync that fails is undone at once: the
// file is cut back to its last whole record, and the error says so. Safe
// for concurrent use.
func (r *Results) Append(rec Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := faults.Writer(r.path, r.f).Write(b)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = r.f.Sync()
	}
	if err != nil {
		if terr := r.f.Truncate(r.size); terr != nil {
			return fmt.Errorf("sweep: %s: %w; cutting the record back failed too (%v): the next sweep cuts it off", r.path, err, terr)
		}
		return fmt.Errorf("sweep: %s: %w (the record of %s is not kept: the file ends on its last whole record)", r.path, err, rec.Key())
	}
	r.size += int64(len(b))
	return nil
}

// Close unlocks and closes the file.
func (r *Results) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unlock()
	return r.f.Close()
}

// CurrentRecords splits recs into the records made by the current rewiring
// code (Version equal to CodeVersion of their method and form) and the
// others, counted by method, form and version for the message that names
// them (sorted by method, form, version): reports never mix versions
// (definitions §6). O(len(recs)).
func CurrentRecords(recs []Record) (current []Record, stale []Stale) {
	at := map[Stale]int{}
	for _, r := range recs {
		now := CodeVersion(r.Method, r.Form)
		if r.Version == now {
			current = append(current, r)
			continue
		}
		s := Stale{Method: r.Method, Form: r.Form, Version: r.Version, Current: now, Relation: Other}
		switch c, ok := rewire.CompareVersions(r.Version, now); {
		case ok && c < 0:
			s.Relation = Older
		case ok && c > 0:
			s.Relation = Newer
		}
		i, seen := at[s]
		if !seen {
			i = len(stale)
			at[s] = i
			stale = append(stale, s)
		}
		stale[i].Count++
	}
	slices.SortFunc(stale, func(a, b Stale) int {
		return cmp.Or(cmp.Compare(a.Method, b.Method), cmp.Compare(a.Form, b.Form), cmp.Compare(a.Version, b.Version))
	})
	return current, stale
}

// Relation says how a record's rewiring code version stands to the
// current one.
type Relation string

// Relations of a version to the current one: Older and Newer by
// rewire.CompareVersions; Other when they do not compare.
const (
	Older Relation = "older"
	Newer Relation = "newer"
	Other Relation = "other"
)

// Stale counts the records of one method and form made by a rewiring code
// version other than the current one.
type Stale struct {
	Method, Form string
	Version      string   // the records' version
	Current      string   // this code's version of the method and form
	Relation     Relation // Version against Current
	Count        int
}

// String names the group: "err (undirected) rewire-1, this code's rewire-2".
func (s Stale) String() string {
	return fmt.Sprintf("%s (%s) %s, this code's %s", s.Method, s.Form, s.Version, s.Current)
}

// SelectChoices returns the records trained with the given choices and
// counts the others by their choices ("features raw, PairNorm post": n).
// features "" selects each dataset's default (gnn.DefaultFeatures),
// pairNormAt "" the default position (gnn.DefaultPairNormAt); a record
// without PairNorm matches any position. Reports call it so that results of
// different training choices never mix in one cell. O(len(recs)).
func SelectChoices(recs []Record, features, pairNormAt string) (kept []Record, left map[string]int) {
	if pairNormAt == "" {
		pairNormAt = gnn.DefaultPairNormAt.String()
	}
	left = map[string]int{}
	for _, r := range recs {
		f, at := r.Choices()
		want := features
		if want == "" {
			want = gnn.DefaultFeatures(r.Dataset).String()
		}
		if f == want && (at == "" || at == pairNormAt) {
			kept = append(kept, r)
			continue
		}
		name := "features " + f
		if at != "" {
			name += ", PairNorm " + at
		}
		left[name]++
	}
	return kept, left
}
