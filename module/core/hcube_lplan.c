// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: logical plans. SBN and pebble-crunching decide transfers
 * between vertices that need not be neighbours (SBN links span two
 * dimensions, and faulty vertices are skipped; a pebble's receiver may be
 * anywhere in its cluster). Each such transfer is routed here along a
 * shortest path of healthy vertices and written out hop by hop.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

size_t hcube_lplan_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim, cap = hcube_plan_max_transfers(dim);

	return hcube_align(cap * sizeof(struct hcube_lxfer)) +
	       hcube_align(cap * sizeof(u16)) + hcube_align(cap * sizeof(u32)) +
	       2 * hcube_align(n * sizeof(u16));
}

void hcube_lplan_init(struct hcube_lplan *lp, u32 dim, const u8 *state,
		      void *mem)
{
	struct hcube_carver c = { .pos = mem };
	size_t n = (size_t)1 << dim;

	lp->dim = dim;
	lp->state = state;
	lp->cap = hcube_plan_max_transfers(dim);
	lp->x = hcube_carve(&c, lp->cap * sizeof(*lp->x));
	lp->pool = hcube_carve(&c, lp->cap * sizeof(u16));
	lp->order = hcube_carve(&c, lp->cap * sizeof(u32));
	lp->dist = hcube_carve(&c, n * sizeof(u16));
	lp->queue = hcube_carve(&c, n * sizeof(u16));
	lp->nx = 0;
	lp->npool = 0;
	lp->bfs_to = HCUBE_VERTEX_NONE;
	lp->max_len = 0;
	lp->max_round = 0;
	lp->hops = 0;
}

/* Breadth-first search over healthy vertices from @to (distances to it). */
static void lplan_bfs(struct hcube_lplan *lp, u32 to)
{
	u32 n = 1U << lp->dim, head = 0, tail = 0, v, d;

	if (lp->bfs_to == to)
		return;
	for (v = 0; v < n; v++)
		lp->dist[v] = 0xffff;
	lp->dist[to] = 0;
	lp->queue[tail++] = to;
	while (head < tail) {
		u32 u = lp->queue[head++];

		for (d = 0; d < lp->dim; d++) {
			u32 x = u ^ (1U << d);

			if (hcube_usable(lp->state[x]) && lp->dist[x] == 0xffff) {
				lp->dist[x] = lp->dist[u] + 1;
				lp->queue[tail++] = x;
			}
		}
	}
	lp->bfs_to = to;
}

/*
 * The first hop of a two-hop route from @u across the two dimensions of
 * @x: the lower one if that vertex is healthy, else the higher one if it
 * is, else HCUBE_VERTEX_NONE (the route is longer). The same hop the
 * breadth-first rule of hcube_lplan_add() picks, without the search: most
 * of SBN's template links span two dimensions.
 */
static u32 two_hop_via(const struct hcube_lplan *lp, u32 u, u32 x)
{
	u32 low = x & (~x + 1);

	if (hcube_usable(lp->state[u ^ low]))
		return u ^ low;
	if (hcube_usable(lp->state[u ^ x ^ low]))
		return u ^ x ^ low;
	return HCUBE_VERTEX_NONE;
}

u32 hcube_lplan_dist(struct hcube_lplan *lp, u32 u, u32 v)
{
	u32 x = u ^ v;

	if (!hcube_usable(lp->state[u]) || !hcube_usable(lp->state[v]))
		return HCUBE_DIST_NONE;
	if (hweight32(x) <= 1)
		return hweight32(x);
	if (hweight32(x) == 2 && two_hop_via(lp, u, x) != HCUBE_VERTEX_NONE)
		return 2;
	lplan_bfs(lp, v);
	return lp->dist[u] == 0xffff ? HCUBE_DIST_NONE : lp->dist[u];
}

int hcube_lplan_add(struct hcube_lplan *lp, u32 from, u32 to, u32 count,
		    u32 round)
{
	struct hcube_lxfer *x;
	u32 len, cur, i, d;

	if (!count || from == to)
		return HCUBE_OK;
	if (!round || round > HCUBE_LPLAN_MAX_ROUND)
		return HCUBE_E_INTERNAL;
	len = hcube_lplan_dist(lp, from, to);
	if (len == HCUBE_DIST_NONE)
		return HCUBE_E_INTERNAL;
	if (lp->nx >= lp->cap || lp->npool + len > lp->cap)
		return HCUBE_E_PLAN_SIZE;
	x = &lp->x[lp->nx++];
	x->from = from;
	x->to = to;
	x->round = round;
	x->len = len;
	x->count = count;
	x->path = lp->npool;
	cur = from;
	for (i = 0; i < len; i++) {
		u32 next = HCUBE_VERTEX_NONE;

		if (i + 1 == len) {
			next = to;
		} else if (len == 2) {
			/* no search was run (hcube_lplan_dist()) */
			next = two_hop_via(lp, from, from ^ to);
		} else {
			/* the lowest dimension that gets one step closer */
			for (d = 0; d < lp->dim && next == HCUBE_VERTEX_NONE; d++) {
				u32 y = cur ^ (1U << d);

				if (hcube_usable(lp->state[y]) &&
				    lp->dist[y] + 1U == lp->dist[cur])
					next = y;
			}
		}
		if (next == HCUBE_VERTEX_NONE)
			return HCUBE_E_INTERNAL;
		lp->pool[lp->npool++] = next;
		cur = next;
	}
	if (cur != to)
		return HCUBE_E_INTERNAL;
	if (len > lp->max_len)
		lp->max_len = len;
	if (round > lp->max_round)
		lp->max_round = round;
	lp->hops += (u64)count * len;
	return HCUBE_OK;
}

int hcube_lplan_emit(struct hcube_lplan *lp, struct hcube_plan *p)
{
	u32 start[HCUBE_LPLAN_MAX_ROUND + 2];
	u32 L = lp->max_len, r, i, j;
	int err;

	/* counting sort of the transfers by round, stable */
	for (r = 0; r <= lp->max_round + 1; r++)
		start[r] = 0;
	for (i = 0; i < lp->nx; i++)
		start[lp->x[i].round + 1]++;
	for (r = 1; r <= lp->max_round + 1; r++)
		start[r] += start[r - 1];
	for (i = 0; i < lp->nx; i++)
		lp->order[start[lp->x[i].round]++] = i;
	/* start[r] is now the end of round r; rebuild the beginnings */
	for (r = lp->max_round + 1; r > 0; r--)
		start[r] = start[r - 1];
	start[0] = 0;

	for (r = 1; r <= lp->max_round; r++) {
		for (j = 0; j < L; j++) {
			for (i = start[r]; i < start[r + 1]; i++) {
				const struct hcube_lxfer *x = &lp->x[lp->order[i]];
				u32 from;

				if (j >= x->len)
					continue;
				from = j ? lp->pool[x->path + j - 1] : x->from;
				err = hcube_plan_emit(p, (r - 1) * L + j + 1, from,
						      lp->pool[x->path + j], x->count);
				if (err)
					return err;
			}
		}
	}
	p->nsteps = lp->max_round * L;
	return HCUBE_OK;
}
