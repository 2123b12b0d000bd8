package eventlog

import (
	"encoding/binary"
	"encoding/hex"
)

// eventID is the stable id of the event at position of the log whose
// id_space is space (eight random bytes of its database, migration
// 00046): a UUID of version 8 (RFC 9562, laid out by the application),
// its first half space's but for the version's four bits, its second
// position's but for the variant's two. An event placed keeps its
// position, so its id, until it is purged.
func eventID(space []byte, position int64) string {
	var b [16]byte
	copy(b[:8], space)
	b[6] = 0x80 | b[6]&0x0f                                             // version 8
	binary.BigEndian.PutUint64(b[8:], uint64(position)&(1<<62-1)|1<<63) // variant 10
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
