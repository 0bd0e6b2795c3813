package linalg

import (
	"errors"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"4096", 4096, true},
		{"512M", 512 << 20, true},
		{"16G", 16 << 30, true},
		{"1.5GiB", 3 << 29, true},
		{"2kb", 2048, true},
		{"-1", 0, false},
		{"lots", 0, false},
	} {
		got, err := ParseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestCheckMemory(t *testing.T) {
	t.Setenv("OHM_MEMORY", "1G")
	if got := AvailableMemory(); got != 1<<30 {
		t.Fatalf("AvailableMemory with OHM_MEMORY=1G = %d", got)
	}
	if err := CheckMemory("small", 1<<20, ""); err != nil {
		t.Fatalf("1 MiB refused under 1 GiB: %v", err)
	}
	err := CheckMemory("dense L⁺ of 100000 nodes", 80<<30, "use --engine sketch")
	var me *MemoryError
	if !errors.As(err, &me) || me.Need != 80<<30 || me.Have != 1<<30 {
		t.Fatalf("80 GiB under 1 GiB: %v", err)
	}
	if want := "dense L⁺ of 100000 nodes needs 80.0 GiB of memory, only 1.0 GiB is available: use --engine sketch"; err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
}
