//go:build race

package raced

const race = true
