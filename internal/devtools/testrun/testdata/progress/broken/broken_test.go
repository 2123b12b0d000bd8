package broken

import "testing"

func TestFails(t *testing.T) { t.Fatal("broken on purpose") }

func TestPasses(t *testing.T) {}
