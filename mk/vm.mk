# SPDX-License-Identifier: GPL-2.0
# What boots VMs with the module (scripts/vm): the kernel selftests, the
# suite on the standard, PREEMPT_RT and debug kernels, soak, bench; the log scanner.

.PHONY: selftests check-ksft check-vm check-rt check-debug check-debug-std check-debug-rt \
	soak bench check-vm-dmesg

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
# 6.1 from linux-source-6.1, and 6.1 PREEMPT_RT from the same source with
# Debian's RT patches (where a probe that allocates or a spinlock section
# that sleeps splats).
# Then kmemleak must find nothing of hcube's. Not in `make check`: the first
# builds take about 15 minutes each, a run about 30 (HCUBE_VM_TIMEOUT,
# 3600 s; HCUBE_TESTS splits the suite between runs). check-debug-std and
# check-debug-rt run one of them.
DEBUG_TOPOS ?= 8x2
## check-debug: the suite on both debug kernels (KASAN, lockdep, PROVE_RCU); builds them once
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

## check-vm-dmesg: the kernel log scanner against logs with and without splats
# The VM runner's splat scanner against clean boot logs and sample splats.
check-vm-dmesg:
	@out=$$(scripts/vm/check-dmesg-test.sh 2>&1) || { echo "$$out"; exit 1; }; \
	echo "$$out" | tail -1
