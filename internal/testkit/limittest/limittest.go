// Package limittest holds the front doors' limits to the domain's. A wire
// type's field declares its limits in struct tags (maxLength, maxItems,
// minLength, minimum, maximum), where the front door enforces them and the
// API description or the tool's schema publishes them; its limit tag names
// the domain constants they stand for (limit:"booking.MaxNotes"), which the
// domain's services check themselves. Check fails when a tag's number is
// not the value of a constant its field names, or when it names none.
package limittest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/push"
	"github.com/clubhouse-go/clubhouse/tickets"
	"github.com/clubhouse-go/clubhouse/users"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// Constants are the limits a limit tag may name, by their Go names.
var Constants = map[string]int{
	"clubhouse.MaxOffset": clubhouse.MaxOffset,

	"booking.MaxNotes":              booking.MaxNotes,
	"booking.MaxReason":             booking.MaxReason,
	"booking.MaxDescription":        booking.MaxDescription,
	"booking.MaxRuleNote":           booking.MaxRuleNote,
	"booking.MaxPaymentHoldMinutes": booking.MaxPaymentHoldMinutes,
	"booking.MaxWeekday":            booking.MaxWeekday,
	"booking.MaxAdvanceDays":        booking.MaxAdvanceDays,
	"booking.MaxRuleMinutes":        booking.MaxRuleMinutes,
	"booking.MaxFutureBookings":     booking.MaxFutureBookings,
	"booking.MaxDeleteMany":         booking.MaxDeleteMany,

	"payments.MaxTransactionID":   payments.MaxTransactionID,
	"payments.MaxDescription":     payments.MaxDescription,
	"payments.MaxGatewayResponse": payments.MaxGatewayResponse,
	"payments.MaxClaims":          payments.MaxClaims,
	"payments.MaxInboxNote":       payments.MaxInboxNote,
	"payments.MaxRefundReason":    payments.MaxRefundReason,

	"classes.MaxDescription": classes.MaxDescription,
	"classes.MaxCapacity":    classes.MaxCapacity,

	"tickets.MaxCapacity":       tickets.MaxCapacity,
	"tickets.MaxTitle":          tickets.MaxTitle,
	"tickets.MaxCodeLength":     tickets.MaxCodeLength,
	"tickets.MaxTicketCount":    tickets.MaxTicketCount,
	"tickets.MaxNameLength":     tickets.MaxNameLength,
	"tickets.MaxDescription":    tickets.MaxDescription,
	"tickets.MaxPriceChanges":   tickets.MaxPriceChanges,
	"tickets.MaxValidDays":      tickets.MaxValidDays,
	"tickets.MaxPhones":         tickets.MaxPhones,
	"tickets.MaxPhoneLength":    tickets.MaxPhoneLength,
	"tickets.MaxDocumentLength": tickets.MaxDocumentLength,
	"tickets.MaxEmailLength":    tickets.MaxEmailLength,
	"tickets.MaxReason":         tickets.MaxReason,
	"tickets.MaxRefundTickets":  tickets.MaxRefundTickets,

	"push.MaxTitle":     push.MaxTitle,
	"push.MaxBody":      push.MaxBody,
	"push.MaxURL":       push.MaxURL,
	"push.MaxEndpoint":  push.MaxEndpoint,
	"push.MaxUserAgent": push.MaxUserAgent,
	"push.MaxPlatform":  push.MaxPlatform,
	"push.MaxP256dh":    push.MaxP256dh,
	"push.MaxAuth":      push.MaxAuth,

	"webhooks.MaxURL":         webhooks.MaxURL,
	"webhooks.MaxDescription": webhooks.MaxDescription,
	"webhooks.MaxEventType":   webhooks.MaxEventType,

	"ledger.MaxDescription": ledger.MaxDescription,
	"ledger.MaxReason":      ledger.MaxReason,

	"users.MinPassword": users.MinPassword,
	"users.MaxPassword": users.MaxPassword,

	"auth.MaxRedirectURI":  auth.MaxRedirectURI,
	"auth.MaxRedirectURIs": auth.MaxRedirectURIs,
	"auth.MaxClientTypes":  auth.MaxClientTypes,
}

// limitKeys are the struct tags that hold a limit.
var limitKeys = []string{"maxLength", "maxItems", "minLength", "minimum", "maximum"}

// needsNoConstant reports the limits of a field with tag that stand for no
// domain constant, bounds of the wire's forms: text of the front doors'
// default length (255 characters, which a field may state), the 36
// characters of a UUID (format:"uuid"), the 20 of an id sent as text (an
// int64 in decimal, in a list of swaggertype "array,string"), the lower
// bounds 0 and 1 of counts and ids, and the largest value of an integer
// column (PostgreSQL refuses more).
func needsNoConstant(tag reflect.StructTag, key string, n int) bool {
	switch key {
	case "maxLength":
		return n == 255 || n == 36 && tag.Get("format") == "uuid" || n == 20 && tag.Get("swaggertype") == "array,string"
	case "minimum":
		return n == 0 || n == 1
	case "maximum":
		return n == math.MaxInt32
	}
	return false
}

// Check parses the Go files of dir, tests left out, and fails t for each
// field of a struct type whose limit tags are not the domain's: a number
// that no constant named in its limit tag holds (or that needs one and
// names none), a name Constants does not hold, or a named constant whose
// value none of its limits has. It returns how many fields name a constant,
// so that a caller can tell it found them.
func Check(t testing.TB, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	named := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag == nil {
					continue
				}
				tag, err := strconv.Unquote(field.Tag.Value)
				if err != nil {
					t.Fatal(err)
				}
				for _, msg := range fieldErrors(reflect.StructTag(tag)) {
					t.Errorf("%s: %s", fset.Position(field.Pos()), msg)
				}
				if _, ok := reflect.StructTag(tag).Lookup("limit"); ok {
					named++
				}
			}
			return true
		})
	}
	return named
}

// fieldErrors lists what is wrong with the limits of the field with tag.
func fieldErrors(tag reflect.StructTag) []string {
	var errs []string
	values := map[string]int{} // the named constants' values, by name
	if list, ok := tag.Lookup("limit"); ok {
		for _, name := range strings.Fields(list) {
			v, ok := Constants[name]
			if !ok {
				errs = append(errs, fmt.Sprintf("limit names %s, which limittest.Constants does not hold", name))
				continue
			}
			values[name] = v
		}
	}
	used := map[string]bool{}
	for _, key := range limitKeys {
		s, ok := tag.Lookup(key)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%q is not an integer", key, s))
			continue
		}
		var match []string
		for name, v := range values {
			if v == n {
				match = append(match, name)
			}
		}
		for _, name := range match {
			used[name] = true
		}
		if len(match) == 0 && !needsNoConstant(tag, key, n) {
			errs = append(errs, fmt.Sprintf("%s:\"%d\" stands for no domain constant its limit tag names (limit:%q)", key, n, tag.Get("limit")))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if !used[name] {
			errs = append(errs, fmt.Sprintf("limit names %s (%d), which none of the field's limits is", name, values[name]))
		}
	}
	return errs
}
