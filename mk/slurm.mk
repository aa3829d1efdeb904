# SPDX-License-Identifier: GPL-2.0
# The Slurm SPANK plugin (tools/hcube-spank, on tools/libhcube): its build,
# its host check without Slurm (check-spank) and its VM check (check-slurm).

.PHONY: spank check-spank check-slurm

## spank: build the Slurm SPANK plugin and libhcube
# The Slurm SPANK plugin (tools/hcube-spank, on tools/libhcube):
# $(BUILD)/hcube-spank/hcube.so.
spank:
	@$(SUBMAKE) -C tools/hcube-spank all

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
