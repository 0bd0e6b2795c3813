package cli

import (
	"fmt"
	"strconv"

	"github.com/ohmgnn/ohm/rewire"
)

// setupStage says what a rewiring does before its first iteration, which
// can take seconds (definitions §2: the dense engines compute L⁺ first):
// "computing L⁺ of 2 485 nodes". The bar shows it until the first
// iteration is done. O(1).
func setupStage(p *rewire.Plan) string {
	n := groupDigits(p.Graph.N())
	switch {
	case !p.Method.Resistance && p.Method.Name == rewire.Curvature:
		return fmt.Sprintf("computing the curvature of %s edges", groupDigits(p.Graph.E0()))
	case !p.Method.Resistance:
		return fmt.Sprintf("first power steps on %s nodes", n)
	case p.Engine == rewire.Sketch:
		return fmt.Sprintf("building the resistance sketch of %s nodes", n)
	case p.Graph.Directed():
		return fmt.Sprintf("computing the directed resistances of %s nodes", n)
	case p.Method.PerHop:
		return fmt.Sprintf("computing L⁺ and hop distances of %s nodes", n)
	}
	return fmt.Sprintf("computing L⁺ of %s nodes", n)
}

// groupDigits writes n with its digits in groups of three separated by a
// space, as the documentation writes numbers: 2485 → "2 485". O(digits).
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return neg + s
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ' ')
		}
		b = append(b, s[i])
	}
	return neg + string(b)
}
