// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: fault-tolerant all-to-all personalized communication (H.
 * Masuyama and E. Masuyama, "A Method of Fault-Tolerant All-to-All
 * Personalized Communication in Hypercubes", IPSJ Journal, technical note,
 * 2003).
 *
 * Model: all-port; in one time unit a datum may cross several links (a
 * circuit), and each direction of a link carries at most one datum per
 * unit. Every healthy node has one datum for every other healthy node; a
 * schedule never touches a faulty node.
 *
 * Building blocks, on a subcube with inner dimensions D (m of them):
 * - XOR exchange (no fault): at unit k = 1 .. 2^m - 1 every node y sends
 *   its datum for y ^ t_k along the e-cube path (dimensions lowest first).
 *   For one t all these paths are link-disjoint, so 2^m - 1 units.
 * - A_1 (one fault phi): split along the highest dimension d' of D into the
 *   half H without phi and F with it; M = 2^(m-1), t_0 = 0, t_1.. the
 *   nonzero masks of D \ {d'}. Step 1 (M units): XOR exchange in H; every
 *   healthy f in F sends its data for H across d', the one for f ^ d' ^ t_k
 *   at unit k + 1. Step 2 (M - 1): each y in H forwards what f = y ^ d'
 *   sent, XOR exchange in H. Step 3 (M - 1): XOR exchange in H of the data
 *   for F, each to the H-neighbour of its destination. Step 4 (M): those
 *   cross d' into F, one a unit; at the same time every f sends its data
 *   for F across d'. Step 5 (M): XOR exchange in H of the latter towards the
 *   neighbours of their destinations, each crossing d' in the next unit.
 *   5M - 2 = 5 * 2^(m-1) - 2 units, the paper's count.
 * Whole schedules:
 * - f = 0: the XOR exchange of the cube; f = 1: A_1 on the cube.
 * - A_2 (f = 2): the halves along the highest dimension d where the faults
 *   differ, one fault each; A_f (f >= 3): subcubes of f + 1 dimensions whose
 *   outer bits tell the faults apart, at most one fault each (the paper's
 *   partner sets joined to their perfect neighbours). Window 0 runs A_1 (or
 *   the XOR exchange in a perfect subcube) in every subcube; window s >= 1
 *   does it again with the data node x ^ s' (s' = s spread over the outer
 *   dimensions) sent to node x: x ^ s' crossed to x along the outer e-cube
 *   path during window s - 1, one datum a unit, on links no subcube uses
 *   (the outer ones). W units a window, 2^(outer dims) windows.
 * - Phase 2 Step 1: a node whose outer path to x ^ s' meets a faulty node
 *   (the paper's "nodes corresponding to faulty nodes") sends its data for
 *   that subcube on circuits of free links found by breadth-first search,
 *   in the first unit where one exists; units are added only when no unit
 *   of the schedule has a free path.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

#define NONE	HCUBE_VERTEX_NONE

struct aapc_ctx {
	u32 dim, n;
	const u8 *state;
	struct hcube_aapc_hop *hops;
	u64 cap, nhops;
	u8 *occ;		/* bit per (unit - 1, node, dimension) */
	u32 umax, units;
	u16 *dist, *queue, *from;
	u32 inner, outer;	/* dimension masks */
	u32 w_units;
	u32 sbits;		/* s spread over the outer dimensions */
};

static u32 aapc_umax(u32 dim)
{
	return (3U << dim) + 64;
}

size_t hcube_aapc_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	return hcube_align(((size_t)aapc_umax(dim) * n * (dim ? dim : 1) + 7) / 8) +
	       3 * hcube_align(n * sizeof(u16));
}

u64 hcube_aapc_max_hops(u32 dim)
{
	u64 n = 1ULL << dim;

	return n * n * (2 * dim + 2);
}

/* bit k of @v's low bits deposited on the set bits of @mask, lowest first */
static u32 pdep(u32 v, u32 mask)
{
	u32 out = 0, bit;

	for (bit = 1; mask; bit <<= 1) {
		u32 low = mask & ~(mask - 1);

		if (v & bit)
			out |= low;
		mask &= mask - 1;
	}
	return out;
}

static bool healthy(const struct aapc_ctx *c, u32 v)
{
	return hcube_usable(c->state[v]);
}

static u8 *occ_byte(struct aapc_ctx *c, u32 unit, u32 node, u32 d, u8 *bit)
{
	u64 idx = ((u64)(unit - 1) * c->n + node) * (c->dim ? c->dim : 1) + d;

	*bit = 1U << (idx & 7);
	return &c->occ[idx >> 3];
}

static bool link_free(struct aapc_ctx *c, u32 unit, u32 node, u32 d)
{
	u8 bit, *b = occ_byte(c, unit, node, d, &bit);

	return !(*b & bit);
}

/* One hop of a datum: the link must be free in that unit. */
static int hop(struct aapc_ctx *c, u32 unit, u32 from, u32 to, u32 src, u32 dst)
{
	u8 bit, *b;

	if (!unit || unit > c->umax)
		return HCUBE_E_PLAN_SIZE;
	if (!is_power_of_2(from ^ to) || !healthy(c, from) || !healthy(c, to))
		return HCUBE_E_INTERNAL;
	b = occ_byte(c, unit, from, __ffs(from ^ to), &bit);
	if (*b & bit)
		return HCUBE_E_INTERNAL;	/* two data on one link: a bug */
	*b |= bit;
	if (c->hops) {
		struct hcube_aapc_hop *h;

		if (c->nhops >= c->cap)
			return HCUBE_E_PLAN_SIZE;
		h = &c->hops[c->nhops];
		h->unit = unit;
		h->from = from;
		h->to = to;
		h->src = src;
		h->dst = dst;
		h->reserved = 0;
	}
	c->nhops++;
	if (unit > c->units)
		c->units = unit;
	return HCUBE_OK;
}

/* The datum (src, dst) from @a to @b in one unit, dimensions lowest first. */
static int ecube(struct aapc_ctx *c, u32 unit, u32 a, u32 b, u32 src, u32 dst)
{
	u32 diff = a ^ b;
	int err;

	while (diff) {
		u32 low = diff & ~(diff - 1);

		err = hop(c, unit, a, a ^ low, src, dst);
		if (err)
			return err;
		a ^= low;
		diff &= diff - 1;
	}
	return HCUBE_OK;
}

/* Is the outer e-cube path from @x to x ^ sbits free of faulty nodes? */
static bool outer_ok(const struct aapc_ctx *c, u32 x, u32 sbits)
{
	u32 diff = sbits;

	if (!healthy(c, x))
		return false;
	while (diff) {
		x ^= diff & ~(diff - 1);
		diff &= diff - 1;
		if (!healthy(c, x))
			return false;
	}
	return true;
}

/* In the current window: the source of the data node @y holds, or NONE. */
static u32 owner(const struct aapc_ctx *c, u32 y)
{
	u32 x = y ^ c->sbits;

	if (!healthy(c, y) || !healthy(c, x))
		return NONE;
	if (c->sbits && !outer_ok(c, x, c->sbits))
		return NONE;	/* Phase 2 Step 1 carries those */
	return x;
}

/*
 * Move the datum that @holder holds for @dst from @a to @b (e-cube) at
 * @unit, if the datum exists in this window: nothing when @holder or @dst
 * is faulty (A_1's steps for a faulty f need no test of their own).
 */
static int move(struct aapc_ctx *c, u32 unit, u32 holder, u32 dst, u32 a, u32 b)
{
	u32 src = owner(c, holder);

	if (src == NONE || !healthy(c, dst) || src == dst)
		return HCUBE_OK;
	return ecube(c, unit, a, b, src, dst);
}

/* The XOR exchange on the subcube (base, mask) from unit u0 + 1. */
static int run_xor(struct aapc_ctx *c, u32 base, u32 mask, u32 u0)
{
	u32 m = hweight32(mask), k, i;
	int err;

	for (k = 1; k < (1U << m); k++) {
		u32 t = pdep(k, mask);

		for (i = 0; i < (1U << m); i++) {
			u32 y = base | pdep(i, mask);

			err = move(c, u0 + k, y, y ^ t, y, y ^ t);
			if (err)
				return err;
		}
	}
	return HCUBE_OK;
}

/* A_1 on the subcube (base, mask) whose one faulty node is @phi. */
static int run_a1(struct aapc_ctx *c, u32 base, u32 mask, u32 phi, u32 u0)
{
	u32 dp = mask, dmask, M, k, i;
	int err;

	/* d': the highest dimension of the subcube */
	while (dp & (dp - 1))
		dp &= dp - 1;
	dmask = mask & ~dp;
	M = 1U << hweight32(dmask);

	for (i = 0; i < M; i++) {
		u32 off = pdep(i, dmask);
		u32 h = (base | off | ((phi & dp) ^ dp));	/* in H */
		u32 f = h ^ dp;					/* in F */

		/* Step 1 */
		for (k = 1; k < M; k++) {
			u32 t = pdep(k, dmask);

			err = move(c, u0 + k, h, h ^ t, h, h ^ t);
			if (err)
				return err;
		}
		for (k = 1; k <= M; k++) {
			u32 t = pdep(k - 1, dmask);

			err = move(c, u0 + k, f, h ^ t, f, h);
			if (err)
				return err;
		}
		/* Step 2: y = h forwards f's data for H */
		for (k = 1; k < M; k++) {
			u32 t = pdep(k, dmask);

			err = move(c, u0 + M + k, f, h ^ t, h, h ^ t);
			if (err)
				return err;
		}
		/* Step 3: h's data for F to their destinations' neighbours */
		for (k = 1; k < M; k++) {
			u32 t = pdep(k, dmask);

			err = move(c, u0 + 2 * M - 1 + k, h, h ^ t ^ dp, h, h ^ t);
			if (err)
				return err;
		}
		/* Step 4: into F across d'; F's data for F out to H */
		for (k = 1; k <= M; k++) {
			u32 t = pdep(k - 1, dmask);

			err = move(c, u0 + 3 * M - 2 + k, h ^ t, f, h, f);
			if (err)
				return err;
		}
		for (k = 1; k < M; k++) {
			u32 t = pdep(k, dmask);

			err = move(c, u0 + 3 * M - 2 + k, f, f ^ t, f, h);
			if (err)
				return err;
		}
		/* Step 5: through H, then across d' one unit later */
		for (k = 1; k < M; k++) {
			u32 t = pdep(k, dmask), src = owner(c, f);

			if (!healthy(c, f) || src == NONE || !healthy(c, f ^ t))
				continue;
			err = ecube(c, u0 + 4 * M - 2 + k, h, h ^ t, src, f ^ t);
			if (!err)
				err = hop(c, u0 + 4 * M - 1 + k, h ^ t, f ^ t, src, f ^ t);
			if (err)
				return err;
		}
	}
	return HCUBE_OK;
}

static u32 a1_units(u32 m)
{
	return m ? 5 * (1U << (m - 1)) - 2 : 0;
}

/* Breadth-first search over free links at @unit from @a; true if @b reached. */
static bool free_path(struct aapc_ctx *c, u32 unit, u32 a, u32 b)
{
	u32 head = 0, tail = 0, v, d;

	for (v = 0; v < c->n; v++)
		c->dist[v] = 0xffff;
	c->dist[a] = 0;
	c->queue[tail++] = a;
	while (head < tail) {
		u32 u = c->queue[head++];

		if (u == b)
			return true;
		for (d = 0; d < c->dim; d++) {
			u32 x = u ^ (1U << d);

			if (c->dist[x] != 0xffff || !healthy(c, x) ||
			    !link_free(c, unit, u, d))
				continue;
			c->dist[x] = c->dist[u] + 1;
			c->from[x] = u;
			c->queue[tail++] = x;
		}
	}
	return false;
}

/* Phase 2 Step 1: a datum on the first free circuit. */
static int place_special(struct aapc_ctx *c, u32 src, u32 dst, u32 *first)
{
	u16 *path = c->queue;	/* free once the search is over */
	u32 unit, len, v, i;
	int err;

	for (unit = *first; unit <= c->umax; unit++) {
		if (!free_path(c, unit, src, dst))
			continue;
		len = 0;
		for (v = dst; v != src; v = c->from[v])
			path[len++] = v;
		for (i = len, v = src; i-- > 0; v = path[i]) {
			err = hop(c, unit, v, path[i], src, dst);
			if (err)
				return err;
		}
		*first = unit;
		return HCUBE_OK;
	}
	return HCUBE_E_PLAN_SIZE;
}

int hcube_aapc(u32 dim, const u8 *state, u32 flags, struct hcube_aapc_hop *hops,
	       u64 cap, struct hcube_aapc_info *info, void *work)
{
	struct hcube_carver carver = { .pos = work };
	u32 n, v, f = 0, faults[HCUBE_MAX_DIM + 1], s, nwin, i, m;
	struct aapc_ctx c;
	size_t occ_bytes;
	u64 nh = 0;
	int err;

	err = hcube_check_states(dim, state);
	if (err)
		return err;
	n = 1U << dim;
	for (v = 0; v < n; v++) {
		if (hcube_usable(state[v])) {
			nh++;
			continue;
		}
		if (f >= dim / 2 + 1 || f > HCUBE_MAX_DIM)
			return HCUBE_E_AAPC_FAULTS;
		faults[f++] = v;
	}
	if (f > dim / 2)
		return HCUBE_E_AAPC_FAULTS;

	c.dim = dim;
	c.n = n;
	c.state = state;
	c.hops = hops;
	c.cap = cap;
	c.nhops = 0;
	c.umax = aapc_umax(dim);
	c.units = 0;
	occ_bytes = ((size_t)c.umax * n * (dim ? dim : 1) + 7) / 8;
	c.occ = hcube_carve(&carver, occ_bytes);
	c.dist = hcube_carve(&carver, n * sizeof(u16));
	c.queue = hcube_carve(&carver, n * sizeof(u16));
	c.from = hcube_carve(&carver, n * sizeof(u16));
	for (i = 0; i < occ_bytes; i++)
		c.occ[i] = 0;

	/* the subcubes: inner dimensions; the outer ones tell faults apart */
	info->faults = f;
	if (f <= 1) {
		info->alg = f ? HCUBE_AAPC_A1 : HCUBE_AAPC_XOR;
		c.outer = 0;
	} else if (f == 2 && !(flags & HCUBE_AAPC_FORCE_AF)) {
		u32 diff = faults[0] ^ faults[1];

		while (diff & (diff - 1))
			diff &= diff - 1;
		info->alg = HCUBE_AAPC_A2;
		c.outer = diff;
	} else {
		u32 a, b, want = dim - f - 1;

		info->alg = HCUBE_AAPC_AF;
		c.outer = 0;
		for (a = 0; a < f; a++) {
			for (b = a + 1; b < f; b++) {
				u32 diff = (faults[a] ^ faults[b]) & ~c.outer;

				if ((faults[a] ^ faults[b]) & c.outer)
					continue;
				while (diff & (diff - 1))
					diff &= diff - 1;
				c.outer |= diff;
				a = 0;
				b = 0;
			}
		}
		for (a = dim; a-- > 0 && hweight32(c.outer) < want;)
			c.outer |= 1U << a;
		if (hweight32(c.outer) != want)
			return HCUBE_E_INTERNAL;
	}
	c.inner = (n - 1) & ~c.outer;
	m = hweight32(c.inner);
	nwin = 1U << hweight32(c.outer);
	c.w_units = f ? a1_units(m) : (1U << m) - 1;
	info->inner_mask = c.inner;
	info->windows = nwin;
	info->window_units = c.w_units;
	info->main_units = nwin * c.w_units;
	info->special_data = 0;

	for (s = 0; s < nwin; s++) {
		u32 sub, u0 = s * c.w_units;

		c.sbits = pdep(s, c.outer);
		for (sub = 0; sub < nwin; sub++) {
			u32 base = pdep(sub, c.outer), phi = NONE, k;

			for (k = 0; k < f; k++)
				if ((faults[k] & c.outer) == base)
					phi = faults[k];
			err = phi == NONE ? run_xor(&c, base, c.inner, u0) :
					    run_a1(&c, base, c.inner, phi, u0);
			if (err)
				return err;
		}
		/* the crossing for window s + 1, during window s */
		if (s + 1 < nwin) {
			u32 sb = pdep(s + 1, c.outer);

			for (v = 0; v < n; v++) {
				u32 y = v ^ sb, k, unit = u0;

				if (!outer_ok(&c, v, sb))
					continue;
				for (k = 0; k < (1U << m); k++) {
					u32 z = (y & c.outer) | pdep(k, c.inner);

					if (!healthy(&c, z))
						continue;
					err = ecube(&c, ++unit, v, y, v, z);
					if (err)
						return err;
				}
			}
		}
	}
	/* Phase 2 Step 1: sources whose outer path meets a faulty node */
	for (s = 1; s < nwin; s++) {
		u32 sb = pdep(s, c.outer);

		for (v = 0; v < n; v++) {
			u32 y = v ^ sb, k, first = 1;

			if (!healthy(&c, v) || outer_ok(&c, v, sb))
				continue;
			for (k = 0; k < (1U << m); k++) {
				u32 z = (y & c.outer) | pdep(k, c.inner);

				if (!healthy(&c, z))
					continue;
				err = place_special(&c, v, z, &first);
				if (err)
					return err;
				info->special_data++;
			}
		}
	}
	info->units = c.units;
	info->hops = c.nhops;
	info->data = nh * (nh ? nh - 1 : 0);
	if (f == 0)
		info->paper_units = n - 1;
	else if (f == 1)
		info->paper_units = 5 * (n / 2) - 2;
	else if (info->alg == HCUBE_AAPC_A2)
		info->paper_units = 5 * (n / 2) + dim - 1;
	else
		info->paper_units = (5 * (1U << f) - 2) * (n >> (f + 1));
	return HCUBE_OK;
}
