// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: logical topology (Section 5 of K. Nam, J. Seo, S. Lee and
 * J. Kim, "Synchronous Load Balancing in Hypercube Multicomputers with
 * Faulty Nodes", Journal of Parallel and Distributed Computing 58, 1999).
 *
 * All maximum-size healthy subcubes are candidates for the balancing subcube
 * C_b. The chosen one attaches the most healthy vertices (its connected
 * component of healthy vertices), then has the smallest tree depth, then the
 * smallest total distance; remaining ties keep the paper's candidate order:
 * free-dimension masks by decreasing value (XX11, X0X1, 1XX1, 11XX on a
 * 4-cube), then bases by increasing value. Depths come from a breadth-first
 * search from each candidate, pruned as soon as it cannot beat the best.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

struct topo_work {
	u16 *comp;		/* component id of each healthy vertex */
	u16 *compsize;		/* vertices in each component */
	u16 *queue;
	u8 *dist;
};

static void topo_work_init(struct topo_work *w, u32 dim, void *work)
{
	struct hcube_carver c = { .pos = work };
	u32 n = 1U << dim;

	w->comp = hcube_carve(&c, n * sizeof(*w->comp));
	w->compsize = hcube_carve(&c, n * sizeof(*w->compsize));
	w->queue = hcube_carve(&c, n * sizeof(*w->queue));
	w->dist = hcube_carve(&c, n * sizeof(*w->dist));
}

size_t hcube_topo_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return hcube_align(n * 2) * 3 + hcube_align(n);
}

size_t hcube_topo_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	if (dim > HCUBE_MAX_DIM)
		return 0;
	/* parent, omega, order, cb_vertex: 2 bytes each; dist: 1 byte */
	return hcube_align(n * 2) * 4 + hcube_align(n);
}

int hcube_topo_init(struct hcube_topo *t, u32 dim, void *mem)
{
	struct hcube_carver c = { .pos = mem };
	u32 n = 1U << dim;

	if (dim > HCUBE_MAX_DIM)
		return HCUBE_E_DIM;
	t->dim = dim;
	t->parent = hcube_carve(&c, n * sizeof(*t->parent));
	t->omega = hcube_carve(&c, n * sizeof(*t->omega));
	t->order = hcube_carve(&c, n * sizeof(*t->order));
	t->cb_vertex = hcube_carve(&c, n * sizeof(*t->cb_vertex));
	t->dist = hcube_carve(&c, n * sizeof(*t->dist));
	return HCUBE_OK;
}

static bool subcube_healthy(const u8 *state, u32 base, u32 mask)
{
	u32 s = 0;

	do {
		if (!hcube_usable(state[base | s]))
			return false;
		s = (s - mask) & mask;
	} while (s);
	return true;
}

struct bfs_result {
	u32 depth;
	u32 total;
	u32 reached;
};

/*
 * Breadth-first search from every vertex of (base, mask) over healthy
 * vertices. Fills dist[] (HCUBE_DIST_NONE where unreached) and, if @order is
 * not NULL, the visiting order. Gives up (returns false) as soon as the depth
 * exceeds @max_depth, or the depth reaches it with the total distance at
 * @max_total or more: such a candidate cannot beat the best one.
 */
static bool bfs_from(u32 dim, const u8 *state, u32 base, u32 mask, u8 *dist,
		     u16 *queue, u32 max_depth, u32 max_total,
		     struct bfs_result *r)
{
	u32 n = 1U << dim;
	u32 head = 0, tail = 0, v, s = 0;

	for (v = 0; v < n; v++)
		dist[v] = HCUBE_DIST_NONE;
	do {
		dist[base | s] = 0;
		queue[tail++] = base | s;
		s = (s - mask) & mask;
	} while (s);

	r->depth = 0;
	r->total = 0;
	while (head < tail) {
		u32 u = queue[head++];
		u32 d;

		for (d = 0; d < dim; d++) {
			u32 x = u ^ (1U << d);

			if (!hcube_usable(state[x]) || dist[x] != HCUBE_DIST_NONE)
				continue;
			dist[x] = dist[u] + 1;
			queue[tail++] = x;
			r->total += dist[x];
			if (dist[x] > r->depth)
				r->depth = dist[x];
			if (r->depth > max_depth ||
			    (r->depth == max_depth && r->total >= max_total))
				return false;
		}
	}
	r->reached = tail;
	return true;
}

/* Fill @t from the search around (base, mask) whose visiting order is in queue. */
static void build_trees(struct hcube_topo *t, const u8 *state, u32 base,
			u32 mask, const struct bfs_result *r, const u16 *queue)
{
	u32 dim = t->dim, n = 1U << dim;
	u32 i, v, s = 0, k = 0;

	t->cb_base = base;
	t->cb_mask = mask;
	t->cb_dim = hweight32(mask);
	t->depth = r->depth;
	t->total_dist = r->total;
	t->nattached = r->reached;

	for (v = 0; v < n; v++) {
		t->parent[v] = -1;
		t->omega[v] = 0;
	}
	do {
		t->cb_vertex[k++] = base | s;
		s = (s - mask) & mask;
	} while (s);

	for (i = 0; i < r->reached; i++) {
		t->order[i] = queue[i];
		t->omega[queue[i]] = 1;
	}
	/* The parent is the neighbour one step closer, lowest dimension first. */
	for (i = k; i < r->reached; i++) {
		u32 d;

		v = queue[i];
		for (d = 0; d < dim; d++) {
			u32 x = v ^ (1U << d);

			if (hcube_usable(state[x]) && t->dist[x] + 1 == t->dist[v]) {
				t->parent[v] = x;
				break;
			}
		}
	}
	/* Subtree sizes, children before parents (reverse visiting order). */
	for (i = r->reached; i-- > k;) {
		v = queue[i];
		t->omega[t->parent[v]] += t->omega[v];
	}
}

static int topo_prepare(struct hcube_topo *t, u32 dim, const u8 *state)
{
	u32 n, v;
	int err;

	if (dim > HCUBE_MAX_DIM || dim != t->dim)
		return HCUBE_E_DIM;
	n = 1U << dim;
	t->nhealthy = 0;
	t->nattached = 0;
	t->ncandidates = 0;
	t->cb_base = 0;
	t->cb_mask = 0;
	t->cb_dim = 0;
	t->depth = 0;
	t->total_dist = 0;
	err = hcube_check_states(dim, state);
	if (err)
		return err;
	for (v = 0; v < n; v++) {
		if (hcube_usable(state[v]))
			t->nhealthy++;
		t->parent[v] = -1;
		t->omega[v] = 0;
		t->dist[v] = HCUBE_DIST_NONE;
	}
	if (!t->nhealthy)
		return HCUBE_E_NO_HEALTHY;
	return HCUBE_OK;
}

int hcube_topo_build_cb(struct hcube_topo *t, u32 dim, const u8 *state,
			u32 base, u32 mask, void *work)
{
	struct topo_work w;
	struct bfs_result r;
	int err;

	err = topo_prepare(t, dim, state);
	if (err)
		return err;
	if ((base & mask) || ((base | mask) >> dim) ||
	    !subcube_healthy(state, base, mask))
		return HCUBE_E_TOPO;
	topo_work_init(&w, dim, work);
	bfs_from(dim, state, base, mask, t->dist, w.queue, ~0U, ~0U, &r);
	build_trees(t, state, base, mask, &r, w.queue);
	t->ncandidates = 1;
	return HCUBE_OK;
}

/* Next base, in increasing order, among the labels with no bit in @mask. */
static u32 next_base(u32 b, u32 mask, u32 all)
{
	return ((b | mask) + 1) & ~mask & all;
}

int hcube_topo_build(struct hcube_topo *t, u32 dim, const u8 *state, void *work)
{
	u32 all, k, mask, base;
	u32 best_base = 0, best_mask = 0, best_size = 0;
	u32 best_depth = ~0U, best_total = ~0U;
	struct topo_work w;
	struct bfs_result r;
	bool found = false;
	int err;

	err = topo_prepare(t, dim, state);
	if (err)
		return err;
	topo_work_init(&w, dim, work);
	hcube_components(dim, state, w.comp, w.compsize, w.queue);
	all = (1U << dim) - 1;

	for (k = dim + 1; k-- > 0 && !found;) {
		for (mask = all + 1; mask-- > 0;) {
			if (hweight32(mask) != k)
				continue;
			base = 0;
			do {
				u32 size;

				if (!subcube_healthy(state, base, mask))
					goto next;
				found = true;
				t->ncandidates++;
				size = w.compsize[w.comp[base]];
				if (size < best_size)
					goto next;
				if (size > best_size) {
					best_depth = ~0U;
					best_total = ~0U;
				}
				if (!bfs_from(dim, state, base, mask, w.dist,
					      w.queue, best_depth, best_total, &r))
					goto next;
				best_size = size;
				best_depth = r.depth;
				best_total = r.total;
				best_base = base;
				best_mask = mask;
next:
				base = next_base(base, mask, all);
			} while (base);
		}
	}

	/* Redo the winner's search into t->dist to keep its visiting order. */
	bfs_from(dim, state, best_base, best_mask, t->dist, w.queue, ~0U, ~0U, &r);
	build_trees(t, state, best_base, best_mask, &r, w.queue);
	return HCUBE_OK;
}

bool hcube_topo_matches(const struct hcube_topo *t, const struct hcube_cube *cube)
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

bool hcube_alg4_accepts(u32 dim, const u8 *state, u32 base, u32 mask)
{
	u32 n = 1U << dim;
	u32 fixed = ~mask & (n - 1);
	u32 a, b;

	/*
	 * Step 6: for each faulty a at distance j (1 <= j <= n - k) from the
	 * candidate, count the faulty b at the same distance that agree with
	 * a on every free dimension (a itself included); more than j rejects.
	 */
	for (a = 0; a < n; a++) {
		u32 j, count = 0;

		if (hcube_usable(state[a]))
			continue;
		j = hweight32((a ^ base) & fixed);
		if (j < 1)
			continue;
		for (b = 0; b < n; b++) {
			if (hcube_usable(state[b]) ||
			    hweight32((b ^ base) & fixed) != j)
				continue;
			if ((a & mask) == (b & mask))
				count++;
		}
		if (count > j)
			return false;
	}
	return true;
}
