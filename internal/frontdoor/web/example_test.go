package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing/fstest"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/shopspring/decimal"
)

// A front door mounts its pages behind Secure, its forms behind the
// CSRF check, and returns its errors to the one funnel.
func Example() {
	pages := fstest.MapFS{"owed.html": {Data: []byte(
		`{{define "title"}}{{.T "sign_in"}}{{end}}{{define "main"}}<p id="owed">{{.Money .Data}}</p>{{end}}`)}}
	cat, _ := web.LoadCatalog()
	assets, _ := web.NewAssets("/panel/static/")
	rd, _ := web.New(web.Options{Templates: pages, Assets: assets, Catalog: cat, Zone: time.UTC, Home: "/panel/", LangPath: "/panel/lang"})
	csrf := rd.CSRF(func(*http.Request) string { return "the session's token" })

	mux := http.NewServeMux()
	mux.Handle("/panel/static/", assets)
	mux.HandleFunc("GET /panel/lang", rd.SwitchLanguage)
	mux.Handle("GET /panel/owed", web.Secure(rd.Handle(func(w http.ResponseWriter, r *http.Request) error {
		return rd.Render(w, r, http.StatusOK, "owed.html", web.View{Data: decimal.RequireFromString("120000")})
	})))
	mux.Handle("POST /panel/pay", web.Secure(csrf(rd.Handle(func(w http.ResponseWriter, r *http.Request) error {
		return clubhouse.ErrInvalidData
	}))))

	for _, r := range []*http.Request{
		httptest.NewRequest("GET", "/panel/owed", nil),
		httptest.NewRequest("POST", "/panel/pay", strings.NewReader("csrf_token=forged")),
	} {
		r.Header.Set("Accept-Language", "en")
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		body := rec.Body.String()
		if i := strings.Index(body, "<main"); i >= 0 {
			body = strings.Join(strings.Fields(body[i:strings.Index(body, "</main>")]), " ")
		}
		fmt.Println(rec.Code, body)
	}
	// Output:
	// 200 <main id="main" tabindex="-1"> <p id="owed">$120,000</p>
	// 403 <main id="main" tabindex="-1"> <h1>Form expired</h1> <p>The form does not carry your session&#39;s security code, or it has expired. Go back, reload the page and send it again.</p> <p><a href="/panel/">Back to the start</a></p>
}
