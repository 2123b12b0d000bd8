package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// accountingCommand holds the accountants' commands; they call the API.
func accountingCommand() *cli.Command {
	when := []cli.Flag{
		&cli.StringFlag{Name: "as-of", Usage: "date YYYY-MM-DD (default today)"},
		&cli.Int64Flag{Name: "period", Usage: "period id, instead of dates"},
	}
	span := []cli.Flag{
		&cli.StringFlag{Name: "from", Usage: "date YYYY-MM-DD (default the first of this month)"},
		&cli.StringFlag{Name: "to", Usage: "date YYYY-MM-DD (default today)"},
		&cli.Int64Flag{Name: "period", Usage: "period id, instead of dates"},
	}
	format := &cli.StringFlag{Name: "format", Value: "table", Usage: "table or csv"}
	withAPI := func(fs ...cli.Flag) []cli.Flag { return append(apiFlags(), fs...) }
	return &cli.Command{
		Name:  "accounting",
		Usage: "ledger reports, period close and reopen (calls the API at CLUBD_URL with CLUBD_TOKEN)",
		Subcommands: []*cli.Command{
			{Name: "trial-balance", Usage: "every account's debits, credits and balance", Flags: withAPI(append(when, format)...), Action: trialBalance},
			{
				Name: "statement", Usage: "financial statements",
				Subcommands: []*cli.Command{
					{Name: "financial-position", Usage: "assets, liabilities and equity at a date", Flags: withAPI(append(when, format)...),
						Action: statement("financial-position")},
					{Name: "profit-or-loss", Usage: "income, expenses and result over dates", Flags: withAPI(append(span, format)...),
						Action: statement("profit-or-loss")},
					{Name: "changes-in-equity", Usage: "equity accounts' movements over dates", Flags: withAPI(append(span, format)...),
						Action: statement("changes-in-equity")},
				},
			},
			{
				Name: "period", Usage: "accounting periods",
				Subcommands: []*cli.Command{
					{Name: "list", Usage: "list periods", Flags: withAPI(format), Action: periodList},
					{Name: "create", Usage: "open a period", Action: periodCreate, Flags: withAPI(
						&cli.StringFlag{Name: "name", Required: true}, &cli.StringFlag{Name: "start", Required: true, Usage: "YYYY-MM-DD"},
						&cli.StringFlag{Name: "end", Required: true, Usage: "YYYY-MM-DD"})},
					{Name: "readiness", Usage: "what a close of the period checks", ArgsUsage: "PERIOD_ID", Flags: withAPI(), Action: periodReadiness},
					{Name: "close", Usage: "close the period (runs the results close first)", ArgsUsage: "PERIOD_ID", Action: periodClose, Flags: withAPI(
						&cli.BoolFlag{Name: "early", Usage: "close before the period's last day is over (recorded on the period and logged)"})},
					{Name: "reopen", Usage: "reopen a closed period, reversing its close (role admin)", ArgsUsage: "PERIOD_ID", Action: periodReopen,
						Flags: withAPI(&cli.StringFlag{Name: "reason", Required: true, Usage: "why the period is reopened (recorded)"})},
				},
			},
		},
	}
}

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

// table writes rows as aligned columns or as CSV.
func table(w io.Writer, format string, header []string, rows [][]string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		if err := cw.WriteAll(rows); err != nil {
			return err
		}
		return cw.Error()
	case "table":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
		}
		return tw.Flush()
	}
	return fmt.Errorf("--format must be table or csv, not %q", format)
}

func trialBalance(c *cli.Context) error {
	a, err := newAPI(c)
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
	if err := a.do(c.Context, http.MethodGet, "/api/accounting/trial-balance"+query(c, "as-of", "period"), nil, &tb); err != nil {
		return err
	}
	rows := make([][]string, 0, len(tb.Rows)+1)
	for _, r := range tb.Rows {
		rows = append(rows, []string{r.Code, r.Name, r.Debit.String(), r.Credit.String(), r.Balance.String()})
	}
	rows = append(rows, []string{"", "Total", tb.TotalDebit.String(), tb.TotalCredit.String(), ""})
	if c.String("format") == "table" {
		fmt.Fprintf(c.App.Writer, "Trial balance as of %s (balanced: %t)\n", tb.AsOf, tb.Balanced)
	}
	return table(c.App.Writer, c.String("format"), []string{"CODE", "ACCOUNT", "DEBIT", "CREDIT", "BALANCE"}, rows)
}

// statement prints a statement: sections of lines with totals.
func statement(kind string) cli.ActionFunc {
	return func(c *cli.Context) error {
		a, err := newAPI(c)
		if err != nil {
			return err
		}
		var body map[string]json.RawMessage
		q := query(c, "as-of", "period")
		if kind != "financial-position" {
			q = query(c, "from", "to", "period")
		}
		if err := a.do(c.Context, http.MethodGet, "/api/accounting/statements/"+kind+q, nil, &body); err != nil {
			return err
		}
		var rows [][]string
		if kind == "changes-in-equity" {
			var ce struct {
				Accounts []map[string]json.Number `json:"accounts"`
				Total    map[string]json.Number   `json:"total"`
			}
			var names []struct {
				Code string `json:"code"`
				Name string `json:"name"`
			}
			_ = json.Unmarshal(body["accounts"], &names)
			_ = json.Unmarshal(body["accounts"], &ce.Accounts)
			_ = json.Unmarshal(body["total"], &ce.Total)
			for i, acc := range ce.Accounts {
				rows = append(rows, []string{names[i].Code, names[i].Name, acc["opening"].String(), acc["result"].String(),
					acc["other_movement"].String(), acc["closing"].String()})
			}
			rows = append(rows, []string{"", "Total", ce.Total["opening"].String(), ce.Total["result"].String(),
				ce.Total["other_movement"].String(), ce.Total["closing"].String()})
			return table(c.App.Writer, c.String("format"), []string{"CODE", "ACCOUNT", "OPENING", "RESULT", "OTHER", "CLOSING"}, rows)
		}
		sections := []string{"assets", "liabilities", "equity"}
		if kind == "profit-or-loss" {
			sections = []string{"income", "expenses"}
		}
		for _, name := range sections {
			var sec struct {
				Title string `json:"title"`
				Lines []struct {
					Code   string      `json:"code"`
					Name   string      `json:"name"`
					Amount json.Number `json:"amount"`
				} `json:"lines"`
				Total json.Number `json:"total"`
			}
			if err := json.Unmarshal(body[name], &sec); err != nil {
				return fmt.Errorf("unexpected answer from clubd: %w", err)
			}
			for _, l := range sec.Lines {
				rows = append(rows, []string{sec.Title, l.Code, l.Name, l.Amount.String()})
			}
			rows = append(rows, []string{sec.Title, "", "Total " + strings.ToLower(sec.Title), sec.Total.String()})
		}
		if r, ok := body["result"]; ok {
			rows = append(rows, []string{"", "", "Result", strings.Trim(string(r), `"`)})
		}
		return table(c.App.Writer, c.String("format"), []string{"SECTION", "CODE", "ACCOUNT", "AMOUNT"}, rows)
	}
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
	a, err := newAPI(c)
	if err != nil {
		return err
	}
	var ps []period
	if err := a.do(c.Context, http.MethodGet, "/api/accounting/periods", nil, &ps); err != nil {
		return err
	}
	rows := make([][]string, len(ps))
	for i, p := range ps {
		rows[i] = []string{strconv.FormatInt(p.ID, 10), p.Name, p.StartDate, p.EndDate, p.Status}
	}
	return table(c.App.Writer, c.String("format"), []string{"ID", "NAME", "START", "END", "STATUS"}, rows)
}

func periodCreate(c *cli.Context) error {
	a, err := newAPI(c)
	if err != nil {
		return err
	}
	var p period
	body := map[string]string{"name": c.String("name"), "start_date": c.String("start"), "end_date": c.String("end")}
	if err := a.do(c.Context, http.MethodPost, "/api/accounting/periods", body, &p); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "period %d %s (%s to %s) is open\n", p.ID, p.Name, p.StartDate, p.EndDate)
	return nil
}

func periodID(c *cli.Context) (string, error) {
	id := c.Args().First()
	if n, err := strconv.ParseInt(id, 10, 64); err != nil || n <= 0 {
		return "", fmt.Errorf("give the period id, a positive integer (clubctl accounting period list shows them)")
	}
	return id, nil
}

func periodReadiness(c *cli.Context) error {
	id, err := periodID(c)
	if err != nil {
		return err
	}
	a, err := newAPI(c)
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
	if err := a.do(c.Context, http.MethodGet, "/api/accounting/periods/"+id+"/close-readiness", nil, &rd); err != nil {
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
	id, err := periodID(c)
	if err != nil {
		return err
	}
	a, err := newAPI(c)
	if err != nil {
		return err
	}
	path := "/api/accounting/periods/" + id + "/close"
	if c.Bool("early") {
		path += "?early=true"
	}
	var p period
	if err := a.do(c.Context, http.MethodPost, path, nil, &p); err != nil {
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
	id, err := periodID(c)
	if err != nil {
		return err
	}
	a, err := newAPI(c)
	if err != nil {
		return err
	}
	var p period
	if err := a.do(c.Context, http.MethodPost, "/api/accounting/periods/"+id+"/reopen", map[string]string{"reason": c.String("reason")}, &p); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "period %d %s is %s again; its close is reversed\n", p.ID, p.Name, p.Status)
	return nil
}
