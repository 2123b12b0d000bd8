// Package notests has no test files: testrun leaves it out.
package notests
