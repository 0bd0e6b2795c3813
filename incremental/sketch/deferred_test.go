package sketch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// eagerUpdate is the update deferredM replaces, written into m at once:
// each row takes an iteration's terms c_j·u_j[p]·u_j in order
// (linalg.AddScaledRows), a row whose factors are all zero left alone.
func eagerUpdate(m []float64, K int, cs, us []float64) {
	fs := make([]float64, len(cs))
	for p := range K {
		zero := true
		for j, c := range cs {
			fs[j] = c * us[j*K+p]
			zero = zero && fs[j] == 0
		}
		if !zero {
			linalg.AddScaledRows(m[p*K:(p+1)*K], fs, us, K)
		}
	}
}

// TestDeferredMatchesEager checks that the deferred updates give M's
// entries, diagonal and rows the bits of updates written at once, read
// while they wait (at, rowInto, diag) and after flushM, over batches of
// one and two edits and one larger than deferCap, more vectors in all
// than deferCap, with rows whose factors are zero (a node outside an
// edit's component) and a −0 entry that a zero term would turn into +0.
// M is stored with a stride above |K| (as after grow's reserve), its
// padding NaN, which must neither be read nor written; after flushM each
// row's rowMin is its minimum.
func TestDeferredMatchesEager(t *testing.T) {
	for _, workers := range []int{1, 2} {
		r := rand.New(rand.NewPCG(7, uint64(workers)))
		const K, S = 300, 307 // K above 256, so that two workers split the rows
		e := &Engine{kept: make([]int, K), opt: Options{Workers: workers}}
		e.m, e.stride = make([]float64, S*S), S
		want := make([]float64, K*K)
		for i := range want {
			want[i] = r.NormFloat64()
		}
		want[23*K+7] = math.Copysign(0, -1) // in a row whose factors are all zero
		for i := range e.m {
			e.m[i] = math.NaN()
		}
		for p := range K {
			copy(e.row(p), want[p*K:(p+1)*K])
		}
		e.setDiag()
		e.rowMin = make([]float64, K)
		for p := range K {
			e.rowMin[p] = minimum(e.row(p))
		}
		for it := range 3*deferCap/2 + 3 {
			b := 1 + it%2
			if it == 5 {
				b = deferCap + 3 // one batch larger than the cap
			}
			cs := make([]float64, b)
			us := make([]float64, b*K)
			for j := range b {
				cs[j] = r.NormFloat64() / 4
				for p := range K {
					if p != 23 && (p%10 != 3 || it%3 == 0) { // rows ≡ 3 (mod 10) often all zero, row 23 always
						us[j*K+p] = r.NormFloat64()
					}
				}
			}
			eagerUpdate(want, K, cs, us)
			e.updateM(cs, us)
			row := make([]float64, K)
			for _, p := range []int{0, 3, 5, 13, 23, K - 1} {
				e.rowInto(p, row)
				for q := range K {
					if got, w := row[q], want[p*K+q]; math.Float64bits(got) != math.Float64bits(w) {
						t.Fatalf("workers %d, iteration %d: rowInto(%d)[%d] = %v, want %v", workers, it, p, q, got, w)
					}
					if got, w := e.at(p, q), want[p*K+q]; math.Float64bits(got) != math.Float64bits(w) {
						t.Fatalf("workers %d, iteration %d: at(%d, %d) = %v, want %v", workers, it, p, q, got, w)
					}
				}
			}
			for p := range K {
				if got, w := e.diag[p], want[p*K+p]; math.Float64bits(got) != math.Float64bits(w) {
					t.Fatalf("workers %d, iteration %d: diag[%d] = %v, want %v", workers, it, p, got, w)
				}
				if low := minimum(want[p*K : (p+1)*K]); e.rowMin[p] > low {
					t.Fatalf("workers %d, iteration %d: rowMin[%d] = %v above the row's minimum %v", workers, it, p, e.rowMin[p], low)
				}
			}
		}
		if len(e.deferred.cs) == 0 {
			t.Fatalf("workers %d: nothing waits before the last flush", workers)
		}
		e.flushM()
		if len(e.deferred.cs) != 0 {
			t.Fatalf("workers %d: %d vectors wait after flushM", workers, len(e.deferred.cs))
		}
		for p := range K {
			if low := minimum(want[p*K : (p+1)*K]); e.rowMin[p] != low {
				t.Fatalf("workers %d: rowMin[%d] = %v after flushM, want the row's minimum %v", workers, p, e.rowMin[p], low)
			}
		}
		for i, v := range e.m {
			p, q := i/S, i%S
			if p >= K || q >= K {
				if !math.IsNaN(v) {
					t.Fatalf("workers %d: M's padding (%d, %d) written: %v", workers, p, q, v)
				}
				continue
			}
			if w := want[p*K+q]; math.Float64bits(v) != math.Float64bits(w) {
				t.Fatalf("workers %d: M[%d, %d] = %v after flushM, want %v", workers, p, q, v, w)
			}
		}
	}
}
