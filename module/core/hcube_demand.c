// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: balancing on demand units (hcube_core.h has the rules and
 * bounds; Documentation/core.md). A task's demand is its PELT
 * runnable_avg in whole quanta of a CPU, 0 .. HCUBE_DEMAND_Q; a vertex is
 * described by how many of its tasks have each demand (a histogram of
 * HCUBE_DEMAND_Q + 1 counters), its load is their sum. The policies plan
 * on those loads unchanged; here the transfers are filled with tasks,
 * heaviest first, and a settle of hcube_settle_round() rounds brings each
 * component as close to the best split as the tasks allow.
 *
 * Integers only, no allocation, no recursion: every loop is over the
 * HCUBE_DEMAND_Q + 1 demand classes or over the vertices.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

u32 hcube_demand_load(const u32 *hist)
{
	u32 d, sum = 0;

	for (d = 1; d <= HCUBE_DEMAND_Q; d++)
		sum += d * hist[d];
	return sum;
}

/* The lightest demand above 0 in @hist, or 0 when it has none. */
static u32 demand_lightest(const u32 *hist)
{
	u32 d;

	for (d = 1; d <= HCUBE_DEMAND_Q; d++)
		if (hist[d])
			return d;
	return 0;
}

u32 hcube_demand_fill(const u32 *hist, u32 want, u32 *take)
{
	u32 d, taken = 0;

	take[0] = 0;
	for (d = HCUBE_DEMAND_Q; d >= 1; d--) {
		u32 k = 0, r;

		/*
		 * A task of demand d goes while it weighs at most twice what
		 * is still missing, r = want - taken: the k-th of them when
		 * 2 (r - (k - 1) d) >= d, so k up to r / d rounded half up.
		 */
		if (taken < want) {
			r = want - taken;
			k = r / d + (2 * (r % d) >= d);
			if (k > hist[d])
				k = hist[d];
		}
		take[d] = k;
		taken += k * d;
	}
	return taken;
}

/* Move the tasks @take from @from to @to and record them; HCUBE_OK or HCUBE_E_PLAN_SIZE. */
static int demand_move(u32 *hist, u32 from, u32 to, const u32 *take, u32 step,
		       struct hcube_demand_move *moves, u32 cap, u32 *nmoves)
{
	u32 *hf = hist + (size_t)from * HCUBE_DEMAND_HIST;
	u32 *ht = hist + (size_t)to * HCUBE_DEMAND_HIST;
	u32 d;

	for (d = HCUBE_DEMAND_Q; d >= 1; d--) {
		if (!take[d])
			continue;
		if (*nmoves >= cap)
			return HCUBE_E_PLAN_SIZE;
		moves[*nmoves].step = (u16)step;
		moves[*nmoves].from = (u16)from;
		moves[*nmoves].to = (u16)to;
		moves[*nmoves].demand = (u16)d;
		moves[*nmoves].count = take[d];
		(*nmoves)++;
		hf[d] -= take[d];
		ht[d] += take[d];
	}
	return HCUBE_OK;
}

int hcube_demand_carry(const struct hcube_route *routes, u32 nroutes,
		       u32 *hist, struct hcube_demand_move *moves, u32 cap,
		       u32 *nmoves)
{
	u32 take[HCUBE_DEMAND_HIST];
	u32 i;
	int err;

	*nmoves = 0;
	for (i = 0; i < nroutes; i++) {
		const struct hcube_route *r = &routes[i];

		hcube_demand_fill(hist + (size_t)r->from * HCUBE_DEMAND_HIST,
				  r->count, take);
		err = demand_move(hist, r->from, r->to, take, 0, moves, cap, nmoves);
		if (err)
			return err;
	}
	return HCUBE_OK;
}

size_t hcube_demand_settle_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	return 3 * hcube_align(n * sizeof(u64)) + 4 * hcube_align(n * sizeof(u16));
}

int hcube_demand_settle(u32 dim, const u8 *state, u32 *hist, u32 max_rounds,
			struct hcube_demand_move *moves, u32 cap, u32 *nmoves,
			u32 *rounds, void *work)
{
	struct hcube_carver c = { .pos = work };
	u32 n = 1U << dim, v, round;
	u64 *load, *least, *ask;
	u16 *comp, *order, *to, *queue;
	u32 take[HCUBE_DEMAND_HIST];
	int err;

	*nmoves = 0;
	*rounds = 0;
	err = hcube_check_states(dim, state);
	if (err)
		return err;
	load = hcube_carve(&c, n * sizeof(u64));
	least = hcube_carve(&c, n * sizeof(u64));
	ask = hcube_carve(&c, n * sizeof(u64));
	comp = hcube_carve(&c, n * sizeof(u16));
	order = hcube_carve(&c, n * sizeof(u16));
	to = hcube_carve(&c, n * sizeof(u16));
	queue = hcube_carve(&c, n * sizeof(u16));
	hcube_components(dim, state, comp, NULL, queue);
	for (round = 0;; round++) {
		for (v = 0; v < n; v++) {
			const u32 *h = hist + (size_t)v * HCUBE_DEMAND_HIST;

			if (comp[v] == HCUBE_COMP_NONE)
				continue;
			load[v] = hcube_demand_load(h);
			/* exact: the settle holds the tasks themselves */
			least[v] = demand_lightest(h);
		}
		if (!hcube_settle_round(n, comp, load, least, false, order, to, ask))
			return HCUBE_OK;
		if (round == max_rounds)
			return HCUBE_E_BUDGET;
		(*rounds)++;
		for (v = 0; v < n; v++) {
			if (to[v] == HCUBE_VERTEX_NONE)
				continue;
			/* least[v] <= 2 * ask[v]: the fill takes one at least */
			hcube_demand_fill(hist + (size_t)v * HCUBE_DEMAND_HIST,
					  (u32)ask[v], take);
			err = demand_move(hist, v, to[v], take, round + 1, moves,
					  cap, nmoves);
			if (err)
				return err;
		}
	}
}
