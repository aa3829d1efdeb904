# SPDX-License-Identifier: GPL-2.0
#
# hcube: top-level build. `make` builds the tools, libhcube-mpi (and the
# module when the kernel headers are there); `make check` runs every test;
# `make deps` installs the Debian packages they need (idempotent).

SHELL := /bin/bash
.DEFAULT_GOAL := all

# The build directory, the flags, the core's archives and the kernel's
# files the project uses: scripts/Makefile.common, which every folder's
# Makefile includes too. The folders build and test their own parts; this
# file makes what several of them share, then hands over to them.
include scripts/Makefile.common

# Nothing below runs a program that `make deps` installs while this file is
# read: such values are recursive (= or ?=, never :=) and only recipes use
# them, so they see what deps installed. `make demo` and `make check` also
# run deps first and the rest in a sub-make. KVER ?= is recursive too.
SUBMAKE = $(MAKE) --no-print-directory BUILD=$(BUILD)

.PHONY: ynl all deps tools tools-san mpi module module-check selftests check-ksft check-vm check-rt check-debug soak check-hcubectl check-spec gen check-gen check-vm-dmesg demo demo-vm demo-plan check check-core check-style fuzz bench-core bench demo clean

## all: build the tools, libhcube-mpi, the Slurm plugin and the module (the default)
all: tools mpi spank module

## module: build hcube.ko against Debian's kernel headers (KVER, KDIR)
# The kernel module, against Debian's headers (KVER/KDIR), never `uname -r`.
module: hcube.ko

## hcube.ko: the module itself (what `make module` builds)
hcube.ko: $(MODULE_SRC)
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The module built with sparse (C=2: every file) and W=1: no warning allowed.
# It builds a copy of the sources in $(BUILD)/module-check: `make clean M=`
# in the tree would delete every .o under build/ too, under other checks
# that run beside this one (make -j check-host).
MODCHECK := $(BUILD)/module-check
## module-check: build the module with sparse (C=2) and W=1, and check its files for call cycles
module-check:
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	@rm -rf $(MODCHECK) && mkdir -p $(MODCHECK) && \
	tar cf - Kbuild $$(find module uapi -name '*.[ch]' -o -name '*.mk') | tar xf - -C $(MODCHECK)
	@out=$$($(MAKE) -s --no-print-directory -C $(KDIR) M=$(abspath $(MODCHECK)) C=2 W=1 modules 2>&1 | \
		grep -v "Skipping BTF generation" ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "ok module: sparse and W=1 clean"
	@echo "# module: no call cycle between the module's files"
	@scripts/check-cycles.py $$(ls $(MODCHECK)/module/*.o | grep -v '/hcube\.mod\.o$$')
	@echo "# module: the same in the build of make bench (HCUBE_BENCH_PHASES=y), W=1"
	@rm -rf $(MODCHECK)-bench && cp -r $(MODCHECK) $(MODCHECK)-bench && \
	find $(MODCHECK)-bench -name '*.o' -o -name '*.ko' -o -name '*.cmd' | xargs rm -f
	@out=$$($(MAKE) -s --no-print-directory -C $(KDIR) M=$(abspath $(MODCHECK)-bench) W=1 \
		HCUBE_BENCH_PHASES=y modules 2>&1 | grep -v "Skipping BTF generation" ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
	@scripts/check-cycles.py $$(ls $(MODCHECK)-bench/module/*.o | grep -v '/hcube\.mod\.o$$')

## deps: install the Debian packages the build and the tests need (idempotent)
deps:
	@scripts/deps.sh

## tools: build hcubectl and hcube-sim
# The tools (tools/hcube-sim/Makefile, tools/hcubectl/Makefile), plain and
# with ASan + UBSan. The core archive each links is made here first, so
# that no two sub-makes write the same object.
tools: $(BUILD)/hcube-sim $(BUILD)/hcubectl
## tools-san: build hcubectl and hcube-sim with ASan and UBSan
tools-san: $(BUILD)/hcube-sim-san $(BUILD)/hcubectl-san
$(BUILD)/hcube-sim: $(CORE_LIB)
$(BUILD)/hcube-sim-san: $(CORE_LIB_SAN)

## mpi: build libhcube-mpi
# libhcube-mpi (tools/hcube-mpi/Makefile): the archive, the shared library,
# the header, the experiment driver.
mpi: $(CORE_LIB)
	@$(SUBMAKE) -C tools/hcube-mpi all

# The build directory's files by their relative names too (make build/hcubectl),
# when it is below this directory.
ifneq ($(filter $(CURDIR)/%,$(BUILD)),)
$(patsubst $(CURDIR)/%,%,$(BUILD))/%: FORCE
	@$(MAKE) --no-print-directory $(BUILD)/$*
endif

## spank: build the Slurm SPANK plugin and libhcube
# The Slurm SPANK plugin (tools/hcube-spank, on tools/libhcube):
# $(BUILD)/hcube-spank/hcube.so.
.PHONY: spank check-spank check-slurm
spank:
	@$(SUBMAKE) -C tools/hcube-spank all

# What the host checks share, made before they run side by side (make -j).
SHARED := $(CORE_LIB) $(CORE_LIB_SAN) $(LSRC_STAMP) $(YNL_STAMP) tools tools-san mpi spank

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

## check-hcubectl: hcubectl without the module: usage, errors, extack, the fake kernel
# hcubectl without the module (selftests/hcubectl): usage, errors, extack
# parsing, and a fake kernel (LD_PRELOAD) whose plans come from the real core.
check-hcubectl: $(SHARED)
	@$(SUBMAKE) -C selftests/hcubectl check

## check-spank: the Slurm plugin without Slurm or the module, against hcubectl's fake kernel
# The SPANK plugin without Slurm or the module (selftests/spank): its
# arguments, the choice of vertices, the helper's credentials, libhcube
# and the registration against hcubectl's fake kernel.
check-spank: $(SHARED)
	@$(SUBMAKE) -C selftests/spank check

## check-slurm: the Slurm plugin in a VM with slurmd and the module
# The SPANK plugin with a real Slurm in the VM (selftests/slurm): munged,
# slurmctld and slurmd on one node of 8 CPUs and 2 NUMA nodes, task/cgroup
# with ConstrainCores=yes; 4 to 7 minutes under TCG, up to 15 when the
# host is loaded (HCUBE_SLURM_TIMEOUT, 1500 s, guards against a hang).
check-slurm: module tools spank
	@$(SUBMAKE) -C selftests/slurm all
	@KVER=$(KVER) selftests/slurm/check-slurm.sh $(BUILD)

## selftests: build the kernel selftests (selftests/hcube) into build/kselftest
# The kernel selftests (selftests/hcube/Makefile, on the kernel's lib.mk):
# built on the host and installed into $(BUILD)/kselftest, the tree that
# run_kselftest.sh runs inside the VM.
selftests: tools $(LSRC_STAMP) $(YNL_STAMP)
	$(MAKE) -C selftests/hcube BUILD=$(abspath $(BUILD)) OUTPUT=$(abspath $(BUILD))/selftests/hcube \
		install INSTALL_PATH=$(abspath $(BUILD))/kselftest

## check-ksft: the kernel selftests in VMs of each topology (VM_TOPOS)
# selftests/hcube's kselftest entry point: installed into a temporary
# directory, checked, and run by its run_kselftest.sh on the host and in a VM.
check-ksft: module selftests
	@KVER=$(KVER) scripts/checks/ksft/install_test.sh $(BUILD)

## check-vm: the module's VM suite on Debian's standard 6.1 kernel
# The VM tests on the three topologies (VM_TOPOS="8x2" to pick).
check-vm: module tools selftests
	KVER=$(KVER) scripts/vm/run-vm-tests.sh $(VM_TOPOS)

# The same on Debian's PREEMPT_RT kernel, with the module built for it from
# a copy of the sources (Kbuild writes its objects next to them).
RT_KVER ?= $(shell scripts/kver.sh rt-amd64 2>/dev/null)
RT_BUILD := $(BUILD)/rt

$(RT_BUILD)/hcube.ko: $(MODULE_SRC)
	@test -n "$(RT_KVER)" || { echo "no PREEMPT_RT kernel: run make deps"; exit 1; }
	scripts/build-module-for.sh $(RT_KVER) $(RT_BUILD)

## check-rt: the same suite on Debian's PREEMPT_RT 6.1 kernel
check-rt: $(RT_BUILD)/hcube.ko tools selftests
	KVER=$(RT_KVER) HCUBE_KO=$(RT_BUILD)/hcube.ko scripts/vm/run-vm-tests.sh $(VM_TOPOS)

# The suite, the stress and the fuzzer on two debug kernels (KASAN,
# lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_LIST), each
# built once and cached outside the repository (scripts/debug-kernel.sh):
# 6.1 from linux-source-6.1, and a PREEMPT_RT one from linux-source-6.12
# (where a probe that allocates or a spinlock section that sleeps splats).
# Then kmemleak must find nothing of hcube's. Not in `make check`: the first
# builds take about 15 minutes each, a run about 30 (HCUBE_VM_TIMEOUT,
# 3600 s; HCUBE_TESTS splits the suite between runs). check-debug-std and
# check-debug-rt run one of them.
DEBUG_TOPOS ?= 8x2
## check-debug: the suite on both debug kernels (KASAN, lockdep, PROVE_RCU); builds them once
.PHONY: check-debug-std check-debug-rt
check-debug: check-debug-std check-debug-rt
## check-debug-std: the suite on the 6.1 debug kernel only
check-debug-std: tools selftests
	@scripts/vm/check-debug.sh $(BUILD)/debug $(DEBUG_TOPOS)
## check-debug-rt: the suite on the PREEMPT_RT debug kernel only
check-debug-rt: tools selftests
	@scripts/vm/check-debug.sh --rt $(BUILD)/debug-rt $(DEBUG_TOPOS)

## soak: hours of faults, hotplug and churn in a VM (Documentation/reliability.md)
# The long run of issue 13 (Documentation/reliability.md): stress, the
# fuzzer, stress-ng jobs, CPU hotplug and faults for at least 30 minutes on
# the debug kernel and 30 on the standard one. Not in `make check`.
soak: module tools selftests
	selftests/soak/run-soak.sh

## bench: the module's benchmarks in VMs: tables in build/bench (never a test)
# The module's cost and effect, measured in the VM (tools/bench/Makefile,
# Documentation/performance.md). Not in `make check`.
bench: module
	@$(SUBMAKE) -C tools/bench run

# checkpatch --strict over every file that is compiled into the kernel.
KERNEL_C := $(wildcard module/*.c module/*.h module/core/*.c module/core/*.h uapi/linux/*.h) \
	    tools/bench/bare/hcube_bare.c

## check-style: checkpatch --strict on every file built into the kernel
check-style: $(LSRC_STAMP)
	@echo "# style: checkpatch --strict on $(words $(KERNEL_C)) files"
	@out=$$(perl $(CHECKPATCH) --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(KERNEL_C) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "ok style"

## check-tree: the repository's layout rules, and that `make help` lists every target
# No reference a reader of the repository cannot follow, in any tracked
# file: no paper cited by number, no path outside the repository or the
# system's folders (scripts/check-tree.py); then the check itself against
# planted lines (scripts/checks/tree).
.PHONY: check-tree
check-tree:
	@/usr/bin/python3 scripts/check-tree.py
	@scripts/checks/tree/help_test.sh
	@out=$$(scripts/checks/tree/check_tree_test.sh 2>&1) || { echo "$$out"; exit 1; }; \
	echo "$$out" | tail -1

# The kernel's kernel-doc (from linux-source-6.1) over the module's and the
# core's C: every /** comment well formed and matching its declaration.
# Any warning fails.
KDOC_C := $(wildcard module/*.c module/*.h module/core/*.c module/core/*.h)
## check-kernel-doc: kernel-doc over the module's and the core's C
.PHONY: check-kernel-doc
check-kernel-doc: $(LSRC_STAMP)
	@echo "# kernel-doc -none on $(words $(KDOC_C)) files"
	@out=$$(perl $(KERNEL_DOC) -none -Werror $(KDOC_C) 2>&1) && [ -z "$$out" ] || \
		{ echo "$$out"; echo "not ok kernel-doc"; exit 1; }; echo "ok kernel-doc"

## check-tool-cycles: no call cycle between the files of the tools
# The VM runner's splat scanner against clean boot logs and sample splats.
# The programs' files call each other in one direction only, as the
# module's (module-check) and the core's (check-core).
.PHONY: check-tool-cycles
check-tool-cycles:
	@scripts/check-tool-cycles.sh $(BUILD)

## check-vm-dmesg: the kernel log scanner against logs with and without splats
check-vm-dmesg:
	@out=$$(scripts/vm/check-dmesg-test.sh 2>&1) || { echo "$$out"; exit 1; }; \
	echo "$$out" | tail -1

## ynl: the kernel's YNL CLI, library and schemas, unpacked from linux-source-6.12
# The kernel's YNL CLI, library and schemas (scripts/Makefile.common).
ynl: $(YNL_STAMP)

## check-spec: the YNL spec against the genetlink-c schema and the kernel's YNL
# The YNL spec: against the uAPI header (names, values, enum members);
# against the rules of its protocol (our own check, and its self-test);
# read by the kernel's own YNL library with the kernel's schema.
check-spec: $(YNL_STAMP)
	@/usr/bin/python3 scripts/checks/spec/check_spec.py
	@/usr/bin/python3 scripts/checks/spec/check_schema.py
	@/usr/bin/python3 scripts/checks/spec/check_schema.py --selftest
	@/usr/bin/python3 scripts/checks/spec/check_kernel_ynl.py $(YNL)

# The files generated from the YNL spec (Documentation/netlink/hcube-ynl-gen.rst):
# `make gen` writes them, check-gen fails when the committed ones differ from
# a fresh generation.
GEN := uapi/linux/hcube.h module/hcube_nl_gen.h module/hcube_nl_gen.c module/hcube_nl_ops_gen.c \
       tools/hcubectl/names_gen.h tools/hcubectl/names_gen.c

## gen: regenerate the uAPI header and the family's code from the YNL spec
gen:
	@/usr/bin/python3 scripts/hcube-ynl-gen.py

## check-gen: the generated files are what `make gen` makes
check-gen:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	/usr/bin/python3 scripts/hcube-ynl-gen.py --out "$$tmp" && \
	for f in $(GEN); do \
		diff -u "$$f" "$$tmp/$$f" || { echo "not ok $$f differs from the spec: run 'make gen'"; exit 1; }; \
	done && echo "ok gen: $(words $(GEN)) files as generated from the spec"

# `make check`: the packages, then in sub-makes (which read this file after
# deps ran) the host checks, CHECK_JOBS at a time (each one's output printed
# whole when it ends: make -Otarget; any failure fails the run), then the
# ones that boot VMs, also CHECK_JOBS at a time. qemu's TCG runs a VM on
# one host core, so on 2 cores the PREEMPT_RT suite runs beside the
# standard kernel's DKMS, kselftest and suite VMs, which CHECK_VM_ORDER
# keeps in that order (DKMS installs into this host's /lib/modules, which
# the VMs see); check-guide, listed last, takes the core that frees first. What the checks share (module, tools, selftests) is built
# once, by the one make that runs them all, before any of them starts.
CHECK_HOST := check-gen check-style check-spec check-vm-dmesg check-core check-hcubectl \
	      check-sim check-mpi check-docs check-install check-deb-version module-check \
	      check-spank check-tree check-kernel-doc check-tool-cycles
CHECK_VM := check-dkms check-ksft check-vm check-rt check-slurm check-guide
CHECK_JOBS ?= 2
## check-host: every check that needs no VM, CHECK_JOBS at a time
.PHONY: check-host check-vms
check-host: $(CHECK_HOST)
## check-vms: every check that boots a VM, CHECK_JOBS at a time
check-vms: $(CHECK_VM)
ifeq ($(CHECK_VM_ORDER),1)
check-ksft: | check-dkms
check-vm: | check-ksft
endif

## check-quick: the host checks that take seconds to a few minutes (no VM, no MPI)
# The host checks a change is usually tried with first: minutes on 2
# cores. `make check` runs them too, with the rest.
CHECK_QUICK := check-gen check-style check-spec check-vm-dmesg check-core check-hcubectl \
	       check-docs check-deb-version check-tree check-tool-cycles
.PHONY: check-quick help
check-quick: $(CHECK_QUICK)

## help: this list
help:
	@awk '/^## [a-z]/ { sub(/^## /, ""); t = $$0; sub(/: .*/, "", t); \
		d = $$0; sub(/^[^:]*: /, "", d); printf "  %-18s %s\n", t, d }' $(MAKEFILE_LIST)

## check: every test: deps, then check-host, then check-vms (about 30 min)
check:
	@scripts/deps.sh
	$(MAKE) -j$(CHECK_JOBS) -Otarget check-host
	@echo "# the VM checks, $(CHECK_JOBS) at a time: each one's output when it ends"
	$(MAKE) -j$(CHECK_JOBS) -Otarget CHECK_VM_ORDER=1 check-vms

# hcube-sim's simulation of Nam et al. (1999), Section 6
# (Documentation/benchmarks.md): the full grid, the sensitivity runs and the
# plots; check-sim (selftests/sim) runs a reduced grid that asserts
# properties, with the plain and the ASan/UBSan build.
.PHONY: experiment check-sim

## experiment: hcube-sim's simulation of Nam et al. (1999): the full grid and plots
experiment: $(BUILD)/hcube-sim
	tools/hcube-sim/experiment.sh $(BUILD)/hcube-sim $(BUILD)/experiment Documentation/benchmarks

## experiment-sbn: the Poisson workloads of Das et al. (2002) for every policy (hcube-sim)
# The three Poisson workloads of Das et al. (2002) for every policy beside
# the paper's Figs. 9-11 (Documentation/benchmarks.md); about 2 s.
.PHONY: experiment-sbn
experiment-sbn: $(BUILD)/hcube-sim
	$(BUILD)/hcube-sim sbn --runs 10 --quiet --out $(BUILD)/sbn
	cp $(BUILD)/sbn/sbn.md Documentation/benchmarks/sbn.md

## check-sim: hcube-sim's tests and a reduced simulation grid
check-sim: $(SHARED)
	@$(SUBMAKE) -C selftests/sim check

## check-mpi: libhcube-mpi's tests on MPI ranks
# libhcube-mpi (tools/hcube-mpi, Documentation/mpi.md): its tests on real
# MPI ranks of this machine (36 to 62 s with the machine to themselves), and
# the workloads of Das et al. (2002) and Nam et al. (1999) on P = 2..32
# ranks and one call of each policy by count and by weight (not in `make
# check`).
.PHONY: check-mpi experiment-mpi
check-mpi: $(SHARED)
	@$(SUBMAKE) -C tools/hcube-mpi check

## experiment-mpi: libhcube-mpi against a user's greedy: the table of Documentation/mpi.md
experiment-mpi: $(SHARED)
	@$(SUBMAKE) -C tools/hcube-mpi experiment

## demo: the VM demo: deps, then a VM with the module and hcubectl (README)
# The main demonstration: the module in a VM balancing real processes with
# two faulty CPUs (demo-plan shows the planner alone, no VM).
# `make demo` installs the packages it needs first (scripts/deps-demo.list
# only: the rest, for the tests, is `make deps`), then builds and boots in a
# sub-make that reads this file afresh (also right under make -j).
demo:
	@scripts/deps.sh demo
	@$(MAKE) --no-print-directory demo-vm

## demo-vm: the VM demo alone, without deps
demo-vm: module $(BUILD)/hcubectl
	KVER=$(KVER) scripts/vm/run-vm.sh --cpus 8 --nodes 2 --timeout 600 -- scripts/demo-in-vm.sh

## demo-plan: a plan printed by hcube-sim, without a VM
demo-plan: tools
	@scripts/demo-plan.sh $(BUILD)/hcube-sim

## clean: remove what the build made
clean:
	rm -rf $(BUILD)
	@if [ -n "$(KVER)" ]; then $(MAKE) -s -C $(KDIR) M=$(CURDIR) clean; fi

# Installation: the tools, their man pages, hcubectl's bash completion,
# the uAPI header, libhcube-mpi (install-mpi: its header, archive, shared
# library and hcube-mpi.pc, under LIBDIR), the SPANK plugin (install-spank,
# under SPANK_DESTDIR, below) and the persistent set-up, under
# $(DESTDIR)$(PREFIX) (the
# unit and the udev rule under SYSTEMDUNITDIR and UDEVRULESDIR, the
# configuration under SYSCONFDIR); uninstall removes those files.
# The module is installed with DKMS (dkms.conf): dkms-src stages its sources.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The persistent set-up (hcubectl apply, issue 15): the configuration file,
# created only when absent; the systemd unit and the udev rule that runs it
# when the module loads; examples for modules-load.d and modprobe.d. The
# unit of hcubectl metrics (hcube-metrics.service), which the rule starts too.
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
	     $(SYSTEMDUNITDIR)/hcube-metrics.service \
	     $(UDEVRULESDIR)/60-hcube.rules $(DOCDIR)/hcube.conf.example \
	     $(DOCDIR)/modules-load.d-hcube.conf $(DOCDIR)/modprobe.d-hcube.conf

.PHONY: install install-tools install-mpi install-spank uninstall dkms-src check-install check-docs check-guide check-dkms deb check-deb check-deb-version

## install: install the tools, libhcube-mpi and the Slurm plugin (DESTDIR, PREFIX)
install: install-tools install-mpi install-spank

MPI_DIRS = DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)
## install-mpi: install libhcube-mpi with its header and pkg-config file
install-mpi: mpi
	@$(SUBMAKE) -C tools/hcube-mpi install $(MPI_DIRS)

# The SPANK plugin and its plugstack.conf line (an example in DOCDIR, or
# PLUGSTACKDIR/hcube.conf when given) go to SPANK_DESTDIR: debian/rules
# puts them in their own package.
SPANK_DESTDIR ?= $(DESTDIR)
SPANK_MAKE = $(MAKE) --no-print-directory -C tools/hcube-spank BUILD=$(BUILD) PREFIX=$(PREFIX) \
	     DOCDIR=$(DOCDIR) DESTDIR=$(SPANK_DESTDIR)
## install-spank: install the Slurm plugin
install-spank: spank
	+@$(SPANK_MAKE) install

## install-tools: install hcubectl, hcube-sim, their man pages and completion
install-tools: tools
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
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' tools/hcubectl/systemd/hcube-metrics.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/hcube-metrics.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/hcube-metrics.service
	install -D -m 644 tools/hcubectl/systemd/60-hcube.rules $(DESTDIR)$(UDEVRULESDIR)/60-hcube.rules
	install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(DOCDIR)/hcube.conf.example
	install -D -m 644 tools/hcubectl/systemd/modules-load.conf $(DESTDIR)$(DOCDIR)/modules-load.d-hcube.conf
	install -D -m 644 tools/hcubectl/systemd/modprobe.conf $(DESTDIR)$(DOCDIR)/modprobe.d-hcube.conf
	@if [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) exists: left as it is"; \
	else \
		install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); \
	fi

## uninstall: remove what install put in place
# The configuration file goes only when it is still the example.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@$(SUBMAKE) -C tools/hcube-mpi uninstall $(MPI_DIRS)
	@if cmp -s tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); then \
		rm -f $(DESTDIR)$(HCUBE_CONF); \
		rmdir $(DESTDIR)$(SYSCONFDIR)/hcube 2>/dev/null || true; \
	elif [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) was changed: left as it is"; \
	fi
	+@$(SPANK_MAKE) uninstall

# DKMS_DEST: where (debian/rules stages /usr/src/hcube-VERSION with it).
DKMS_DEST ?= $(BUILD)/dkms/hcube-$(DKMS_VERSION)
## dkms-src: the module's DKMS source tree
dkms-src:
	rm -rf $(DKMS_DEST)
	@for f in $(DKMS_FILES); do \
		install -D -m 644 $$f $(DKMS_DEST)/$$f || exit 1; done
	@echo "$(DKMS_DEST)"

## check-install: install into a temporary root and check what was installed
# install and uninstall into a temporary DESTDIR; the completion in bash.
check-install: tools mpi spank
	@$(SUBMAKE) -C selftests/hcubectl all
	@scripts/checks/install/install_test.sh $(BUILD)

## check-docs: the man pages, the admin guide and their agreement with the programs
# The man pages (groff -ww, man), the admin guide (docutils) and their
# agreement with the tools' --help and the module's sources.
check-docs: tools
	@/usr/bin/python3 scripts/checks/docs/check_docs.py $(BUILD)

## check-guide: the admin guide's real output, made again in a VM
# The admin guide's real output (its ".. hcube-output:" blocks) and
# hcubectl(8)'s example output against the program's, run in the VM by
# scripts/admin-session-in-vm.sh: two boots of 8 CPUs, about 20 s each
# (scripts/checks/docs/check-guide.sh, check_guide.py).
check-guide: module tools
	@KVER=$(KVER) scripts/checks/docs/check-guide.sh $(BUILD)

## check-dkms: the module built and installed through DKMS
# dkms add/build/install on this host (root), then modprobe in the VM; about
# 20 s. It refuses to touch an hcube that dkms already has.
check-dkms: dkms-src tools
	@KVER=$(KVER) scripts/checks/dkms/check-dkms.sh $(BUILD)

## check-fresh: `make demo` and `make check` in a fresh Debian chroot (root; not in check)
# The README's commands on a fresh Debian 12 (scripts/check-fresh.sh): a
# clean bookworm made with debootstrap, this repository's HEAD cloned into
# it, `make demo` and `make check` (FRESH_TARGETS) run in a chroot. Root
# only; not in `make check`.
.PHONY: check-fresh
check-fresh:
	scripts/check-fresh.sh

## deb: the Debian packages
# The Debian packages hcube-dkms, hcube-tools, libhcube-mpi1 and
# libhcube-mpi-dev (debian/), built with
# dpkg-buildpackage in a copy of the tree and checked with lintian; the
# .debs, .changes and lintian's report land in $(BUILD)/deb.
deb:
	@scripts/mkdeb.sh $(BUILD)/deb

## check-deb-version: the Debian packages' version agrees with the sources'
# debian/changelog's version against dkms.conf's PACKAGE_VERSION.
check-deb-version:
	@scripts/checks/deb/check-version-test.sh

## check-deb: the Debian packages installed, used and purged in a VM (not in check)
# Both packages installed with dpkg -i in the VM (a writable overlay over
# its root), DKMS builds the module there, modprobe, hcubectl, then
# dpkg --purge must leave nothing behind. Not in `make check`: DKMS
# compiles the module under TCG (the VM may take up to HCUBE_DEB_TIMEOUT,
# 2400 s).
check-deb: deb
	@KVER=$(KVER) scripts/checks/deb/check-deb.sh $(BUILD)/deb
