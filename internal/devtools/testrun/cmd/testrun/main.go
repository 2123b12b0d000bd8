// Command testrun runs go test package by package and shows the progress
// (see package testrun). make test runs it:
//
//	go run ./internal/devtools/testrun/cmd/testrun [-p n] [-quiet d] [-norace regexp] packages... [-- go test flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"syscall"

	"github.com/clubhouse-go/clubhouse/internal/devtools/testrun"
)

func main() {
	o := testrun.Options{Out: os.Stdout, Err: os.Stderr}
	flag.IntVar(&o.Parallel, "p", 0, "packages tested at once (default GOMAXPROCS, as go test)")
	flag.DurationVar(&o.Quiet, "quiet", 0, "after this long without a line, name the packages still running (default 30s)")
	noRace := flag.String("norace", "", "a regular expression of the import paths of the packages tested without -race")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: testrun [-p n] [-quiet d] [-norace regexp] packages... [-- go test flags]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if i := slices.Index(args, "--"); i >= 0 {
		args, o.Flags = args[:i], args[i+1:]
	}
	o.Packages = args
	if *noRace != "" {
		re, err := regexp.Compile(*noRace)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testrun: -norace:", err)
			os.Exit(2)
		}
		o.NoRace = re
	}
	if len(o.Packages) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := testrun.Run(ctx, o); err != nil {
		if !errors.Is(err, testrun.ErrFailed) {
			fmt.Fprintln(os.Stderr, "testrun:", err)
		}
		os.Exit(1)
	}
}
