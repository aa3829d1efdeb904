# SPDX-License-Identifier: GPL-2.0
# The documentation's checks: the man pages and the admin guide against the
# programs (check-docs), and the guide's output made again in a VM (check-guide).

.PHONY: check-docs check-guide

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
