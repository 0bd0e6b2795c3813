package gnn

import "math"

// Plateau is PyTorch's ReduceLROnPlateau with its defaults (mode "min",
// factor 0.1, patience 10, threshold 1e-4 relative, cooldown 0, min_lr 0,
// eps 1e-8), driving an Adam's learning rate (definitions §4.5). Step costs
// O(1).
type Plateau struct {
	Factor, Threshold, MinLR, Eps float64
	Patience, Cooldown            int

	best                 float64
	bad, cooldownCounter int
}

// NewPlateau returns the scheduler with PyTorch's defaults.
func NewPlateau() *Plateau {
	return &Plateau{Factor: 0.1, Threshold: 1e-4, Eps: 1e-8, Patience: 10, best: math.Inf(1)}
}

// Step records the epoch's metric: an improvement is a value below
// best·(1 − Threshold); after more than Patience epochs without one the
// learning rate becomes max(lr·Factor, MinLR), unless that changes it by
// Eps or less. It returns whether the rate was reduced.
func (p *Plateau) Step(metric float64, opt *Adam) bool {
	if metric < p.best*(1-p.Threshold) {
		p.best, p.bad = metric, 0
	} else {
		p.bad++
	}
	if p.cooldownCounter > 0 {
		p.cooldownCounter--
		p.bad = 0
	}
	if p.bad <= p.Patience {
		return false
	}
	p.cooldownCounter, p.bad = p.Cooldown, 0
	lr := max(opt.LR*p.Factor, p.MinLR)
	if opt.LR-lr > p.Eps {
		opt.LR = lr
		return true
	}
	return false
}
