package patchgen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/devtools/patchgen"
)

// TestGenerate_httpapiUpToDate fails when httpapi's generated PATCH types
// are stale: run make apidocs.
func TestGenerate_httpapiUpToDate(t *testing.T) {
	t.Parallel()
	want, err := patchgen.Generate("../../../httpapi")
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join("../../../httpapi", patchgen.Output))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "httpapi/%s is stale: run make apidocs", patchgen.Output)
}

// TestGenerate_twin: a marked struct gets a twin with the same fields and
// tags but validate:"required"; unmarked ones get none.
func TestGenerate_twin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "package p\n\nimport \"github.com/clubhouse-go/clubhouse\"\n\n" +
		"// thingInput creates a thing.\n//patchgen:patch thingPatch\ntype thingInput struct {\n" +
		"\tName clubhouse.Optional[string] `json:\"name\" validate:\"required\" maxLength:\"255\"`\n" +
		"\tNote clubhouse.Optional[string] `json:\"note\" validate:\"required\"`\n}\n\n" +
		"type other struct {\n\tX int `validate:\"required\"`\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	out, err := patchgen.Generate(dir)
	require.NoError(t, err)
	assert.Contains(t, string(out), "type thingPatch struct {\n\tName clubhouse.Optional[string] `json:\"name\" maxLength:\"255\"`\n\tNote clubhouse.Optional[string] `json:\"note\"`\n}")
	assert.NotContains(t, string(out), "validate")
	assert.NotContains(t, string(out), "other")
}

// TestGenerate_imports: the twins' file imports what their fields name,
// with the source's import names, and nothing else.
func TestGenerate_imports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "package p\n\nimport (\n\t\"time\"\n\n\t\"github.com/clubhouse-go/clubhouse\"\n\tdec \"github.com/shopspring/decimal\"\n)\n\n" +
		"//patchgen:patch thingPatch\ntype thingInput struct {\n" +
		"\tPrice clubhouse.Optional[dec.Decimal] `json:\"price\"`\n}\n\nvar _ = time.Now\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	out, err := patchgen.Generate(dir)
	require.NoError(t, err)
	assert.Contains(t, string(out), "import (\n\t\"github.com/clubhouse-go/clubhouse\"\n\tdec \"github.com/shopspring/decimal\"\n)")
	assert.NotContains(t, string(out), "\"time\"", "an import only other code uses")
}
