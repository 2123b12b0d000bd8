// Command patchgen writes the PATCH twins of the marked request types of the
// package in the directory it is given (see package patchgen).
//
//	go run ./internal/devtools/patchgen/cmd/patchgen httpapi
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/clubhouse-go/clubhouse/internal/devtools/patchgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: patchgen DIR")
		os.Exit(2)
	}
	src, err := patchgen.Generate(os.Args[1])
	if err == nil {
		err = os.WriteFile(filepath.Join(os.Args[1], patchgen.Output), src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "patchgen:", err)
		os.Exit(1)
	}
}
