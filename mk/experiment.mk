# SPDX-License-Identifier: GPL-2.0
# hcube-sim's simulations of the papers (Documentation/benchmarks.md): the
# grid of Nam et al. (experiment), Das et al.'s workloads, and check-sim.

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
