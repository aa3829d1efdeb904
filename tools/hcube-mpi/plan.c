// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: the core's plans on every rank's load. One all-gather
 * gives every rank all the loads (units, or weights), and each rank
 * computes the same thing from them with the core: the module's
 * evacuation of the faulty ranks, the plan of a policy. The core counts
 * in 32 bits (2^31 - 1 tasks at most), so by weight it plans on the
 * weights shifted right until they fit; a planned amount is the core's
 * count shifted back.
 */
#include <stdlib.h>
#include <string.h>
#include "hm.h"

void hm_view_gather(struct hcube_mpi *h, struct hm_view *v)
{
	u64 mine[2] = { h->ops->count(h->queue), 0 }, *both, total = 0;
	u32 r;

	mine[1] = hm_load(h, NULL);
	both = hm_alloc(h, (size_t)h->size * sizeof(mine));
	MPI_Allgather(mine, 2, MPI_UINT64_T, both, 2, MPI_UINT64_T, h->comm);
	h->rep.collectives++;
	v->load = hm_alloc(h, h->nv * sizeof(u64));
	v->count = hm_alloc(h, h->nv * sizeof(u32));
	v->scaled = hm_alloc(h, h->nv * sizeof(u32));
	for (r = 0; r < (u32)h->size; r++) {
		v->count[r] = (u32)both[2 * r];
		v->load[r] = both[2 * r + 1];
		total += v->load[r];
	}
	free(both);
	/* room for the evacuation's one unit per faulty rank (below) */
	v->shift = 0;
	while ((total >> v->shift) > HCUBE_MAX_TOTAL_LOAD - HCUBE_MAX_VERTICES)
		v->shift++;
	for (r = 0; r < (u32)h->size; r++)
		v->scaled[r] = (u32)(v->load[r] >> v->shift);
}

void hm_view_free(struct hm_view *v)
{
	free(v->load);
	free(v->count);
	free(v->scaled);
}

static u64 unscale(const struct hcube_mpi *h, const struct hm_view *v, u32 n)
{
	return h->by_weight ? (u64)n << v->shift : n;
}

/*
 * Each faulty rank holding units, in label order, spreads them over the
 * healthy ranks nearest to it, least loaded first (hcube_evacuate()),
 * and the next one sees the loads that left; by weight a rank of units
 * that weigh nothing counts as one. @fn is told each move (@last: the
 * rank's final one); @v's scaled loads are the healthy ones after it.
 */
void hm_evac_plan(struct hcube_mpi *h, struct hm_view *v, hm_evac_fn fn)
{
	u32 *lh = hm_alloc(h, h->nv * sizeof(u32));
	u32 *out = hm_alloc(h, h->nv * sizeof(u32));
	u32 f, w, last;

	for (w = 0; w < h->nv; w++)
		lh[w] = hm_healthy(h, w) ? v->scaled[w] : 0;
	for (f = 0; f < (u32)h->size; f++) {
		u32 amount = h->by_weight && !v->scaled[f] ? 1 : v->scaled[f];

		if (hm_healthy(h, f) || !v->count[f])
			continue;
		memset(out, 0, h->nv * sizeof(u32));
		if (hcube_evacuate(h->dim, h->state, lh, f, amount, out))
			hm_fatal(h, "internal: no healthy rank to evacuate %u to", f);
		for (last = h->nv; last-- > 0 && !out[last];)
			;
		for (w = 0; w < h->nv; w++) {
			if (!out[w])
				continue;
			fn(h, f, w, unscale(h, v, out[w]), w == last);
			lh[w] += out[w];
		}
	}
	memcpy(v->scaled, lh, h->nv * sizeof(u32));
	free(lh);
	free(out);
}

/* ---- plan only: nothing moves, the transfers are logged ---- */

static void log_planned_evac(struct hcube_mpi *h, u32 from, u32 to, u64 amount,
			     bool last)
{
	u32 count = h->by_weight ? 0 : (u32)amount;

	(void)last;
	if (from == (u32)h->rank) {
		hm_grow(h, (void **)&h->ev, &h->capev, h->nev + 1, sizeof(*h->ev));
		h->ev[h->nev++] = (struct hcube_mpi_xfer){ 0, from, to, count, amount };
	}
	if (to == (u32)h->rank)
		hm_log(h, &h->recvd, 0, 0, 0, from, to, count, amount);
}

/* Build @policy's plan on @v's scaled loads into h->plan. */
static int plan_on(struct hcube_mpi *h, u32 policy, const struct hm_view *v)
{
	struct hcube_cube cube = { .dim = h->dim, .state = h->state, .load = v->scaled };
	int err;

	/* the ranks run Das et al.'s operation whole (hm_sbn()) */
	h->plan.whole = policy == HCUBE_POLICY_SBN;
	err = hcube_plan_build(&h->plan, policy, &cube, &h->topo, h->work);
	if (err)
		return hm_fail(h, HCUBE_MPI_E_INTERNAL,
			       "internal: the core's %s plan failed: %s",
			       hcube_policy_name(policy), hcube_strerror(err));
	return HCUBE_MPI_OK;
}

/* The planned steps as a balance would report them. */
static u32 plan_steps(const struct hcube_plan *p, u32 policy)
{
	switch (policy) {
	case HCUBE_POLICY_MCWA:
	case HCUBE_POLICY_CWA:
	case HCUBE_POLICY_DEM:
	case HCUBE_POLICY_SBN:
		return p->stats.comm_steps;
	default:
		return p->nsteps;
	}
}

/*
 * This rank's loads once the plan ran: its own minus what it sends, plus
 * what it receives (by weight the planned amounts; its number of units
 * stays the current one, the plan does not know it). A faulty rank ends
 * empty.
 */
static void planned_after(struct hcube_mpi *h)
{
	s64 c = h->rep.before, w = (s64)h->rep.weight_before;
	u32 i;

	for (i = 0; i < h->sent.n; i++) {
		c -= h->sent.l[i].count;
		w -= (s64)h->sent.l[i].weight;
	}
	for (i = 0; i < h->nev; i++) {
		c -= h->ev[i].count;
		w -= (s64)h->ev[i].weight;
	}
	for (i = 0; i < h->recvd.n; i++) {
		c += h->recvd.l[i].count;
		w += (s64)h->recvd.l[i].weight;
	}
	if (!hm_healthy(h, (u32)h->rank))
		c = w = 0;
	else if (h->by_weight)
		c = h->rep.before;
	h->planned = true;
	h->plan_after = c > 0 ? (u32)c : 0;
	h->plan_weight_after = w > 0 ? (u64)w : 0;
}

int hm_plan_only(struct hcube_mpi *h, u32 policy, struct hm_view *v)
{
	const struct hcube_plan *p = &h->plan;
	u32 me = (u32)h->rank, i;
	int err;

	hm_evac_plan(h, v, log_planned_evac);
	err = plan_on(h, policy, v);
	if (err)
		return err;
	h->rep.steps = plan_steps(p, policy);
	h->rep.applied = (int)p->applied;
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		u64 amount = unscale(h, v, x->count);
		u32 count = h->by_weight ? 0 : x->count;

		if (x->from == me)
			hm_log(h, &h->sent, 0, 0, x->step, x->from, x->to, count, amount);
		if (x->to == me)
			hm_log(h, &h->recvd, 0, 0, x->step, x->from, x->to, count, amount);
	}
	planned_after(h);
	/* by weight the plan says nothing of the units' number */
	for (i = 0; i < (u32)h->size; i++)
		v->load[i] = p->after[i];
	h->rep.weight_imbalance_after = hm_imbalance(h, v->load, 1);
	if (!h->by_weight)
		h->rep.imbalance_after = h->rep.weight_imbalance_after;
	return HCUBE_MPI_OK;
}

/*
 * The policies without a distributed form here (optimal, auto, rid, sid,
 * sbn-cube, sbn-heur, pebble): every rank plans with the core on the
 * gathered loads (the same plan everywhere, so a failure is agreed on
 * without a message), then carries out the transfers it takes part in,
 * in the plan's order, so a relay forwards units only after they reached
 * it.
 */
int hm_gathered(struct hcube_mpi *h, u32 policy)
{
	const struct hcube_plan *p = &h->plan;
	u32 me = (u32)h->rank, i;
	struct hm_view v;
	int err;

	hm_view_gather(h, &v);
	err = plan_on(h, policy, &v);
	if (err) {
		hm_view_free(&v);
		return err;
	}
	h->rep.steps = p->nsteps;
	h->rep.applied = (int)p->applied;
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		struct hm_msg m;

		if (x->from == me) {
			hm_give(h, x->to, HM_TAG_PLAN, NULL, 0, unscale(h, &v, x->count),
				x->step);
		} else if (x->to == me) {
			hm_recv(h, x->from, HM_TAG_PLAN, &m);
			hm_accept(h, &m, unscale(h, &v, x->count));
			hm_msg_free(&m);
		}
	}
	hm_view_free(&v);
	return HCUBE_MPI_OK;
}
