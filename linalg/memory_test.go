package linalg

import (
	"errors"
	"strings"
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
	err := CheckMemory("dense L⁺ of 100000 nodes", 80<<30, "use the sketch engine")
	var me *MemoryError
	if !errors.As(err, &me) || me.Need != 80<<30 || me.Have != 1<<30 {
		t.Fatalf("80 GiB under 1 GiB: %v", err)
	}
	if want := "dense L⁺ of 100000 nodes needs 80.0 GiB of memory, only 1.0 GiB is available: use the sketch engine"; err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
}

// TestGraphSizeRefused: node counts beyond int32 ids or beyond the memory
// ceiling are refused before anything is allocated (the ceiling of 256 MiB
// keeps a regression from taking the machine down: the 10⁸-node graph would
// take gigabytes).
func TestGraphSizeRefused(t *testing.T) {
	t.Setenv("OHM_MEMORY", "256M")
	if _, err := FromEdges(MaxNodes+1, false, nil); err == nil || !strings.Contains(err.Error(), "int32") {
		t.Fatalf("2³¹ nodes: %v", err)
	}
	_, err := FromEdges(100_000_000, false, []Edge{{0, 1}})
	var me *MemoryError
	if !errors.As(err, &me) || me.Have != 256<<20 {
		t.Fatalf("10⁸ nodes under 256 MiB: %v", err)
	}
	if _, err := FromEdges(1000, true, []Edge{{0, 1}}); err != nil {
		t.Fatalf("1000 nodes refused: %v", err)
	}
}

// TestFormatBytes: the one formatter of memory sizes, binary units with one
// decimal (what every memory message prints).
func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		b    uint64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"}, {59 << 20, "59.0 MiB"},
		{100e9, "93.1 GiB"}, {28e10, "260.8 GiB"}, {25 << 40, "25.0 TiB"}, {3 << 50, "3072.0 TiB"},
	} {
		if got := FormatBytes(c.b); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.b, got, c.want)
		}
	}
}
