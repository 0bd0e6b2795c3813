// Package datatest finds the real datasets for tests. Tests read them from the
// folder named by $OHM_DATA (PyTorch Geometric's root layout, e.g.
// ../shared/data). Without it a dataset test is skipped with a message saying
// how to get the data, except under CI=true, where missing data fails the test.
package datatest

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the data root folder, or skips (fails under CI=true) the test
// when $OHM_DATA is unset or does not hold the given relative paths.
func Root(t testing.TB, need ...string) string {
	t.Helper()
	root := os.Getenv("OHM_DATA")
	missing := ""
	if root == "" {
		missing = "OHM_DATA is not set"
	} else {
		for _, p := range need {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				missing = "OHM_DATA=" + root + " lacks " + p
				break
			}
		}
	}
	if missing == "" {
		return root
	}
	msg := missing + ": point OHM_DATA at a PyTorch Geometric data root " +
		"(e.g. OHM_DATA=../shared/data) or fetch the data with 'ohm data list'"
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and dataset missing: " + msg)
	}
	t.Skip(msg)
	return ""
}
