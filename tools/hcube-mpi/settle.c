// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the settle that ends a balance by weight, and a balance by
 * count whose policy would have raised the maximum. A policy moves whole
 * units where it planned amounts of weight, and some policies do not
 * balance in one call at all (DEM on a faulty cube, SBN): the settle
 * brings every component of healthy ranks as close to the best split as
 * moves and exchanges of whole units allow.
 *
 * A round: one all-gather of every rank's weight, what it knows of its
 * lightest unit and whether an exchange of its failed; the core's
 * hcube_settle_round() pairs the ranks of each component, the i-th
 * heaviest with the i-th lightest, and the heavier sends the lighter
 * about half their difference, less than the whole (pack_weight(),
 * directly: MPI joins every pair; a message even when it finds no unit
 * light enough, so the partner knows). A rank that found none knows its
 * lightest unit is heavier than twice what it was asked, and says so next
 * round. Each round that moves lowers the sum of the squared weights.
 *
 * When no pair may move, a component's heaviest rank may hold only units
 * about as heavy as its distance d to the lightest, or heavier: moving
 * one would make the lightest the heavier. Then the two exchange
 * (exchange()); of ranks as heavy, the one of fewest payload bytes per
 * weight (hcube_mpi_set_sizer(); the round's all-gather carries it) is
 * the heavier. The heavier sends one unit of weight t, the lighter
 * chooses from its own queue (before it takes the unit in) about t - d/2
 * of its units to send back, and does so only when both then end
 * strictly between their weights before; else it sends the unit back
 * untouched and the heavier says next round that its exchange failed
 * (heard until some weight moves again).
 * The sum of the squared weights falls again. The rounds end when no
 * pair may move or exchange (by count, every component within one unit);
 * HM_SETTLE_MAX bounds the rounds for a pack_weight() that does not keep
 * the rule.
 */
#include <stdlib.h>
#include "hm.h"

/*
 * The exchanges of a round: for each component whose heaviest rank @hi
 * holds units (not known to have failed an exchange since its queue last
 * changed) none of which a single move may send to the lightest @lo
 * (@least > 2a, a = (d - 1) / 2 >= 1), @xto[hi] = lo. Of ranks as heavy,
 * the one of fewest bytes per weight (@cost) gives. The same on every
 * rank. Returns their number.
 */
static u32 exchanges(u32 n, const u16 *comp, const u64 *load, const u64 *least,
		     const u64 *failed, const u64 *cost, u16 *hi, u16 *lo, u16 *xto)
{
	u32 r, c, nx = 0;

	for (r = 0; r < n; r++) {
		xto[r] = HCUBE_VERTEX_NONE;
		hi[r] = lo[r] = HCUBE_VERTEX_NONE;
	}
	for (r = 0; r < n; r++) {
		c = comp[r];
		if (c == HCUBE_COMP_NONE || c >= n)
			continue;
		if (hi[c] == HCUBE_VERTEX_NONE || load[r] > load[hi[c]] ||
		    (load[r] == load[hi[c]] && cost[r] < cost[hi[c]]))
			hi[c] = (u16)r;
		if (lo[c] == HCUBE_VERTEX_NONE || load[r] <= load[lo[c]])
			lo[c] = (u16)r;
	}
	for (c = 0; c < n; c++) {
		u64 d, a;

		if (hi[c] == HCUBE_VERTEX_NONE)
			continue;
		d = load[hi[c]] - load[lo[c]];
		a = d ? (d - 1) >> 1 : 0;
		if (a < 1 || !least[hi[c]] || least[hi[c]] <= 2 * a || failed[hi[c]])
			continue;
		xto[hi[c]] = lo[c];
		nx++;
	}
	return nx;
}

/*
 * The heavier's side of an exchange with @lo, @d apart: a unit of weight t
 * (asked for d - 1, or half its heaviest unit @top if more, so that the
 * rule takes one whatever its weight), then what comes back. Returns true
 * when the exchange failed (nothing sent, or the unit came back).
 */
static bool exchange_send(struct hcube_mpi *h, u32 lo, u64 d, u64 top, u32 step)
{
	struct hm_pack p;
	struct hm_msg msg;
	bool failed;
	u64 sent;

	hm_pack_size(h, lo, d - 1 > (top + 1) / 2 ? d - 1 : (top + 1) / 2, &p);
	sent = hm_send_chosen(h, &p, HM_TAG_SETTLE, step);
	hm_recv(h, lo, HM_TAG_SETTLE, &msg);
	failed = !sent || msg.hdr.src == (u32)h->rank;
	hm_take(h, &msg);
	hm_msg_free(&msg);
	return failed;
}

/*
 * The lighter's side: the unit from @hi (@d apart) not taken in yet, about
 * t - d/2 chosen from this rank's own units to go back, sent when both
 * ranks then end strictly between their weights before (t - d < back < t),
 * else the unit goes back. Returns true when this rank's queue changed.
 */
static bool exchange_recv(struct hcube_mpi *h, u32 hi, u64 d, u32 step)
{
	/* ask least + (d - 1) >> shift[k]; 64: the least; 0: half the least */
	static const u32 shift[] = { 1, 2, 3, 64, 0 };
	struct hm_pack p;
	struct hm_msg msg;
	u64 t, back;
	u32 k;
	bool ok;

	hm_recv(h, hi, HM_TAG_SETTLE, &msg);
	t = msg.hdr.weight;
	if (!msg.hdr.units || t < d) {
		/* nothing, or a unit this rank keeps as a single move's */
		hm_send_step(h, hi, HM_TAG_SETTLE, NULL, 0, 0, step);
		hm_take(h, &msg);
		hm_msg_free(&msg);
		return msg.hdr.units;
	}
	/*
	 * What the application's order takes may overshoot the weight asked
	 * for by up to that much: ask for less, down to about half the least
	 * that may come back, until it fits (choosing takes nothing).
	 */
	for (k = 0, ok = false; !ok && k < sizeof(shift) / sizeof(*shift); k++) {
		u64 least_back = t - d + 1;	/* t >= d here */
		u64 b = !shift[k] ? least_back / 2 :
			shift[k] < 64 ? least_back + ((d - 1) >> shift[k]) : least_back;

		hm_pack_size(h, hi, b ? b : 1, &p);
		back = p.t.taken;
		ok = back < t && t - back < d;
		/* units of 0 bytes are taken at the first call: they go */
		if (!p.need && p.t.units)
			break;
	}
	if (ok || (!p.need && p.t.units)) {
		hm_send_chosen(h, &p, HM_TAG_SETTLE, step);
		hm_take(h, &msg);
	} else {
		hm_bounce(h, &msg, step);
	}
	hm_msg_free(&msg);
	return ok || (!p.need && p.t.units);
}

/*
 * This rank's payload bytes per weight, scaled by 2^16, from the sizer;
 * UINT64_MAX (the dearest) without one or without weight.
 */
static u64 bytes_per_weight(struct hcube_mpi *h, u64 weight)
{
	unsigned __int128 c;

	if (!h->sizer || !h->by_weight || !weight)
		return UINT64_MAX;
	c = ((unsigned __int128)h->sizer(h->queue) << 16) / weight;
	return c < UINT64_MAX ? (u64)c : UINT64_MAX - 1;
}

void hm_settle(struct hcube_mpi *h, u32 first_step)
{
	u32 n = (u32)h->size, me = (u32)h->rank, round, r;
	u64 *all = hm_alloc(h, (size_t)n * 4 * sizeof(u64)), mine[4], top;
	u64 *load = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *least = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *failed = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *ask = hm_alloc(h, (size_t)n * sizeof(u64));
	u64 *cost = hm_alloc(h, (size_t)n * sizeof(u64));
	u16 *comp = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *order = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *to = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *hi = hm_alloc(h, (size_t)n * sizeof(u16));
	u16 *lo = hm_alloc(h, (size_t)n * sizeof(u16));
	u64 floor_mine = 1;	/* this rank's lightest unit weighs at least this */
	u64 failed_mine = 0;	/* its last exchange failed, its queue unchanged since */

	for (r = 0; r < n; r++)
		comp[r] = hm_healthy(h, r) ? h->comp[r] : HCUBE_COMP_NONE;
	for (round = 0;; round++) {
		u32 from = HCUBE_VERTEX_NONE, step = first_step + round + 1;
		bool swap = false, changed;
		struct hm_msg msg;

		mine[0] = hm_load(h, &top);
		/* a rank of units that weigh nothing has none worth moving */
		mine[1] = mine[0] ? floor_mine : 0;
		mine[2] = failed_mine;
		mine[3] = bytes_per_weight(h, mine[0]);
		MPI_Allgather(mine, 4, MPI_UINT64_T, all, 4, MPI_UINT64_T, h->comm);
		h->rep.collectives++;
		/* an exchange that failed may go through once any weight moved */
		for (r = 0; r < n && round; r++)
			if (load[r] != all[4 * r])
				break;
		changed = !round || r < n;
		for (r = 0; r < n; r++) {
			load[r] = all[4 * r];
			least[r] = all[4 * r + 1];
			failed[r] = changed ? 0 : all[4 * r + 2];
			cost[r] = all[4 * r + 3];
		}
		if (!round)
			h->rep.policy_weight_imbalance = hm_imbalance(h, all, 4);
		if (!hcube_settle_round(n, comp, load, least, !h->by_weight, order,
					to, ask)) {
			/* no single move: an exchange, by weight only */
			if (!h->by_weight ||
			    !exchanges(n, comp, load, least, failed, cost, hi, lo, to)) {
				h->rep.settled = 1;
				break;
			}
			swap = true;
		}
		if (round == HM_SETTLE_MAX)
			break;
		h->rep.settle_rounds++;
		for (r = 0; r < n; r++)
			if (to[r] == me)
				from = r;
		if (swap && to[me] != HCUBE_VERTEX_NONE) {
			failed_mine = exchange_send(h, to[me], load[me] - load[to[me]],
						    top, step);
			if (!failed_mine)
				floor_mine = 1;
		} else if (swap && from != HCUBE_VERTEX_NONE) {
			if (exchange_recv(h, from, load[from] - load[me], step)) {
				floor_mine = 1;
				failed_mine = 0;
			}
		} else if (to[me] != HCUBE_VERTEX_NONE) {
			u64 sent = hm_send_step(h, to[me], HM_TAG_SETTLE, NULL, 0,
						ask[me], step);

			if (!sent)
				floor_mine = 2 * ask[me] + 1;
		} else if (from != HCUBE_VERTEX_NONE) {
			hm_recv(h, from, HM_TAG_SETTLE, &msg);
			if (hm_take(h, &msg)) {
				floor_mine = 1;
				failed_mine = 0;
			}
			hm_msg_free(&msg);
		}
	}
	free(all);
	free(load);
	free(least);
	free(failed);
	free(ask);
	free(cost);
	free(comp);
	free(order);
	free(to);
	free(hi);
	free(lo);
}
