/* SPDX-License-Identifier: GPL-2.0 */
/* mpi_test's parts: by count (mpi_test.c), by weight, the API. */
#ifndef MPI_TEST_H
#define MPI_TEST_H

#include "tq.h"

/* max / avg of @load over the ranks, avg over @healthy: the report's. */
double imbalance_of(const u64 *load, u32 healthy);
u32 healthy_in(const struct scen *s);

/* weight_test.c */
void run_weights(struct hcube_mpi *hw, const struct scen *s, u32 idx, u32 pol);
void weight_coverage(void);

/* api_test.c */
void api_tests(struct hcube_mpi *h, struct hcube_mpi *hw);

#endif
