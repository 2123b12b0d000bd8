package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// accountingCommand holds the accountants' commands; they call the API.
func accountingCommand() *cli.Command {
	when := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "as-of", Usage: "date YYYY-MM-DD (default today)", Action: checkDate},
			&cli.Int64Flag{Name: "period", Usage: "period id, instead of dates"},
			formatFlag(),
		}
	}
	span := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "date YYYY-MM-DD (default the first of this month)", Action: checkDate},
			&cli.StringFlag{Name: "to", Usage: "date YYYY-MM-DD (default today)", Action: checkDate},
			&cli.Int64Flag{Name: "period", Usage: "period id, instead of dates"},
			formatFlag(),
		}
	}
	return &cli.Command{
		Name:  "accounting",
		Usage: "ledger reports, period close and reopen (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{Name: "trial-balance", Usage: "every account's debits, credits and balance", Flags: apiFlags(when()...), Action: trialBalance},
			{
				Name: "statement", Usage: "financial statements",
				Subcommands: []*cli.Command{
					{Name: "financial-position", Usage: "assets, liabilities and equity at a date", Flags: apiFlags(when()...),
						Action: financialPosition},
					{Name: "profit-or-loss", Usage: "income, expenses and result over dates", Flags: apiFlags(span()...),
						Action: profitOrLoss},
					{Name: "changes-in-equity", Usage: "equity accounts' movements over dates", Flags: apiFlags(span()...),
						Action: changesInEquity},
				},
			},
			{
				Name: "period", Usage: "accounting periods",
				Subcommands: []*cli.Command{
					{Name: "list", Usage: "list periods", Flags: apiFlags(formatFlag()), Action: periodList},
					{Name: "create", Usage: "open a period", Action: periodCreate, Before: need("name", "start", "end"), Flags: apiFlags(
						&cli.StringFlag{Name: "name", Usage: "(required)"},
						&cli.StringFlag{Name: "start", Usage: "YYYY-MM-DD (required)", Action: checkDate},
						&cli.StringFlag{Name: "end", Usage: "YYYY-MM-DD (required)", Action: checkDate})},
					{Name: "readiness", Usage: "what a close of the period checks", ArgsUsage: "PERIOD_ID", Flags: apiFlags(), Action: periodReadiness},
					{Name: "close", Usage: "close the period (runs the results close first)", ArgsUsage: "PERIOD_ID", Action: periodClose, Flags: apiFlags(
						&cli.BoolFlag{Name: "early", Usage: "close before the period's last day is over (recorded on the period and logged)"})},
					{Name: "reopen", Usage: "reopen a closed period, reversing its close (role admin)", ArgsUsage: "PERIOD_ID", Action: periodReopen,
						Before: need("reason"), Flags: apiFlags(&cli.StringFlag{Name: "reason", Usage: "why the period is reopened, recorded (required)"})},
				},
			},
		},
	}
}

// query is the query of a report: the flags names of c that are set, by
// their API names.
func query(c *cli.Context, names ...string) string {
	v := url.Values{}
	for _, n := range names {
		switch n {
		case "period":
			if id := c.Int64("period"); id != 0 {
				v.Set("period_id", strconv.FormatInt(id, 10))
			}
		default:
			if s := c.String(n); s != "" {
				v.Set(strings.ReplaceAll(n, "-", "_"), s)
			}
		}
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

func trialBalance(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var tb struct {
		AsOf string `json:"as_of"`
		Rows []struct {
			Code    string      `json:"code"`
			Name    string      `json:"name"`
			Debit   json.Number `json:"debit"`
			Credit  json.Number `json:"credit"`
			Balance json.Number `json:"balance"`
		} `json:"rows"`
		TotalDebit  json.Number `json:"total_debit"`
		TotalCredit json.Number `json:"total_credit"`
		Balanced    bool        `json:"balanced"`
	}
	raw, err := a.do(c.Context, http.MethodGet, "/api/accounting/trial-balance"+query(c, "as-of", "period"), nil, &tb)
	if err != nil {
		return err
	}
	v := view{raw: raw, title: fmt.Sprintf("Trial balance as of %s (balanced: %t)", tb.AsOf, tb.Balanced),
		header: []string{"CODE", "ACCOUNT", "DEBIT", "CREDIT", "BALANCE"}}
	for _, r := range tb.Rows {
		v.rows = append(v.rows, []string{r.Code, r.Name, r.Debit.String(), r.Credit.String(), r.Balance.String()})
	}
	v.rows = append(v.rows, []string{"", "Total", tb.TotalDebit.String(), tb.TotalCredit.String(), ""})
	return v.print(c)
}

// section is a section of a statement: its lines and their total.
type section struct {
	Title string `json:"title"`
	Lines []struct {
		Code   string      `json:"code"`
		Name   string      `json:"name"`
		Amount json.Number `json:"amount"`
	} `json:"lines"`
	Total json.Number `json:"total"`
}

// sectionRows are the rows of the sections secs: their lines, each
// section closed by its total.
func sectionRows(secs ...section) [][]string {
	var rows [][]string
	for _, sec := range secs {
		for _, l := range sec.Lines {
			rows = append(rows, []string{sec.Title, l.Code, l.Name, l.Amount.String()})
		}
		rows = append(rows, []string{sec.Title, "", "Total " + strings.ToLower(sec.Title), sec.Total.String()})
	}
	return rows
}

// sectionHeader is the header of the rows of sections.
func sectionHeader() []string { return []string{"SECTION", "CODE", "ACCOUNT", "AMOUNT"} }

func financialPosition(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var fp struct {
		AsOf        string  `json:"as_of"`
		Assets      section `json:"assets"`
		Liabilities section `json:"liabilities"`
		Equity      section `json:"equity"`
	}
	raw, err := a.do(c.Context, http.MethodGet, "/api/accounting/statements/financial-position"+query(c, "as-of", "period"), nil, &fp)
	if err != nil {
		return err
	}
	return view{raw: raw, title: "Statement of financial position as of " + fp.AsOf, header: sectionHeader(),
		rows: sectionRows(fp.Assets, fp.Liabilities, fp.Equity)}.print(c)
}

func profitOrLoss(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var pl struct {
		From     string      `json:"from"`
		To       string      `json:"to"`
		Income   section     `json:"income"`
		Expenses section     `json:"expenses"`
		Result   json.Number `json:"result"`
	}
	raw, err := a.do(c.Context, http.MethodGet, "/api/accounting/statements/profit-or-loss"+query(c, "from", "to", "period"), nil, &pl)
	if err != nil {
		return err
	}
	rows := append(sectionRows(pl.Income, pl.Expenses), []string{"", "", "Result", pl.Result.String()})
	return view{raw: raw, title: fmt.Sprintf("Statement of profit or loss from %s to %s", pl.From, pl.To), header: sectionHeader(),
		rows: rows}.print(c)
}

func changesInEquity(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	type change struct {
		Code          string      `json:"code"`
		Name          string      `json:"name"`
		Opening       json.Number `json:"opening"`
		Result        json.Number `json:"result"`
		OtherMovement json.Number `json:"other_movement"`
		Closing       json.Number `json:"closing"`
	}
	var ce struct {
		From     string   `json:"from"`
		To       string   `json:"to"`
		Accounts []change `json:"accounts"`
		Total    change   `json:"total"`
	}
	raw, err := a.do(c.Context, http.MethodGet, "/api/accounting/statements/changes-in-equity"+query(c, "from", "to", "period"), nil, &ce)
	if err != nil {
		return err
	}
	v := view{raw: raw, title: fmt.Sprintf("Statement of changes in equity from %s to %s", ce.From, ce.To),
		header: []string{"CODE", "ACCOUNT", "OPENING", "RESULT", "OTHER", "CLOSING"}}
	for _, ch := range ce.Accounts {
		v.rows = append(v.rows, []string{ch.Code, ch.Name, ch.Opening.String(), ch.Result.String(), ch.OtherMovement.String(), ch.Closing.String()})
	}
	t := ce.Total
	v.rows = append(v.rows, []string{"", "Total", t.Opening.String(), t.Result.String(), t.OtherMovement.String(), t.Closing.String()})
	return v.print(c)
}

type period struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	StartDate   string `json:"start_date"`
	EndDate     string `json:"end_date"`
	Status      string `json:"status"`
	ClosedEarly bool   `json:"closed_early"`
}

func periodList(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var ps []period
	raw, err := a.do(c.Context, http.MethodGet, "/api/accounting/periods", nil, &ps)
	if err != nil {
		return err
	}
	v := view{raw: raw, header: []string{"ID", "NAME", "START", "END", "STATUS"}}
	for _, p := range ps {
		v.rows = append(v.rows, []string{strconv.FormatInt(p.ID, 10), p.Name, p.StartDate, p.EndDate, p.Status})
	}
	return v.print(c)
}

func periodCreate(c *cli.Context) error {
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var p period
	body := map[string]string{"name": c.String("name"), "start_date": c.String("start"), "end_date": c.String("end")}
	if _, err := a.do(c.Context, http.MethodPost, "/api/accounting/periods", body, &p); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "period %d %s (%s to %s) is open\n", p.ID, p.Name, p.StartDate, p.EndDate)
	return nil
}

func periodReadiness(c *cli.Context) error {
	id, err := idArg(c, "period")
	if err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var rd struct {
		Ready  bool `json:"ready"`
		Checks []struct {
			Name   string `json:"name"`
			OK     bool   `json:"ok"`
			Detail string `json:"detail"`
		} `json:"checks"`
	}
	if _, err := a.do(c.Context, http.MethodGet, "/api/accounting/periods/"+id+"/close-readiness", nil, &rd); err != nil {
		return err
	}
	w := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	for _, ch := range rd.Checks {
		mark := "ok"
		if !ch.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", mark, ch.Name, ch.Detail)
	}
	fmt.Fprintf(w, "\nready to close: %t\n", rd.Ready)
	return w.Flush()
}

func periodClose(c *cli.Context) error {
	id, err := idArg(c, "period")
	if err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	path := "/api/accounting/periods/" + id + "/close"
	if c.Bool("early") {
		path += "?early=true"
	}
	var p period
	if _, err := a.do(c.Context, http.MethodPost, path, nil, &p); err != nil {
		return err
	}
	if p.ClosedEarly {
		fmt.Fprintf(c.App.Writer, "period %d %s is %s, early: before its end date %s\n", p.ID, p.Name, p.Status, p.EndDate)
		return nil
	}
	fmt.Fprintf(c.App.Writer, "period %d %s is %s\n", p.ID, p.Name, p.Status)
	return nil
}

func periodReopen(c *cli.Context) error {
	id, err := idArg(c, "period")
	if err != nil {
		return err
	}
	a, err := newAPI(c, true)
	if err != nil {
		return err
	}
	var p period
	if _, err := a.do(c.Context, http.MethodPost, "/api/accounting/periods/"+id+"/reopen", map[string]string{"reason": c.String("reason")}, &p); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "period %d %s is %s again; its close is reversed\n", p.ID, p.Name, p.Status)
	return nil
}
