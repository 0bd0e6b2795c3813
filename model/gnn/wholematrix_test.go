package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// awkward returns n values of mixed sign and magnitude with the special
// values the kernels must pass through unchanged: −0, a subnormal, and (when
// special) ±Inf and NaN.
func awkward(n int, rng *rand.Rand, special bool) []float64 {
	v := make([]float64, n)
	for k := range v {
		v[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
	}
	if n > 3 {
		v[0], v[1], v[2] = math.Copysign(0, -1), 5e-324, 0
	}
	if special && n > 6 {
		v[3], v[4], v[5] = math.Inf(1), math.Inf(-1), math.NaN()
	}
	return v
}

// sparsify zeroes about half of v (as ReLU and dropout do), −0 included.
func sparsify(v []float64, rng *rand.Rand) {
	for k := range v {
		switch rng.IntN(4) {
		case 0:
			v[k] = 0
		case 1:
			v[k] = math.Copysign(0, -1)
		}
	}
}

// TestCSRMulBits: csrMul (the whole-matrix AVX loops, and the AVX-512 one)
// gives the bits of spmm followed by addBias — the per-row gather — for
// every width 1–70,
// plain, with a bias and adding onto dst, on strided offset blocks, with
// empty rows and special values (±Inf, NaN, −0, subnormal) in the source.
func TestCSRMulBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine: csrMul is spmm")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for _, shape := range [][2]int{{23, 17}, {1, 5}, {40, 40}} {
		r, c := shape[0], shape[1]
		p := randCSR(r, c, 0.25, rng).RawMatrix()
		for w := 1; w <= 70; w++ {
			ss, so, ds, do := w+5, 3, 2*w+1, w
			src := awkward(c*ss+so+w, rng, true)
			d0 := awkward(r*ds+do+w, rng, false)
			bias := awkward(w, rng, false)
			for _, mode := range []string{"plain", "bias", "add"} {
				add, b := mode == "add", []float64(nil)
				if mode == "bias" {
					b = bias
				}
				var got, got512, want []float64
				withAVX512(false, func() {
					withAVX(true, func() {
						got = slices.Clone(d0)
						csrMul(strided{got, ds, do}, p, strided{src, ss, so}, w, add, b)
					})
				})
				if useAVX512 {
					got512 = slices.Clone(d0)
					csrMul(strided{got512, ds, do}, p, strided{src, ss, so}, w, add, b)
				}
				withAVX(false, func() {
					want = slices.Clone(d0)
					spmm(strided{want, ds, do}, p, strided{src, ss, so}, w, add)
					if b != nil {
						for i := range r {
							axpy(want[i*ds+do:i*ds+do+w], 1, b)
						}
					}
				})
				sameBitsNaN(t, fmt.Sprintf("csrMul %d×%d w=%d %s", r, c, w, mode), got, want)
				if got512 != nil {
					sameBitsNaN(t, fmt.Sprintf("csrMul (AVX-512) %d×%d w=%d %s", r, c, w, mode), got512, want)
				}
			}
		}
	}
}

// TestCSRMulRejects: a column index out of range or decreasing row
// pointers make csrMul panic rather than read out of bounds.
func TestCSRMulRejects(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine")
	}
	src := make([]float64, 4*16)
	dst := make([]float64, 2*16)
	for name, p := range map[string]*sparse.CSR{
		"index ≥ columns":    sparse.NewCSR(2, 4, []int{0, 1, 2}, []int{0, 4}, []float64{1, 1}),
		"negative index":     sparse.NewCSR(2, 4, []int{0, 1, 2}, []int{-1, 0}, []float64{1, 1}),
		"decreasing pointer": sparse.NewCSR(2, 4, []int{0, 2, 1}, []int{0, 1}, []float64{1, 1}),
	} {
		for _, w := range []int{16, 5} {
			for _, wide := range []bool{false, useAVX512} {
				withAVX512(wide, func() {
					defer func() {
						if recover() == nil {
							t.Errorf("%s, w=%d, AVX-512 %v: no panic", name, w, wide)
						}
					}()
					csrMul(whole(dst, w), p.RawMatrix(), whole(src, w), w, false, nil)
				})
			}
		}
	}
}

// TestTransposeCSR: transposeCSR equals the dense transpose, keeps column
// indices ascending, and transposing twice gives the matrix back.
func TestTransposeCSR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a := randCSR(13, 7, 0.3, rng)
	at := transposeCSR(a)
	if !mat.Equal(at.ToDense(), a.ToDense().T()) {
		t.Fatal("transposeCSR differs from the dense transpose")
	}
	raw := at.RawMatrix()
	for i := range raw.I {
		if !slices.IsSorted(raw.Ind[raw.Indptr[i]:raw.Indptr[i+1]]) {
			t.Fatalf("row %d of the transpose is not sorted", i)
		}
	}
	back := transposeCSR(at).RawMatrix()
	orig := a.RawMatrix()
	if !slices.Equal(back.Indptr, orig.Indptr) || !slices.Equal(back.Ind, orig.Ind[:len(back.Ind)]) ||
		!slices.Equal(back.Data, orig.Data[:len(back.Data)]) {
		t.Fatal("transposing twice does not give the matrix back")
	}
}

// TestSpmmTByBits: spmmTBy, by scatter (g mostly zero) and by the gather
// over the transpose (g mostly non-zero), gives the bits of spmmT — on
// GCN's Â, DirGCN's operators and a random rectangular matrix, with −0
// entries and zero rows in g.
func TestSpmmTByBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	g := testGraph(t, 30, true, 4)
	in, out := DirOperators(g)
	for name, p := range map[string]*sparse.CSR{
		"gcn": GCNOperator(g), "dir-in": in, "dir-out": out, "random 19×11": randCSR(19, 11, 0.3, rng),
	} {
		raw, rt := p.RawMatrix(), transposeCSR(p).RawMatrix()
		for _, w := range []int{1, 5, 7, 16, 21, 40} {
			for _, density := range []float64{0.1, 0.9} {
				gv := make([]float64, raw.I*w)
				for i := range raw.I {
					if rng.Float64() < density {
						row := gv[i*w : (i+1)*w]
						copy(row, awkward(w, rng, false))
						sparsify(row, rng)
						row[0] = 1
					} else if w > 1 {
						gv[i*w+1] = math.Copysign(0, -1) // a zero row that holds −0
					}
				}
				var s scratch
				got := awkward(raw.J*w, rng, false) // overwritten entirely
				want := slices.Clone(got)
				spmmTBy(whole(got, w), raw, rt, whole(gv, w), w, &s)
				withAVX(false, func() { spmmT(whole(want, w), raw, whole(gv, w), w) })
				sameBitsNaN(t, fmt.Sprintf("spmmTBy %s w=%d density %.1f", name, w, density), got, want)
			}
		}
	}
}

// TestDenseBits: denseMul, denseMulTN and denseMulNT (zero coefficients
// masked, whole matrices in assembly, with and without the AVX-512
// kernels where the machine has them) give the bits of the sparse-row
// loops mulNNb, mulTNb and mulNTb for widths 1–72 (with AVX-512 also
// with x·W's non-zero coefficients listed: denseNNList64), with −0 and zero
// coefficients facing ±Inf and NaN (a masked term must add nothing), zero
// rows of g, row counts of every remainder by 2 and 4, and one-column
// inputs.
func TestDenseBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine: the dense products are the row loops")
	}
	if !useAVX512 {
		t.Log("no AVX-512 on this machine: only the AVX kernels are compared")
	}
	for _, z := range []bool{false, true} {
		if z && !useAVX512 {
			continue
		}
		for _, lists := range []float64{0, 1} {
			if lists > 0 && !z {
				continue
			}
			t.Run(fmt.Sprintf("avx512=%v/lists=%v", z, lists > 0), func(t *testing.T) {
				old := listMaxDensity
				listMaxDensity = lists
				defer func() { listMaxDensity = old }()
				withAVX512(z, func() { denseBits(t) })
			})
		}
	}
}

// denseBits is TestDenseBits for the kernels useAVX512 selects.
func denseBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for _, nk := range [][2]int{{17, 9}, {5, 1}, {33, 16}, {18, 64}, {35, 7}} {
		n, k := nk[0], nk[1]
		for m := 1; m <= 72; m++ {
			a := awkward(n*k, rng, false)
			sparsify(a, rng)
			b := awkward(k*m, rng, false)
			bt := awkward(k*m, rng, false)
			g := awkward(n*m, rng, false)
			if n > 4 {
				clear(g[4*m : 5*m]) // a zero row of g
			}
			// Zero coefficients in front of non-finite factors: a[0] = −0
			// meets b's first row, which holds ±Inf and NaN.
			for c := 0; c < m && c < 3; c++ {
				b[c] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[c]
			}
			a[0] = math.Copysign(0, -1)
			name := fmt.Sprintf("n=%d k=%d m=%d", n, k, m)
			var s scratch
			got, want := make([]float64, n*m), make([]float64, n*m)
			// A finite b (the unmasked kernel) first, against a's zeros
			// of both signs, then b with ±Inf and NaN (the masked one).
			fin := awkward(k*m, rng, false)
			denseMul(got, a, fin, n, k, m, &s)
			mulNNb(want, a, [][]float64{fin}, n, k, m, &s)
			sameBitsNaN(t, "denseMul finite "+name, got, want)
			denseMul(got, a, b, n, k, m, &s)
			mulNNb(want, a, [][]float64{b}, n, k, m, &s)
			sameBitsNaN(t, "denseMul "+name, got, want)

			// aᵀ·g with g's first row holding ±Inf and NaN against a's −0.
			g2 := slices.Clone(g)
			for c := 0; c < m && c < 3; c++ {
				g2[c] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[c]
			}
			gotT, wantT := make([]float64, k*m), make([]float64, k*m)
			denseMulTN(gotT, a, g, n, k, m, &s) // finite g
			mulTNb([][]float64{wantT}, a, g, n, k, m, &s)
			sameBitsNaN(t, "denseMulTN finite "+name, gotT, wantT)
			denseMulTN(gotT, a, g2, n, k, m, &s)
			mulTNb([][]float64{wantT}, a, g2, n, k, m, &s)
			sameBitsNaN(t, "denseMulTN "+name, gotT, wantT)
			if n > 4 { // an infinite a facing g's zero row: left out, not Inf·0
				a2 := slices.Clone(a)
				a2[4*k] = math.Inf(1)
				denseMulTN(gotT, a2, g, n, k, m, &s)
				mulTNb([][]float64{wantT}, a2, g, n, k, m, &s)
				sameBitsNaN(t, "denseMulTN infinite a "+name, gotT, wantT)
			}

			gs := slices.Clone(g)
			sparsify(gs, rng)
			gotNT, wantNT := make([]float64, n*k), make([]float64, n*k)
			denseMulNT(gotNT, gs, bt, n, k, m, &s)
			tr := make([]float64, m*k)
			transpose(tr, bt, k, m)
			mulNTb(wantNT, gs, [][]float64{tr}, n, k, m, &s)
			sameBitsNaN(t, "denseMulNT "+name, gotNT, wantNT)
		}
	}
}

// sameBitsNaN is sameBits where any two NaNs count as equal (their payloads
// may differ between the scalar and the vector units).
func sameBitsNaN(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d entries, want %d", name, len(got), len(want))
	}
	for k := range got {
		if math.IsNaN(got[k]) && math.IsNaN(want[k]) {
			continue
		}
		if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
			t.Fatalf("%s: entry %d is %v, want %v", name, k, got[k], want[k])
		}
	}
}

// TestRowsBits: sumRows, addToRows and scaleAll give the bits of their
// axpy and scalar loops with the AVX kernels and with the AVX-512 ones, for
// widths 1–70 on strided offset blocks, with special values (±Inf, NaN, −0,
// subnormal) and no rows at all.
func TestRowsBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine: the row sums are the axpy loops")
	}
	rng := rand.New(rand.NewPCG(12, 13))
	for _, wide := range []bool{false, true} {
		if wide && !useAVX512 {
			continue
		}
		for _, n := range []int{0, 1, 29} {
			for w := 1; w <= 70; w++ {
				st, off := w+3, 2
				src := awkward(max(n, 1)*st+off+w, rng, true)
				d0 := awkward(w, rng, false)
				name := fmt.Sprintf("n=%d w=%d avx512=%v", n, w, wide)
				var got, want []float64
				vec := func(f func()) { withAVX512(wide, func() { withAVX(true, f) }) }
				vec(func() { got = slices.Clone(d0); sumRows(got, strided{src, st, off}, n, w) })
				withAVX(false, func() { want = slices.Clone(d0); sumRows(want, strided{src, st, off}, n, w) })
				sameBitsNaN(t, "sumRows "+name, got, want)
				vec(func() { got = slices.Clone(src); addToRows(strided{got, st, off}, n, w, d0) })
				withAVX(false, func() { want = slices.Clone(src); addToRows(strided{want, st, off}, n, w, d0) })
				sameBitsNaN(t, "addToRows "+name, got, want)
				vec(func() { got = slices.Clone(src[:n*w]); scaleAll(got, d0[0]) })
				withAVX(false, func() { want = slices.Clone(src[:n*w]); scaleAll(want, d0[0]) })
				sameBitsNaN(t, "scaleAll "+name, got, want)
			}
		}
	}
}

// TestAllFinite: allFinite (its bulk in AVX) agrees with an entry-by-entry
// check for every length 0–70, finite vectors of extreme and signed-zero
// entries, and one NaN, +Inf or −Inf at every position.
func TestAllFinite(t *testing.T) {
	slow := func(v []float64) bool {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	for _, avx := range []bool{false, useAVX} {
		withAVX(avx, func() {
			for n := 0; n <= 70; n++ {
				v := make([]float64, n)
				for i := range v {
					v[i] = []float64{math.MaxFloat64, -math.MaxFloat64, math.Copysign(0, -1), 5e-324, 1.5}[i%5]
				}
				if !allFinite(v) || !slow(v) {
					t.Fatalf("avx=%v n=%d: a finite vector not seen as finite", avx, n)
				}
				for i := range n {
					for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
						old := v[i]
						v[i] = bad
						if allFinite(v) {
							t.Fatalf("avx=%v n=%d: %v at %d not seen", avx, n, bad, i)
						}
						v[i] = old
					}
				}
			}
		})
	}
}

// BenchmarkCSRMul: csrMul of a block-diagonal operator shaped like a
// PROTEINS batch (2 500 rows, about 4 stored entries a row) times a
// 64-column block, one goroutine, with the AVX kernels and with AVX-512.
func BenchmarkCSRMul(b *testing.B) {
	const n, w = 2500, 64
	rng := rand.New(rand.NewPCG(1, 2))
	p := randCSR(n, n, 4.0/n, rng).RawMatrix()
	src, dst := make([]float64, n*w), make([]float64, n*w)
	for k := range src {
		src[k] = rng.NormFloat64()
	}
	for _, wide := range []bool{false, true} {
		if wide && !useAVX512 {
			continue
		}
		b.Run(fmt.Sprintf("avx512=%v", wide), func(b *testing.B) {
			withAVX512(wide, func() {
				for b.Loop() {
					csrMul(whole(dst, w), p, whole(src, w), w, false, nil)
				}
			})
		})
	}
}

// TestNonZeroLists: the AVX-512 lists of non-zero coefficients hold, row
// by row, exactly the ascending columns whose entry is not ±0 (NaN
// included), for row lengths 1–40 (every remainder by 16) with ±0, NaN,
// ±Inf and subnormals among the entries.
func TestNonZeroLists(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 on this machine: denseMul never lists")
	}
	rng := rand.New(rand.NewPCG(14, 15))
	for k := 1; k <= 40; k++ {
		for _, n := range []int{1, 7} {
			a := awkward(n*k, rng, false)
			sparsify(a, rng)
			if n*k > 2 {
				a[1], a[2] = math.NaN(), 5e-324
			}
			var s scratch
			idx, cnt := s.nonZeroLists(a, n, k)
			var wantIdx, wantCnt []int32
			for i := range n {
				c := 0
				for p, v := range a[i*k : i*k+k] {
					if v != 0 || math.IsNaN(v) {
						wantIdx = append(wantIdx, int32(p))
						c++
					}
				}
				wantCnt = append(wantCnt, int32(c))
			}
			if !slices.Equal(cnt, wantCnt) || !slices.Equal(idx[:len(wantIdx)], wantIdx) {
				t.Fatalf("k=%d n=%d: lists %v %v, want %v %v", k, n, cnt, idx[:len(wantIdx)], wantCnt, wantIdx)
			}
		}
	}
}
