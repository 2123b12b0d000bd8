// Package panel is the club's staff panel in the browser, the third front
// door beside the JSON API (httpapi) and the tool endpoint (mcp): pages
// rendered on the server with html/template, plain forms that work with
// JavaScript off, and a few small embedded ES modules that enhance them.
// It calls the same services as the other doors, with the
// clubhouse.Actor of the signed-in person in the page's area, and never
// the JSON API or SQL.
//
// A person signs in at /panel/login, which starts a session held in
// PostgreSQL (auth.Service.StartSession): its cookie is HttpOnly and
// SameSite=Lax, Secure and __Host- prefixed when the public base URL is
// https. Every page needs a live session (else the browser is sent to
// sign in and back), whose user one of the panel's areas admits: the
// desk (staff), the trainers' classes, the accountants' pages. A client's
// account is refused with a page that says why (403). Every form that
// changes something carries the session's CSRF token (403 without it),
// and every page has a strict Content-Security-Policy with a nonce
// (internal/frontdoor/web). The OAuth flow's sign-in and consent are
// pages here too: /authorize sends the browser to
// /panel/login?oauth_state=..., and the person allows or denies the
// client with a form.
//
// clubd's composition (internal/compose/app) builds it and hands it to the
// API, which mounts it at /panel/:
//
//	desk, err := panel.New(panel.Options{Options: webdoor.Options{Auth: idp, Clubs: club.One(services), Zone: bogota}})
//	api, err := httpapi.New(httpapi.Options{..., Panel: desk})
//
// A page decodes its query or form, makes one service call with the
// visit's actor and renders; routes (panel.go) lists every page with the
// area it opens in.
package panel
