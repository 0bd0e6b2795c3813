package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citation matches a comment's citation of the spec: "definitions §3",
// "definitions §3.1", and the first section of a range ("§4–5").
var citation = regexp.MustCompile(`definitions\s+(?://\s*)?§(\d+(?:\.\d+)?)`)

// oldCitation matches a citation of the original spec text, which no clone
// holds (spelt in two parts so that this file does not match itself).
var oldCitation = regexp.MustCompile(`SP` + `EC\s+(?://\s*)?§`)

// heading matches a numbered heading of docs/definitions.md: "## 3. …" or
// "### 3.1 …".
var heading = regexp.MustCompile(`(?m)^#{2,4} (\d+(?:\.\d+)?)\.? `)

// TestSpecCitations: every section a Go file cites as "definitions §N" or
// "definitions §N.M" is a numbered heading of docs/definitions.md, and no Go
// file cites the original spec text, which no clone of the repository holds.
func TestSpecCitations(t *testing.T) {
	root := filepath.Join("..", "..")
	spec, err := os.ReadFile(filepath.Join(root, "docs", "definitions.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(spec), -1) {
		sections[m[1]] = true
	}
	if !sections["3"] || !sections["3.1"] {
		t.Fatalf("docs/definitions.md: no numbered sections found (%d)", len(sections))
	}
	cited := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "out") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		if oldCitation.MatchString(text) {
			t.Errorf("%s cites the original spec text, which is not in the repository: cite docs/definitions.md as \"definitions §N\"", path)
		}
		for _, m := range citation.FindAllStringSubmatch(text, -1) {
			cited++
			if !sections[m[1]] {
				t.Errorf("%s cites definitions §%s, which docs/definitions.md does not have", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited == 0 {
		t.Fatal("no citation of docs/definitions.md found: the pattern is wrong")
	}
	t.Logf("%d citations, %d sections", cited, len(sections))
}
