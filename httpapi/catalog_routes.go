package httpapi

import "net/http"

// The catalog routes, one documented method per route, each binding a
// generic catalog handler to one catalog.

// listCourtTypes lists court types.
//
// @Summary List court types
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} courtTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/court-types [get]
func (s *Server) listCourtTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.CourtTypes, newCourtTypeDTO)
}

// createCourtType creates a court type.
//
// @Summary Create a court type
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body namedInput true "The court type"
// @Success 201 {object} courtTypeDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/court-types [post]
func (s *Server) createCourtType(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[namedInput](w, r, s.club(r).Catalogs.CourtTypes, newCourtTypeDTO)
}

// getCourtType reads one court type.
//
// @Summary Read a court type
// @Tags catalogs
// @Produce json
// @Param id path int true "court type id"
// @Success 200 {object} courtTypeDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/court-types/{id} [get]
func (s *Server) getCourtType(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.CourtTypes, newCourtTypeDTO)
}

// updateCourtType changes the fields sent.
//
// @Summary Update a court type
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "court type id"
// @Param body body namedPatch true "Fields to change"
// @Success 200 {object} courtTypeDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/court-types/{id} [patch]
func (s *Server) updateCourtType(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[namedPatch](w, r, s.club(r).Catalogs.CourtTypes, newCourtTypeDTO)
}

// deleteCourtType deletes a court type that nothing refers to.
//
// @Summary Delete a court type
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "court type id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/court-types/{id} [delete]
func (s *Server) deleteCourtType(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.CourtTypes)
}

// listDocumentTypes lists document types.
//
// @Summary List document types
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} documentTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/document-types [get]
func (s *Server) listDocumentTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.DocumentTypes, newDocumentTypeDTO)
}

// createDocumentType creates a document type.
//
// @Summary Create a document type
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body namedInput true "The document type"
// @Success 201 {object} documentTypeDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/document-types [post]
func (s *Server) createDocumentType(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[namedInput](w, r, s.club(r).Catalogs.DocumentTypes, newDocumentTypeDTO)
}

// getDocumentType reads one document type.
//
// @Summary Read a document type
// @Tags catalogs
// @Produce json
// @Param id path int true "document type id"
// @Success 200 {object} documentTypeDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/document-types/{id} [get]
func (s *Server) getDocumentType(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.DocumentTypes, newDocumentTypeDTO)
}

// updateDocumentType changes the fields sent.
//
// @Summary Update a document type
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "document type id"
// @Param body body namedPatch true "Fields to change"
// @Success 200 {object} documentTypeDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/document-types/{id} [patch]
func (s *Server) updateDocumentType(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[namedPatch](w, r, s.club(r).Catalogs.DocumentTypes, newDocumentTypeDTO)
}

// deleteDocumentType deletes a document type that nothing refers to.
//
// @Summary Delete a document type
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "document type id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/document-types/{id} [delete]
func (s *Server) deleteDocumentType(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.DocumentTypes)
}

// listPaymentTypes lists payment types.
//
// @Summary List payment types
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} paymentTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payment-types [get]
func (s *Server) listPaymentTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}

// createPaymentType creates a payment type.
//
// @Summary Create a payment type
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body paymentTypeInput true "The payment type"
// @Success 201 {object} paymentTypeDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payment-types [post]
func (s *Server) createPaymentType(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[paymentTypeInput](w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}

// getPaymentType reads one payment type.
//
// @Summary Read a payment type
// @Tags catalogs
// @Produce json
// @Param id path int true "payment type id"
// @Success 200 {object} paymentTypeDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payment-types/{id} [get]
func (s *Server) getPaymentType(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}

// updatePaymentType changes the fields sent.
//
// @Summary Update a payment type
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "payment type id"
// @Param body body paymentTypePatch true "Fields to change"
// @Success 200 {object} paymentTypeDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payment-types/{id} [patch]
func (s *Server) updatePaymentType(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[paymentTypePatch](w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}

// deletePaymentType deletes a payment type that nothing refers to.
//
// @Summary Delete a payment type
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "payment type id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payment-types/{id} [delete]
func (s *Server) deletePaymentType(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.PaymentTypes)
}

// listReservationStatuses lists reservation statuses.
//
// @Summary List reservation statuses
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} statusDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-statuses [get]
func (s *Server) listReservationStatuses(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.Statuses, newStatusDTO)
}

// createReservationStatus creates a reservation status.
//
// @Summary Create a reservation status
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body statusInput true "The reservation status"
// @Success 201 {object} statusDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-statuses [post]
func (s *Server) createReservationStatus(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[statusInput](w, r, s.club(r).Catalogs.Statuses, newStatusDTO)
}

// getReservationStatus reads one reservation status.
//
// @Summary Read a reservation status
// @Tags catalogs
// @Produce json
// @Param id path int true "reservation status id"
// @Success 200 {object} statusDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-statuses/{id} [get]
func (s *Server) getReservationStatus(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.Statuses, newStatusDTO)
}

// updateReservationStatus changes the fields sent.
//
// @Summary Update a reservation status
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "reservation status id"
// @Param body body statusPatch true "Fields to change"
// @Success 200 {object} statusDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-statuses/{id} [patch]
func (s *Server) updateReservationStatus(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[statusPatch](w, r, s.club(r).Catalogs.Statuses, newStatusDTO)
}

// deleteReservationStatus deletes a reservation status that nothing refers to.
//
// @Summary Delete a reservation status
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "reservation status id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-statuses/{id} [delete]
func (s *Server) deleteReservationStatus(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.Statuses)
}

// listReservationTypes lists reservation types.
//
// @Summary List reservation types
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} reservationTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-types [get]
func (s *Server) listReservationTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// createReservationType creates a reservation type.
//
// @Summary Create a reservation type
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body reservationTypeInput true "The reservation type"
// @Success 201 {object} reservationTypeDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-types [post]
func (s *Server) createReservationType(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[reservationTypeInput](w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// getReservationType reads one reservation type.
//
// @Summary Read a reservation type
// @Tags catalogs
// @Produce json
// @Param id path int true "reservation type id"
// @Success 200 {object} reservationTypeDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-types/{id} [get]
func (s *Server) getReservationType(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// updateReservationType changes the fields sent.
//
// @Summary Update a reservation type
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "reservation type id"
// @Param body body reservationTypePatch true "Fields to change"
// @Success 200 {object} reservationTypeDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-types/{id} [patch]
func (s *Server) updateReservationType(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[reservationTypePatch](w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// deleteReservationType deletes a reservation type that nothing refers to.
//
// @Summary Delete a reservation type
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "reservation type id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/reservation-types/{id} [delete]
func (s *Server) deleteReservationType(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.ReservationTypes)
}

// listCourts lists courts.
//
// @Summary List courts
// @Tags catalogs
// @Produce json
// @Param search query string false "Case-insensitive match on name" maxlength(255)
// @Success 200 {array} courtDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts [get]
func (s *Server) listCourts(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.Courts, newCourtDTO)
}

// createCourt creates a court.
//
// @Summary Create a court
// @Tags catalogs
// @Accept json
// @Produce json
// @Param body body courtInput true "The court"
// @Success 201 {object} courtDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts [post]
func (s *Server) createCourt(w http.ResponseWriter, r *http.Request) error {
	return createCatalog[courtInput](w, r, s.club(r).Catalogs.Courts, newCourtDTO)
}

// getCourt reads one court.
//
// @Summary Read a court
// @Tags catalogs
// @Produce json
// @Param id path int true "court id"
// @Success 200 {object} courtDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id} [get]
func (s *Server) getCourt(w http.ResponseWriter, r *http.Request) error {
	return getCatalog(w, r, s.club(r).Catalogs.Courts, newCourtDTO)
}

// updateCourt changes the fields sent.
//
// @Summary Update a court
// @Description Changes only the fields sent; null clears an optional field.
// @Tags catalogs
// @Accept json
// @Produce json
// @Param id path int true "court id"
// @Param body body courtPatch true "Fields to change"
// @Success 200 {object} courtDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id} [patch]
func (s *Server) updateCourt(w http.ResponseWriter, r *http.Request) error {
	return updateCatalog[courtPatch](w, r, s.club(r).Catalogs.Courts, newCourtDTO)
}

// deleteCourt deletes a court that nothing refers to.
//
// @Summary Delete a court
// @Description 409 names the records that still refer to it.
// @Tags catalogs
// @Param id path int true "court id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/courts/{id} [delete]
func (s *Server) deleteCourt(w http.ResponseWriter, r *http.Request) error {
	return deleteCatalog(w, r, s.club(r).Catalogs.Courts)
}
