// Package members is the members' app, a front door of the club served
// at /app/: the pages a club's clients use on their phones, rendered on
// the server with html/template in the web kit's layout
// (internal/frontdoor/web), every form working without JavaScript.
//
// Anyone may sign up (signup.go): an e-mail, a name and a password
// (auth.Service.SignUp, limited per address and per e-mail, answering the
// same whether or not the address has an account), and the account
// exists once the e-mailed link is followed (/app/verify, a button that
// posts the link's token, so that a mail scanner that opens the link
// spends nothing). "Forgot password" sends a link to choose a new one
// (/app/forgot, /app/password). A signed-in person (any user: a staff
// member may use the app as a client of their own) acts in
// clubhouse.AreaAccount; sessions are the panel's (auth.Service web
// sessions, the session cookie, CSRF on every form). The account page
// completes the client record (booking.Clients.CreateOwn), as POST
// /api/account/client does, and shows the address of the member's
// calendar feed, which its forms make, regenerate and turn off
// (calendar.go), as /api/account/calendar-feed does.
//
// It is a sibling of httpapi, mcp and panel: it imports none of them,
// and each page decodes its form, makes one service call with the actor,
// and renders.
package members
