package sketch

import (
	"slices"

	"github.com/ohmgnn/ohm/linalg"
)

// smallComponent is the size up to which a component's L⁺ is computed
// densely for the bounds.
const smallComponent = 64

// findSmall lists the small components (2..smallComponent nodes) of the
// current graph and computes their L⁺: exact L⁺_ii and eccentricities
// for their nodes. O(Σ n_c³).
func (e *Engine) findSmall() error {
	n := e.g.N()
	e.small = slices.Grow(e.small[:0], n)[:n]
	e.smallEcc = slices.Grow(e.smallEcc[:0], n)[:n]
	byComp := map[int32][]int{}
	for i, c := range e.comp {
		byComp[c] = append(byComp[c], i)
		e.small[i] = -1
	}
	e.smallNodes, e.smallDirty = e.smallNodes[:0], e.smallDirty[:0]
	for c := range int32(len(byComp)) {
		if nodes := byComp[c]; len(nodes) > 1 && len(nodes) <= smallComponent {
			for _, i := range nodes {
				e.small[i] = int32(len(e.smallNodes))
			}
			e.smallNodes = append(e.smallNodes, nodes)
			e.smallDirty = append(e.smallDirty, true)
		}
	}
	return e.updateSmall()
}

// updateSmall computes the L⁺ of the small components edited since (all
// at first) on the current graph.
func (e *Engine) updateSmall() error {
	for c, nodes := range e.smallNodes {
		if !e.smallDirty[c] {
			continue
		}
		P, err := linalg.ComponentPinv(e.g, nodes)
		if err != nil {
			return err
		}
		for a, i := range nodes {
			e.dhat[i], e.sd[i] = P.At(a, a), 0
			ecc := 0.0
			for b := range nodes {
				ecc = max(ecc, P.At(a, a)+P.At(b, b)-2*P.At(a, b))
			}
			e.smallEcc[i] = ecc
		}
		e.smallDirty[c] = false
	}
	return nil
}
