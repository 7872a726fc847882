# fuzz.mk - the fuzz targets of verifier/tests/fuzz/, included by the
# top-level Makefile.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="page expr"]
#                      build each target with clang and libFuzzer
#                      (-fsanitize=fuzzer,address,undefined) and run it for
#                      FUZZ_SECONDS, printing execs and coverage per target
#   make fuzz-replay   build each target with gcc and the plain driver
#                      replay.c (ASan and UBSan) and replay every committed
#                      corpus and regression input once (part of make
#                      test-slow, which .ci/run runs after make test)
#   make fuzz-bundle   the clang-built targets, the shared libraries they
#                      load, corpora, dictionaries and run-all.sh in one
#                      folder, build/fuzz-bundle/, to run on another machine
#   make fuzz-merge    minimise the committed corpora with -merge=1 (after
#                      adding seeds; see seed.sh)
#
# `make fuzz` needs clang and its libFuzzer runtime: deps.sh fuzz installs
# them (Debian: clang, libclang-rt-dev), apart from what `make verify`
# needs, so `make verify` and `make test` never need clang.

FUZZ_DIR     = verifier/tests/fuzz
FUZZ_ALL     = frontmatter page snippet srctok evidence numtok expr capture_text approvals sshkey verify
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
DEPS_FUZZ    = $(BUILD)/.deps-fuzz

# The product calls the path oracle judges (path_oracle.h): fuzz_verify
# links copies of the product's objects whose references to them are
# renamed to the oracle's wrappers, __wrap_NAME.
FUZZ_WRAPPED = fopen open openat opendir stat lstat access mkstemp rename renameat renameat2 \
               link linkat unlink unlinkat mkdir rmdir nftw execve
FUZZ_REDEFINE = $(foreach f,$(FUZZ_WRAPPED),--redefine-sym $(f)=__wrap_$(f))
OBJCOPY      ?= objcopy

FUZZ_HDRS    = $(wildcard $(FUZZ_DIR)/*.h) $(FUZZ_DIR)/path_oracle.c $(HEADERS)
FUZZ_FIXTURE = $(BUILD)/fuzz-gen/fuzz_fixture.c
# what fuzz_verify links besides its own file and fuzz_util.c
FUZZ_EXTRA_verify = $(FUZZ_DIR)/path_oracle.c $(FUZZ_FIXTURE)

.PHONY: fuzz fuzz-build fuzz-replay fuzz-bundle fuzz-merge

$(DEPS_FUZZ):
	@sh verifier/scripts/deps.sh fuzz
	@mkdir -p $(BUILD) && touch $@

$(FUZZ_FIXTURE): $(FUZZ_DIR)/embed-fixture.sh $(wildcard verifier/tests/fixtures/demo/*/* verifier/tests/fixtures/demo/*/*/*)
	@mkdir -p $(dir $@)
	sh $(FUZZ_DIR)/embed-fixture.sh verifier/tests/fixtures/demo $@

# ---- replay build: gcc, ASan + UBSan, the product's sanitized objects ----
FUZZ_REPLAY_BINS = $(addprefix $(BUILD)/asan/fuzz/fuzz_,$(FUZZ_ALL))

REPLAY_OBJS = $(addprefix $(BUILD)/asan/obj/,$(LIB_SRCS:.c=.o))
REPLAY_ORACLE_OBJS = $(addprefix $(BUILD)/asan/oracle/,$(LIB_SRCS:.c=.o))

# The driver and the helpers every target links, compiled once (the same
# flags as before, when each target's link compiled them again: 14
# compiles less), and each target links the sanitized objects from the
# archive the unit tests link (only the objects it calls; no object of the
# verifier runs a constructor): make test 3.5 CPU s less.
REPLAY_DRIVER = $(BUILD)/asan/fuzzobj/replay.o $(BUILD)/asan/fuzzobj/fuzz_util.o
$(BUILD)/asan/fuzzobj/%.o: $(FUZZ_DIR)/%.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) -O1 -g $(SANITIZE) $(FULL_CFLAGS) $(INCLUDES) -I$(FUZZ_DIR) -c $< -o $@
$(BUILD)/asan/fuzz/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_HDRS) $(REPLAY_DRIVER) $(ASAN_LIB)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) -O1 -g $(SANITIZE) $(FULL_CFLAGS) $(INCLUDES) -I$(FUZZ_DIR) \
		$< $(REPLAY_DRIVER) $(ASAN_LIB) $(FULL_LIBS) -o $@
$(BUILD)/asan/fuzz/fuzz_verify: $(FUZZ_DIR)/fuzz_verify.c $(FUZZ_HDRS) $(REPLAY_DRIVER) \
		$(REPLAY_ORACLE_OBJS) $(FUZZ_FIXTURE)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(WARN) -O1 -g $(SANITIZE) $(FULL_CFLAGS) $(INCLUDES) -I$(FUZZ_DIR) \
		$< $(REPLAY_DRIVER) $(FUZZ_EXTRA_verify) $(REPLAY_ORACLE_OBJS) $(FULL_LIBS) -o $@
$(BUILD)/asan/oracle/%.o: $(BUILD)/asan/obj/%.o
	@mkdir -p $(dir $@)
	@echo "objcopy (path oracle) $@"
	@$(OBJCOPY) $(FUZZ_REDEFINE) $< $@

# Each target replays its corpus and its regressions, once, in name order.
fuzz-replay: $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(FUZZ_REPLAY_BINS)
	@for t in $(FUZZ_ALL); do \
		dirs=""; \
		for d in $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/regressions/$$t; do [ -d $$d ] && dirs="$$dirs $$d"; done; \
		[ -n "$$dirs" ] || { echo "fuzz-replay: no corpus for $$t"; exit 1; }; \
		$(BUILD)/asan/fuzz/fuzz_$$t $$dirs || { echo "fuzz-replay: $$t FAILED"; exit 1; }; \
	done

# ---- libFuzzer build: clang, -fsanitize=fuzzer,address,undefined ---------
# The product is compiled with -fsanitize=fuzzer-no-link for coverage; its
# warnings are gcc's business (-Werror stays on the harnesses only).
FUZZ_SAN    = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJS   = $(addprefix $(BUILD)/fuzz/obj/,$(LIB_SRCS:.c=.o))
FUZZ_BINS   = $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))

$(BUILD)/fuzz/obj/%.o: %.c $(HEADERS) | $(DEPS_FUZZ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -O1 -gline-tables-only $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		$(INCLUDES) $(FULL_CFLAGS) -c $< -o $@

FUZZ_ORACLE_OBJS = $(addprefix $(BUILD)/fuzz/oracle/,$(LIB_SRCS:.c=.o))
FUZZ_LINK = $(FUZZ_CC) $(WARN) -O1 -gline-tables-only $(FUZZ_SAN) -fsanitize=fuzzer $(FULL_CFLAGS) $(INCLUDES) -I$(FUZZ_DIR)

$(BUILD)/fuzz/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DIR)/fuzz_util.c $(FUZZ_HDRS) $(FUZZ_OBJS) | $(DEPS_FUZZ)
	@mkdir -p $(dir $@)
	$(FUZZ_LINK) $< $(FUZZ_DIR)/fuzz_util.c $(FUZZ_OBJS) $(FULL_LIBS) -o $@
$(BUILD)/fuzz/fuzz_verify: $(FUZZ_DIR)/fuzz_verify.c $(FUZZ_DIR)/fuzz_util.c $(FUZZ_HDRS) $(FUZZ_ORACLE_OBJS) \
		$(FUZZ_FIXTURE) | $(DEPS_FUZZ)
	@mkdir -p $(dir $@)
	$(FUZZ_LINK) $< $(FUZZ_DIR)/fuzz_util.c $(FUZZ_EXTRA_verify) $(FUZZ_ORACLE_OBJS) $(FULL_LIBS) -o $@
$(BUILD)/fuzz/oracle/%.o: $(BUILD)/fuzz/obj/%.o
	@mkdir -p $(dir $@)
	@echo "objcopy (path oracle) $@"
	@$(OBJCOPY) $(FUZZ_REDEFINE) $< $@

fuzz-build: $(DEPS_FUZZ) $(DEPS_FULL)
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz: fuzz-build
	@sh $(FUZZ_DIR)/run-all.sh --bin $(BUILD)/fuzz --data $(FUZZ_DIR) --targets "$(FUZZ_TARGETS)" \
		$(FUZZ_SECONDS) $(BUILD)/fuzz/run

fuzz-merge: fuzz-build
	@sh $(FUZZ_DIR)/merge.sh $(BUILD)/fuzz "$(FUZZ_TARGETS)"

fuzz-bundle: fuzz-build
	@sh $(FUZZ_DIR)/bundle.sh $(BUILD)/fuzz $(BUILD)/fuzz-bundle "$(FUZZ_ALL)"

# The objects are made by pattern rules only: keep make from deleting them
# as intermediate files after each link.
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_ORACLE_OBJS) $(REPLAY_OBJS) $(REPLAY_ORACLE_OBJS) $(FUZZ_FIXTURE)
