package later

import "testing"

func TestQuick(t *testing.T) {}
