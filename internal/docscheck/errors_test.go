package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// reasonMark is the comment that exempts an error string from the "pkg: "
// prefix: a reason another error of the same package wraps, which says the
// package first (incremental.EditError around incremental.ErrBridge, the
// line of results.jsonl around Record.Check's field). It stands on the
// line of the errors.New or fmt.Errorf call.
const reasonMark = "// reason:"

// TestErrorStringsSayTheirPackage: every error string the library makes
// (errors.New and fmt.Errorf outside cli/, commands and tests) starts with
// its package's name and ": " (definitions of the house style: "pkg:
// message", the path or dataset after the prefix), or with "%w" wrapping a
// sentinel of the same package (which says the package), or is marked as a
// reason (reasonMark). The CLI's own messages are its own.
func TestErrorStringsSayTheirPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch rel, _ := filepath.Rel(root, path); {
			case rel == "cli", rel == "python", rel == "docs", rel == "bench",
				d.Name() == "testdata", d.Name() == "out", strings.HasPrefix(d.Name(), ".") && rel != ".":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		pkg := f.Name.Name
		if pkg == "main" {
			return nil
		}
		marked := map[int]bool{}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, reasonMark) {
					marked[fset.Position(c.Pos()).Line] = true
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isErrorConstructor(call) {
				return true
			}
			checked++
			pos := fset.Position(call.Pos())
			first := call.Args[0]
			for b, ok := first.(*ast.BinaryExpr); ok; b, ok = first.(*ast.BinaryExpr) {
				first = b.X // "…" + "…": the first literal
			}
			lit, ok := first.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: the error's text is not a string literal: write it in place, starting %q", pos, pkg+": ")
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			switch {
			case strings.HasPrefix(s, pkg+": "), marked[pos.Line]:
			case strings.HasPrefix(s, "%w") && len(call.Args) > 1 && isSentinel(call.Args[1]):
			default:
				t.Errorf("%s: error string %q does not start with %q", pos, s, pkg+": ")
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d error constructors found: is the walk reading the library?", checked)
	}
}

// isErrorConstructor reports whether call is errors.New(…) or fmt.Errorf(…).
func isErrorConstructor(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && (x.Name == "errors" && sel.Sel.Name == "New" || x.Name == "fmt" && sel.Sel.Name == "Errorf")
}

// sentinel matches the name of a package's sentinel error: ErrSingular,
// errClosed.
var sentinel = regexp.MustCompile(`^[Ee]rr[A-Z]`)

// isSentinel reports whether e names a sentinel error of the file's own
// package (ErrSingular, not linalg.ErrSingular nor a variable err), whose
// own text says the package.
func isSentinel(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && sentinel.MatchString(id.Name)
}
