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

.PHONY: all build run test bench fuzz lint clean test-openblas bench-openblas

all: build

build:
	$(GO) build -o $(BIN) ./cli/ohm

run: build
	$(BIN) data info --dataset bottleneck

test: lint
	$(GO) test -count=1 $(PKGS)

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
