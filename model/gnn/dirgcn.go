package gnn

import (
	"math/rand/v2"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// DirGCNLayer is the DirGCN layer of definitions §4:
//
//	H' = D_in⁻¹A_in·H·W_in + D_out⁻¹A_out·H·W_out + H·W_self + b
//
// (see DirOperators). The three weight matrices are stored side by side in
// one in×3·out parameter W = [W_in W_out W_self], so that a sparse H is
// traversed once (M = H·W), each block Glorot-uniform with fan-in in and
// fan-out out; b is 1×out (zero).
//
// Cost per Forward: O(nnz(H)·3·out + (nnz(P_in)+nnz(P_out))·out). Backward
// costs the same plus O(n·in·3·out) for dL/dH.
type DirGCNLayer struct {
	In, Out *sparse.CSR // D_in⁻¹A_in and D_out⁻¹A_out (n×n), shared
	W       *Param      // in×3·out weight [W_in W_out W_self]
	B       *Param      // 1×out bias

	inT, outT *sparse.CSR // the transposes, for the backward gathers; shared
	in, out   int
	x         mat.Matrix
	m, z      *mat.Dense // H·W (n×3out) and the output
	dm, dx    *mat.Dense
	ws        scratch
}

// newDirGCNLayer returns a DirGCN layer over the operators in = D_in⁻¹A_in
// and out = D_out⁻¹A_out and their transposes (shared by a Model's layers)
// with nIn inputs and nOut outputs, its weights drawn from rng. Parameter
// names start with prefix.
func newDirGCNLayer(in, out, inT, outT *sparse.CSR, nIn, nOut int, rng *rand.Rand, prefix string) *DirGCNLayer {
	l := &DirGCNLayer{In: in, Out: out, inT: inT, outT: outT, in: nIn, out: nOut,
		W: newParam(prefix+".weight", nIn, 3*nOut), B: newParam(prefix+".bias", 1, nOut)}
	glorot(rawDense(l.W.Value), nIn, nOut, rng)
	return l
}

// Dims returns the input and output widths.
func (l *DirGCNLayer) Dims() (in, out int) { return l.in, l.out }

// Params returns W = [W_in W_out W_self] and b.
func (l *DirGCNLayer) Params() []*Param { return []*Param{l.W, l.B} }

// Forward returns P_in·x·W_in + P_out·x·W_out + x·W_self + b.
func (l *DirGCNLayer) Forward(x mat.Matrix) *mat.Dense {
	n := checkInput(x, l.In, l.in)
	l.x = x
	w := 3 * l.out
	l.m = ensure(l.m, n, w)
	l.z = ensure(l.z, n, l.out)
	m, z := rawDense(l.m), rawDense(l.z)
	mulInput(m, x, rawDense(l.W.Value), w, &l.ws)
	zs := whole(z, l.out)
	csrMul(zs, l.In.RawMatrix(), strided{m, w, 0}, l.out, false, nil)
	csrMul(zs, l.Out.RawMatrix(), strided{m, w, l.out}, l.out, true, nil)
	b := rawDense(l.B.Value)
	for i := range n {
		zi := z[i*l.out : (i+1)*l.out]
		axpy(zi, 1, m[i*w+2*l.out:])
		axpy(zi, 1, b)
	}
	return l.z
}

// Backward sets dW = xᵀ·[P_inᵀ·dy  P_outᵀ·dy  dy] and db = 1ᵀ·dy, and
// returns dx = [P_inᵀ·dy  P_outᵀ·dy  dy]·Wᵀ when needInput and x was dense.
func (l *DirGCNLayer) Backward(dy *mat.Dense, needInput bool) *mat.Dense {
	n, _ := l.z.Dims()
	w := 3 * l.out
	g := rawDense(contiguous(dy))
	l.dm = ensure(l.dm, n, w)
	dm := rawDense(l.dm)
	gs := whole(g, l.out)
	spmmTBy(strided{dm, w, 0}, l.In.RawMatrix(), l.inT.RawMatrix(), gs, l.out, &l.ws)
	spmmTBy(strided{dm, w, l.out}, l.Out.RawMatrix(), l.outT.RawMatrix(), gs, l.out, &l.ws)
	for i := range n {
		copy(dm[i*w+2*l.out:i*w+w], g[i*l.out:(i+1)*l.out])
	}
	colSums(rawDense(l.B.Grad), g, n, l.out)
	inputGradW(rawDense(l.W.Grad), l.x, dm, w, &l.ws)
	if _, ok := l.x.(*mat.Dense); !ok || !needInput {
		return nil
	}
	l.dx = ensure(l.dx, n, l.in)
	mulNT(rawDense(l.dx), dm, rawDense(l.W.Value), n, l.in, w, &l.ws)
	return l.dx
}
