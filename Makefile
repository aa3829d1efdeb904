# SPDX-License-Identifier: GPL-2.0
#
# hcube: top-level build. `make` builds the tools (and the module when the
# kernel headers are there); `make check` runs every test; `make deps`
# installs the Debian packages they need (idempotent).

SHELL := /bin/bash
.DEFAULT_GOAL := all

BUILD ?= build
CC ?= gcc
CLANG ?= clang
KSRC_TAR ?= /usr/src/linux-source-6.1.tar.xz

# Where the pieces of linux-source-6.1 the project uses are extracted (never
# committed): the kselftest harness and checkpatch.
LSRC := $(BUILD)/linux-source
KSFT := $(LSRC)/tools/testing/selftests
KSFT_FILES := kselftest_harness.h kselftest.h lib.mk run_kselftest.sh \
	      kselftest/runner.sh kselftest/prefix.pl kselftest/module.sh \
	      cpu-hotplug/cpu-on-off-test.sh
CHECKPATCH := $(LSRC)/scripts/checkpatch.pl

include module/core/sources.mk
CORE_SRC := $(addprefix module/core/,$(HCUBE_CORE_OBJS:.o=.c))
CORE_LIB := $(BUILD)/core-obj/libhcube-core.a
CORE_LIB_SAN := $(BUILD)/core-obj-san/libhcube-core.a
CORE_HDR := module/core/hcube_core.h module/core/hcube_core_ext.h \
	    module/core/hcube_internal.h uapi/linux/hcube.h \
	    tools/include/linux/types.h tools/include/linux/math64.h \
	    tools/include/linux/bits.h tools/include/linux/bitops.h \
	    tools/include/linux/log2.h

WARN := -Wall -Wextra -Werror
# CPPFLAGS, CFLAGS and LDFLAGS (empty unless given: debian/rules passes
# dpkg-buildflags' hardening) are added to the installed programs, hcubectl
# and hcube-sim, and to the core objects they link.
UCFLAGS := -std=gnu11 -O2 -g $(WARN) -Itools/include -Imodule/core -Iuapi
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
# kselftest_harness.h's macros compare int literals with unsigned values and
# pass parameters that TEST() bodies need not use: those two warnings stay
# off for test files only.
TEST_CFLAGS := $(UCFLAGS) -Wno-unused-parameter -Wno-sign-compare \
	       -I$(KSFT) -Iselftests/core

COMMON_SRC := tools/common/json.c
SIM_SRC := $(wildcard tools/hcube-sim/*.c) $(COMMON_SRC)
SIM_HDR := $(wildcard tools/hcube-sim/*.h) tools/common/json.h
CORE_TESTS := paper_test props_test flow_test aapc_test sbn_test diffuse_test \
	      pebble_test optimal_test policy_test

# Nothing below runs a program that `make deps` installs while this file is
# read: such values are recursive (= or ?=, never :=) and only recipes use
# them, so they see what deps installed. `make demo` and `make check` also
# run deps first and the rest in a sub-make. KVER ?= is recursive too.
KVER ?= $(shell scripts/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
MODULE_SRC := Kbuild module/core/sources.mk $(wildcard module/*.c module/*.h uapi/linux/*.h) \
	      $(CORE_SRC) $(CORE_HDR)

.PHONY: all deps tools module module-check selftests check-ksft check-vm check-rt check-debug soak check-hcubectl check-spec gen check-gen check-vm-dmesg demo demo-vm demo-plan check check-core check-style fuzz bench-core bench demo clean

all: tools module

# The kernel module, against Debian's headers (KVER/KDIR), never `uname -r`.
module: hcube.ko

hcube.ko: $(MODULE_SRC)
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The module built with sparse (C=2: every file) and W=1: no warning allowed.
# It builds a copy of the sources in $(BUILD)/module-check: `make clean M=`
# in the tree would delete every .o under build/ too, under other checks
# that run beside this one (make -j check-host).
MODCHECK := $(BUILD)/module-check
module-check:
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	@rm -rf $(MODCHECK) && mkdir -p $(MODCHECK) && \
	tar cf - Kbuild $$(find module uapi -name '*.[ch]' -o -name '*.mk') | tar xf - -C $(MODCHECK)
	@out=$$($(MAKE) -s --no-print-directory -C $(KDIR) M=$(abspath $(MODCHECK)) C=2 W=1 modules 2>&1 | \
		grep -v "Skipping BTF generation" ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "ok module: sparse and W=1 clean"

deps:
	@scripts/deps.sh

tools: $(BUILD)/hcube-sim $(BUILD)/hcubectl

$(BUILD)/hcube-sim: $(SIM_SRC) $(SIM_HDR) $(CORE_HDR) $(CORE_LIB)
	$(CC) $(UCFLAGS) $(CPPFLAGS) $(CFLAGS) -Itools/common -o $@ $(SIM_SRC) $(CORE_LIB) $(LDFLAGS) -lm

$(BUILD):
	mkdir -p $@

# The core, compiled once per flavour (plain, and with ASan + UBSan) into
# objects with dependency files, and archived for the programs that use it.
$(BUILD)/core-obj/%.o: module/core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(UCFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/core-obj-san/%.o: module/core/%.c
	@mkdir -p $(dir $@)
	$(CC) $(UCFLAGS) $(SANITIZE) -MMD -MP -c -o $@ $<

$(CORE_LIB): $(addprefix $(BUILD)/core-obj/,$(HCUBE_CORE_OBJS))
	rm -f $@ && $(AR) rcs $@ $^

$(CORE_LIB_SAN): $(addprefix $(BUILD)/core-obj-san/,$(HCUBE_CORE_OBJS))
	rm -f $@ && $(AR) rcs $@ $^

-include $(wildcard $(BUILD)/core-obj/*.d $(BUILD)/core-obj-san/*.d)

$(LSRC)/.stamp-v3: | $(BUILD)
	rm -rf $(LSRC) $(LSRC).tmp && mkdir -p $(LSRC).tmp
	tar -xJf $(KSRC_TAR) -C $(LSRC).tmp --strip-components=1 \
		$(addprefix linux-source-6.1/tools/testing/selftests/,$(KSFT_FILES)) \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	mv $(LSRC).tmp $(LSRC) && touch $@

# Host unit tests of the core: plain, and with ASan + UBSan.
$(BUILD)/core/%: selftests/core/%.c selftests/core/core_util.h $(CORE_LIB) $(CORE_HDR) $(LSRC)/.stamp-v3
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< $(CORE_LIB)

$(BUILD)/core-san/%: selftests/core/%.c selftests/core/core_util.h $(CORE_LIB_SAN) $(CORE_HDR) $(LSRC)/.stamp-v3
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(SANITIZE) -o $@ $< $(CORE_LIB_SAN)

# libFuzzer over the planners' inputs.
$(BUILD)/fuzz/fuzz_plan: selftests/core/fuzz_plan.c $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CLANG) -std=gnu11 -O1 -g $(WARN) -Itools/include -Imodule/core -Iuapi \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $< $(CORE_SRC)

FUZZ_SECONDS ?= 300
FUZZ_CHECK_SECONDS ?= 20

fuzz: $(BUILD)/fuzz/fuzz_plan
	@mkdir -p $(BUILD)/fuzz/corpus
	$< -max_total_time=$(FUZZ_SECONDS) -seed=1 $(BUILD)/fuzz/corpus

check-core: $(addprefix $(BUILD)/core/,$(CORE_TESTS)) \
	    $(addprefix $(BUILD)/core-san/,$(CORE_TESTS)) \
	    $(BUILD)/fuzz/fuzz_plan $(BUILD)/hcube-sim
	@set -e; for t in $(CORE_TESTS); do \
		echo "# core: $$t"; $(BUILD)/core/$$t; \
		echo "# core (asan+ubsan): $$t"; $(BUILD)/core-san/$$t; \
	done
	@echo "# core: fuzz_plan for $(FUZZ_CHECK_SECONDS)s"
	@mkdir -p $(BUILD)/fuzz/check-corpus
	@$(BUILD)/fuzz/fuzz_plan -max_total_time=$(FUZZ_CHECK_SECONDS) -seed=1 \
		$(BUILD)/fuzz/check-corpus 2>$(BUILD)/fuzz/check.log || \
		{ tail -50 $(BUILD)/fuzz/check.log; exit 1; }
	@grep -E '^Done|^#[0-9]+ *DONE' $(BUILD)/fuzz/check.log | tail -1
	@echo "# core: hcube-sim plan"
	@selftests/core/sim_plan_test.sh $(BUILD)/hcube-sim
	@echo "# core: no call cycle between the core's files"
	@scripts/check-cycles.py $(addprefix $(BUILD)/core-obj/,$(HCUBE_CORE_OBJS))

# hcubectl, on libnl-genl-3. NL_CFLAGS, NL_LIBS and HCUBECTL_CFLAGS are
# recursive (=): pkg-config runs when a recipe uses them, after `make deps`
# has installed libnl, never when this file is read.
NL_PKG := libnl-genl-3.0
NL_CFLAGS = $(shell pkg-config --cflags $(NL_PKG))
NL_LIBS = $(shell pkg-config --libs $(NL_PKG))
NL_NEED = @pkg-config --exists $(NL_PKG) || { echo "$(NL_PKG) not found: run 'make deps'" >&2; exit 1; }
HCUBECTL_SRC := $(wildcard tools/hcubectl/*.c) $(COMMON_SRC)
HCUBECTL_HDR := $(wildcard tools/hcubectl/*.h) tools/common/json.h uapi/linux/hcube.h
HCUBECTL_CFLAGS = -std=gnu11 -O2 -g $(WARN) -Iuapi -Itools/common $(NL_CFLAGS)
# top's screen: ncurses (libncurses-dev), named as pkg-config --libs ncursesw does
HCUBECTL_LIBS = $(NL_LIBS) -lncursesw -ltinfo -lm

$(BUILD)/hcubectl: $(HCUBECTL_SRC) $(HCUBECTL_HDR) | $(BUILD)
	$(NL_NEED)
	$(CC) $(HCUBECTL_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $(HCUBECTL_SRC) $(LDFLAGS) $(HCUBECTL_LIBS)

$(BUILD)/hcubectl-san: $(HCUBECTL_SRC) $(HCUBECTL_HDR) | $(BUILD)
	$(NL_NEED)
	$(CC) $(HCUBECTL_CFLAGS) $(SANITIZE) -o $@ $(HCUBECTL_SRC) $(HCUBECTL_LIBS)

# hcubectl's host tests (selftests/hcubectl/).
$(BUILD)/hcubectl-test/extack_test: selftests/hcubectl/extack_test.c tools/hcubectl/extack.c tools/hcubectl/extack.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g $(WARN) $(SANITIZE) -Itools/hcubectl -o $@ $< tools/hcubectl/extack.c

# The module's generated policies, compiled unchanged (tools/include/net/netlink.h).
$(BUILD)/hcubectl-test/fakekernel.so: selftests/hcubectl/fakekernel.c module/hcube_nl_gen.c module/hcube_errors.h \
		module/hcube_nl_gen.h tools/include/net/netlink.h $(CORE_SRC) $(CORE_HDR) uapi/linux/hcube.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g $(WARN) -shared -fPIC -Iuapi -Itools/include -Imodule/core -Imodule \
		-o $@ $< module/hcube_nl_gen.c $(CORE_SRC) -ldl

# hcubectl without the module: usage, errors, extack parsing, and a fake
# kernel (LD_PRELOAD) whose plans come from the real core.
check-hcubectl: $(BUILD)/hcubectl $(BUILD)/hcubectl-san $(BUILD)/hcubectl-test/extack_test \
		$(BUILD)/hcubectl-test/fakekernel.so $(BUILD)/hcube-sim
	@$(BUILD)/hcubectl-test/extack_test
	@selftests/hcubectl/cli_test.sh $(BUILD)/hcubectl $(BUILD)/hcubectl-san
	@set -e; for b in hcubectl hcubectl-san; do selftests/hcubectl/fake_test.sh $(BUILD)/$$b \
		$(BUILD)/hcubectl-test/fakekernel.so $(BUILD)/hcube-sim; done
	@set -e; for b in hcubectl hcubectl-san; do selftests/hcubectl/apply_test.sh $(BUILD)/$$b \
		$(BUILD)/hcubectl-test/fakekernel.so; done
	@set -e; for b in hcubectl hcubectl-san; do selftests/hcubectl/top_test.sh $(BUILD)/$$b \
		$(BUILD)/hcubectl-test/fakekernel.so $(BUILD)/hcube-sim; done

# The kernel selftests (selftests/hcube/Makefile, on the kernel's lib.mk):
# built on the host and installed into $(BUILD)/kselftest, the tree that
# run_kselftest.sh runs inside the VM.
selftests: tools $(LSRC)/.stamp-v3
	$(MAKE) -C selftests/hcube BUILD=$(abspath $(BUILD)) OUTPUT=$(abspath $(BUILD))/selftests/hcube \
		install INSTALL_PATH=$(abspath $(BUILD))/kselftest

# selftests/hcube's kselftest entry point: installed into a temporary
# directory, checked, and run by its run_kselftest.sh on the host and in a VM.
check-ksft: module selftests
	@KVER=$(KVER) selftests/ksft/install_test.sh $(BUILD)

# The VM tests on the three topologies (VM_TOPOS="8x2" to pick).
check-vm: module tools selftests
	KVER=$(KVER) selftests/run-vm-tests.sh $(VM_TOPOS)

# The same on Debian's PREEMPT_RT kernel, with the module built for it from
# a copy of the sources (Kbuild writes its objects next to them).
RT_KVER ?= $(shell scripts/kver.sh rt-amd64 2>/dev/null)
RT_BUILD := $(BUILD)/rt

$(RT_BUILD)/hcube.ko: $(MODULE_SRC)
	@test -n "$(RT_KVER)" || { echo "no PREEMPT_RT kernel: run make deps"; exit 1; }
	scripts/build-module-for.sh $(RT_KVER) $(RT_BUILD)

check-rt: $(RT_BUILD)/hcube.ko tools selftests
	KVER=$(RT_KVER) HCUBE_KO=$(RT_BUILD)/hcube.ko selftests/run-vm-tests.sh $(VM_TOPOS)

# The suite, the stress and the fuzzer on a debug kernel (KASAN, lockdep,
# DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_LIST) built once from linux-source-6.1
# and cached outside the repository; then kmemleak must find nothing of
# hcube's. Not in `make check`: the first build takes about 15 minutes.
DEBUG_TOPOS ?= 8x2
check-debug: tools selftests
	@v=$$(scripts/debug-kernel.sh) && \
	ko=$$(scripts/build-module-for.sh $$v $(BUILD)/debug) && \
	KVER=$$v HCUBE_KO=$$ko HCUBE_VM_TIMEOUT=1800 \
	HCUBE_VM_KERNEL=$$(scripts/debug-kernel.sh --image) \
	HCUBE_DMESG_FROM='hcube-selftests: start' \
	HCUBE_STRESS_SECONDS=$${HCUBE_STRESS_SECONDS:-30} \
	HCUBE_FUZZ_SECONDS=$${HCUBE_FUZZ_SECONDS:-20} \
	selftests/run-vm-tests.sh $(DEBUG_TOPOS)

# The long run of issue 13 (Documentation/reliability.md): stress, the
# fuzzer, stress-ng jobs, CPU hotplug and faults for at least 30 minutes on
# the debug kernel and 30 on the standard one. Not in `make check`.
soak: module tools selftests
	selftests/soak/run-soak.sh

$(BUILD)/bench_core: selftests/core/bench_core.c selftests/core/core_util.h $(CORE_LIB) $(CORE_HDR)
	$(CC) $(UCFLAGS) -Iselftests/core -o $@ $< $(CORE_LIB)

bench-core: $(BUILD)/bench_core
	$<

# The module's cost and effect, measured in the VM (Documentation/performance.md):
# rebalance against the userspace way, and makespan under four policies.
# Not in `make check`: 18 minutes for BENCH_TOPOS="8x2 16x2" on the 2-core machine. Sizes: see selftests/bench/run-bench.sh.
$(BUILD)/bench/hcube_bench: selftests/bench/hcube_bench.c selftests/hcube/hcube_nl.h \
		selftests/hcube/hcube_util.h uapi/linux/hcube.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -Iuapi -Iselftests/hcube -o $@ $< -lpthread

# The bench-only module hcube_bare.ko (the physical limit of a rebalance),
# built from a copy so that Kbuild's objects stay out of the sources.
$(BUILD)/bench/bare/hcube_bare.ko: selftests/bench/bare/hcube_bare.c selftests/bench/bare/Kbuild
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	@mkdir -p $(dir $@)
	cp $^ $(dir $@)
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(dir $@) modules

BENCH_OUT ?= $(BUILD)/bench
bench: module $(BUILD)/bench/hcube_bench $(BUILD)/bench/bare/hcube_bare.ko
	KVER=$(KVER) BENCH_OUT=$(BENCH_OUT) selftests/bench/run-bench.sh

# checkpatch --strict over every file that is compiled into the kernel.
KERNEL_C := $(wildcard module/*.c module/*.h module/core/*.c module/core/*.h uapi/linux/*.h) \
	    selftests/bench/bare/hcube_bare.c

check-style: $(LSRC)/.stamp-v3
	@echo "# style: checkpatch --strict on $(words $(KERNEL_C)) files"
	@out=$$(perl $(CHECKPATCH) --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(KERNEL_C) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "ok style"

# The VM runner's splat scanner against clean boot logs and sample splats.
check-vm-dmesg:
	@selftests/vm/check-dmesg-test.sh | tail -1

# The YNL spec against the uAPI header (names, values, enum members).
check-spec:
	@/usr/bin/python3 selftests/spec/check_spec.py

# The files generated from the YNL spec (Documentation/netlink/hcube-ynl-gen.rst):
# `make gen` writes them, check-gen fails when the committed ones differ from
# a fresh generation.
GEN := uapi/linux/hcube.h module/hcube_nl_gen.h module/hcube_nl_gen.c \
       tools/hcubectl/names_gen.h tools/hcubectl/names_gen.c

gen:
	@/usr/bin/python3 scripts/hcube-ynl-gen.py

check-gen:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	/usr/bin/python3 scripts/hcube-ynl-gen.py --out "$$tmp" && \
	for f in $(GEN); do \
		diff -u "$$f" "$$tmp/$$f" || { echo "not ok $$f differs from the spec: run 'make gen'"; exit 1; }; \
	done && echo "ok gen: $(words $(GEN)) files as generated from the spec"

# `make check`: the packages, then in sub-makes (which read this file after
# deps ran) the host checks, CHECK_JOBS at a time (each one's output printed
# whole when it ends: make -Otarget; any failure fails the run), then the
# ones that boot VMs, one after the other.
CHECK_HOST := check-gen check-style check-spec check-vm-dmesg check-core check-hcubectl \
	      check-sim check-mpi check-docs check-install check-deb-version module-check
CHECK_VM := check-dkms check-ksft check-vm check-rt
CHECK_JOBS ?= 2
.PHONY: check-host
check-host: $(CHECK_HOST)

check:
	@scripts/deps.sh
	$(MAKE) -j$(CHECK_JOBS) -Otarget check-host
	@set -e; for t in $(CHECK_VM); do $(MAKE) $$t; done

# hcube-sim's simulation of paper 000, Section 6 (Documentation/benchmarks.md):
# the full grid, the sensitivity runs and the plots; check-sim runs a reduced
# grid that asserts properties, with the plain and the ASan/UBSan build.
.PHONY: experiment check-sim

experiment: $(BUILD)/hcube-sim
	tools/hcube-sim/experiment.sh $(BUILD)/hcube-sim $(BUILD)/experiment Documentation/benchmarks

# Paper 003's three Poisson workloads for every policy beside the paper's
# Figs. 9-11 (Documentation/benchmarks.md); about 2 s.
.PHONY: experiment-sbn
experiment-sbn: $(BUILD)/hcube-sim
	$(BUILD)/hcube-sim sbn --runs 10 --quiet --out $(BUILD)/sbn
	cp $(BUILD)/sbn/sbn.md Documentation/benchmarks/sbn.md

$(BUILD)/hcube-sim-san: $(SIM_SRC) $(SIM_HDR) $(CORE_HDR) $(CORE_LIB_SAN)
	$(CC) $(UCFLAGS) $(SANITIZE) -Itools/common -o $@ $(SIM_SRC) $(CORE_LIB_SAN) -lm

check-sim: $(BUILD)/hcube-sim $(BUILD)/hcube-sim-san
	@selftests/sim/sim_test.sh $(BUILD)/hcube-sim $(BUILD)/hcube-sim-san
	@echo "# sim: no call cycle between hcube-sim's files"
	@scripts/check-cycles.py --cflags "$(UCFLAGS) -Itools/common" \
		$(filter tools/hcube-sim/%,$(SIM_SRC))

# libhcube-mpi (tools/hcube-mpi, Documentation/mpi.md): its tests on real
# MPI ranks of this machine (about 2-3 minutes), and paper 003's and paper
# 000's workloads on P = 2..32 ranks (not in `make check`).
.PHONY: check-mpi experiment-mpi
check-mpi: $(BUILD)/hcube-sim
	$(MAKE) -C tools/hcube-mpi check BUILD=$(abspath $(BUILD))

experiment-mpi: $(BUILD)/hcube-sim
	$(MAKE) -C tools/hcube-mpi experiment BUILD=$(abspath $(BUILD))

# The main demonstration: the module in a VM balancing real processes with
# two faulty CPUs (demo-plan shows the planner alone, no VM).
# `make demo` installs the packages first, then builds and boots in a sub-make
# that reads this file afresh (also right under make -j).
demo:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory demo-vm

demo-vm: module $(BUILD)/hcubectl
	KVER=$(KVER) selftests/vm/run-vm.sh --cpus 8 --nodes 2 --timeout 600 -- scripts/demo-in-vm.sh

demo-plan: tools
	@scripts/demo-plan.sh $(BUILD)/hcube-sim

clean:
	rm -rf $(BUILD)
	@if [ -n "$(KVER)" ]; then $(MAKE) -s -C $(KDIR) M=$(CURDIR) clean; fi

# Installation: the tools, their man pages, hcubectl's bash completion,
# the uAPI header and the persistent set-up, under $(DESTDIR)$(PREFIX) (the
# unit and the udev rule under SYSTEMDUNITDIR and UDEVRULESDIR, the
# configuration under SYSCONFDIR); uninstall removes those files.
# The module is installed with DKMS (dkms.conf): dkms-src stages its sources.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The persistent set-up (hcubectl apply, issue 15): the configuration file,
# created only when absent; the systemd unit and the udev rule that runs it
# when the module loads; examples for modules-load.d and modprobe.d.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
DOCDIR ?= $(PREFIX)/share/doc/hcube
SYSTEMDUNITDIR ?= /lib/systemd/system
UDEVRULESDIR ?= /lib/udev/rules.d
HCUBE_CONF := $(SYSCONFDIR)/hcube/hcube.conf
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
DKMS_FILES := dkms.conf Kbuild module/core/sources.mk $(wildcard module/*.c module/*.h \
	      module/core/*.c module/core/*.h uapi/linux/*.h)
INSTALLED := $(SBINDIR)/hcubectl $(BINDIR)/hcube-sim $(MANDIR)/man8/hcubectl.8 \
	     $(MANDIR)/man1/hcube-sim.1 $(BASHCOMPDIR)/hcubectl \
	     $(INCLUDEDIR)/linux/hcube.h $(SYSTEMDUNITDIR)/hcube.service \
	     $(UDEVRULESDIR)/60-hcube.rules $(DOCDIR)/hcube.conf.example \
	     $(DOCDIR)/modules-load.d-hcube.conf $(DOCDIR)/modprobe.d-hcube.conf

.PHONY: install uninstall dkms-src check-install check-docs check-dkms deb check-deb check-deb-version

install: tools
	install -D -m 755 $(BUILD)/hcubectl $(DESTDIR)$(SBINDIR)/hcubectl
	install -D -m 755 $(BUILD)/hcube-sim $(DESTDIR)$(BINDIR)/hcube-sim
	install -D -m 644 Documentation/man/hcubectl.8 $(DESTDIR)$(MANDIR)/man8/hcubectl.8
	install -D -m 644 Documentation/man/hcube-sim.1 $(DESTDIR)$(MANDIR)/man1/hcube-sim.1
	install -D -m 644 tools/hcubectl/hcubectl.bash-completion $(DESTDIR)$(BASHCOMPDIR)/hcubectl
	install -D -m 644 uapi/linux/hcube.h $(DESTDIR)$(INCLUDEDIR)/linux/hcube.h
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		tools/hcubectl/systemd/hcube.service.in >$(DESTDIR)$(SYSTEMDUNITDIR)/hcube.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/hcube.service
	install -D -m 644 tools/hcubectl/systemd/60-hcube.rules $(DESTDIR)$(UDEVRULESDIR)/60-hcube.rules
	install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(DOCDIR)/hcube.conf.example
	install -D -m 644 tools/hcubectl/systemd/modules-load.conf $(DESTDIR)$(DOCDIR)/modules-load.d-hcube.conf
	install -D -m 644 tools/hcubectl/systemd/modprobe.conf $(DESTDIR)$(DOCDIR)/modprobe.d-hcube.conf
	@if [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) exists: left as it is"; \
	else \
		install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); \
	fi

# The configuration file goes only when it is still the example.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@if cmp -s tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); then \
		rm -f $(DESTDIR)$(HCUBE_CONF); \
		rmdir $(DESTDIR)$(SYSCONFDIR)/hcube 2>/dev/null || true; \
	elif [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) was changed: left as it is"; \
	fi

# DKMS_DEST: where (debian/rules stages /usr/src/hcube-VERSION with it).
DKMS_DEST ?= $(BUILD)/dkms/hcube-$(DKMS_VERSION)
dkms-src:
	rm -rf $(DKMS_DEST)
	@for f in $(DKMS_FILES); do \
		install -D -m 644 $$f $(DKMS_DEST)/$$f || exit 1; done
	@echo "$(DKMS_DEST)"

# install and uninstall into a temporary DESTDIR; the completion in bash.
check-install: tools
	@selftests/install/install_test.sh $(BUILD)

# The man pages (groff -ww, man), the admin guide (docutils) and their
# agreement with the tools' --help and the module's sources.
check-docs: tools
	@/usr/bin/python3 selftests/docs/check_docs.py $(BUILD)

# dkms add/build/install on this host (root), then modprobe in the VM; about
# 20 s. It refuses to touch an hcube that dkms already has.
check-dkms: dkms-src tools
	@KVER=$(KVER) selftests/dkms/check-dkms.sh $(BUILD)

# The README's commands on a fresh Debian 12 (scripts/check-fresh.sh): a
# clean bookworm made with debootstrap, this repository's HEAD cloned into
# it, `make demo` and `make check` (FRESH_TARGETS) run in a chroot. Root
# only; not in `make check`.
.PHONY: check-fresh
check-fresh:
	scripts/check-fresh.sh

# The Debian packages hcube-dkms and hcube-tools (debian/), built with
# dpkg-buildpackage in a copy of the tree and checked with lintian; the
# .debs, .changes and lintian's report land in $(BUILD)/deb.
deb:
	@scripts/mkdeb.sh $(BUILD)/deb

# debian/changelog's version against dkms.conf's PACKAGE_VERSION.
check-deb-version:
	@selftests/deb/check-version-test.sh

# Both packages installed with dpkg -i in the VM (a writable overlay over
# its root), DKMS builds the module there, modprobe, hcubectl, then
# dpkg --purge must leave nothing behind. Not in `make check`: DKMS
# compiles the module under TCG (the VM may take up to HCUBE_DEB_TIMEOUT,
# 2400 s).
check-deb: deb
	@KVER=$(KVER) selftests/deb/check-deb.sh $(BUILD)/deb
