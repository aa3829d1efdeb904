// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the settle that ends a balance by weight. A policy moves
 * whole units where it planned amounts of weight, and some policies do
 * not balance in one call at all (DEM on a faulty cube, SBN): the settle
 * brings every component of healthy ranks within the bound.
 *
 * A round: one all-gather of every rank's weight and heaviest unit; in
 * each component (U its heaviest unit), the ranks sorted by weight, the
 * i-th heaviest and the i-th lightest pair up while they differ by more
 * than U + 1, and the heavier sends the lighter half the difference
 * (pack_weight(), directly: MPI joins every pair). The rounds end when
 * no pair is left: then max - min <= U + 1 in every component, which
 * puts every rank within U of the component's average rounded
 * (Documentation/mpi.md). With pack_weight() keeping its rule, a pair
 * ends at most U + 1 apart, so every round lowers the sum of squared
 * weights and the rounds end; HM_SETTLE_MAX bounds them for a
 * pack_weight() that does not.
 */
#include <stdlib.h>
#include "hm.h"

struct member {
	u32 comp, rank;
	u64 w;
};

static int by_comp_weight(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->comp != y->comp)
		return x->comp < y->comp ? -1 : 1;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->rank < y->rank ? -1 : 1;
}

/*
 * This round's partner of this rank and the amount, from every rank's
 * (weight, heaviest) in @all; returns the pairs in all components.
 */
static u32 pairs(struct hcube_mpi *h, const u64 *all, struct member *m,
		 u32 *to, u32 *from, u64 *ask)
{
	u32 n = 0, i, j, first, npairs = 0, me = (u32)h->rank;

	for (i = 0; i < (u32)h->size; i++)
		if (hm_healthy(h, i))
			m[n++] = (struct member){ h->comp[i], i, all[2 * i] };
	qsort(m, n, sizeof(*m), by_comp_weight);
	for (first = 0; first < n; first = j) {
		u64 top = 0;

		for (j = first; j < n && m[j].comp == m[first].comp; j++)
			if (all[2 * m[j].rank + 1] > top)
				top = all[2 * m[j].rank + 1];
		for (i = 0; i < (j - first) / 2; i++) {
			const struct member *hi = &m[first + i], *lo = &m[j - 1 - i];

			if (hi->w - lo->w <= top + 1)
				break;
			npairs++;
			if (hi->rank == me) {
				*to = lo->rank;
				*ask = (hi->w - lo->w) / 2;
			} else if (lo->rank == me) {
				*from = hi->rank;
			}
		}
	}
	return npairs;
}

void hm_settle(struct hcube_mpi *h, u32 first_step)
{
	u64 *all = hm_alloc(h, (size_t)h->size * 2 * sizeof(u64)), mine[2], ask = 0;
	struct member *m = hm_alloc(h, (size_t)h->size * sizeof(*m));
	u32 round;

	for (round = 0;; round++) {
		u32 to = HCUBE_VERTEX_NONE, from = HCUBE_VERTEX_NONE;
		struct hm_msg msg;

		mine[0] = hm_load(h, &mine[1]);
		MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, h->comm);
		h->rep.collectives++;
		if (!round)
			h->rep.policy_weight_imbalance = hm_imbalance(h, all, 2);
		if (!pairs(h, all, m, &to, &from, &ask)) {
			h->rep.settled = 1;
			break;
		}
		if (round == HM_SETTLE_MAX)
			break;
		h->rep.settle_rounds++;
		if (to != HCUBE_VERTEX_NONE) {
			hm_send_step(h, to, HM_TAG_SETTLE, NULL, 0, ask,
				     first_step + round + 1);
		} else if (from != HCUBE_VERTEX_NONE) {
			hm_recv(h, from, HM_TAG_SETTLE, &msg);
			hm_take(h, &msg);
			hm_msg_free(&msg);
		}
	}
	free(all);
	free(m);
}
