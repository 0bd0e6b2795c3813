package report

import (
	"fmt"
	"strings"

	"github.com/ohmgnn/ohm/model/published"
)

// editReason says why our realized edits differ from the paper's counts
// (docs/paper/README.md lists the reasons with the evidence).
type editReason string

const (
	// editsEqual: our operations are the paper's.
	editsEqual editReason = "="
	// editsCase2: case 2 (definitions §3.3) added two edges in some of our
	// iterations; the paper's additions equal our iterations.
	editsCase2 editReason = "case 2"
	// editsShort: we ran all B iterations, the paper's counts are fewer
	// than our iterations.
	editsShort editReason = "paper stops short"
	// editsOverBudget: the paper's counts exceed our B and our operations.
	editsOverBudget editReason = "paper over B"
	// editsOther: none of the above.
	editsOther editReason = "unexplained"
)

// editReasonText explains each reason below the table.
var editReasonText = map[editReason]string{
	editsEqual:      "our operations equal the paper's counts.",
	editsCase2:      "case 2 of definitions §3.3 — a per-hop top pair that is a bridge (R/d = 1), or a directed pair whose arc would leave its SCC — adds two edges in one iteration, so our additions exceed our iterations; the paper's additions equal our iterations, one per iteration, as if its case 2 added one edge or it counted iterations.",
	editsShort:      "we make all B = floor(r·E0) iterations and the paper counts fewer operations than our iterations: its run stopped before the budget, where ours always finds a pair to add (definitions §3.3); our additions may in addition hold case 2's second edges.",
	editsOverBudget: "the paper's counts exceed our B = floor(r·E0) and our operations: its budget is larger than ours (e.g. Cornell at 1 %: 3 where floor(0.01·280) = 2, as if it rounded r·E0 up or counted E0 on the directed arcs, 298).",
	editsOther:      "the counts differ for no reason we could establish.",
}

// classifyEdits returns why our edits e differ from the paper's p, for a
// budget of B iterations.
func classifyEdits(B int, e edits, p published.Edits) editReason {
	pa, pr := *p.Added, 0
	if p.Removed != nil {
		pr = *p.Removed
	}
	switch {
	case pa == e.added && pr == e.removed:
		return editsEqual
	case pa > max(B, e.added) || pr > max(B, e.removed):
		return editsOverBudget
	case e.added > e.iterations && pa == e.iterations && pr == e.removed:
		return editsCase2
	case e.iterations == B && pa <= e.added && pr <= e.removed && (pa < e.iterations || pr < e.removed):
		return editsShort
	}
	return editsOther
}

// writeEditReasons writes the reasons of a table with their counts, in a
// fixed order.
func writeEditReasons(b *strings.Builder, reasons map[editReason]int) {
	if len(reasons) == 0 {
		return
	}
	for _, r := range []editReason{editsEqual, editsCase2, editsShort, editsOverBudget, editsOther} {
		if n := reasons[r]; n > 0 {
			fmt.Fprintf(b, "- **%s** (%s): %s\n", r, plural(n, "cell"), editReasonText[r])
		}
	}
	b.WriteString("\n")
}
