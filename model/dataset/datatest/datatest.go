// Package datatest finds the real datasets for tests. Tests read them from the
// folder named by $OHM_DATA (PyTorch Geometric's root layout). Without it a
// dataset test is skipped with a message saying how to get the data, except
// under CI=true, where missing data fails the test. When $OHM_SKIPLOG names
// a file, each skip appends a line to it, so that make test can end with
// how many dataset tests were skipped.
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
		"(the folder holding Cora/, CiteSeer/, cornell/, texas/) or fetch the data with 'ohm data list'"
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and dataset missing: " + msg)
	}
	if log := os.Getenv("OHM_SKIPLOG"); log != "" {
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.WriteString(t.Name() + "\n")
			f.Close()
		}
	}
	t.Skip(msg)
	return ""
}
