# SPDX-License-Identifier: GPL-2.0
# The balancing core's objects, relative to module/core/: the one list that
# Kbuild (the module) and the top-level Makefile (the tools) both include.
# From the bottom up: the cube and the plan builder, what the policies
# share, the policies (one file each, or one per paper), their registry;
# last the machine-check classifier (hcube_mca.h), pure C like the rest.
HCUBE_CORE_OBJS := hcube_cube.o hcube_plan.o hcube_topo.o hcube_route.o \
		   hcube_flow.o hcube_lplan.o hcube_aapc.o \
		   hcube_cwa.o hcube_dem.o hcube_opt.o hcube_diffuse.o \
		   hcube_sbn.o hcube_pebble.o hcube_settle.o hcube_demand.o \
		   hcube_policy.o hcube_mca.o
