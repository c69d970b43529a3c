# The one Makefile of the project.
#
#   make          builds bin/xc (compiler), bin/emu (emulator) and the tools
#                 of bench/ in build/bench/ (collect, which gathers and
#                 draws sweeps, and the benchmarks), every program the docs
#                 tell a user to run
#   make test     builds and runs every test; the last line is "N passed, N failed"
#   make check    the same tests built with AddressSanitizer and
#                 UndefinedBehaviorSanitizer (in build/check/), as a debug
#                 build that checks the network's invariants after every
#                 timestep and runs the reference network stage beside the
#                 fast one, the long property runs at their full size
#                 (make test runs a sample of each), plus the fuzzers for a
#                 fixed number of iterations from fixed seeds
#   make fuzz     runs the fuzzers open-ended (until interrupted)
#   make run      builds and runs the thesis's Appendix C program
#   make bench    builds and runs the benchmarks in bench/
#
# Sources are found by directory: every .c file in common/ cpu/ net/ compiler/ emu/
# and bench/lib/ (the JSON reader and SVG writer of the sweep tools) goes
# into one library (build/libmachine.a) except the two front ends
# (emu/main.c, compiler/xc_main.c); net/sweep.c goes in once for each of
# its SHAPES. Every tests/unit/*.c is its own test program linked with
# that library. The default target reads nothing outside the repository.

CC      ?= cc
BUILD   ?= build
BIN     ?= bin
# Every function starts on a 64-byte line, so that a change to one function
# does not move the interpreter's loop within its lines (its speed depends on
# where its code falls in them).
OPT     ?= -O2 -g -falign-functions=64
SAN     ?=
CFLAGS_STRICT = -std=c11 -D_DEFAULT_SOURCE -pthread -Wall -Wextra -Werror \
                -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wswitch-enum
DEFS    ?=
CFLAGS  = $(CFLAGS_STRICT) $(OPT) $(SAN) $(DEFS) -MMD -MP -I.
LDFLAGS = -pthread $(SAN)

LIB_DIRS  = common cpu net compiler emu bench/lib
MAINS     = emu/main.c compiler/xc_main.c
LIB_SRC   = $(filter-out $(MAINS) net/sweep.c,$(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
# The web page of --html: plain files in emu/page/, made into C strings by
# emu/page/embed.sh (sed only) and built into the library.
PAGE      = html_page_head emu/page/head.html html_page_css emu/page/page.css \
            html_page_body emu/page/body.html html_page_js emu/page/page.js
PAGE_OBJ  = $(BUILD)/gen/page.o
# The sweep of the network stage, net/sweep.c, is built for any network
# (without messages of several words and with) and once for each common
# shape, with that shape's options as constants (net/shape.h).
SHAPES    = any_network any_messages common_full common_half multicast_full messages_full \
            four_channels_full
SHAPE_OBJ = $(SHAPES:%=$(BUILD)/net/sweep_%.o)
LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o) $(PAGE_OBJ) $(SHAPE_OBJ)
TOOL_SRC  = $(wildcard tests/tools/*.c)
TOOL_BIN  = $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
LIB       = $(BUILD)/libmachine.a
UNIT_SRC  = $(wildcard tests/unit/*.c)
UNIT_BIN  = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC  = $(wildcard tests/fuzz/*.c)
FUZZ_BIN  = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
BENCH_SRC = $(wildcard bench/*.c)
BENCH_BIN = $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

# Without a -j of the user's, as many jobs as the host has cores: the build
# and the test groups (tests/run.sh reads the same -j) run side by side.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif

.PHONY: all test check fuzz run bench clean
# Keep objects of tests and tools between runs.
.SECONDARY:
all: $(BIN)/emu $(BIN)/xc $(BENCH_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(SHAPE_OBJ): $(BUILD)/net/sweep_%.o: net/sweep.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DSHAPE_$* -c $< -o $@

# The tests' own code (unit tests, fuzzers, tools) at -Og: the library they
# link does the work, so they run as fast as at -O1 or -O2, and they
# compile in 60% of -O1's time, itself two thirds of -O2's. (An OPT on the
# command line, as make check's, is theirs too.)
$(BUILD)/tests/%.o: OPT = -Og -g

$(BUILD)/gen/page.c: $(filter emu/page/%,$(PAGE)) emu/page/embed.sh
	@mkdir -p $(dir $@)
	sh emu/page/embed.sh $(PAGE) >$@.tmp && mv $@.tmp $@

$(PAGE_OBJ): $(BUILD)/gen/page.c
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN)/emu: $(BUILD)/emu/main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

$(BIN)/xc: $(BUILD)/compiler/xc_main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

# Tools the shell tests run (tests/tools/), linked with the library.
$(BUILD)/tools/%: $(BUILD)/tests/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

# The fast network stage with a deliberate mistake (NET_MUTANT in
# net/sweep.c), linked into the test that compares it with the reference
# stage and into an emulator: tests/cli/mutant.sh checks that the
# comparison catches it, and that --check then ends the run with status 70.
# Its copies of the sweep stand in for the library's.
MUTANT     = $(BUILD)/mutant/test_reference $(BUILD)/mutant/emu
MUTANT_OBJ = $(SHAPES:%=$(BUILD)/mutant/sweep_%.o)

# It is built without optimisation (-O0 last): it is run only until its
# first difference.
$(MUTANT_OBJ): $(BUILD)/mutant/sweep_%.o: net/sweep.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O0 -DNET_MUTANT -DSHAPE_$* -c $< -o $@

$(BUILD)/mutant/test_reference: $(BUILD)/tests/unit/test_reference.o $(MUTANT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

$(BUILD)/mutant/emu: $(BUILD)/emu/main.o $(MUTANT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) $^ -o $@ -lm

# The test runner gets the directories to use, so `make check` runs the very
# same tests against the sanitizer build; tests/cli/broadcast.sh runs the
# broadcast bench at small sizes, tests/cli/sweep.sh bench/sweep and
# bench/collect, tests/cli/channels.sh net_bench (bench/channels.sh),
# tests/cli/messages_results.sh the messages bench (bench/messages.sh).
test: all $(UNIT_BIN) $(FUZZ_BIN) $(TOOL_BIN) $(MUTANT)
	@BUILD=$(BUILD) BIN=$(BIN) FUZZ_ITERATIONS=$(or $(FUZZ_ITERATIONS),2000) \
	 TEST_FULL=$(or $(TEST_FULL),0) tests/run.sh

check:
	$(MAKE) BUILD=build/check BIN=build/check/bin OPT="-O1 -g -fno-omit-frame-pointer" \
	        SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	        DEFS=-DMACHINE_DEBUG \
	        FUZZ_ITERATIONS=20000 TEST_FULL=1 test

fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do echo "== $$f (open-ended; Ctrl-C to stop)"; $$f --forever || exit 1; done

# The thesis's Appendix C program, compiled in memory and run.
run: all
	$(BIN)/emu programs/appendix_c.x

bench: all
	@bench/run.sh $(BUILD) $(BIN)

clean:
	rm -rf build bin

# Header dependencies of every object built so far (library, front ends,
# tests, fuzzers, benchmarks), written by -MMD.
-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d)
