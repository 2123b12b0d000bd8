package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"-from", "2026-03-07 17:00", "-to", "2026-03-07 19:00"}, &out))
	assert.Contains(t, out.String(), "hours 2, total 149000, per hour 74500")
	require.Error(t, run([]string{"-from", "tomorrow"}, &out))
	require.Error(t, run([]string{"-from", "2026-03-07 17:15", "-to", "2026-03-07 19:00"}, &out), "off the slot grid")
}
