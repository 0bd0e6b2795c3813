package rewire

import (
	"errors"
	"slices"
	"time"

	"github.com/ohmgnn/ohm/linalg"
)

// RunBudgets rewires g with cfg at each of budgets (fractions r in (0, 1],
// in any order, repeats allowed) by rewiring once: it calls Run with
// cfg.Budget set to the largest of budgets, then cuts that run after the
// floor(r·E0) iterations of each budget with Prefix. A run looks at its
// budget only to stop, so each cut is what Run with that budget makes: same
// log, counts, stop reason and graph. Engine is the run's (the engine that
// made every cut's decisions); PassedOver, Rounds, Solves and Fallbacks,
// counts of the whole run that Prefix leaves zero, stay zero. It returns
// one Result per budget, in the order given, each
// with Seconds the wall time from the start of the run until its last
// iteration (0 for a budget of no iteration), or until the end of the run
// when that cut stopped early.
//
// cfg.Budget is ignored; cfg.OnIteration, when set, is still called as Run
// calls it, for the one run. Cuts that are the whole run share its Graph;
// the others hold their own replay of the log onto g. The error is Run's, or
// one for empty budgets or a budget outside (0, 1]. Cost: one Run at the
// largest budget, plus O(len(Log) + m) per budget for the cut.
func RunBudgets(g *linalg.Graph, cfg Config, budgets []float64) ([]*Result, error) {
	if len(budgets) == 0 {
		return nil, errors.New("rewire: no budgets")
	}
	for _, r := range budgets {
		if !(r > 0 && r <= 1) {
			return nil, &ConfigError{Field: FieldBudget, Value: r, Reason: "must lie in (0, 1] (a fraction of E0, e.g. 0.05)"}
		}
	}
	cfg.Budget = slices.Max(budgets)
	p, err := NewPlan(g, cfg)
	if err != nil {
		return nil, err
	}
	at := make([]float64, p.B+1) // at[it]: seconds until iteration it
	hook := cfg.OnIteration
	t0 := time.Now()
	p.Config.OnIteration = func(it int, gr *linalg.Graph, edits []Edit) {
		at[it] = time.Since(t0).Seconds()
		if hook != nil {
			hook(it, gr, edits)
		}
	}
	res, err := p.Run()
	if err != nil {
		return nil, err
	}
	total := time.Since(t0).Seconds()
	out := make([]*Result, len(budgets))
	for i, r := range budgets {
		p := res.Prefix(g, Budget(r, res.E0))
		p.Engine = res.Engine
		p.Seconds = at[p.Budget]
		if p.StoppedEarly != "" {
			p.Seconds = total
		}
		out[i] = p
	}
	return out, nil
}
