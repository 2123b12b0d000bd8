# Clubhouse: the two commands of the README are `make demo` and `make test`.
SHELL := /bin/bash
SWAG := go tool swag init -g routes.go -d httpapi -o httpapi/apidocs --outputTypes json --parseInternal --quiet

.PHONY: demo test services-demo services-test apidocs apidocs-check lint

## demo: start PostgreSQL, then clubd with the demo club on :8080 (PORT wins);
## clubd's own default port, 6000, is one that browsers and Node refuse
demo: services-demo
	PORT=$${PORT:-8080} go run ./cmd/clubd --demo

## test: the whole suite, as CI runs it; a line per test as it finishes
test: services-test apidocs-check lint
	go tool gotestsum --format testname --format-hide-empty-pkg -- -race -count=1 ./...

## services-demo: install and start PostgreSQL; idempotent
services-demo:
	bash .ci/services demo

## services-test: services-demo plus the test-only tools (versitygw, Chromium, Node.js, npm packages); idempotent
services-test:
	bash .ci/services test

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
