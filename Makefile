# ctestgen - the two commands of the README:
#   make run    install what is missing, build, run ctestgen on examples/triangle.c
#   make test   install what is missing, build, run every test (plus an ASan/UBSan build)
# Other targets: make build, make deps, make bench, make clean,
#   make install [PREFIX=/usr/local] [DESTDIR=/stage]   ctestgen in PREFIX/bin, its runtime
#                in PREFIX/lib/ctestgen, its manual page in PREFIX/share/man/man1

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
OUT        ?= ctestgen-out/triangle
PREFIX     ?= /usr/local

.PHONY: all deps build run test test-asan bench install clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/ctestgen run examples/triangle.c --strategy random --max-execs 20000 --seed 1 -o $(OUT) --force
	$(BUILD)/ctestgen replay $(OUT) examples/triangle.c

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-asan

# Sanitized build of the tool: unit tests and the end-to-end tests.
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCTG_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS) -L 'unit|asan'

install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	@scripts/install-deps.sh --bench
	bench/run-all.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
