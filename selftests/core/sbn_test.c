// SPDX-License-Identifier: GPL-2.0
/*
 * Symmetric broadcast networks (S. K. Das, D. J. Harvey and R. Biswas,
 * "Adaptive Load-Balancing Algorithms using Symmetric Broadcast Networks",
 * Journal of Parallel and Distributed Computing, 2002) against the paper:
 * - SBN(3) stage tables of the patterns of roots 0 and 5 (Fig. 2, Section
 *   3.2), the predecessor and successor formulas, the XOR relabelling
 *   (n_x = n_0 ^ x), for every root of SBN(1..7), computed here from the
 *   paper's formulas by walking the pattern down from its root;
 * - the binary-tree template (Pred = n/2, Succ = 2n+1, 2n);
 * - the hypercube embedding (Section 3.2, Fig. 3): every link an edge,
 *   max{1, b} predecessors (b leading ones), P - 1 + P/2 - 1 links, a
 *   unique destination (15 for root 0 at P = 16);
 * - UpdateLoad (Fig. 4, ConstParam 2): the values of the Fig. 6 example
 *   (SysLL 8 -> MaxTh 24), of the heuristic example (7 -> 15), a table
 *   computed by hand, and the cap against overflow;
 * - the heuristic push example (Section 4.3): SysLL 7, QLen 24, P 8 ->
 *   SysLL 10, 14 jobs; the receiver (QLen 6, R = 7) -> SysLL 8, forwards
 *   12; and, as a plan, every other processor gains 14 / 7 = 2;
 * - Basic's early transfer (Fig. 6: processor 4 sends floor(3/2) = 1 job
 *   to root 0 as the balancing starts);
 * - message counts: Basic 3P - 3 + J (Section 4.1), CUBE 3P - 4 + J
 *   (Section 4.2: 44 at P = 16, 92 at P = 32);
 * - faulty and absent vertices skipped: the counts use the healthy P, and
 *   a faulty predecessor is bypassed;
 * - the recursive construction of Section 3.1, built link by link for
 *   d = 1..7: its patterns are the XOR template;
 * - logical transfers routed along shortest healthy paths.
 */
#include <stdio.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0x5b2002ULL
#include "core_util.h"
#include "hcube_internal.h"

#define NONE HCUBE_VERTEX_NONE

/* ---- the paper's formulas, root-0 template (Section 3.2) ---- */

static u32 p_pred(u32 d, u32 n, u32 s)
{
	return ((n - (1U << s)) | (1U << (s + 1))) & ((1U << d) - 1);
}

static u32 p_succ(u32 d, u32 n, u32 s, u32 *out)
{
	u32 k = 0;

	if (s >= 1 && s <= d)
		out[k++] = n + (1U << (s - 1));
	if (s >= 1 && s < d)
		out[k++] = n - (1U << (s - 1));
	return k;
}

/* Walk the template from root 0 down: stage and predecessor of each label. */
static int p_walk(u32 d, u32 *stage, u32 *pred)
{
	u32 n = 1U << d, cur[1024], next[1024], nc = 1, s, i, j, seen = 1;

	for (i = 0; i < n; i++)
		stage[i] = pred[i] = NONE;
	stage[0] = d;
	cur[0] = 0;
	for (s = d; s >= 1; s--) {
		u32 nn = 0;

		for (i = 0; i < nc; i++) {
			u32 succ[2], k = p_succ(d, cur[i], s, succ);

			for (j = 0; j < k; j++) {
				if (succ[j] >= n || stage[succ[j]] != NONE)
					return -1;	/* a label twice */
				stage[succ[j]] = s - 1;
				pred[succ[j]] = cur[i];
				next[nn++] = succ[j];
				seen++;
			}
		}
		memcpy(cur, next, nn * sizeof(u32));
		nc = nn;
	}
	return seen == n ? 0 : -1;
}

TEST(sbn3_stage_tables)
{
	/* Fig. 2 (the XOR template): stages 3, 2, 1, 0 and successor lists */
	static const u32 r0[4][4] = { { 0 }, { 4 }, { 6, 2 }, { 7, 5, 3, 1 } };
	static const u32 r5[4][4] = { { 5 }, { 1 }, { 3, 7 }, { 2, 0, 6, 4 } };
	static const u32 cnt[4] = { 1, 1, 2, 4 };
	static const u32 succ0[8][2] = {
		[0] = { 4 }, [4] = { 6, 2 }, [6] = { 7, 5 }, [2] = { 3, 1 },
	};
	static const u32 nsucc0[8] = { [0] = 1, [4] = 2, [6] = 2, [2] = 2 };
	static const u32 succ5[8][2] = {
		[5] = { 1 }, [1] = { 3, 7 }, [3] = { 2, 0 }, [7] = { 6, 4 },
	};
	static const u32 nsucc5[8] = { [5] = 1, [1] = 2, [3] = 2, [7] = 2 };
	u32 row, i, x, out[HCUBE_MAX_DIM];

	for (row = 0; row < 4; row++) {
		for (i = 0; i < cnt[row]; i++) {
			EXPECT_EQ(3 - row, hcube_sbn_stage(HCUBE_SBN_XOR, 3, 0, r0[row][i]));
			EXPECT_EQ(3 - row, hcube_sbn_stage(HCUBE_SBN_XOR, 3, 5, r5[row][i]));
		}
	}
	for (x = 0; x < 8; x++) {
		u32 k = hcube_sbn_succ(HCUBE_SBN_XOR, 3, 0, x, out);

		ASSERT_EQ(nsucc0[x], k) TH_LOG("root 0, %u", x);
		for (i = 0; i < k; i++)
			EXPECT_EQ(succ0[x][i], out[i]) TH_LOG("root 0, %u", x);
		k = hcube_sbn_succ(HCUBE_SBN_XOR, 3, 5, x, out);
		ASSERT_EQ(nsucc5[x], k) TH_LOG("root 5, %u", x);
		for (i = 0; i < k; i++)
			EXPECT_EQ(succ5[x][i], out[i]) TH_LOG("root 5, %u", x);
	}
	/* Pred(1) = Pred(3) = 2, Pred(5) = Pred(7) = 6, Pred(2) = Pred(6) = 4, Pred(4) = 0 */
	EXPECT_EQ(2, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 1));
	EXPECT_EQ(2, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 3));
	EXPECT_EQ(6, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 5));
	EXPECT_EQ(6, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 7));
	EXPECT_EQ(4, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 2));
	EXPECT_EQ(4, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 6));
	EXPECT_EQ(0, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 4));
	EXPECT_EQ(NONE, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 0));
	EXPECT_EQ(NONE, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 5, 5));
}

/* Every root of SBN(1..7): the core against the walk of the formulas. */
TEST(xor_template_all_roots)
{
	static u32 stage[128], pred[128];
	u32 d, r, x, i, sz[HCUBE_MAX_DIM + 1];

	for (d = 1; d <= 7; d++) {
		u32 n = 1U << d;

		ASSERT_EQ(0, p_walk(d, stage, pred)) TH_LOG("d %u", d);
		/* stage sizes: 1 at d and d - 1, 2^(d-k-1) at k < d */
		for (i = 0; i <= d; i++)
			sz[i] = 0;
		for (x = 0; x < n; x++)
			sz[stage[x]]++;
		EXPECT_EQ(1, sz[d]);
		for (i = 0; i < d; i++)
			EXPECT_EQ(1U << (d - i - 1), sz[i]);
		for (r = 0; r < n; r++) {
			for (x = 0; x < n; x++) {
				u32 out[2], k, s = stage[x];
				u32 want[2], kw = p_succ(d, x, s, want);

				/* n_r = n_0 ^ r */
				EXPECT_EQ(s, hcube_sbn_stage(HCUBE_SBN_XOR, d, r, x ^ r));
				EXPECT_EQ(pred[x] == NONE ? NONE : pred[x] ^ r,
					  hcube_sbn_pred(HCUBE_SBN_XOR, d, r, x ^ r));
				if (x)
					EXPECT_EQ(pred[x], p_pred(d, x, s));
				k = hcube_sbn_succ(HCUBE_SBN_XOR, d, r, x ^ r, out);
				ASSERT_EQ(kw, k);
				for (i = 0; i < k; i++)
					EXPECT_EQ(want[i] ^ r, out[i]);
			}
		}
	}
	/* out of range */
	EXPECT_EQ(NONE, hcube_sbn_pred(HCUBE_SBN_XOR, 3, 0, 8));
	EXPECT_EQ(0, hcube_sbn_stage(HCUBE_SBN_XOR, HCUBE_MAX_DIM + 1, 0, 1));
}

/* Binary tree: root 0, d = 3 has stages {0}, {1}, {3, 2}, {7, 6, 5, 4}. */
TEST(tree_template)
{
	u32 d, r, x, out[2];

	for (x = 0; x < 8; x++) {
		u32 want = x == 0 ? 3 : x == 1 ? 2 : x < 4 ? 1 : 0;

		EXPECT_EQ(want, hcube_sbn_stage(HCUBE_SBN_TREE, 3, 0, x));
	}
	for (d = 1; d <= 6; d++) {
		for (r = 0; r < (1U << d); r++) {
			for (x = 0; x < (1U << d); x++) {
				u32 n = x, k = hcube_sbn_succ(HCUBE_SBN_TREE, d, r,
							    x ^ r, out);

				if (n)
					EXPECT_EQ((n / 2) ^ r,
						  hcube_sbn_pred(HCUBE_SBN_TREE, d, r, n ^ r));
				if (n == 0) {
					ASSERT_EQ(1, k);
					EXPECT_EQ(1 ^ r, out[0]);
				} else if (2 * n < (1U << d)) {
					ASSERT_EQ(2, k);
					EXPECT_EQ((2 * n + 1) ^ r, out[0]);
					EXPECT_EQ((2 * n) ^ r, out[1]);
				} else {
					EXPECT_EQ(0, k);
				}
			}
		}
	}
}

/* Leading one bits of x among d bits. */
static u32 lead_ones(u32 d, u32 x)
{
	u32 b = 0;

	while (b < d && (x & (1U << (d - 1 - b))))
		b++;
	return b;
}

/*
 * The hypercube embedding: a DAG from r to r ^ (P - 1) of hypercube
 * edges, max{1, b} predecessors, P - 1 + P/2 - 1 links.
 */
TEST(cube_embedding)
{
	/* d = 4 predecessors (Fig. 3, whose drawing the text lacks, rebuilt) */
	static const u32 want14[] = { 6, 10, 12 }, want15[] = { 7, 11, 13, 14 };
	u32 d, r, x, i, preds[HCUBE_MAX_DIM], k;

	k = hcube_sbn_cube_preds(4, 0, 14, preds);
	ASSERT_EQ(3, k);
	for (i = 0; i < k; i++)
		EXPECT_EQ(want14[i], preds[i]);
	k = hcube_sbn_cube_preds(4, 0, 15, preds);
	ASSERT_EQ(4, k);
	for (i = 0; i < k; i++)
		EXPECT_EQ(want15[i], preds[i]);
	EXPECT_EQ(15, hcube_sbn_gather_parent(4, 0, 14));
	EXPECT_EQ(NONE, hcube_sbn_gather_parent(4, 0, 15));

	for (d = 1; d <= 8; d++) {
		u32 n = 1U << d;

		for (r = 0; r < n; r += d > 5 ? 7 : 1) {
			u32 links = 0;

			for (x = 0; x < n; x++) {
				u32 b = lead_ones(d, x ^ r);

				k = hcube_sbn_cube_preds(d, r, x, preds);
				if (x == r) {
					EXPECT_EQ(0, k);
					EXPECT_EQ(d, hcube_sbn_stage(HCUBE_SBN_CUBE, d, r, x));
					continue;
				}
				EXPECT_EQ(b > 1 ? b : 1, k) TH_LOG("d %u r %u x %u", d, r, x);
				for (i = 0; i < k; i++) {
					EXPECT_EQ(1, hweight32(preds[i] ^ x));
					/* one stage above */
					EXPECT_EQ(hcube_sbn_stage(HCUBE_SBN_CUBE, d, r, x) + 1,
						  hcube_sbn_stage(HCUBE_SBN_CUBE, d, r, preds[i]));
				}
				links += k;
				/* the unique destination gathers everything */
				if (x == (r ^ (n - 1)))
					EXPECT_EQ(0, hcube_sbn_stage(HCUBE_SBN_CUBE, d, r, x));
			}
			EXPECT_EQ(n - 1 + n / 2 - 1, links) TH_LOG("d %u r %u", d, r);
		}
	}
}

/* UpdateLoad: SysLL = ceil(TotalJQ/P), MinTh, MaxTh = SysLL + 2^floor(SysLL/2). */
TEST(update_load)
{
	/* computed by hand from Fig. 4: SysLL, MinTh, MaxTh */
	static const s32 tab[][3] = {
		{ 0, -1, 1 }, { 1, 0, 2 }, { 2, 1, 4 }, { 3, 2, 5 }, { 4, 2, 8 },
		{ 5, 2, 9 }, { 6, 2, 14 }, { 7, 2, 15 }, { 8, 2, 24 },
		{ 9, 2, 25 }, { 10, 2, 42 }, { 12, 2, 76 }, { 14, 2, 142 },
		{ 16, 2, 272 },
	};
	struct hcube_sbn_th th;
	u32 i, tj;

	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		hcube_sbn_update_load((u64)tab[i][0] * 8, 8, &th);
		EXPECT_EQ(tab[i][0], th.sysll);
		EXPECT_EQ(tab[i][1], th.minth);
		EXPECT_EQ(tab[i][2], th.maxth);
	}
	/* Fig. 6: after the gather, (SysLL, MinTh, MaxTh) = (8, 2, 24) at P = 8 */
	for (tj = 57; tj <= 64; tj++) {
		hcube_sbn_update_load(tj, 8, &th);
		EXPECT_EQ(8, th.sysll);
		EXPECT_EQ(2, th.minth);
		EXPECT_EQ(24, th.maxth);
	}
	hcube_sbn_update_load(56, 8, &th);
	EXPECT_EQ(7, th.sysll);
	EXPECT_EQ(15, th.maxth);
	/* the cap: 2^floor(SysLL/2) overflows 32 bits from SysLL 64 */
	hcube_sbn_update_load(62, 1, &th);
	EXPECT_EQ(62 + (1U << 31), th.maxth);
	hcube_sbn_update_load(63, 1, &th);
	EXPECT_EQ(63 + (1U << 31), th.maxth);
	hcube_sbn_update_load(64, 1, &th);
	EXPECT_EQ(0xffffffffU, th.maxth);
	hcube_sbn_update_load(0xffffffffULL * 3, 1, &th);
	EXPECT_EQ(0xffffffffU, th.sysll);
	EXPECT_EQ(2, th.minth);
	EXPECT_EQ(0xffffffffU, th.maxth);
	/* P = 0 is taken as 1 */
	hcube_sbn_update_load(5, 0, &th);
	EXPECT_EQ(5, th.sysll);
}

/* Section 4.3's example: Distribute and GetDistribute away from the root. */
TEST(heuristic_push_formulas)
{
	u32 s, fwd;

	/* p: SysLL 7, QLen 24, P = 8: SysLL 7 + ceil(17/8) = 10, sends 14 */
	EXPECT_EQ(14, hcube_sbz_push(7, 24, 8, &s));
	EXPECT_EQ(10, s);
	/* r: QLen 6 gets 14 at stage 2 (R = 7): SysLL 6 + 2 = 8, forwards 12 */
	EXPECT_EQ(12, hcube_sbz_forward(6, 14, 2, &s));
	EXPECT_EQ(8, s);
	/* equal splits: a stage-1 node gets 6 (R = 3): SysLL q + 2, forwards 4 */
	fwd = hcube_sbz_forward(5, 6, 1, &s);
	EXPECT_EQ(7, s);
	EXPECT_EQ(4, fwd);
	/* a stage-0 node gets 2 (R = 1) and keeps them */
	EXPECT_EQ(0, hcube_sbz_forward(4, 2, 0, &s));
	EXPECT_EQ(6, s);
	/* not above SysLL: nothing to push */
	EXPECT_EQ(0, hcube_sbz_push(7, 7, 8, &s));
	EXPECT_EQ(7, s);
}

/*
 * The heuristic (Section 4.3) as plans on a healthy SBN(3): each variant
 * the loads before, the root (the least loaded vertex, the lowest label
 * first), every vertex's load after, and the messages (with jobs towards
 * the root, and in all).
 */
FIXTURE(heur) {
	struct ctx c;
};

FIXTURE_VARIANT(heur) {
	u32 before[8], root, after[8];
	u32 job_messages, messages;
};

/*
 * The push example: p = 0 with 24 jobs, its successor 4 with 6, the rest
 * so that TotalJQ = 56 (SysLL 7, MinTh 2, MaxTh 15) and nobody is below
 * MinTh (no walk). p keeps 10, 4 ends with 8 and every other processor
 * gains exactly 2: 1 message to 4, 2 from 4, 2 from each of 6 and 2; no
 * job upwards.
 */
FIXTURE_VARIANT_ADD(heur, push) {
	.before = { 24, 4, 5, 4, 6, 4, 5, 4 },
	.root = 1,
	.after = { 10, 6, 7, 6, 8, 6, 7, 6 },
	.job_messages = 0,
	.messages = 7,
};

/*
 * The walk (Fig. 7 read with policy P4 of Section 4.4: a visited vertex
 * estimates SysLL as the ceiling of the average queue on its path from
 * the root, returns floor(QLen/2) if above it, forwards otherwise).
 * Initiator 0 (QLen 0 < MinTh 2, TotalJQ 18): 4 (QLen 0, estimate 0)
 * forwards; 6 (9, path 0 0 9: estimate 3) returns 4; 2 (1, estimate 1)
 * forwards to 3 and 1 (0), where the branch ends; 4 got jobs, so it passes
 * half of its 4 up. 7 and 5 are never visited. Then the most loaded, 6
 * with 5, is not above MaxTh 5: no push. 5 vertices visited, 2 messages
 * with jobs towards the root.
 */
FIXTURE_VARIANT_ADD(heur, walk) {
	.before = { 0, 0, 1, 0, 0, 4, 9, 4 },
	.root = 0,
	.after = { 2, 0, 1, 0, 2, 4, 5, 4 },
	.job_messages = 2,
	.messages = 7,
};

/* The walk stops at the first overloaded vertex: 4 returns half. */
FIXTURE_VARIANT_ADD(heur, walk_stops) {
	.before = { 0, 3, 3, 3, 10, 3, 3, 3 },
	.root = 0,
	.after = { 5, 3, 3, 3, 5, 3, 3, 3 },
	.job_messages = 1,
	.messages = 2,
};

FIXTURE_SETUP(heur)
{
	ASSERT_EQ(0, ctx_init(&self->c, 3));
	ctx_healthy(&self->c, variant->before);
}

FIXTURE_TEARDOWN(heur)
{
	ctx_free(&self->c);
}

TEST_F(heur, plan)
{
	const struct hcube_plan *p = &self->c.plan;
	u32 v;

	ASSERT_EQ(HCUBE_OK, ctx_plan(&self->c, HCUBE_POLICY_SBN_HEUR));
	EXPECT_EQ(variant->root, p->root);
	for (v = 0; v < 8; v++)
		EXPECT_EQ(variant->after[v], p->after[v]) TH_LOG("vertex %u", v);
	EXPECT_EQ(variant->job_messages, p->stats.job_messages);
	EXPECT_EQ(variant->messages, p->stats.messages);
}

/*
 * Basic, Fig. 6: "when the balancing is initiated, processor 4
 * distributes half of its QLen(p) jobs (i.e. floor(3/2) = 1) back to
 * processor 0" (root 0 below MinTh). The first transfer into 0 carries 1.
 */
TEST(basic_early_transfer)
{
	static const u32 before[8] = { 0, 8, 8, 8, 3, 8, 8, 8 };
	struct ctx c;
	u32 i, first = 0;

	ASSERT_EQ(HCUBE_OK, ctx_plan_healthy(&c, 3, before, HCUBE_POLICY_SBN));
	EXPECT_EQ(0, c.plan.root);
	for (i = 0; i < c.plan.ntransfers; i++) {
		const struct hcube_transfer *x = &c.plan.transfers[i];

		if (x->to == 0 && (!first || x->step < c.plan.transfers[first - 1].step))
			first = i + 1;
	}
	ASSERT_NE(0, first);
	EXPECT_EQ(4, c.plan.transfers[first - 1].from);
	EXPECT_EQ(1, c.plan.transfers[first - 1].count);
	/* 3P - 3 + J */
	EXPECT_EQ(3 * 8 - 3 + c.plan.stats.job_messages, c.plan.stats.messages);
	EXPECT_GE(c.plan.stats.job_messages, 1);
	ctx_free(&c);
}

/* Healthy vertices in v's component. */
static u32 comp_size(const struct ctx *c, u32 v)
{
	u32 n = 1U << c->dim, q[1024], head = 0, tail = 0, d;
	u8 seen[1024] = { 0 };

	seen[v] = 1;
	q[tail++] = v;
	while (head < tail) {
		u32 u = q[head++];

		for (d = 0; d < c->dim; d++) {
			u32 x = u ^ (1U << d);

			if (x < n && !seen[x] && c->state[x] == HCUBE_V_HEALTHY) {
				seen[x] = 1;
				q[tail++] = x;
			}
		}
	}
	return tail;
}

/*
 * Message counts: Basic 3P - 3 + J, CUBE 3P - 4 + J without faults (44
 * and 92 at P = 16, 32 when no job moves up); with faulty or absent
 * vertices, P is the healthy vertices of the root's component (Basic).
 */
TEST(message_counts)
{
	struct ctx c;
	u32 dim, v, rep;

	for (dim = 1; dim <= 8; dim++) {
		u32 n = 1U << dim;

		ASSERT_EQ(0, ctx_init(&c, dim));
		/* equal loads: no job moves, J = 0 */
		for (v = 0; v < n; v++) {
			c.state[v] = HCUBE_V_HEALTHY;
			c.load[v] = 5;
		}
		ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN));
		EXPECT_EQ(0, c.plan.stats.job_messages);
		EXPECT_EQ(3 * n - 3, c.plan.stats.messages);
		ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN_CUBE));
		EXPECT_EQ(0, c.plan.stats.job_messages);
		EXPECT_EQ(n > 1 ? 3 * n - 4 : 0, c.plan.stats.messages) TH_LOG("n %u", dim);
		if (n == 16)
			EXPECT_EQ(44, c.plan.stats.messages);
		if (n == 32)
			EXPECT_EQ(92, c.plan.stats.messages);
		for (rep = 0; rep < 20; rep++) {
			u32 nf = rep < 10 ? 0 : rnd_below(dim);

			for (v = 0; v < n; v++) {
				c.state[v] = HCUBE_V_HEALTHY;
				c.load[v] = rnd_below(20);
			}
			for (v = 0; v < nf; v++) {
				u32 x = rnd_below(n);

				c.state[x] = v & 1 ? HCUBE_V_ABSENT : HCUBE_V_FAULTY;
				c.load[x] = 0;
			}
			if (!nf) {
				ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN_CUBE));
				EXPECT_EQ(n > 1 ? 3 * n - 4 + c.plan.stats.job_messages : 0,
					  c.plan.stats.messages);
			}
			if (ctx_plan(&c, HCUBE_POLICY_SBN) == HCUBE_E_NO_HEALTHY)
				continue;
			if (c.plan.root == NONE)
				continue;
			v = comp_size(&c, c.plan.root);
			if (v > 1)
				EXPECT_EQ(3 * v - 3 + c.plan.stats.job_messages,
					  c.plan.stats.messages) TH_LOG("n %u nf %u", dim, nf);
		}
		ctx_free(&c);
	}
}

/*
 * A faulty predecessor is bypassed: SBN(3), root 0, 4 faulty. 6 and 2 hang
 * off 0 (the first healthy vertex up their chain), so the heuristic walk
 * visits 6 first at path length 2: 6 (QLen 9, estimate ceil(9/2) = 5)
 * returns 4 to 0, along a healthy path. Nothing touches 4.
 */
TEST(faulty_predecessor_skipped)
{
	static const u32 before[8] = { 0, 0, 1, 0, 0, 4, 9, 4 };
	struct ctx c;
	u32 i;

	ASSERT_EQ(0, ctx_init(&c, 3));
	ctx_healthy(&c, before);
	c.state[4] = HCUBE_V_FAULTY;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN_HEUR));
	EXPECT_EQ(0, c.plan.root);
	for (i = 0; i < c.plan.ntransfers; i++) {
		EXPECT_NE(4, c.plan.transfers[i].from);
		EXPECT_NE(4, c.plan.transfers[i].to);
	}
	EXPECT_EQ(4, c.plan.after[0]);
	EXPECT_EQ(5, c.plan.after[6]);
	EXPECT_EQ(0, c.plan.after[4]);
	/* Basic and CUBE: P = 7 healthy */
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN));
	EXPECT_EQ(3 * 7 - 3 + c.plan.stats.job_messages, c.plan.stats.messages);
	for (i = 0; i < c.plan.ntransfers; i++) {
		EXPECT_NE(4, c.plan.transfers[i].from);
		EXPECT_NE(4, c.plan.transfers[i].to);
	}
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_SBN_CUBE));
	for (i = 0; i < c.plan.ntransfers; i++) {
		EXPECT_NE(4, c.plan.transfers[i].from);
		EXPECT_NE(4, c.plan.transfers[i].to);
	}
	ctx_free(&c);
}

/*
 * The recursive construction of Section 3.1, built here link by link:
 * SBN(d) from two SBN(d-1)s, (a) the second relabelled + 2^(d-1), (b)
 * processor j of stage d-1 linked to (j + 2^(d-1)) mod 2^d of stage d, (c)
 * j of stage d-2 linked to m of stage d-1, m the stage-d successor of k,
 * k the stage-(d-1) successor of j. The pattern of source x is what
 * reaches down from x at stage d. It must be the XOR template: every
 * processor once, and the core's successors, predecessors and stages.
 */
#define CMAX 7

static u8 nup[CMAX][1 << CMAX], up[CMAX][1 << CMAX][2];	/* stage s -> s + 1 */

static void construct(u32 d)
{
	static u8 onup[CMAX][1 << CMAX], oup[CMAX][1 << CMAX][2];
	u32 e, s, j, k;

	memset(nup, 0, sizeof(nup));
	for (e = 1; e <= d; e++) {
		u32 h = 1U << (e - 1), n = 1U << e;

		memcpy(onup, nup, sizeof(nup));
		memcpy(oup, up, sizeof(up));
		memset(nup, 0, sizeof(nup));
		/* (a) two copies, the second relabelled */
		for (s = 0; s + 1 < e; s++)
			for (j = 0; j < h; j++)
				for (k = 0; k < onup[s][j]; k++) {
					up[s][j][nup[s][j]++] = oup[s][j][k];
					up[s][j + h][nup[s][j + h]++] = oup[s][j][k] + h;
				}
		/* (b) the new stage */
		for (j = 0; j < n; j++)
			up[e - 1][j][nup[e - 1][j]++] = (j + h) % n;
		/* (c) stage e - 2 to stage e - 1 */
		if (e >= 2)
			for (j = 0; j < n; j++) {
				u32 kk = up[e - 2][j][0];	/* the copy's only link */

				up[e - 2][j][nup[e - 2][j]++] = (kk + h) % n;
			}
	}
}

TEST(recursive_construction)
{
	u32 d, x, s, i, j, k;

	for (d = 1; d <= CMAX; d++) {
		u32 n = 1U << d;

		construct(d);
		for (x = 0; x < n; x++) {
			u32 cur[1 << CMAX], nc = 1, seen = 1;
			u8 in[1 << CMAX] = { 0 };

			cur[0] = x;
			in[x] = 1;
			EXPECT_EQ(d, hcube_sbn_stage(HCUBE_SBN_XOR, d, x, x));
			for (s = d; s >= 1; s--) {
				u32 next[1 << CMAX], nn = 0;

				for (i = 0; i < nc; i++) {
					u32 p = cur[i], got[2], ng, nkids = 0;

					ng = hcube_sbn_succ(HCUBE_SBN_XOR, d, x, p, got);
					for (j = 0; j < n; j++) {
						bool linked = false;

						for (k = 0; k < nup[s - 1][j]; k++)
							if (up[s - 1][j][k] == p)
								linked = true;
						if (!linked)
							continue;
						nkids++;
						EXPECT_EQ(0, in[j]) TH_LOG("d %u root %u: %u twice", d, x, j);
						in[j] = 1;
						seen++;
						next[nn++] = j;
						EXPECT_EQ(s - 1, hcube_sbn_stage(HCUBE_SBN_XOR, d, x, j));
						EXPECT_EQ(p, hcube_sbn_pred(HCUBE_SBN_XOR, d, x, j));
						EXPECT_TRUE(ng >= 1 && (got[0] == j || (ng == 2 && got[1] == j)))
							TH_LOG("d %u root %u: %u -> %u", d, x, p, j);
					}
					EXPECT_EQ(ng, nkids) TH_LOG("d %u root %u at %u", d, x, p);
				}
				memcpy(cur, next, nn * sizeof(u32));
				nc = nn;
			}
			EXPECT_EQ(n, seen) TH_LOG("d %u root %u", d, x);
		}
	}
}

/*
 * Logical transfers are routed along shortest healthy paths, the lower
 * dimension first (hcube_lplan.c): on a 3-cube, 0 -> 3 goes by 1, by 2 when
 * 1 is faulty, and around (4 hops) when both are.
 */
TEST(lplan_routes)
{
	u8 st[8] = { 0 };
	void *mem = malloc(hcube_lplan_memsize(3));
	struct hcube_lplan lp;

	ASSERT_TRUE(mem != NULL);
	hcube_lplan_init(&lp, 3, st, mem);
	EXPECT_EQ(2, hcube_lplan_dist(&lp, 0, 3));
	ASSERT_EQ(HCUBE_OK, hcube_lplan_add(&lp, 0, 3, 5, 1));
	EXPECT_EQ(1, lp.pool[lp.x[0].path]);
	EXPECT_EQ(3, lp.pool[lp.x[0].path + 1]);
	st[1] = HCUBE_V_FAULTY;
	hcube_lplan_init(&lp, 3, st, mem);
	EXPECT_EQ(2, hcube_lplan_dist(&lp, 0, 3));
	ASSERT_EQ(HCUBE_OK, hcube_lplan_add(&lp, 0, 3, 5, 1));
	EXPECT_EQ(2, lp.pool[lp.x[0].path]);
	st[2] = HCUBE_V_ABSENT;
	hcube_lplan_init(&lp, 3, st, mem);
	EXPECT_EQ(4, hcube_lplan_dist(&lp, 0, 3));
	ASSERT_EQ(HCUBE_OK, hcube_lplan_add(&lp, 0, 3, 5, 1));
	/* 0 -> 4 -> 5 -> 7 -> 3 or 0 -> 4 -> 6 -> 7 -> 3: from 4, dimension 0 */
	EXPECT_EQ(4, lp.pool[lp.x[0].path]);
	EXPECT_EQ(5, lp.pool[lp.x[0].path + 1]);
	EXPECT_EQ(7, lp.pool[lp.x[0].path + 2]);
	EXPECT_EQ(3, lp.pool[lp.x[0].path + 3]);
	EXPECT_EQ(20, lp.hops);
	/* 3 -> 0 the other way round: 7, then across dimension 0 to 6, 4 */
	ASSERT_EQ(HCUBE_OK, hcube_lplan_add(&lp, 3, 0, 1, 1));
	EXPECT_EQ(7, lp.pool[lp.x[1].path]);
	EXPECT_EQ(6, lp.pool[lp.x[1].path + 1]);
	EXPECT_EQ(4, lp.pool[lp.x[1].path + 2]);
	free(mem);
}

TEST_HARNESS_MAIN
