package clubhouse_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/clubhouse-go/clubhouse"

// domain packages hold business rules; they never depend on the HTTP layer
// or on the wiring.
var domain = []string{"pricing", "booking", "payments", "classes", "tickets", "ledger", "push", "users", "mail", "eventlog", "calendar", "webhooks", "reminders"}

// frontDoors are the siblings that serve people and programs the same
// services: the JSON API, the tool endpoint, the staff panel, the
// members' app.
var frontDoors = []string{"httpapi", "mcp", "panel", "members"}

// isDoor reports whether the package named name is a front door's.
func isDoor(name string) bool { return slices.Contains(frontDoors, strings.Split(name, "/")[0]) }

// above lists, for each lower domain, the domains built on it, which it
// never depends on: they extend it through its options and interfaces
// (payments.Options.Bookings, payments.Producer), never the reverse.
var above = map[string][]string{
	"booking":  {"payments", "classes", "tickets", "push", "calendar", "webhooks", "reminders"},
	"payments": {"classes", "tickets", "push", "calendar", "webhooks", "reminders"},
	"ledger":   {"booking", "payments", "classes", "tickets", "push", "calendar", "webhooks", "reminders"},
	// The reminders queue their notifications through push, which knows
	// nothing of them.
	"push": {"reminders"},
	// The users are the bottom of the domains: every other may name
	// them, and they name none.
	"users": {"pricing", "booking", "payments", "classes", "tickets", "ledger", "push", "mail", "eventlog", "calendar", "webhooks", "reminders"},
	// The mail outbox sits on the users: the domains queue their
	// messages in it, and it knows none of them (the words of each
	// message are internal/frontdoor/letters').
	"mail": {"pricing", "booking", "payments", "classes", "tickets", "ledger", "push", "calendar", "webhooks", "reminders"},
	// The event log sits on the users too: the domains record their
	// changes in it, and it knows none of them.
	"eventlog": {"pricing", "booking", "payments", "classes", "tickets", "ledger", "push", "mail", "calendar", "webhooks", "reminders"},
}

// TestArchitecture enforces the dependency rules of docs/ARCHITECTURE.md
// over the packages' full dependency sets (go list), and over their direct
// imports where a rule is about what a package names itself.
func TestArchitecture(t *testing.T) {
	t.Parallel()
	pkgs := listPackages(t)
	rel := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "/") }
	for _, p := range pkgs {
		name := rel(p.ImportPath)
		var project []string
		for _, d := range p.Deps {
			if d == module || strings.HasPrefix(d, module+"/") {
				project = append(project, rel(d))
			}
		}
		top := strings.Split(name, "/")[0]
		switch {
		case name == "":
			require.Empty(t, project, "the root package is vocabulary only and imports no project package")
		case top == "pricing":
			for _, d := range project {
				require.Equal(t, "", d, "pricing imports only the root package, not %s", d)
			}
			for _, d := range p.Deps {
				require.False(t, d == "database/sql" || d == "net/http" || strings.HasPrefix(d, "github.com/jackc/"),
					"pricing is pure: it must not depend on %s", d)
			}
		case top == "realtime":
			for _, d := range project {
				require.Equal(t, "", d, "realtime knows topics and JSON, not domains: it imports only the root package, not %s", d)
			}
		case slices.Contains(frontDoors, top):
			// Front doors onto the same services: none imports another.
			for _, d := range project {
				other := strings.Split(d, "/")[0]
				require.False(t, other != top && slices.Contains(frontDoors, other), "%s must not import %s", name, d)
			}
		case slices.Contains(domain, top):
			for _, d := range project {
				require.False(t, isDoor(d) || strings.HasPrefix(d, "cmd/") || d == "internal/compose/app" || d == "internal/testkit/apptest" || d == "internal/compose/demo" ||
					strings.HasPrefix(d, "internal/testkit/"), "domain package %s must not import %s", name, d)
				require.NotContains(t, above[top], strings.Split(d, "/")[0], "%s is built on %s: %s must not depend on it", d, name, name)
			}
		case top == "examples":
			for _, d := range project {
				require.False(t, isDoor(d) || strings.HasPrefix(d, "cmd/"), "example %s uses only the public library, not %s", name, d)
			}
			// The library it uses runs on internal/ packages; the example
			// itself must not name one (examples/examples_test.go builds it
			// as another module, where the go tool refuses them too).
			for _, d := range p.Imports {
				require.False(t, isInternal(d), "example %s imports %s", name, d)
			}
		case strings.HasPrefix(name, "internal/testkit/") && name != "internal/testkit/apptest":
			// Test kits build the club through the public services, as a
			// program using the library would; the domains' tests import
			// them, so they import no front door and no composition. The
			// in-process clubd of the front doors' tests (apptest) is the
			// composition's own kit.
			for _, d := range project {
				require.False(t, isDoor(d) || strings.HasPrefix(d, "cmd/") || strings.HasPrefix(d, "internal/compose/"),
					"test kit %s must not import %s", name, d)
			}
		case name == "internal/frontdoor/wire" || name == "internal/compose/club":
			// Shared by both front doors: the wire forms and the one
			// Services value; they know the domain, never a door.
			for _, d := range project {
				require.False(t, isDoor(d) || d == "internal/compose/app", "%s must not import %s", name, d)
			}
		case strings.HasPrefix(name, "internal/plumbing/"):
			for _, d := range project {
				require.True(t, d == "" || strings.HasPrefix(d, "internal/plumbing/"), "plumbing package %s must not import %s", name, d)
			}
		case strings.HasPrefix(name, "internal/identity/"):
			// The identity provider signs in the users of package users,
			// and writes a user only through it, and queues the messages of
			// its links in package mail; it knows no other domain.
			for _, d := range project {
				require.True(t, d == "" || d == "users" || d == "mail" || strings.HasPrefix(d, "internal/plumbing/") || strings.HasPrefix(d, "internal/identity/"),
					"the identity provider %s must not import %s", name, d)
			}
		case strings.HasPrefix(name, "internal/devtools/"):
			// The tools of the build and the test run know no club.
			for _, d := range project {
				require.True(t, strings.HasPrefix(d, "internal/devtools/"), "development tool %s must not import %s", name, d)
			}
		}
		for _, d := range project {
			require.LessOrEqual(t, layer(t, d), layer(t, name), "%s must not import %s: imports never run back up the layers", name, d)
			require.False(t, strings.HasPrefix(d, "internal/testkit/") && !strings.HasPrefix(name, "internal/testkit/"),
				"%s must not import the test kit %s outside its tests", name, d)
		}
		require.NotContains(t, []string{"util", "utils", "common", "models", "helpers"}, path.Base(name), "no grab-bag packages")
	}
}

// layer places a package of the module in its layer, from the bottom up:
// the vocabulary (the root package); plumbing (internal/plumbing) and the
// migrations; the domains and the realtime relay; the identity provider
// (internal/identity), which signs in the domain's users; what both front
// doors share (internal/frontdoor, and the club's services,
// internal/compose/club); the front doors; the composition of the server
// (internal/compose/app, demo); the commands, examples and test kits
// (internal/testkit); and the development tools (internal/devtools). A
// package imports only packages of its own layer or below
// (TestArchitecture), so that the folders of internal/ show the layers and
// no import runs back up. A package in no layer fails the test.
func layer(t *testing.T, name string) int {
	t.Helper()
	top := strings.Split(name, "/")[0]
	switch {
	case name == "":
		return 0
	case strings.HasPrefix(name, "internal/plumbing/"), top == "migrations":
		return 1
	case slices.Contains(domain, top), top == "realtime":
		return 2
	case strings.HasPrefix(name, "internal/identity/"):
		return 3
	case strings.HasPrefix(name, "internal/frontdoor/"), name == "internal/compose/club":
		return 4
	case slices.Contains(frontDoors, top):
		return 5
	case strings.HasPrefix(name, "internal/compose/"):
		return 6
	case top == "cmd", top == "examples", strings.HasPrefix(name, "internal/testkit/"):
		return 7
	case strings.HasPrefix(name, "internal/devtools/"):
		return 8
	}
	t.Fatalf("package %s is in no layer of TestArchitecture", name)
	return 0
}

// tablesOf are the tables of the main database that a domain owns,
// which the SQL of a lower domain (above) does not name: a posting of
// theirs is made by their own payments.Producer. payments still names
// enrollments, the owner of a class's payments beside the bookings: it
// locks the one claimed (ClaimEnrollment), finds the one a gateway event
// names, and reads its client for the payment's owner.
var tablesOf = map[string][]string{
	"classes": {"class_tariffs", "training_classes", "class_sessions", "enrollment_attendance"},
	"tickets": {"ticket_programs", "ticket_packages", "ticket_quotes", "ticket_sales", "ticket_strips", "ticket_refunds", "tickets",
		"events", "event_participants"},
	"push": {"push_subscriptions", "push_notifications", "push_deliveries"},
}

// TestDomainTables enforces that payments reads no table of the domains
// built on it (tablesOf): its SQL (every string literal of its non-test
// files) names none after FROM, JOIN, INTO, UPDATE or TABLE.
func TestDomainTables(t *testing.T) {
	t.Parallel()
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if name != "payments" {
			continue
		}
		var tables []string
		for _, d := range above[name] {
			tables = append(tables, tablesOf[d]...)
		}
		named := regexp.MustCompile(`(?i)\b(?:from|join|into|update|table)\s+(` + strings.Join(tables, "|") + `)\b`)
		fset := token.NewFileSet()
		for _, file := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, file), nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if m := named.FindStringSubmatch(lit.Value); m != nil {
						t.Errorf("%s: %s reads table %s of a domain built on it", fset.Position(lit.Pos()), name, m[1])
					}
				}
				return true
			})
		}
	}
}

type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string // the non-test files of the current build
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps=false", "-json", "./...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []goPackage
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

// TestDomainAPI enforces that a domain package is a library: no exported
// declaration mentions a type of an internal/ package, which a program in
// another module can neither name nor make (docs/ARCHITECTURE.md).
func TestDomainAPI(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if !slices.Contains(domain, strings.Split(name, "/")[0]) || isInternal(p.ImportPath) {
			continue
		}
		checked++
		fset := token.NewFileSet()
		for _, file := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, file), nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, u := range internalInAPI(f) {
				t.Errorf("%s: %s, which other modules cannot use", fset.Position(u.pos), u)
			}
		}
	}
	require.NotZero(t, checked, "no domain package found")
}

// TestInternalInAPI shows that the checker of TestDomainAPI finds the
// internal/ types of exported declarations, and only those.
func TestInternalInAPI(t *testing.T) {
	t.Parallel()
	const src = `package p

import (
	"example.com/m/internal/db"
	x "example.com/m/internal/other"
	"example.com/m/public"
)

type Service struct {
	DB     *db.DB
	q      db.Queryer
	Pub    public.T
	Nested struct {
		Run  func(db.Tx) error
		hide db.Tx
	}
	*db.Pool
	db.conn
}

type store struct{ Q db.Queryer }

type Handle = x.Handle

type Runner interface {
	Run(db.Tx) error
	run(db.Tx)
}

type List[T db.Row] []T

func New(h *db.DB) *Service { return nil }

func (s *Service) Get(q db.Queryer) (public.T, error) { return public.T{}, nil }

func (s *Service) get(q db.Queryer) error { return nil }

func (s store) Put(q db.Queryer) {}

func (l List[T]) Len() int { return len(l) }

func helper(q db.Queryer) {}

var Default db.Mapping

var Errors = &db.Mapping{}

var mapping db.Mapping

var Limit = db.Max()
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	var got []string
	for _, u := range internalInAPI(f) {
		got = append(got, u.String())
	}
	require.Equal(t, []string{
		"the exported type Service mentions db.DB from example.com/m/internal/db",
		"the exported type Service mentions db.Tx from example.com/m/internal/db",
		"the exported type Service mentions db.Pool from example.com/m/internal/db",
		"the exported type Handle mentions x.Handle from example.com/m/internal/other",
		"the exported type Runner mentions db.Tx from example.com/m/internal/db",
		"the exported type List mentions db.Row from example.com/m/internal/db",
		"the exported func New mentions db.DB from example.com/m/internal/db",
		"the exported method Service.Get mentions db.Queryer from example.com/m/internal/db",
		"the exported var Default mentions db.Mapping from example.com/m/internal/db",
		"the exported var Errors mentions db.Mapping from example.com/m/internal/db",
	}, got, "unexported fields, methods, receivers and declarations are not API; a value's type is seen only in a literal")

	dot, err := parser.ParseFile(token.NewFileSet(), "dot.go", "package p\n\nimport . \"example.com/m/internal/db\"\n", 0)
	require.NoError(t, err)
	require.Len(t, internalInAPI(dot), 1, "a dot import hides which names come from it")
}

// isInternal reports whether importPath is under an internal/ directory.
func isInternal(importPath string) bool {
	return strings.Contains("/"+importPath+"/", "/internal/")
}

// internalUse is a type of an internal/ package in an exported declaration.
type internalUse struct {
	pos  token.Pos
	decl string // "func New", "method Service.Get", "type Service", "var X"
	typ  string // as written: sqldb.Queryer
	path string // the import path of its package
}

func (u internalUse) String() string {
	return fmt.Sprintf("the exported %s mentions %s from %s", u.decl, u.typ, u.path)
}

// internalInAPI returns the types of internal/ packages that the exported
// declarations of f mention: the signatures of exported functions and of the
// exported methods of exported types, exported type definitions (only the
// exported fields of structs and methods of interfaces count, at any depth),
// and exported variables and constants by their written type or the type of
// their composite literal. The check is syntactic, so it needs no build: an
// import names its package by its last path element, as this module's
// internal packages do.
func internalInAPI(f *ast.File) []internalUse {
	internal := map[string]string{} // local name -> import path
	var uses []internalUse
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !isInternal(p) {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "." {
			// Its names are unqualified, so no selector would reveal them.
			uses = append(uses, internalUse{pos: imp.Pos(), decl: "dot import", typ: "every name", path: p})
		}
		internal[name] = p
	}
	var decl string
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && internal[x.Name] != "" {
					uses = append(uses, internalUse{pos: n.Pos(), decl: decl, typ: x.Name + "." + n.Sel.Name, path: internal[x.Name]})
				}
				return false
			case *ast.StructType:
				for _, fld := range n.Fields.List {
					if exportedField(fld) {
						walk(fld.Type)
					}
				}
				return false
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					if exportedField(m) {
						walk(m.Type)
					}
				}
				return false
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			decl = "func " + d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				decl = fmt.Sprintf("method %s.%s", recv, d.Name.Name)
				walk(d.Recv)
			}
			walk(d.Type)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						decl = "type " + s.Name.Name
						if s.TypeParams != nil {
							walk(s.TypeParams)
						}
						walk(s.Type)
					}
				case *ast.ValueSpec:
					for i, id := range s.Names {
						if !id.IsExported() {
							continue
						}
						decl = d.Tok.String() + " " + id.Name
						if s.Type != nil {
							walk(s.Type)
						} else if i < len(s.Values) {
							if lit := literalType(s.Values[i]); lit != nil {
								walk(lit)
							}
						}
					}
				}
			}
		}
	}
	return uses
}

// exportedField reports whether a struct field or interface method is
// visible outside its package: a named one by its names, an embedded one
// by its type's name.
func exportedField(f *ast.Field) bool {
	if len(f.Names) == 0 {
		return ast.IsExported(receiverName(f.Type))
	}
	return slices.ContainsFunc(f.Names, (*ast.Ident).IsExported)
}

// receiverName is the name of the type in a receiver or embedded field:
// Service in *Service, Catalog[T] or sqldb.DB (for which it is DB).
func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// literalType is the type written in a composite literal value (T{} or
// &T{}), the one type a variable without a written type shows syntactically;
// nil for any other value.
func literalType(v ast.Expr) ast.Expr {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	if c, ok := v.(*ast.CompositeLit); ok && c.Type != nil {
		return c.Type
	}
	return nil
}
