# Clubhouse: the two commands of the README are `make demo` and `make test`.
SHELL := /bin/bash
SWAG := go tool swag init -g routes.go -d httpapi -o httpapi/apidocs --outputTypes json --parseInternal --quiet

.PHONY: demo test services apidocs apidocs-check lint

## demo: start the local services, then clubd with the demo club on :6000
demo: services
	go run ./cmd/clubd --demo

## test: the whole suite, as CI runs it
test: services apidocs-check lint
	go test -race -count=1 ./...

## services: install and start PostgreSQL, install versitygw; idempotent
services:
	bash .ci/services

## apidocs: regenerate the PATCH body types (patchgen) and the Swagger source of /api-docs.json from the handlers' annotations
apidocs:
	go run ./internal/patchgen/cmd/patchgen httpapi
	$(SWAG)

## apidocs-check: fail when the committed API description is out of date
apidocs-check:
	@tmp=$$(mktemp -d) && go tool swag init -g routes.go -d httpapi -o $$tmp --outputTypes json --parseInternal --quiet && \
	  diff -q $$tmp/swagger.json httpapi/apidocs/swagger.json >/dev/null || \
	  { echo "httpapi/apidocs/swagger.json is stale: run make apidocs"; rm -rf $$tmp; exit 1; }; rm -rf $$tmp

## lint: gofmt, go vet and staticcheck
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet ./...
	@command -v staticcheck >/dev/null || go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	PATH="$$(go env GOPATH)/bin:$$PATH" staticcheck ./...
