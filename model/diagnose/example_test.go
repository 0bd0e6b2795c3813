package diagnose_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/diagnose"
)

// EdgeOverlap compares the edges two methods added: one edge in common of
// three distinct, Jaccard 1/3.
func ExampleEdgeOverlap() {
	o := diagnose.EdgeOverlap("toy", 0.1, []string{"err", "res"}, map[string][]linalg.Edge{
		"err": {{U: 0, V: 5}, {U: 1, V: 4}},
		"res": {{U: 0, V: 5}, {U: 2, V: 3}},
	})
	fmt.Println(o.Sizes, o.Jaccard[0][1])

	// Output:
	// [2 2] 0.3333333333333333
}
