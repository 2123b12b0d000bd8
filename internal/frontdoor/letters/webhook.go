package letters

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// webhookDisabled is the letter to an admin that the club disabled a
// webhook endpoint: which, why, and what to do. An endpoint deleted or
// enabled again since has nothing to tell.
func (c *Composer) webhookDisabled(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	e, err := c.o.Services.Webhooks.Get(ctx, asClub, n.Ref)
	if errors.Is(err, webhooks.ErrEndpointNotFound) {
		return mail.Letter{}, fmt.Errorf("%w: webhook endpoint %d is gone", mail.ErrNoLetter, n.Ref)
	}
	if err != nil {
		return mail.Letter{}, err
	}
	if e.Enabled {
		return mail.Letter{}, fmt.Errorf("%w: webhook endpoint %d was enabled again", mail.ErrNoLetter, n.Ref)
	}
	r, err := c.recipient(ctx, n, "")
	if err != nil {
		return mail.Letter{}, err
	}
	p := r.p
	reason := p.T("mail.webhook_disabled.failing", "days", int(webhooks.FailingLimit.Hours()/24))
	if e.DisabledReason == webhooks.DisabledGone {
		reason = p.T("mail.webhook_disabled.gone")
	}
	details := []detail{{p.T("mail.webhook_disabled.url"), e.URL}}
	if e.Description != "" {
		details = append(details, detail{p.T("mail.webhook_disabled.description"), e.Description})
	}
	return c.write(r, content{
		Subject: p.T("mail.webhook_disabled.subject", "club", c.o.Club),
		Lines:   []string{reason, p.T("mail.webhook_disabled.body", "id", strconv.FormatInt(e.ID, 10))},
		Details: details,
	})
}
