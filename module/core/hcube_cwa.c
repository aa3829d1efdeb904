// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: CWA (Algorithm 2) and MCWA (Algorithm 3) of K. Nam, J. Seo,
 * S. Lee and J. Kim, "Synchronous Load Balancing in Hypercube
 * Multicomputers with Faulty Nodes", Journal of Parallel and Distributed
 * Computing 58, 1999.
 *
 * The two share one engine: CWA on the balancing subcube C_b with quotas
 * weighted by the tree sizes omega; on a fault-free cube C_b is the whole
 * cube, every omega is 1 and the engine is exactly CWA.
 *
 * The engine keeps the paper's per-node vectors l^j, q^j, delta^j, theta^j
 * once per j-subcube (all nodes of a j-subcube hold the same values): level j
 * has 2^(k-j) entries, so the whole state is O(N) and a plan O(N log N) time.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

struct hcube_cwa {
	u32 k;			/* dimension of C_b */
	s32 *l, *q, *d, *th;	/* per level, see cwa_off() */
	const u16 *vertex;	/* local vertex -> label */
	u32 bit[HCUBE_MAX_DIM];	/* local dimension -> label bit */
};

struct cwa_work {
	struct hcube_cwa cwa;
	u32 *lt;		/* l_t: load of a vertex and its descendants */
	u32 *qt;		/* q_t: their quota */
};

static size_t cwa_entries(u32 dim)
{
	return ((size_t)2 << dim) - 1;
}

static size_t cwa_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return 4 * hcube_align(cwa_entries(dim) * sizeof(s32)) +
	       2 * hcube_align(n * sizeof(u32));
}

static void cwa_work_init(struct cwa_work *w, u32 dim, void *work)
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

/* MCWA, and CWA on a fault-free cube: the topology matches the cube. */
static int cwa_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	const struct hcube_topo *t = a->topo;
	struct cwa_work work, *w = &work;
	struct hcube_cwa *c = &w->cwa;
	u32 n = 1U << cube->dim;
	u32 i, v, d, kk, m;
	int err;

	cwa_work_init(w, cube->dim, a->work);
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
	/* every vertex sends its load in each exchange step */
	p->stats.messages = t->nhealthy * (p->stats.comm_steps - p->nsteps);
	return HCUBE_OK;
}

const struct hcube_policy_ops hcube_mcwa_ops = {
	.name = "mcwa",
	.flags = HCUBE_POLICY_F_TREES | HCUBE_POLICY_F_AUTO_CANDIDATE,
	.auto_rank = 2,
	.work_memsize = cwa_work_memsize,
	.plan = cwa_plan,
};

const struct hcube_policy_ops hcube_cwa_ops = {
	.name = "cwa",
	.flags = HCUBE_POLICY_F_TREES | HCUBE_POLICY_F_FAULT_FREE,
	.fallback = HCUBE_POLICY_MCWA,
	.work_memsize = cwa_work_memsize,
	.plan = cwa_plan,
};
