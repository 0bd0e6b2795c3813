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

# The release is the VERSION file (package ohm embeds it); every build the
# Makefile makes (build, wheel, test-python) is stamped with the commit, its
# time and whether tracked files were modified (ohm version prints them;
# results records carry the version and commit).
GIT_COMMIT   := $(shell git rev-parse HEAD 2>/dev/null)
GIT_TIME     := $(shell git show -s --format=%cI HEAD 2>/dev/null)
GIT_MODIFIED := $(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo true)
STAMP        := -X github.com/ohmgnn/ohm.commit=$(GIT_COMMIT) -X github.com/ohmgnn/ohm.commitTime=$(GIT_TIME) \
	-X github.com/ohmgnn/ohm.modified=$(GIT_MODIFIED)

.PHONY: all build run paper paper-slice graph-grid graph-reference test test-race test-python faults wheel wheel-native bench benchmarks sketch-scale docs fuzz lint clean test-openblas bench-openblas bench-peers

all: build

build:
	$(GO) build -buildvcs=auto -ldflags='$(STAMP)' -o $(BIN) ./cli/ohm

run: build
	$(BIN) demo

# The paper's full grid (definitions §6) into $(PAPER_DIR)/results.jsonl, then the
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
# budget PAPER_DIAG_BUDGET, PairNorm no and yes), one `ohm diagnose` per
# dataset of PAPER_DATASETS into $(PAPER_DIR)/diagnostics/DATASET/
# diagnostics.json, each unless that file exists (delete it to recompute;
# PAPER_DIAG=no skips them), and the report with them (merged).
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

PAPER_DIAG_FILE = $(PAPER_DIR)/diagnostics/$(1)/diagnostics.json
PAPER_DIAG_FILES = $(foreach d,$(PAPER_DATASET_LIST),$(call PAPER_DIAG_FILE,$(d)))
PAPER_DIAGNOSE = $(foreach d,$(PAPER_DATASET_LIST),{ test -f $(call PAPER_DIAG_FILE,$(d)) || { mkdir -p $(PAPER_DIR)/diagnostics/$(d) && \
	$(BIN) $(OHM_FLAGS) diagnose --datasets $(d) --methods none,curvature,res,res-hop,err,err-hop --budget $(PAPER_DIAG_BUDGET) \
	--seeds $(PAPER_DIAG_SEEDS) --depths 1,2,3,4,5,6,7,8,9,10,11,12 --pairnorm no,yes --out $(PAPER_DIR)/diagnostics/$(d); }; } &&) true
# The report takes every dataset's diagnostics when they are computed, else
# those already there.
PAPER_REPORT_DIAG = $(if $(filter yes,$(PAPER_DIAG)),$(PAPER_DIAG_FILES),$(wildcard $(PAPER_DIAG_FILES)))

paper: build
	$(if $(filter-out cora citeseer cornell texas,$(PAPER_DATASET_LIST)),$(error PAPER_DATASETS=$(PAPER_DATASETS): unknown dataset $(firstword $(filter-out cora citeseer cornell texas,$(PAPER_DATASET_LIST))) (want some of cora citeseer cornell texas separated by commas)))
	$(if $(PAPER_DATASET_LIST),,$(error PAPER_DATASETS is empty (want some of cora citeseer cornell texas separated by commas)))
	$(if $(filter-out undirected directed,$(PAPER_FORM_LIST)),$(error PAPER_FORMS=$(PAPER_FORMS): unknown form $(firstword $(filter-out undirected directed,$(PAPER_FORM_LIST))) (want undirected or directed or both separated by a comma)))
	$(if $(PAPER_FORM_LIST),,$(error PAPER_FORMS is empty (want undirected or directed or both separated by a comma)))
	mkdir -p $(PAPER_DIR)
	$(PAPER_SWEEPS)
	$(if $(filter yes,$(PAPER_DIAG)),$(PAPER_DIAGNOSE))
	$(BIN) report $(PAPER_DIR)/results.jsonl --out $(PAPER_DIR) $(if $(PAPER_REPORT_DIAG),--diagnostics $(call commas,$(PAPER_REPORT_DIAG)))

paper-slice:
	$(MAKE) paper PAPER_DIR=out/paper-slice PAPER_BUDGETS=0.1 PAPER_FORMS=undirected

# The graph-classification grid (definitions §4.5, §6.4) into
# $(GRAPH_DIR)/results.jsonl, then graph-classification.md there. Four
# sweeps, each resumable (rerunning continues where it stopped):
#   1. pre-sweep: GRAPH_DATASETS × the eight methods × GRAPH_BUDGETS (edits
#      per graph) × GCN, GIN × GRAPH_PRE trials;
#   2. each (dataset, method, model) at the budget of best mean validation
#      accuracy of step 1 (--choose-on), up to GRAPH_TRIALS trials;
#   3. and 4. the same for R-GCN and R-GIN with none, err and fosr.
# Run it in pieces, e.g. make graph-grid GRAPH_DATASETS=mutag; GRAPH_ARGS
# adds sweep flags (e.g. --epochs 300 to cap a trial).
GRAPH_DIR      ?= docs/graph-classification
GRAPH_DATASETS ?= mutag,enzymes,proteins
GRAPH_BUDGETS  ?= 5,10,20
GRAPH_PRE      ?= 10
GRAPH_TRIALS   ?= 25
GRAPH_ARGS     ?=
GRAPH_SWEEP = $(BIN) $(OHM_FLAGS) sweep --task graph --results $(GRAPH_DIR)/results.jsonl --datasets $(GRAPH_DATASETS) \
	--budgets $(GRAPH_BUDGETS) $(GRAPH_ARGS)

graph-grid: build
	mkdir -p $(GRAPH_DIR)
	$(GRAPH_SWEEP) --methods none,curvature,res,res-hop,err,err-hop,gtr,fosr --models gcn,gin --trials $(GRAPH_PRE)
	$(GRAPH_SWEEP) --methods none,curvature,res,res-hop,err,err-hop,gtr,fosr --models gcn,gin --trials $(GRAPH_TRIALS) --choose-on $(GRAPH_PRE)
	$(GRAPH_SWEEP) --methods none,err,fosr --models rgcn,rgin --trials $(GRAPH_PRE)
	$(GRAPH_SWEEP) --methods none,err,fosr --models rgcn,rgin --trials $(GRAPH_TRIALS) --choose-on $(GRAPH_PRE)
	$(BIN) report $(GRAPH_DIR)/results.jsonl --out $(GRAPH_DIR)

# Regenerate model/gnn/testdata/graph_reference.json, the PyTorch outputs
# TestGraphReference compares ohm's graph models with (needs python3-torch
# and MUTAG under OHM_DATA; the test itself needs neither).
graph-reference:
	$(or $(PY_SYSTEM),python3) model/gnn/testdata/graph_reference.py

# Dataset tests skip without OHM_DATA; each skip is logged to SKIPLOG and the
# run ends with how many were skipped and how to include them.
SKIPLOG := $(CURDIR)/out/.skipped-dataset-tests

test: lint
	@mkdir -p out && rm -f $(SKIPLOG)
	OHM_SKIPLOG=$(SKIPLOG) $(GO) test -count=1 -timeout 30m $(PKGS)
	@$(MAKE) --no-print-directory test-race
	@$(MAKE) --no-print-directory test-python
	@if [ -s $(SKIPLOG) ]; then echo "$$(wc -l < $(SKIPLOG)) dataset tests skipped: set OHM_DATA to a PyTorch Geometric data root (make test OHM_DATA=DIR) to include them"; fi

# The tests of the code that fans out (internal/parallel and its users,
# the errgroup drivers, the engines' and kernels' workers) under the race
# detector: a short subset (RACE_RUN, about a minute), part of make test.
# -race needs cgo and a C compiler: Debian's gcc is installed when missing
# (as root; else the check is skipped with a message, or fails under CI=true).
RACE_PKGS := ./internal/parallel ./model/gnn ./model/sweep ./model/diagnose ./linalg ./linalg/laplace \
	./rewire/curvature ./incremental ./incremental/sketch ./rewire ./cli
RACE_RUN  := ^(TestRows|TestEach|TestPanicReachesCaller|TestTrainRunsWorkerPanic|TestTrainRunsContext|TestRunWorkerPanic|TestRunAllWorkerPanic|TestSolveManyAgainstSolve|TestParallelTriangle|TestWorkersIdentical|TestCurvatureThreads|TestCurvatureRandomEdits|TestCurvatureClosedForms|TestSketchKeptBlockExact|TestDeferredMatchesEager|TestPanicIsInternalError)$$
RACE_CC   ?= $(firstword $(shell command -v gcc cc 2>/dev/null))

test-race:
	@cc="$(RACE_CC)"; if [ -z "$$cc" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing gcc (for go test -race)"; log=$$(mktemp); \
		if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev; } >$$log 2>&1; \
		then rm -f $$log; cc=gcc; else cat $$log; rm -f $$log; fi; fi; \
	if [ -z "$$cc" ]; then \
		if [ "$$CI" = true ]; then echo "race tests: no C compiler (apt-get install gcc)"; exit 1; fi; \
		echo "race tests skipped: go test -race needs a C compiler (apt-get install gcc to include them)"; exit 0; fi; \
	echo "CGO_ENABLED=1 $(GO) test -race -count=1 -run '$(RACE_RUN)' $(RACE_PKGS)"; \
	CGO_ENABLED=1 $(GO) test -race -count=1 -run '$(RACE_RUN)' $(RACE_PKGS)

# Python wheels of ohm-rewire (python/) into $(WHEEL_DIR), one per platform
# of WHEEL_PLATFORMS (GOOS/GOARCH), each carrying the ohm binary built for it
# with CGO_ENABLED=0 (static) as ohm/bin/ohm and an `ohm` console script.
# python/tools/build_wheel.py writes them with the standard library (Python
# 3.11+): no network, no setuptools; the version is the VERSION file's, and
# the binary is stamped with the commit (STAMP).
# wheel-native builds only this machine's.
WHEEL_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
WHEEL_DIR       ?= dist
WHEEL_GOFLAGS   ?= -trimpath
WHEEL_LDFLAGS   ?= -s -w
WHEEL_PYTHON    ?= $(firstword $(shell command -v python3 /usr/bin/python3 2>/dev/null))
# Build the binary of GOOS/GOARCH $(1)/$(2) with go build flags $(3) and
# linker flags $(5) (with STAMP) and write its wheel with Python $(4);
# prints the wheel's path.
WHEEL_ONE = CGO_ENABLED=0 GOOS=$(1) GOARCH=$(2) $(GO) build $(3) -ldflags='$(5) $(STAMP)' -o out/wheel/$(1)-$(2)/ohm ./cli/ohm && \
	$(4) python/tools/build_wheel.py --goos $(1) --goarch $(2) --binary out/wheel/$(1)-$(2)/ohm --out $(WHEEL_DIR)

wheel:
	@[ -n "$(WHEEL_PYTHON)" ] || { echo "make wheel: needs Python 3.11 or later (python3)"; exit 1; }
	@set -e; for p in $(WHEEL_PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; \
		echo "wheel $$os/$$arch"; $(call WHEEL_ONE,$$os,$$arch,$(WHEEL_GOFLAGS),$(WHEEL_PYTHON),$(WHEEL_LDFLAGS)); done

wheel-native:
	@$(MAKE) --no-print-directory wheel WHEEL_PLATFORMS=$$($(GO) env GOOS)/$$($(GO) env GOARCH)

# The Python package's tests (python/tests) against the installed wheel:
# this machine's wheel (built as make wheel does, but without -trimpath, so
# that most packages compiled by go test are reused) is installed with pip
# --no-index --no-deps into a fresh virtual environment of Debian's Python
# (--system-site-packages: its numpy, torch and pip are seen) in a
# temporary folder, and the tests run there, outside the repository, with
# PATH holding only the venv's bin (no Go) and no OHM_BIN. The Python needs numpy and pip
# (python3-numpy, python3-pip, python3-venv; torch's tests need
# python3-torch): .ci/run installs them. Without them the tests are skipped
# with a message, or fail under CI=true.
PY_SYSTEM ?= $(firstword $(shell for p in /usr/bin/python3 python3; do $$p -c 'import numpy, pip, venv' >/dev/null 2>&1 && command -v $$p; done))
WHEEL_TEST_GOFLAGS ?=

test-python:
	@if [ -z "$(PY_SYSTEM)" ]; then \
		if [ "$$CI" = true ]; then echo "python tests: no Python 3 with numpy and pip (apt-get install python3-numpy python3-pip python3-venv)"; exit 1; fi; \
		echo "python tests skipped: no Python 3 with numpy and pip (apt-get install python3-numpy python3-pip python3-venv to include them)"; exit 0; fi; \
	set -e; os=$$($(GO) env GOOS); arch=$$($(GO) env GOARCH); \
	whl=$$($(call WHEEL_ONE,$$os,$$arch,$(WHEEL_TEST_GOFLAGS),$(PY_SYSTEM),$(WHEEL_LDFLAGS))); \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; venv="$$tmp/venv"; \
	echo "python tests: $$whl in a fresh venv"; \
	$(PY_SYSTEM) -m venv --system-site-packages --without-pip "$$venv"; \
	"$$venv/bin/python" -m pip install -q --no-index --no-deps --disable-pip-version-check "$(CURDIR)/$$whl"; \
	mkdir "$$tmp/work"; cd "$$tmp/work"; \
	env -i PATH="$$venv/bin" HOME="$$tmp/work" TMPDIR="$$tmp/work" LANG=C.UTF-8 CI="$$CI" OHM_DATA="$$OHM_DATA" OHM_TEST_WHEEL="$(CURDIR)/$$whl" \
		"$$venv/bin/python" $(CURDIR)/python/tests/run.py --installed

# The fault scenarios of issues 38 and 36.4 (cli/faults_scenarios_test.go):
# disk full while --log is written, a full disk for --out with --log beside
# it, signals in every long command (also SIGINT inherited as ignored),
# duplicate and newer records, memory sizes, '+1' in an edge list, an
# unwritable --out, and every output kind on a full disk — on real tmpfs
# mounts when mount works (as root), else with the fault writer. Needs
# OHM_DATA (Cora, CiteSeer, Cornell, Texas). Prints the table (fault,
# outputs before → after, exit status, message); a few minutes.
FAULTS_TABLE := $(CURDIR)/out/faults.md

faults: build
	@mkdir -p out
	OHM_FAULTS=1 OHM_FAULTS_TABLE=$(FAULTS_TABLE) $(GO) test -count=1 -timeout 20m -run '^TestFaultScenarios$$' ./cli
	@cat $(FAULTS_TABLE)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# docs/benchmarks.md's measurements, in one command: the quick ones are run
# here (minutes; those on Cora, CiteSeer, Cornell and Texas need OHM_DATA
# and are skipped without it), each command echoed before its result; the
# long ones (minutes to hours, gigabytes) are printed with their command.
# Not part of make test. To keep the output: make benchmarks 2>&1 | tee FILE.
BENCH_DIR   ?= out/benchmarks
BENCH_TIMER := $(if $(wildcard /usr/bin/time),/usr/bin/time -f '%e s wall$(comma) %M KB peak',time)
BENCH_DATA   = if [ -n "$$OHM_DATA" ]; then
BENCH_LONG  := \
	"the sketch engine, 10⁵ nodes at 1 %, the whole budget (≈ 5 min, 1.2 GB):" \
	"  $(BIN) --threads 2 rewire --graph $(BENCH_DIR)/sbm1e5.npz --method err --budget 0.01 --engine sketch" \
	"the sketch engine, 10⁶ nodes at 0.1 %, the whole budget (≈ 1 h, 10 GB; the graph: 15 s, 1.9 GB):" \
	"  $(BIN) data synth --model sbm --nodes 1000000 --avg-degree 20 --blocks 10 --seed 1 --out $(BENCH_DIR)/sbm1e6.npz" \
	"  $(BIN) --threads 2 rewire --graph $(BENCH_DIR)/sbm1e6.npz --method err --budget 0.001 --engine sketch" \
	"the sketch engine's time against n, log-log, one plot per shape into docs/ (hours; SCALE_SBM=… and the like choose the sizes):" \
	"  make sketch-scale" \
	"the sketch engine's quality against the exact engine at 10⁴ and 2·10⁴ nodes (10 minutes to hours each; 5 000 nodes run above):" \
	"  OHM_SKETCH_NODES=10000 $(GO) test ./rewire -run '^\$$' -bench SketchQualitySBM -benchtime 1x -timeout 0" \
	"  OHM_SKETCH_GRAPH=G.npz $(GO) test ./rewire -run '^\$$' -bench SketchQualitySBM -benchtime 1x -timeout 0" \
	"directed Cora (its 2485-node SCC solved exactly: minutes each):" \
	"  OHM_BENCH_LARGE=1 $(GO) test ./bench -run '^\$$' -bench 'Directed' -benchtime 1x -timeout 0" \
	"the OpenBLAS backend against pure Go (installs libopenblas-dev, liblapacke-dev):" \
	"  make bench-openblas; OHM_BENCH_LARGE=1 CGO_ENABLED=1 $(GO) test -tags openblas ./bench -run '^\$$' -bench 'Exact|Directed' -benchtime 1x -timeout 0" \
	"the paper's undirected 10 % slice (≈ 1.5 h) and its whole grid (≈ 12 h on two cores):" \
	"  make paper-slice; make paper"

# The sketch engine's time against n, one log-log plot per shape into
# docs/sketch-scale.svg (the SBM) and docs/sketch-scale-SHAPE.svg (issue 40):
# the first SCALE_ITERATIONS iterations of err at 1 % on each size, one
# thread. Each shape has its own sizes (SCALE_SBM, SCALE_BA, …; a shape whose
# list is empty is skipped); the defaults reach 10⁶ nodes where a size
# takes under an hour, 10⁵ on the random geometric graph and 10⁴ on the ring
# of cliques, whose iterations cost ten solves. Hours in all; not part of
# make test.
SCALE_ITERATIONS ?= 1000
SCALE_SBM  ?= 10000,20000,50000,100000,200000,500000,1000000
SCALE_BA   ?= 10000,20000,50000,100000,200000,500000,1000000
SCALE_PP   ?= 10000,20000,50000,100000,200000,500000,1000000
SCALE_RGG  ?= 10000,20000,50000,100000
SCALE_RING ?= 5000,10000

sketch-scale:
	@set -e; for s in sbm:$(SCALE_SBM) ba:$(SCALE_BA) pp:$(SCALE_PP) rgg:$(SCALE_RGG) ring:$(SCALE_RING); do \
		shape=$${s%%:*}; sizes=$${s#*:}; [ -n "$$sizes" ] || continue; \
		echo "sketch-scale: $$shape at $$sizes"; \
		OHM_SCALE_SHAPES=$$shape OHM_SCALE_NODES=$$sizes OHM_SCALE_ITERATIONS=$(SCALE_ITERATIONS) \
		OHM_SCALE_PLOT=$(CURDIR)/docs/sketch-scale.svg \
		$(GO) test ./bench -run '^$$' -bench SketchScale -benchtime 1x -timeout 0; \
	done

benchmarks: SHELL := /bin/bash
benchmarks: build
	@mkdir -p $(BENCH_DIR)
	@echo "ohm benchmarks, $$(date -u +%F), $$($(BIN) version), $$(nproc) cores ($$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')), load $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	$(GO) test -run '^$$' -bench 'SolveSBM|SolveManySBM' -benchtime 1x ./linalg/laplace
	$(GO) test -run '^$$' -bench GTRAddition ./incremental
	$(GO) test -run '^$$' -bench 'Epoch$$' -benchtime 200x ./model/gnn
	$(BENCH_TIMER) $(BIN) data synth --model sbm --nodes 100000 --avg-degree 20 --blocks 10 --seed 1 --out $(BENCH_DIR)/sbm1e5.npz
	$(BENCH_TIMER) $(BIN) demo --out $(BENCH_DIR)/demo
	@[ -n "$$OHM_DATA" ] || echo "OHM_DATA is not set: the benchmarks on the real datasets are skipped (make benchmarks OHM_DATA=DIR)"
	$(GO) test -run '^$$' -bench 'RewireCora$$|RewireIterationExact|ExactPinv|CurvatureCora|CurvatureRewireCora|TrainEpoch' -benchtime 1x ./bench
	$(BENCH_DATA) $(BENCH_TIMER) $(BIN) --no-download train --dataset cora --model gcn --seeds 10 --threads 1; fi
	$(BENCH_DATA) for d in cora citeseer; do $(BIN) --no-download train --dataset $$d --model gcn --seeds 10 --weight-decay 5e-4 | grep 'test accuracy'; done; fi
	$(BENCH_DATA) $(BENCH_TIMER) $(BIN) --no-download curvature --dataset cora | grep seconds; fi
	$(BENCH_DATA) $(BENCH_TIMER) $(BIN) --no-download rewire --dataset cora --method gtr --budget 0.1 | grep seconds; fi
	$(BENCH_DATA) $(GO) test -run '^$$' -bench 'GraphEpoch' -benchtime 4x -cpu 1 ./model/gnn; fi
	$(BENCH_DATA) OHM_LONG=1 $(GO) test ./rewire -run '^TestSketchQualityPlanetoid$$' -v -timeout 0 | grep -E 'additions|^(ok|FAIL|---)'; fi
	@set -e; for s in "sbm --nodes 5000 --avg-degree 20 --blocks 10 --seed 1" "pp --nodes 5000 --avg-degree 20 --blocks 100 --homophily 0.9 --seed 1" \
		"ba --nodes 5000 --edges-per-node 10 --seed 1" "rgg --nodes 5000 --avg-degree 20 --seed 2" "ring --cliques 250 --clique-size 20"; do \
		set -- $$s; name=$$1; shift; model=$$name; [ $$name = pp ] && model=sbm; \
		echo "sketch quality against the exact engine, $$name of 5 000 nodes, err at 1 %:"; \
		$(BIN) -q data synth --model $$model $$* --out $(BENCH_DIR)/quality-$$name.npz; \
		OHM_SKETCH_GRAPH=$(abspath $(BENCH_DIR))/quality-$$name.npz $(GO) test ./rewire -run '^$$' -bench SketchQualitySBM -benchtime 1x -timeout 0 2>/dev/null | grep -E 'additions|^(ok|FAIL)'; \
	done
	$(BENCH_DATA) if $(or $(PY_SYSTEM),python3) -c 'import torch' 2>/dev/null; then for c in "PROTEINS gin" "MUTAG gcn"; do set -- $$c; \
		$(or $(PY_SYSTEM),python3) model/gnn/testdata/graph_bench.py --dataset $$1 --model $$2; done; \
		else echo "graph epochs in PyTorch skipped: no python3-torch"; fi; fi
	@echo; echo "The long measurements (run each by hand):"; for l in $(BENCH_LONG); do echo "$$l"; done

# docs/cli.md: its generated part (every command's usage, help and flags,
# from the kong definitions in package cli) is rewritten, its hand-written
# reference below the marker kept. TestCLIDoc (in make test) fails when the
# file is stale.
docs:
	$(GO) test -count=1 -run '^TestCLIDoc$$' ./cli -update

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
	CGO_ENABLED=1 $(GO) test -count=1 -timeout 30m -tags openblas $(PKGS)

bench-openblas:
	@$(OPENBLAS_INSTALL)
	CGO_ENABLED=1 $(GO) test -tags openblas -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./bench

# The peers' rewiring code against ohm on the TU datasets (docs/benchmarks.md,
# "Many graphs"): FOSR and GTR name checkouts of kedar2/FoSR and
# blackmit/gtr_rewiring (not part of this repository); installs Debian's
# python3-numpy, python3-torch, python3-networkx, python3-numba and time
# when missing; OHM_DATA must hold MUTAG, ENZYMES and PROTEINS. PEER_ROUNDS
# rounds (default 3), each running every pair in turn, the peer first; one
# JSON line a run: the peer's (bench/peers/peers.py: its loop's wall and CPU
# seconds, its whole process's CPU) and ohm's (the summary's loop wall and CPU seconds,
# the whole process's user and system CPU and wall, from /usr/bin/time).
PEER_DEBS := python3-numpy python3-torch python3-networkx python3-numba time
PEER_ROUNDS ?= 3
bench-peers: build
	@[ -n "$(FOSR)" ] && [ -n "$(GTR)" ] && [ -n "$(OHM_DATA)" ] || { echo "make bench-peers FOSR=DIR GTR=DIR OHM_DATA=DIR"; exit 2; }
	@[ "$$(dpkg -s $(PEER_DEBS) 2>/dev/null | grep -c '^Status: install ok installed')" -eq $(words $(PEER_DEBS)) ] || { \
		echo "installing $(PEER_DEBS)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PEER_DEBS) >/dev/null; }
	@tf=$$(mktemp); trap 'rm -f "$$tf"' EXIT; \
	for round in $$(seq $(PEER_ROUNDS)); do for ds in MUTAG ENZYMES PROTEINS; do lc=$$(echo $$ds | tr A-Z a-z); for m in fosr gtr; do \
		repo=$(FOSR); [ $$m = gtr ] && repo=$(GTR); \
		OMP_NUM_THREADS=1 /usr/bin/python3 bench/peers/peers.py --method $$m --repo $$repo --data "$(OHM_DATA)" --dataset $$ds | sed "s/^{/{\"round\": $$round, /"; \
		s=$$(OHM_DATA="$(OHM_DATA)" /usr/bin/time -o "$$tf" -f '"process_user":%U,"process_sys":%S,"process_wall":%e' \
			$(BIN) -q --threads 1 rewire --dataset $$lc --method $$m --budget 0.1 --json 2>/dev/null | grep -E '"(dataset|method|added|seconds|cpu_seconds)"' | tr -d ' \n' | sed 's/,$$//'); \
		echo "{\"round\":$$round,\"ohm\":true,$$s,$$(cat "$$tf")}"; \
	done; done; done
