package httpapi_test

import (
	"fmt"
	"strconv"
)

func path(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// wallAt formats minute m of day as a wall time "YYYY-MM-DD HH:MM".
func wallAt(day string, m int) string { return fmt.Sprintf("%s %02d:%02d", day, m/60, m%60) }
