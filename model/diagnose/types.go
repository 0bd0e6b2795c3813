// Package diagnose measures what a trained GNN's representations look like (definitions §5):
// mean absolute cosine similarity of node embeddings per layer (oversmoothing), linear
// probes on inner layers (how much class information survives), linear CKA between the
// representations of models trained on differently rewired graphs, and the overlap of the
// edge sets the rewiring methods add.
package diagnose

// Training says how the models of an entry were trained: with or without
// PairNorm, its position, and the features (definitions §4.2–4.3). Files
// written before these fields existed hold models without PairNorm on
// row-normalised features.
type Training struct {
	PairNorm   bool   `json:"pairnorm"`
	PairNormAt string `json:"pairnorm_at,omitempty"` // with PairNorm: pre or post
	Features   string `json:"features,omitempty"`    // row or raw
}

// Cosine is the mean |cos(h_i, h_j)| after layer Layer of a depth-Depth model, over
// same-class and different-class node pairs: layer 0 is the input features (as
// prepared for training), layer ℓ ≥ 1 the output of convolution ℓ, before the
// PairNorm and ReLU that follow it (definitions §5). With Seeds > 1 models, Same and Diff are
// the means over the seeds and SameStd, DiffStd their population standard deviations (0 in
// files written before seeds were averaged, where Seeds is 0).
type Cosine struct {
	Dataset string `json:"dataset"`
	Training
	Method  string  `json:"method"`
	Depth   int     `json:"depth"`
	Layer   int     `json:"layer"`
	Same    float64 `json:"same"`
	Diff    float64 `json:"diff"`
	SameStd float64 `json:"same_std"`
	DiffStd float64 `json:"diff_std"`
	Seeds   int     `json:"seeds"`
}

// Probe is the test accuracy of a multinomial logistic regression (L2) trained on the
// training nodes' embeddings after layer Layer (< Depth) of a depth-Depth model.
// Acc is the mean over Seeds models, AccStd its population standard deviation.
type Probe struct {
	Dataset string `json:"dataset"`
	Training
	Method string  `json:"method"`
	Depth  int     `json:"depth"`
	Layer  int     `json:"layer"`
	Acc    float64 `json:"acc"`
	AccStd float64 `json:"acc_std"`
	Seeds  int     `json:"seeds"`
}

// CKA is the linear CKA between the last-layer representations of the curvature model and
// the model of Method (same dataset, depth, seed), averaged over Seeds seeds (CKAStd: the
// population standard deviation).
type CKA struct {
	Dataset string `json:"dataset"`
	Training
	Method string  `json:"method"`
	Depth  int     `json:"depth"`
	CKA    float64 `json:"cka"`
	CKAStd float64 `json:"cka_std"`
	Seeds  int     `json:"seeds"`
}

// Intersection is an exclusive intersection of added-edge sets: edges added by exactly the
// methods listed (sorted as in Overlap.Methods) and by no other.
type Intersection struct {
	Methods []string `json:"methods"`
	Count   int      `json:"count"`
}

// Overlap compares the added-edge sets of several methods on one dataset and budget.
type Overlap struct {
	Dataset   string         `json:"dataset"`
	Budget    float64        `json:"budget"`
	Methods   []string       `json:"methods"`
	Sizes     []int          `json:"sizes"`     // added edges per method
	Exclusive []Intersection `json:"exclusive"` // every non-empty combination, including zero counts
	Jaccard   [][]float64    `json:"jaccard"`   // Jaccard index per pair of Methods
}

// Diagnostics is what `ohm diagnose` writes (diagnostics.json).
type Diagnostics struct {
	Cosine  []Cosine  `json:"cosine"`
	Probe   []Probe   `json:"probe"`
	CKA     []CKA     `json:"cka"`
	Overlap []Overlap `json:"overlap"`
}
