package rewire

import "testing"

// TestCompareVersions: run versions compare by number (rewire-10 after
// rewire-9), the sketch's by its own number, and a sketch version never
// compares with a dense engine's.
func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		c    int
		ok   bool
	}{
		{"rewire-1", "rewire-1", 0, true},
		{"rewire-2", "rewire-1", 1, true},
		{"rewire-1", "rewire-2", -1, true},
		{"rewire-10", "rewire-9", 1, true},
		{"rewire-2+sketch-15", "rewire-2+sketch-14", 1, true},
		{"rewire-1+sketch-15", "rewire-2+sketch-3", -1, true},
		{"rewire-2+sketch-15", "rewire-2", 0, false},
		{"rewire-2", "rewire-2+sketch-15", 0, false},
		{"rewire-x", "rewire-1", 0, false},
		{"rewire-+1", "rewire-1", 0, false},
		{"v2", "rewire-1", 0, false},
		{"gtr-2", "gtr-1", 1, true},
		{"gtr-1", "rewire-1", 0, false},
		{"", "rewire-1", 0, false},
	} {
		if got, ok := CompareVersions(c.a, c.b); got != c.c || ok != c.ok {
			t.Errorf("CompareVersions(%q, %q) = %d, %v; want %d, %v", c.a, c.b, got, ok, c.c, c.ok)
		}
	}
	for _, m := range AllMethods {
		for _, directed := range []bool{false, true} {
			v := CodeVersion(m, directed)
			if c, ok := CompareVersions(v, v); c != 0 || !ok {
				t.Errorf("%s: %q does not compare with itself", m, v)
			}
			if _, ok := CompareVersions(RunVersion(m, directed, Sketch), v); ok {
				t.Errorf("%s: the sketch's version compares with the dense engines'", m)
			}
		}
	}
}
