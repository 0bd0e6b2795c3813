package gnn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// Architecture fixes the shape of a model.
type Architecture struct {
	// Kind is the layer type.
	Kind Kind
	// Layers is the depth L ≥ 1: input → hidden → … → classes (L = 1: input
	// → classes).
	Layers int
	// In, Hidden and Classes are the input, hidden and output widths.
	In, Hidden, Classes int
	// PairNorm inserts PairNorm with scale PairNormScale after every layer
	// but the last, before or after its ReLU as PairNormAt says.
	PairNorm      bool
	PairNormScale float64
	PairNormAt    PairNormAt
	// Dropout is the drop probability in [0, 1) on the input features and
	// after every ReLU.
	Dropout float64
}

// Validate reports the first invalid field. O(1).
func (a Architecture) Validate() error {
	switch {
	case a.Kind != GCN && a.Kind != DirGCN:
		return fmt.Errorf("gnn: unknown model kind %d", int(a.Kind))
	case a.Layers < 1:
		return fmt.Errorf("gnn: layers %d: must be ≥ 1", a.Layers)
	case a.In < 1:
		return fmt.Errorf("gnn: input width %d: must be ≥ 1", a.In)
	case a.Hidden < 1:
		return fmt.Errorf("gnn: hidden width %d: must be ≥ 1", a.Hidden)
	case a.Classes < 1:
		return fmt.Errorf("gnn: classes %d: must be ≥ 1", a.Classes)
	case !(a.Dropout >= 0 && a.Dropout < 1):
		return fmt.Errorf("gnn: dropout %v: must lie in [0, 1)", a.Dropout)
	case a.PairNorm && !(a.PairNormScale > 0 && !math.IsInf(a.PairNormScale, 1)):
		return fmt.Errorf("gnn: pairnorm scale %v: must be a finite number > 0", a.PairNormScale)
	case a.PairNormAt != PairNormPre && a.PairNormAt != PairNormPost:
		return fmt.Errorf("gnn: unknown PairNorm position %d", int(a.PairNormAt))
	}
	return nil
}

// Model is a stack of L graph convolutions: conv → [PairNorm] → ReLU →
// dropout → … → conv (PairNormPost: conv → ReLU → [PairNorm] → dropout),
// with dropout on the input features too (definitions §4.2). Forward and
// Backward reuse buffers, so one Model serves one goroutine; the Operators it
// was built on may be shared.
//
// Dropout keeps an entry with probability 1−p and scales it by 1/(1−p). The
// decisions come from the model's generator, two per Uint64 draw (each
// 32-bit half u keeps its entry iff u ≥ ⌊p·2³²⌋), input entries first (in
// CSR order: only the stored entries of a sparse input, as dropping a zero
// changes nothing), then each hidden layer row by row.
type Model struct {
	Arch Architecture

	convs []Conv
	norms []*PairNorm
	rng   *rand.Rand
	pcg   *rand.PCG // rng's source when known (NewTrainer): drawn directly, same sequence
	words []uint64  // the draws of one dropout mask

	drop bool
	pre  []*mat.Dense // stage k: input of its ReLU (conv or PairNorm output)
	h    []*mat.Dense // stage k: the input of conv k+1, relu(pre)·mask (PairNormPost: PairNorm(relu(pre))·mask)
	act  []*mat.Dense // stage k, PairNormPost only: relu(pre), the input of its PairNorm
	mask [][]float64

	xmask []float64 // input dropout mask (dense input)
	xia   []int     // dropped-out sparse input: kept entries only
	xja   []int
	xval  []float64
	xd    *mat.Dense // dropped-out dense input
	xcsr  *sparse.CSR
}

// NewModel builds the model of arch on the operators ops (whose Kind must be
// arch.Kind), drawing Glorot-uniform weights layer by layer from rng (biases
// zero) and keeping rng for the dropout masks. O(number of weights), plus
// O(n + nnz) on the first model built on ops (the operators' transposes,
// then shared).
func NewModel(arch Architecture, ops *Operators, rng *rand.Rand) (*Model, error) {
	if err := arch.Validate(); err != nil {
		return nil, err
	}
	if ops == nil || ops.Kind != arch.Kind {
		return nil, errors.New("gnn: operators built for another model kind")
	}
	m := &Model{Arch: arch, rng: rng}
	L := arch.Layers
	for l := range L {
		in, out := arch.Hidden, arch.Hidden
		if l == 0 {
			in = arch.In
		}
		if l == L-1 {
			out = arch.Classes
		}
		name := fmt.Sprintf("conv%d", l)
		normT, inT, outT := ops.transposes()
		if arch.Kind == GCN {
			m.convs = append(m.convs, newGCNLayer(ops.Norm, normT, in, out, rng, name))
		} else {
			m.convs = append(m.convs, newDirGCNLayer(ops.In, ops.Out, inT, outT, in, out, rng, name))
		}
	}
	m.norms = make([]*PairNorm, L-1)
	if arch.PairNorm {
		for k := range m.norms {
			m.norms[k] = NewPairNorm(arch.PairNormScale)
		}
	}
	m.pre = make([]*mat.Dense, L-1)
	m.h = make([]*mat.Dense, L-1)
	m.act = make([]*mat.Dense, L-1)
	m.mask = make([][]float64, L-1)
	return m, nil
}

// Convs returns the layers, input first.
func (m *Model) Convs() []Conv { return m.convs }

// Params returns every parameter, layer by layer (weight, then bias).
func (m *Model) Params() []*Param {
	var ps []*Param
	for _, c := range m.convs {
		ps = append(ps, c.Params()...)
	}
	return ps
}

// Forward returns the n×C logits for the input x (n×In, *mat.Dense or
// *sparse.CSR). With train true and a positive dropout rate it draws fresh
// dropout masks; otherwise dropout is the identity. The logits belong to the
// model. Cost: the layers' Forward costs plus O(n·Hidden) per stage.
func (m *Model) Forward(x mat.Matrix, train bool) *mat.Dense {
	return m.forward(x, train, nil)
}

// forward is Forward, calling seen, when not nil, with each convolution's
// output z (layer l, 0-based) before PairNorm and ReLU; z belongs to the
// layer.
func (m *Model) forward(x mat.Matrix, train bool, seen func(l int, z *mat.Dense)) *mat.Dense {
	p := m.Arch.Dropout
	m.drop = train && p > 0
	in := x
	if m.drop {
		in = m.dropInput(x)
	}
	last := len(m.convs) - 1
	for l, c := range m.convs {
		z := c.Forward(in)
		if seen != nil {
			seen(l, z)
		}
		if l == last {
			return z
		}
		if m.norms[l] != nil && m.Arch.PairNormAt == PairNormPost {
			m.pre[l] = z
			m.stagePost(l, z)
		} else {
			if m.norms[l] != nil {
				z = m.norms[l].Forward(z)
			}
			m.pre[l] = z
			m.stagePre(l, z)
		}
		in = m.h[l]
	}
	panic("unreachable")
}

// stagePre returns relu(z)·mask, the input of conv l+1 when PairNorm (if
// any) came before the ReLU; with dropout it draws the stage's mask.
// O(len(z)).
func (m *Model) stagePre(l int, z *mat.Dense) *mat.Dense {
	r, cols := z.Dims()
	m.h[l] = ensure(m.h[l], r, cols)
	h, zs := rawDense(m.h[l]), rawDense(z)
	if m.drop {
		reluDrop(h, m.maskOf(l, len(h)), zs, m.draws(len(h)), m.Arch.Dropout)
	} else {
		for k, v := range zs {
			h[k] = max(v, 0)
		}
	}
	return m.h[l]
}

// stagePost returns PairNorm(relu(z))·mask, the input of conv l+1 with
// PairNormPost; with dropout it draws the stage's mask (the same draws, in
// the same order, as stagePre). O(len(z)).
func (m *Model) stagePost(l int, z *mat.Dense) *mat.Dense {
	r, cols := z.Dims()
	m.act[l] = ensure(m.act[l], r, cols)
	a, zs := rawDense(m.act[l]), rawDense(z)
	for k, v := range zs {
		a[k] = max(v, 0)
	}
	y := rawDense(m.norms[l].Forward(m.act[l]))
	m.h[l] = ensure(m.h[l], r, cols)
	h := rawDense(m.h[l])
	if !m.drop {
		copy(h, y)
		return m.h[l]
	}
	mask := m.maskOf(l, len(h))
	dropMaskFrom(mask, m.draws(len(h)), m.Arch.Dropout)
	for k, v := range y {
		h[k] = v * mask[k]
	}
	return m.h[l]
}

// maskOf returns stage l's dropout mask, n entries, reallocated only when
// the size changes.
func (m *Model) maskOf(l, n int) []float64 {
	if len(m.mask[l]) != n {
		m.mask[l] = make([]float64, n)
	}
	return m.mask[l]
}

// dropInput returns x with dropout applied, in a model-owned buffer. A
// sparse x gives a compacted CSR holding only the kept entries (scaled), so
// that the first layer's products skip the dropped half.
func (m *Model) dropInput(x mat.Matrix) mat.Matrix {
	p := m.Arch.Dropout
	switch x := x.(type) {
	case *sparse.CSR:
		raw := x.RawMatrix()
		nnz := len(raw.Data)
		if len(m.xja) != nnz || len(m.xia) != raw.I+1 {
			m.xia, m.xja, m.xval = make([]int, raw.I+1), make([]int, nnz), make([]float64, nnz)
		}
		words := m.draws(nnz)
		thr, scale := dropThreshold(p)
		vals := [2]float64{0, scale} // keepScale's values scale·0, scale·1
		// Locals, so that the stores below need not reload m's fields; w
		// advances branch-free (keep is 1 or 0).
		xia, xja, xval := m.xia, m.xja[:nnz], m.xval[:nnz]
		ind, val := raw.Ind[:nnz], raw.Data[:nnz]
		words = words[:(nnz+1)/2]
		w := 0
		for i := range raw.I {
			for q := raw.Indptr[i]; q < raw.Indptr[i+1]; q++ {
				u := words[q>>1] >> (32 * uint(q&1)) & 0xffffffff
				keep := 1 - (u-thr)>>63
				xja[w], xval[w] = ind[q], val[q]*vals[keep]
				w += int(keep)
			}
			xia[i+1] = w
		}
		if m.xcsr == nil {
			m.xcsr = &sparse.CSR{}
		}
		*m.xcsr = *sparse.NewCSR(raw.I, raw.J, m.xia, m.xja[:w], m.xval[:w])
		return m.xcsr
	case *mat.Dense:
		x = contiguous(x)
		r, c := x.Dims()
		m.xd = ensure(m.xd, r, c)
		d, xs := rawDense(m.xd), rawDense(x)
		if len(m.xmask) != len(d) {
			m.xmask = make([]float64, len(d))
		}
		dropMaskFrom(m.xmask, m.draws(len(d)), p)
		for k, v := range xs {
			d[k] = v * m.xmask[k]
		}
		return m.xd
	}
	panic(fmt.Sprintf("gnn: unsupported input type %T", x))
}

// dropMask fills mask with 0 (dropped) or 1/(1−p) (kept), branch-free: each
// 32-bit half u of a draw keeps its entry iff u ≥ ⌊p·2³²⌋, entry 2k from the
// low half of draw k and entry 2k+1 from its high half. O(len(mask)).
func dropMask(mask []float64, p float64, rng *rand.Rand) {
	words := make([]uint64, (len(mask)+1)/2)
	for k := range words {
		words[k] = rng.Uint64()
	}
	dropMaskFrom(mask, words, p)
}

// draws returns the model's next ⌈n/2⌉ 64-bit draws (two dropout decisions
// each), in a buffer of the model. From the PCG directly when NewTrainer
// handed it over (an inlined call; rng.Uint64 would go through the Source
// interface): the same sequence either way. O(n).
func (m *Model) draws(n int) []uint64 {
	c := (n + 1) / 2
	if cap(m.words) < c {
		m.words = make([]uint64, c)
	}
	w := m.words[:c]
	if m.pcg != nil {
		for k := range w {
			w[k] = m.pcg.Uint64()
		}
	} else {
		for k := range w {
			w[k] = m.rng.Uint64()
		}
	}
	return w
}

// dropThreshold returns ⌊p·2³²⌋ and the keep scale 1/(1−p).
func dropThreshold(p float64) (thr uint64, scale float64) {
	return uint64(p * (1 << 32)), 1 / (1 - p)
}

// keepScale returns entry k's mask value: scale when the 32-bit half of
// words[k/2] that decides it (low for even k, high for odd) is ≥ thr, else
// 0. Branch-free: (u − thr) >> 63 is 1 iff u < thr, for u, thr < 2³².
func keepScale(words []uint64, k int, thr uint64, scale float64) float64 {
	u := words[k>>1] >> (32 * uint(k&1)) & 0xffffffff
	return scale * float64(1-(u-thr)>>63)
}

// keepPair returns the mask values of the two entries that the draw x
// decides (low half first), as keepScale does, from the table {0, scale}
// (the values scale·0 and scale·1 of keepScale) rather than a conversion.
func keepPair(x, thr uint64, vals *[2]float64) (float64, float64) {
	return vals[1-(x&0xffffffff-thr)>>63], vals[1-(x>>32-thr)>>63]
}

// dropMaskFrom fills mask from the draws words (dropMask's rule). O(len(mask)).
func dropMaskFrom(mask []float64, words []uint64, p float64) {
	thr, scale := dropThreshold(p)
	for k := range mask {
		mask[k] = keepScale(words, k, thr, scale)
	}
}

// reluDrop sets mask from the draws words (dropMask's rule) and
// h = relu(z)·mask in the same pass, two entries per draw (16 at a time
// in AVX-512 where the CPU has it, the same bits). O(len(h)).
func reluDrop(h, mask, z []float64, words []uint64, p float64) {
	thr, scale := dropThreshold(p)
	vals := [2]float64{0, scale}
	n := len(h)
	mask, z, words = mask[:n], z[:n], words[:(n+1)/2]
	k := 0
	if useAVX512 && n >= 16 && thr < 1<<32 { // p = 1 would keep nothing: the Go loop
		k = n &^ 15
		reluDrop512(&h[0], &mask[0], &z[0], &words[0], k, thr, scale)
	}
	for ; k+1 < n; k += 2 {
		m0, m1 := keepPair(words[k>>1], thr, &vals)
		mask[k], mask[k+1] = m0, m1
		h[k], h[k+1] = max(z[k], 0)*m0, max(z[k+1], 0)*m1
	}
	if k < n {
		m0, _ := keepPair(words[k>>1], thr, &vals)
		mask[k] = m0
		h[k] = max(z[k], 0) * m0
	}
}

// Backward sets the Grad of every parameter from dL/d(logits) of the last
// Forward. It does not compute the gradient of the input. Cost: the layers'
// Backward costs.
func (m *Model) Backward(dlogits *mat.Dense) {
	g := dlogits
	for l := len(m.convs) - 1; l >= 0; l-- {
		dx := m.convs[l].Backward(g, l > 0)
		if l == 0 {
			return
		}
		g = m.stageBackward(l-1, dx)
	}
}

// stageBackward turns dL/d(input of conv k+1) into dL/d(output of conv k),
// in place in dx, undoing dropout, ReLU and PairNorm in the order forward
// applied them. O(len(dx)).
func (m *Model) stageBackward(k int, dx *mat.Dense) *mat.Dense {
	d, pre := rawDense(dx), rawDense(m.pre[k])
	if m.norms[k] != nil && m.Arch.PairNormAt == PairNormPost {
		if m.drop {
			for c, v := range m.mask[k][:len(d)] {
				d[c] *= v
			}
		}
		dx = m.norms[k].Backward(dx)
		reluGrad(rawDense(dx), pre)
		return dx
	}
	if m.drop {
		reluDropGrad(d, pre, m.mask[k])
	} else {
		reluGrad(d, pre)
	}
	if m.norms[k] != nil {
		dx = m.norms[k].Backward(dx)
	}
	return dx
}

// reluDropGrad sets d[c] = d[c]·mask[c] where pre[c] > 0 and +0 elsewhere
// (the values of Model.Backward), without a branch on the sign of pre:
// about half the entries are negative, in no pattern a predictor learns
// (in AVX-512 where the CPU has it, the same bits).
func reluDropGrad(d, pre, mask []float64) {
	pre, mask = pre[:len(d)], mask[:len(d)]
	if useAVX512 && len(d) >= 8 {
		k := len(d) &^ 7
		reluDropGrad512(&d[0], &pre[0], &mask[0], k)
		d, pre, mask = d[k:], pre[k:], mask[k:]
	}
	for c, v := range pre {
		var keep uint64
		if v > 0 {
			keep = ^uint64(0)
		}
		d[c] = math.Float64frombits(math.Float64bits(d[c]*mask[c]) & keep)
	}
}

// reluGrad sets d[c] = +0 where !(pre[c] > 0), branch-free (in AVX-512
// where the CPU has it, the same bits).
func reluGrad(d, pre []float64) {
	pre = pre[:len(d)]
	if useAVX512 && len(d) >= 8 {
		k := len(d) &^ 7
		reluGrad512(&d[0], &pre[0], k)
		d, pre = d[k:], pre[k:]
	}
	for c, v := range pre {
		var keep uint64
		if v > 0 {
			keep = ^uint64(0)
		}
		d[c] = math.Float64frombits(math.Float64bits(d[c]) & keep)
	}
}
