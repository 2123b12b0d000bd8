package app

import (
	"log/slog"
	"slices"
)

// browserBlockedPorts are the ports of the "bad port" list of the WHATWG
// Fetch standard: Chromium (ERR_UNSAFE_PORT), Firefox, Safari and Node's
// fetch refuse to connect to them, whatever answers there.
var browserBlockedPorts = []int{
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95,
	101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179,
	389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601,
	636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566,
	6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
}

// BrowserBlockedPort reports whether browsers and Node's fetch refuse to
// connect to port.
func BrowserBlockedPort(port int) bool {
	return slices.Contains(browserBlockedPorts, port)
}

// WarnBlockedPort logs a warning when clubd serves on a port that browsers
// refuse: the API still answers curl and Go clients there, but the API
// description page, the OAuth login page and every browser or Node MCP
// client fail, with nothing in clubd's log to say why.
func WarnBlockedPort(log *slog.Logger, port int) {
	if !BrowserBlockedPort(port) {
		return
	}
	log.Warn("browsers and Node refuse this port (ERR_UNSAFE_PORT, \"bad port\"): /api-docs, the OAuth login page and browser or Node MCP clients cannot connect; set PORT to another port, such as 8080",
		"port", port)
}
