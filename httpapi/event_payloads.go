package httpapi

import (
	"reflect"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// The payloads of the club's event log: each domain records its changes
// with the domain value (a booking.Reservation, a payments.Payment), and
// EventPayload, which clubd gives the log, renders it as this API shows
// the resource, so that the log, its route and what leaves the club carry
// one shape. The API description has a schema for each type of event,
// whose data is that resource's (eventSchemas).

// eventKind is a type of event and when it happens.
type eventKind struct{ typ, when string }

// eventResource is the resource the events of kinds carry: render turns
// its domain value into its DTO, whose schema is named schema.
type eventResource struct {
	kinds  []eventKind
	schema string
	render func(v any) (any, bool)
}

// resource is the eventResource of the domain values T, rendered by
// render into their DTO D.
func resource[T, D any](render func(T) D, kinds ...eventKind) eventResource {
	return eventResource{kinds: kinds, schema: reflect.TypeFor[D]().String(), render: func(v any) (any, bool) {
		t, ok := v.(T)
		if !ok {
			return nil, false
		}
		return render(t), true
	}}
}

// eventResources are the resources of every type of event the domains
// record.
var eventResources = []eventResource{
	resource(newBookingDTO,
		eventKind{booking.EventCreated, "A booking was made: by staff, a client, a trainer, a series, a class or an event."},
		eventKind{booking.EventUpdated, "A booking was moved, resized or changed (type, client, status, notes), or its no-show or check-in was undone."},
		eventKind{booking.EventCancelled, "A booking was cancelled, or released because it was not paid in time (cancelled_by system)."},
		eventKind{booking.EventNoShow, "A booking was marked a no-show."},
		eventKind{booking.EventCheckedIn, "A booking's players were checked in."},
		eventKind{booking.EventDeleted, "A booking was deleted; data is the booking as it was."}),
	resource(newPaymentDTO,
		eventKind{payments.EventCreated, "A payment was recorded: by staff, a client's claim, the online checkout, a ticket sale."},
		eventKind{payments.EventCompleted, "A payment was completed: created completed, accepted by staff, or approved by the gateway."},
		eventKind{payments.EventFailed, "A payment failed: refused by the gateway, or a claim rejected."},
		eventKind{payments.EventRefunded, "A payment was refunded, in part or in whole."},
		eventKind{payments.EventUpdated, "A payment was changed without a change of its status (amount, type, reference)."},
		eventKind{payments.EventDeleted, "A payment was deleted; data is the payment as it was."}),
	resource(newEnrollmentDTO,
		eventKind{classes.EventEnrollmentCreated, "A client enrolled in a class, or joined its waitlist."},
		eventKind{classes.EventEnrollmentAccepted, "An enrollment was accepted."},
		eventKind{classes.EventEnrollmentRejected, "An enrollment was rejected."},
		eventKind{classes.EventEnrollmentPromoted, "An enrollment on the waitlist took a freed place."},
		eventKind{classes.EventEnrollmentCancelled, "An enrollment was cancelled."}),
	resource(newClassDTO,
		eventKind{classes.EventClassCancelled, "A class was cancelled."},
		eventKind{classes.EventClassCompleted, "A class was completed."}),
	resource(newEventDTO,
		eventKind{tickets.EventEventCreated, "An event was scheduled."},
		eventKind{tickets.EventEventCancelled, "An event was cancelled."}),
	resource(newSaleDTO,
		eventKind{tickets.EventTicketSold, "Tickets were sold: data is the sale, with its strips and tickets."}),
	resource(newTicketDTO,
		eventKind{tickets.EventTicketUsed, "A ticket was used: its holder was seated at an event."},
		eventKind{tickets.EventTicketRefunded, "A ticket was given back in a refund of its sale: one event per ticket."}),
	resource(newPeriodDTO,
		eventKind{ledger.EventPeriodClosed, "An accounting period was closed."},
		eventKind{ledger.EventPeriodReopened, "An accounting period was reopened."}),
}

// EventPayload renders v, a domain value an event records, as this API
// shows the resource (an eventlog.Renderer); a value of no event's
// resource stays as it is.
func EventPayload(v any) any {
	for _, r := range eventResources {
		if d, ok := r.render(v); ok {
			return d
		}
	}
	return v
}

// EventTypes lists the types of the events the domains record, sorted.
func EventTypes() []string {
	var out []string
	for _, r := range eventResources {
		for _, k := range r.kinds {
			out = append(out, k.typ)
		}
	}
	sort.Strings(out)
	return out
}

// EventSchemaPrefix begins the name of the schema of each type of event in
// the API description: "event.booking.created".
const EventSchemaPrefix = "event."

// eventSchemas adds to doc a schema for each type of event: the event as
// the event log's route answers it and a webhook delivers it, its data the
// resource's schema, which the document must hold (a resource no route
// answers is a programming error, which the tests meet first).
func eventSchemas(doc *openapi3.T) {
	for _, r := range eventResources {
		for _, k := range r.kinds {
			s := openapi3.NewObjectSchema()
			s.Description = k.when
			s.WithProperty("type", openapi3.NewStringSchema().WithEnum(k.typ))
			s.WithProperty("timestamp", openapi3.NewDateTimeSchema())
			data := doc.Components.Schemas[r.schema]
			if data == nil {
				panic("httpapi: the API description has no schema " + r.schema + " for the events " + k.typ)
			}
			s.WithPropertyRef("data", openapi3.NewSchemaRef("#/components/schemas/"+r.schema, data.Value))
			id := openapi3.NewUUIDSchema()
			id.Description = "the event's stable id (the event log's route, and webhook-id)"
			s.WithProperty("id", id)
			actor := openapi3.NewStringSchema()
			actor.Description = "who acted (the event log's route)"
			s.WithProperty("actor", actor)
			cursor := openapi3.NewStringSchema()
			cursor.Description = "the cursor just after the event (the event log's route)"
			s.WithProperty("cursor", cursor)
			s.Required = []string{"type", "timestamp", "data"}
			doc.Components.Schemas[EventSchemaPrefix+k.typ] = openapi3.NewSchemaRef("", s)
		}
	}
}
