package panel_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// TestBrowser_classes: on a phone, with JavaScript on and off, a trainer
// opens their classes, makes the calendar feed of their classes there,
// then opens a class, and marks one student present and another absent
// with one tap each; the list, without and with the feed's address, and
// the class's page, before and after, are held to axe-core, in Spanish.
func TestBrowser_classes(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"phone-js":    {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
		"phone-no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone(), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newSchool(t)
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, s.app, "coach@test.club", "/panel/classes")
			assert.Equal(t, "Mis clases", browsertest.Text(t, ctx, "main h1"))
			assert.Contains(t, browsertest.Text(t, ctx, fmt.Sprintf("#class-%d", s.class)), "2 de 2 ocupados")
			assert.Equal(t, "Calendario de mis clases", browsertest.Text(t, ctx, "#calendar-title"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "list")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("calendar-create")), chromedp.WaitVisible(chromedp.ID("calendar-url"))))
			assert.Equal(t, "Dirección del calendario de tus clases", browsertest.Text(t, ctx, `label[for="calendar-url"]`))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "calendar")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/panel/classes/%d"]`, s.class))),
				chromedp.WaitVisible(chromedp.ID("roster-title")),
			))
			assert.Equal(t, "Pádel inicial", browsertest.Text(t, ctx, "main h1"))
			ana, bruno := fmt.Sprintf("#enrollment-%d", s.ana), fmt.Sprintf("#enrollment-%d", s.bruno)
			assert.Equal(t, "Sin marcar", browsertest.Text(t, ctx, ana+" .mark"))
			assert.Equal(t, "Sin marcar", browsertest.Text(t, ctx, bruno+" .mark"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "class")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(ana+` button[value="1"]`)),
				chromedp.WaitVisible(chromedp.CSS(ana+" .mark-present")),
				chromedp.Click(chromedp.CSS(bruno+` button[value="0"]`)),
				chromedp.WaitVisible(chromedp.CSS(bruno+" .mark-absent")),
			))
			assert.Equal(t, "Presente", browsertest.Text(t, ctx, ana+" .mark"))
			assert.Equal(t, "Ausente", browsertest.Text(t, ctx, bruno+" .mark"))
			assert.Equal(t, map[int64]string{s.ana: classes.AttendancePresent, s.bruno: classes.AttendanceAbsent}, s.marks(t, 0))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "marked")
		})
	}
}
