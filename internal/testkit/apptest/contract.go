package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/clubhouse-go/clubhouse/httpapi"
)

var (
	contractOnce   sync.Once
	contractRouter routers.Router
	contractErr    error
)

// Contract returns the router over the API description used to check
// responses. Documented objects are closed for the check: a response field
// the description does not name fails it.
func Contract(tb testing.TB) routers.Router {
	tb.Helper()
	contractOnce.Do(func() {
		// The API page, its assets, receipts and calendar feeds are text or images, checked as strings.
		for _, ct := range []string{"text/html", "text/css", "text/javascript", "image/png", "image/jpeg", "image/webp", "text/calendar"} {
			openapi3filter.RegisterBodyDecoder(ct, rawBody)
		}
		var doc *openapi3.T
		if doc, contractErr = httpapi.OpenAPI(); contractErr != nil {
			return
		}
		if contractErr = doc.Validate(context.Background()); contractErr != nil {
			return
		}
		for _, s := range doc.Components.Schemas {
			closeObjects(s.Value, map[*openapi3.Schema]bool{})
		}
		contractRouter, contractErr = gorillamux.NewRouter(doc)
	})
	if contractErr != nil {
		tb.Fatalf("apptest: API description: %v", contractErr)
	}
	return contractRouter
}

func closeObjects(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
		no := false
		s.AdditionalProperties.Has = &no
	}
	for _, p := range s.Properties {
		closeObjects(p.Value, seen)
	}
	if s.Items != nil {
		closeObjects(s.Items.Value, seen)
	}
	for _, list := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
		for _, x := range list {
			closeObjects(x.Value, seen)
		}
	}
}

// checkContract fails the test when the response to req is not what the
// API description documents for its route.
func checkContract(tb testing.TB, req *http.Request, reqBody []byte, r *Response) {
	tb.Helper()
	route, params, err := Contract(tb).FindRoute(req)
	if err != nil {
		// No route: the server must have said so, with an error body.
		if (r.Code == http.StatusNotFound || r.Code == http.StatusMethodNotAllowed) && isErrorBody(r.Body) {
			return
		}
		tb.Errorf("contract: %s %s is not in the API description: %v", req.Method, req.URL.Path, err)
		return
	}
	if reqBody != nil {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, ExcludeRequestBody: true},
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: r.Code, Header: r.Header,
		Body:    io.NopCloser(bytes.NewReader(r.Body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		tb.Errorf("contract: response does not match the API description: %s\n%v", r, err)
	}
}

func isErrorBody(b []byte) bool {
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(b, &e) == nil && e.Error != ""
}

func rawBody(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	b, err := io.ReadAll(body)
	return string(b), err
}
