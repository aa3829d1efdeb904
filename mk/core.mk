# SPDX-License-Identifier: GPL-2.0
# The balancing core on the host (selftests/core): its tests, plain and
# sanitized (check-core), its fuzzer (fuzz) and its benchmark (bench-core).

.PHONY: check-core fuzz bench-core

## check-core: the core's host tests, the fuzzer and the core's benchmark
# The core's host tests, the fuzzer and the core's benchmark (selftests/core).
check-core: $(SHARED)
	@$(SUBMAKE) -C selftests/core check

FUZZ_SECONDS ?= 300
## fuzz: the core's fuzzer alone, FUZZ_SECONDS long
fuzz: $(SHARED)
	@$(SUBMAKE) -C selftests/core fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

## bench-core: the core's benchmark (planning time per policy and size)
bench-core: $(SHARED)
	@$(SUBMAKE) -C selftests/core bench
