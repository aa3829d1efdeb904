# SPDX-License-Identifier: GPL-2.0
# The lists that `make check` runs (check-host, check-vms) and the checks of
# the sources as text: checkpatch, kernel-doc, the tree's layout rules.

.PHONY: check-host check-vms check-style check-tree check-kernel-doc

# The checks `make check` runs: the host checks, CHECK_JOBS at a time, then
# the ones that boot VMs, also CHECK_JOBS at a time (see `check` in the top
# Makefile for why CHECK_VM_ORDER orders three of them).
CHECK_HOST := check-gen check-style check-spec check-vm-dmesg check-core check-hcubectl \
	      check-sim check-mpi check-docs check-install check-deb-version module-check \
	      check-spank check-tree check-kernel-doc check-tool-cycles
CHECK_VM := check-dkms check-ksft check-vm check-rt check-slurm check-guide
## check-host: every check that needs no VM, CHECK_JOBS at a time
check-host: $(CHECK_HOST)
## check-vms: every check that boots a VM, CHECK_JOBS at a time
check-vms: $(CHECK_VM)
ifeq ($(CHECK_VM_ORDER),1)
check-ksft: | check-dkms
check-vm: | check-ksft
endif

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
check-kernel-doc: $(LSRC_STAMP)
	@echo "# kernel-doc -none on $(words $(KDOC_C)) files"
	@out=$$(perl $(KERNEL_DOC) -none -Werror $(KDOC_C) 2>&1) && [ -z "$$out" ] || \
		{ echo "$$out"; echo "not ok kernel-doc"; exit 1; }; echo "ok kernel-doc"
