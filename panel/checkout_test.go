package panel_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestBooking_payLink: with a gateway, a client's booking that owes
// offers staff the online pay link, whose page shows the amount and the
// link the gateway takes; a booking without a client offers none, and
// without a gateway the form says the club takes no payments online.
func TestBooking_payLink(t *testing.T) {
	t.Parallel()
	keys := wompi.Config{PublicKey: "pub_test_club", IntegritySecret: "test_integrity_club"}
	s := wompitest.New(wompitest.Options{PublicKey: keys.PublicKey, IntegritySecret: keys.IntegritySecret})
	t.Cleanup(s.Close)
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	dc := newDeskClub(t, apptest.WithGateway(app.GatewayConfig{Name: "wompi", Wompi: keys}))
	ana := dc.club.Client("Ana", "Ruiz")
	b := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("10:00"), dc.at("11:00"))
	walkIn := dc.club.Reservation(dc.courts[1].ID, dc.typ.ID, 0, dc.at("10:00"), dc.at("11:00"))
	d := signedDesk(t, dc)
	path := fmt.Sprintf("/panel/bookings/%d", b.ID)
	assert.Contains(t, d.get(path).Body, `id="pay-link"`)
	assert.NotContains(t, d.get(fmt.Sprintf("/panel/bookings/%d", walkIn.ID)).Body, `id="pay-link"`, "nobody to send it to")

	res := d.post(path+"/checkout", url.Values{})
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, "Enlace de pago en línea")
	link := regexp.MustCompile(`<a id="checkout-link" href="([^"]+)">`).FindStringSubmatch(res.Body)
	require.NotNil(t, link)
	u, err := url.Parse(regexp.MustCompile(`&amp;`).ReplaceAllString(link[1], "&"))
	require.NoError(t, err)
	tx, _, err := s.Pay(t.Context(), u.Query(), wompitest.CardApproved)
	require.NoError(t, err, "the gateway takes the link")
	assert.Equal(t, dc.price(t, b.ID).Shift(2).IntPart(), tx.AmountInCents, "what the booking owes")

	res = d.post(fmt.Sprintf("/panel/bookings/%d/checkout", walkIn.ID), url.Values{})
	assert.Equal(t, http.StatusConflict, res.Status)

	plain := newDeskClub(t)
	c := plain.club.Client("Leo", "Paz")
	pb := plain.club.Reservation(plain.courts[0].ID, plain.typ.ID, c.ID, plain.at("10:00"), plain.at("11:00"))
	pd := signedDesk(t, plain)
	assert.NotContains(t, pd.get(fmt.Sprintf("/panel/bookings/%d", pb.ID)).Body, `id="pay-link"`)
	res = pd.post(fmt.Sprintf("/panel/bookings/%d/checkout", pb.ID), url.Values{})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, "El club todavía no recibe pagos en línea.")
}
