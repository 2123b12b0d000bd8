// Package web is the kit the club's web front doors share, the staff
// panel (/panel/) and the members' app (/app/): server-rendered
// html/template pages in the Miniflux way, plain forms that work without
// JavaScript and small ES modules that enhance them, all embedded.
//
// It owns the messages people read (Catalog, Printer: es-CO first, then
// en, chosen by a lang cookie over Accept-Language), the club's formats
// of amounts, days and times (Printer.Money, Date, Time), the security
// headers and the per-request CSP nonce (Secure, Nonce), the CSRF check
// of state-changing requests (CheckCSRF, Renderer.CSRF), the session
// cookie (SessionCookie; the session itself is the identity provider's),
// the shared layout, the error pages and the forms that come back with
// their fields' messages (Renderer, Error, Form), and the static files
// under content-hashed names (Assets).
//
// A front door builds it once and mounts its pages behind Secure:
//
//	cat, _ := web.LoadCatalog()
//	assets, _ := web.NewAssets("/panel/static/", panelStatic)
//	rd, _ := web.New(web.Options{Templates: panelPages, Assets: assets, Catalog: cat,
//		Zone: bogota, Home: "/panel/", LangPath: "/panel/lang"})
//	mux.Handle("/panel/static/", assets)
//	mux.HandleFunc("GET /panel/lang", rd.SwitchLanguage)
//	csrf := rd.CSRF(func(r *http.Request) string { return sessionOf(r).CSRF })
//	mux.Handle("GET /panel/{$}", web.Secure(rd.Handle(p.dayGrid)))
//	mux.Handle("POST /panel/bookings", web.Secure(csrf(rd.Handle(p.book))))
//
// where a handler decodes, makes one service call and renders:
// return rd.Render(w, r, http.StatusOK, "day.html", web.View{CSRF: token, Data: grid}),
// rd.Form(w, r, "book.html", v, "start", err) for a refused form, or
// the error itself for the funnel.
package web
