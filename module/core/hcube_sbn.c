// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: symmetric broadcast networks (S. K. Das, D. J. Harvey and
 * R. Biswas, "Adaptive Load-Balancing Algorithms using Symmetric Broadcast
 * Networks", Journal of Parallel and Distributed Computing, 2002) and its
 * three balancing algorithms, each as one operation on a snapshot of the
 * loads.
 *
 * Patterns. SBN(d) has one pattern per root, stages d .. 0. The XOR and
 * binary-tree templates are written for root 0 and relabelled by XOR with
 * the root. Their links span up to two dimensions, so a transfer between
 * a vertex and its predecessor is routed along a shortest healthy path
 * (hcube_lplan.c). The hypercube embedding (CUBE) joins two binomial trees
 * back to back: the broadcast tree from the root (clear the highest set
 * bit) and the gather tree into the destination root ^ (P - 1) (set the
 * highest clear bit); every link is an edge.
 *
 * Faulty, offline and absent vertices are skipped: a vertex's effective
 * parent is the first healthy vertex of the root's component up its
 * template chain (in the gather tree, the destination stands in when the
 * chain ends at an unusable one), and P is the number of healthy vertices
 * in the root's component. Healthy vertices of other components take no
 * part.
 *
 * Thresholds (UpdateLoad, ConstParam 2): SysLL = ceil(TotalJQ / P), MinTh
 * = SysLL - 1 or 2 when SysLL > 2, MaxTh = SysLL + 2^floor(SysLL / 2)
 * (the extracted text lost the exponent; the paper's own examples, SysLL 8
 * -> 24 and 7 -> 15, need it), capped at 2^32 - 1.
 *
 * The operations (Documentation/algorithms.md has the rounds):
 * - sbn (Basic): the initiator, the least-loaded vertex, is the root. The
 *   balancing message goes down; a vertex whose parent is below MinTh sends
 *   it floor(QLen / 2) at once, at most what the parent lacks to SysLL
 *   (siblings in order). Sums come back up; the root knows TotalJQ and
 *   sends QLen - SysLL down; each vertex sends its parent min(QLen -
 *   SysLL, SysLL - QLen(parent)) when both are positive, then passes QLen
 *   - SysLL down, split over its children in proportion to their subtree
 *   sizes (equal halves when no vertex is faulty). 3(P - 1) + J messages,
 *   J those carrying jobs upwards.
 * - sbn-cube: the same on the embedding: the balancing message goes down
 *   the broadcast tree while partial sums go up the gather tree, the
 *   destination distributes back down the gather tree. 2 * (links used)
 *   + J messages: 3P - 4 + J with no faulty vertex.
 * - sbn-heur (SBZ): the initiator, if below MinTh, walks its pattern: a
 *   visited vertex estimates SysLL from the average queue on its path
 *   from the root, returns floor(QLen / 2) to its parent when QLen >
 *   SysLL (stop, P4 of the paper's model), and forwards otherwise. A
 *   vertex that got jobs back passes half of what it now holds upwards.
 *   Then the most loaded vertex, if above MaxTh, pushes QLen - SysLL'
 *   down its own pattern with the paper's Distribute/GetDistribute
 *   formulas (SysLL' = SysLL + ceil((QLen - SysLL) / P)).
 * The paper's triggers (QLen < MinTh to balance, > MaxTh to push) are
 * the callers' (the module's automatic trigger); asked for a plan, Basic
 * and CUBE always run one operation.
 */
#include "hcube_core.h"
#include "hcube_internal.h"

#define NONE	HCUBE_VERTEX_NONE

static bool bad(u32 d, u32 root, u32 x)
{
	return d > HCUBE_MAX_DIM || root >= (1U << d) || x >= (1U << d);
}

u32 hcube_sbn_stage(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x)
{
	u32 n;

	if (bad(d, root, x))
		return 0;
	n = x ^ root;
	switch (tpl) {
	case HCUBE_SBN_XOR:
		return n ? __ffs(n) : d;
	case HCUBE_SBN_TREE:
		return n ? d - 1 - ilog2(n) : d;
	case HCUBE_SBN_CUBE:
		return d - hweight32(n);
	}
	return 0;
}

u32 hcube_sbn_pred(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x)
{
	u32 n, s, mask;

	if (bad(d, root, x) || x == root)
		return NONE;
	n = x ^ root;
	mask = (1U << d) - 1;
	switch (tpl) {
	case HCUBE_SBN_XOR:
		s = __ffs(n);
		return (((n - (1U << s)) | (2U << s)) & mask) ^ root;
	case HCUBE_SBN_TREE:
		return (n / 2) ^ root;
	case HCUBE_SBN_CUBE:
		return (n & ~(1U << ilog2(n))) ^ root;
	}
	return NONE;
}

u32 hcube_sbn_succ(enum hcube_sbn_template tpl, u32 d, u32 root, u32 x,
		   u32 *succ)
{
	u32 n, s, k = 0, j;

	if (bad(d, root, x) || !d)
		return 0;
	n = x ^ root;
	s = hcube_sbn_stage(tpl, d, root, x);
	switch (tpl) {
	case HCUBE_SBN_XOR:
		if (s == d) {
			succ[k++] = (1U << (d - 1)) ^ root;
		} else if (s >= 1) {
			succ[k++] = (n + (1U << (s - 1))) ^ root;
			succ[k++] = (n - (1U << (s - 1))) ^ root;
		}
		break;
	case HCUBE_SBN_TREE:
		if (s == d) {
			succ[k++] = 1 ^ root;
		} else if (s >= 1) {
			succ[k++] = (2 * n + 1) ^ root;
			succ[k++] = (2 * n) ^ root;
		}
		break;
	case HCUBE_SBN_CUBE:
		for (j = n ? ilog2(n) + 1 : 0; j < d; j++)
			succ[k++] = (n | (1U << j)) ^ root;
		break;
	}
	return k;
}

u32 hcube_sbn_gather_parent(u32 d, u32 root, u32 x)
{
	u32 n, j;

	if (bad(d, root, x))
		return NONE;
	n = x ^ root;
	for (j = d; j-- > 0;)
		if (!(n & (1U << j)))
			return (n | (1U << j)) ^ root;
	return NONE;
}

u32 hcube_sbn_cube_preds(u32 d, u32 root, u32 x, u32 *preds)
{
	u32 n, j, k = 0;

	if (bad(d, root, x) || x == root)
		return 0;
	n = x ^ root;
	/* leading ones: x is the gather parent of n - 2^j for each of them */
	for (j = d; j-- > 0 && (n & (1U << j));)
		preds[k++] = (n & ~(1U << j)) ^ root;
	if (!k)
		preds[k++] = hcube_sbn_pred(HCUBE_SBN_CUBE, d, root, x);
	return k;
}

void hcube_sbn_update_load(u64 total, u32 nproc, struct hcube_sbn_th *th)
{
	u64 sysll, maxth;
	u32 e;

	if (!nproc)
		nproc = 1;
	sysll = div64_u64(total + nproc - 1, nproc);
	if (sysll > 0xffffffffULL)
		sysll = 0xffffffffULL;
	th->sysll = (u32)sysll;
	th->minth = th->sysll > 2 ? 2 : (s32)th->sysll - 1;
	e = th->sysll / 2;
	maxth = e >= 32 ? 0xffffffffULL : sysll + (1ULL << e);
	th->maxth = maxth > 0xffffffffULL ? 0xffffffffU : (u32)maxth;
}

static u32 ceil_div(u64 a, u64 b)
{
	u64 q = div64_u64(a + b - 1, b);

	return q > 0xffffffffULL ? 0xffffffffU : (u32)q;
}

u32 hcube_sbz_push(u32 sysll, u32 qlen, u32 nproc, u32 *new_sysll)
{
	u32 s = sysll;

	if (qlen > sysll && nproc)
		s = sysll + ceil_div(qlen - sysll, nproc);
	*new_sysll = s;
	return qlen > s ? qlen - s : 0;
}

u32 hcube_sbz_forward(u32 queued, u32 recv, u32 stage, u32 *new_sysll)
{
	u64 r = (2ULL << (stage > 31 ? 31 : stage)) - 1;
	u64 s = (u64)queued + ceil_div(recv, r);

	*new_sysll = s > 0xffffffffULL ? 0xffffffffU : (u32)s;
	return (u64)queued + recv > s ? (u32)((u64)queued + recv - s) : 0;
}

/* ---- the operations ---- */

/* A tree over the participants: parents, depth, children, subtree sizes. */
struct sbn_tree {
	u16 *parent, *depth, *first, *next, *order;
	u32 *size;
	u32 root, height, count;
};

struct sbn_work {
	u16 *comp, *queue;
	u8 *in;			/* participant: healthy, in the root's component */
	u32 *load;		/* logical loads as the operation goes */
	u32 *share;		/* what split_down() just gave each child */
	u32 *state2;		/* sbn-heur walk: 0 not visited, 1 forwards, 2 returned */
	u32 *pathsum;		/* sbn-heur walk: queue lengths from the root */
	u32 *endround;		/* sbn-heur walk: the round its part ended */
	struct sbn_tree a, b;
	struct hcube_lplan lp;
	u32 dim, n;
	const u8 *state;
};

static size_t tree_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return 5 * hcube_align(n * sizeof(u16)) + hcube_align(n * sizeof(u32));
}

static size_t sbn_work_memsize(u32 dim)
{
	size_t n = (size_t)1 << dim;

	return 2 * hcube_align(n * sizeof(u16)) + hcube_align(n) +
	       5 * hcube_align(n * sizeof(u32)) + 2 * tree_memsize(dim) +
	       hcube_lplan_memsize(dim);
}

static void tree_carve(struct sbn_tree *t, struct hcube_carver *c, size_t n)
{
	t->parent = hcube_carve(c, n * sizeof(u16));
	t->depth = hcube_carve(c, n * sizeof(u16));
	t->first = hcube_carve(c, n * sizeof(u16));
	t->next = hcube_carve(c, n * sizeof(u16));
	t->order = hcube_carve(c, n * sizeof(u16));
	t->size = hcube_carve(c, n * sizeof(u32));
}

static void sbn_work_init(struct sbn_work *w, const struct hcube_cube *cube,
			  void *work)
{
	struct hcube_carver c = { .pos = work };
	size_t n = (size_t)1 << cube->dim;

	w->dim = cube->dim;
	w->n = 1U << cube->dim;
	w->state = cube->state;
	w->comp = hcube_carve(&c, n * sizeof(u16));
	w->queue = hcube_carve(&c, n * sizeof(u16));
	w->in = hcube_carve(&c, n);
	w->load = hcube_carve(&c, n * sizeof(u32));
	w->share = hcube_carve(&c, n * sizeof(u32));
	w->state2 = hcube_carve(&c, n * sizeof(u32));
	w->pathsum = hcube_carve(&c, n * sizeof(u32));
	w->endround = hcube_carve(&c, n * sizeof(u32));
	tree_carve(&w->a, &c, n);
	tree_carve(&w->b, &c, n);
	hcube_lplan_init(&w->lp, cube->dim, cube->state, c.pos);
}

/*
 * Mark the healthy vertices of @root's component (comp[] holds the
 * components); returns their number.
 */
static u32 mark_component(struct sbn_work *w, u32 root)
{
	u32 v, count = 0;

	for (v = 0; v < w->n; v++) {
		w->in[v] = w->comp[v] == w->comp[root];
		count += w->in[v];
	}
	return count;
}

enum chain {
	CHAIN_XOR,		/* XOR template predecessors */
	CHAIN_BCAST,		/* CUBE broadcast (binomial) parents */
	CHAIN_GATHER,		/* CUBE gather parents */
};

static u32 chain_next(enum chain ch, u32 d, u32 r, u32 x)
{
	switch (ch) {
	case CHAIN_XOR:
		return hcube_sbn_pred(HCUBE_SBN_XOR, d, r, x);
	case CHAIN_BCAST:
		return hcube_sbn_pred(HCUBE_SBN_CUBE, d, r, x);
	case CHAIN_GATHER:
		return hcube_sbn_gather_parent(d, r, x);
	}
	return NONE;
}

/*
 * The tree of @ch for the pattern of @r, rooted at @troot: each
 * participant's parent is the first participant up its chain, @troot when
 * the chain ends first.
 */
static int tree_build(struct sbn_work *w, struct sbn_tree *t, enum chain ch,
		      u32 r, u32 troot)
{
	u32 x, i, h, cnt[HCUBE_MAX_DIM + 3];

	t->root = troot;
	t->count = 0;
	t->height = 0;
	for (x = 0; x < w->n; x++) {
		t->parent[x] = NONE;
		t->first[x] = NONE;
		t->next[x] = NONE;
		t->size[x] = 0;
		t->depth[x] = 0;
	}
	for (x = 0; x < w->n; x++) {
		u32 y = x;

		if (!w->in[x] || x == troot)
			continue;
		do {
			y = chain_next(ch, w->dim, r, y);
		} while (y != NONE && !w->in[y]);
		t->parent[x] = y == NONE ? troot : y;
	}
	/* depth: steps to the root (a chain strictly climbs, so no cycle) */
	for (x = 0; x < w->n; x++) {
		u32 y = x, steps = 0;

		if (!w->in[x])
			continue;
		while (y != troot) {
			y = t->parent[y];
			if (++steps > w->dim + 1 || y == NONE)
				return HCUBE_E_INTERNAL;
		}
		t->depth[x] = steps;
		if (steps > t->height)
			t->height = steps;
	}
	/* children in increasing label order */
	for (x = w->n; x-- > 0;) {
		if (!w->in[x] || x == troot)
			continue;
		t->next[x] = t->first[t->parent[x]];
		t->first[t->parent[x]] = x;
	}
	/* participants by depth (counting sort), then sizes bottom up */
	for (h = 0; h <= t->height + 1; h++)
		cnt[h] = 0;
	for (x = 0; x < w->n; x++)
		if (w->in[x])
			cnt[t->depth[x] + 1]++;
	for (h = 1; h <= t->height + 1; h++)
		cnt[h] += cnt[h - 1];
	for (x = 0; x < w->n; x++)
		if (w->in[x])
			t->order[cnt[t->depth[x]]++] = x;
	t->count = cnt[t->height];
	for (i = t->count; i-- > 0;) {
		x = t->order[i];
		t->size[x]++;
		if (x != troot)
			t->size[t->parent[x]] += t->size[x];
	}
	return HCUBE_OK;
}

/*
 * Send @amount from @x to its children in proportion to their subtree
 * sizes, the remainder one each to the first children; share[] keeps
 * what each got.
 */
static int split_down(struct sbn_work *w, struct sbn_tree *t, u32 x,
		      u32 amount, u32 round, u32 *msgs)
{
	u32 below = t->size[x] - 1, sum = 0, c;
	int err;

	for (c = t->first[x]; c != NONE; c = t->next[c])
		w->share[c] = 0;
	if (!amount || !below)
		return HCUBE_OK;
	for (c = t->first[x]; c != NONE; c = t->next[c]) {
		w->share[c] = (u32)div64_u64((u64)amount * t->size[c], below);
		sum += w->share[c];
	}
	for (c = t->first[x]; c != NONE && sum < amount; c = t->next[c]) {
		w->share[c]++;
		sum++;
	}
	for (c = t->first[x]; c != NONE; c = t->next[c]) {
		if (!w->share[c])
			continue;
		err = hcube_lplan_add(&w->lp, x, c, w->share[c], round);
		if (err)
			return err;
		w->load[c] += w->share[c];
		(*msgs)++;
	}
	w->load[x] -= amount;
	return HCUBE_OK;
}

static int send_up(struct sbn_work *w, u32 from, u32 to, u32 count, u32 round,
		   struct hcube_plan *p)
{
	int err;

	if (!count)
		return HCUBE_OK;
	err = hcube_lplan_add(&w->lp, from, to, count, round);
	if (err)
		return err;
	w->load[from] -= count;
	w->load[to] += count;
	p->stats.job_messages++;
	return HCUBE_OK;
}

/*
 * Early transfers as the balancing message goes down @t: at round depth +
 * 1 a vertex whose parent is below MinTh sends min(floor(QLen / 2), what the
 * parent lacks to SysLL).
 */
static int early_transfers(struct sbn_work *w, struct sbn_tree *t,
			   const struct hcube_sbn_th *th, u32 round0,
			   struct hcube_plan *p)
{
	u32 i;
	int err;

	for (i = 1; i < t->count; i++) {
		u32 x = t->order[i], par = t->parent[x], give;

		if ((s64)w->load[par] >= th->minth || w->load[par] >= th->sysll)
			continue;
		give = w->load[x] / 2;
		if (give > th->sysll - w->load[par])
			give = th->sysll - w->load[par];
		err = send_up(w, x, par, give, round0 + t->depth[x] + 1, p);
		if (err)
			return err;
	}
	return HCUBE_OK;
}

/*
 * Distribution down @t from its root at @round0: QLen - SysLL goes to the
 * children; each vertex first pays its parent's need.
 */
static int distribute(struct sbn_work *w, struct sbn_tree *t,
		      const struct hcube_sbn_th *th, u32 round0,
		      struct hcube_plan *p)
{
	u32 i, msgs = 0;
	int err;

	for (i = 0; i < t->count; i++) {
		u32 x = t->order[i], round = round0 + t->depth[x], ex;

		if (x != t->root) {
			u32 par = t->parent[x];

			if (w->load[x] > th->sysll && w->load[par] < th->sysll) {
				u32 give = w->load[x] - th->sysll;

				if (give > th->sysll - w->load[par])
					give = th->sysll - w->load[par];
				err = send_up(w, x, par, give, round, p);
				if (err)
					return err;
			}
		}
		ex = w->load[x] > th->sysll ? w->load[x] - th->sysll : 0;
		err = split_down(w, t, x, ex, round, &msgs);
		if (err)
			return err;
	}
	return HCUBE_OK;
}

static u32 least_loaded(const struct hcube_cube *cube)
{
	u32 v, best = NONE;

	for (v = 0; v < (1U << cube->dim); v++)
		if (hcube_usable(cube->state[v]) &&
		    (best == NONE || cube->load[v] < cube->load[best]))
			best = v;
	return best;
}

static u64 participants_total(struct sbn_work *w)
{
	u64 total = 0;
	u32 v;

	for (v = 0; v < w->n; v++)
		if (w->in[v])
			total += w->load[v];
	return total;
}

static int op_basic(struct sbn_work *w, struct hcube_plan *p, u32 r,
		    u32 nproc)
{
	struct hcube_sbn_th th;
	u32 h;
	int err;

	err = tree_build(w, &w->a, CHAIN_XOR, r, r);
	if (err)
		return err;
	hcube_sbn_update_load(participants_total(w), nproc, &th);
	h = w->a.height;
	/* rounds 1..h: balancing messages down, early transfers at depth + 1 */
	err = early_transfers(w, &w->a, &th, 0, p);
	if (err)
		return err;
	/* rounds h+1..2h: sums up; then distribution from round 2h + 1 */
	err = distribute(w, &w->a, &th, 2 * h + 1, p);
	if (err)
		return err;
	p->stats.messages = 3 * (nproc - 1) + p->stats.job_messages;
	p->stats.comm_steps = 3 * h + 1;
	return HCUBE_OK;
}

static int op_cube(struct sbn_work *w, struct hcube_plan *p, u32 r, u32 nproc)
{
	struct hcube_sbn_th th;
	u32 q = r ^ (w->n - 1), x, links = 0, round0;
	int err;

	if (!w->in[q]) {
		/* the participant farthest from r stands in (lowest label) */
		q = r;
		for (x = 0; x < w->n; x++)
			if (w->in[x] && hweight32(x ^ r) > hweight32(q ^ r))
				q = x;
	}
	err = tree_build(w, &w->a, CHAIN_BCAST, r, r);
	if (!err)
		err = tree_build(w, &w->b, CHAIN_GATHER, r, q);
	if (err)
		return err;
	/*
	 * Links used: the broadcast edges and the gather edges, a link in
	 * both trees (x's broadcast parent y gathers into x) counted once.
	 */
	for (x = 0; x < w->n; x++) {
		if (!w->in[x])
			continue;
		if (x != q)
			links++;
		if (x != r) {
			links++;
			if (w->b.parent[w->a.parent[x]] == x)
				links--;
		}
	}
	hcube_sbn_update_load(participants_total(w), nproc, &th);
	/*
	 * The forward sweep, root to destination: balancing messages down the
	 * broadcast tree (early transfers to broadcast parents), partial sums
	 * up the gather tree; then the destination distributes.
	 */
	round0 = (w->a.height > w->b.height ? w->a.height : w->b.height) + 2;
	err = early_transfers(w, &w->a, &th, 0, p);
	if (err)
		return err;
	err = distribute(w, &w->b, &th, round0, p);
	if (err)
		return err;
	p->stats.messages = 2 * links + p->stats.job_messages;
	p->stats.comm_steps = round0 + w->b.height;
	return HCUBE_OK;
}

/* SBZ: the walk of the initiator @r; *last: the last round it used. */
static int op_walk(struct sbn_work *w, struct hcube_plan *p, u32 r,
		   u32 nproc, u32 *last)
{
	struct sbn_tree *t = &w->a;
	u32 i, x;
	int err;

	err = tree_build(w, t, CHAIN_XOR, r, r);
	if (err)
		return err;
	for (x = 0; x < w->n; x++) {
		w->state2[x] = 0;
		w->endround[x] = 0;
	}
	/* top down: a vertex is visited (at round depth) when its parent forwards */
	for (i = 0; i < t->count; i++) {
		struct hcube_sbn_th th;
		u32 par, m, ex;
		u64 sumq, tj;

		x = t->order[i];
		if (x == r) {
			w->pathsum[x] = w->load[x];
			w->state2[x] = 1;
			continue;
		}
		par = t->parent[x];
		if (w->state2[par] != 1)
			continue;
		p->stats.messages++;
		w->endround[x] = t->depth[x];
		m = t->depth[x] + 1;
		sumq = (u64)w->pathsum[par] + w->load[x];
		w->pathsum[x] = (u32)sumq;
		/* TotalJQ = ceil(P * (path sum) / path length), then UpdateLoad */
		tj = div64_u64((u64)nproc * sumq + m - 1, m);
		hcube_sbn_update_load(tj, nproc, &th);
		ex = w->load[x] / 2;
		if (w->load[x] > th.sysll && ex) {
			w->state2[x] = 2;
			w->endround[x] = t->depth[x] + 1;
			err = send_up(w, x, par, ex, w->endround[x], p);
			if (err)
				return err;
			continue;
		}
		w->state2[x] = 1;	/* forwards; at stage 0 the branch ends */
	}
	/*
	 * Bottom up: a forwarding vertex is done when its children are; if
	 * jobs came back it passes half of what it now holds to its parent.
	 */
	for (i = t->count; i-- > 0;) {
		u32 c, end, got = 0;

		x = t->order[i];
		if (w->state2[x] != 1)
			continue;
		end = w->endround[x];
		for (c = t->first[x]; c != NONE; c = t->next[c]) {
			if (!w->state2[c])
				continue;
			if (w->endround[c] > end)
				end = w->endround[c];
			if (w->state2[c] == 2)
				got = 1;
		}
		w->endround[x] = end;
		if (x == r || !got)
			continue;
		w->state2[x] = 2;
		w->endround[x] = end + 1;
		err = send_up(w, x, t->parent[x], w->load[x] / 2, end + 1, p);
		if (err)
			return err;
	}
	*last = w->endround[r];
	return HCUBE_OK;
}

/* SBZ: the overload push of @r down its own pattern from @round0. */
static int op_push(struct sbn_work *w, struct hcube_plan *p, u32 r,
		   u32 sysll, u32 nproc, u32 round0)
{
	struct sbn_tree *t = &w->a;
	u32 i, ns, msgs = 0;
	int err;

	err = tree_build(w, t, CHAIN_XOR, r, r);
	if (err)
		return err;
	for (i = 0; i < w->n; i++)
		w->share[i] = 0;
	for (i = 0; i < t->count; i++) {
		u32 x = t->order[i], ex;

		if (x == r) {
			ex = hcube_sbz_push(sysll, w->load[x], nproc, &ns);
		} else {
			u32 recv = w->share[x];
			u64 s;

			if (!recv)
				continue;
			/* SysLL = queued + ceil(recv / R), R = its subtree */
			s = (u64)(w->load[x] - recv) + ceil_div(recv, t->size[x]);
			ex = (u64)w->load[x] > s ? (u32)(w->load[x] - s) : 0;
		}
		err = split_down(w, t, x, ex, round0 + t->depth[x], &msgs);
		if (err)
			return err;
	}
	p->stats.messages += msgs;
	return HCUBE_OK;
}

/* The three operations, one policy each. */
static int sbn_plan(struct hcube_plan *p, const struct hcube_plan_args *a)
{
	const struct hcube_cube *cube = a->cube;
	void *work = a->work;
	struct sbn_work w;
	u32 r, v, nproc, last = 0;
	struct hcube_sbn_th th;
	int err;

	sbn_work_init(&w, cube, work);
	for (v = 0; v < w.n; v++)
		w.load[v] = cube->load[v];
	r = least_loaded(cube);
	if (r == NONE)
		return HCUBE_E_NO_HEALTHY;
	hcube_components(cube->dim, cube->state, w.comp, NULL, w.queue);
	nproc = mark_component(&w, r);
	p->root = r;
	if (nproc < 2 || cube->dim == 0)
		goto out;
	switch (a->policy) {
	case HCUBE_POLICY_SBN:
		err = op_basic(&w, p, r, nproc);
		break;
	case HCUBE_POLICY_SBN_CUBE:
		err = op_cube(&w, p, r, nproc);
		break;
	default:	/* HCUBE_POLICY_SBN_HEUR */
		hcube_sbn_update_load(participants_total(&w), nproc, &th);
		err = HCUBE_OK;
		if ((s64)w.load[r] < th.minth) {
			err = op_walk(&w, p, r, nproc, &last);
			p->stats.comm_steps = last;
		}
		if (!err) {
			/* the most loaded vertex pushes if above MaxTh */
			u32 top = NONE;

			for (v = 0; v < w.n; v++)
				if (hcube_usable(cube->state[v]) &&
				    (top == NONE || w.load[v] > w.load[top]))
					top = v;
			nproc = mark_component(&w, top);
			hcube_sbn_update_load(participants_total(&w), nproc, &th);
			if (nproc > 1 && w.load[top] > th.maxth) {
				err = op_push(&w, p, top, th.sysll, nproc, last + 1);
				p->stats.comm_steps = last + 1 + w.a.height;
			}
		}
		p->stats.messages += p->stats.job_messages;
		break;
	}
	if (err)
		return err;
out:
	return hcube_lplan_emit(&w.lp, p);
}

const struct hcube_policy_ops hcube_sbn_ops = {
	.name = "sbn",
	.work_memsize = sbn_work_memsize,
	.plan = sbn_plan,
};

const struct hcube_policy_ops hcube_sbn_cube_ops = {
	.name = "sbn-cube",
	.work_memsize = sbn_work_memsize,
	.plan = sbn_plan,
};

const struct hcube_policy_ops hcube_sbn_heur_ops = {
	.name = "sbn-heur",
	.work_memsize = sbn_work_memsize,
	.plan = sbn_plan,
};
