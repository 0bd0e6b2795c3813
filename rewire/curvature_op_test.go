package rewire

import (
	"fmt"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// runCurvature runs the curvature method of cfg with laziness alpha through
// the driver, calling afterEdit (when not nil) after every edit.
func runCurvature(g *linalg.Graph, cfg Config, alpha float64, afterEdit func(s *curvature.State)) (*Result, error) {
	if cfg.Method != Curvature {
		return nil, fmt.Errorf("runCurvature runs method %s, not %q", Curvature, cfg.Method)
	}
	cfg.Curvature = &CurvatureOptions{Alpha: alpha}
	p, err := NewPlan(g, cfg)
	if err != nil {
		return nil, err
	}
	op, err := newCurvatureOperator(p)
	if err != nil {
		return nil, err
	}
	op.(*curvatureOperator).afterEdit = afterEdit
	return p.drive(op, time.Now())
}
