# SPDX-License-Identifier: GPL-2.0
# The tools beyond `make tools`: their ASan + UBSan build, what each links,
# build/ files by their relative names, hcubectl's tests, the call-graph check.

.PHONY: tools-san check-hcubectl check-tool-cycles

## tools-san: build hcubectl and hcube-sim with ASan and UBSan
tools-san: $(BUILD)/hcube-sim-san $(BUILD)/hcubectl-san
$(BUILD)/hcube-sim: $(CORE_LIB)
$(BUILD)/hcube-sim-san: $(CORE_LIB_SAN)

# The build directory's files by their relative names too (make build/hcubectl),
# when it is below this directory.
ifneq ($(filter $(CURDIR)/%,$(BUILD)),)
$(patsubst $(CURDIR)/%,%,$(BUILD))/%: FORCE
	@$(MAKE) --no-print-directory $(BUILD)/$*
endif

## check-tool-cycles: no call cycle between the files of the tools
# The programs' files call each other in one direction only, as the
# module's (module-check) and the core's (check-core).
check-tool-cycles:
	@scripts/check-tool-cycles.sh $(BUILD)

## check-hcubectl: hcubectl without the module: usage, errors, extack, the fake kernel
# hcubectl without the module (selftests/hcubectl): usage, errors, extack
# parsing, and a fake kernel (LD_PRELOAD) whose plans come from the real core.
check-hcubectl: $(SHARED)
	@$(SUBMAKE) -C selftests/hcubectl check
