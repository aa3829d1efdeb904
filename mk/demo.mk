# SPDX-License-Identifier: GPL-2.0
# The demo's parts (`make demo` is in the top Makefile): the VM demo without
# deps (demo-vm) and a plan printed without a VM (demo-plan).

.PHONY: demo-vm demo-plan

## demo-vm: the VM demo alone, without deps
demo-vm: module $(BUILD)/hcubectl
	KVER=$(KVER) scripts/vm/run-vm.sh --cpus 8 --nodes 2 --timeout 600 -- scripts/demo-in-vm.sh

## demo-plan: a plan printed by hcube-sim, without a VM
demo-plan: tools
	@scripts/demo-plan.sh $(BUILD)/hcube-sim
