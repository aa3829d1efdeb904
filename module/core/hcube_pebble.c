// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: pebble-crunching (S. Gulati, S. S. Iyengar and J. Barhen,
 * "The Pebble-Crunching Model for Fault-tolerant Load Balancing in
 * Hypercube Ensembles", The Computer Journal 33(3), 1990,
 * doi:10.1093/comjnl/33.3.204), receiver-initiated balancing domains
 * resolved by per-cluster controllers, as one round on a snapshot of the
 * loads.
 *
 * Thresholds (the paper gives none): with T tasks on H healthy vertices,
 * a vertex is light below floor(T/H), with spare capacity floor(T/H) -
 * load, and excessive above ceil(T/H), with excess load - ceil(T/H).
 *
 * Phase 1: light vertices advertise their spare capacity to their healthy
 * neighbours. Phase 2: each excessive vertex (an owner) builds its pebble,
 * the light neighbours it heard from with their capacities; an owner that
 * heard from none says so, and its domain becomes every light vertex of
 * its cluster (the paper's empty pebble). Phase 3: the cluster's
 * controller (DCC) collects the pebbles of its owners and resolves
 * receivers contended by several owners. The paper leaves its line 12
 * ("perform the minimal-overhead task assignment") open: here the DCC
 * solves the whole cluster at once as an exact minimum-cost transportation
 * problem (hcube_assign()): as many excess tasks as the receivers can take,
 * no receiver above its capacity, and among those the fewest task-hops
 * (cost = healthy distance, 1 for a pebble's own receivers). That also
 * settles the non-contended receivers (line 7) and makes the paper's
 * hypercycle and transversal steps unnecessary. Receivers in a neighbouring
 * cluster (boundary nodes) are shared: the controllers are served in
 * cluster order (the system controller's arbitration), each using the
 * capacity the earlier ones left. Phase 4: the owners migrate, each task
 * along a shortest healthy path.
 *
 * Clusters are the subcubes of the low min(n, 3) dimensions (on a real
 * machine SMT and LLC siblings). Controllers: hcube_pebble_elect().
 */
#include "hcube_core.h"
#include "hcube_internal.h"

#define NONE	HCUBE_VERTEX_NONE

u32 hcube_pebble_cdim(u32 dim)
{
	return dim < 3 ? dim : 3;
}

u32 hcube_pebble_elect(u32 dim, u32 cdim, const u8 *state, u16 *ctrl)
{
	u32 c, v, nclus, changed = 0;

	if (dim > HCUBE_MAX_DIM || cdim > dim)
		return 0;
	nclus = 1U << (dim - cdim);
	for (c = 0; c < nclus; c++) {
		u32 lo = c << cdim, hi = lo + (1U << cdim), cur = ctrl[c], now = NONE;

		if (cur >= lo && cur < hi && hcube_usable(state[cur])) {
			now = cur;	/* a healthy controller keeps its role */
		} else {
			for (v = lo; v < hi && now == NONE; v++)
				if (hcube_usable(state[v]))
					now = v;
		}
		if (now != cur) {
			ctrl[c] = now;
			changed++;
		}
	}
	return changed;
}

/* ---- exact minimum-cost transportation ---- */

struct assign_work {
	s64 *dist;
	u32 *prev;		/* node it was reached from, | REV if by a reverse arc */
	u32 *queue;
	u8 *inq;
	u32 *sent;		/* per source */
	u32 *got;		/* per sink */
};

#define INF_DIST	((s64)1 << 62)

size_t hcube_assign_memsize(u32 ns, u32 nr)
{
	size_t v = (size_t)ns + nr + 2;

	return hcube_align(v * sizeof(s64)) + 2 * hcube_align(v * sizeof(u32)) +
	       hcube_align(v) + hcube_align(ns * sizeof(u32)) +
	       hcube_align(nr * sizeof(u32));
}

/* The problem, for assign_arc(). */
struct assign_prob {
	u32 ns, nr, t;
	const u32 *supply, *cap, *cost, *flow;
};

/*
 * Whether the residual graph has an arc u -> x, and its cost (see the
 * node numbering in hcube_assign()).
 */
static bool assign_arc(const struct assign_prob *a, const struct assign_work *w,
		       u32 u, u32 x, s64 *cst)
{
	u32 ns = a->ns, nr = a->nr, j;

	*cst = 0;
	if (u == 0)
		return x >= 1 && x <= ns && w->sent[x - 1] < a->supply[x - 1];
	if (u <= ns) {
		if (x <= ns || x == a->t ||
		    a->cost[(u - 1) * nr + (x - ns - 1)] == HCUBE_NO_ARC)
			return false;
		*cst = a->cost[(u - 1) * nr + (x - ns - 1)];
		return true;
	}
	j = u - ns - 1;
	if (x == a->t)
		return w->got[j] < a->cap[j];
	if (x >= 1 && x <= ns && a->flow[(x - 1) * nr + j]) {
		*cst = -(s64)a->cost[(x - 1) * nr + j];
		return true;
	}
	return false;
}

int hcube_assign(u32 ns, u32 nr, const u32 *supply, const u32 *cap,
		 const u32 *cost, u32 *flow, u64 *total_cost, void *work)
{
	struct hcube_carver c = { .pos = work };
	struct assign_work w;
	u32 nv = ns + nr + 2, t = ns + nr + 1, i, j, rounds = 0;
	struct assign_prob a = {
		.ns = ns, .nr = nr, .t = t, .supply = supply, .cap = cap,
		.cost = cost, .flow = flow,
	};

	*total_cost = 0;
	if (ns > HCUBE_ASSIGN_MAX || nr > HCUBE_ASSIGN_MAX)
		return HCUBE_E_DIM;
	w.dist = hcube_carve(&c, nv * sizeof(s64));
	w.prev = hcube_carve(&c, nv * sizeof(u32));
	w.queue = hcube_carve(&c, nv * sizeof(u32));
	w.inq = hcube_carve(&c, nv);
	w.sent = hcube_carve(&c, ns * sizeof(u32));
	w.got = hcube_carve(&c, nr * sizeof(u32));
	for (i = 0; i < ns; i++)
		w.sent[i] = 0;
	for (j = 0; j < nr; j++)
		w.got[j] = 0;
	for (i = 0; i < ns * nr; i++)
		flow[i] = 0;

	/*
	 * Nodes: 0 = S, 1..ns sources, ns+1..ns+nr sinks, t = T. Residual
	 * arcs: S -> i while i has supply left; i -> j (cost c) unbounded;
	 * j -> i (cost -c) while flow[i][j] > 0; j -> T while j has room.
	 * Bellman-Ford with a queue; successive shortest paths keep the
	 * residual graph free of negative cycles.
	 */
	for (;;) {
		u32 head = 0, tail = 0, u, amount, x;

		if (++rounds > 4 * (ns + nr + ns * nr) + 8)
			return HCUBE_E_INTERNAL;
		for (u = 0; u < nv; u++) {
			w.dist[u] = INF_DIST;
			w.inq[u] = 0;
		}
		w.dist[0] = 0;
		w.queue[tail++] = 0;
		w.inq[0] = 1;
		while (head != tail) {
			u = w.queue[head];
			head = (head + 1) % nv;
			w.inq[u] = 0;
			/* relax u's arcs */
			for (x = 0; x < nv; x++) {
				s64 cst;

				if (u == t)
					break;	/* nothing leaves T */
				if (!assign_arc(&a, &w, u, x, &cst))
					continue;
				if (w.dist[u] + cst < w.dist[x]) {
					w.dist[x] = w.dist[u] + cst;
					w.prev[x] = u;
					if (!w.inq[x] && x != t) {
						w.queue[tail] = x;
						tail = (tail + 1) % nv;
						w.inq[x] = 1;
					}
				}
			}
		}
		if (w.dist[t] == INF_DIST)
			break;
		/* the bottleneck along T <- j <- i <- ... <- S */
		amount = 0xffffffffU;
		for (x = t; x != 0; x = w.prev[x]) {
			u32 from = w.prev[x], room;

			if (from == 0)
				room = supply[x - 1] - w.sent[x - 1];
			else if (x == t)
				room = cap[from - ns - 1] - w.got[from - ns - 1];
			else if (from > ns)	/* reverse arc sink -> source */
				room = flow[(x - 1) * nr + (from - ns - 1)];
			else
				room = 0xffffffffU;
			if (room < amount)
				amount = room;
		}
		if (!amount)
			return HCUBE_E_INTERNAL;
		for (x = t; x != 0; x = w.prev[x]) {
			u32 from = w.prev[x];

			if (from == 0)
				w.sent[x - 1] += amount;
			else if (x == t)
				w.got[from - ns - 1] += amount;
			else if (from > ns)
				flow[(x - 1) * nr + (from - ns - 1)] -= amount;
			else
				flow[(from - 1) * nr + (x - ns - 1)] += amount;
		}
	}
	for (i = 0; i < ns; i++)
		for (j = 0; j < nr; j++)
			if (flow[i * nr + j])
				*total_cost += (u64)flow[i * nr + j] * cost[i * nr + j];
	return HCUBE_OK;
}

/* ---- the policy ---- */

struct pebble_work {
	u32 *spare, *excess;	/* remaining, per vertex */
	u16 *pebbles;		/* pebbles a receiver is in (this cluster) */
	u16 *rid;		/* receiver -> its index, NONE if not one */
	u16 *recv;		/* index -> receiver */
	u32 *supply, *cap, *cost, *flow;
	void *assign;
	struct hcube_lplan lp;
	u32 ns_max, nr_max;
};

static void pebble_sizes(u32 dim, u32 *ns, u32 *nr)
{
	u32 k = 1U << hcube_pebble_cdim(dim);

	*ns = k;
	/* the owners' light neighbours, and the cluster for empty pebbles */
	*nr = k * (dim + 1);
	if (*nr > HCUBE_ASSIGN_MAX)
		*nr = HCUBE_ASSIGN_MAX;
}

static size_t pebble_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;
	u32 ns, nr;

	pebble_sizes(dim, &ns, &nr);
	return 2 * hcube_align(n * sizeof(u32)) + 2 * hcube_align(n * sizeof(u16)) +
	       hcube_align(nr * sizeof(u16)) + hcube_align(ns * sizeof(u32)) +
	       hcube_align(nr * sizeof(u32)) +
	       2 * hcube_align((size_t)ns * nr * sizeof(u32)) +
	       hcube_assign_memsize(ns, nr) + hcube_lplan_memsize(dim);
}

static void pebble_work_init(struct pebble_work *w, const struct hcube_cube *cube,
			     void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t n = (size_t)1 << cube->dim;

	pebble_sizes(cube->dim, &w->ns_max, &w->nr_max);
	w->spare = hcube_carve(&c, n * sizeof(u32));
	w->excess = hcube_carve(&c, n * sizeof(u32));
	w->pebbles = hcube_carve(&c, n * sizeof(u16));
	w->rid = hcube_carve(&c, n * sizeof(u16));
	w->recv = hcube_carve(&c, w->nr_max * sizeof(u16));
	w->supply = hcube_carve(&c, w->ns_max * sizeof(u32));
	w->cap = hcube_carve(&c, w->nr_max * sizeof(u32));
	w->cost = hcube_carve(&c, (size_t)w->ns_max * w->nr_max * sizeof(u32));
	w->flow = hcube_carve(&c, (size_t)w->ns_max * w->nr_max * sizeof(u32));
	w->assign = hcube_carve(&c, hcube_assign_memsize(w->ns_max, w->nr_max));
	hcube_lplan_init(&w->lp, cube->dim, cube->state, c.pos);
}

/* Add @v as a receiver of the current cluster; returns its index or NONE. */
static u32 add_receiver(struct pebble_work *w, u32 *nr, u32 v)
{
	if (w->rid[v] != NONE)
		return w->rid[v];
	if (*nr >= w->nr_max)
		return NONE;
	w->rid[v] = *nr;
	w->recv[*nr] = v;
	w->cap[*nr] = w->spare[v];
	return (*nr)++;
}

static int pebble_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	void *work = a->work;
	u32 dim = cube->dim, n = 1U << dim, cdim = hcube_pebble_cdim(dim);
	u32 v, d, c, i, j, h = 0, fl, ce;
	struct pebble_work w;
	u64 total = 0, cost;
	int err;

	pebble_work_init(&w, cube, work);
	for (v = 0; v < n; v++) {
		if (!hcube_usable(cube->state[v]))
			continue;
		h++;
		total += cube->load[v];
	}
	fl = (u32)div64_u64(total, h);
	ce = fl + (total - (u64)fl * h ? 1 : 0);
	for (v = 0; v < n; v++) {
		u32 l = cube->load[v];
		bool ok = hcube_usable(cube->state[v]);

		w.spare[v] = ok && l < fl ? fl - l : 0;
		w.excess[v] = ok && l > ce ? l - ce : 0;
		w.rid[v] = NONE;
		w.pebbles[v] = 0;
		/* Phase 1: a light vertex tells each healthy neighbour */
		if (w.spare[v])
			for (d = 0; d < dim; d++)
				if (hcube_usable(cube->state[v ^ (1U << d)]))
					p->stats.messages++;
	}

	for (c = 0; c < (1U << (dim - cdim)); c++) {
		u32 owner[8], ns = 0, nr = 0, lo = c << cdim, hi = lo + (1U << cdim);
		bool any_empty = false;

		/* Phase 2: owners and their pebbles */
		for (v = lo; v < hi; v++) {
			bool empty = true;

			if (!w.excess[v])
				continue;
			owner[ns++] = v;
			p->stats.messages++;	/* the pebble, or "no receiver", to the DCC */
			for (d = 0; d < dim; d++) {
				u32 x = v ^ (1U << d);

				if (hcube_usable(cube->state[x]) &&
				    cube->load[x] < fl) {
					empty = false;
					if (w.spare[x] && add_receiver(&w, &nr, x) != NONE)
						w.pebbles[x]++;
				}
			}
			if (empty)
				any_empty = true;
		}
		if (!ns)
			continue;
		/* an empty pebble's domain: the cluster's light vertices */
		if (any_empty)
			for (v = lo; v < hi; v++)
				if (w.spare[v])
					add_receiver(&w, &nr, v);
		/* Phase 3: the controller's exact assignment */
		for (i = 0; i < ns; i++) {
			bool empty = true;

			for (d = 0; d < dim; d++) {
				u32 x = owner[i] ^ (1U << d);

				if (hcube_usable(cube->state[x]) && cube->load[x] < fl)
					empty = false;
			}
			w.supply[i] = w.excess[owner[i]];
			for (j = 0; j < nr; j++) {
				u32 r = w.recv[j], dist = HCUBE_NO_ARC;

				if (is_power_of_2(r ^ owner[i]) &&
				    hcube_usable(cube->state[r]))
					dist = 1;
				else if (empty && (r >> cdim) == c)
					dist = hcube_lplan_dist(&w.lp, owner[i], r);
				if (dist == HCUBE_DIST_NONE)
					dist = HCUBE_NO_ARC;
				w.cost[i * nr + j] = dist;
			}
		}
		for (j = 0; j < nr; j++)
			if (w.pebbles[w.recv[j]] > 1)
				p->stats.contended++;
		err = hcube_assign(ns, nr, w.supply, w.cap, w.cost, w.flow, &cost,
				   w.assign);
		if (err)
			return err;
		/* Phase 4: closed pebbles go back; the owners migrate */
		for (i = 0; i < ns; i++) {
			bool closed = false;

			for (j = 0; j < nr; j++) {
				u32 f = w.flow[i * nr + j];

				if (!f)
					continue;
				closed = true;
				err = hcube_lplan_add(&w.lp, owner[i], w.recv[j], f, 1);
				if (err)
					return err;
				w.excess[owner[i]] -= f;
				w.spare[w.recv[j]] -= f;
			}
			if (closed)
				p->stats.messages++;
		}
		for (j = 0; j < nr; j++) {
			w.pebbles[w.recv[j]] = 0;
			w.rid[w.recv[j]] = NONE;
		}
	}
	err = hcube_lplan_emit(&w.lp, p);
	if (err)
		return err;
	/* advertise, pebbles to the DCC, closed pebbles back; then migrate */
	p->stats.comm_steps = 3 + p->nsteps;
	return HCUBE_OK;
}

const struct hcube_policy_ops hcube_pebble_ops = {
	.name = "pebble",
	.flags = HCUBE_POLICY_F_CONTENTION,
	.work_memsize = pebble_work_memsize,
	.plan = pebble_plan,
};
