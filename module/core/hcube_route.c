// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: from a plan to the moves that realise it, and evacuation.
 *
 * A plan may move a task several hops, and a vertex may send tasks in one
 * step and receive others later. Applying it moves each task once, straight
 * to its final vertex: the plan's edge flows are decomposed into paths from
 * vertices that lose tasks to vertices that gain them. Cycles in the flow
 * are cancelled, as they carry no net move. The paths' counts then sum to
 * the net number of tasks moved, and their lengths tell how far each task
 * goes along the plan's edges.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

struct route_work {
	u32 *flow;		/* flow[v * dim + d]: tasks v sends along d */
	s32 *balance;		/* > 0: tasks to send; < 0: tasks to receive */
	u16 *path;
	s16 *pos;		/* index of a vertex on the path, -1 if off it */
};

size_t hcube_route_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return hcube_align(n * (dim ? dim : 1) * sizeof(u32)) +
	       hcube_align(n * sizeof(s32)) + 2 * hcube_align(n * sizeof(u16));
}

u32 hcube_routes_max(u32 dim)
{
	/* one route per edge flow emptied plus one per vertex balance emptied */
	return hcube_plan_max_transfers(dim) + (2U << dim);
}

static void route_work_init(struct route_work *w, u32 dim, void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t n = (size_t)1 << dim;

	w->flow = hcube_carve(&c, n * (dim ? dim : 1) * sizeof(u32));
	w->balance = hcube_carve(&c, n * sizeof(s32));
	w->path = hcube_carve(&c, n * sizeof(u16));
	w->pos = hcube_carve(&c, n * sizeof(s16));
}

/* Take @amount off every edge of path[from..len-1] (a path or a cycle). */
static void drain(struct route_work *w, u32 dim, u32 from, u32 len, u32 amount,
		  bool cycle)
{
	u32 i;

	for (i = from; i + 1 < len + (cycle ? 1 : 0); i++) {
		u32 a = w->path[i], b = w->path[i + 1 < len ? i + 1 : from];

		w->flow[a * dim + __ffs(a ^ b)] -= amount;
	}
}

int hcube_plan_routes(const struct hcube_plan *p, const u32 *before,
		      struct hcube_route *routes, u32 cap, u32 *nroutes,
		      void *work)
{
	u32 dim = p->dim, n = 1U << dim;
	struct route_work w;
	u32 i, v, start;

	*nroutes = 0;
	route_work_init(&w, dim, work);
	for (i = 0; i < n * (dim ? dim : 1); i++)
		w.flow[i] = 0;
	for (v = 0; v < n; v++) {
		w.balance[v] = (s32)before[v] - (s32)p->after[v];
		w.pos[v] = -1;
	}
	/* Opposite transfers on one edge cancel. */
	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		u32 d = __ffs(x->from ^ x->to);
		u32 *fwd = &w.flow[x->from * dim + d], *back = &w.flow[x->to * dim + d];
		u32 c = x->count;

		if (*back >= c) {
			*back -= c;
		} else {
			*fwd += c - *back;
			*back = 0;
		}
	}

	for (start = 0; start < n; start++) {
		while (w.balance[start] > 0) {
			u32 len = 1, cur = start, amount, d;

			w.path[0] = start;
			w.pos[start] = 0;
			/* Walk along positive flow until a vertex that gains tasks. */
			while (cur == start || w.balance[cur] >= 0) {
				u32 next;

				for (d = 0; d < dim; d++)
					if (w.flow[cur * dim + d])
						break;
				if (d == dim)
					return HCUBE_E_INTERNAL;
				next = cur ^ (1U << d);
				if (w.pos[next] >= 0) {
					/* A cycle: cancel it, resume where it began. */
					u32 at = w.pos[next], k;

					amount = ~0U;
					for (k = at; k < len; k++) {
						u32 a = w.path[k];
						u32 b = k + 1 < len ? w.path[k + 1] : next;
						u32 f = w.flow[a * dim + __ffs(a ^ b)];

						amount = f < amount ? f : amount;
					}
					drain(&w, dim, at, len, amount, true);
					for (k = at + 1; k < len; k++)
						w.pos[w.path[k]] = -1;
					len = at + 1;
					cur = next;
					continue;
				}
				w.pos[next] = len;
				w.path[len++] = next;
				cur = next;
			}

			amount = (u32)w.balance[start];
			if ((u32)-w.balance[cur] < amount)
				amount = (u32)-w.balance[cur];
			for (i = 0; i + 1 < len; i++) {
				u32 a = w.path[i], b = w.path[i + 1];
				u32 f = w.flow[a * dim + __ffs(a ^ b)];

				amount = f < amount ? f : amount;
			}
			if (!amount || *nroutes >= cap)
				return HCUBE_E_INTERNAL;
			drain(&w, dim, 0, len, amount, false);
			w.balance[start] -= amount;
			w.balance[cur] += amount;
			routes[*nroutes].from = start;
			routes[*nroutes].to = cur;
			routes[*nroutes].hops = len - 1;
			routes[*nroutes].reserved = 0;
			routes[*nroutes].count = amount;
			(*nroutes)++;
			for (i = 0; i < len; i++)
				w.pos[w.path[i]] = -1;
		}
	}
	for (v = 0; v < n; v++)
		if (w.balance[v])
			return HCUBE_E_INTERNAL;
	return HCUBE_OK;
}

/* Tasks needed to raise every target below @level up to it. */
static u64 fill_to(u32 dim, const u8 *state, const u32 *load, u32 from,
		   u32 dist, u64 level)
{
	u32 v;
	u64 sum = 0;

	for (v = 0; v < (1U << dim); v++)
		if (v != from && hcube_usable(state[v]) &&
		    hweight32(v ^ from) == dist && load[v] < level)
			sum += level - load[v];
	return sum;
}

int hcube_evacuate(u32 dim, const u8 *state, const u32 *load, u32 from,
		   u32 count, u32 *out)
{
	u32 n = 1U << dim, v, dist = 0, best = ~0U;
	u64 lo = 0, hi, rest;

	for (v = 0; v < n; v++) {
		u32 d = hweight32(v ^ from);

		if (v != from && hcube_usable(state[v]) && d < best)
			best = d;
	}
	if (best == ~0U)
		return HCUBE_E_NO_HEALTHY;
	dist = best;
	if (!count)
		return HCUBE_OK;

	/* The lowest level L at which the nearest targets absorb count. */
	hi = (u64)count + 0xffffffffULL;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (fill_to(dim, state, load, from, dist, mid) >= count)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* Fill to L - 1, then one more each, lowest labels first. */
	rest = count - fill_to(dim, state, load, from, dist, lo - 1);
	for (v = 0; v < n; v++) {
		if (v == from || !hcube_usable(state[v]) ||
		    hweight32(v ^ from) != dist || load[v] >= lo)
			continue;
		out[v] += (u32)(lo - 1 - load[v]);
		if (rest) {
			out[v]++;
			rest--;
		}
	}
	return HCUBE_OK;
}
