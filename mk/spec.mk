# SPDX-License-Identifier: GPL-2.0
# The YNL spec (Documentation/netlink/specs/hcube.yaml): the kernel's YNL
# (ynl), the spec's checks (check-spec), the files made from it (gen, check-gen).

.PHONY: ynl check-spec gen check-gen

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
