// Package published holds the paper's published tables — test accuracy at
// the best depth and the realized edits — as the data files beside it
// (accuracy.json, edits.json, transcribed from the appendix of arXiv
// 2603.11944; see README.md), embedded so that reports can set them beside
// ohm's numbers wherever the binary runs. The files are the one copy of
// the paper's numbers; docs/paper/README.md describes how they are used.
package published

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed accuracy.json
var accuracyJSON []byte

//go:embed edits.json
var editsJSON []byte

// Accuracy is one cell of the paper's "best layer / max accuracy" tables:
// the test accuracy of one run (seed 0 or split 0), maximised over depths
// 1–12, and the depth that reached it.
type Accuracy struct {
	Form     string  `json:"form"`     // undirected or directed
	Model    string  `json:"model"`    // gcn or dirgcn
	PairNorm bool    `json:"pairnorm"` //
	Dataset  string  `json:"dataset"`  // cora, citeseer, cornell or texas
	Method   string  `json:"method"`   // curvature, res, res-hop, err or err-hop
	Budget   float64 `json:"budget"`   // fraction of E0
	Layer    int     `json:"layer"`    // the depth of Acc
	Acc      float64 `json:"acc"`      // test accuracy in percent
}

// Edits is one cell of the paper's realized-edits table: the edges added
// and removed, as operations. Removed is nil where the paper prints none
// (the add-only methods).
type Edits struct {
	Form    string  `json:"form"`
	Dataset string  `json:"dataset"`
	Method  string  `json:"method"`
	Budget  float64 `json:"budget"`
	Added   *int    `json:"added"`
	Removed *int    `json:"removed"`
}

// Tables are the paper's published tables.
type Tables struct {
	Accuracy []Accuracy
	Edits    []Edits
}

// Paper returns the paper's tables as embedded. O(size of the files).
func Paper() (*Tables, error) {
	t := &Tables{}
	if err := json.Unmarshal(accuracyJSON, &t.Accuracy); err != nil {
		return nil, fmt.Errorf("published: accuracy: %w", err)
	}
	if err := json.Unmarshal(editsJSON, &t.Edits); err != nil {
		return nil, fmt.Errorf("published: edits: %w", err)
	}
	return t, nil
}
