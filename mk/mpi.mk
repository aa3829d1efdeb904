# SPDX-License-Identifier: GPL-2.0
# libhcube-mpi (tools/hcube-mpi, Documentation/mpi.md): its build, its tests
# on MPI ranks (check-mpi) and its experiment (experiment-mpi).

.PHONY: mpi check-mpi experiment-mpi

## mpi: build libhcube-mpi
# libhcube-mpi (tools/hcube-mpi/Makefile): the archive, the shared library,
# the header, the experiment driver.
mpi: $(CORE_LIB)
	@$(SUBMAKE) -C tools/hcube-mpi all

## check-mpi: libhcube-mpi's tests on MPI ranks
# libhcube-mpi (tools/hcube-mpi, Documentation/mpi.md): its tests on real
# MPI ranks of this machine (36 to 62 s with the machine to themselves), and
# the workloads of Das et al. (2002) and Nam et al. (1999) on P = 2..32
# ranks and one call of each policy by count and by weight (not in `make
# check`).
check-mpi: $(SHARED)
	@$(SUBMAKE) -C tools/hcube-mpi check

## experiment-mpi: libhcube-mpi against a user's greedy: the table of Documentation/mpi.md
experiment-mpi: $(SHARED)
	@$(SUBMAKE) -C tools/hcube-mpi experiment
