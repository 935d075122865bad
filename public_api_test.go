package warpsim_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// publicPackages are the module's packages a program outside it can import:
// every directory with Go files except internal/, cmd/ (commands) and
// testdata/.
func publicPackages(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if rel != "." && (name == "internal" || name == "testdata" || name == "cmd" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil || p.Name == "main" || len(p.GoFiles) == 0 {
			return nil
		}
		dirs = append(dirs, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// internalRefs lists every exported identifier of pkg whose declaration —
// a function's signature, a type's definition, alias, exported fields and
// methods (promoted ones included), a variable's or constant's type — names
// a type from an internal package, which a caller outside the module could
// neither name nor construct.
func internalRefs(pkg *types.Package, files []*ast.File, info *types.Info) []string {
	var out []string
	// `type D in.T` prints as that in go doc, though D's underlying type is
	// all go/types keeps, and so does `const C = in.C`: look at the
	// declarations themselves.
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok == token.IMPORT {
				continue
			}
			if gd.Tok == token.CONST || gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					if !slices.ContainsFunc(vs.Names, func(n *ast.Ident) bool { return n.IsExported() }) {
						continue
					}
					for _, v := range vs.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							if id, ok := n.(*ast.Ident); ok {
								if obj := info.Uses[id]; obj != nil && isInternal(obj.Pkg()) {
									out = append(out, fmt.Sprintf("%s.%s's value names %s.%s", pkg.Name(), vs.Names[0].Name, obj.Pkg().Path(), obj.Name()))
								}
							}
							return true
						})
					}
				}
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if !ts.Name.IsExported() {
					continue
				}
				ast.Inspect(ts.Type, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.StructType, *ast.InterfaceType, *ast.FuncType:
						return false // their exported parts are walked below
					case *ast.Ident:
						if obj, ok := info.Uses[n].(*types.TypeName); ok && isInternal(obj.Pkg()) {
							out = append(out, fmt.Sprintf("%s.%s is defined as %s.%s", pkg.Name(), ts.Name.Name, obj.Pkg().Path(), obj.Name()))
						}
					}
					return true
				})
			}
		}
	}
	for _, name := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(name)
		if !obj.Exported() {
			continue
		}
		w := &apiWalker{home: pkg, seen: map[types.Type]bool{}}
		w.where = pkg.Name() + "." + name
		w.object(obj)
		out = append(out, w.found...)
	}
	return out
}

type apiWalker struct {
	home  *types.Package
	where string
	seen  map[types.Type]bool
	found []string
}

func isInternal(p *types.Package) bool {
	return p != nil && (strings.Contains(p.Path(), "/internal/") || strings.HasSuffix(p.Path(), "/internal"))
}

func (w *apiWalker) object(obj types.Object) {
	switch o := obj.(type) {
	case *types.TypeName:
		if a, ok := o.Type().(*types.Alias); ok {
			w.typ(types.Unalias(a))
			return
		}
		w.typ(o.Type())
	default:
		w.typ(obj.Type())
	}
}

func (w *apiWalker) typ(t types.Type) {
	if t == nil || w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		w.typ(types.Unalias(t))
	case *types.Named:
		obj := t.Obj()
		if isInternal(obj.Pkg()) {
			w.found = append(w.found, fmt.Sprintf("%s mentions %s.%s", w.where, obj.Pkg().Path(), obj.Name()))
			return
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.typ(t.TypeArgs().At(i))
		}
		// Types of other packages answer for themselves (the test checks
		// every public package); this package's own types, exported or
		// not, are looked into: their exported fields and methods are
		// reachable from here.
		if obj.Pkg() != w.home {
			return
		}
		w.typ(t.Underlying())
		ms := types.NewMethodSet(types.NewPointer(t))
		for i := 0; i < ms.Len(); i++ {
			if m := ms.At(i).Obj(); m.Exported() {
				w.in(obj.Name()+"."+m.Name(), m.Type())
			}
		}
	case *types.Pointer:
		w.typ(t.Elem())
	case *types.Slice:
		w.typ(t.Elem())
	case *types.Array:
		w.typ(t.Elem())
	case *types.Map:
		w.typ(t.Key())
		w.typ(t.Elem())
	case *types.Chan:
		w.typ(t.Elem())
	case *types.Signature:
		w.tuple(t.Params())
		w.tuple(t.Results())
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if f := t.Field(i); f.Exported() || f.Embedded() {
				w.in("field "+f.Name(), f.Type())
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if m := t.Method(i); m.Exported() {
				w.typ(m.Type())
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			w.typ(t.EmbeddedType(i))
		}
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			w.typ(t.Term(i).Type())
		}
	case *types.TypeParam:
		w.typ(t.Constraint())
	}
}

// in walks t as part of what (a method or field) of the identifier.
func (w *apiWalker) in(what string, t types.Type) {
	saved := w.where
	w.where += " (" + what + ")"
	w.typ(t)
	w.where = saved
}

func (w *apiWalker) tuple(tu *types.Tuple) {
	for i := 0; i < tu.Len(); i++ {
		w.typ(tu.At(i).Type())
	}
}

// exportImporter imports packages from the compiler's export data, which
// `go list -export` leaves in the build cache (seconds, where type-checking
// every dependency from source takes a minute on a small machine).
func exportImporter(t *testing.T, fset *token.FileSet, root string, dirs []string) types.Importer {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}
	for _, d := range dirs {
		args = append(args, "./"+d)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	export := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			export[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}

// typeCheck type-checks the non-test Go files of one directory.
func typeCheck(fset *token.FileSet, imp types.Importer, dir string) (*types.Package, []*ast.File, *types.Info, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	var files []*ast.File
	for _, f := range bp.GoFiles {
		af, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, af)
	}
	conf := types.Config{Importer: imp}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check(bp.ImportPath, fset, files, info)
	return pkg, files, info, err
}

// TestPublicAPINamesNoInternalType type-checks every public package and
// refuses any exported identifier whose signature, definition, fields or
// methods name a type of an internal package (go doc would print a type a
// caller cannot use). The checker hook, for one, is reached by warpsim's own
// packages through internal/devhook, and by callers through Device.Sanitize.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dirs := publicPackages(t, root)
	for _, want := range []string{".", "metrics", "launchfile", "arch"} {
		if !slices.Contains(dirs, want) {
			t.Fatalf("public packages %v: %s missing (the walk is wrong)", dirs, want)
		}
	}
	fset := token.NewFileSet()
	imp := exportImporter(t, fset, root, dirs)
	var all []string
	for _, dir := range dirs {
		pkg, files, info, err := typeCheck(fset, imp, filepath.Join(root, dir))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		all = append(all, internalRefs(pkg, files, info)...)
	}
	if len(all) > 0 {
		t.Errorf("%d exported identifiers name an internal package's type:\n  %s", len(all), strings.Join(all, "\n  "))
	}
}

// mapImporter imports packages type-checked from source strings.
type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no package %s", path)
}

// TestInternalRefsFindsEveryRoute checks the walker TestPublicAPINamesNoInternalType
// relies on: each way an exported identifier can hand a caller an internal
// type is found, and what a caller cannot reach is not.
func TestInternalRefsFindsEveryRoute(t *testing.T) {
	const internalSrc = `package in
type T struct{ X int }
type I interface{ M() }
const K = 3
func F() int { return 0 }
`
	fset := token.NewFileSet()
	check := func(path, src string, imp types.Importer) (*types.Package, []*ast.File, *types.Info) {
		t.Helper()
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		p, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, info)
		if err != nil {
			t.Fatal(err)
		}
		return p, []*ast.File{f}, info
	}
	inPkg, _, _ := check("example.com/m/internal/in", internalSrc, nil)
	imp := mapImporter{"example.com/m/internal/in": inPkg}
	tests := []struct {
		name, decl string
		want       bool
	}{
		{"alias", "type A = in.T", true},
		{"result", "func F() *in.T { return nil }", true},
		{"parameter", "func F(map[string][]in.I) {}", true},
		{"field", "type S struct{ F in.T }", true},
		{"method", "type S struct{}\nfunc (S) M(in.I) {}", true},
		{"pointer method", "type S struct{}\nfunc (*S) M() chan in.T { return nil }", true},
		{"promoted field", "type inner struct{ F in.T }\ntype S struct{ inner }", true},
		{"unexported type's method", "type s struct{}\nfunc (s) M() in.T { return in.T{} }\nfunc New() s { return s{} }", true},
		{"variable", "var V in.T", true},
		{"interface method", "type J interface{ M() in.T }", true},
		{"embedded interface", "type J interface{ in.I }", true},
		{"generic constraint", "func G[P interface{ *in.T }](P) {}", true},
		{"defined on it", "type D in.T", true},
		{"defined on a slice of it", "type D []in.T", true},
		{"constant's value", "const C = in.K + 1", true},
		{"variable's value", "var V = in.F()", true},
		{"unexported constant", "const c = in.K", false},
		{"unexported field", "type S struct{ f in.T }", false},
		{"unexported method", "type S struct{}\nfunc (S) m(in.T) {}", false},
		{"unexported function", "func f() in.T { return in.T{} }", false},
		{"no internal type", "type S struct{ F []int }\nfunc (S) M(x map[string]error) {}", false},
	}
	for _, tc := range tests {
		src := "package pub\nimport \"example.com/m/internal/in\"\nvar _ in.T\n" + tc.decl + "\n"
		got := internalRefs(check("example.com/m/pub", src, imp))
		if (len(got) > 0) != tc.want {
			t.Errorf("%s: %q found %v, want found: %v", tc.name, tc.decl, got, tc.want)
		}
	}
}
