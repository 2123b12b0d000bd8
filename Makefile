# Clubhouse: the two commands of the README are `make demo` and `make test`.
SHELL := /bin/bash
SWAG := go tool swag init -g routes.go -d httpapi -o httpapi/apidocs --outputTypes json --parseInternal --quiet

.PHONY: demo demo-online test services-demo services-test apidocs apidocs-check lint

## demo: start PostgreSQL and Mailpit, build clubd into ./clubd (a line before and after: the first build on a fresh
## machine takes minutes), then run it with the demo club on localhost:8080 (PORT wins; loopback only
## unless BIND_ADDRESS), its mail going to Mailpit (SMTP_URL and MAIL_FROM win; read it at
## http://127.0.0.1:8025); clubd's own default port, 6000, is one that browsers and Node refuse
demo: services-demo
	@echo "demo: building clubd into ./clubd (the first build on a fresh machine compiles every dependency and takes a few minutes) ..."
	@start=$$SECONDS; go build -o clubd ./cmd/clubd && echo "demo: clubd built in $$((SECONDS - start))s; starting it"
	PORT=$${PORT:-8080} REALTIME_ENABLED=$${REALTIME_ENABLED:-true} SMTP_URL=$${SMTP_URL:-smtp://127.0.0.1:1025} \
	  MAIL_FROM="$${MAIL_FROM:-Club Demo <reservas@demo.club>}" ./clubd --demo

## demo-online: make demo with online payment through a local stand-in of Wompi (clubctl standin wompi on
## 127.0.0.1:8091: its checkout page and API, test keys, no money moves), whose variables clubd is started with
demo-online: services-demo
	@echo "demo-online: building clubd and clubctl ..."
	@go build -o clubd ./cmd/clubd && go build -o clubctl ./cmd/clubctl
	@rm -f .standin.env; ./clubctl standin wompi --events-url "http://localhost:$${PORT:-8080}/webhooks/wompi" > .standin.env & standin=$$!; \
	  trap 'kill $$standin 2>/dev/null; rm -f .standin.env' EXIT; \
	  for i in $$(seq 100); do grep -q WOMPI_CHECKOUT_URL .standin.env 2>/dev/null && break; sleep 0.1; done; \
	  set -a; . ./.standin.env; set +a; \
	  PORT=$${PORT:-8080} REALTIME_ENABLED=$${REALTIME_ENABLED:-true} SMTP_URL=$${SMTP_URL:-smtp://127.0.0.1:1025} \
	  MAIL_FROM="$${MAIL_FROM:-Club Demo <reservas@demo.club>}" ./clubd --demo

## test: the whole suite, as CI runs it; a line when each package starts, a
## line per test as it finishes, a line when each package ends with its time,
## and a line naming the packages still running after 30s of silence. The race
## detector runs over every package but the front doors' end-to-end suites
## (E2E), which drive the club through HTTP, browsers and child processes and
## which it slows threefold; their tests of concurrent paths (RACY) run with it
## afterwards
E2E := /(httpapi|panel|members|mcp|cmd/clubd|cmd/clubctl)$$
RACY := Realtime|[Rr]ace|[Rr]acing|[Cc]oncurren|[Tt]woInstances|AcrossInstances
test: services-test apidocs-check lint
	go run ./internal/devtools/testrun/cmd/testrun -norace '$(E2E)' ./... -- -race -count=1 -timeout 25m
	go run ./internal/devtools/testrun/cmd/testrun ./httpapi ./mcp ./cmd/clubd -- -race -count=1 -timeout 15m -run '$(RACY)'

## services-demo: install and start PostgreSQL and Mailpit; idempotent
services-demo:
	bash .ci/services demo

## services-test: services-demo plus the test-only tools (Redis, versitygw, Chromium, Node.js, npm packages); idempotent
services-test:
	bash .ci/services test

## apidocs: regenerate the PATCH body types (patchgen) and the Swagger source of /api-docs.json from the handlers' annotations
apidocs:
	go run ./internal/devtools/patchgen/cmd/patchgen httpapi
	$(SWAG)

## apidocs-check: fail when the committed API description is out of date
apidocs-check:
	@echo "apidocs-check: is httpapi/apidocs/swagger.json up to date?"
	@tmp=$$(mktemp -d) && go tool swag init -g routes.go -d httpapi -o $$tmp --outputTypes json --parseInternal --quiet && \
	  diff -q $$tmp/swagger.json httpapi/apidocs/swagger.json >/dev/null || \
	  { echo "httpapi/apidocs/swagger.json is stale: run make apidocs"; rm -rf $$tmp; exit 1; }; rm -rf $$tmp

## lint: gofmt, go vet and staticcheck
lint:
	@echo "lint: gofmt"
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet ./...
	@PATH="$$(go env GOPATH)/bin:$$PATH" command -v staticcheck >/dev/null || { echo "installing staticcheck"; go install honnef.co/go/tools/cmd/staticcheck@v0.8.2; }
	PATH="$$(go env GOPATH)/bin:$$PATH" staticcheck ./...
