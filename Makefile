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

.PHONY: all build run paper paper-slice test test-python faults bench fuzz lint clean test-openblas bench-openblas

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cli/ohm

run: build
	$(BIN) demo

# The paper's full grid (SPEC §6) into $(PAPER_DIR)/results.jsonl, then the
# report in $(PAPER_DIR): every method (none, curvature, res, res-hop, err,
# err-hop) × PAPER_BUDGETS × depths 1–12 × PairNorm no/yes, on the datasets
# of PAPER_DATASETS (default all four) in the forms of PAPER_FORMS (default
# undirected,directed): GCN on the undirected form; GCN (on the symmetrized
# rewired graph) and DirGCN on the directed form. 10 seeds on Cora/CiteSeer,
# the 10 splits on Cornell/Texas. Run it in pieces, e.g.
#   make paper PAPER_DATASETS=cornell,texas PAPER_FORMS=directed
# — every piece appends to the one results file and skips what it holds
# (resumable: rerunning continues where it stopped). Data: $$OHM_DATA or
# OHM_FLAGS="--data-dir DIR" (global flags); PAPER_ARGS adds sweep flags.
# Then the diagnostics (ohm diagnose: cosine, probes, CKA, edge overlap;
# PAPER_DIAG_SEEDS seeds (mean ± std), split 0, depths 1–12, undirected GCN,
# budget PAPER_DIAG_BUDGET, the datasets of PAPER_DATASETS) into
# $(PAPER_DIR)/diagnostics.json, unless that file exists (delete it to
# recompute; PAPER_DIAG=no skips them), and the report with them.
# paper-slice is the undirected 10 % budget only, into out/paper-slice.
# Runtime: see the README (Development).
PAPER_DIR       ?= out/paper
PAPER_DATASETS  ?= cora,citeseer,cornell,texas
PAPER_FORMS     ?= undirected,directed
PAPER_BUDGETS   ?= 0.01,0.05,0.1,0.15
PAPER_PLANETOID ?= --seeds 10
PAPER_WEBKB     ?= --splits all
PAPER_ARGS      ?=
PAPER_DIAG        ?= yes
PAPER_DIAG_BUDGET ?= 0.1
PAPER_DIAG_SEEDS  ?= 5
OHM_FLAGS       ?=
PAPER_SWEEP = $(BIN) $(OHM_FLAGS) sweep --results $(PAPER_DIR)/results.jsonl --methods none,curvature,res,res-hop,err,err-hop \
	--budgets $(PAPER_BUDGETS) --depths 1-12 --pairnorm no,yes $(PAPER_ARGS)
comma := ,
empty :=
space := $(empty) $(empty)
commas = $(subst $(space),$(comma),$(strip $(1)))
commalist = $(subst $(comma), ,$(1))
PAPER_DATASET_LIST = $(call commalist,$(PAPER_DATASETS))
PAPER_FORM_LIST    = $(call commalist,$(PAPER_FORMS))
# The datasets of each group take their own run flags (seeds or splits).
PAPER_GROUP_planetoid = $(filter cora citeseer,$(PAPER_DATASET_LIST))
PAPER_GROUP_webkb     = $(filter cornell texas,$(PAPER_DATASET_LIST))
PAPER_RUNS_planetoid  = $(PAPER_PLANETOID)
PAPER_RUNS_webkb      = $(PAPER_WEBKB)
PAPER_MODELS_undirected = gcn
PAPER_MODELS_directed   = gcn,dirgcn
# One sweep per form and dataset group, chained with && so that the first
# failure stops the target.
PAPER_SWEEPS = $(foreach f,$(PAPER_FORM_LIST),$(foreach g,planetoid webkb,$(if $(PAPER_GROUP_$(g)),\
	$(PAPER_SWEEP) --datasets $(call commas,$(PAPER_GROUP_$(g))) --forms $(f) --models $(PAPER_MODELS_$(f)) $(PAPER_RUNS_$(g)) &&))) true

PAPER_DIAGNOSE = test -f $(PAPER_DIR)/diagnostics.json || $(BIN) $(OHM_FLAGS) diagnose --datasets $(call commas,$(PAPER_DATASET_LIST)) \
	--methods none,curvature,res,res-hop,err,err-hop --budget $(PAPER_DIAG_BUDGET) --seeds $(PAPER_DIAG_SEEDS) \
	--depths 1,2,3,4,5,6,7,8,9,10,11,12 --out $(PAPER_DIR)

paper: build
	$(if $(filter-out cora citeseer cornell texas,$(PAPER_DATASET_LIST)),$(error PAPER_DATASETS=$(PAPER_DATASETS): unknown dataset $(firstword $(filter-out cora citeseer cornell texas,$(PAPER_DATASET_LIST))) (want some of cora citeseer cornell texas separated by commas)))
	$(if $(PAPER_DATASET_LIST),,$(error PAPER_DATASETS is empty (want some of cora citeseer cornell texas separated by commas)))
	$(if $(filter-out undirected directed,$(PAPER_FORM_LIST)),$(error PAPER_FORMS=$(PAPER_FORMS): unknown form $(firstword $(filter-out undirected directed,$(PAPER_FORM_LIST))) (want undirected or directed or both separated by a comma)))
	$(if $(PAPER_FORM_LIST),,$(error PAPER_FORMS is empty (want undirected or directed or both separated by a comma)))
	mkdir -p $(PAPER_DIR)
	$(PAPER_SWEEPS)
	$(if $(filter yes,$(PAPER_DIAG)),$(PAPER_DIAGNOSE))
	$(BIN) report $(PAPER_DIR)/results.jsonl --out $(PAPER_DIR) $(if $(wildcard $(PAPER_DIR)/diagnostics.json)$(filter yes,$(PAPER_DIAG)),--diagnostics $(PAPER_DIR)/diagnostics.json)

paper-slice:
	$(MAKE) paper PAPER_DIR=out/paper-slice PAPER_BUDGETS=0.1 PAPER_FORMS=undirected

# Dataset tests skip without OHM_DATA; each skip is logged to SKIPLOG and the
# run ends with how many were skipped and how to include them.
SKIPLOG := $(CURDIR)/out/.skipped-dataset-tests

test: lint
	@mkdir -p out && rm -f $(SKIPLOG)
	OHM_SKIPLOG=$(SKIPLOG) $(GO) test -count=1 $(PKGS)
	@$(MAKE) --no-print-directory test-python
	@if [ -s $(SKIPLOG) ]; then echo "$$(wc -l < $(SKIPLOG)) dataset tests skipped: set OHM_DATA to a PyTorch Geometric data root (make test OHM_DATA=DIR) to include them"; fi

# The Python package's tests (python/tests), with the binary just built, on
# a Python 3 that can import numpy: the PATH's python3, else Debian's
# /usr/bin/python3 (.ci/run installs python3-numpy when neither has numpy).
# Without one they are skipped with a message, or fail under CI=true.
PYTHON ?= $(shell for p in python3 /usr/bin/python3; do $$p -c 'import numpy' >/dev/null 2>&1 && { command -v $$p; break; }; done)

test-python: build
	@if [ -n "$(PYTHON)" ]; then OHM_BIN=$(CURDIR)/$(BIN) $(PYTHON) python/tests/run.py; \
	elif [ "$$CI" = true ]; then echo "python tests: no Python 3 with numpy (apt-get install python3-numpy)"; exit 1; \
	else echo "python tests skipped: no Python 3 with numpy (apt-get install python3-numpy to include them)"; fi

# The fault scenarios of issues 38 and 36.4 (cli/faults_scenarios_test.go):
# disk full while --log is written, a full disk for --out with --log beside
# it, signals in every long command (also SIGINT inherited as ignored),
# duplicate and newer records, memory sizes, '+1' in an edge list, an
# unwritable --out, and every output kind on a full disk — on real tmpfs
# mounts when mount works (as root), else with the fault writer. Needs
# OHM_DATA (Cora, CiteSeer, Cornell, Texas). Prints the table (fault,
# outputs before → after, exit status, message); a few minutes.
FAULTS_TABLE := $(CURDIR)/out/faults.md

faults:
	@mkdir -p out
	OHM_FAULTS=1 OHM_FAULTS_TABLE=$(FAULTS_TABLE) $(GO) test -count=1 -timeout 10m -run '^TestFaultScenarios$$' ./cli
	@cat $(FAULTS_TABLE)

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
