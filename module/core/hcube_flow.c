// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the optimal migration cost.
 *
 * hcube_mincost() finds the fewest task-hops that take the loads @before to
 * the loads @after when tasks move only along edges between two healthy
 * vertices. This is a minimum-cost flow on the healthy subgraph: every edge
 * has unbounded capacity and costs 1 per task in either direction, each
 * vertex supplies before - after tasks (or demands the opposite). It is the
 * yardstick for the plans' own task-hops (stats.migrations), which can
 * never be smaller.
 *
 * The method is the primal-dual one. A super source S feeds every vertex
 * with a surplus and a super sink T drains every vertex with a deficit;
 * neither is stored. Each phase runs Dijkstra from S with costs reduced by
 * the vertex potentials, adds the distances to the potentials, then pushes
 * a maximum flow through the arcs of reduced cost 0 (Dinic: levels by
 * breadth-first search, blocking flows by an iterative depth-first search
 * with current-arc pointers). Each phase raises the length of the shortest
 * augmenting path, which is at least 1 and at most the largest distance D
 * between two healthy vertices of one component, so there are at most D
 * phases. D is at most N - 1; with up to n + 3 random faults it was n or
 * n + 1 in hcube-sim's runs. A phase is one Dijkstra, O(nN log N), and at
 * most N + 1 blocking flows, each of at most (n + 2) N augmenting paths of
 * at most N + 1 arcs; on n = 10 cubes with loads up to 1000 a call takes
 * a few milliseconds.
 *
 * Residual arcs of an edge (v, w = v ^ BIT(d)): flow[w][d] > 0 gives an
 * arc v -> w of cost -1 that cancels it (capacity flow[w][d]); otherwise
 * v -> w costs +1 with unbounded capacity. At most one direction of an
 * edge carries flow.
 *
 * hcube_mincost_balanced() adds optional sink arcs: a vertex's arc to T
 * takes its mandatory deficit at cost 0 and, when its component has a
 * remainder, one optional extra task at cost OPT_COST = N, more than the
 * longest simple path (N - 1). Successive shortest paths then fill every
 * deficit before any optional slot: exactly the remainder's worth of
 * optional slots is used, and the flow is a cheapest one among all the
 * choices of which vertices end with the extra task. The shortest path
 * lengths now run over [1, D] and then [N, N + D], so the phase bound
 * doubles. The work done (heap pops, arcs scanned, search steps) is
 * counted, and a caller's budget stops the computation.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

#define FLOW_INF	0x3fffffff	/* distance of an unreached vertex */
#define FLOW_UNBOUNDED	0xffffffffU	/* capacity of a +1 arc */
#define FLOW_DEAD	0xffffU		/* level of a vertex off the level graph */

struct flow_work {
	u32 *flow;		/* flow[v * dim + d]: tasks v sends to v ^ BIT(d) */
	s32 *excess;		/* > 0: supply still to route; < 0: demand */
	s32 *pot;		/* vertex potentials; S has 0 */
	s32 *dist;		/* reduced distance from S */
	u16 *heap;		/* Dijkstra's binary heap of vertices */
	u16 *hpos;		/* 1 + position in heap, 0 when out of it */
	u16 *level;		/* level from S in the admissible graph */
	u16 *queue;		/* BFS queue, then the DFS path */
	u8 *arc;		/* DFS: next dimension to try from a vertex */
	u8 *done;		/* Dijkstra: distance final */
	u8 *opt;		/* 1: the optional extra-task slot is still free */
	u16 *comp;		/* component of a healthy vertex (balanced) */
	u32 dim;
	const u8 *state;
	s32 pot_t;		/* potential of T */
	s32 opt_cost;		/* cost of an optional slot */
	u64 ops, budget;	/* work done; allowed (0: no limit) */
};

static size_t flow_entries(u32 dim)
{
	return ((size_t)1 << dim) * (dim ? dim : 1);
}

size_t hcube_mincost_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	return hcube_align(flow_entries(dim) * sizeof(u32)) +
	       3 * hcube_align(n * sizeof(s32)) +
	       5 * hcube_align(n * sizeof(u16)) +
	       3 * hcube_align(n * sizeof(u8));
}

static void flow_work_init(struct flow_work *w, u32 dim, const u8 *state,
			   void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t n = (size_t)1 << dim;

	w->flow = hcube_carve(&c, flow_entries(dim) * sizeof(u32));
	w->excess = hcube_carve(&c, n * sizeof(s32));
	w->pot = hcube_carve(&c, n * sizeof(s32));
	w->dist = hcube_carve(&c, n * sizeof(s32));
	w->heap = hcube_carve(&c, n * sizeof(u16));
	w->hpos = hcube_carve(&c, n * sizeof(u16));
	w->level = hcube_carve(&c, n * sizeof(u16));
	w->queue = hcube_carve(&c, n * sizeof(u16));
	w->arc = hcube_carve(&c, n * sizeof(u8));
	w->done = hcube_carve(&c, n * sizeof(u8));
	w->opt = hcube_carve(&c, n * sizeof(u8));
	w->comp = hcube_carve(&c, n * sizeof(u16));
	w->dim = dim;
	w->state = state;
	w->pot_t = 0;
	w->opt_cost = (s32)n;
	w->ops = 0;
	w->budget = 0;
}

static bool over_budget(const struct flow_work *w)
{
	return w->budget && w->ops > w->budget;
}

/* Reduced cost of the residual arc v -> v ^ BIT(d). */
static s32 edge_rcost(const struct flow_work *w, u32 v, u32 d)
{
	u32 x = v ^ (1U << d);
	s32 c = w->flow[x * w->dim + d] ? -1 : 1;

	return c + w->pot[v] - w->pot[x];
}

/* Heap of vertices keyed by dist[], ties to the lower label. */
static bool heap_less(const struct flow_work *w, u32 a, u32 b)
{
	return w->dist[a] < w->dist[b] || (w->dist[a] == w->dist[b] && a < b);
}

static void heap_up(struct flow_work *w, u32 i)
{
	u32 v = w->heap[i];

	while (i) {
		u32 p = (i - 1) / 2;

		if (!heap_less(w, v, w->heap[p]))
			break;
		w->heap[i] = w->heap[p];
		w->hpos[w->heap[i]] = i + 1;
		i = p;
	}
	w->heap[i] = v;
	w->hpos[v] = i + 1;
}

static u32 heap_pop(struct flow_work *w, u32 *len)
{
	u32 top = w->heap[0], v, i = 0;

	w->hpos[top] = 0;
	if (--*len == 0)
		return top;
	v = w->heap[*len];
	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= *len)
			break;
		if (c + 1 < *len && heap_less(w, w->heap[c + 1], w->heap[c]))
			c++;
		if (!heap_less(w, w->heap[c], v))
			break;
		w->heap[i] = w->heap[c];
		w->hpos[w->heap[i]] = i + 1;
		i = c;
	}
	w->heap[i] = v;
	w->hpos[v] = i + 1;
	return top;
}

static void heap_set(struct flow_work *w, u32 *len, u32 v, s32 d)
{
	w->dist[v] = d;
	if (!w->hpos[v]) {
		w->heap[*len] = v;
		heap_up(w, (*len)++);
	} else {
		heap_up(w, w->hpos[v] - 1);
	}
}

/*
 * Dijkstra from S with reduced costs, then the potential update. Returns
 * the reduced distance of T, FLOW_INF when no deficit is reachable, or -1
 * when a reduced cost is negative (a bug).
 */
static s32 flow_dijkstra(struct flow_work *w)
{
	u32 n = 1U << w->dim, len = 0, v, d;
	s32 dt = FLOW_INF;

	for (v = 0; v < n; v++) {
		w->dist[v] = FLOW_INF;
		w->hpos[v] = 0;
		w->done[v] = 0;
	}
	for (v = 0; v < n; v++) {
		if (w->excess[v] <= 0)
			continue;
		if (w->pot[v] > 0)
			return -1;
		heap_set(w, &len, v, -w->pot[v]);
	}
	while (len) {
		v = heap_pop(w, &len);
		w->ops += 1 + w->dim;
		if (w->dist[v] >= dt)
			break;
		w->done[v] = 1;
		if (w->excess[v] < 0) {
			s32 rc = w->pot[v] - w->pot_t;

			if (rc < 0)
				return -1;
			if (w->dist[v] + rc < dt)
				dt = w->dist[v] + rc;
		}
		if (w->opt[v]) {
			s32 rc = w->opt_cost + w->pot[v] - w->pot_t;

			if (rc < 0)
				return -1;
			if (w->dist[v] + rc < dt)
				dt = w->dist[v] + rc;
		}
		for (d = 0; d < w->dim; d++) {
			u32 x = v ^ (1U << d);
			s32 rc;

			if (!hcube_usable(w->state[x]) || w->done[x])
				continue;
			rc = edge_rcost(w, v, d);
			if (rc < 0)
				return -1;
			if (w->dist[v] + rc < w->dist[x])
				heap_set(w, &len, x, w->dist[v] + rc);
		}
	}
	if (dt == FLOW_INF)
		return dt;
	for (v = 0; v < n; v++)
		if (hcube_usable(w->state[v]))
			w->pot[v] += w->dist[v] < dt ? w->dist[v] : dt;
	w->pot_t += dt;
	return dt;
}

static bool source_arc(const struct flow_work *w, u32 v)
{
	return w->excess[v] > 0 && w->pot[v] == 0;
}

/* The mandatory sink arc of v is admissible. */
static bool sink_need(const struct flow_work *w, u32 v)
{
	return w->excess[v] < 0 && w->pot[v] == w->pot_t;
}

static bool sink_arc(const struct flow_work *w, u32 v)
{
	return sink_need(w, v) ||
	       (w->opt[v] && w->pot[v] + w->opt_cost == w->pot_t);
}

/*
 * Capacity of the admissible arc v -> v ^ BIT(d): 0 if it is not
 * admissible, FLOW_UNBOUNDED if unbounded.
 */
static u32 edge_cap(const struct flow_work *w, u32 v, u32 d)
{
	u32 x = v ^ (1U << d);
	u32 back = w->flow[x * w->dim + d];

	if (!hcube_usable(w->state[x]))
		return 0;
	if (back)
		return w->pot[v] == w->pot[x] + 1 ? back : 0;
	return w->pot[x] == w->pot[v] + 1 ? FLOW_UNBOUNDED : 0;
}

/* Levels from S over admissible arcs; returns the level of T or FLOW_DEAD. */
static u32 flow_levels(struct flow_work *w)
{
	u32 n = 1U << w->dim, head = 0, tail = 0, lt = FLOW_DEAD, v, d;

	for (v = 0; v < n; v++) {
		w->level[v] = FLOW_DEAD;
		w->arc[v] = 0;
		if (hcube_usable(w->state[v]) && source_arc(w, v)) {
			w->level[v] = 1;
			w->queue[tail++] = v;
		}
	}
	while (head < tail) {
		v = w->queue[head++];
		w->ops += 1 + w->dim;
		if (w->level[v] + 1U >= lt)
			break;
		if (sink_arc(w, v)) {
			lt = w->level[v] + 1U;
			continue;
		}
		for (d = 0; d < w->dim; d++) {
			u32 x = v ^ (1U << d);

			if (w->level[x] == FLOW_DEAD && edge_cap(w, v, d)) {
				w->level[x] = w->level[v] + 1;
				w->queue[tail++] = x;
			}
		}
	}
	return lt;
}

/* Push the flow along the DFS path queue[0..len-1] into T; returns it. */
static u32 flow_augment(struct flow_work *w, u32 len)
{
	u32 src = w->queue[0], dst = w->queue[len - 1], i;
	u32 amount = (u32)w->excess[src];
	bool need = sink_need(w, dst);

	if (need && (u32)-w->excess[dst] < amount)
		amount = (u32)-w->excess[dst];
	if (!need)
		amount = 1;	/* the optional slot */
	for (i = 0; i + 1 < len; i++) {
		u32 cap = edge_cap(w, w->queue[i], w->arc[w->queue[i]]);

		if (cap < amount)
			amount = cap;
	}
	for (i = 0; i + 1 < len; i++) {
		u32 v = w->queue[i], d = w->arc[v], x = v ^ (1U << d);

		if (w->flow[x * w->dim + d])
			w->flow[x * w->dim + d] -= amount;
		else
			w->flow[v * w->dim + d] += amount;
	}
	w->excess[src] -= amount;
	if (need)
		w->excess[dst] += amount;
	else
		w->opt[dst] = 0;
	return amount;
}

/* A blocking flow in the level graph; returns the tasks pushed. */
static u64 flow_block(struct flow_work *w, u32 lt)
{
	u32 n = 1U << w->dim, s = 0;
	u64 pushed = 0;

	for (;;) {
		u32 len = 1;

		while (s < n && !(w->level[s] == 1 && source_arc(w, s)))
			s++;
		if (s == n || over_budget(w))
			return pushed;
		w->queue[0] = s;
		while (len) {
			u32 v = w->queue[len - 1];

			w->ops++;
			if (w->level[v] + 1U == lt && sink_arc(w, v)) {
				pushed += flow_augment(w, len);
				break;
			}
			while (w->arc[v] < w->dim) {
				u32 x = v ^ (1U << w->arc[v]);

				if (w->level[x] == w->level[v] + 1 &&
				    w->level[x] < lt && edge_cap(w, v, w->arc[v]))
					break;
				w->arc[v]++;
			}
			if (w->arc[v] < w->dim) {
				w->queue[len++] = v ^ (1U << w->arc[v]);
				continue;
			}
			/* Dead end: drop v from the level graph. */
			w->level[v] = FLOW_DEAD;
			len--;
			if (len)
				w->arc[w->queue[len - 1]]++;
		}
	}
}

/*
 * Successive shortest paths from the excesses and optional slots set up
 * in @w, until every supply is routed. The bounds of the header comment
 * are enforced: a phase that would break them means a bug, not a slow
 * case.
 */
static int flow_run(struct flow_work *w, u64 supply)
{
	u32 n = 1U << w->dim, phases;

	for (phases = 0; supply; phases++) {
		s32 dt = flow_dijkstra(w);
		u64 phase = 0;
		u32 lt, blocks = 0;

		if (dt < 0 || phases >= 2 * n + 2)
			return HCUBE_E_INTERNAL;
		if (dt == FLOW_INF)
			return HCUBE_E_FLOW_UNREACHABLE;
		while ((lt = flow_levels(w)) != FLOW_DEAD) {
			if (++blocks > n + 1)
				return HCUBE_E_INTERNAL;
			phase += flow_block(w, lt);
			if (over_budget(w))
				return HCUBE_E_BUDGET;
		}
		if (over_budget(w))
			return HCUBE_E_BUDGET;
		if (!phase || phase > supply)
			return HCUBE_E_INTERNAL;
		supply -= phase;
	}
	return HCUBE_OK;
}

static int flow_check(u32 dim, const u8 *state, const u32 *before,
		      const u32 *after, u64 *tb)
{
	int err;
	u32 v;

	*tb = 0;
	err = hcube_check_states(dim, state);
	if (err)
		return err;
	for (v = 0; v < (1U << dim); v++) {
		if (!hcube_usable(state[v]) && (before[v] || (after && after[v])))
			return HCUBE_E_FAULTY_LOAD;
		*tb += before[v];
	}
	return *tb > HCUBE_MAX_TOTAL_LOAD ? HCUBE_E_OVERFLOW : HCUBE_OK;
}

int hcube_mincost(u32 dim, const u8 *state, const u32 *before,
		  const u32 *after, u64 *cost, void *work)
{
	struct flow_work w;
	u64 tb, ta = 0, supply = 0;
	u32 n, v, i;
	int err;

	*cost = 0;
	err = flow_check(dim, state, before, after, &tb);
	if (err)
		return err;
	n = 1U << dim;
	for (v = 0; v < n; v++)
		ta += after[v];
	if (ta > HCUBE_MAX_TOTAL_LOAD)
		return HCUBE_E_OVERFLOW;
	if (tb != ta)
		return HCUBE_E_FLOW_TOTAL;

	flow_work_init(&w, dim, state, work);
	for (i = 0; i < flow_entries(dim); i++)
		w.flow[i] = 0;
	for (v = 0; v < n; v++) {
		w.excess[v] = (s32)before[v] - (s32)after[v];
		w.pot[v] = 0;
		w.opt[v] = 0;
		if (w.excess[v] > 0)
			supply += (u32)w.excess[v];
	}
	err = flow_run(&w, supply);
	if (err)
		return err;
	for (i = 0; i < flow_entries(dim); i++)
		*cost += w.flow[i];
	return HCUBE_OK;
}

int hcube_mincost_balanced(u32 dim, const u8 *state, const u32 *before,
			   u32 *after, u64 *cost, u64 budget, u64 *work_done,
			   void *work)
{
	struct flow_work w;
	u64 tb, supply = 0;
	u32 n, v, i, c, ncomp;
	int err;

	*cost = 0;
	if (work_done)
		*work_done = 0;
	err = flow_check(dim, state, before, NULL, &tb);
	if (err)
		return err;
	n = 1U << dim;
	flow_work_init(&w, dim, state, work);
	w.budget = budget;
	for (i = 0; i < flow_entries(dim); i++)
		w.flow[i] = 0;
	ncomp = hcube_components(dim, state, w.comp, NULL, w.queue);
	/*
	 * Per component: its total and size, kept in pot[] and dist[] of
	 * the component's index (both are reset before the flow runs). The
	 * search visited each healthy vertex and its dim neighbours once.
	 */
	for (c = 0; c < ncomp; c++) {
		w.pot[c] = 0;
		w.dist[c] = 0;
	}
	for (v = 0; v < n; v++) {
		if (w.comp[v] == HCUBE_COMP_NONE)
			continue;
		w.ops += 1 + dim;
		w.pot[w.comp[v]] += (s32)before[v];
		w.dist[w.comp[v]]++;
	}
	for (v = 0; v < n; v++) {
		u32 fl, rem;

		w.opt[v] = 0;
		w.excess[v] = 0;
		if (w.comp[v] == HCUBE_COMP_NONE)
			continue;
		c = w.comp[v];
		fl = (u32)w.pot[c] / (u32)w.dist[c];
		rem = (u32)w.pot[c] % (u32)w.dist[c];
		w.excess[v] = (s32)before[v] - (s32)fl;
		w.opt[v] = rem ? 1 : 0;
	}
	/* supply: the tasks above the floor; the remainder fills slots */
	for (v = 0; v < n; v++)
		if (w.excess[v] > 0)
			supply += (u32)w.excess[v];
	for (v = 0; v < n; v++)
		w.pot[v] = 0;
	err = flow_run(&w, supply);
	if (work_done)
		*work_done = w.ops;
	if (err)
		return err;
	for (v = 0; v < n; v++) {
		s64 a = before[v];
		u32 d;

		for (d = 0; d < dim; d++) {
			u32 x = v ^ (1U << d);

			a -= w.flow[v * dim + d];
			a += w.flow[x * dim + d];
		}
		after[v] = (u32)a;
	}
	for (i = 0; i < flow_entries(dim); i++)
		*cost += w.flow[i];
	return HCUBE_OK;
}

const u32 *hcube_mincost_flow(const void *work)
{
	/* flow[] is the first array hcube_mincost() carves out of @work */
	return work;
}
