package published_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/model/published"
)

// The paper's tables as data: how many cells each holds.
func ExamplePaper() {
	p, err := published.Paper()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(p.Accuracy), "accuracy cells,", len(p.Edits), "edit cells")

	// Output:
	// 480 accuracy cells, 160 edit cells
}
