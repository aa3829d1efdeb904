// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the plan builder, below every policy.
 *
 * A policy writes its transfers with hcube_plan_emit() between
 * hcube_plan_start() and hcube_plan_finish(); finishing replays the plan,
 * checking every rule of a plan rather than assuming it, and takes its
 * statistics and its imbalance. Nothing here knows any policy.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

u32 hcube_plan_max_transfers(u32 dim)
{
	u32 n = 1U << dim;

	/*
	 * DEM: at most one transfer per pair and dimension, dim * n / 2.
	 * MCWA: one per tree edge (< n) plus one per C_b pair and dimension.
	 * RID, SID: at most one per vertex and neighbour, dim * n. optimal:
	 * one per edge. SBN: at most three logical transfers per vertex, of
	 * two hops each when no vertex is faulty. The rest is room for
	 * routes around faulty vertices; a plan that needs more fails with
	 * HCUBE_E_PLAN_SIZE.
	 */
	return dim * n + 8 * n;
}

size_t hcube_plan_memsize(u32 dim)
{
	if (dim > HCUBE_MAX_DIM)
		return 0;
	return hcube_align(hcube_plan_max_transfers(dim) *
			   sizeof(struct hcube_transfer)) +
	       hcube_align(((size_t)1 << dim) * sizeof(u32));
}

void hcube_plan_start(struct hcube_plan *p, u32 policy)
{
	p->policy = policy;
	p->applied = policy;
	p->root = HCUBE_VERTEX_NONE;
	p->stopped_short = false;
	p->work_done = 0;
	p->ntransfers = 0;
	p->nsteps = 0;
	p->stats.comm_steps = 0;
	p->stats.messages = 0;
	p->stats.job_messages = 0;
	p->stats.contended = 0;
	p->stats.imbalance = 0;
}

int hcube_plan_init(struct hcube_plan *p, u32 dim, void *mem)
{
	struct hcube_carver c = { .pos = mem };

	if (dim > HCUBE_MAX_DIM)
		return HCUBE_E_DIM;
	p->dim = dim;
	p->budget = HCUBE_AUTO_BUDGET;
	p->cap = hcube_plan_max_transfers(dim);
	p->transfers = hcube_carve(&c, p->cap * sizeof(*p->transfers));
	p->after = hcube_carve(&c, ((size_t)1 << dim) * sizeof(*p->after));
	p->observer = NULL;
	p->whole = false;
	hcube_plan_start(p, HCUBE_POLICY_MCWA);
	return HCUBE_OK;
}

int hcube_plan_emit(struct hcube_plan *p, u32 step, u32 from, u32 to, u32 count)
{
	struct hcube_transfer *x;

	if (!count)
		return HCUBE_OK;
	if (p->ntransfers >= p->cap)
		return HCUBE_E_PLAN_SIZE;
	x = &p->transfers[p->ntransfers++];
	x->step = step;
	x->from = from;
	x->to = to;
	x->reserved = 0;
	x->count = count;
	return HCUBE_OK;
}

/* Replay the plan: every rule of a plan is checked here, not assumed. */
static int plan_replay(struct hcube_plan *p, const struct hcube_cube *cube)
{
	u32 n = 1U << cube->dim;
	u32 i, v, last = 0;

	for (v = 0; v < n; v++)
		p->after[v] = cube->load[v];
	p->stats.migrations = 0;
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];

		if (x->from >= n || x->to >= n ||
		    !is_power_of_2(x->from ^ x->to) ||
		    !hcube_usable(cube->state[x->from]) ||
		    !hcube_usable(cube->state[x->to]) ||
		    !x->count || x->count > p->after[x->from] || !x->step ||
		    x->step < last || x->step > p->nsteps)
			return HCUBE_E_INTERNAL;
		last = x->step;
		p->after[x->from] -= x->count;
		p->after[x->to] += x->count;
		p->stats.migrations += x->count;
	}
	return HCUBE_OK;
}

static u32 ratio_milli(u32 max, u32 nv, u32 total)
{
	if (!total)
		return 1000;
	return (u32)div64_u64((u64)max * nv * 1000, total);
}

void hcube_stats_loads(struct hcube_stats *s, u32 dim, const u8 *state,
		       const u32 *before, const u32 *after)
{
	u32 n = 1U << dim;
	u32 v, total = 0;

	s->nvertices = 0;
	s->before_max = 0;
	s->after_max = 0;
	s->before_min = ~0U;
	s->after_min = ~0U;
	for (v = 0; v < n; v++) {
		if (!hcube_usable(state[v]))
			continue;
		s->nvertices++;
		total += before[v];
		if (before[v] > s->before_max)
			s->before_max = before[v];
		if (before[v] < s->before_min)
			s->before_min = before[v];
		if (after[v] > s->after_max)
			s->after_max = after[v];
		if (after[v] < s->after_min)
			s->after_min = after[v];
	}
	if (!s->nvertices) {
		s->before_min = 0;
		s->after_min = 0;
	}
	s->total = total;
	s->before_ratio_milli = ratio_milli(s->before_max, s->nvertices, total);
	s->after_ratio_milli = ratio_milli(s->after_max, s->nvertices, total);
}

int hcube_plan_finish(struct hcube_plan *p, const struct hcube_cube *cube,
		      void *work)
{
	u32 n = 1U << cube->dim, v;
	int err;

	err = plan_replay(p, cube);
	if (err)
		return err;
	p->stats.transfers = p->ntransfers;
	p->stats.moved_tasks = 0;
	for (v = 0; v < n; v++)
		if (cube->load[v] > p->after[v])
			p->stats.moved_tasks += cube->load[v] - p->after[v];
	hcube_stats_loads(&p->stats, cube->dim, cube->state, cube->load,
			  p->after);
	p->stats.imbalance = hcube_imbalance(cube->dim, cube->state, p->after,
					     work);
	return HCUBE_OK;
}

size_t hcube_plan_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	/* hcube_imbalance(): components, their sizes, the queue, totals */
	return 3 * hcube_align(n * sizeof(u16)) + hcube_align(n * sizeof(u32));
}

u32 hcube_imbalance(u32 dim, const u8 *state, const u32 *after, void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t nn = (size_t)1 << dim;
	u16 *comp = hcube_carve(&c, nn * sizeof(u16));
	u16 *size = hcube_carve(&c, nn * sizeof(u16));
	u16 *queue = hcube_carve(&c, nn * sizeof(u16));
	u32 *total = hcube_carve(&c, nn * sizeof(u32));
	u32 n = 1U << dim, v, nc, imb = 0;

	nc = hcube_components(dim, state, comp, size, queue);
	for (v = 0; v < nc; v++)
		total[v] = 0;
	for (v = 0; v < n; v++)
		if (comp[v] != HCUBE_COMP_NONE)
			total[comp[v]] += after[v];
	for (v = 0; v < n; v++) {
		u32 lo, hi;

		if (comp[v] == HCUBE_COMP_NONE)
			continue;
		lo = total[comp[v]] / size[comp[v]];
		hi = lo + (total[comp[v]] % size[comp[v]] ? 1 : 0);
		if (after[v] > hi)
			imb += after[v] - hi;
		else if (after[v] < lo)
			imb += lo - after[v];
	}
	return imb;
}
