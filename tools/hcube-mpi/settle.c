// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the settle that ends a balance by weight, and a balance by
 * count whose policy would have raised the maximum. A policy moves whole
 * units where it planned amounts of weight, and some policies do not
 * balance in one call at all (DEM on a faulty cube, SBN): the settle
 * brings every component of healthy ranks as close to the best split as
 * single moves of whole units allow.
 *
 * A round: one all-gather of every rank's weight and what it knows of its
 * lightest unit; the core's hcube_settle_round() pairs the ranks of each
 * component, the i-th heaviest with the i-th lightest, and the heavier
 * sends the lighter about half their difference, less than the whole
 * (pack_weight(), directly: MPI joins every pair; a message even when it
 * finds no unit light enough, so the partner knows). A rank that found
 * none knows its lightest unit is heavier than twice what it was asked,
 * and says so next round. The rounds end when no pair may move: then the
 * heaviest rank of each component holds no unit lighter than its distance
 * to the lightest less one, and max <= avg + that unit + 1 (by count,
 * every component within one unit). Each round that moves lowers the sum
 * of the squared weights; HM_SETTLE_MAX bounds the rounds for a
 * pack_weight() that does not keep the rule.
 */
#include <stdlib.h>
#include "hm.h"

void hm_settle(struct hcube_mpi *h, u32 first_step)
{
	u32 n = (u32)h->size, me = (u32)h->rank, round, r;
	u64 *all = hm_alloc(h, (size_t)n * 2 * sizeof(u64)), mine[2], top;
	u64 *load = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *least = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *ask = hm_alloc(h, (size_t)n * sizeof(u64));
	u16 *comp = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *order = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *to = hm_alloc(h, (size_t)n * sizeof(u16));
	u64 floor_mine = 1;	/* this rank's lightest unit weighs at least this */

	for (r = 0; r < n; r++)
		comp[r] = hm_healthy(h, r) ? h->comp[r] : HCUBE_COMP_NONE;
	for (round = 0;; round++) {
		u32 from = HCUBE_VERTEX_NONE;
		struct hm_msg msg;

		mine[0] = hm_load(h, &top);
		/* a rank of units that weigh nothing has none worth moving */
		mine[1] = mine[0] ? floor_mine : 0;
		MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, h->comm);
		h->rep.collectives++;
		for (r = 0; r < n; r++) {
			load[r] = all[2 * r];
			least[r] = all[2 * r + 1];
		}
		if (!round)
			h->rep.policy_weight_imbalance = hm_imbalance(h, all, 2);
		if (!hcube_settle_round(n, comp, load, least, !h->by_weight, order,
					to, ask)) {
			h->rep.settled = 1;
			break;
		}
		if (round == HM_SETTLE_MAX)
			break;
		h->rep.settle_rounds++;
		for (r = 0; r < n; r++)
			if (to[r] == me)
				from = r;
		if (to[me] != HCUBE_VERTEX_NONE) {
			u64 sent = hm_send_step(h, to[me], HM_TAG_SETTLE, NULL, 0,
						ask[me], first_step + round + 1);

			if (!sent)
				floor_mine = 2 * ask[me] + 1;
		} else if (from != HCUBE_VERTEX_NONE) {
			hm_recv(h, from, HM_TAG_SETTLE, &msg);
			if (hm_take(h, &msg))
				floor_mine = 1;
			hm_msg_free(&msg);
		}
	}
	free(all);
	free(load);
	free(least);
	free(ask);
	free(comp);
	free(order);
	free(to);
}
