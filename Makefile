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

.PHONY: all build run test bench fuzz lint clean

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
