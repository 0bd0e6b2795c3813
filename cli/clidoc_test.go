package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/sweep"
	"github.com/ohmgnn/ohm/rewire"
)

// updateCLIDoc rewrites the generated part of docs/cli.md (make docs).
var updateCLIDoc = flag.Bool("update", false, "TestCLIDoc: rewrite the generated part of docs/cli.md")

// cliDocPath is docs/cli.md seen from this package's folder, where go test
// runs.
var cliDocPath = filepath.Join("..", "docs", "cli.md")

// readCLIDoc returns docs/cli.md's generated part (up to and including the
// marker line) and its hand-written rest.
func readCLIDoc(t *testing.T) (generated, rest string) {
	t.Helper()
	b, err := os.ReadFile(cliDocPath)
	if err != nil {
		t.Fatalf("%v (make docs writes it)", err)
	}
	s := string(b)
	i := strings.Index(s, cliDocMarker+"\n")
	if i < 0 {
		t.Fatalf("%s: no line %q ends its generated part", cliDocPath, cliDocMarker)
	}
	j := i + len(cliDocMarker) + 1
	return s[:j], s[j:]
}

// TestCLIDoc checks that docs/cli.md's generated part is what writeCLIDoc
// writes now, so that a flag or help string changed in the code without
// `make docs` fails the tests; with -update it rewrites that part and keeps
// the hand-written rest.
func TestCLIDoc(t *testing.T) {
	var want bytes.Buffer
	if err := writeCLIDoc(&want); err != nil {
		t.Fatal(err)
	}
	if *updateCLIDoc {
		rest := "\n## Reference\n"
		if b, err := os.ReadFile(cliDocPath); err == nil {
			if i := bytes.Index(b, []byte(cliDocMarker+"\n")); i >= 0 {
				rest = string(b[i+len(cliDocMarker)+1:])
			}
		}
		if err := os.WriteFile(cliDocPath, append(want.Bytes(), rest...), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", cliDocPath)
		return
	}
	got, _ := readCLIDoc(t)
	if got == want.String() {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want.String(), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		g, w := "(end of the generated part)", "(end of the generated part)"
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("docs/cli.md is stale: run make docs (or go test ./cli -run '^TestCLIDoc$' -update).\nfirst difference, line %d:\nfile: %s\ncode: %s", i+1, g, w)
		}
	}
}

// TestCLIDocGenerated checks what the generated part says against the
// command line itself: every command and flag that --help shows is there,
// and no hidden one.
func TestCLIDocGenerated(t *testing.T) {
	var doc bytes.Buffer
	if err := writeCLIDoc(&doc); err != nil {
		t.Fatal(err)
	}
	s := doc.String()
	if strings.Contains(s, "VERSION") {
		t.Error("the generated reference holds the version placeholder; it must not depend on the build")
	}
	for _, cmd := range []string{"data list", "data info", "data export", "data synth", "resistance", "rewire",
		"stats", "train", "curvature", "diagnose", "sweep", "report", "version", "demo"} {
		if !strings.Contains(s, "\n## ohm "+cmd+"\n") {
			t.Errorf("no section for ohm %s", cmd)
		}
		_, help, _ := run(t, append(strings.Fields(cmd), "--help")...)
		for _, line := range strings.Split(help, "\n") {
			// Flag lines of kong's help, indented by 2 or 6 spaces (the
			// description by none, wrapped help by more): "  -m, --method=STRING   Rewiring operator: …".
			f := strings.Fields(line)
			if indent := len(line) - len(strings.TrimLeft(line, " ")); len(f) == 0 || indent < 2 || indent > 6 {
				continue
			}
			name := f[0]
			if strings.HasPrefix(name, "-") && len(name) == 3 && len(f) > 1 {
				name = f[1]
			}
			if !strings.HasPrefix(name, "--") || name == "--help" {
				continue
			}
			name, _, _ = strings.Cut(name, "=")
			if !strings.Contains(s, "`"+name+"`") && !strings.Contains(s, "`"+name+"=") &&
				!strings.Contains(s, ", "+name+"`") && !strings.Contains(s, ", "+name+"=") {
				t.Errorf("ohm %s --help shows %s; the generated reference does not", cmd, name)
			}
		}
	}
}

// TestCLIDocJSONFields checks that the hand-written part of docs/cli.md
// names every field of every JSON document ohm writes (the --json outputs,
// the edit log, sweep records and config, diagnostics.json), each as `name`
// in the section whose heading names the document: the machine-readable
// output is documented in full.
func TestCLIDocJSONFields(t *testing.T) {
	_, rest := readCLIDoc(t)
	docs := map[string]any{
		"ohm data list --json":  dataListEntry{},
		"ohm data info --json":  DataInfo{},
		"ohm resistance --json": ResistanceOut{},
		"ohm rewire --json":     RewireSummary{},
		"ohm rewire --log":      rewire.Edit{},
		"ohm train --json":      TrainOut{},
		"ohm curvature --json":  CurvatureOut{},
		"ohm version --json":    VersionInfo{},
		"ohm sweep --results":   sweep.Record{},
		"ohm sweep --config":    sweep.Spec{},
		"diagnostics.json":      diagnose.Diagnostics{},
	}
	for what, v := range docs {
		sec := docSection(rest, "`"+what+"`")
		if sec == "" {
			t.Errorf("docs/cli.md's reference has no heading naming `%s`", what)
			continue
		}
		for _, f := range jsonFields(reflect.TypeOf(v), map[reflect.Type]bool{}) {
			if !strings.Contains(sec, "`"+f+"`") {
				t.Errorf("%s: field %q is not documented in its section of docs/cli.md", what, f)
			}
		}
	}
}

// docSection returns the section of the Markdown text s whose heading line
// contains name, up to the next heading of the same or a higher level; ""
// when no heading names it.
func docSection(s, name string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level == 0 || !strings.Contains(l, name) {
			continue
		}
		j := i + 1
		for ; j < len(lines); j++ {
			if m := len(lines[j]) - len(strings.TrimLeft(lines[j], "#")); m > 0 && m <= level && strings.HasPrefix(lines[j][m:], " ") {
				break
			}
		}
		return strings.Join(lines[i:j], "\n")
	}
	return ""
}

// jsonFields returns the JSON names of t's fields and of the structs they
// hold (through pointers, slices and arrays).
func jsonFields(t reflect.Type, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" && f.Anonymous {
			// An embedded struct without a name: JSON inlines its fields.
			out = append(out, jsonFields(f.Type, seen)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
		out = append(out, jsonFields(f.Type, seen)...)
	}
	return out
}
