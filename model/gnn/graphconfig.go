package gnn

import (
	"fmt"
	"math"
)

// GraphConfig is one graph-classification setup (definitions §4.5).
type GraphConfig struct {
	Kind        GraphKind
	Layers      int     // hidden layers L (L+1 convolutions)
	Hidden      int     // hidden width
	Dropout     float64 // after every hidden ReLU
	Pool        Pool    // pooling of the last layer's scores
	LR          float64 // Adam's initial learning rate
	WeightDecay float64 // L2 on every parameter (FoSR's code passes none: 0)
	BatchSize   int     // graphs per training batch
	// Patience is the number of epochs without a new best validation
	// accuracy after which training stops (it stops when the count exceeds
	// Patience), Threshold the factor a validation accuracy must exceed the
	// last new best by to reset the count.
	Patience  int
	Threshold float64
	MaxEpochs int // upper bound on epochs
	// TrainFrac and ValFrac size the random split: ⌊TrainFrac·N⌋ training
	// graphs, ⌊ValFrac·N⌋ validation graphs, the rest test.
	TrainFrac, ValFrac float64
}

// GraphDefaults returns FoSR's graph-classification protocol for kind k: 4
// hidden layers of width 64, dropout 0.5, mean pooling, Adam at 1e-3
// without weight decay, batches of 64, patience 100 with threshold 1.01, at
// most 1 000 000 epochs, an 80/10/10 split.
func GraphDefaults(k GraphKind) GraphConfig {
	return GraphConfig{Kind: k, Layers: 4, Hidden: 64, Dropout: 0.5, Pool: PoolMean, LR: 1e-3, BatchSize: 64,
		Patience: 100, Threshold: 1.01, MaxEpochs: 1_000_000, TrainFrac: 0.8, ValFrac: 0.1}
}

// Validate reports the first invalid field. O(1).
func (c GraphConfig) Validate() error {
	arch := GraphArch{Kind: c.Kind, Layers: c.Layers, In: 1, Hidden: c.Hidden, Classes: 2, Dropout: c.Dropout, Pool: c.Pool}
	if err := arch.Validate(); err != nil {
		return err
	}
	switch {
	case !(c.LR > 0 && !math.IsInf(c.LR, 1)):
		return fmt.Errorf("gnn: learning rate %v: must be a finite number > 0", c.LR)
	case !(c.WeightDecay >= 0 && !math.IsInf(c.WeightDecay, 1)):
		return fmt.Errorf("gnn: weight decay %v: must be a finite number ≥ 0", c.WeightDecay)
	case c.BatchSize < 1:
		return fmt.Errorf("gnn: batch size %d: must be ≥ 1", c.BatchSize)
	case c.Patience < 0:
		return fmt.Errorf("gnn: patience %d: must be ≥ 0", c.Patience)
	case !(c.Threshold >= 1 && !math.IsInf(c.Threshold, 1)):
		return fmt.Errorf("gnn: threshold %v: must be a finite number ≥ 1", c.Threshold)
	case c.MaxEpochs < 1:
		return fmt.Errorf("gnn: epochs %d: must be ≥ 1", c.MaxEpochs)
	case !(c.TrainFrac > 0 && c.ValFrac > 0 && c.TrainFrac+c.ValFrac < 1):
		return fmt.Errorf("gnn: split fractions %v/%v: both must be > 0 with a sum < 1", c.TrainFrac, c.ValFrac)
	}
	return nil
}
