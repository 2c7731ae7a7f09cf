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

.PHONY: install build run dev test test-all totals test-server test-containers typecheck lint conformance conformance-selftest conformance-pack implementations implementations-check coverage errors-doc configuration-doc docs test-reliability test-topologies bench bench-processes bench-metrics bench-floor bench-scale clean

NPM_INSTALL := npm install --no-audit --no-fund --loglevel=error

# Every package: the server's, the test tools' (devDependencies) and the conformance suite's (its workspace).
node_modules/.install-stamp: package.json package-lock.json conformance/package.json
	@echo "== installing every npm package: the server's, the tests' tools and the conformance suite's"
	@# The lock lists every platform's optional biome binary (as npm 11.19 writes it): npm install leaves it unchanged, npm ci accepts it.
	$(NPM_INSTALL)
	@touch $@

install: node_modules/.install-stamp

# What `make run` installs when nothing is: the runtime dependencies and what tsconfig.build.json needs (the
# compiler, the types of node and restify), at the lock's versions; not the tests' tools. --save-prod counts
# those three as dependencies for this install only (--no-save: package.json and the lock stay as they are).
# A package of server/src that brings no types of its own needs its @types here too.
BUILD_TOOLS := typescript @types/node @types/restify
node_modules/.run-install-stamp: package.json package-lock.json
	@if [ -e node_modules/.install-stamp ]; then touch $@; exit 0; fi; \
	echo "== installing the server's npm packages: its runtime dependencies and $(BUILD_TOOLS) to build it (first run only; make test installs the rest)"; \
	tools=$$(node -p "const p = require('./package-lock.json').packages; '$(BUILD_TOOLS)'.split(' ').map((n) => n + '@' + p['node_modules/' + n].version).join(' ')"); \
	echo "$(NPM_INSTALL) --omit=dev --workspaces=false --no-save --save-prod $$tools"; \
	$(NPM_INSTALL) --omit=dev --workspaces=false --no-save --save-prod $$tools
	@touch $@

# Once the full install is there, the build uses it (an install without devDependencies would remove them).
ifneq ($(wildcard node_modules/.install-stamp),)
BUILD_INSTALL := node_modules/.install-stamp
else
BUILD_INSTALL := node_modules/.run-install-stamp
endif

dist/.build-stamp: $(BUILD_INSTALL) tsconfig.json tsconfig.build.json $(shell find server/src -name '*.ts')
	@echo "== building the server (TypeScript to dist/)"
	tsc -p tsconfig.build.json
	@touch $@

# The targets that build also run the tests' tools: `make build` installs everything; `make run` needs only its part.
build: install dist/.build-stamp

## Runs the service on http://$${HOST:-127.0.0.1}:$${PORT:-8080}/ (embedded Redis unless REDIS_URL is set).
run: dist/.build-stamp
	@echo "== starting the service on http://$${HOST:-127.0.0.1}:$${PORT:-8080}/ (Ctrl-C stops it)"
	exec node dist/server/src/main.js

## Runs from the TypeScript sources (no build step).
dev: install
	exec tsx server/src/main.ts

typecheck: install
	tsc -p tsconfig.json --noEmit

# No import circles (madge; dynamic and type-only imports count).
CIRCLES_EXCLUDE := (^|/)(node_modules|dist)/
lint: install
	biome check .
	madge --circular --no-spinner --extensions ts,mjs,mts,cjs --exclude '$(CIRCLES_EXCLUDE)' conformance server testing scripts bench
	@# The model is pure: nothing from support/, explore/ or Playwright.
	@if grep -nE "(from|import\() *'(\.\./|@playwright)" conformance/model/*.ts; then echo 'lint: conformance/model/ imports only itself and pure packages'; exit 1; fi

## What tests need from the system, from Debian's packages where missing (as root; CI runs it first, no test
## target installs anything): a JDK, Jersey 1 and JAXB for the Java client test, xmllint and chromium for
## the conformance self-test. Without them those tests are skipped, saying what to install (.ci/deps.sh).
.PHONY: ci-deps
ci-deps:
	.ci/deps.sh

## The server's own unit and integration tests (mocha, real Redis on a free port). The Java client test
## needs a JDK and Debian's Jersey 1 and JAXB (make ci-deps); where they are missing it is skipped, saying so.
test-server: install
	MOCHA_SUITE_NAME=server mocha

# A check that is not a test runner (type check, lint) still counts in the totals: one check, passed or failed.
define counted_check
	if $(MAKE) --no-print-directory $(1); then echo '{"passed":1,"failed":0}' > $(COUNTS)/$(1).json; \
	else echo '{"passed":0,"failed":1}' > $(COUNTS)/$(1).json; status=1; fi
endef

## What a contributor runs before a push (the README's test command, about 10 min): type check, lint, the server's
## tests, the conformance self-test's quick tier (one case of each kind: every kind of defect still shown caught and
## named), the conformance suite against this server, and docs/implementations.md current.
test: install
	rm -rf $(COUNTS) && mkdir -p $(COUNTS)
	status=0; \
	$(call counted_check,typecheck); \
	$(call counted_check,lint); \
	$(MAKE) --no-print-directory test-server || status=1; \
	$(MAKE) --no-print-directory conformance-selftest SELFTEST_TIER=quick || status=1; \
	$(MAKE) --no-print-directory conformance || status=1; \
	$(MAKE) --no-print-directory implementations-check || status=1; \
	node scripts/tally.mjs --only typecheck lint server conformance-selftest conformance || status=1; \
	exit $$status

## Everything (what .ci/run calls): make test, then two lanes at once: the self-test's other cases (every case
## not in the quick tier: runs that mostly wait on their implementations) beside reliability, topologies and,
## where a container runtime answers, the container paths (else counted as skipped, with the reason); the
## self-test's output is printed when its lane ends. BEFORE_CONTAINERS: a command run before asking whether a
## runtime answers (.ci/run: wait for the one it is starting). Installs nothing outside the checkout: `make
## ci-deps` (root) does, .ci/run calls it.
TEST_ALL_RUNNERS := typecheck lint server conformance-selftest conformance conformance-selftest-rest reliability \
  topology-sentinel conformance-sentinel topology-cluster conformance-cluster
LANES := reports/lanes
test-all: install
	status=0; \
	timed() { local t=$$SECONDS; "$$@" || status=1; echo "== $$* took $$((SECONDS - t)) s"; }; \
	timed $(MAKE) --no-print-directory test; \
	mkdir -p $(LANES); \
	echo "== the self-test's rest tier runs beside the next parts; its output: $(LANES)/selftest-rest.log"; \
	( timed $(MAKE) --no-print-directory conformance-selftest SELFTEST_TIER=rest; exit $$status ) >$(LANES)/selftest-rest.log 2>&1 & \
	rest=$$!; \
	timed $(MAKE) --no-print-directory test-reliability; \
	timed $(MAKE) --no-print-directory test-topologies; \
	$${BEFORE_CONTAINERS:-true}; \
	if docker info >/dev/null 2>&1; then \
	  timed $(MAKE) --no-print-directory test-containers; \
	else \
	  echo "== containers: skipped: no container runtime answers (docker info); .ci/run starts one where it can"; \
	  echo '{"passed":0,"failed":0,"skipped":1}' > $(COUNTS)/containers-skipped.json; \
	fi; \
	t=$$SECONDS; wait $$rest || status=1; \
	echo "== waited $$((SECONDS - t)) s for the self-test's rest tier; its output:"; \
	cat $(LANES)/selftest-rest.log; \
	$(MAKE) --no-print-directory totals || status=1; \
	exit $$status

## The totals of make test-all's runners (reports/counts/): one line "N passed, N failed, N skipped", last.
totals:
	@echo "== totals"
	@node scripts/tally.mjs $(TEST_ALL_RUNNERS) \
	  $(if $(wildcard $(COUNTS)/containers-skipped.json),,containers-server containers-conformance containers-leftovers)

## The container paths, where a container runtime answers (docs/containers.md): the server's tests and the
## conformance suite with TEST_REDIS=container, then the compose stack (Compose v1 and v2 where each can be had):
## build, up, healthchecks, the conformance suite against it, data across restarts and down/up, down -v.
test-containers: build
	scripts/test-containers.sh

## The conformance suite (conformance/, a package of its own; see conformance/README.md) against this
## repository's reference server: its CLI starts each instance with scripts/reference-instance.ts (a test
## Redis keeping its data in {data}/redis, then the built server), so a restart restarts both. Or against
## CONFORMANCE_BASE_URL (a running implementation) and/or CONFORMANCE_START_COMMAND (with {port} and {data}).
## Reports in reports/conformance/ (index.html, summary.md, summary.json, junit.xml, html/). Extra options:
## CONFORMANCE_ARGS='--grep @MUST'. Fails only when a MUST rule fails (exit 1) or the run could not run (exit 3).
REFERENCE_INSTANCE := exec node --import tsx scripts/reference-instance.ts --port {port} --data {data}

conformance: build
	if [ -z "$${CONFORMANCE_BASE_URL:-}" ] && [ -z "$${CONFORMANCE_START_COMMAND:-}" ]; then \
	  export CONFORMANCE_START_COMMAND='$(REFERENCE_INSTANCE)' CONFORMANCE_NAME="$${CONFORMANCE_NAME:-reference server (server/, Redis standalone)}"; fi; \
	export CONFORMANCE_REPORT_DIR="$${CONFORMANCE_REPORT_DIR:-reports/conformance}"; \
	export CONFORMANCE_SPEC_URL="$${CONFORMANCE_SPEC_URL:-$$(node -p "require('node:path').relative(process.argv[1], 'docs/SPEC.md')" "$$CONFORMANCE_REPORT_DIR")}"; \
	CONFORMANCE_COUNTS_FILE="$${CONFORMANCE_COUNTS_FILE:-$(COUNTS)/conformance.json}" node conformance/cli.mjs

## The suite's self-test: an independent implementation, correct and with one defect at a time; the
## restarts and stops; the coverage of docs/SPEC.md (regenerate it with `make coverage`); the GitHub Action's
## scripts, the JUnit schema, the report page in headless Chromium (its screenshot in reports/conformance-selftest/)
## and runConformance from node:test and vitest, on the packed suite.
## SELFTEST_TIER: full (default) every case; quick (make test) one case of each kind; rest (make test-all) the
## others (selftest/.mocharc.cjs reads only the files that hold them). Cases run the suite ahead of their turn, SELFTEST_JOBS (3) at a time.
SELFTEST_TIER ?= full
conformance-selftest: install
	cd conformance && SELFTEST_TIER=$(SELFTEST_TIER) COUNTS_DIR=$(CURDIR)/$(COUNTS) \
	  MOCHA_SUITE_NAME=conformance-selftest$(if $(filter rest,$(SELFTEST_TIER)),-rest) \
	  CONFORMANCE_SELFTEST_OUT=$(CURDIR)/reports/conformance-selftest \
	  CONFORMANCE_SPEC_FILE=$(CURDIR)/docs/SPEC.md CONFORMANCE_COVERAGE_FILE=$(CURDIR)/docs/coverage.md \
	  mocha --config selftest/.mocharc.cjs --reporter $(CURDIR)/scripts/mocha-reporter.cjs

## docs/implementations.md: the implementations of this repository side by side (conformance compare), from
## real runs: the reference server (reports/conformance/, from make conformance) and the self-test's
## implementation. implementations-check fails when the page is not current (same rules, verdicts, statuses).
implementations: build
	scripts/implementations.sh

implementations-check: build
	scripts/implementations.sh --check

## The suite as an implementer gets it: npm pack (compiles it to conformance/dist/) into reports/package/.
conformance-pack: install
	mkdir -p reports/package && cd conformance && npm pack --pack-destination $(CURDIR)/reports/package --loglevel=error

## Regenerates the *checked by* parts of docs/SPEC.md and the table docs/coverage.md from the rule catalogue.
coverage: install
	node conformance/tools/coverage.ts --spec docs/SPEC.md --out docs/coverage.md

## Rewrites the error table of docs/errors.md from the catalogue (server/src/errors.ts).
errors-doc: install
	tsx scripts/errors-doc.ts

## Rewrites the variable table of docs/configuration.md from the settings table (server/src/config.ts).
configuration-doc: install
	tsx scripts/configuration-doc.ts

## Every generated page: docs/errors.md, docs/configuration.md, docs/coverage.md (and SPEC.md's *checked by*),
## docs/implementations.md. `make test` fails when one is stale: the server's tests (errors, configuration),
## the conformance self-test (coverage) and implementations-check.
docs: errors-doc configuration-doc coverage implementations

## Faults with real processes and signals (kill -9 of the embedded redis-server and of the server, an external
## Redis stopped and started, SIGTERM), the hostile corpus, fast-check fuzz, a mixed load of LOAD_SECONDS (60)
## and the security checks. Each test prints its figures; the latest are kept in reports/reliability/figures.json.
test-reliability: build
	rm -f reports/reliability/figures.json
	MOCHA_SUITE_NAME=reliability mocha --config server/test/reliability/.mocharc.json

## The users and apps tests (the store's commands on that topology), then a smoke of the conformance suite (the
## PUT, POST, DELETE, GET and domain rules, on the topology's base URL: every rule runs in make conformance), against Redis Sentinel (master, replica, three sentinels)
## and Redis Cluster (three masters with a replica each), each started from redis-server on free ports and
## stopped afterwards. Counts: reports/counts/topology-{sentinel,cluster}.json, conformance-{sentinel,cluster}.json.
TOPOLOGIES := sentinel cluster
## The smoke of the suite where only the wiring differs (topologies, compose stacks): the rules of each change
## and read of both APIs that run on a base URL (no fresh service there); every rule runs in make conformance.
export CONFORMANCE_SMOKE_GREP := USR-PUT-|USR-POST-|USR-DEL-|USR-GET-|APP-DOM-
test-topologies: build
	mkdir -p $(COUNTS)
	status=0; \
	for kind in $(TOPOLOGIES); do \
	  echo "== $$kind: server tests"; \
	  TEST_TOPOLOGY=$$kind MOCHA_SUITE_NAME=topology-$$kind mocha --config server/test/.mocharc.topologies.json || status=1; \
	  echo "== $$kind: conformance suite"; \
	  CONFORMANCE_REPORT_DIR=reports/conformance-$$kind CONFORMANCE_COUNTS_FILE=$(COUNTS)/conformance-$$kind.json \
	    tsx server/test/support/run-on-topology.ts $$kind -- node conformance/cli.mjs --grep "$$CONFORMANCE_SMOKE_GREP" || status=1; \
	done; \
	exit $$status

## Server vs framework-free baseline (bench/), A/B alternated; writes reports/bench/latest.{json,md}. Not part of `make test`.
## Then bench-processes and bench-metrics.
bench: build
	tsx bench/run.ts
	tsx bench/process-count.ts
	tsx bench/metrics.ts

## PROCESSES=1 against PROCESSES=2 (read and write scenario, alternated); writes reports/bench/processes.{json,md}.
bench-processes: build
	tsx bench/process-count.ts

## METRICS=0 against METRICS=1 (single-request scenarios, alternated); writes reports/bench/metrics.{json,md}.
bench-metrics: build
	tsx bench/metrics.ts

## The ladder: bare node:http, bare restify, then each per-request step of the server added in turn, up to the full server (CPU, heap bytes, GC per request).
bench-floor: build
	tsx bench/floor.ts

## The list of users at 100k, 1M and 5M users (issue 24): this build against an older one, on an external
## redis-server of its own; writes reports/bench/scale.{json,md}. Knobs in bench/scale.ts (BENCH_SCALE_SIZES, …).
bench-scale: build
	tsx bench/scale.ts

clean:
	rm -rf dist reports test-results playwright-report node_modules/.install-stamp node_modules/.run-install-stamp
