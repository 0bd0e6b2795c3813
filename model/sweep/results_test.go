package sweep

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ohmgnn/ohm/internal/faults"
)

func testRecord(seed uint64, acc float64) Record {
	return Record{Dataset: "sbm", Form: Undirected, Method: "err", Budget: 0.1, Model: "gcn", Layers: 2, Epochs: 5,
		Seed: seed, TestAcc: acc, Version: CodeVersion("err", Undirected), TrainSecs: 1, Finished: "2025-01-01T00:00:00Z"}
}

func writeRecords(t *testing.T, path string, lines ...any) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		switch l := l.(type) {
		case string:
			b.WriteString(l + "\n")
		default:
			js, _ := json.Marshal(l)
			b.Write(append(js, '\n'))
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDuplicates: one rule, for reading and for resuming: a run recorded
// twice with the same results (its timing fields aside) counts once, in
// the order of first appearance; two different results of one run are an
// error naming both lines, whether the file is read (report) or opened
// (sweep).
func TestDuplicates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	again := testRecord(0, 0.5)
	again.TrainSecs, again.RewireSecs, again.Finished = 7, 3, "2025-02-02T00:00:00Z"
	writeRecords(t, path, testRecord(0, 0.5), testRecord(1, 0.6), "", again, testRecord(2, 0.7))
	recs, err := ReadResults(path)
	if err != nil || len(recs) != 3 || recs[0].Seed != 0 || recs[0].TrainSecs != 1 || recs[2].Seed != 2 {
		t.Fatalf("identical duplicates: %d records %+v, %v", len(recs), recs, err)
	}
	res, recs, _, err := OpenResults(path)
	if err != nil || len(recs) != 3 {
		t.Fatalf("OpenResults: %d records, %v", len(recs), err)
	}
	res.Close()

	writeRecords(t, path, testRecord(0, 0.5), testRecord(1, 0.6), "", testRecord(0, 0.9))
	_, err = ReadResults(path)
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.First != 1 || ce.Second != 4 || !strings.Contains(err.Error(), "lines 1 and 4") {
		t.Fatalf("conflicting duplicates, read: %v", err)
	}
	if _, _, _, err := OpenResults(path); !errors.As(err, &ce) || ce.First != 1 || ce.Second != 4 {
		t.Fatalf("conflicting duplicates, opened: %v", err)
	}
	if strings.Contains(err.Error(), "--") {
		t.Errorf("a library error names a flag: %v", err)
	}
	// The same rule on records in memory (report.Write).
	if got, err := Unique([]Record{testRecord(0, 0.5), testRecord(0, 0.5), testRecord(1, 0.5)}); err != nil || len(got) != 2 {
		t.Fatalf("Unique: %d, %v", len(got), err)
	}
	if _, err := Unique([]Record{testRecord(0, 0.5), testRecord(1, 0.5), testRecord(0, 0.4)}); !errors.As(err, &ce) || ce.First != 1 || ce.Second != 3 {
		t.Fatalf("Unique, conflict: %v", err)
	}
}

// TestAppendFaults: a record whose write fails after some bytes (a full
// disk, an I/O error) is cut back at once: the file ends on its last whole
// record, the error says the record is not kept, and a later append goes
// on from there.
func TestAppendFaults(t *testing.T) {
	for _, fault := range []error{syscall.ENOSPC, syscall.EIO} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		res, _, _, err := OpenResults(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Append(testRecord(0, 0.5)); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		disarm := faults.Arm(faults.Rule{Match: path, Op: faults.OpWrite, After: 20, Err: fault})
		err = res.Append(testRecord(1, 0.6))
		disarm()
		if !errors.Is(err, fault) || !strings.Contains(err.Error(), "not kept") {
			t.Fatalf("%v: Append: %v", fault, err)
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Fatalf("%v: after the failed append the file is %q, want %q", fault, after, before)
		}
		if err := res.Append(testRecord(2, 0.7)); err != nil {
			t.Fatal(err)
		}
		res.Close()
		recs, err := ReadResults(path)
		if err != nil || len(recs) != 2 || recs[1].Seed != 2 {
			t.Fatalf("%v: then %d records %v", fault, len(recs), err)
		}
	}
}

// TestStale: records of another rewiring code version are told apart as
// older, newer or not comparable, counted per method, form and version.
func TestStale(t *testing.T) {
	cur := testRecord(0, 0.5)
	newer, older, other := cur, cur, cur
	newer.Version, older.Version, other.Version = "rewire-99", "rewire-0", "rewire-1+sketch-3"
	recs, stale := CurrentRecords([]Record{cur, newer, newer, older, other})
	if len(recs) != 1 || len(stale) != 3 {
		t.Fatalf("current %d, stale %+v", len(recs), stale)
	}
	want := map[string]Relation{"rewire-99": Newer, "rewire-0": Older, "rewire-1+sketch-3": Other}
	for _, s := range stale {
		if s.Relation != want[s.Version] || s.Current != cur.Version || (s.Version == "rewire-99") != (s.Count == 2) {
			t.Errorf("%+v", s)
		}
	}
	if got := stale[0].String(); got != "err (undirected) rewire-0, this code's "+cur.Version {
		t.Errorf("String() = %q", got)
	}
}

// TestCommittedResultsRead: every results file committed under docs/ (the
// paper's grid, the graph-classification grid) reads without a refused
// record, so a change to Record.Check that refuses what ohm writes fails
// here and not in a user's resumed grid; and every run in it is of the
// current rewiring code, so a version bump cannot silently drop committed
// cells from the reports.
func TestCommittedResultsRead(t *testing.T) {
	// docs/paper-slice is the dated output of one early run (rewire-1, its
	// README says so), kept as it was; the grids are kept current.
	snapshot := map[string]bool{"paper-slice": true}
	paths, err := filepath.Glob(filepath.Join("..", "..", "docs", "*", "results.jsonl"))
	if err != nil || len(paths) < 2 {
		t.Fatalf("committed results files: %v, %v (want docs/paper and docs/graph-classification)", paths, err)
	}
	for _, p := range paths {
		recs, err := ReadResults(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		} else if len(recs) == 0 {
			t.Errorf("%s: no record", p)
		}
		// A version bump leaves the committed grids behind: their runs of
		// the older code would drop out of the reports. Re-run them, or
		// carry them when the graphs are the same bytes (definitions §6.2).
		if _, stale := CurrentRecords(recs); len(stale) > 0 && !snapshot[filepath.Base(filepath.Dir(p))] {
			t.Errorf("%s: runs of other rewiring code than this: %v", p, stale)
		}
	}
}
