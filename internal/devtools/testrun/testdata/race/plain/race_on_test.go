//go:build race

package plain

const race = true
