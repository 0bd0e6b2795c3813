package sketch

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCarryBatch: carryBatch gives carry's numbers bit for bit, edit after
// edit on the whole vectors, with ends shared between edits, a batch of
// one, rows past a tile, and on one worker or three.
func TestCarryBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ n, B, workers int }{{10, 1, 1}, {9000, 32, 3}, {50, 16, 1}, {5000, 7, 2}} {
		X := make([]float64, tc.B*tc.n)
		for i := range X {
			X[i] = r.NormFloat64()
		}
		ws := make([]waitingEdit, tc.B)
		for j := range ws {
			u := r.IntN(min(tc.n, 12)) // few ends: shared between edits
			v := (u + 1 + r.IntN(tc.n-1)) % tc.n
			ws[j] = waitingEdit{u: u, v: v, c: r.NormFloat64()}
		}
		want := slices.Clone(X)
		wcs := make([]float64, tc.B)
		for j, ed := range ws {
			carry(want[j*tc.n:(j+1)*tc.n], want, wcs[:j], ed.u, ed.v)
			wcs[j] = ed.c
		}
		cs := carryBatch(X, tc.n, ws, tc.workers)
		if !slices.Equal(cs, wcs) {
			t.Fatalf("%+v: coefficients %v, want %v", tc, cs, wcs)
		}
		for i := range X {
			if math.Float64bits(X[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%+v: entry %d = %v, carry gives %v", tc, i, X[i], want[i])
			}
		}
	}
}
