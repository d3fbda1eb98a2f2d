package feedback

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// screenAsEvidence matches "evidence" naming a saved screen or its parts, in prose
// ("the evidence screen", "crops evidence") and in names (unitEvidence,
// EvidencePNG). Evidence is the runtime diagnostics of app/evidence alone.
var (
	screenAsEvidenceProse = regexp.MustCompile(`(?i)\bevidence\s+(screens?|crops?|snapshots?|pngs?|frames?|images?|files)\b|\b(screens?|crops?|frames?|snapshots?)\s+evidence\b`)
	screenAsEvidenceName  = regexp.MustCompile(`(?i)evidence(screen|crop|png|frame|snapshot|image)|(screen|frame|snapshot|pointing|unit|crop)evidence`)
)

// TestEvidenceNamesOnlyRuntimeDiagnostics fails when a comment or a name declared
// in app/, capture/ (which encodes the screens) or cli/ calls a saved screen, crop
// or frame "evidence" again.
func TestEvidenceNamesOnlyRuntimeDiagnostics(t *testing.T) {
	fset := token.NewFileSet()
	for _, root := range []string{"..", filepath.Join("..", "..", "capture"), filepath.Join("..", "..", "cli")} {
		checkEvidenceNames(t, fset, root)
	}
}

func checkEvidenceNames(t *testing.T, fset *token.FileSet, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "naming_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			if m := screenAsEvidenceProse.FindString(cg.Text()); m != "" {
				t.Errorf("%s: a comment calls a saved screen %q", fset.Position(cg.Pos()), m)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var names []*ast.Ident
			switch d := n.(type) {
			case *ast.FuncDecl:
				names = append(names, d.Name)
			case *ast.TypeSpec:
				names = append(names, d.Name)
			case *ast.ValueSpec:
				names = append(names, d.Names...)
			case *ast.Field:
				names = append(names, d.Names...)
			case *ast.AssignStmt:
				for _, l := range d.Lhs {
					if id, ok := l.(*ast.Ident); ok && d.Tok == token.DEFINE {
						names = append(names, id)
					}
				}
			}
			for _, id := range names {
				if screenAsEvidenceName.MatchString(id.Name) {
					t.Errorf("%s: %s names a saved screen evidence", fset.Position(id.Pos()), id.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
