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

/*
 * The units @lo sends back for a task of demand @t from @hi, @dist apart:
 * b with t - dist < b < t, so that both end strictly between their loads
 * before (t > dist / 2 >= 1). Tried: the fill for the middle of that range, then for its
 * ends, then one task of a single demand. Returns b (0: none) and the
 * tasks in @take.
 */
static u32 demand_swap_back(const u32 *hlo, u32 t, u32 dist, u32 *take)
{
	u32 wants[3] = { t - dist / 2, t > dist ? t - dist + 1 : 1, t - 1 };
	u32 i, b, d;

	for (i = 0; i < 3; i++) {
		b = hcube_demand_fill(hlo, wants[i], take);
		if (b + dist > t && b < t)
			return b;
	}
	for (d = t - 1; d + dist > t && d >= 1; d--) {
		if (!hlo[d])
			continue;
		for (i = 0; i < HCUBE_DEMAND_HIST; i++)
			take[i] = 0;
		take[d] = 1;
		return d;
	}
	return 0;
}

/*
 * When no single move is left: in each component the heaviest vertex
 * gives one task, heaviest first, to the lightest vertex that can give
 * back tasks of fewer units so that both end strictly between their loads
 * before (demand_swap_back()). @order is the round's: the vertices by
 * component, heaviest first, then by label. Returns HCUBE_OK, or an error
 * of demand_move(); *@swapped counts the components that exchanged.
 */
static int demand_exchange(u32 n, const u16 *comp, const u64 *load, u32 *hist,
			   const u16 *order, u32 step,
			   struct hcube_demand_move *moves, u32 cap, u32 *nmoves,
			   u32 *swapped)
{
	u32 give[HCUBE_DEMAND_HIST], back[HCUBE_DEMAND_HIST];
	u32 m = 0, first, end, j, t, b, v;
	int err;

	for (v = 0; v < n; v++)
		m += comp[v] != HCUBE_COMP_NONE;
	*swapped = 0;
	for (first = 0; first < m; first = end) {
		u32 hi = order[first];
		const u32 *hh = hist + (size_t)hi * HCUBE_DEMAND_HIST;

		for (end = first; end < m && comp[order[end]] == comp[hi]; end++)
			;
		for (j = end - 1, b = 0; j > first && !b; j--) {
			u32 lo = order[j];
			u32 dist = (u32)(load[hi] - load[lo]);

			if (dist < 2)
				break;
			for (t = HCUBE_DEMAND_Q; t > dist / 2 && !b; t--) {
				if (!hh[t])
					continue;
				b = demand_swap_back(hist + (size_t)lo * HCUBE_DEMAND_HIST,
						     t, dist, back);
				if (!b)
					continue;
				for (v = 0; v < HCUBE_DEMAND_HIST; v++)
					give[v] = v == t;
				err = demand_move(hist, hi, lo, give, step, moves,
						  cap, nmoves);
				if (!err)
					err = demand_move(hist, lo, hi, back, step,
							  moves, cap, nmoves);
				if (err)
					return err;
				(*swapped)++;
			}
		}
	}
	return HCUBE_OK;
}

int hcube_demand_settle(u32 dim, const u8 *state, u32 *hist, u32 max_rounds,
			struct hcube_demand_move *moves, u32 cap, u32 *nmoves,
			u32 *rounds, void *work)
{
	struct hcube_carver c = { .pos = work };
	u32 n = 1U << dim, v, round;
	u64 *load, *least, *ask;
	u16 *comp, *order, *to, *queue;
	u32 take[HCUBE_DEMAND_HIST], swapped;
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
		if (!hcube_settle_round(n, comp, load, least, false, order, to, ask)) {
			/* no single move: an exchange, a round of its own */
			if (round == max_rounds)
				return HCUBE_E_BUDGET;
			err = demand_exchange(n, comp, load, hist, order, round + 1,
					      moves, cap, nmoves, &swapped);
			if (err || !swapped)
				return err;
			(*rounds)++;
			continue;
		}
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
