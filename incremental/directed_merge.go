package incremental

import (
	"slices"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// An arc that leaves its SCC (definitions §3.3, step 1, case 2, when a side has no
// candidate inside the SCC) changes no resistance unless it closes a cycle
// through other SCCs; then those SCCs merge into one. The engine keeps the
// labels of the SCCs that do not change, gives each merged SCC a new label
// (the old labels stay empty), solves it exactly from the current graph
// (pending edits of the merged SCCs included) and scans its pairs: they are
// admissible from the next decision on. Merges count in Merges.

// addAcross records the arc u→v between two SCCs (already in the graph) and,
// outside a batch, merges the SCCs it joins at once.
func (e *Directed) addAcross() error {
	e.crossed = true
	if e.batch {
		return nil
	}
	if err := e.repartition(); err != nil {
		return err
	}
	e.mergeMax()
	return nil
}

// Merges returns the number of SCC merges the engine has made. O(1).
func (e *Directed) Merges() int { return e.merges }

// NumSCC returns the number of strongly connected components of the current
// graph, single nodes included. O(number of labels).
func (e *Directed) NumSCC() int {
	k := 0
	for s := range e.sccs {
		if len(e.sccs[s].members) > 0 {
			k++
		}
	}
	return k
}

// repartition recomputes the SCCs after arcs between SCCs were added
// (tarjan.SCC, O(n + m)); every new SCC that is the union of several old
// ones gets a new label and an exact solve (O(n_S³)) and scan. The SCCs
// edited in the batch that were merged leave the dirty list.
func (e *Directed) repartition() error {
	if !e.crossed {
		return nil
	}
	e.crossed = false
	comp, _ := tarjan.SCC(e.g)
	var merged []int
	for _, members := range linalg.Groups(comp) {
		old := e.comp[members[0]]
		if len(members) == len(e.sccs[old].members) {
			continue // an SCC only grows by merging: same size, same set
		}
		s := len(e.sccs)
		e.sccs = append(e.sccs, dirSCC{members: members, workers: e.opt.Workers})
		for a, i := range members {
			if o := e.comp[i]; len(e.sccs[o].members) > 0 {
				e.retire(o)
			}
			e.comp[i] = s
			e.local[i] = a
		}
		merged = append(merged, s)
		e.merges++
	}
	for _, s := range merged {
		e.big = append(e.big, s)
		if err := e.solveMerged(s); err != nil {
			return err
		}
	}
	return nil
}

// retire empties the label of an SCC that was merged into a larger one.
func (e *Directed) retire(o int) {
	e.sccs[o] = dirSCC{}
	e.big = slices.DeleteFunc(e.big, func(s int) bool { return s == o })
	e.dirty = slices.DeleteFunc(e.dirty, func(s int) bool { return s == o })
	if e.fast != nil {
		delete(e.fast.pend, o)
	}
}

// solveMerged solves a merged SCC exactly and scans it; in the fast mode it
// also builds its low-rank state.
func (e *Directed) solveMerged(s int) error {
	c := &e.sccs[s]
	if e.fast != nil {
		c.fast = &fastSCC{}
		X, err := e.exactX(s)
		if err != nil {
			return err
		}
		c.setX(X)
		if err := e.fastRebuild(s); err != nil {
			return err
		}
		c.fast.exactWindow()
		e.setEta(s)
	} else {
		X, err := e.solveX(s, -1, -1)
		if err != nil {
			return err
		}
		c.setX(X)
	}
	c.track.Exclude = e.skip
	c.scan(e.dist)
	return nil
}
