#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The planner on Example 2 of Nam et al. (1999): a 4-cube with four faulty
# vertices, planned with MCWA and with DEM.
set -euo pipefail
SIM=${1:-build/hcube-sim}
ARGS=(--dim 4 --loads 6,2,4,20,4,0,0,10,0,10,0,5,15,12,14,18 --faulty 5,6,8,10)
echo "\$ hcube-sim plan ${ARGS[*]}"
"$SIM" plan "${ARGS[@]}"
echo
echo "\$ hcube-sim plan ${ARGS[*]} --policy dem"
"$SIM" plan "${ARGS[@]}" --policy dem
