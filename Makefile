# ohm — the two commands that do everything on a fresh machine with Go:
#   make run    the main job on the built-in default (no download needed)
#   make test   vet + every test (dataset tests need OHM_DATA, see README)

GO        ?= go
PKGS      := ./...
BIN       := bin/ohm
FUZZTIME  ?= 20s
BENCHTIME ?= 1s

# Tests run inside each package's folder: make a relative OHM_DATA absolute.
ifdef OHM_DATA
export OHM_DATA := $(abspath $(OHM_DATA))
endif

.PHONY: all build run paper paper-slice test test-python bench fuzz lint clean test-openblas bench-openblas

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cli/ohm

run: build
	$(BIN) demo

# The paper's full grid (SPEC §6) into $(PAPER_DIR)/results.jsonl, then the
# report in $(PAPER_DIR): every method (none, curvature, res, res-hop, err,
# err-hop) × PAPER_BUDGETS × depths 1–12 × PairNorm no/yes, GCN on the
# undirected forms of the four datasets (10 seeds on Cora/CiteSeer, the 10
# splits on Cornell/Texas), and DirGCN on the directed forms of
# PAPER_DIRECTED (default Cornell and Texas; add cora,citeseer for the
# directed Planetoid runs, whose rewiring is slow; empty: none). Resumable:
# rerunning it continues where it stopped. Data: $$OHM_DATA or
# OHM_FLAGS="--data-dir DIR" (global flags); PAPER_ARGS adds sweep flags.
# Then the diagnostics (ohm diagnose: cosine, probes, CKA, edge overlap; one
# seed, split 0, depths 1–12, undirected GCN, budget PAPER_DIAG_BUDGET) into
# $(PAPER_DIR)/diagnostics.json, unless that file exists (delete it to
# recompute), and the report with them.
# paper-slice is the undirected 10 % budget only, into out/paper-slice.
# Runtime: see the README (Development).
PAPER_DIR       ?= out/paper
PAPER_BUDGETS   ?= 0.01,0.05,0.1,0.15
PAPER_DIRECTED  ?= cornell,texas
PAPER_PLANETOID ?= --seeds 10
PAPER_WEBKB     ?= --splits all
PAPER_ARGS      ?=
PAPER_DIAG_BUDGET ?= 0.1
OHM_FLAGS       ?=
PAPER_SWEEP = $(BIN) $(OHM_FLAGS) sweep --results $(PAPER_DIR)/results.jsonl --methods none,curvature,res,res-hop,err,err-hop \
	--budgets $(PAPER_BUDGETS) --depths 1-12 --pairnorm no,yes $(PAPER_ARGS)
comma := ,
PAPER_DIRECTED_PLANETOID = $(filter cora citeseer,$(subst $(comma), ,$(PAPER_DIRECTED)))
PAPER_DIRECTED_WEBKB     = $(filter cornell texas,$(subst $(comma), ,$(PAPER_DIRECTED)))
empty :=
space := $(empty) $(empty)
commas = $(subst $(space),$(comma),$(strip $(1)))

paper: build
	mkdir -p $(PAPER_DIR)
	$(PAPER_SWEEP) --datasets cora,citeseer --forms undirected $(PAPER_PLANETOID)
	$(PAPER_SWEEP) --datasets cornell,texas --forms undirected $(PAPER_WEBKB)
	$(if $(PAPER_DIRECTED_PLANETOID),$(PAPER_SWEEP) --datasets $(call commas,$(PAPER_DIRECTED_PLANETOID)) --forms directed $(PAPER_PLANETOID))
	$(if $(PAPER_DIRECTED_WEBKB),$(PAPER_SWEEP) --datasets $(call commas,$(PAPER_DIRECTED_WEBKB)) --forms directed $(PAPER_WEBKB))
	test -f $(PAPER_DIR)/diagnostics.json || $(BIN) $(OHM_FLAGS) diagnose --datasets cora,citeseer,cornell,texas \
		--methods none,curvature,res,res-hop,err,err-hop --budget $(PAPER_DIAG_BUDGET) \
		--depths 1,2,3,4,5,6,7,8,9,10,11,12 --out $(PAPER_DIR)
	$(BIN) report $(PAPER_DIR)/results.jsonl --out $(PAPER_DIR) --diagnostics $(PAPER_DIR)/diagnostics.json

paper-slice:
	$(MAKE) paper PAPER_DIR=out/paper-slice PAPER_BUDGETS=0.1 PAPER_DIRECTED=

test: lint
	$(GO) test -count=1 $(PKGS)
	@$(MAKE) --no-print-directory test-python

# The Python package's tests (python/tests), with the binary just built, on
# a Python 3 that can import numpy: the PATH's python3, else Debian's
# /usr/bin/python3 (.ci/run installs python3-numpy when neither has numpy).
# Without one they are skipped with a message, or fail under CI=true.
PYTHON ?= $(shell for p in python3 /usr/bin/python3; do $$p -c 'import numpy' >/dev/null 2>&1 && { command -v $$p; break; }; done)

test-python: build
	@if [ -n "$(PYTHON)" ]; then OHM_BIN=$(CURDIR)/$(BIN) $(PYTHON) python/tests/run.py; \
	elif [ "$$CI" = true ]; then echo "python tests: no Python 3 with numpy (apt-get install python3-numpy)"; exit 1; \
	else echo "python tests skipped: no Python 3 with numpy (apt-get install python3-numpy to include them)"; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# Each fuzz target runs for FUZZTIME; the seed corpora under testdata/fuzz run
# in every `make test` as ordinary tests.
FUZZ_TARGETS := \
	./model/dataset:FuzzPlanetoidPickle \
	./model/dataset:FuzzWebKBEdges \
	./model/dataset:FuzzWebKBFeatures \
	./linalg/graphio:FuzzReadNPZ \
	./linalg/graphio:FuzzReadEdgeList

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name in $$pkg for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

lint:
	@bad=$$(gofmt -l .); \
	if [ -n "$$bad" ]; then echo "gofmt would change:"; echo "$$bad"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf bin

# Optional OpenBLAS backend (build tag openblas, cgo through gonum.org/v1/netlib):
# installs Debian's libopenblas-dev and liblapacke-dev when missing, then runs
# every test (test-openblas) or the dataset benchmarks (bench-openblas) on it.
# The default build stays pure Go and needs neither cgo nor these packages.
OPENBLAS_DEBS := libopenblas-dev liblapacke-dev
OPENBLAS_INSTALL = [ "$$(dpkg -s $(OPENBLAS_DEBS) 2>/dev/null | grep -c '^Status: install ok installed')" \
	-eq $(words $(OPENBLAS_DEBS)) ] || { \
	echo "installing $(OPENBLAS_DEBS)"; log=$$(mktemp); \
	if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq $(OPENBLAS_DEBS); } >$$log 2>&1; \
	then rm -f $$log; else cat $$log; rm -f $$log; exit 1; fi; }

test-openblas:
	@$(OPENBLAS_INSTALL)
	CGO_ENABLED=1 $(GO) test -count=1 -tags openblas $(PKGS)

bench-openblas:
	@$(OPENBLAS_INSTALL)
	CGO_ENABLED=1 $(GO) test -tags openblas -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./bench
