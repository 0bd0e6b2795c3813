package sweep

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
)

// TestTUCacheChecksum: a cached rewired dataset is used as stored; a valid
// but different archive, or edited numbers, make loadTU refuse it (the
// sweep rewires again) — the checks TestCacheChecksum makes of graphs.
func TestTUCacheChecksum(t *testing.T) {
	d := tinyTU(4)
	c := cache{dir: t.TempDir()}
	k := TUKey{GraphKey: GraphKey{Dataset: "MUTAG", Form: Undirected, Method: "err", Budget: 1, Version: "rewire-1"}, Unit: UnitEdits}
	r := &RewiredTU{Data: d, Key: k, E0: 3, Iterations: 2, Added: 1}
	if err := c.storeTU(r); err != nil {
		t.Fatal(err)
	}
	got := c.loadTU(k)
	if got == nil || got.Added != 1 || got.Data.Len() != 4 || !slices.Equal(got.Data.Src, d.Src) || !slices.Equal(got.Data.Dst, d.Dst) {
		t.Fatalf("stored dataset not loaded back: %+v", got)
	}
	npz, meta := c.tuPaths(k)
	other := tinyTU(5)
	f, err := os.Create(npz)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.EncodeTUArchive(f, other); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if c.loadTU(k) != nil {
		t.Fatal("a different valid archive was used")
	}
	if err := c.storeTU(r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(meta)
	if err := os.WriteFile(meta, bytes.Replace(b, []byte(`"added": 1`), []byte(`"added": 7`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if c.loadTU(k) != nil {
		t.Fatal("edited numbers were used")
	}
}
