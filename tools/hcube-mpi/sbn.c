// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: SBN Basic (Fig. 5 of S. K. Das, D. J. Harvey and R. Biswas,
 * "Adaptive Load-Balancing Algorithms using Symmetric Broadcast Networks",
 * Journal of Parallel and Distributed Computing, 2002) as message passing,
 * on the XOR pattern of the least-loaded healthy rank (the initiator,
 * lowest rank on ties), over the healthy ranks of its component; a faulty
 * rank on the pattern is skipped (a vertex's predecessor is the first
 * participant up its chain). Every rank builds that tree from the states it
 * knows.
 *
 *   - Balancing messages go down (DOWN, with the sender's QLen). A vertex
 *     whose predecessor is below MinTh sends it floor(QLen / 2) jobs at
 *     once, at most what the predecessor lacks to SysLL (EARLY). As the
 *     core does, siblings answer in label order, each seeing what the
 *     earlier ones gave: a predecessor below MinTh waits for a successor's
 *     early jobs, or for its partial sum, which says it gave none, before
 *     it sends the next successor its QLen.
 *   - Partial sums come back up (SUM: the sum, the vertex's QLen and its
 *     early give); the root has TotalJQ.
 *   - Distribution (DIST: TotalJQ, the sender's QLen, jobs): a vertex
 *     first pays its predecessor's need, min(QLen - SysLL, SysLL -
 *     QLen(pred)) (GIVE), then splits QLen - SysLL over its successors in
 *     proportion to their subtree sizes. The sums told it its successors'
 *     queues, so it knows which of them will pay it and how much.
 *
 * Messages: (P - 1) down, (P - 1) up, (P - 1) distribution and J early
 * and need transfers: the paper's 3P - 3 + J, the core's count. Jobs go
 * hop by hop along the core's routes (relays forward them); the other
 * messages go straight to the pattern neighbour.
 *
 * The thresholds come from UpdateLoad on the component's TotalJQ, which
 * the balance call's opening all-reduce gives every rank: the paper's
 * processors use the last TotalJQ they heard, the core the exact one.
 *
 * By weight QLen is the rank's weight and every job message asks
 * pack_weight() for its amount: every decision is taken on what actually
 * went, which both ends know (a DIST message's weight is its sender's
 * and its receiver's QLen change), so the messages are the same; a job
 * message may carry no job. SysLL and MinTh follow UpdateLoad in 64 bits.
 */
#include "hm.h"

#define NONE	HCUBE_VERTEX_NONE

struct sbn {
	u32 me, root, h, nproc;
	u8 in[HCUBE_MAX_VERTICES];
	u16 parent[HCUBE_MAX_VERTICES], depth[HCUBE_MAX_VERTICES];
	u32 size[HCUBE_MAX_VERTICES];
	u32 child[HCUBE_MAX_VERTICES], nchild;	/* this rank's, label order */
};

/* The tree of the root's XOR pattern over the participants. */
static void build(struct hcube_mpi *h, struct sbn *s)
{
	u32 x, y, steps, queue[HCUBE_MAX_VERTICES], head = 0, tail = 0, d;

	s->nproc = 0;
	for (x = 0; x < h->nv; x++) {
		s->in[x] = 0;
		s->parent[x] = NONE;
		s->depth[x] = 0;
		s->size[x] = 0;
	}
	s->in[s->root] = 1;
	queue[tail++] = s->root;
	while (head < tail) {
		u32 u = queue[head++];

		for (d = 0; d < h->dim; d++) {
			x = u ^ (1U << d);
			if (hm_healthy(h, x) && !s->in[x]) {
				s->in[x] = 1;
				queue[tail++] = x;
			}
		}
	}
	s->nproc = tail;
	s->h = 0;
	for (x = 0; x < h->nv; x++) {
		if (!s->in[x] || x == s->root)
			continue;
		y = x;
		do {
			y = hcube_sbn_pred(HCUBE_SBN_XOR, h->dim, s->root, y);
		} while (y != NONE && !s->in[y]);
		s->parent[x] = (u16)(y == NONE ? s->root : y);
	}
	for (x = 0; x < h->nv; x++) {
		if (!s->in[x])
			continue;
		for (y = x, steps = 0; y != s->root; y = s->parent[y])
			if (++steps > h->dim + 1)
				hm_fatal(h, "internal: SBN chain of %u does not end", x);
		s->depth[x] = (u16)steps;
		if (steps > s->h)
			s->h = steps;
	}
	/* subtree sizes, deepest first */
	for (d = s->h + 1; d-- > 0;)
		for (x = 0; x < h->nv; x++)
			if (s->in[x] && s->depth[x] == d) {
				s->size[x]++;
				if (x != s->root)
					s->size[s->parent[x]] += s->size[x];
			}
	s->nchild = 0;
	for (x = 0; x < h->nv; x++)
		if (s->in[x] && x != s->root && s->parent[x] == s->me)
			s->child[s->nchild++] = x;
}

struct want {
	u32 type, type2;	/* either kind will do (0: none) */
	u32 src;
};

static bool want_match(const struct hm_msg *m, const void *arg)
{
	const struct want *w = arg;

	return m->hdr.src == w->src &&
	       (m->hdr.type == w->type || (w->type2 && m->hdr.type == w->type2));
}

static void wait_for(struct hcube_mpi *h, u32 src, u32 type, u32 type2,
		     struct hm_msg *m)
{
	struct want w = { .type = type, .type2 = type2, .src = src };

	hm_wait(h, want_match, &w, m);
}

/* Take an EARLY or GIVE message's jobs; returns their amount. */
static u64 take_jobs(struct hcube_mpi *h, u32 src, u32 type)
{
	struct hm_msg m;
	u64 n;

	wait_for(h, src, type, 0, &m);
	n = hm_take(h, &m);
	hm_msg_free(&m);
	return n;
}

/* UpdateLoad (ConstParam 2): SysLL and MinTh, by weight in 64 bits. */
static void thresholds(struct hcube_mpi *h, u64 total, u32 nproc, s64 *sysll,
		       s64 *minth)
{
	struct hcube_sbn_th th;

	if (!h->by_weight) {
		hcube_sbn_update_load(total, nproc, &th);
		*sysll = th.sysll;
		*minth = th.minth;
		return;
	}
	*sysll = (s64)((total + nproc - 1) / nproc);
	*minth = *sysll > 2 ? 2 : *sysll - 1;
}

void hm_sbn(struct hcube_mpi *h, u32 root, const u64 *comp_total)
{
	static struct sbn s;	/* ~12 KB: not on the stack */
	u64 sum_child[HCUBE_MAX_VERTICES], total;
	s64 q_child[HCUBE_MAX_VERTICES];
	u64 share[HCUBE_MAX_VERTICES];
	u64 expect[HCUBE_MAX_VERTICES];
	bool got_sum[HCUBE_MAX_VERTICES];
	u32 me = (u32)h->rank, i, round0, early = 0;
	s64 l, lpar = 0, S, minth, val[3];
	struct hm_msg m;

	s.me = me;
	s.root = root;
	build(h, &s);
	if (s.nproc < 2 || !h->dim)
		return;		/* nothing to balance: no operation, no step */
	h->rep.steps = 3 * s.h + 1;
	if (!s.in[me])
		return;
	total = comp_total[h->comp[root]];
	thresholds(h, total, s.nproc, &S, &minth);
	round0 = 2 * s.h + 1;
	l = (s64)hm_load(h, NULL);

	/* rounds 1..h: the balancing message down, early transfers up */
	if (me != root) {
		wait_for(h, s.parent[me], HM_SBN_DOWN, 0, &m);
		lpar = m.val[0];
		hm_msg_free(&m);
		if (lpar < minth && lpar < S) {
			s64 give = l / 2;

			if (give > S - lpar)
				give = S - lpar;
			if (give > 0) {
				l -= (s64)hm_send_routed(h, s.parent[me], HM_SBN_EARLY,
							 NULL, 0, (u64)give, s.depth[me] + 1);
				early = 1;
			}
		}
	}
	for (i = 0; i < s.nchild; i++) {
		u32 c = s.child[i];

		got_sum[i] = false;
		hm_send_routed(h, c, HM_SBN_DOWN, &l, 1, 0, 0);
		if (!(l < minth && l < S))
			continue;
		/* its early jobs, or its sum saying how many (none) come */
		wait_for(h, c, HM_SBN_EARLY, HM_SBN_SUM, &m);
		if (m.hdr.type == HM_SBN_EARLY) {
			l += (s64)hm_take(h, &m);
		} else {
			got_sum[i] = true;
			sum_child[i] = (u64)m.val[0];
			q_child[i] = m.val[1];
			if (m.val[2])
				l += (s64)take_jobs(h, c, HM_SBN_EARLY);
		}
		hm_msg_free(&m);
	}

	/* rounds h+1..2h: partial sums up */
	total = (u64)l;
	for (i = 0; i < s.nchild; i++) {
		if (!got_sum[i]) {
			wait_for(h, s.child[i], HM_SBN_SUM, 0, &m);
			sum_child[i] = (u64)m.val[0];
			q_child[i] = m.val[1];
			hm_msg_free(&m);
		}
		total += sum_child[i];
	}
	if (me != root) {
		val[0] = (s64)total;
		val[1] = l;
		val[2] = early;
		hm_send_routed(h, s.parent[me], HM_SBN_SUM, val, 3, 0, 0);
		/* from round 2h + 1: the distribution */
		wait_for(h, s.parent[me], HM_SBN_DIST, 0, &m);
		total = (u64)m.val[0];
		lpar = m.val[1];
		l += (s64)hm_take(h, &m);
		hm_msg_free(&m);
		if (l > S && lpar < S) {
			s64 give = l - S < S - lpar ? l - S : S - lpar;

			l -= (s64)hm_send_routed(h, s.parent[me], HM_SBN_GIVE, NULL, 0,
						 (u64)give, round0 + s.depth[me]);
		}
	} else if (total != comp_total[h->comp[root]]) {
		hm_fatal(h, "internal: SBN gathered %llu jobs, %llu agreed",
			 (unsigned long long)total,
			 (unsigned long long)comp_total[h->comp[root]]);
	}

	/* split QLen - SysLL by subtree sizes, the remainder to the first */
	{
		u64 ex = l > S ? (u64)(l - S) : 0, below = s.size[me] - 1, given = 0;
		s64 lcur;

		for (i = 0; i < s.nchild; i++) {
			/* ex * size / below without overflow: ex may be a weight */
			share[i] = below ? ex / below * s.size[s.child[i]] +
					   ex % below * s.size[s.child[i]] / below : 0;
			given += share[i];
		}
		for (i = 0; i < s.nchild && given < ex; i++, given++)
			share[i]++;
		lcur = l - (s64)ex;
		for (i = 0; i < s.nchild; i++) {
			s64 lc, went;

			val[0] = (s64)total;
			val[1] = lcur;
			went = (s64)hm_send_routed(h, s.child[i], HM_SBN_DIST, val, 2,
						   share[i], round0 + s.depth[me]);
			lc = q_child[i] + went;
			expect[i] = 0;
			if (lc > S && lcur < S) {
				expect[i] = (u64)(lc - S < S - lcur ? lc - S : S - lcur);
				lcur += (s64)expect[i];
			}
			/* by weight: what did not go stays here */
			lcur += (s64)share[i] - went;
		}
	}
	for (i = 0; i < s.nchild; i++) {
		u64 got = expect[i] ? take_jobs(h, s.child[i], HM_SBN_GIVE) : 0;

		if (!h->by_weight && got != expect[i])
			hm_fatal(h, "internal: SBN need of %llu jobs paid with %llu",
				 (unsigned long long)expect[i], (unsigned long long)got);
	}
}
