package app

import (
	"io"
	"log/slog"
)

// NewLogger returns the structured logger of clubd: JSON lines when format
// is "json", logfmt-style text otherwise.
func NewLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}
