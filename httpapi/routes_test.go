package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/apptest"
)

// TestEveryRouteDocumented: each registered route has its operation in the
// API description, and the description lists no route the server lacks.
func TestEveryRouteDocumented(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	registered := map[string]bool{}
	for _, p := range app.Server.Patterns() {
		method, path, ok := strings.Cut(p, " ")
		require.True(t, ok, "pattern %q has a method", p)
		path = strings.TrimSuffix(path, "{$}")
		registered[method+" "+path] = true
		item := doc.Paths.Find(path)
		if !assert.NotNil(t, item, "%s is not in the API description", p) {
			continue
		}
		assert.NotNil(t, item.GetOperation(method), "%s %s is not in the API description", method, path)
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			assert.True(t, registered[method+" "+path], "the description lists %s %s, which the server does not serve", method, path)
		}
	}
}

// TestReceiptFormsDocumented: the multipart bodies carry the receipt file,
// required when a payment is created.
func TestReceiptFormsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	post := doc.Paths.Find("/api/admin/booking/{bookingId}/payment").Post.RequestBody.Value.Content.Get("multipart/form-data")
	require.NotNil(t, post)
	assert.Equal(t, "binary", post.Schema.Value.Properties["foto"].Value.Format)
	assert.Contains(t, post.Schema.Value.Required, "foto")
	patch := doc.Paths.Find("/api/admin/booking/{bookingId}/payment/{paymentId}").Patch.RequestBody.Value.Content.Get("multipart/form-data")
	require.NotNil(t, patch)
	assert.NotContains(t, patch.Schema.Value.Required, "foto")
	assert.Contains(t, patch.Schema.Value.Properties, "foto")
}
