package sketch

// The engine's use of the pair certificate (paircert.go, definitions
// §3.7.2): built at a round's start when it applies, followed edit by
// edit, built again when the removals have widened it and the cover
// would keep nodes on its word (but not on the build's), or when its chain
// of edits is full.

import (
	"cmp"
	"slices"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// buildCert builds the pair certificate of the current graph when it
// applies (Options.PairFill positive, one component of more than
// 2·smallComponent nodes, the factor within the fill cap), else leaves
// none: the bounds are then bounds.go's. Its cost is buildPairCert's.
func (e *Engine) buildCert() error {
	e.cert = nil
	n := e.g.N()
	if e.opt.PairFill <= 0 || n <= 2*smallComponent {
		return nil
	}
	for _, c := range e.comp {
		if c != e.comp[0] {
			return nil
		}
	}
	if err := e.stopped(); err != nil {
		return err
	}
	pc, err := buildPairCert(e.g, e.opt.PairFill, max(1, e.opt.Workers))
	if err != nil {
		return err
	}
	if pc == nil {
		e.certRefusals++
		return nil
	}
	e.cert = pc
	e.certBuilds++
	return nil
}

// certBounds sets ecc[i] to the certificate's bound on node i's
// eccentricity in the current graph, lazily as liveBounds: every node
// gets the cheap nodeBound, then the refined bound (refinedBound, at most
// the cheap one) is computed for the 2·growBatch nodes not kept of largest
// cheap bound and for every node not kept whose cheap bound reaches the
// growBatch-th largest refined one; the others keep their cheap bound,
// below every bound the cover and nextByBound read. O(n log n +
// |refined|·certWide·|A|).
func (e *Engine) certBounds(ecc []float64) {
	pc := e.cert
	pc.spread()
	var heads []int
	for i := range ecc {
		ecc[i] = pc.nodeBound(i)
		if e.index[i] < 0 {
			heads = append(heads, i)
		}
	}
	if pc.w2max == 0 || len(heads) == 0 {
		return
	}
	slices.SortFunc(heads, byDesc(ecc))
	k := min(len(heads), 2*growBatch)
	var refined []float64
	for _, i := range heads[:k] {
		ecc[i] = pc.refinedBound(i)
		refined = append(refined, ecc[i])
	}
	slices.SortFunc(refined, func(a, b float64) int { return cmp.Compare(b, a) })
	floor := refined[min(len(refined), growBatch)-1]
	rest := heads[k:]
	parallel.Rows(max(1, e.opt.Workers), len(rest), func(_, lo, hi int) {
		for _, i := range rest[lo:hi] {
			if ecc[i] >= floor {
				ecc[i] = pc.refinedBound(i)
			}
		}
	})
}

// certDue reports whether the certificate is to be built again before
// the cover keeps nodes: at least certGap edits since its build. The gap
// starts at 2 each round, doubles (up to certChainMax) whenever a new
// build did not spare the growth, and halves whenever one did: on a
// graph whose top is wide (the ring of cliques late in its budget) the
// builds then stop costing a factor per iteration. O(1).
func (e *Engine) certDue() bool {
	return e.cert != nil && !e.certRebuilt && len(e.cert.cs) >= max(1, e.certGap)
}

// rebuildCert builds the certificate again inside a round (certDue).
func (e *Engine) rebuildCert() error {
	if err := e.buildCert(); err != nil {
		return err
	}
	e.certRebuilt, e.dirty = true, true
	return nil
}

// PairCertificates is the number of pair certificates built so far and
// the number the fill cap refused (Options.PairFill). O(1).
func (e *Engine) PairCertificates() (built, refused int) {
	return e.certBuilds, e.certRefusals
}

// CertificateActive reports whether the current bounds are the pair
// certificate's. O(1).
func (e *Engine) CertificateActive() bool { return e.exact == nil && e.cert != nil }
