// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: CWA and MCWA (Algorithms 2 and 3 of K. Nam, J. Seo, S. Lee
 * and J. Kim, "Synchronous Load Balancing in Hypercube Multicomputers with
 * Faulty Nodes", Journal of Parallel and Distributed Computing 58, 1999) as
 * message passing. Every rank builds the same logical topology from the
 * fault states it knows (the balancing subcube C_b and the trees, as the
 * core's hcube_topo_build() picks them) and then plays its own part:
 *
 *   1. l_t climbs the trees: a vertex adds its children's and tells its
 *      parent (lines 2-4, 19-22);
 *   2. inside C_b, l^j is exchanged across each free dimension, lowest
 *      first (lines 5-8), so that every C_b vertex knows the total;
 *   3. QuotaCalculation (lines 33-48) is local: q^0 of every C_b vertex
 *      follows from the total and the tree sizes omega, which the topology
 *      gives; a vertex keeps the q^j and delta^j of its own j-subcubes;
 *   4. q_t goes down the trees (lines 10-11, 23-26);
 *   5. excess units climb to C_b (lines 12-13, 27-29);
 *   6. TaskMigration inside C_b, highest free dimension first (lines
 *      14-15, Algorithm 2 lines 15-22): a vertex of the half with
 *      delta^k > 0 works out its theta vector from its own delta^j and its
 *      sibling subcubes' (delta^{j+1} - delta^j) and sends it with theta^0
 *      units to its partner, which adds it to its vectors;
 *   7. units go down to the underloaded subtrees (lines 16-17, 30-32).
 *
 * The numbers are the core's (hcube_plan.c): the same remainder and tree
 * quota readings, the same step of every transfer. CWA is the same code
 * on a fault-free cube of 2^n ranks (C_b = the cube, no trees).
 *
 * By weight the loads are weights and every amount is planned the same
 * way; a rank that sent or got other than planned (whole units) adds the
 * difference to its next send (hm_give(), hm_accept()).
 */
#include "hm.h"

struct cwa {
	u32 me, v;		/* label; local index in C_b */
	u32 k, T, d;		/* dim C_b, tree depth, own distance */
	u32 bit[HCUBE_MAX_DIM];	/* local dimension -> label bit */
	s64 l[HCUBE_MAX_DIM + 1], delta[HCUBE_MAX_DIM + 1];
	u32 nchild, child[HCUBE_MAX_DIM];
	u64 lt, lt_child[HCUBE_MAX_DIM];
	u64 qt, qt_child[HCUBE_MAX_DIM];
};

static s64 recv_val(struct hcube_mpi *h, u32 from, int tag)
{
	struct hm_msg m;
	s64 v;

	hm_recv(h, from, tag, &m);
	if (m.hdr.nval != 1)
		hm_fatal(h, "internal: value expected from %u", from);
	v = m.val[0];
	hm_msg_free(&m);
	return v;
}

static void recv_units(struct hcube_mpi *h, u32 from, int tag, u64 planned)
{
	struct hm_msg m;

	hm_recv(h, from, tag, &m);
	hm_accept(h, &m, planned);
	hm_msg_free(&m);
}

/* Lines 33-41: q^0 of every C_b vertex, summed over c's own j-subcubes. */
static void quotas(struct hcube_mpi *h, struct cwa *c)
{
	const struct hcube_topo *t = &h->topo;
	u64 total = (u64)c->l[c->k], avg = total / t->nattached;
	u64 rem = total % t->nattached, prefix = 0;
	u32 i, j;
	s64 q[HCUBE_MAX_DIM + 1] = { 0 };

	for (i = 0; i < (1U << c->k); i++) {
		u64 w = t->omega[t->cb_vertex[i]], qi = w * avg;

		/* the first R tasks to the roots in label order (line 36) */
		if (prefix < rem)
			qi += rem - prefix < w ? rem - prefix : w;
		prefix += w;
		for (j = 0; j <= c->k; j++)
			if ((i >> j) == (c->v >> j))
				q[j] += (s64)qi;
		if (i == c->v)
			c->qt = qi;
	}
	for (j = 0; j <= c->k; j++)
		c->delta[j] = c->l[j] - q[j];
}

/* Lines 43-48 as the core reads them: split q_t over u and its children. */
static void child_quotas(struct hcube_mpi *h, struct cwa *c)
{
	const struct hcube_topo *t = &h->topo;
	u64 w = t->omega[c->me], a = c->qt / w, r = c->qt % w, pre = 0;
	u32 i;

	if (r)
		r--;
	for (i = 0; i < c->nchild; i++) {
		u64 wc = t->omega[c->child[i]], extra = 0;

		if (r > pre)
			extra = r - pre < wc ? r - pre : wc;
		c->qt_child[i] = a * wc + extra;
		pre += wc;
	}
}

/* TaskMigration across local dimension @kk (Algorithm 2, lines 15-22). */
static void migrate(struct hcube_mpi *h, struct cwa *c, u32 kk)
{
	u32 partner = c->me ^ c->bit[kk], step = c->T + c->k - kk, j;
	s64 own = c->delta[kk], other = c->delta[kk + 1] - own;
	bool upper = (c->v >> kk) & 1;
	s64 lower_d = upper ? other : own, upper_d = upper ? own : other;
	s64 theta[HCUBE_MAX_DIM + 1];
	bool sends;

	if (lower_d > 0)
		sends = !upper;
	else if (upper_d > 0)
		sends = upper;
	else
		return;		/* both halves balanced: nothing to say */

	if (sends) {
		theta[kk] = own;
		for (j = kk; j-- > 0;) {
			s64 th = theta[j + 1], gamma = c->delta[j + 1] - th;
			s64 mine = c->delta[j], sib = c->delta[j + 1] - mine;
			bool bj = (c->v >> j) & 1;
			s64 d0 = bj ? sib : mine, d1 = bj ? mine : sib, t0, t1;

			if (d0 <= gamma) {
				t0 = 0;
				t1 = th;
			} else {
				t0 = d0 - gamma < th ? d0 - gamma : th;
				t1 = d1 > 0 ? d1 : 0;
			}
			theta[j] = bj ? t1 : t0;
		}
		hm_give(h, partner, HM_TAG_THETA, theta, kk + 1,
			theta[0] > 0 ? (u64)theta[0] : 0, step);
		for (j = 0; j <= kk; j++) {
			c->l[j] -= theta[j];
			c->delta[j] -= theta[j];
		}
	} else {
		struct hm_msg m;

		hm_recv(h, partner, HM_TAG_THETA, &m);
		if (m.hdr.nval != kk + 1)
			hm_fatal(h, "internal: malformed theta vector from %u", partner);
		hm_accept(h, &m, m.val[0] > 0 ? (u64)m.val[0] : 0);
		for (j = 0; j <= kk; j++) {
			c->l[j] += m.val[j];
			c->delta[j] += m.val[j];
		}
		hm_msg_free(&m);
	}
}

void hm_cwa(struct hcube_mpi *h)
{
	const struct hcube_topo *t = &h->topo;
	struct cwa c = { .me = (u32)h->rank };
	u32 i, j, m;

	c.T = t->depth;
	c.k = t->cb_dim;
	/* Every attached rank counts the paper's steps: 4T + 3k (core.md). */
	h->rep.steps = 4 * c.T + 3 * c.k;
	if (t->dist[c.me] == HCUBE_DIST_NONE)
		return;		/* faulty, or cut off from C_b: takes no part */
	c.d = t->dist[c.me];
	for (i = 0, m = t->cb_mask; m; m &= m - 1)
		c.bit[i++] = m & ~(m - 1);
	for (i = 0; i < c.k; i++)
		if (c.me & c.bit[i])
			c.v |= 1U << i;
	for (j = 0; j < h->dim; j++) {
		u32 x = c.me ^ (1U << j);

		if (x < h->nv && t->parent[x] == (s16)c.me)
			c.child[c.nchild++] = x;
	}

	/* 1. l_t up the trees */
	c.lt = hm_load(h, NULL);
	for (i = 0; i < c.nchild; i++) {
		c.lt_child[i] = (u64)recv_val(h, c.child[i], HM_TAG_LT);
		c.lt += c.lt_child[i];
	}
	if (c.d) {
		s64 lt = (s64)c.lt;

		hm_send_step(h, (u32)t->parent[c.me], HM_TAG_LT, &lt, 1, 0, 0);
		/* 4. q_t from the parent */
		c.qt = (u64)recv_val(h, (u32)t->parent[c.me], HM_TAG_QT);
	} else {
		/* 2. l^j across C_b's dimensions; 3. the quotas */
		c.l[0] = (s64)c.lt;
		for (j = 0; j < c.k; j++) {
			u32 partner = c.me ^ c.bit[j];
			struct hm_msg msg;

			hm_send_step(h, partner, HM_TAG_L, &c.l[j], 1, 0, 0);
			hm_recv(h, partner, HM_TAG_L, &msg);
			c.l[j + 1] = c.l[j] + msg.val[0];
			hm_msg_free(&msg);
		}
		quotas(h, &c);
	}
	child_quotas(h, &c);
	for (i = 0; i < c.nchild; i++) {
		s64 q = (s64)c.qt_child[i];

		hm_send_step(h, c.child[i], HM_TAG_QT, &q, 1, 0, 0);
	}

	/* 5. excess up: the children's first, then this vertex's own */
	for (i = 0; i < c.nchild; i++)
		if (c.lt_child[i] > c.qt_child[i])
			recv_units(h, c.child[i], HM_TAG_UP,
				   c.lt_child[i] - c.qt_child[i]);
	if (c.d && c.lt > c.qt)
		hm_give(h, (u32)t->parent[c.me], HM_TAG_UP, NULL, 0, c.lt - c.qt,
			c.T - c.d + 1);

	/* 6. CWA inside C_b, highest free dimension first */
	if (!c.d)
		for (j = c.k; j-- > 0;)
			migrate(h, &c, j);

	/* 7. units down to the underloaded subtrees */
	if (c.d && c.lt < c.qt)
		recv_units(h, (u32)t->parent[c.me], HM_TAG_DOWN, c.qt - c.lt);
	for (i = 0; i < c.nchild; i++)
		if (c.lt_child[i] < c.qt_child[i])
			hm_give(h, c.child[i], HM_TAG_DOWN, NULL, 0,
				c.qt_child[i] - c.lt_child[i], c.T + c.k + c.d + 1);
}
