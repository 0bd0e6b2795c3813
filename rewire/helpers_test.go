package rewire

// Helpers shared by the tests; the small graphs and the datasets come from
// package model/dataset/testgraph, shared with package curvature's tests.

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
