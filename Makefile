# The two commands of the README: `make run` and `make test`. Everything else is a part of those.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

# A node >= 22 first on PATH: the machine's, or Node 24 installed into .tools/node (see scripts/ensure-node.sh).
NODE_BIN := $(shell scripts/ensure-node.sh)
ifeq ($(NODE_BIN),)
$(error could not find or install Node.js >= 22)
endif
export PATH := $(NODE_BIN):$(CURDIR)/node_modules/.bin:$(PATH)
export npm_config_update_notifier := false

COUNTS := reports/counts

.PHONY: install build run dev test test-server typecheck lint conformance conformance-selftest test-reliability test-topologies bench bench-floor clean

node_modules/.install-stamp: package.json package-lock.json
	@# npm ci rejects this lock (npm 11 drops the other platforms' optional biome binaries from it); npm install keeps to it.
	npm install --no-audit --no-fund --loglevel=error
	touch $@

install: node_modules/.install-stamp

dist/.build-stamp: node_modules/.install-stamp tsconfig.json tsconfig.build.json $(shell find server/src -name '*.ts')
	tsc -p tsconfig.build.json
	touch $@

build: dist/.build-stamp

## Runs the service on http://$${HOST:-127.0.0.1}:$${PORT:-8080}/ (embedded Redis unless REDIS_URL is set).
run: build
	exec node dist/server/src/main.js

## Runs from the TypeScript sources (no build step).
dev: install
	exec tsx server/src/main.ts

typecheck: install
	tsc -p tsconfig.json --noEmit

lint: install
	biome check .

## The server's own unit and integration tests (mocha, real Redis on a free port).
test-server: install
	MOCHA_SUITE_NAME=server mocha

# A check that is not a test runner (type check, lint) still counts in the totals: one check, passed or failed.
define counted_check
	if $(MAKE) --no-print-directory $(1); then echo '{"passed":1,"failed":0}' > $(COUNTS)/$(1).json; \
	else echo '{"passed":0,"failed":1}' > $(COUNTS)/$(1).json; status=1; fi
endef

## Every test: type check, lint, the server's tests, the conformance self-test and the conformance suite.
test: install
	rm -rf $(COUNTS) && mkdir -p $(COUNTS)
	status=0; \
	$(call counted_check,typecheck); \
	$(call counted_check,lint); \
	$(MAKE) --no-print-directory test-server || status=1; \
	$(MAKE) --no-print-directory conformance-selftest || status=1; \
	$(MAKE) --no-print-directory conformance || status=1; \
	node scripts/tally.mjs typecheck lint server conformance-selftest conformance || status=1; \
	exit $$status

## The conformance suite (Playwright API tests) against the reference server on its own Redis, or against
## CONFORMANCE_BASE_URL (a running implementation) and/or CONFORMANCE_START_COMMAND (with {port} and {data}).
## Reports in reports/conformance/ (summary.md, summary.json, junit.xml, html/). Extra Playwright options:
## CONFORMANCE_ARGS='--grep @MUST'. Fails only when a MUST rule fails or the target never answers.
conformance: build
	playwright test -c conformance/playwright.config.ts $(CONFORMANCE_ARGS)

## The suite's self-test: an independent implementation, correct and with one defect at a time.
conformance-selftest: install
	MOCHA_SUITE_NAME=conformance-selftest mocha --config conformance/selftest/.mocharc.json

## Faults with real processes and signals (kill -9 of the embedded redis-server and of the server, an external
## Redis stopped and started, SIGTERM), the hostile corpus, fast-check fuzz, a mixed load of LOAD_SECONDS (60)
## and the security checks. Each test prints its figures; the latest are kept in reports/reliability/figures.json.
test-reliability: build
	rm -f reports/reliability/figures.json
	MOCHA_SUITE_NAME=reliability mocha --config server/test/reliability/.mocharc.json

## The users and apps tests, then the conformance suite, against Redis Sentinel (master, replica, three sentinels)
## and Redis Cluster (three masters with a replica each), each started from redis-server on free ports and
## stopped afterwards. Counts: reports/counts/topology-{sentinel,cluster}.json, conformance-{sentinel,cluster}.json.
TOPOLOGIES := sentinel cluster
test-topologies: build
	mkdir -p $(COUNTS)
	status=0; \
	for kind in $(TOPOLOGIES); do \
	  echo "== $$kind: server tests"; \
	  TEST_TOPOLOGY=$$kind MOCHA_SUITE_NAME=topology-$$kind mocha --config server/test/.mocharc.topologies.json || status=1; \
	  echo "== $$kind: conformance suite"; \
	  CONFORMANCE_REPORT_DIR=reports/conformance-$$kind CONFORMANCE_COUNTS_FILE=$(COUNTS)/conformance-$$kind.json \
	    tsx server/test/support/run-on-topology.ts $$kind -- playwright test -c conformance/playwright.config.ts $(CONFORMANCE_ARGS) || status=1; \
	done; \
	exit $$status

## Server vs framework-free baseline (bench/), A/B alternated; writes reports/bench/latest.{json,md}. Not part of `make test`.
bench: build
	tsx bench/run.ts

## What restify alone costs per request: a bare restify route against bare node:http, same handler.
bench-floor: build
	tsx bench/floor.ts

clean:
	rm -rf dist reports test-results playwright-report node_modules/.install-stamp
