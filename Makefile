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

# What the host checks share, made before they run side by side (make -j).
SHARED := $(CORE_LIB) $(CORE_LIB_SAN) $(LSRC_STAMP) $(YNL_STAMP) tools tools-san mpi spank

# This file has the targets a reader starts from; the rest is in mk/, one
# file per purpose (Documentation/development.md lists them). `make help`
# lists every target, grouped by the file that defines it.
include mk/module.mk mk/tools.mk mk/mpi.mk mk/slurm.mk mk/core.mk mk/vm.mk \
	mk/checks.mk mk/spec.mk mk/docs.mk mk/install.mk mk/debian.mk mk/demo.mk \
	mk/experiment.mk

.PHONY: all module tools check-quick check install deb demo help clean

## all: build the tools, libhcube-mpi, the Slurm plugin and the module (the default)
all: tools mpi spank module

## module: build hcube.ko against Debian's kernel headers (KVER, KDIR)
# The kernel module, against Debian's headers (KVER/KDIR), never `uname -r`
# (hcube.ko and the module's checks: mk/module.mk).
module: hcube.ko

## tools: build hcubectl and hcube-sim
# The tools (tools/hcube-sim/Makefile, tools/hcubectl/Makefile), plain and
# with ASan + UBSan (tools-san, mk/tools.mk). The core archive each links is
# made here first, so that no two sub-makes write the same object.
tools: $(BUILD)/hcube-sim $(BUILD)/hcubectl

## check-quick: the host checks that take seconds to a few minutes (no VM, no MPI)
# The host checks a change is usually tried with first: minutes on 2
# cores. `make check` runs them too, with the rest.
CHECK_QUICK := check-gen check-style check-spec check-vm-dmesg check-core check-hcubectl \
	       check-docs check-deb-version check-tree check-tool-cycles
check-quick: $(CHECK_QUICK)

# `make check`: the packages, then in sub-makes (which read this file after
# deps ran) the host checks, CHECK_JOBS at a time (each one's output printed
# whole when it ends: make -Otarget; any failure fails the run), then the
# ones that boot VMs, also CHECK_JOBS at a time (the lists: CHECK_HOST and
# CHECK_VM, mk/checks.mk). qemu's TCG runs a VM on
# one host core, so on 2 cores the PREEMPT_RT suite runs beside the
# standard kernel's DKMS, kselftest and suite VMs, which CHECK_VM_ORDER
# keeps in that order (DKMS installs into this host's /lib/modules, which
# the VMs see); check-guide, listed last, takes the core that frees first. What the checks share (module, tools, selftests) is built
# once, by the one make that runs them all, before any of them starts.
CHECK_JOBS ?= 2
## check: every test: deps, then check-host, then check-vms (about 30 min)
check:
	@scripts/deps.sh
	$(MAKE) -j$(CHECK_JOBS) -Otarget check-host
	@echo "# the VM checks, $(CHECK_JOBS) at a time: each one's output when it ends"
	$(MAKE) -j$(CHECK_JOBS) -Otarget CHECK_VM_ORDER=1 check-vms

## install: install the tools, libhcube-mpi and the Slurm plugin (DESTDIR, PREFIX)
# The directories (PREFIX, DESTDIR, ...) and the parts: mk/install.mk.
install: install-tools install-mpi install-spank

## deb: the Debian packages
# The Debian packages hcube-dkms, hcube-tools, libhcube-mpi1 and
# libhcube-mpi-dev (debian/), built with
# dpkg-buildpackage in a copy of the tree and checked with lintian; the
# .debs, .changes and lintian's report land in $(BUILD)/deb.
deb:
	@scripts/mkdeb.sh $(BUILD)/deb

## demo: the VM demo: deps, then a VM with the module and hcubectl (README)
# The main demonstration: the module in a VM balancing real processes with
# two faulty CPUs (demo-plan shows the planner alone, no VM).
# `make demo` installs the packages it needs first (scripts/deps-demo.list
# only: the rest, for the tests, is `make deps`), then builds and boots in a
# sub-make that reads this file afresh (also right under make -j).
demo:
	@scripts/deps.sh demo
	@$(MAKE) --no-print-directory demo-vm

## help: this list
# Every "## target: what it does" line of this file and of mk/*.mk, under
# a heading per file (scripts/checks/tree/help_test.sh checks the list).
help:
	@awk 'FNR == 1 { head = FILENAME } /^## [a-z]/ { if (head != "") print head ":"; head = ""; \
		sub(/^## /, ""); t = $$0; sub(/: .*/, "", t); \
		d = $$0; sub(/^[^:]*: /, "", d); printf "  %-18s %s\n", t, d }' $(MAKEFILE_LIST)

## clean: remove what the build made
clean:
	rm -rf $(BUILD)
	@if [ -n "$(KVER)" ]; then $(MAKE) -s -C $(KDIR) M=$(CURDIR) clean; fi
