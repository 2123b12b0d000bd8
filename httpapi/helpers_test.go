package httpapi_test

import (
	"fmt"
	"strconv"
)

func path(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
