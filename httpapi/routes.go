package httpapi

import (
	"net/http"
	"strings"
)

// General API information for the OpenAPI description (swag).
//
// @title Clubhouse API
// @version 0.4.0
// @description Sports club management: courts, bookings, payments and accounting.
// @description Times of bookings and events are wall-clock times in the club's zone (CLUB_TIMEZONE); a trailing Z is not UTC.
// @description Errors answer {error, message}. Request bodies are JSON objects of at most 1 MiB; unknown fields are rejected.
// @description Text fields and parameters hold at most their maxLength characters (255 where none is given), and integers lie within their minimum and maximum; text with a NUL character or that is not UTF-8 is refused. Such input answers 400 invalid data naming the field; it is never stored altered.
// @description The routes that create bookings, events and payments accept an Idempotency-Key header that makes a retry safe: the same key and body answer the first 201 again (Idempotent-Replayed: true) without writing twice; see the header's parameter.
// @description A route that reads or writes a database answers 503 {error: "database unavailable"} while that database cannot be reached; retry later.
// @description Browser pages of other origins may call the tool endpoint (/mcp), the discovery documents (/.well-known/*) and the OAuth token and registration endpoints: these answer CORS preflights (OPTIONS, 204) and Access-Control-Allow-Origin: *, since they take bearer tokens and never cookies. No other route answers CORS headers.
// @description Every authenticated admin GET sets the cookie XSRF-TOKEN (Path=/, SameSite=Strict, readable by scripts) when the request has none; receipt downloads send its value back in the X-XSRF-TOKEN header.
// @BasePath /
// @securityDefinitions.apikey Bearer
// @in header
// @name Authorization
// @description RS256 access token: "Bearer <token>".
// @securityDefinitions.apikey XAuth
// @in header
// @name X-Auth
// @description Bot API key, one of BOT_API_KEYS.
// @securityDefinitions.apikey MetricsToken
// @in header
// @name Authorization
// @description The token of /metrics when METRICS_TOKEN is set: "Bearer <METRICS_TOKEN>".

// routes registers every route of the API with the access it requires.
func (s *Server) routes() {
	s.handle("GET /health", public, s.health)
	if s.apart != nil {
		s.handleOn(s.apart, "GET /metrics", public, s.metricsPage, nil)
	} else {
		s.handle("GET /metrics", public, s.metricsPage)
	}
	s.handle("GET /api-docs.json", public, s.apiDocsJSON)
	s.handle("GET /api-docs", public, s.apiDocsPage)
	s.handle("GET /api-docs/{$}", public, s.apiDocsPage)
	s.handle("GET /api-docs/{file}", public, s.apiDocsAsset)

	// The OAuth 2.0 authorization server, with and without the /api prefix.
	for _, p := range []string{"", "/api"} {
		s.handle("GET "+p+"/.well-known/openid-configuration", public, s.openIDConfiguration)
		s.handle("GET "+p+"/.well-known/oauth-authorization-server", public, s.authorizationServerMetadata)
		s.handle("GET "+p+"/.well-known/oauth-protected-resource/mcp", public, s.protectedResource)
		s.handleOwnParams("GET "+p+"/authorize", public, s.authorizeEndpoint)
		s.handle("GET "+p+"/oauth/authorize/request", public, s.pendingAuthorization)
		s.handle("POST "+p+"/oauth/authorize/complete", authenticated, s.completeAuthorization)
		s.handle("POST "+p+"/oauth/authorize/deny", public, s.denyAuthorization)
		s.handle("POST "+p+"/oauth/token", public, s.token)
		s.handle("POST "+p+"/oauth/register", public, s.registerClient)
	}
	s.handle("GET /.well-known/oauth-protected-resource/api/mcp", public, s.protectedResource)
	s.handle("GET /.well-known/jwks.json", public, s.jwks)
	s.handle("POST /api/auth/login", public, s.login)
	s.handle("POST /api/auth/refresh", public, s.refresh)
	s.handle("POST /api/auth/set-password", public, s.setPassword)
	s.handle("GET /set-password", public, s.setPasswordPage)
	s.handle("GET /set-password/{file}", public, s.setPasswordAsset)

	// The gateway's callback: public, but every delivery must be signed.
	s.handle("POST /webhooks/payment", public, s.paymentWebhook)
	s.handle("POST /api/webhooks/payment", public, s.paymentWebhook)
	s.handle("POST /webhooks/wompi", public, s.wompiWebhook)
	s.handle("POST /webhooks/mercadopago", public, s.mercadoPagoWebhook)

	// Calendar feeds: public, the token in the path is the credential.
	s.handle("GET /calendar/{feed}", public, s.serveCalendarFeed)

	s.handle("GET /api/admin/court-types", staff, s.listCourtTypes)
	s.handle("POST /api/admin/court-types", staff, s.createCourtType)
	s.handle("GET /api/admin/court-types/{id}", staff, s.getCourtType)
	s.handle("PATCH /api/admin/court-types/{id}", staff, s.updateCourtType)
	s.handle("DELETE /api/admin/court-types/{id}", staff, s.deleteCourtType)

	s.handle("GET /api/admin/document-types", staff, s.listDocumentTypes)
	s.handle("POST /api/admin/document-types", staff, s.createDocumentType)
	s.handle("GET /api/admin/document-types/{id}", staff, s.getDocumentType)
	s.handle("PATCH /api/admin/document-types/{id}", staff, s.updateDocumentType)
	s.handle("DELETE /api/admin/document-types/{id}", staff, s.deleteDocumentType)

	s.handle("GET /api/admin/payment-types", staff, s.listPaymentTypes)
	s.handle("POST /api/admin/payment-types", staff, s.createPaymentType)
	s.handle("GET /api/admin/payment-types/{id}", staff, s.getPaymentType)
	s.handle("PATCH /api/admin/payment-types/{id}", staff, s.updatePaymentType)
	s.handle("DELETE /api/admin/payment-types/{id}", staff, s.deletePaymentType)

	s.handle("GET /api/admin/reservation-statuses", staff, s.listReservationStatuses)
	s.handle("POST /api/admin/reservation-statuses", staff, s.createReservationStatus)
	s.handle("GET /api/admin/reservation-statuses/{id}", staff, s.getReservationStatus)
	s.handle("PATCH /api/admin/reservation-statuses/{id}", staff, s.updateReservationStatus)
	s.handle("DELETE /api/admin/reservation-statuses/{id}", staff, s.deleteReservationStatus)

	s.handle("GET /api/admin/reservation-types", staff, s.listReservationTypes)
	s.handle("POST /api/admin/reservation-types", staff, s.createReservationType)
	s.handle("GET /api/admin/reservation-types/{id}", staff, s.getReservationType)
	s.handle("PATCH /api/admin/reservation-types/{id}", staff, s.updateReservationType)
	s.handle("DELETE /api/admin/reservation-types/{id}", staff, s.deleteReservationType)

	s.handle("GET /api/admin/courts", staff, s.listCourts)
	s.handle("POST /api/admin/courts", staff, s.createCourt)
	s.handle("GET /api/admin/courts/{id}", staff, s.getCourt)
	s.handle("PATCH /api/admin/courts/{id}", staff, s.updateCourt)
	s.handle("DELETE /api/admin/courts/{id}", staff, s.deleteCourt)
	s.handle("GET /api/admin/courts/{id}/calendar-feed", staff, s.getCourtCalendarFeed)
	s.handle("POST /api/admin/courts/{id}/calendar-feed", staff, s.renewCourtCalendarFeed)
	s.handle("DELETE /api/admin/courts/{id}/calendar-feed", staff, s.revokeCourtCalendarFeed)
	s.handle("GET /api/admin/trainers/{id}/calendar-feed", staff, s.getTrainerCalendarFeed)
	s.handle("POST /api/admin/trainers/{id}/calendar-feed", staff, s.renewTrainerCalendarFeed)
	s.handle("DELETE /api/admin/trainers/{id}/calendar-feed", staff, s.revokeTrainerCalendarFeed)

	s.handle("GET /api/admin/tariffs", staff, s.listTariffs)
	s.handle("POST /api/admin/tariffs", staff, s.createTariff)
	s.handle("GET /api/admin/tariffs/{id}", staff, s.getTariff)
	s.handle("PATCH /api/admin/tariffs/{id}", staff, s.updateTariff)
	s.handle("DELETE /api/admin/tariffs/{id}", staff, s.deleteTariff)

	s.handle("GET /api/admin/club-rules", staff, s.getClubRules)
	s.handle("PUT /api/admin/club-rules", staff, s.putClubRules)
	s.handle("PATCH /api/admin/club-rules", staff, s.patchClubRules)

	s.handle("GET /api/admin/tariff-classes", staff, s.listClassTariffs)
	s.handle("POST /api/admin/tariff-classes", staff, s.createClassTariff)
	s.handle("GET /api/admin/tariff-classes/{id}", staff, s.getClassTariff)
	s.handle("PATCH /api/admin/tariff-classes/{id}", staff, s.updateClassTariff)
	s.handle("DELETE /api/admin/tariff-classes/{id}", staff, s.deleteClassTariff)
	s.handle("GET /api/admin/classes", staff, s.listClasses)
	s.handle("POST /api/admin/classes", staff, s.createClass)
	s.handle("GET /api/admin/classes/{id}", staff, s.getClass)
	s.handle("PUT /api/admin/classes/{id}", staff, s.updateClass)
	s.handle("DELETE /api/admin/classes/{id}", staff, s.deleteClass)
	s.handle("PATCH /api/admin/classes/{id}/cancel", staff, s.cancelClass)
	s.handle("PATCH /api/admin/classes/{id}/complete", staff, s.completeClass)
	s.handle("GET /api/admin/events", staff, s.listEvents)
	s.handle("POST /api/admin/events", staff, s.idempotent(s.createEvent))
	s.handle("GET /api/admin/events/{id}", staff, s.getEvent)
	s.handle("DELETE /api/admin/events/{id}", staff, s.deleteEvent)
	s.handle("PATCH /api/admin/events/{id}/cancel", staff, s.cancelEvent)
	s.handle("PATCH /api/admin/events/{id}/complete", staff, s.completeEvent)
	s.handle("GET /api/admin/events/{id}/participants", staff, s.listEventParticipants)
	s.handle("POST /api/admin/events/{id}/participants", staff, s.addEventParticipant)
	s.handle("DELETE /api/admin/events/{id}/participants/{participantId}", staff, s.removeEventParticipant)

	s.handle("GET /api/admin/tickets/programs", staff, s.listTicketPrograms)
	s.handle("POST /api/admin/tickets/programs", staff, s.createTicketProgram)
	s.handle("GET /api/admin/tickets/programs/{id}", staff, s.getTicketProgram)
	s.handle("PATCH /api/admin/tickets/programs/{id}", staff, s.updateTicketProgram)
	s.handle("POST /api/admin/tickets/packages", staff, s.createTicketPackage)
	s.handle("PUT /api/admin/tickets/packages", staff, s.setTicketPrices)
	s.handle("PATCH /api/admin/tickets/packages/{id}", staff, s.updateTicketPackage)
	s.handle("POST /api/admin/tickets/quote", staff, s.quoteTickets)
	s.handle("POST /api/admin/tickets/sales", staff, s.idempotent(s.sellTickets))
	s.handle("GET /api/admin/tickets/sales", staff, s.listTicketSales)
	s.handle("GET /api/admin/mail", staff, s.listMail)
	s.handle("GET /api/admin/tickets/sales/{id}", staff, s.getTicketSale)
	s.handle("POST /api/admin/tickets/sales/{id}/refund", staff, s.refundTickets)
	s.handle("GET /api/admin/tickets/{code}", staff, s.findTicket)

	s.handle("POST /api/admin/notifications/token", staff, s.registerDevice)
	s.handle("DELETE /api/admin/notifications/token", staff, s.unregisterDevice)
	s.handle("POST /api/admin/notifications/send", staff, s.sendNotification)

	// The trainer area: a user acts in it as a trainer only (authorize),
	// so the services show and change the caller's own classes.
	s.handle("GET /api/trainer/calendar-feed", trainer, s.getOwnTrainerCalendarFeed)
	s.handle("POST /api/trainer/calendar-feed", trainer, s.renewOwnTrainerCalendarFeed)
	s.handle("DELETE /api/trainer/calendar-feed", trainer, s.revokeOwnTrainerCalendarFeed)
	s.handle("GET /api/trainer/classes", trainer, s.listClasses)
	s.handle("POST /api/trainer/classes", trainer, s.createClass)
	s.handle("GET /api/trainer/classes/{id}", trainer, s.getClass)
	s.handle("PUT /api/trainer/classes/{id}", trainer, s.updateClass)
	s.handle("DELETE /api/trainer/classes/{id}", trainer, s.deleteClass)
	s.handle("PATCH /api/trainer/classes/{id}/cancel", trainer, s.cancelClass)
	s.handle("POST /api/trainer/classes/{id}/cancel", trainer, s.cancelClass)
	s.handle("PATCH /api/trainer/classes/{id}/complete", trainer, s.completeClass)
	s.handle("GET /api/trainer/events", trainer, s.listEnrollments)
	s.handle("POST /api/trainer/events", trainer, s.addEnrollment)
	s.handle("GET /api/trainer/events/{id}", trainer, s.getEnrollment)
	s.handle("DELETE /api/trainer/events/{id}", trainer, s.removeEnrollment)
	s.handle("PATCH /api/trainer/events/{id}/accept", trainer, s.acceptEnrollment)
	s.handle("PATCH /api/trainer/events/{id}/reject", trainer, s.rejectEnrollment)
	s.handle("PATCH /api/trainer/events/{id}/attendance", trainer, s.markAttendance)
	s.handle("GET /api/trainer/enrollments", trainer, s.listEnrollmentsOld)
	s.handle("POST /api/trainer/enrollments", trainer, s.addEnrollmentOld)
	s.handle("GET /api/trainer/enrollments/{id}", trainer, s.getEnrollmentOld)
	s.handle("DELETE /api/trainer/enrollments/{id}", trainer, s.removeEnrollmentOld)
	s.handle("PATCH /api/trainer/enrollments/{id}/accept", trainer, s.acceptEnrollmentOld)
	s.handle("PATCH /api/trainer/enrollments/{id}/reject", trainer, s.rejectEnrollmentOld)
	s.handle("PATCH /api/trainer/enrollments/{id}/attendance", trainer, s.markAttendanceOld)
	s.handle("GET /api/trainer/tariff-classes", trainer, s.listClassTariffs)
	s.handle("GET /api/trainer/tariff-classes/{id}", trainer, s.getClassTariff)

	s.handle("GET /api/admin/booking", staff, s.listBookings)
	s.handle("POST /api/admin/booking", staff, s.idempotent(s.createBooking))
	s.handle("DELETE /api/admin/booking", staff, s.deleteBookings)
	s.handle("GET /api/admin/booking/full", staff, s.listBookingsFull)
	s.handle("POST /api/admin/booking/validate", staff, s.validateBooking)
	s.handle("GET /api/admin/booking/calculate-price", staff, s.calculatePrice)
	s.handle("GET /api/admin/booking/{id}", staff, s.getBooking)
	s.handle("PATCH /api/admin/booking/{id}", staff, s.updateBooking)
	s.handle("DELETE /api/admin/booking/{id}", staff, s.deleteBooking)
	s.handle("GET /api/admin/booking/{id}/price", staff, s.bookingPrice)
	s.handle("POST /api/admin/booking/{id}/cancel", staff, s.cancelBooking)
	s.handle("POST /api/admin/booking/{id}/checkout", staff, s.checkoutBooking)
	s.handle("POST /api/admin/booking/{id}/no-show", staff, s.markNoShow)
	s.handle("DELETE /api/admin/booking/{id}/no-show", staff, s.clearNoShow)
	s.handle("POST /api/admin/booking/{id}/check-in", staff, s.checkInBooking)
	s.handle("GET /api/admin/booking/{id}/history", staff, s.bookingHistory)
	// A series is created at /booking/series but read and deleted at
	// /booking-series/{id}: ServeMux refuses /api/admin/booking/series/{id}
	// next to /api/admin/booking/{id}/price and /api/admin/booking/{id}/coupon.
	s.handle("POST /api/admin/booking/series", staff, s.createSeries)
	s.handle("GET /api/admin/booking-series/{id}", staff, s.getSeries)
	s.handle("DELETE /api/admin/booking-series/{id}", staff, s.deleteSeries)
	s.handle("GET /api/admin/booking/coupons", staff, s.listAppliedCoupons)
	s.handle("POST /api/admin/booking/{id}/coupon", staff, s.applyCoupon)
	s.handle("DELETE /api/admin/booking/{id}/coupon", staff, s.removeCoupon)
	s.handle("PATCH /api/admin/booking/{id}/contract", staff, s.setContract)

	s.handle("GET /api/admin/booking/{bookingId}/payment", staff, s.listBookingPayments)
	s.handle("POST /api/admin/booking/{bookingId}/payment", staff, s.idempotent(s.createBookingPayment))
	s.handle("GET /api/admin/booking/{bookingId}/payment/{paymentId}", staff, s.getBookingPayment)
	s.handle("PATCH /api/admin/booking/{bookingId}/payment/{paymentId}", staff, s.updateBookingPayment)
	s.handle("DELETE /api/admin/booking/{bookingId}/payment/{paymentId}", staff, s.deleteBookingPayment)
	s.handle("GET /api/admin/booking/{bookingId}/payment/{paymentId}/foto", staff, s.getReceipt)
	s.handle("DELETE /api/admin/booking/{bookingId}/payment/{paymentId}/foto", staff, s.deleteReceipt)

	s.handle("GET /api/admin/dashboard/stats", staff, s.dashboardStats)
	s.handle("GET /api/admin/payments", staff, s.listPayments)
	s.handle("POST /api/admin/payments", staff, s.idempotent(s.createPayment))
	s.handle("GET /api/admin/payments/stats", staff, s.paymentStats)
	s.handle("GET /api/admin/payments/transaction/{transaction_id}", staff, s.getPaymentByTransaction)
	s.handle("GET /api/admin/payments/{id}", staff, s.getPayment)
	s.handle("PATCH /api/admin/payments/{id}", staff, s.updatePayment)
	s.handle("DELETE /api/admin/payments/{id}", staff, s.deletePayment)
	s.handle("POST /api/admin/payments/{id}/refund", staff, s.refundPayment)
	s.handle("GET /api/admin/payments/inbox", staff, s.listPaymentInbox)
	s.handle("POST /api/admin/payments/inbox/{id}/resolve", staff, s.resolvePaymentInbox)
	// The staff and the accountants read the event log: the service lets
	// each read what is theirs.
	s.handle("GET /api/admin/events-log", authenticated, s.listEventsLog)

	// Outgoing webhooks: the staff area, where the service admits the admins alone.
	s.handle("POST /api/admin/webhooks/endpoints", staff, s.createWebhookEndpoint)
	s.handle("GET /api/admin/webhooks/endpoints", staff, s.listWebhookEndpoints)
	s.handle("GET /api/admin/webhooks/endpoints/{id}", staff, s.getWebhookEndpoint)
	s.handle("PATCH /api/admin/webhooks/endpoints/{id}", staff, s.updateWebhookEndpoint)
	s.handle("DELETE /api/admin/webhooks/endpoints/{id}", staff, s.deleteWebhookEndpoint)
	s.handle("POST /api/admin/webhooks/endpoints/{id}/rotate-secret", staff, s.rotateWebhookSecret)
	s.handle("GET /api/admin/webhooks/endpoints/{id}/attempts", staff, s.listWebhookAttempts)
	s.handle("POST /api/admin/webhooks/endpoints/{id}/replay", staff, s.replayWebhookEndpoint)
	s.handle("POST /api/admin/webhooks/messages/{event_id}/resend", staff, s.resendWebhookMessage)

	// Reminders: the staff area, where the service admits the admins alone.
	s.handle("GET /api/admin/reminders/settings", staff, s.getReminderSettings)
	s.handle("PUT /api/admin/reminders/settings", staff, s.setReminderSettings)

	s.handle("GET /api/admin/coupons", staff, s.listCoupons)
	s.handle("POST /api/admin/coupons", staff, s.createCoupon)
	s.handle("GET /api/admin/coupons/{id}", staff, s.getCoupon)
	s.handle("PATCH /api/admin/coupons/{id}", staff, s.updateCoupon)
	s.handle("DELETE /api/admin/coupons/{id}", staff, s.deleteCoupon)
	s.handle("GET /api/admin/contracts", staff, s.listContracts)
	s.handle("POST /api/admin/contracts", staff, s.createContract)
	s.handle("GET /api/admin/contracts/{id}", staff, s.getContract)
	s.handle("PATCH /api/admin/contracts/{id}", staff, s.updateContract)
	s.handle("DELETE /api/admin/contracts/{id}", staff, s.deleteContract)

	s.handle("GET /api/admin/clients", staff, s.listClients)
	s.handle("POST /api/admin/clients", staff, s.createClient)
	s.handle("GET /api/admin/clients/{id}", staff, s.getClient)
	s.handle("PATCH /api/admin/clients/{id}", staff, s.updateClient)
	s.handle("DELETE /api/admin/clients/{id}", staff, s.deleteClient)

	s.handle("GET /api/admin/users", staff, s.listUsers)
	s.handle("GET /api/admin/users/{uid}", staff, s.getUser)

	s.handle("GET /api/account/client", authenticated, s.getAccountClient)
	s.handle("POST /api/account/client", authenticated, s.createAccountClient)
	s.handle("PATCH /api/account/client", authenticated, s.updateAccountClient)
	s.handle("GET /api/account/profile", authenticated, s.getProfile)
	s.handle("PUT /api/account/profile", authenticated, s.updateProfile)
	s.handle("GET /api/account/bookings", authenticated, s.listAccountBookings)
	s.handle("POST /api/account/bookings", authenticated, s.idempotent(s.createAccountBooking))
	s.handle("GET /api/account/bookings/calculate-price", authenticated, s.calculateAccountPrice)
	s.handle("GET /api/account/bookings/{bookingId}", authenticated, s.getAccountBooking)
	s.handle("POST /api/account/bookings/{bookingId}/cancel", authenticated, s.cancelAccountBooking)
	s.handle("POST /api/account/bookings/{bookingId}/checkout", authenticated, s.checkoutAccountBooking)
	s.handle("GET /api/account/courts", authenticated, s.listAccountCourts)
	s.handle("GET /api/account/courts/grid", authenticated, s.courtsGrid)
	s.handle("GET /api/account/stats", authenticated, s.accountStats)
	s.handle("GET /api/account/payments", authenticated, s.listAccountPayments)
	s.handle("POST /api/account/payments", authenticated, s.idempotent(s.createAccountPayment))
	s.handle("GET /api/account/payments/{id}", authenticated, s.getAccountPayment)
	s.handle("GET /api/account/reservation-types", authenticated, s.listAccountReservationTypes)
	s.handle("GET /api/account/payment-types", authenticated, s.listAccountPaymentTypes)
	s.handle("GET /api/account/classes", authenticated, s.listOpenClasses)
	s.handle("GET /api/account/classes/my-enrollments", authenticated, s.myEnrollments)
	s.handle("GET /api/account/classes/{id}", authenticated, s.getAccountClass)
	s.handle("POST /api/account/classes/{id}/enroll", authenticated, s.idempotent(s.enroll))
	s.handle("DELETE /api/account/classes/{id}/enroll", authenticated, s.withdraw)
	s.handle("POST /api/account/classes/{id}/checkout", authenticated, s.checkoutAccountClass)
	s.handle("POST /api/account/notifications/token", authenticated, s.registerOwnDevice)
	s.handle("DELETE /api/account/notifications/token", authenticated, s.unregisterOwnDevice)
	s.handle("GET /api/account/calendar-feed", authenticated, s.getAccountCalendarFeed)
	s.handle("POST /api/account/calendar-feed", authenticated, s.renewAccountCalendarFeed)
	s.handle("DELETE /api/account/calendar-feed", authenticated, s.revokeAccountCalendarFeed)
	s.handle("GET /api/account/reminders", authenticated, s.getAccountReminders)
	s.handle("PUT /api/account/reminders", authenticated, s.setAccountReminders)

	s.handle("GET /api/reservations", authenticated, s.listReservations)
	s.handle("POST /api/reservations", authenticated, s.createReservation)
	s.handle("GET /api/reservations/{id}", authenticated, s.getReservation)
	s.handle("PUT /api/reservations/{id}", authenticated, s.updateReservation)
	s.handle("DELETE /api/reservations/{id}", authenticated, s.deleteReservation)

	s.handle("GET /api/accounting/accounts", accounting, s.withLedger(s.listAccounts))
	s.handle("POST /api/accounting/accounts", accounting, s.withLedger(s.createAccount))
	s.handle("GET /api/accounting/accounts/{code}", accounting, s.withLedger(s.getAccount))
	s.handle("PATCH /api/accounting/accounts/{code}", accounting, s.withLedger(s.updateAccount))
	s.handle("DELETE /api/accounting/accounts/{code}", accounting, s.withLedger(s.deleteAccount))
	s.handle("GET /api/accounting/journal", accounting, s.withLedger(s.listEntries))
	s.handle("POST /api/accounting/journal", accounting, s.withLedger(s.postEntry))
	s.handle("GET /api/accounting/journal/{id}", accounting, s.withLedger(s.getEntry))
	s.handle("POST /api/accounting/journal/{id}/reverse", accounting, s.withLedger(s.reverseEntry))
	s.handle("GET /api/accounting/ledger/{code}", accounting, s.withLedger(s.generalLedger))
	s.handle("GET /api/accounting/trial-balance", accounting, s.withLedger(s.trialBalance))
	s.handle("GET /api/accounting/statements/financial-position", accounting, s.withLedger(s.financialPosition))
	s.handle("GET /api/accounting/statements/profit-or-loss", accounting, s.withLedger(s.profitOrLoss))
	s.handle("GET /api/accounting/statements/changes-in-equity", accounting, s.withLedger(s.changesInEquity))
	s.handle("GET /api/accounting/periods", accounting, s.withLedger(s.listPeriods))
	s.handle("POST /api/accounting/periods", accounting, s.withLedger(s.createPeriod))
	s.handle("GET /api/accounting/periods/{id}", accounting, s.withLedger(s.getPeriod))
	s.handle("GET /api/accounting/periods/{id}/close-readiness", accounting, s.withLedger(s.closeReadiness))
	s.handle("POST /api/accounting/periods/{id}/close-results", accounting, s.withLedger(s.closeResults))
	s.handle("POST /api/accounting/periods/{id}/close", accounting, s.withLedger(s.closePeriod))
	s.handle("POST /api/accounting/periods/{id}/reopen", accounting, s.withLedger(s.reopenPeriod))
	s.handle("POST /api/accounting/cash-register/close", accounting, s.withLedger(s.cashRegisterClose))

	s.handle("GET /api/trainer/dashboard/stats", trainer, s.trainerStats)
	s.handle("GET /api/trainer/students", trainer, s.listStudents)
	s.handle("GET /api/trainer/students/{id}", trainer, s.getStudent)
	s.handle("POST /api/trainer/students/{id}/assign", trainer, s.assignStudent)
	s.handle("GET /api/trainer/clients", trainer, s.listTrainerClients)
	s.handle("POST /api/trainer/clients", trainer, s.createClient)
	s.handle("GET /api/trainer/clients/{id}", trainer, s.getTrainerClient)
	s.handle("GET /api/trainer/bookings", trainer, s.listTrainerBookings)
	s.handle("POST /api/trainer/bookings", trainer, s.createTrainerBooking)
	s.handle("GET /api/trainer/bookings/calculate-price", trainer, s.calculatePrice)
	s.handle("GET /api/trainer/courts", trainer, s.listTrainerCourts)
	s.handle("GET /api/trainer/document-types", trainer, s.listTrainerDocumentTypes)
	s.handle("GET /api/trainer/payment-types", trainer, s.listTrainerPaymentTypes)
	s.handle("GET /api/trainer/reservation-types", trainer, s.listTrainerReservationTypes)

	s.handle("GET /api/public/courts", public, s.listPublicCourts)
	s.handle("GET /api/public/court-types", public, s.listPublicCourtTypes)
	s.handle("GET /api/public/club-rules", public, s.getPublicClubRules)
	s.handle("GET /api/public/push/vapid-public-key", public, s.vapidPublicKey)

	s.handle("GET /api/sudo/users", sudo, s.listSudoUsers)
	s.handle("PATCH /api/sudo/users/{uid}", sudo, s.changeUser)
	// Machine clients belong to the OAuth issue, whose routes are served
	// with and without the /api prefix.
	for _, p := range []string{"", "/api"} {
		s.handle("GET "+p+"/sudo/machines", sudo, s.listMachines)
		s.handle("POST "+p+"/sudo/machines", sudo, s.createMachine)
		s.handle("PATCH "+p+"/sudo/machines/{id}", sudo, s.changeMachine)
		s.handle("POST "+p+"/sudo/machines/{id}/rotate", sudo, s.rotateMachineSecret)
	}

	// The tool endpoint checks its own credentials and finds its club
	// itself (see mcp.go).
	for _, p := range []string{"", "/api"} {
		s.handleDoor("POST "+p+"/mcp", s.mcpPost)
		s.handleDoor("GET "+p+"/mcp", s.mcpGet)
		s.handleDoor("DELETE "+p+"/mcp", s.mcpDelete)
	}

	// The staff panel answers its pages and checks its sessions itself.
	if s.o.App != nil {
		s.mount("/app/", s.o.App)
	}
	if s.o.Panel != nil {
		s.mount("/panel/", s.o.Panel)
	}

	// The realtime relay checks its own credentials (see realtime.go).
	s.handle("GET /realtime", public, s.realtimeSocket)
}

// dispatcher routes requests through mux. The mux answers some requests
// itself, in text or with no body: 404, 405 (with its Allow header), a
// redirect to the clean form of an unclean path (//x, /a/../b) and 400 for
// the target "*". Those keep their status and headers and get a JSON error
// body.
func (s *Server) dispatcher(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, _ := mux.Handler(r); isRoute(h) {
			mux.ServeHTTP(w, r)
			return
		}
		rec := &statusOnly{header: w.Header()}
		mux.ServeHTTP(rec, r)
		w.Header().Del("X-Content-Type-Options")
		writeJSONBody(w, rec.code, muxAnswer(rec.code, r, w.Header().Get("Location")))
	})
}

// muxAnswer is the error body of an answer of the mux with status code.
func muxAnswer(code int, r *http.Request, location string) errorBody {
	switch {
	case code == http.StatusNotFound:
		return errorBody{Error: "not found", Message: "No route for " + r.Method + " " + r.URL.Path + "."}
	case code == http.StatusMethodNotAllowed:
		return errorBody{Error: "method not allowed", Message: r.Method + " is not allowed on " + r.URL.Path + "; see the Allow header."}
	case code >= 300 && code < 400:
		return errorBody{Error: strings.ToLower(http.StatusText(code)), Message: "The path is not in its clean form; repeat the request at " + location + "."}
	}
	return errorBody{Error: strings.ToLower(http.StatusText(code)), Message: "No route for " + r.Method + " " + r.RequestURI + "."}
}

// statusOnly keeps the status and headers the mux writes and drops its
// plain-text body.
type statusOnly struct {
	header http.Header
	code   int
}

func (s *statusOnly) Header() http.Header         { return s.header }
func (s *statusOnly) Write(b []byte) (int, error) { return len(b), nil }
func (s *statusOnly) WriteHeader(code int)        { s.code = code }
