package tickets

// The types of the events this package writes in the club's event log
// (Options.Log), in the transaction of each change, with the club's event,
// the sale or the ticket as it is after the change as the payload.
const (
	EventEventCreated   = "event.created"   // an event made (Events.Create): the Event
	EventEventCancelled = "event.cancelled" // an event cancelled (Events.Cancel): the Event, its tickets' participants removed
	EventTicketSold     = "ticket.sold"     // a sale made (Sales.Sell): the Sale, with its strips and tickets
	EventTicketUsed     = "ticket.used"     // a ticket seated in an event, which uses it (Events.AddParticipant): the Ticket
	EventTicketRefunded = "ticket.refunded" // a ticket given back by a refund (Sales.Refund), one event each: the Ticket
)
