package gnn

import (
	"fmt"
	"math"
	"strings"
)

// DecayScope says which parameters get L2 weight decay.
type DecayScope int

const (
	// DecayFirst decays the first layer's parameters only — its weight
	// matrix (for DirGCN all three blocks) and its bias — as PyG's GCN
	// example does (Adam param group conv1.parameters(), definitions §4).
	DecayFirst DecayScope = iota
	// DecayAll decays every parameter.
	DecayAll
)

// String returns "first" or "all".
func (s DecayScope) String() string {
	if s == DecayAll {
		return "all"
	}
	return "first"
}

// ParseDecayScope parses "first" or "all" (any case).
func ParseDecayScope(s string) (DecayScope, error) {
	switch strings.ToLower(s) {
	case "first":
		return DecayFirst, nil
	case "all":
		return DecayAll, nil
	}
	return 0, fmt.Errorf("gnn: unknown weight-decay scope %q (want first or all)", s)
}

// Config is one training setup (definitions §4).
type Config struct {
	Kind          Kind       // GCN or DirGCN
	Layers        int        // depth L ≥ 1
	Hidden        int        // hidden width ≥ 1
	PairNorm      bool       // PairNorm between layers
	PairNormScale float64    // s > 0 (used with PairNorm)
	PairNormAt    PairNormAt // before or after the ReLU (used with PairNorm)
	Dropout       float64    // drop probability in [0, 1)
	LR            float64    // Adam's learning rate > 0
	WeightDecay   float64    // L2 coefficient ≥ 0
	DecayScope    DecayScope // which parameters WeightDecay applies to
	Epochs        int        // epochs per run ≥ 1
}

// Defaults returns the paper's untuned hyperparameters for the named
// dataset (definitions §4), with 2 layers, no PairNorm (scale 1 and
// DefaultPairNormAt when switched on),
// weight decay on the first layer and 200 epochs: cora and citeseer hidden
// 16, dropout 0.5, lr 0.01, weight decay 5e-3; cornell and texas hidden 64,
// dropout 0.5, lr 0.01, weight decay 5e-4. Every other dataset (the built-in
// bottleneck and sbm, user graphs) gets the Cornell/Texas set: the built-in
// graphs are small like WebKB. The Kind is GCN.
func Defaults(name string) Config {
	c := Config{Kind: GCN, Layers: 2, Hidden: 64, PairNormScale: 1, PairNormAt: DefaultPairNormAt, Dropout: 0.5,
		LR: 0.01, WeightDecay: 5e-4, DecayScope: DecayFirst, Epochs: 200}
	switch strings.ToLower(name) {
	case "cora", "citeseer":
		c.Hidden, c.WeightDecay = 16, 5e-3
	}
	return c
}

// Validate reports the first invalid field. O(1).
func (c Config) Validate() error {
	switch {
	case c.Kind != GCN && c.Kind != DirGCN:
		return fmt.Errorf("gnn: unknown model kind %d", int(c.Kind))
	case c.Layers < 1:
		return fmt.Errorf("gnn: layers %d: must be ≥ 1", c.Layers)
	case c.Hidden < 1:
		return fmt.Errorf("gnn: hidden %d: must be ≥ 1", c.Hidden)
	case c.PairNorm && !(c.PairNormScale > 0 && !math.IsInf(c.PairNormScale, 1)):
		return fmt.Errorf("gnn: pairnorm scale %v: must be a finite number > 0", c.PairNormScale)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fmt.Errorf("gnn: dropout %v: must lie in [0, 1)", c.Dropout)
	case !(c.LR > 0 && !math.IsInf(c.LR, 1)):
		return fmt.Errorf("gnn: learning rate %v: must be a finite number > 0", c.LR)
	case !(c.WeightDecay >= 0 && !math.IsInf(c.WeightDecay, 1)):
		return fmt.Errorf("gnn: weight decay %v: must be a finite number ≥ 0", c.WeightDecay)
	case c.PairNormAt != PairNormPre && c.PairNormAt != PairNormPost:
		return fmt.Errorf("gnn: unknown PairNorm position %d", int(c.PairNormAt))
	case c.DecayScope != DecayFirst && c.DecayScope != DecayAll:
		return fmt.Errorf("gnn: unknown weight-decay scope %d", int(c.DecayScope))
	case c.Epochs < 1:
		return fmt.Errorf("gnn: epochs %d: must be ≥ 1", c.Epochs)
	}
	return nil
}
