package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// readmeBlock is a fenced code block of the README: its language and lines.
type readmeBlock struct {
	lang  string
	lines []string
	line  int // of the opening fence, from 1
}

// quickStartBlocks returns the fenced blocks of the README's section
// "## Quick start".
func quickStartBlocks(t *testing.T, readme string) []readmeBlock {
	t.Helper()
	lines := strings.Split(readme, "\n")
	start := slices.Index(lines, "## Quick start")
	if start < 0 {
		t.Fatal(`README.md has no section "## Quick start"`)
	}
	var blocks []readmeBlock
	var cur *readmeBlock
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		if cur == nil && strings.HasPrefix(l, "## ") {
			break
		}
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(l, "```"), line: i + 1}
		case cur != nil && l == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: code block not closed", cur.line)
	}
	return blocks
}

// shellWords splits one command line as sh would for the README's
// commands: words separated by blanks, '…' and "…" quoting, a comment from
// an unquoted " #" to the end; a lone ">" redirects standard output to the
// next word (returned as out).
func shellWords(line string) (words []string, out string, err error) {
	var w strings.Builder
	in, quote, redirect := false, byte(0), false
	flush := func() {
		if !in {
			return
		}
		if redirect {
			out, redirect = w.String(), false
		} else {
			words = append(words, w.String())
		}
		w.Reset()
		in = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !in:
			flush()
			return words, out, nil
		case c == '>' && !in:
			flush()
			redirect = true
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, "", errors.New("unclosed quote")
	}
	flush()
	if redirect {
		return nil, "", errors.New("'>' without a file")
	}
	return words, out, nil
}

// realDatasets maps the real datasets to a file the test needs to find
// under $OHM_DATA before running a command that names them.
var realDatasets = map[string]string{
	"cora":     "Cora/raw/ind.cora.x",
	"citeseer": "CiteSeer/raw/ind.citeseer.x",
	"cornell":  "cornell/raw/out1_graph_edges.txt",
	"texas":    "texas/raw/out1_graph_edges.txt",
	"mutag":    "MUTAG/raw/MUTAG_A.txt",
	"enzymes":  "ENZYMES/raw/ENZYMES_A.txt",
	"proteins": "PROTEINS/raw/PROTEINS_A.txt",
}

// neededData returns the files under $OHM_DATA that the command's
// --dataset/-d/--datasets values need.
func neededData(args []string) []string {
	var need []string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--dataset", "-d", "--datasets":
			for _, name := range strings.Split(args[i+1], ",") {
				if f, ok := realDatasets[strings.ToLower(name)]; ok {
					need = append(need, f)
				}
			}
		}
	}
	return need
}

// pythonWithNumpy returns a python3 that imports numpy, or "".
func pythonWithNumpy() string {
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	return ""
}

var scriptName = regexp.MustCompile(`^# ([A-Za-z0-9_.-]+\.py)\b`)

// TestREADMEQuickStart runs the README's quick start as a reader would, in
// an empty folder: every line of its ```sh blocks, in order, each `ohm …`
// line through Run (the command line the binary runs) and each `python3
// NAME.py` line on the ```python block that starts with the comment
// "# NAME.py". Every command must exit with status 0. A command that names a
// real dataset needs it under $OHM_DATA (datatest.Root: skipped without it,
// failed under CI=true), and so does the rest of its block, which goes on
// from its outputs; so does a script without a Python that has numpy. Any
// other line in those blocks fails the test: the quick start shows only
// what this test runs.
func TestREADMEQuickStart(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := quickStartBlocks(t, string(b))
	scripts := map[string]string{}
	for _, bl := range blocks {
		if bl.lang == "python" && len(bl.lines) > 0 {
			if m := scriptName.FindStringSubmatch(bl.lines[0]); m != nil {
				scripts[m[1]] = strings.Join(bl.lines, "\n") + "\n"
			}
		}
	}
	t.Chdir(t.TempDir())
	commands := 0
	for _, bl := range blocks {
		if bl.lang != "sh" {
			continue
		}
		// Join continued lines.
		var cmds []string
		var lineNo []int
		for i, l := range bl.lines {
			if n := len(cmds); n > 0 && strings.HasSuffix(cmds[n-1], `\`) {
				cmds[n-1] = strings.TrimSuffix(cmds[n-1], `\`) + " " + strings.TrimSpace(l)
				continue
			}
			cmds = append(cmds, l)
			lineNo = append(lineNo, bl.line+1+i)
		}
		skip := ""
		for i, c := range cmds {
			words, redirect, err := shellWords(c)
			where := "README.md:" + strconv.Itoa(lineNo[i])
			if err != nil {
				t.Fatalf("%s: %v: %s", where, err, c)
			}
			if len(words) == 0 {
				continue
			}
			t.Run(where, func(t *testing.T) {
				if skip != "" {
					t.Skip("the block's earlier command was skipped: " + skip)
				}
				switch {
				case words[0] == "ohm":
					commands++
					if need := neededData(words[1:]); len(need) > 0 {
						skip = strings.Join(need, ", ") + " not in $OHM_DATA"
						datatest.Root(t, need...)
						skip = ""
					}
					var stdout, stderr bytes.Buffer
					// --no-download: a test never reaches for the network.
					if code := Run(append([]string{"--no-download"}, words[1:]...), &stdout, &stderr); code != 0 {
						t.Fatalf("%s: exit status %d\n%s", c, code, stderr.String())
					}
					if redirect != "" {
						if err := os.WriteFile(redirect, stdout.Bytes(), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				case words[0] == "python3" && len(words) == 2:
					script, ok := scripts[words[1]]
					if !ok {
						t.Fatalf("%s: no ```python block starting with %q in the quick start", c, "# "+words[1])
					}
					py := pythonWithNumpy()
					if py == "" {
						skip = "no python3 with numpy"
						if os.Getenv("CI") == "true" {
							t.Fatalf("CI=true: %s needs a python3 with numpy", c)
						}
						t.Skip("no python3 with numpy (apt-get install python3-numpy)")
					}
					if err := os.WriteFile(words[1], []byte(script), 0o644); err != nil {
						t.Fatal(err)
					}
					if out, err := exec.Command(py, words[1]).CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", c, err, out)
					}
				default:
					t.Fatalf("%s: the quick start's sh blocks hold only ohm and python3 commands, which this test runs", c)
				}
			})
		}
	}
	if commands == 0 {
		t.Fatal("the quick start shows no ohm command")
	}
}
