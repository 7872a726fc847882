# coursecheck and the course it checks.
#
#   make verify        build the verifier and check every page and program
#   make test          unit tests, golden cases, capture tests, the course
#   make programs      compile every lesson program with its Build: line (needs nvcc)
#   make evidence      capture evidence on a GPU node (LESSON=day31-scan-1 for one)
#
# `make verify` and `make test` install the Debian packages they lack when run
# as root, and otherwise print the exact apt-get line (verifier/scripts/deps.sh).
# `make evidence` needs only libc and libcrypto, so it builds on GPU nodes where
# nothing can be installed.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SRC      = verifier/src
BUILD    = build
PKGS     = libpcre2-8 libcmark-gfm yaml-0.1 libcrypto

# The capture binary's sources: libc and libcrypto only.
CAPTURE_SRCS = util.c diag.c textfile.c sha256.c repo.c evidence.c proghdr.c filewrite.c lessonfiles.c \
               $(notdir $(wildcard $(SRC)/capture*.c))
CAPTURE_LIB  = $(filter-out capture_main.c,$(CAPTURE_SRCS))
# Everything else belongs to the full verifier.
ALL_SRCS  = $(notdir $(wildcard $(SRC)/*.c))
LIB_SRCS  = $(filter-out main.c capture_main.c,$(ALL_SRCS))

DEPS_FULL    = $(BUILD)/.deps-full
DEPS_CAPTURE = $(BUILD)/.deps-capture

.PHONY: all verify test programs evidence unit golden capture-test course-test deps clean bench broken-variants reference-overlap

all: $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(BUILD)/coursecheck $(BUILD)/coursecheck-capture

$(DEPS_FULL):
	@sh verifier/scripts/deps.sh full
	@mkdir -p $(BUILD) && touch $@
$(DEPS_CAPTURE):
	@sh verifier/scripts/deps.sh capture
	@mkdir -p $(BUILD) && touch $@
deps: $(DEPS_FULL)

# ---- the two binaries, plain and sanitized -----------------------------
FULL_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FULL_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
CAP_CFLAGS  = $(shell pkg-config --cflags libcrypto 2>/dev/null)
CAP_LIBS    = $(shell pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)

$(BUILD)/obj/%.o: $(SRC)/%.c $(wildcard $(SRC)/*.h) $(SRC)/diag.def | $(DEPS_FULL)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(FULL_CFLAGS) -c $< -o $@
$(BUILD)/asan/obj/%.o: $(SRC)/%.c $(wildcard $(SRC)/*.h) $(SRC)/diag.def | $(DEPS_FULL)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g $(SANITIZE) $(FULL_CFLAGS) -c $< -o $@
# capture objects are built apart so the GPU node never needs the full deps
$(BUILD)/capobj/%.o: $(SRC)/%.c $(wildcard $(SRC)/*.h) $(SRC)/diag.def | $(DEPS_CAPTURE)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CAP_CFLAGS) -c $< -o $@

$(BUILD)/coursecheck: $(addprefix $(BUILD)/obj/,$(LIB_SRCS:.c=.o) main.o)
	$(CC) $(CFLAGS) $^ $(FULL_LIBS) -o $@
$(BUILD)/asan/coursecheck: $(addprefix $(BUILD)/asan/obj/,$(LIB_SRCS:.c=.o) main.o)
	$(CC) $(SANITIZE) $^ $(FULL_LIBS) -o $@
$(BUILD)/coursecheck-capture: $(addprefix $(BUILD)/capobj/,$(CAPTURE_SRCS:.c=.o))
	$(CC) $(CFLAGS) $^ $(CAP_LIBS) -o $@
$(BUILD)/asan/coursecheck-capture: $(addprefix $(BUILD)/asan/obj/,$(CAPTURE_SRCS:.c=.o))
	$(CC) $(SANITIZE) $^ $(CAP_LIBS) -o $@

# ---- the jobs ------------------------------------------------------------
# Each job installs (or names) its packages first, then builds in a second
# make, so pkg-config runs only once the packages are there.
verify: $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(BUILD)/coursecheck
	$(BUILD)/coursecheck verify

programs: $(BUILD)/coursecheck-capture
	@if command -v nvcc >/dev/null 2>&1; then \
		$(BUILD)/coursecheck-capture --build-only $(BUILD)/programs; \
	else echo "programs: nvcc not found: lesson programs NOT compiled (install the CUDA toolkit)"; fi

# Every deliberately broken build of the lesson programs; on a GPU machine
# each is run and its gate must fail (verifier/scripts/broken-variants.sh).
broken-variants:
	sh verifier/scripts/broken-variants.sh

# No run of 12 or more words of the reference documents' prose in pages/ or
# programs/ (verifier/scripts/reference-overlap.py), and the checker's test.
SEEDS ?= ../shared/reference/seeds
reference-overlap:
	@if command -v python3 >/dev/null 2>&1; then \
		sh verifier/scripts/reference-overlap-test.sh && \
		if [ -d "$(SEEDS)" ]; then python3 verifier/scripts/reference-overlap.py --seeds "$(SEEDS)"; \
		else echo "reference-overlap: $(SEEDS) not found: the course was NOT checked against the reference documents"; fi; \
	else echo "reference-overlap: python3 not found: NOT checked"; fi

# REPEAT=K runs each lesson K times and records which numbers varied.
evidence: $(BUILD)/coursecheck-capture
	$(BUILD)/coursecheck-capture $(if $(REPEAT),--repeat $(REPEAT)) $(LESSON)

# ---- tests ---------------------------------------------------------------
UNIT_TESTS = $(patsubst verifier/tests/unit/%.c,$(BUILD)/asan/unit/%,$(wildcard verifier/tests/unit/test_*.c))

$(BUILD)/asan/unit/test_%: verifier/tests/unit/test_%.c $(wildcard verifier/tests/unit/*.h) $(addprefix $(BUILD)/asan/obj/,$(LIB_SRCS:.c=.o))
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g $(SANITIZE) $(FULL_CFLAGS) -I$(SRC) -Iverifier/tests/unit $< $(filter %.o,$^) $(FULL_LIBS) \
		$(shell pkg-config --cflags --libs cmocka) -o $@

unit: $(UNIT_TESTS)
	@sh verifier/tests/run-unit.sh $(UNIT_TESTS)

golden: $(BUILD)/asan/coursecheck
	@sh verifier/tests/run-golden.sh $(BUILD)/asan/coursecheck verifier/tests/cases

capture-test: $(BUILD)/asan/coursecheck-capture $(BUILD)/asan/coursecheck
	@sh verifier/tests/capture/run.sh $(BUILD)/asan/coursecheck-capture $(BUILD)/asan/coursecheck

course-test: $(BUILD)/asan/coursecheck
	$(BUILD)/asan/coursecheck verify
	@sh verifier/tests/mutate.sh $(BUILD)/asan/coursecheck

test: $(DEPS_FULL)
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory golden
	@$(MAKE) --no-print-directory capture-test
	@$(MAKE) --no-print-directory programs
	@sh verifier/scripts/broken-variants.sh --compile-only
	@$(MAKE) --no-print-directory reference-overlap
	@$(MAKE) --no-print-directory course-test
	@echo "make test: all suites passed"

bench: $(BUILD)/coursecheck
	@sh verifier/bench/bench.sh $(BUILD)/coursecheck

clean:
	rm -rf $(BUILD)
