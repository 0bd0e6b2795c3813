package dataset

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// planetoidNumVal is the size of the public validation split: the nodes
// y.rows .. y.rows+499 (PyG's read_planetoid_data).
const planetoidNumVal = 500

// maxPlanetoidNodes bounds the node count a test.index may imply (PubMed, the
// largest Planetoid graph, has 19717 nodes), so that a corrupt id cannot make
// the loader allocate gigabytes.
const maxPlanetoidNodes = 1 << 22

// planetoidParts are the eight decoded raw files of a Planetoid dataset.
type planetoidParts struct {
	x, tx, allx *pickledCSR
	y, ty, ally *pickledDense
	graph       *pickledAdjacency
	testIndex   []int
	paths       map[string]string // file kind ("x", "test.index", ...) -> path
}

// planetoidKinds are the raw files of a Planetoid dataset, in PyG's order.
var planetoidKinds = []string{"x", "tx", "allx", "y", "ty", "ally", "graph", "test.index"}

// LoadPlanetoid loads the Planetoid citation graph name ("cora" or
// "citeseer", any case) from the eight raw files rawDir/ind.<name>.{x, tx,
// allx, y, ty, ally, graph, test.index} that PyTorch Geometric downloads (e.g.
// rawDir = <root>/Cora/raw), and assembles it exactly as PyG's
// read_planetoid_data does:
//
//   - N = max(test.index)+1 nodes; features and labels of nodes
//     0..allx.rows-1 come from allx/ally, row j of tx/ty goes to node
//     test.index[j], and a node in allx.rows..N-1 missing from test.index
//     (CiteSeer has 15) gets an all-zero feature row and label 0;
//   - a label is the argmax of the one-hot row (first maximum; an all-zero
//     row gives 0); NumClasses is the number of columns of y;
//   - the public split: Train = 0..y.rows-1, Val = the next 500 nodes, Test =
//     the test.index ids in ascending order;
//   - Graph is directed: an arc (k, v) for every v in graph[k], self-loops
//     dropped and duplicates coalesced (remove_self_loops + coalesce). The
//     arc set of the real files is symmetric; it is not symmetrised here.
//
// Features is an N×F *sparse.CSR with sorted, duplicate-free column indices
// and no explicit zeros (duplicate entries in a file are summed, as scipy's
// todense does).
//
// A missing file gives an error wrapping os.ErrNotExist that names its path.
// Malformed content gives a *graphio.FormatError naming the file and the byte
// offset in it (for test.index the line), including an inconsistency between
// files: row counts (x/y, tx/ty, allx/ally, tx/test.index), column counts, a
// test id inside the allx range or repeated, a graph node id outside [0, N).
//
// Deviation from PyG on inputs PyG cannot load: if fewer than 500 nodes
// follow the training nodes among the allx nodes, Val holds only those (PyG
// would fail with an index error; Cora and CiteSeer have plenty).
func LoadPlanetoid(rawDir, name string) (*Dataset, error) {
	name = strings.ToLower(name)
	if name != "cora" && name != "citeseer" {
		return nil, fmt.Errorf("dataset: unknown Planetoid dataset %q (want cora or citeseer)", name)
	}
	return loadPlanetoidFiles(rawDir, name)
}

// loadPlanetoidFiles loads rawDir/ind.<prefix>.* for any prefix; the Dataset
// is named prefix.
func loadPlanetoidFiles(rawDir, prefix string) (*Dataset, error) {
	p := &planetoidParts{paths: make(map[string]string)}
	for _, kind := range planetoidKinds {
		path := filepath.Join(rawDir, "ind."+prefix+"."+kind)
		p.paths[kind] = path
		if err := p.load(kind, path); err != nil {
			return nil, err
		}
	}
	return assemblePlanetoid(prefix, p)
}

// load opens and decodes one raw file.
func (p *planetoidParts) load(kind, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset: Planetoid %s file: %w", kind, err)
	}
	defer f.Close()
	switch kind {
	case "x":
		p.x, err = decodeCSR(path, f)
	case "tx":
		p.tx, err = decodeCSR(path, f)
	case "allx":
		p.allx, err = decodeCSR(path, f)
	case "y":
		p.y, err = decodeDense(path, f)
	case "ty":
		p.ty, err = decodeDense(path, f)
	case "ally":
		p.ally, err = decodeDense(path, f)
	case "graph":
		p.graph, err = decodeAdjacency(path, f)
	case "test.index":
		p.testIndex, err = decodeTestIndex(path, f)
	}
	return err
}

// decodeTestIndex reads ind.<name>.test.index: one decimal node id per line,
// as Python's int(line.strip()) reads it (surrounding white space allowed, an
// empty line is an error). Ids must be non-negative, below
// maxPlanetoidNodes and distinct. Errors are FormatErrors with the 1-based
// Line.
func decodeTestIndex(path string, r io.Reader) ([]int, error) {
	br := bufio.NewReader(r)
	var ids []int
	seen := make(map[int]int)
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if len(text) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("dataset: %s: reading line %d: %w", path, line, err)
		}
		lineErr := func(format string, args ...any) error {
			return &graphio.FormatError{Path: path, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
		}
		s := strings.TrimSpace(string(text))
		id, perr := strconv.Atoi(s)
		switch {
		case perr != nil:
			if len(s) > 40 {
				s = s[:40] + "..."
			}
			return nil, lineErr("test.index: invalid node id %q: want one decimal integer per line", s)
		case id < 0:
			return nil, lineErr("test.index: negative node id %d", id)
		case id >= maxPlanetoidNodes:
			return nil, lineErr("test.index: node id %d exceeds the limit of %d nodes", id, maxPlanetoidNodes)
		}
		if first, dup := seen[id]; dup {
			return nil, lineErr("test.index: node id %d repeated (first on line %d)", id, first)
		}
		seen[id] = line
		ids = append(ids, id)
		if err == io.EOF {
			break
		}
	}
	return ids, nil
}

// assemblePlanetoid checks the decoded files against each other and builds
// the Dataset (see LoadPlanetoid).
func assemblePlanetoid(name string, p *planetoidParts) (*Dataset, error) {
	if err := p.checkShapes(); err != nil {
		return nil, err
	}
	n, err := p.checkTestIndex()
	if err != nil {
		return nil, err
	}
	features, labels := p.features(n)
	g, err := p.arcs(n)
	if err != nil {
		return nil, err
	}
	n0 := p.allx.rows
	split := Split{
		Train: planetoidRange(0, p.y.rows),
		Val:   planetoidRange(p.y.rows, min(p.y.rows+planetoidNumVal, n0)),
		Test:  slices.Sorted(slices.Values(p.testIndex)),
	}
	return &Dataset{
		Name:       name,
		Graph:      g,
		Features:   features,
		Labels:     labels,
		NumClasses: p.y.cols,
		Splits:     []Split{split},
	}, nil
}

// checkShapes checks the row and column counts of the feature and label
// files against each other; each error names the later file of the pair,
// at the offset of its shape.
func (p *planetoidParts) checkShapes() error {
	type rowCheck struct {
		kind       string
		got, want  int
		off        int64
		other, dim string
	}
	checks := []rowCheck{
		{"tx", p.tx.cols, p.x.cols, p.tx.off, "x", "columns"},
		{"allx", p.allx.cols, p.x.cols, p.allx.off, "x", "columns"},
		{"y", p.y.rows, p.x.rows, p.y.off, "x", "rows"},
		{"ty", p.ty.rows, p.tx.rows, p.ty.off, "tx", "rows"},
		{"ally", p.ally.rows, p.allx.rows, p.ally.off, "allx", "rows"},
		{"ty", p.ty.cols, p.y.cols, p.ty.off, "y", "columns"},
		{"ally", p.ally.cols, p.y.cols, p.ally.off, "y", "columns"},
	}
	for _, c := range checks {
		if c.got != c.want {
			return pickleErr(p.paths[c.kind], c.off, "%s has %d %s but %s has %d (%s)",
				c.kind, c.got, c.dim, c.other, c.want, p.paths[c.other])
		}
	}
	if p.y.cols == 0 {
		return pickleErr(p.paths["y"], p.y.off, "y has no columns (no classes)")
	}
	if p.y.rows > p.allx.rows {
		return pickleErr(p.paths["y"], p.y.off, "y has %d rows, more than the %d rows of allx (%s)",
			p.y.rows, p.allx.rows, p.paths["allx"])
	}
	return nil
}

// checkTestIndex checks test.index against tx and the allx nodes (as many
// ids as tx rows, at least one, every id after the allx nodes) and
// returns the node count N = max(test.index)+1.
func (p *planetoidParts) checkTestIndex() (int, error) {
	ti, tiPath := p.testIndex, p.paths["test.index"]
	if len(ti) != p.tx.rows {
		return 0, &graphio.FormatError{Path: tiPath, Line: min(len(ti), p.tx.rows) + 1, Offset: -1,
			Msg: fmt.Sprintf("test.index lists %d node ids but tx has %d rows (%s)", len(ti), p.tx.rows, p.paths["tx"])}
	}
	if len(ti) == 0 {
		return 0, &graphio.FormatError{Path: tiPath, Offset: 0, Msg: "test.index lists no node ids"}
	}
	n0 := p.allx.rows
	n := 0
	for j, id := range ti {
		if id < n0 {
			return 0, &graphio.FormatError{Path: tiPath, Line: j + 1, Offset: -1,
				Msg: fmt.Sprintf("test.index: node id %d lies among the %d allx nodes (test ids must follow them)", id, n0)}
		}
		n = max(n, id+1)
	}
	return n, nil
}

// features returns the n×F feature matrix and the labels of the n nodes:
// allx/ally rows for the allx nodes, tx/ty row j for node test.index[j],
// an empty row and label 0 for the nodes between them missing from
// test.index.
func (p *planetoidParts) features(n int) (*sparse.CSR, []int) {
	n0 := p.allx.rows
	// testRow[i-n0] = the tx/ty row of node i >= n0, or -1.
	testRow := make([]int, n-n0)
	for i := range testRow {
		testRow[i] = -1
	}
	for j, id := range p.testIndex {
		testRow[id-n0] = j
	}

	// Features: copy CSR rows; decodeCSR already sorted and cleaned them.
	nnz := len(p.allx.indices) + len(p.tx.indices)
	ia := make([]int, 1, n+1)
	ja := make([]int, 0, nnz)
	data := make([]float64, 0, nnz)
	appendRow := func(m *pickledCSR, r int) {
		lo, hi := m.indptr[r], m.indptr[r+1]
		ja = append(ja, m.indices[lo:hi]...)
		data = append(data, m.data[lo:hi]...)
	}
	labels := make([]int, n)
	for i := range n {
		switch {
		case i < n0:
			appendRow(p.allx, i)
			labels[i] = planetoidArgmax(p.ally, i)
		case testRow[i-n0] >= 0:
			appendRow(p.tx, testRow[i-n0])
			labels[i] = planetoidArgmax(p.ty, testRow[i-n0])
		}
		ia = append(ia, len(ja))
	}
	return sparse.NewCSR(n, p.x.cols, ia, ja, data), labels
}

// arcs returns the directed graph of the n nodes with an arc (k, v) for
// every v in graph[k]: self-loops removed and duplicates coalesced
// (remove_self_loops + coalesce), an error for a node id outside [0, n).
func (p *planetoidParts) arcs(n int) (*linalg.Graph, error) {
	gPath := p.paths["graph"]
	var arcs []linalg.Edge
	for i, k := range p.graph.keys {
		if k < 0 || k >= n {
			return nil, pickleErr(gPath, p.graph.offs[i], "graph: node id %d out of range [0, %d)", k, n)
		}
		for _, v := range p.graph.lists[i] {
			if v < 0 || v >= n {
				return nil, pickleErr(gPath, p.graph.offs[i],
					"graph: node id %d (a neighbour of node %d) out of range [0, %d)", v, k, n)
			}
			if v != k {
				arcs = append(arcs, linalg.Edge{U: k, V: v})
			}
		}
	}
	slices.SortFunc(arcs, func(a, b linalg.Edge) int {
		if a.U != b.U {
			return a.U - b.U
		}
		return a.V - b.V
	})
	arcs = slices.Compact(arcs)
	g, err := linalg.FromEdges(n, true, arcs)
	if err != nil { // unreachable: ids were checked above
		return nil, pickleErr(gPath, 0, "graph: %v", err)
	}
	return g, nil
}

// planetoidArgmax returns the column of the first maximum of row r (torch.max(dim=1)).
func planetoidArgmax(m *pickledDense, r int) int {
	row := m.vals[r*m.cols : (r+1)*m.cols]
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return best
}

// planetoidRange returns lo, lo+1, ..., hi-1 (empty when hi <= lo).
func planetoidRange(lo, hi int) []int {
	s := make([]int, 0, max(hi-lo, 0))
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}
