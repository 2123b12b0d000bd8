package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

// formatFlag chooses how a command prints what the API answered.
func formatFlag() cli.Flag {
	return &cli.StringFlag{
		Name: "format", Value: "table", Usage: "table (aligned columns), csv (a header, then the table's rows) or json (the API's answer as received)",
		Action: func(c *cli.Context, f string) error {
			if f != "table" && f != "csv" && f != "json" {
				return usagef(c, "--format must be table, csv or json, not %q", f)
			}
			return nil
		},
	}
}

// view is what a command prints: the API's answer as received (json) and
// the columns and rows it makes of it (table and csv). title, when not
// empty, heads the table.
type view struct {
	raw    json.RawMessage
	title  string
	header []string
	rows   [][]string
}

// print writes v to the writer of c in the format of the flag format.
func (v view) print(c *cli.Context) error {
	w := c.App.Writer
	switch c.String("format") {
	case "json":
		_, err := fmt.Fprintf(w, "%s\n", bytes.TrimSpace(v.raw))
		return err
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(v.header); err != nil {
			return err
		}
		return cw.WriteAll(v.rows) // WriteAll flushes and reports the writer's error
	}
	if v.title != "" {
		fmt.Fprintln(w, v.title)
	}
	return table(w, v.header, v.rows)
}

// cell keeps a value on its line and in its column: tabs and line breaks
// (in notes, say) become spaces.
var cell = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")

// table writes header and rows as aligned columns.
func table(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		line := make([]string, len(r))
		for i, v := range r {
			line[i] = cell.Replace(v)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	return tw.Flush()
}

// rawList is the JSON array of items, as the API sent each one.
func rawList(items []json.RawMessage) json.RawMessage {
	if items == nil {
		items = []json.RawMessage{}
	}
	b, _ := json.Marshal(items) // cannot fail: each item is JSON the API sent
	return b
}

// decodeAll decodes each item into a T.
func decodeAll[T any](items []json.RawMessage) ([]T, error) {
	out := make([]T, len(items))
	for i, it := range items {
		if err := json.Unmarshal(it, &out[i]); err != nil {
			return nil, fmt.Errorf("unexpected answer from clubd: %w", err)
		}
	}
	return out, nil
}

// text is *s, or "" for nil.
func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ref is the id *id, or "" for nil.
func ref(id *int64) string {
	if id == nil {
		return ""
	}
	return fmt.Sprint(*id)
}
