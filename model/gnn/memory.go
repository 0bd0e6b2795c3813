package gnn

import (
	"fmt"
	"math"

	"github.com/ohmgnn/ohm/internal/sysmem"
)

// ModelBytes estimates the memory one model of arch takes while it trains
// on n nodes (definitions §7.1): every parameter four times (value,
// gradient and Adam's two moments), DirGCN's weights three blocks wide,
// and per layer about ten n×width matrices (the layer's product, output
// and backward buffers, the stage's ReLU input, output, PairNorm input,
// dropout mask and their gradients). Computed in floating point and
// capped at 2⁶² bytes, so that absurd widths do not overflow. O(1).
func ModelBytes(arch Architecture, n int) uint64 {
	const f = 8.0 // bytes a float64
	wide := 1.0
	if arch.Kind == DirGCN {
		wide = 3
	}
	params, acts := 0.0, 0.0
	for l := range max(arch.Layers, 0) {
		in, out := float64(arch.Hidden), float64(arch.Hidden)
		if l == 0 {
			in = float64(arch.In)
		}
		if l == arch.Layers-1 {
			out = float64(arch.Classes)
		}
		params += in*out*wide + out
		acts += 10 * float64(n) * out * wide
	}
	b := f * (4*params + acts)
	if b >= 1<<62 || math.IsNaN(b) {
		return 1 << 62
	}
	return uint64(b)
}

// checkMemory refuses (a *sysmem.Error) models of cfg that would not fit
// when k of them train at once on d.
func (d *Data) checkMemory(cfg Config, k int) error {
	_, f := d.X.Dims()
	arch := Architecture{Kind: cfg.Kind, Layers: cfg.Layers, In: f, Hidden: cfg.Hidden, Classes: d.Classes}
	one := ModelBytes(arch, d.Ops.N)
	need := one
	what := fmt.Sprintf("a %s of %d layers, hidden width %d, on %d nodes", cfg.Kind, cfg.Layers, cfg.Hidden, d.Ops.N)
	if k > 1 {
		need = min(one*uint64(k), 1<<62)
		if one > (1<<62)/uint64(k) {
			need = 1 << 62
		}
		what = fmt.Sprintf("%d runs at once of %s", k, what)
	}
	return sysmem.Check(what, need, "its weights, Adam's moments and n×width activations per layer; use a smaller hidden width, fewer layers or fewer runs at once")
}
