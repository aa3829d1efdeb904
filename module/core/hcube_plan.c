// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: the balancing policies of paper 000.
 *
 * CWA (Algorithm 2) and MCWA (Algorithm 3) share one engine: CWA on the
 * balancing subcube C_b with quotas weighted by the tree sizes omega; on a
 * fault-free cube C_b is the whole cube, every omega is 1 and the engine is
 * exactly CWA. DEM (Algorithm 1) is a single sweep over the dimensions.
 *
 * The engine keeps the paper's per-node vectors l^j, q^j, delta^j, theta^j
 * once per j-subcube (all nodes of a j-subcube hold the same values): level j
 * has 2^(k-j) entries, so the whole state is O(N) and a plan O(N log N) time.
 *
 * hcube_plan_build() dispatches every policy (the others live in
 * hcube_opt.c, hcube_diffuse.c, hcube_sbn.c and hcube_pebble.c) and
 * replays each plan before returning it.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

struct hcube_cwa {
	u32 k;			/* dimension of C_b */
	s32 *l, *q, *d, *th;	/* per level, see cwa_idx() */
	const u16 *vertex;	/* local vertex -> label */
	u32 bit[HCUBE_MAX_DIM];	/* local dimension -> label bit */
};

struct plan_work {
	struct hcube_cwa cwa;
	u32 *lt;		/* l_t: load of a vertex and its descendants */
	u32 *qt;		/* q_t: their quota */
};

static size_t cwa_entries(u32 dim)
{
	return ((size_t)2 << dim) - 1;
}

static size_t plan_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return 4 * hcube_align(cwa_entries(dim) * sizeof(s32)) +
	       2 * hcube_align(n * sizeof(u32));
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* Scratch of hcube_imbalance(): components, their sizes and totals. */
static size_t imbalance_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return 3 * hcube_align(n * sizeof(u16)) + hcube_align(n * sizeof(u32));
}

size_t hcube_work_memsize(u32 dim)
{
	size_t a;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	a = plan_work_memsize(dim);
	a = max_size(a, hcube_topo_work_memsize(dim));
	a = max_size(a, hcube_route_work_memsize(dim));
	a = max_size(a, hcube_opt_work_memsize(dim));
	a = max_size(a, hcube_sbn_work_memsize(dim));
	a = max_size(a, hcube_pebble_work_memsize(dim));
	a = max_size(a, 2 * hcube_align(((size_t)1 << dim) * sizeof(u32)));
	return max_size(a, imbalance_memsize(dim));
}

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

int hcube_plan_init(struct hcube_plan *p, u32 dim, void *mem)
{
	struct hcube_carver c = { .pos = mem };

	if (dim > HCUBE_MAX_DIM)
		return HCUBE_E_DIM;
	p->dim = dim;
	p->policy = HCUBE_POLICY_MCWA;
	p->applied = HCUBE_POLICY_MCWA;
	p->root = HCUBE_VERTEX_NONE;
	p->budget = HCUBE_AUTO_BUDGET;
	p->work_done = 0;
	p->nsteps = 0;
	p->ntransfers = 0;
	p->cap = hcube_plan_max_transfers(dim);
	p->transfers = hcube_carve(&c, p->cap * sizeof(*p->transfers));
	p->after = hcube_carve(&c, ((size_t)1 << dim) * sizeof(*p->after));
	p->observer = NULL;
	return HCUBE_OK;
}

static void plan_work_init(struct plan_work *w, u32 dim, void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t e = cwa_entries(dim) * sizeof(s32);
	size_t n = (size_t)1 << dim;

	w->cwa.l = hcube_carve(&c, e);
	w->cwa.q = hcube_carve(&c, e);
	w->cwa.d = hcube_carve(&c, e);
	w->cwa.th = hcube_carve(&c, e);
	w->lt = hcube_carve(&c, n * sizeof(u32));
	w->qt = hcube_carve(&c, n * sizeof(u32));
}

/* Index of the j-subcube holding local vertex @v (j-subcube number @s). */
static inline u32 cwa_off(const struct hcube_cwa *c, u32 j)
{
	return (2U << c->k) - (2U << (c->k - j));
}

s32 hcube_cwa_value(const struct hcube_cwa *c, enum hcube_cwa_val what,
		    u32 level, u32 v)
{
	u32 i;

	if (level > c->k || v >= (1U << c->k))
		return 0;
	i = cwa_off(c, level) + (v >> level);
	switch (what) {
	case HCUBE_CWA_L:
		return c->l[i];
	case HCUBE_CWA_Q:
		return c->q[i];
	case HCUBE_CWA_DELTA:
		return c->d[i];
	case HCUBE_CWA_THETA:
		return c->th[i];
	case HCUBE_CWA_GAMMA:
		return c->d[i] - c->th[i];
	}
	return 0;
}

u32 hcube_cwa_dim(const struct hcube_cwa *c)
{
	return c->k;
}

u32 hcube_cwa_vertex(const struct hcube_cwa *c, u32 v)
{
	return c->vertex[v];
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

/* Gathering and QuotaCalculation (Algorithm 3, lines 2-9 and 33-41). */
static void cwa_quota(struct hcube_cwa *c, const struct hcube_topo *t,
		      const u32 *lt)
{
	u32 nv = 1U << c->k;
	u32 j, s, v, avg, rem, prefix = 0;

	for (v = 0; v < nv; v++)
		c->l[v] = lt[c->vertex[v]];
	for (j = 0; j < c->k; j++) {
		u32 lo = cwa_off(c, j), hi = cwa_off(c, j + 1);

		for (s = 0; s < (nv >> (j + 1)); s++)
			c->l[hi + s] = c->l[lo + 2 * s] + c->l[lo + 2 * s + 1];
	}

	/*
	 * l_avg and R over the attached vertices; the first R of them in label
	 * order of their C_b root get one task more (line 36, with the sum
	 * taken over the roots before u_i).
	 */
	avg = (u32)c->l[cwa_off(c, c->k)] / t->nattached;
	rem = (u32)c->l[cwa_off(c, c->k)] % t->nattached;
	for (v = 0; v < nv; v++) {
		u32 w = t->omega[c->vertex[v]];
		u32 q = w * avg;

		if (prefix < rem)
			q += rem - prefix < w ? rem - prefix : w;
		prefix += w;
		c->q[v] = q;
	}
	for (j = 0; j < c->k; j++) {
		u32 lo = cwa_off(c, j), hi = cwa_off(c, j + 1);

		for (s = 0; s < (nv >> (j + 1)); s++)
			c->q[hi + s] = c->q[lo + 2 * s] + c->q[lo + 2 * s + 1];
	}
	for (v = 0; v < cwa_entries(c->k); v++) {
		c->d[v] = c->l[v] - c->q[v];
		c->th[v] = 0;
	}
}

/*
 * TaskMigration along local dimension @k (Algorithm 2, lines 15-22): in each
 * (k+1)-subcube the overloaded k-half splits theta^k = delta^k over its
 * j-subcubes, j = k-1 .. 0, and each of its vertices sends theta^0 across k.
 */
static int cwa_migrate(struct hcube_cwa *c, struct hcube_plan *p, u32 k,
		       u32 step)
{
	u32 nv = 1U << c->k;
	u32 s, j, i, v;
	int err;

	for (i = 0; i < cwa_off(c, k + 1); i++)
		c->th[i] = 0;

	for (s = 0; s < (nv >> (k + 1)); s++) {
		u32 o, ko = cwa_off(c, k);

		if (c->d[ko + 2 * s] > 0)
			o = 2 * s;
		else if (c->d[ko + 2 * s + 1] > 0)
			o = 2 * s + 1;
		else
			continue;
		c->th[ko + o] = c->d[ko + o];
		for (j = k; j-- > 0;) {
			u32 up = cwa_off(c, j + 1), lo = cwa_off(c, j);
			u32 first = o << (k - j - 1), last = (o + 1) << (k - j - 1);
			u32 t;

			for (t = first; t < last; t++) {
				s32 theta = c->th[up + t];
				s32 gamma = c->d[up + t] - theta;
				s32 d0 = c->d[lo + 2 * t], d1 = c->d[lo + 2 * t + 1];

				if (d0 <= gamma) {
					c->th[lo + 2 * t] = 0;
					c->th[lo + 2 * t + 1] = theta;
				} else {
					c->th[lo + 2 * t] = d0 - gamma < theta ?
							    d0 - gamma : theta;
					c->th[lo + 2 * t + 1] = d1 > 0 ? d1 : 0;
				}
			}
		}
	}

	if (p->observer)
		p->observer->fn(p->observer, c, k);

	/* Move theta^0 across k, then update both sides' vectors (lines 19-22). */
	for (v = 0; v < nv; v++) {
		if (c->th[v] <= 0)
			continue;
		err = hcube_plan_emit(p, step, c->vertex[v],
				      c->vertex[v] ^ c->bit[k], c->th[v]);
		if (err)
			return err;
	}
	for (j = 0; j <= k; j++) {
		u32 lo = cwa_off(c, j);

		for (s = 0; s < (nv >> j); s++) {
			s32 theta = c->th[lo + s];
			u32 partner = s ^ (1U << (k - j));

			if (theta <= 0)
				continue;
			c->l[lo + s] -= theta;
			c->d[lo + s] -= theta;
			c->l[lo + partner] += theta;
			c->d[lo + partner] += theta;
		}
	}
	return HCUBE_OK;
}

/* Split q_t of every attached vertex over itself and its children. */
static void tree_quota(const struct hcube_topo *t, u32 *qt)
{
	u32 i;

	for (i = 0; i < t->nattached; i++) {
		u32 u = t->order[i];
		u32 w = t->omega[u];
		u32 a = qt[u] / w, r = qt[u] % w, pre = 0, d;

		/* u keeps a or a + 1; line 44 */
		if (r)
			r--;
		for (d = 0; d < t->dim; d++) {
			u32 x = u ^ (1U << d), wc, extra = 0;

			if (t->parent[x] != (s32)u)
				continue;
			wc = t->omega[x];
			if (r > pre)
				extra = r - pre < wc ? r - pre : wc;
			qt[x] = a * wc + extra;
			pre += wc;
		}
	}
}

static int plan_mcwa(struct hcube_plan *p, const struct hcube_cube *cube,
		     const struct hcube_topo *t, struct plan_work *w)
{
	struct hcube_cwa *c = &w->cwa;
	u32 n = 1U << cube->dim;
	u32 i, v, d, kk, m;
	int err;

	/* Lines 19-22: l_t, children before parents. */
	for (v = 0; v < n; v++)
		w->lt[v] = t->dist[v] == HCUBE_DIST_NONE ? 0 : cube->load[v];
	for (i = t->nattached; i-- > (1U << t->cb_dim);) {
		v = t->order[i];
		w->lt[t->parent[v]] += w->lt[v];
	}

	c->k = t->cb_dim;
	c->vertex = t->cb_vertex;
	for (kk = 0, m = t->cb_mask; m; m &= m - 1)
		c->bit[kk++] = m & ~(m - 1);
	cwa_quota(c, t, w->lt);

	for (v = 0; v < (1U << c->k); v++)
		w->qt[c->vertex[v]] = c->q[v];
	tree_quota(t, w->qt);

	/* Lines 27-29: excess climbs the trees, deepest first. */
	for (d = t->depth; d >= 1; d--) {
		for (v = 0; v < n; v++) {
			if (t->dist[v] != d || w->lt[v] <= w->qt[v])
				continue;
			err = hcube_plan_emit(p, t->depth - d + 1, v,
					      t->parent[v], w->lt[v] - w->qt[v]);
			if (err)
				return err;
		}
	}
	/* Lines 14-15: CWA inside C_b, highest free dimension first. */
	for (kk = c->k; kk-- > 0;) {
		err = cwa_migrate(c, p, kk, t->depth + c->k - kk);
		if (err)
			return err;
	}
	/* Lines 16-17 and 30-32: quotas go down to underloaded subtrees. */
	for (d = 1; d <= t->depth; d++) {
		for (v = 0; v < n; v++) {
			if (t->dist[v] != d || w->lt[v] >= w->qt[v])
				continue;
			err = hcube_plan_emit(p, t->depth + c->k + d,
					      t->parent[v], v, w->qt[v] - w->lt[v]);
			if (err)
				return err;
		}
	}
	p->nsteps = 2 * t->depth + c->k;
	p->stats.comm_steps = 4 * t->depth + 3 * c->k;
	return HCUBE_OK;
}

/*
 * Algorithm 1, one sweep: at dimension k each pair of healthy neighbours
 * moves half their difference (rounded down) to the lighter one; a vertex
 * whose neighbour is faulty, offline or absent skips the dimension.
 */
static int plan_dem(struct hcube_plan *p, const struct hcube_cube *cube,
		    u32 *cur)
{
	u32 n = 1U << cube->dim;
	u32 k, u;
	int err;

	for (u = 0; u < n; u++)
		cur[u] = cube->load[u];
	for (k = 0; k < cube->dim; k++) {
		for (u = 0; u < n; u++) {
			u32 v = u | (1U << k), from, to, c;

			if (u == v || !hcube_usable(cube->state[u]) ||
			    !hcube_usable(cube->state[v]))
				continue;
			from = cur[u] > cur[v] ? u : v;
			to = from ^ (1U << k);
			c = (cur[from] - cur[to]) / 2;
			err = hcube_plan_emit(p, k + 1, from, to, c);
			if (err)
				return err;
			cur[from] -= c;
			cur[to] += c;
		}
	}
	p->nsteps = cube->dim;
	/* Per dimension: two steps to exchange loads, one to migrate. */
	p->stats.comm_steps = 3 * cube->dim;
	return HCUBE_OK;
}

/* The topology must be the one built from these states. */
static bool topo_matches(const struct hcube_topo *t, const struct hcube_cube *cube)
{
	u32 n = 1U << cube->dim;
	u32 v, d, healthy = 0, attached = 0;

	if (!t || t->dim != cube->dim || t->cb_dim > t->dim)
		return false;
	for (v = 0; v < n; v++) {
		bool in = t->dist[v] != HCUBE_DIST_NONE;

		if (hcube_usable(cube->state[v]))
			healthy++;
		if (!in)
			continue;
		attached++;
		if (!hcube_usable(cube->state[v]))
			return false;
		for (d = 0; d < t->dim; d++) {
			u32 x = v ^ (1U << d);

			if (hcube_usable(cube->state[x]) &&
			    t->dist[x] == HCUBE_DIST_NONE)
				return false;
		}
	}
	return healthy == t->nhealthy && attached == t->nattached &&
	       attached >= (1U << t->cb_dim);
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
		    hweight32(x->from ^ x->to) != 1 ||
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

static int plan_one(struct hcube_plan *p, enum hcube_policy policy,
		    const struct hcube_cube *cube, const struct hcube_topo *t,
		    u64 budget, void *work);
static int plan_auto(struct hcube_plan *p, const struct hcube_cube *cube,
		     const struct hcube_topo *t, u32 nhealthy, void *work);

int hcube_plan_build(struct hcube_plan *p, enum hcube_policy policy,
		     const struct hcube_cube *cube, const struct hcube_topo *t,
		     void *work)
{
	u32 n, v, nhealthy = 0;
	u64 total = 0;
	int err;

	if (cube->dim > HCUBE_MAX_DIM || cube->dim != p->dim)
		return HCUBE_E_DIM;
	if ((u32)policy >= __HCUBE_POLICY_MAX)
		return HCUBE_E_POLICY;
	n = 1U << cube->dim;
	for (v = 0; v < n; v++) {
		if (cube->state[v] >= HCUBE_V_NSTATES)
			return HCUBE_E_STATE;
		if (hcube_usable(cube->state[v]))
			nhealthy++;
		else if (cube->load[v])
			return HCUBE_E_FAULTY_LOAD;
		total += cube->load[v];
	}
	if (!nhealthy)
		return HCUBE_E_NO_HEALTHY;
	if (total > HCUBE_MAX_TOTAL_LOAD)
		return HCUBE_E_OVERFLOW;
	if (policy == HCUBE_POLICY_CWA && nhealthy != n)
		return HCUBE_E_NEED_MCWA;

	if (policy == HCUBE_POLICY_AUTO)
		return plan_auto(p, cube, t, nhealthy, work);
	err = plan_one(p, policy, cube, t, 0, work);
	if (err)
		return err;
	p->stats.imbalance = hcube_imbalance(cube->dim, cube->state, p->after,
					     work);
	return HCUBE_OK;
}

static void plan_reset(struct hcube_plan *p, u32 policy)
{
	p->policy = policy;
	p->applied = policy;
	p->root = HCUBE_VERTEX_NONE;
	p->work_done = 0;
	p->ntransfers = 0;
	p->nsteps = 0;
	p->stats.comm_steps = 0;
	p->stats.messages = 0;
	p->stats.job_messages = 0;
	p->stats.contended = 0;
	p->stats.imbalance = 0;
}

/* One policy's plan (not auto), replayed, with its statistics. */
static int plan_one(struct hcube_plan *p, enum hcube_policy policy,
		    const struct hcube_cube *cube, const struct hcube_topo *t,
		    u64 budget, void *work)
{
	u32 n = 1U << cube->dim, v, nh = 0;
	struct plan_work w;
	int err;

	plan_reset(p, policy);
	for (v = 0; v < n; v++)
		nh += hcube_usable(cube->state[v]);
	switch (policy) {
	case HCUBE_POLICY_DEM:
		plan_work_init(&w, cube->dim, work);
		err = plan_dem(p, cube, w.lt);
		/* every vertex sends its load along each dimension it uses */
		p->stats.messages = nh * (p->stats.comm_steps - p->nsteps);
		break;
	case HCUBE_POLICY_MCWA:
	case HCUBE_POLICY_CWA:
		if (!topo_matches(t, cube))
			return HCUBE_E_TOPO;
		plan_work_init(&w, cube->dim, work);
		err = plan_mcwa(p, cube, t, &w);
		p->stats.messages = nh * (p->stats.comm_steps - p->nsteps);
		break;
	case HCUBE_POLICY_OPTIMAL:
		err = hcube_plan_optimal(p, cube, budget, work);
		break;
	case HCUBE_POLICY_RID:
	case HCUBE_POLICY_SID:
		err = hcube_plan_diffuse(p, cube, policy == HCUBE_POLICY_SID, work);
		break;
	case HCUBE_POLICY_SBN:
	case HCUBE_POLICY_SBN_CUBE:
	case HCUBE_POLICY_SBN_HEUR:
		err = hcube_plan_sbn(p, cube, policy, work);
		break;
	case HCUBE_POLICY_PEBBLE:
		err = hcube_plan_pebble(p, cube, work);
		break;
	default:
		return HCUBE_E_POLICY;
	}
	if (!err)
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
	return HCUBE_OK;
}

/*
 * auto: the candidates are DEM, MCWA (when the topology is there) and
 * optimal within p->budget work units. Among those that reach the least
 * imbalance, the fewest task-hops wins, then the cheaper to compute
 * (DEM, MCWA, optimal). optimal is computed last, so that when it wins its
 * plan is already in place; otherwise the winner is built again.
 */
#define AUTO_NCAND	3

static int plan_auto(struct hcube_plan *p, const struct hcube_cube *cube,
		     const struct hcube_topo *t, u32 nhealthy, void *work)
{
	static const u32 cand[AUTO_NCAND] = {
		HCUBE_POLICY_DEM, HCUBE_POLICY_MCWA, HCUBE_POLICY_OPTIMAL
	};
	u32 best = __HCUBE_POLICY_MAX, best_imb = 0, i;
	u64 best_hops = 0, spent = 0;
	int err;

	for (i = 0; i < AUTO_NCAND; i++) {
		u32 imb;

		if (cand[i] == HCUBE_POLICY_MCWA && !topo_matches(t, cube))
			continue;
		err = plan_one(p, cand[i], cube, t, p->budget, work);
		spent += p->work_done;
		if (err == HCUBE_E_BUDGET || err == HCUBE_E_PLAN_SIZE)
			continue;
		if (err)
			return err;
		imb = hcube_imbalance(cube->dim, cube->state, p->after, work);
		if (best == __HCUBE_POLICY_MAX || imb < best_imb ||
		    (imb == best_imb && p->stats.migrations < best_hops)) {
			best = cand[i];
			best_imb = imb;
			best_hops = p->stats.migrations;
		}
	}
	if (best == __HCUBE_POLICY_MAX)
		return HCUBE_E_BUDGET;
	if (p->applied != best) {
		err = plan_one(p, best, cube, t, 0, work);
		if (err)
			return err;
	}
	p->policy = HCUBE_POLICY_AUTO;
	p->work_done = spent;
	p->stats.imbalance = best_imb;
	(void)nhealthy;
	return HCUBE_OK;
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
