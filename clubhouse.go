// Package clubhouse holds the vocabulary shared by every Clubhouse package:
// the acting principal (Actor), its roles, and the closed set of error kinds
// that the HTTP layer maps to status codes.
package clubhouse

import "strconv"

// Publisher receives domain messages, each a topic ("booking:changed",
// "payment:updated") and a payload that encodes as JSON. The services
// publish a change's messages to an eventlog.Messages, which records them
// in the change's transaction for the realtime relay; the relay is a
// Publisher too, of messages published outside a log. Publish must not
// block. A payload names who may receive it by implementing Addressed;
// one that does not is for the staff (RoomPanel).
type Publisher interface {
	Publish(topic string, payload any)
}

// The rooms of the realtime relay. A connection joins a room it may see:
// RoomPanel the staff (the panel permission), RoomAccounting the
// accountants, RoomApp everyone signed in, and a trainer the room of their
// own classes (TrainerRoom).
const (
	RoomPanel      = "panel"
	RoomAccounting = "accounting"
	RoomApp        = "app"
	RoomTrainer    = "trainer" // the name a trainer subscribes to; it stands for TrainerRoom of their own id
)

// TrainerRoom is the room of the classes of the trainer whose user id is
// userID; a trainer joins it by subscribing to RoomTrainer.
func TrainerRoom(userID int64) string { return RoomTrainer + ":" + strconv.FormatInt(userID, 10) }

// Audience is who receives a domain message: every connection of each
// user in Users (by users.id: the owners of the object it tells of), the
// members of each room in Rooms, or, with All, every connection.
type Audience struct {
	Users []int64
	Rooms []string
	All   bool
}

// Addressed is a payload that names its audience.
type Addressed interface {
	Audience() Audience
}

// AudienceOf is the audience of payload: its own when it is Addressed,
// else the staff room.
func AudienceOf(payload any) Audience {
	if a, ok := payload.(Addressed); ok {
		return a.Audience()
	}
	return Audience{Rooms: []string{RoomPanel}}
}
