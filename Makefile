# coursecheck and the course it checks.
#
#   make               build build/coursecheck and build/coursecheck-capture
#                      (names the Debian packages it lacks; installs nothing)
#   make verify        build the verifier and check every page and program
#   make test          unit tests, golden cases, capture tests, the course,
#                      reports, man page, install and CI wiring
#   make install       install both binaries, the man page and a bash completion
#                      (PREFIX=/usr/local, DESTDIR, bindir, mandir); make uninstall
#   make programs      compile every lesson program with its Build: line (needs nvcc)
#   make evidence      capture evidence on a GPU node (LESSON=day31-scan-1 for one)
#   make review        the technical review of every page as HTML, in build/review/
#   make other-cc-test the unit tests and golden cases again, built by the
#                      other compiler (clang; gcc where CC is clang), as CI does
#   make fuzz          run each libFuzzer target for FUZZ_SECONDS (needs clang;
#                      see verifier/tests/fuzz/fuzz.mk for fuzz-bundle, fuzz-merge)
#
# `make verify` and `make test` install the Debian packages they lack when run
# as root, and otherwise print the exact apt-get line (verifier/scripts/deps.sh).
# `make evidence` needs only libc and libcrypto, so it builds on GPU nodes where
# nothing can be installed.
#
# CPPFLAGS, CFLAGS and LDFLAGS are honoured as GNU and Debian builds pass them.
# The project's own builds stop on a warning (-Werror); a packager turns that
# off with WERROR=0.

CC      ?= cc
# clang's default debug information (DWARF 5) is more than valgrind (the
# hostile suite) reads: DWARF 4 there
CFLAGS  ?= -O2 -g $(if $(findstring clang,$(notdir $(CC))),-gdwarf-4)
WERROR  ?= 1
WARN     = -std=c11 -D_GNU_SOURCE -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SRC      = verifier/src
BUILD    = build
PKGS     = libpcre2-8 libcmark-gfm yaml-0.1 libcrypto jansson libxml-2.0

# Where `make install` puts things (GNU names; DESTDIR is prepended).
PREFIX  ?= /usr/local
bindir  ?= $(PREFIX)/bin
mandir  ?= $(PREFIX)/share/man
man1dir ?= $(mandir)/man1
bashcompdir ?= $(PREFIX)/share/bash-completion/completions
# the editors' set-up for coursecheck lsp (README "Editors")
editordir ?= $(PREFIX)/share/coursecheck
INSTALL ?= install

# The sources sit in one folder a layer, lowest first (the pipeline:
# verifier/README.md "Architecture"; make arch-test holds the include rule).
# main.c, the verifier's entry, sits above them all in verifier/src.
LAYER_DIRS = base evidence capture read model prose check report update cli review
SRC_DIRS   = $(addprefix $(SRC)/,$(LAYER_DIRS))
INCLUDES   = $(addprefix -I,$(SRC_DIRS))
HEADERS    = $(wildcard $(SRC)/*/*.h) $(SRC)/base/diag.def
vpath %.c $(SRC_DIRS) $(SRC)

# The capture binary is three folders, libc and libcrypto only: base,
# evidence (the run format it writes) and capture.
CAPTURE_SRCS = $(notdir $(wildcard $(addsuffix /*.c,$(addprefix $(SRC)/,base evidence capture))))
CAPTURE_LIB  = $(filter-out capture_main.c,$(CAPTURE_SRCS))
# Everything but capture_main.c belongs to the full verifier.
ALL_SRCS  = $(notdir $(wildcard $(SRC)/*/*.c) $(SRC)/main.c)
LIB_SRCS  = $(filter-out main.c capture_main.c,$(ALL_SRCS))

# Where a suite writes what it skipped (the last line of `make test`);
# run-suites.sh gives each suite its own.
SKIPPED_FILE ?= $(CURDIR)/$(BUILD)/.skipped

DEPS_FULL    = $(BUILD)/.deps-full
DEPS_CAPTURE = $(BUILD)/.deps-capture

.PHONY: all verify test programs evidence unit golden capture-test stale-test approvals-test agent-test course-test deps deps-test folder-test clean bench \
	install uninstall report-test man-test entities-test install-test lsp-test wiring-test broken-variants reference-overlap slurm-test hostile \
	review review-test review-browser-test golden-jobs

# The binaries are built on every core unless a -j was given (`make -j1`
# builds one file at a time): a first `make verify` compiles some 70 files.
BUILD_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
PAR = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS))

# Plain `make` installs no system package: it names what is missing.
all:
	@sh verifier/scripts/deps.sh --check build
	@$(MAKE) --no-print-directory $(PAR) $(BUILD)/coursecheck $(BUILD)/coursecheck-capture

$(DEPS_FULL):
	@sh verifier/scripts/deps.sh full
	@mkdir -p $(BUILD) && touch $@
DEPS_TEST = $(BUILD)/.deps-test
$(DEPS_TEST):
	@sh verifier/scripts/deps.sh test
	@mkdir -p $(BUILD) && touch $@
$(DEPS_CAPTURE):
	@sh verifier/scripts/deps.sh capture
	@mkdir -p $(BUILD) && touch $@
deps: $(DEPS_FULL)

# ---- the two binaries, plain and sanitized -----------------------------
# A line a file (`CC build/obj/x.o`); V=1 prints the whole commands.
QUIET_CC   = $(if $(V),,@printf '  CC      %s\n' $@;)
QUIET_LINK = $(if $(V),,@printf '  LINK    %s\n' $@;)
FULL_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FULL_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
CAP_CFLAGS  = $(shell pkg-config --cflags libcrypto 2>/dev/null)
CAP_LIBS    = $(shell pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)

$(BUILD)/obj/%.o: %.c $(HEADERS) | $(DEPS_FULL)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) $(CPPFLAGS) $(INCLUDES) $(CFLAGS) $(FULL_CFLAGS) -c $< -o $@
$(BUILD)/asan/obj/%.o: %.c $(HEADERS) | $(DEPS_FULL)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) $(CPPFLAGS) $(INCLUDES) -O1 -g $(SANITIZE) $(FULL_CFLAGS) -c $< -o $@
# capture objects are built apart so the GPU node never needs the full deps
$(BUILD)/capobj/%.o: %.c $(HEADERS) | $(DEPS_CAPTURE)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) $(CPPFLAGS) $(INCLUDES) $(CFLAGS) $(CAP_CFLAGS) -c $< -o $@

$(BUILD)/coursecheck: $(addprefix $(BUILD)/obj/,$(LIB_SRCS:.c=.o) main.o)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(FULL_LIBS) -o $@
$(BUILD)/asan/coursecheck: $(addprefix $(BUILD)/asan/obj/,$(LIB_SRCS:.c=.o) main.o)
	$(QUIET_LINK)$(CC) $(SANITIZE) $(LDFLAGS) $^ $(FULL_LIBS) -o $@
# Where the full deps are in (build/.deps-full: `make verify`, `make test`),
# build/obj/ holds the same objects, compiled with the same flags (only
# pkg-config's -I paths differ, which the capture sources do not use): the
# capture binary links those, and its sources are compiled once, not twice
# (make test: 6.4 CPU s less).  A GPU node (`make evidence`, `make programs`
# with libcrypto alone) has no build/.deps-full and builds build/capobj/.
CAPOBJ = $(if $(wildcard $(DEPS_FULL)),obj,capobj)
$(BUILD)/coursecheck-capture: $(addprefix $(BUILD)/$(CAPOBJ)/,$(CAPTURE_SRCS:.c=.o))
	$(QUIET_LINK)$(CC) $(CFLAGS) $^ $(CAP_LIBS) -o $@
$(BUILD)/asan/coursecheck-capture: $(addprefix $(BUILD)/asan/obj/,$(CAPTURE_SRCS:.c=.o))
	$(QUIET_LINK)$(CC) $(SANITIZE) $^ $(CAP_LIBS) -o $@

# ---- the jobs ------------------------------------------------------------
# Each job installs (or names) its packages first, then builds in a second
# make, so pkg-config runs only once the packages are there.
# VERIFY_TRUST=REF: the trusted keys as git revision REF has them (CI: the base branch)
verify: $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(PAR) $(BUILD)/coursecheck
	$(BUILD)/coursecheck verify$(if $(VERIFY_TRUST), --trust=$(VERIFY_TRUST))

# Without nvcc it says so, and leaves the line in build/.skipped for the
# last line of `make test`.
# The lesson programs are built again only when a file under programs/ (a
# source, its Build: line), nvcc or coursecheck-capture changed since the
# last clean build: the key of that build is kept in $(BUILD)/programs.key.
programs: $(BUILD)/coursecheck-capture
	@if command -v nvcc >/dev/null 2>&1; then \
		key=$$( { find programs -type f | LC_ALL=C sort | xargs sha256sum; nvcc --version; \
			sha256sum $(BUILD)/coursecheck-capture; } 2>&1 | sha256sum | cut -d' ' -f1); \
		if [ -f $(BUILD)/programs.key ] && [ "$$(cat $(BUILD)/programs.key)" = "$$key" ] && [ -f $(BUILD)/.programs.log ]; then \
			sed -n 's/^capture: [0-9]* lessons*, \([0-9]*\) built, \([0-9]*\) failed$$/programs: \1 passed, \2 failed (unchanged since their last build: not rebuilt)/p' \
				$(BUILD)/.programs.log; \
			exit 0; \
		fi; \
		rm -f $(BUILD)/programs.key; \
		$(BUILD)/coursecheck-capture --build-only $(BUILD)/programs 2>$(BUILD)/.programs.log; rc=$$?; \
		cat $(BUILD)/.programs.log; \
		sed -n 's/^capture: [0-9]* lessons*, \([0-9]*\) built, \([0-9]*\) failed$$/programs: \1 passed, \2 failed/p' \
			$(BUILD)/.programs.log; \
		if [ $$rc = 0 ]; then echo "$$key" > $(BUILD)/programs.key; fi; \
		exit $$rc; \
	else echo "programs: nvcc not found: lesson programs NOT compiled (install the CUDA toolkit)"; \
		echo "lesson programs not compiled: nvcc not found" >> $(SKIPPED_FILE); fi

# Every deliberately broken build of the lesson programs; on a GPU machine
# each is run and its gate must fail (verifier/scripts/broken-variants.sh).
broken-variants:
	sh verifier/scripts/broken-variants.sh
# only built, as `make test` does
.PHONY: broken-variants-build
broken-variants-build:
	@sh verifier/scripts/broken-variants.sh --compile-only

# No run of 12 or more words of the reference documents' prose in pages/ or
# programs/ (verifier/scripts/reference-overlap.py), and the checker's test.
SEEDS ?= ../shared/reference/seeds
reference-overlap:
	@if command -v python3 >/dev/null 2>&1; then \
		sh verifier/scripts/reference-overlap-test.sh && \
		if [ -d "$(SEEDS)" ]; then python3 verifier/scripts/reference-overlap.py --seeds "$(SEEDS)"; \
		else echo "reference-overlap: $(SEEDS) not found: the course was NOT checked against the reference documents"; \
			echo "reference overlap not checked: $(SEEDS) not found" >> $(SKIPPED_FILE); fi; \
	else echo "reference-overlap: python3 not found: NOT checked"; \
		echo "reference overlap not checked: python3 not found" >> $(SKIPPED_FILE); fi

# REPEAT=K runs each lesson K times and records which numbers varied
# (REPEAT=auto:MAX PLAN=FILE: until the claims of FILE are decided);
# SCHEDULER=slurm submits one Slurm array job, one task and GPU per lesson
# (SBATCH="--partition=gpu --account=course" passes options to sbatch).
evidence: $(BUILD)/coursecheck-capture
	$(BUILD)/coursecheck-capture $(if $(REPEAT),--repeat $(REPEAT)) $(if $(PLAN),--plan $(PLAN)) \
		$(if $(filter slurm,$(SCHEDULER)),--slurm $(foreach o,$(SBATCH),--sbatch=$(o))) $(LESSON)

# ---- tests ---------------------------------------------------------------
UNIT_TESTS = $(patsubst verifier/tests/unit/%.c,$(BUILD)/asan/unit/%,$(wildcard verifier/tests/unit/test_*.c))

# The unit tests link the sanitized objects from one archive: each test
# takes the objects it calls, not all of them (a link 0.40 -> 0.23 CPU s,
# the binary 6.4 -> 0.7 MB); no object of the verifier runs a constructor.
ASAN_LIB = $(BUILD)/asan/libcoursecheck.a
$(ASAN_LIB): $(addprefix $(BUILD)/asan/obj/,$(LIB_SRCS:.c=.o))
	@rm -f $@
	$(if $(V),,@printf "  AR      %s\n" $@;)$(AR) rcs $@ $^
$(BUILD)/asan/unit/test_%: verifier/tests/unit/test_%.c $(wildcard verifier/tests/unit/*.h) $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SANITIZE) $(FULL_CFLAGS) $(INCLUDES) -Iverifier/tests/unit $< $(ASAN_LIB) $(LDFLAGS) $(FULL_LIBS) \
		$(shell pkg-config --cflags --libs cmocka) -o $@

unit: $(UNIT_TESTS)
	@sh verifier/tests/run-unit.sh $(UNIT_TESTS)

# GOLDEN_ALSO_JOBS=N runs each verify case at -j N too, from the same setup
# (jobs-test's golden half in the same pass; make test does so).
golden: $(BUILD)/asan/coursecheck
	@ALSO_JOBS=$(GOLDEN_ALSO_JOBS) sh verifier/tests/run-golden.sh $(BUILD)/asan/coursecheck verifier/tests/cases
GOLDEN_ALSO_JOBS ?=
# Every golden case at -j 4 against the same expected.txt (make test-slow:
# jobs-test's golden half on its own, the -j 1 pass being make test's).
golden-jobs: $(BUILD)/asan/coursecheck
	@JOBS=4 sh verifier/tests/run-golden.sh $(BUILD)/asan/coursecheck verifier/tests/cases

# The staleness rule on a copy of the course (verifier/tests/stale/course.sh).
stale-test: $(BUILD)/asan/coursecheck
	@sh verifier/tests/stale/course.sh $(BUILD)/asan/coursecheck

# The review gate on a copy of the course (verifier/tests/approvals/course.sh).
approvals-test: $(BUILD)/asan/coursecheck
	@sh verifier/tests/approvals/course.sh $(BUILD)/asan/coursecheck

# approve through ssh-agent: OpenSSH's agent, and fake ones that answer wrongly
agent-test: $(BUILD)/asan/coursecheck
	@sh verifier/tests/approvals/agent.sh $(BUILD)/asan/coursecheck

capture-test: $(BUILD)/asan/coursecheck-capture $(BUILD)/asan/coursecheck
	@sh verifier/tests/capture/run.sh $(BUILD)/asan/coursecheck-capture $(BUILD)/asan/coursecheck

# A one-node Slurm cluster started (and stopped) by the test itself.
slurm-test: $(BUILD)/asan/coursecheck-capture
	@SKIPPED_FILE=$(SKIPPED_FILE) sh verifier/tests/slurm/run.sh $(BUILD)/asan/coursecheck-capture

# deps.sh with no pkg-config and stand-in apt-get and id (no root needed)
deps-test:
	@sh verifier/tests/deps/run.sh

# course folders the checking user cannot list (as nobody when run as root)
folder-test: $(BUILD)/asan/coursecheck
	@sh verifier/tests/folders/run.sh $(BUILD)/asan/coursecheck

# Every page checked by the review gate, as HTML beside its evidence.
review: $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(PAR) $(BUILD)/coursecheck
	$(BUILD)/coursecheck review --output=$(BUILD)/review

review-test: $(BUILD)/asan/coursecheck | $(DEPS_TEST)
	@sh verifier/tests/review/run.sh $(BUILD)/asan/coursecheck

# The review page in headless chromium: permalinks, next and previous
# finding, approve, search, no request out of its folder.  Skips (and
# says so) where chromium is not installed.
review-browser-test: $(BUILD)/asan/coursecheck $(BUILD)/asan/unit/test_review_page | $(DEPS_TEST)
	@SKIPPED_FILE=$(SKIPPED_FILE) REVIEW_PAGE_UNIT=$(CURDIR)/$(BUILD)/asan/unit/test_review_page sh verifier/tests/review/browser.sh $(BUILD)/asan/coursecheck

# Hostile inputs at two sizes each, counted by callgrind (valgrind): every
# family must end with its diagnostic and do linear work.  The plain -O2
# binary: under valgrind the sanitized one would take minutes.
hostile: $(BUILD)/coursecheck
	@sh verifier/tests/hostile/run.sh $(BUILD)/coursecheck
	@sh verifier/tests/hostile/memory.sh $(BUILD)/coursecheck

# The unit tests and golden cases again, built by the other compiler
# (clang, or gcc where CC is clang) with its own ASan and UBSan, in
# build/clang/ (build/gcc/): what one compiler lets pass (an order of
# evaluation, a warning of its own) the other catches.  CI runs it after
# make test (.ci/run); clang comes with deps.sh fuzz's packages.
OTHER_CC ?= $(if $(findstring clang,$(notdir $(CC))),gcc,clang)
.PHONY: other-cc-test
other-cc-test: $(if $(findstring clang,$(OTHER_CC)),$(BUILD)/.deps-fuzz)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/$(notdir $(OTHER_CC)) CC=$(OTHER_CC) unit golden

# The mutation test checks the whole course at -j 4 and at -j 1 for every
# mutation and requires the same output: it is the jobs-test's mutation
# half too, so `make test` runs it once.
course-test: $(BUILD)/asan/coursecheck
	$(BUILD)/asan/coursecheck verify
	@MUTATE_JOBS=4 sh verifier/tests/mutate.sh $(BUILD)/asan/coursecheck

# update and an edit saved while it works (an LD_PRELOAD shim: the plain
# binary, as ASan must be loaded first).
.PHONY: update-race-test
update-race-test: $(BUILD)/coursecheck
	@CC="$(CC)" sh verifier/tests/update-race/run.sh $(BUILD)/coursecheck

# The reports in every format, checked against their schemas and xmllint.
report-test: $(BUILD)/asan/coursecheck | $(DEPS_TEST)
	@sh verifier/tests/reports/run.sh $(BUILD)/asan/coursecheck

# verify -j 4 and -j 1 against the golden cases and the mutation test:
# the same output, in the same order, and the same exit status.
# JOBS_TEST_MUTATE=0 leaves the mutation half to course-test.
jobs-test: $(BUILD)/asan/coursecheck
	@JOBS_TEST_MUTATE=$(JOBS_TEST_MUTATE) sh verifier/tests/jobs-test.sh $(BUILD)/asan/coursecheck
JOBS_TEST_MUTATE ?= 1

man-test: $(BUILD)/coursecheck $(BUILD)/coursecheck-capture | $(DEPS_TEST)
	@sh verifier/tests/man-lint.sh verifier/doc/coursecheck.1 $(BUILD)/coursecheck

# html5ent.c is generated from Python's copy of the WHATWG table: the
# committed file must be what the generator writes now
entities-test:
	@python3 verifier/scripts/gen-html5ent.py --check

install-test: $(BUILD)/coursecheck $(BUILD)/coursecheck-capture
	@sh verifier/tests/install-test.sh

# coursecheck lsp driven as an editor drives it: a framed JSON-RPC client,
# a page annotated by code actions alone, Neovim headless (skipped without
# nvim).
lsp-test: $(BUILD)/asan/coursecheck | $(DEPS_TEST)
	@sh verifier/tests/lsp/run.sh $(BUILD)/asan/coursecheck

wiring-test: $(BUILD)/coursecheck | $(DEPS_TEST)
	@sh verifier/tests/wiring/run.sh $(BUILD)/coursecheck

# The layer and cycle audit: includes and calls between modules against the
# layer table of verifier/tests/arch/layers.py, and each diagnostic kind
# raised in one place.
.PHONY: arch-test
arch-test: $(BUILD)/asan/coursecheck $(BUILD)/asan/coursecheck-capture
	@python3 verifier/tests/arch/layers.py $(SRC) $(BUILD)/asan/obj

# Every suite ends on "NAME: N passed, N failed"; the last line repeats
# what was skipped.  The binaries (plain and sanitized) and the unit tests
# are built first on every core (TEST_JOBS), then the suites run
# TEST_SUITES_JOBS at a time (default 3; 1 runs them one by one), each
# one's output printed whole in this order (verifier/tests/run-suites.sh).
# The golden suite compares -j 1's output with expected.txt; make
# test-slow's golden-jobs the same cases at -j 4 (jobs-test's golden half).
#
# `make test` is what a developer runs often; `make test-slow` holds the
# suites whose time is mostly compilers or valgrind, not the checker:
# nvcc builds of the broken variants, the hostile families under
# callgrind, the fuzz corpora's replay (its replayers built first), every
# golden case again at -j 4 (golden-jobs) and the mutation test (course-test: the course at -j 4 and -j 1 for every
# mutation, jobs-test's mutation half).  CI (.ci/run) runs both.
TEST_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
TEST_SUITES_JOBS ?= 3
# the longest first (CPU seconds), so that the short ones fill the other
# slots; slurm-test and capture-test early, as they mostly wait (a Slurm
# job's scheduling, capture's time limits): a third slot keeps both cores
# busy while they do
TEST_SUITES = slurm-test capture-test golden stale-test approvals-test agent-test programs \
	review-test review-browser-test report-test arch-test wiring-test reference-overlap unit deps-test folder-test \
	man-test install-test update-race-test lsp-test entities-test
TEST_SLOW_SUITES = broken-variants-build hostile course-test golden-jobs fuzz-replay
.PHONY: test test-slow
test: $(DEPS_FULL) $(DEPS_TEST)
	@rm -f $(BUILD)/.skipped
	@echo "build: the binaries (plain and sanitized) and unit tests on $(TEST_JOBS) cores"
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(BUILD)/coursecheck $(BUILD)/coursecheck-capture \
		$(BUILD)/asan/coursecheck $(BUILD)/asan/coursecheck-capture $(UNIT_TESTS) \
		>$(BUILD)/.test-build.log 2>&1 || { cat $(BUILD)/.test-build.log; echo "build: FAILED"; exit 1; }
	@sh verifier/tests/python-once.sh $(BUILD)/python
	@PATH="$(CURDIR)/$(BUILD)/python:$$PATH" MAKE="$(MAKE)" SKIPPED_ALL=$(CURDIR)/$(BUILD)/.skipped \
		sh verifier/tests/run-suites.sh $(TEST_SUITES_JOBS) $(TEST_SUITES)
test-slow: $(DEPS_FULL) $(DEPS_TEST)
	@rm -f $(BUILD)/.skipped-slow
	@echo "build: the binaries (plain and sanitized) and fuzz replayers on $(TEST_JOBS) cores"
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(BUILD)/coursecheck $(BUILD)/asan/coursecheck $(FUZZ_REPLAY_BINS) \
		>$(BUILD)/.test-slow-build.log 2>&1 || { cat $(BUILD)/.test-slow-build.log; echo "build: FAILED"; exit 1; }
	@MAKE="$(MAKE)" SKIPPED_ALL=$(CURDIR)/$(BUILD)/.skipped-slow \
		sh verifier/tests/run-suites.sh $(TEST_SUITES_JOBS) $(TEST_SLOW_SUITES)

# ---- install -------------------------------------------------------------
install: all
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(bashcompdir)
	$(INSTALL) -m 755 $(BUILD)/coursecheck $(BUILD)/coursecheck-capture $(DESTDIR)$(bindir)/
	$(INSTALL) -m 644 verifier/doc/coursecheck.1 verifier/doc/coursecheck-capture.1 $(DESTDIR)$(man1dir)/
	$(INSTALL) -m 644 verifier/doc/coursecheck.bash-completion $(DESTDIR)$(bashcompdir)/coursecheck
	ln -sf coursecheck $(DESTDIR)$(bashcompdir)/coursecheck-capture
	$(INSTALL) -d $(DESTDIR)$(editordir)/nvim/lua $(DESTDIR)$(editordir)/vscode
	$(INSTALL) -m 644 editors/nvim/lua/coursecheck.lua $(DESTDIR)$(editordir)/nvim/lua/
	$(INSTALL) -m 644 editors/vscode/package.json editors/vscode/extension.js $(DESTDIR)$(editordir)/vscode/

uninstall:
	rm -f $(DESTDIR)$(bindir)/coursecheck $(DESTDIR)$(bindir)/coursecheck-capture \
		$(DESTDIR)$(man1dir)/coursecheck.1 $(DESTDIR)$(man1dir)/coursecheck-capture.1 \
		$(DESTDIR)$(bashcompdir)/coursecheck $(DESTDIR)$(bashcompdir)/coursecheck-capture \
		$(DESTDIR)$(editordir)/nvim/lua/coursecheck.lua $(DESTDIR)$(editordir)/vscode/package.json \
		$(DESTDIR)$(editordir)/vscode/extension.js
	-rmdir $(DESTDIR)$(editordir)/nvim/lua $(DESTDIR)$(editordir)/nvim $(DESTDIR)$(editordir)/vscode \
		$(DESTDIR)$(editordir) 2>/dev/null

bench: $(BUILD)/coursecheck
	@sh verifier/bench/bench.sh $(BUILD)/coursecheck

clean:
	rm -rf $(BUILD)

include verifier/tests/fuzz/fuzz.mk
