package sysmem

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
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
		{"16 GiB", 16 << 30, true},
		{" 2 g ", 2 << 30, true},
		{"1.5GiB", 3 << 29, true},
		{"2kb", 2048, true},
		{"-1", 0, false},
		{"lots", 0, false},
		{"NaN", 0, false},
		{"1e30G", 0, false},
		{"", 0, false},
	} {
		got, err := ParseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestEnv: OHM_MEMORY that does not parse, or is zero, is an error naming
// the variable (a command refuses it); unset is no budget.
func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want uint64
		ok   bool
		err  string
	}{
		{"", 0, false, ""},
		{"16 GiB", 16 << 30, true, ""},
		{"lots", 0, false, `OHM_MEMORY: invalid byte count "lots"`},
		{"0", 0, false, `OHM_MEMORY: invalid byte count "0": zero`},
	} {
		t.Setenv(EnvVar, tc.val)
		got, ok, err := Env()
		if got != tc.want || ok != tc.ok || (err == nil) != (tc.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("OHM_MEMORY=%q: %d, %v, %v; want %d, %v, %q", tc.val, got, ok, err, tc.want, tc.ok, tc.err)
		}
		if (CheckEnv() == nil) != (tc.err == "") {
			t.Errorf("OHM_MEMORY=%q: CheckEnv %v", tc.val, CheckEnv())
		}
	}
}

// TestCheck: under OHM_MEMORY=1G the budget less what the process holds is
// available; a larger need is refused naming the need, what is left and
// the budget.
func TestCheck(t *testing.T) {
	t.Setenv(EnvVar, "1G")
	runtime.GC()
	used := InUse()
	got := Available()
	if got > 1<<30 || got+used != 1<<30 && got+used > 1<<30+1<<20 {
		t.Fatalf("Available with OHM_MEMORY=1G = %d, in use %d", got, used)
	}
	if used == 0 || used > 256<<20 {
		t.Fatalf("InUse = %d", used)
	}
	if err := Check("small", 1<<20, ""); err != nil {
		t.Fatalf("1 MiB refused under 1 GiB: %v", err)
	}
	err := Check("dense L⁺ of 100000 nodes", 80<<30, "use the sketch engine")
	var me *Error
	if !errors.As(err, &me) || me.Need != 80<<30 || me.Have > 1<<30 || me.Have < 1<<30-used-1<<20 {
		t.Fatalf("80 GiB under 1 GiB: %v", err)
	}
	want := "dense L⁺ of 100000 nodes needs 80.0 GiB of memory, only " + FormatBytes(me.Have) +
		" is available (OHM_MEMORY=1G, " + FormatBytes(1<<30-me.Have) + " of it in use): use the sketch engine"
	if err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
	// What the process holds counts: 64 MiB more in use, 64 MiB less left.
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = 1
	}
	runtime.GC()
	if after := Available(); after > got-60<<20 {
		t.Fatalf("64 MiB held: available %d, before %d", after, got)
	}
	runtime.KeepAlive(big)
}

// TestSetSoftLimit: the soft limit follows OHM_MEMORY, and GOMEMLIMIT
// (the user's choice) wins over it.
func TestSetSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv(EnvVar, "3G")
	os.Unsetenv("GOMEMLIMIT")
	if got := SetSoftLimit(); got != 3<<30 || debug.SetMemoryLimit(-1) != 3<<30 {
		t.Fatalf("soft limit %d under OHM_MEMORY=3G", got)
	}
	t.Setenv("GOMEMLIMIT", "5GiB")
	if got := SetSoftLimit(); got != 0 {
		t.Fatalf("GOMEMLIMIT set: SetSoftLimit = %d", got)
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
