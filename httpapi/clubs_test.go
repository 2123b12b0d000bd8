package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/httpapi"
	clubs "github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/mcp"
)

// errNoClub is what a Finder of several clubs answers for a host it does
// not serve.
var errNoClub = clubhouse.ErrNotFound.Withf("No club is served at this address.")

// byHost is a Finder of two clubs, each on its own database, chosen by
// the request's host.
func byHost(served map[string]*clubs.Services) clubs.Finder {
	return func(r *http.Request) (*clubs.Services, error) {
		if c, ok := served[r.Host]; ok {
			return c, nil
		}
		return nil, errNoClub
	}
}

// TestClubs_oneFinder: the routes call the services of the club that
// Options.Clubs finds for each request, so that a server of two clubs is a
// Finder and nothing else; a request for a club the Finder does not know
// is 404 with its error, and reaches no handler. The tool endpoint finds
// its club through the same Finder.
func TestClubs_oneFinder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	served := map[string]*clubs.Services{}
	for host, name := range map[string]string{"north.example": "Pádel", "south.example": "Tenis"} {
		c := clubs.New(dbtest.New(t).DB, clubs.Options{})
		_, err := c.Catalogs.CourtTypes.Create(ctx, clubhouse.Staff("test"), booking.CatalogInput{Name: clubhouse.Some(name)})
		require.NoError(t, err)
		served[host] = c
	}
	var calls atomic.Int32
	byHostOf := byHost(served)
	finder := func(r *http.Request) (*clubs.Services, error) {
		calls.Add(1)
		return byHostOf(r)
	}
	srv, err := httpapi.New(httpapi.Options{Clubs: finder, MCP: mcp.New(mcp.Options{Clubs: finder})})
	require.NoError(t, err)

	get := func(host, path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Host = host
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	for host, want := range map[string]string{"north.example": "Pádel", "south.example": "Tenis"} {
		w := get(host, "/api/public/court-types")
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		var types []struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &types))
		require.Len(t, types, 1, host)
		assert.Equal(t, want, types[0].Name, host)
	}

	calls.Store(0)
	w := get("east.example", "/api/public/court-types")
	assert.Equal(t, int32(1), calls.Load(), "found once per request")
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.JSONEq(t, `{"error":"not found","message":"No club is served at this address."}`, w.Body.String())

	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	r.Host = "localhost"
	w = httptest.NewRecorder()
	calls.Store(0)
	srv.ServeHTTP(w, r)
	assert.Equal(t, int32(1), calls.Load(), "the tool endpoint finds the club once, the API mounting it not again")
	assert.Equal(t, http.StatusNotFound, w.Code, "the tool endpoint asks the same Finder")
	assert.JSONEq(t, `{"error":"not found","message":"No club is served at this address."}`, w.Body.String())
}
