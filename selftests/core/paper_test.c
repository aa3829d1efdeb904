// SPDX-License-Identifier: GPL-2.0
/*
 * The hcube core against the worked examples of K. Nam, J. Seo, S. Lee and
 * J. Kim, "Synchronous Load Balancing in Hypercube Multicomputers with
 * Faulty Nodes", Journal of Parallel and Distributed Computing 58, 1999:
 * CWA Example 1 (Tables 2-4), MCWA Example 2 (Figs. 4-5,
 * Tables 5-6), DEM on Fig. 1's loads; plus the edge cases of the topology.
 */
#include <stdio.h>
#include "kselftest_harness.h"
#include "core_util.h"

/* One row of the paper's calculation tables: l, delta, theta, gamma per level. */
struct row {
	const char *node;
	s32 v[3][4];
};

struct snapshot {
	struct hcube_cwa_observer obs;
	s32 val[HCUBE_MAX_DIM][16][4][5];	/* [dim][vertex][level][what] */
	u32 label[16];
	u32 k;
	int seen[HCUBE_MAX_DIM];
};

static void record(struct hcube_cwa_observer *obs, const struct hcube_cwa *c,
		   u32 dim)
{
	struct snapshot *s = (struct snapshot *)obs;
	u32 v, j, w;

	s->k = hcube_cwa_dim(c);
	s->seen[dim]++;
	for (v = 0; v < (1U << s->k); v++) {
		s->label[v] = hcube_cwa_vertex(c, v);
		for (j = 0; j <= s->k; j++)
			for (w = 0; w <= HCUBE_CWA_GAMMA; w++)
				s->val[dim][v][j][w] = hcube_cwa_value(c, w, j, v);
	}
}

static int local_of(const struct snapshot *s, u32 label)
{
	u32 v;

	for (v = 0; v < (1U << s->k); v++)
		if (s->label[v] == label)
			return v;
	return -1;
}

static const int cols[4] = { HCUBE_CWA_L, HCUBE_CWA_DELTA, HCUBE_CWA_THETA,
			     HCUBE_CWA_GAMMA };

/* Compare a paper table taken at migration dimension dim (levels 0..nlev-1). */
static int check_table(struct __test_metadata *_metadata,
		       const struct snapshot *s, u32 dim, const struct row *rows,
		       int nrows, int nlev)
{
	int r, j, c;

	for (r = 0; r < nrows; r++) {
		int v = local_of(s, lbl(rows[r].node));

		EXPECT_GE(v, 0);
		if (v < 0)
			return -1;
		for (j = 0; j < nlev; j++)
			for (c = 0; c < 4; c++) {
				EXPECT_EQ(rows[r].v[j][c], s->val[dim][v][j][cols[c]])
					TH_LOG("node %s level %d column %d",
					       rows[r].node, j, c);
			}
	}
	return 0;
}

struct xfer {
	u32 step;
	const char *from, *to;
	u32 count;
};

static void check_transfers(struct __test_metadata *_metadata,
			    const struct hcube_plan *p, const struct xfer *x, u32 n)
{
	u32 i;

	ASSERT_EQ(n, p->ntransfers);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(x[i].step, p->transfers[i].step) TH_LOG("transfer %u", i);
		EXPECT_EQ(lbl(x[i].from), p->transfers[i].from) TH_LOG("transfer %u", i);
		EXPECT_EQ(lbl(x[i].to), p->transfers[i].to) TH_LOG("transfer %u", i);
		EXPECT_EQ(x[i].count, p->transfers[i].count) TH_LOG("transfer %u", i);
	}
}

/* Example 1 / Fig. 1: the loads read off Tables 2-4 (total 64). */
static const u32 ex1_load[8] = { 19, 11, 2, 9, 0, 9, 10, 4 };

TEST(cwa_example1)
{
	static const struct row table2[] = {
		{ "000", { { 19, 11, 6, 5 }, { 30, 14, 9, 5 }, { 41, 9, 9, 0 } } },
		{ "001", { { 11, 3, 3, 0 }, { 30, 14, 9, 5 }, { 41, 9, 9, 0 } } },
		{ "010", { { 2, -6, 0, -6 }, { 11, -5, 0, -5 }, { 41, 9, 9, 0 } } },
		{ "011", { { 9, 1, 0, 1 }, { 11, -5, 0, -5 }, { 41, 9, 9, 0 } } },
	};
	static const struct row table3[] = {
		{ "000", { { 13, 5, 5, 0 }, { 21, 5, 5, 0 } } },
		{ "001", { { 8, 0, 0, 0 }, { 21, 5, 5, 0 } } },
		{ "100", { { 6, -2, 0, -2 }, { 18, 2, 2, 0 } } },
		{ "101", { { 12, 4, 2, 2 }, { 18, 2, 2, 0 } } },
	};
	static const struct row table4[] = {
		{ "011", { { 9, 1, 1, 0 } } },
		{ "101", { { 10, 2, 2, 0 } } },
		{ "110", { { 10, 2, 2, 0 } } },
	};
	static const struct xfer want[] = {
		{ 1, "000", "100", 6 }, { 1, "001", "101", 3 },
		{ 2, "000", "010", 5 }, { 2, "101", "111", 2 },
		{ 3, "011", "010", 1 }, { 3, "101", "100", 2 }, { 3, "110", "111", 2 },
	};
	static struct snapshot snap = { .obs.fn = record };
	struct ctx c;
	u32 v, moved = 0, hops = 0;

	ASSERT_EQ(0, ctx_init(&c, 3));
	memcpy(c.load, ex1_load, sizeof(ex1_load));
	c.plan.observer = &snap.obs;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_CWA));

	ASSERT_EQ(3, snap.k);
	ASSERT_EQ(1, snap.seen[2]);
	ASSERT_EQ(1, snap.seen[1]);
	ASSERT_EQ(1, snap.seen[0]);
	check_table(_metadata, &snap, 2, table2, 4, 3);
	check_table(_metadata, &snap, 1, table3, 4, 2);
	check_table(_metadata, &snap, 0, table4, 3, 1);
	check_transfers(_metadata, &c.plan, want, 7);

	for (v = 0; v < 8; v++) {
		EXPECT_EQ(8, c.plan.after[v]);
		if (ex1_load[v] > 8)
			moved += ex1_load[v] - 8;
	}
	for (v = 0; v < 7; v++)
		hops += want[v].count;
	EXPECT_EQ(hops, c.plan.stats.migrations);
	EXPECT_EQ(moved, c.plan.stats.moved_tasks);
	EXPECT_EQ(7, c.plan.stats.transfers);
	EXPECT_EQ(3 * 3, c.plan.stats.comm_steps);	/* 3 log N */
	EXPECT_EQ(19, c.plan.stats.before_max);
	EXPECT_EQ(0, c.plan.stats.before_min);
	EXPECT_EQ(8, c.plan.stats.after_max);
	EXPECT_EQ(8, c.plan.stats.after_min);
	EXPECT_EQ(19 * 1000 / 8, c.plan.stats.before_ratio_milli);
	EXPECT_EQ(1000, c.plan.stats.after_ratio_milli);

	/* MCWA on a fault-free cube is CWA. */
	c.plan.observer = NULL;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_MCWA));
	EXPECT_STREQ("XXX", hcube_pattern((char[4]){ 0 }, 3, c.topo.cb_base,
					 c.topo.cb_mask));
	EXPECT_EQ(0, c.topo.depth);
	check_transfers(_metadata, &c.plan, want, 7);
	ctx_free(&c);
}

/* Example 2: faulty 0101 0110 1000 1010 on a 4-cube. */
static const char *const ex2_faulty[] = { "0101", "0110", "1000", "1010" };

/*
 * Per-vertex loads chosen to give the subtree loads the paper states:
 * l_t(1001) = 37, l_t(1011) = 37, l_t(0011) = 34, l_t(0001) = 12,
 * l_t(1111) = 32, l_t(1110) = 14 (so 1111 has 18 and 1011 has 5); 120 in all.
 */
static const struct {
	const char *node;
	u32 load;
} ex2_load[] = {
	{ "1011", 5 }, { "1111", 18 }, { "1110", 14 },
	{ "1001", 10 }, { "1101", 12 }, { "1100", 15 },
	{ "0011", 20 }, { "0010", 4 }, { "0111", 10 },
	{ "0001", 2 }, { "0000", 6 }, { "0100", 4 },
};

static void ex2_setup(struct ctx *c)
{
	u32 i;

	for (i = 0; i < 4; i++)
		c->state[lbl(ex2_faulty[i])] = HCUBE_V_FAULTY;
	for (i = 0; i < 12; i++)
		c->load[lbl(ex2_load[i].node)] = ex2_load[i].load;
}

TEST(mcwa_example2_topology)
{
	static const struct {
		char child[5], parent[5];
	} tree[] = {
		{ "1111", "1011" }, { "1110", "1111" }, { "1101", "1001" },
		{ "1100", "1101" }, { "0000", "0001" }, { "0100", "0000" },
		{ "0010", "0011" }, { "0111", "0011" },
	};
	char pat[8];
	struct ctx c;
	u32 i;

	ASSERT_EQ(0, ctx_init(&c, 4));
	ex2_setup(&c);

	/* Algorithm 4: XX11 rejected, X0X1 accepted. */
	EXPECT_FALSE(hcube_alg4_accepts(4, c.state, lbl("0011"), lbl("1100")));
	EXPECT_TRUE(hcube_alg4_accepts(4, c.state, lbl("0001"), lbl("1010")));

	ASSERT_EQ(HCUBE_OK, hcube_topo_build(&c.topo, 4, c.state, c.work));
	/* XX11, X0X1, 1XX1, 11XX and 00XX, which the paper's list misses. */
	EXPECT_EQ(5, c.topo.ncandidates);
	EXPECT_EQ(2, c.topo.cb_dim);
	EXPECT_STREQ("X0X1", hcube_pattern(pat, 4, c.topo.cb_base, c.topo.cb_mask));
	EXPECT_EQ(2, c.topo.depth);
	EXPECT_EQ(11, c.topo.total_dist);
	EXPECT_EQ(12, c.topo.nhealthy);
	EXPECT_EQ(12, c.topo.nattached);
	for (i = 0; i < ARRAY_SIZE(tree); i++)
		EXPECT_EQ((s32)lbl(tree[i].parent), c.topo.parent[lbl(tree[i].child)])
			TH_LOG("parent of %s", tree[i].child);
	EXPECT_EQ(-1, c.topo.parent[lbl("0001")]);
	EXPECT_EQ(-1, c.topo.parent[lbl("0101")]);
	EXPECT_EQ(3, c.topo.omega[lbl("1011")]);
	EXPECT_EQ(2, c.topo.omega[lbl("1111")]);
	EXPECT_EQ(1, c.topo.omega[lbl("1110")]);

	/* The other candidates, forced: 1XX1 ties, XX11 and 00XX are deeper. */
	ASSERT_EQ(HCUBE_OK, hcube_topo_build_cb(&c.topo, 4, c.state, lbl("1001"),
						lbl("0110"), c.work));
	EXPECT_EQ(2, c.topo.depth);
	EXPECT_EQ(11, c.topo.total_dist);
	ASSERT_EQ(HCUBE_OK, hcube_topo_build_cb(&c.topo, 4, c.state, lbl("0011"),
						lbl("1100"), c.work));
	EXPECT_EQ(3, c.topo.depth);
	ASSERT_EQ(HCUBE_OK, hcube_topo_build_cb(&c.topo, 4, c.state, lbl("0000"),
						lbl("0011"), c.work));
	EXPECT_EQ(3, c.topo.depth);
	/* A subcube with a faulty vertex is refused. */
	EXPECT_EQ(HCUBE_E_TOPO, hcube_topo_build_cb(&c.topo, 4, c.state, lbl("0100"),
						    lbl("0011"), c.work));
	ctx_free(&c);
}

TEST(mcwa_example2_plan)
{
	static const struct row table5[] = {
		{ "1001", { { 37, 7, 7, 0 }, { 74, 14, 14, 0 } } },
		{ "1011", { { 37, 7, 7, 0 }, { 74, 14, 14, 0 } } },
	};
	static const struct row table6[] = {
		{ "0011", { { 41, 11, 11, 0 } } },
	};
	/*
	 * Quotas from the paper: q_t of every C_b root 30, q_t(1111) = 20,
	 * q_t(1110) = 10; each tree vertex sends l_t - q_t up or receives
	 * q_t - l_t from its parent. Steps: 1-2 up the trees (deepest
	 * first), 3 dimension 3 (Table 5), 4 dimension 1 (Table 6), 5-6 down.
	 */
	static const struct xfer want[] = {
		{ 1, "1100", "1101", 15 - 10 }, { 1, "1110", "1111", 14 - 10 },
		{ 2, "1101", "1001", 27 - 20 }, { 2, "1111", "1011", 32 - 20 },
		{ 3, "1001", "0001", 7 }, { 3, "1011", "0011", 7 },
		{ 4, "0011", "0001", 11 },
		{ 5, "0001", "0000", 20 - 10 }, { 5, "0011", "0010", 10 - 4 },
		{ 6, "0000", "0100", 10 - 4 },
	};
	static struct snapshot snap = { .obs.fn = record };
	struct ctx c;
	u32 v, i;

	ASSERT_EQ(0, ctx_init(&c, 4));
	ex2_setup(&c);
	c.plan.observer = &snap.obs;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_MCWA));

	ASSERT_EQ(2, snap.k);
	/* q_t of the C_b roots: q^0 = omega * l_avg = 3 * 10. */
	for (v = 0; v < 4; v++)
		EXPECT_EQ(30, snap.val[1][v][0][HCUBE_CWA_Q]);
	check_table(_metadata, &snap, 1, table5, 2, 2);
	check_table(_metadata, &snap, 0, table6, 1, 1);
	check_transfers(_metadata, &c.plan, want, 10);

	for (v = 0; v < 16; v++) {
		if (c.state[v] == HCUBE_V_HEALTHY) {
			EXPECT_EQ(10, c.plan.after[v]) TH_LOG("vertex %u", v);
		} else {
			EXPECT_EQ(0, c.plan.after[v]);
		}
	}
	/* 3 log N + T with T = 2 */
	EXPECT_EQ(3 * 4 + 2, c.plan.stats.comm_steps);
	EXPECT_EQ(120, c.plan.stats.total);
	EXPECT_EQ(12, c.plan.stats.nvertices);
	for (i = 0, v = 0; i < 10; i++)
		v += want[i].count;
	EXPECT_EQ(v, c.plan.stats.migrations);

	/* CWA refuses a faulty cube and says what to use instead. */
	ASSERT_EQ(HCUBE_E_NEED_MCWA, ctx_plan(&c, HCUBE_POLICY_CWA));
	EXPECT_NE(NULL, strstr(hcube_strerror(HCUBE_E_NEED_MCWA), "mcwa"));
	ctx_free(&c);
}

TEST(dem_figure1)
{
	struct ctx c;
	u32 i, dim0 = 0, v, max = 0, min = ~0U, total = 0;

	ASSERT_EQ(0, ctx_init(&c, 3));
	memcpy(c.load, ex1_load, sizeof(ex1_load));
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_DEM));
	/* "14 task migrations are performed" in dimension 0 (Section 3.2). */
	for (i = 0; i < c.plan.ntransfers; i++) {
		if (c.plan.transfers[i].step == 1) {
			EXPECT_EQ(1, c.plan.transfers[i].from ^ c.plan.transfers[i].to);
			dim0 += c.plan.transfers[i].count;
		}
	}
	EXPECT_EQ(14, dim0);
	for (v = 0; v < 8; v++) {
		total += c.plan.after[v];
		max = c.plan.after[v] > max ? c.plan.after[v] : max;
		min = c.plan.after[v] < min ? c.plan.after[v] : min;
	}
	EXPECT_EQ(64, total);
	EXPECT_LE(max - min, 3);	/* bounded by log N */
	EXPECT_EQ(3 * 3, c.plan.stats.comm_steps);
	ctx_free(&c);
}

/* Q2 with 01 faulty: 00 exchanges only with 10, 11 only with 10. */
TEST(dem_skips_faulty_neighbour)
{
	static const u32 load[4] = { 10, 0, 0, 6 };
	/* dimension 0: 11 -> 10 3; dimension 1: 00 -> 10 (10 - 3) / 2 = 3 */
	static const struct xfer want[] = { { 1, "11", "10", 3 }, { 2, "00", "10", 3 } };
	struct ctx c;

	ASSERT_EQ(0, ctx_init(&c, 2));
	c.state[1] = HCUBE_V_FAULTY;
	memcpy(c.load, load, sizeof(load));
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_DEM));
	check_transfers(_metadata, &c.plan, want, 2);
	EXPECT_EQ(7, c.plan.after[0]);
	EXPECT_EQ(6, c.plan.after[2]);
	EXPECT_EQ(3, c.plan.after[3]);
	ctx_free(&c);
}

/*
 * A healthy vertex that no healthy path joins to C_b is detached: it keeps
 * its load and no transfer touches it; the attached vertices balance.
 */
TEST(detached_vertex)
{
	static const u32 load[8] = { 7, 0, 0, 40, 0, 1, 2, 3 };
	char pat[4];
	struct ctx c;
	u32 i, v;

	ASSERT_EQ(0, ctx_init(&c, 3));
	c.state[1] = HCUBE_V_FAULTY;
	c.state[2] = HCUBE_V_ABSENT;
	c.state[4] = HCUBE_V_OFFLINE;
	memcpy(c.load, load, sizeof(load));
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_MCWA));
	EXPECT_STREQ("X11", hcube_pattern(pat, 3, c.topo.cb_base, c.topo.cb_mask));
	EXPECT_EQ(5, c.topo.nhealthy);
	EXPECT_EQ(4, c.topo.nattached);
	EXPECT_EQ(-1, c.topo.parent[0]);
	EXPECT_EQ(HCUBE_DIST_NONE, c.topo.dist[0]);
	EXPECT_EQ(0, c.topo.omega[0]);
	EXPECT_EQ(7, c.plan.after[0]);
	for (i = 0; i < c.plan.ntransfers; i++) {
		EXPECT_NE(0, c.plan.transfers[i].from);
		EXPECT_NE(0, c.plan.transfers[i].to);
	}
	/* 46 tasks over 4 attached vertices: 12, 12, 11, 11 */
	for (v = 3; v < 8; v++) {
		if (v == 4)
			continue;
		EXPECT_GE(c.plan.after[v], 11);
		EXPECT_LE(c.plan.after[v], 12);
	}
	/* DEM does not need the trees: 000 has no healthy neighbour at all. */
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_DEM));
	EXPECT_EQ(7, c.plan.after[0]);
	ctx_free(&c);
}

/*
 * Example 1's CWA plan moves 18 tasks net (21 task-hops): 101 receives 3
 * from 001 and passes 2 on, so it is a transit vertex, not a source.
 */
TEST(routes_example1)
{
	struct hcube_route r[128];
	u32 nr, i, moved = 0, from_101 = 0;
	struct ctx c;

	ASSERT_EQ(0, ctx_init(&c, 3));
	memcpy(c.load, ex1_load, sizeof(ex1_load));
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_CWA));
	ASSERT_GE(ARRAY_SIZE(r), hcube_routes_max(3));
	ASSERT_EQ(HCUBE_OK, hcube_plan_routes(&c.plan, c.load, r, ARRAY_SIZE(r),
					      &nr, c.work));
	for (i = 0; i < nr; i++) {
		moved += r[i].count;
		if (r[i].from == lbl("101"))
			from_101 += r[i].count;
		EXPECT_NE(r[i].to, lbl("000"));
		EXPECT_NE(r[i].to, lbl("001"));
	}
	EXPECT_EQ(11 + 3 + 1 + 1 + 2, moved);
	EXPECT_EQ(1, from_101);	/* 9 -> 8: one of its own */
	ctx_free(&c);
}

TEST(evacuate_nearest_level)
{
	u32 out[8] = { 0 };
	struct ctx c;

	/* 000 faulty; its neighbours 001, 010, 100 hold 5, 1, 3. */
	ASSERT_EQ(0, ctx_init(&c, 3));
	c.state[0] = HCUBE_V_FAULTY;
	c.load[1] = 5;
	c.load[2] = 1;
	c.load[4] = 3;
	c.load[7] = 0;	/* empty but three hops away */
	ASSERT_EQ(HCUBE_OK, hcube_evacuate(3, c.state, c.load, 0, 7, out));
	/* Level 5 needs 4 + 2 = 6; the seventh goes to the lowest label. */
	EXPECT_EQ(1, out[1]);
	EXPECT_EQ(4, out[2]);
	EXPECT_EQ(2, out[4]);
	EXPECT_EQ(0, out[7]);
	c.state[1] = c.state[2] = c.state[4] = HCUBE_V_OFFLINE;
	memset(out, 0, sizeof(out));
	ASSERT_EQ(HCUBE_OK, hcube_evacuate(3, c.state, c.load, 0, 2, out));
	EXPECT_EQ(1, out[3]);	/* distance 2: 011, 101, 110 at load 0 */
	EXPECT_EQ(1, out[5]);
	EXPECT_EQ(0, out[6]);
	c.state[3] = c.state[5] = c.state[6] = c.state[7] = HCUBE_V_ABSENT;
	EXPECT_EQ(HCUBE_E_NO_HEALTHY, hcube_evacuate(3, c.state, c.load, 0, 2, out));
	ctx_free(&c);
}

TEST(zero_cube)
{
	char pat[2];
	struct ctx c;

	ASSERT_EQ(0, ctx_init(&c, 0));
	c.load[0] = 5;
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_MCWA));
	EXPECT_STREQ("", hcube_pattern(pat, 0, c.topo.cb_base, c.topo.cb_mask));
	EXPECT_EQ(0, c.plan.ntransfers);
	EXPECT_EQ(5, c.plan.after[0]);
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_CWA));
	ASSERT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_DEM));
	c.state[0] = HCUBE_V_FAULTY;
	c.load[0] = 0;
	EXPECT_EQ(HCUBE_E_NO_HEALTHY, ctx_plan(&c, HCUBE_POLICY_MCWA));
	EXPECT_EQ(HCUBE_E_NO_HEALTHY, ctx_plan(&c, HCUBE_POLICY_DEM));
	ctx_free(&c);
}

TEST(bad_input)
{
	struct ctx c, other;

	ASSERT_EQ(0, ctx_init(&c, 3));
	ASSERT_EQ(0, ctx_init(&other, 3));
	c.state[5] = HCUBE_V_FAULTY;
	c.load[5] = 1;
	EXPECT_EQ(HCUBE_E_FAULTY_LOAD, ctx_plan(&c, HCUBE_POLICY_MCWA));
	EXPECT_EQ(HCUBE_E_FAULTY_LOAD, ctx_plan(&c, HCUBE_POLICY_DEM));
	c.load[5] = 0;
	c.load[0] = 0x7fffffff;
	c.load[1] = 1;
	EXPECT_EQ(HCUBE_E_OVERFLOW, ctx_plan(&c, HCUBE_POLICY_MCWA));
	c.load[0] = 0x7ffffffe;
	EXPECT_EQ(HCUBE_OK, ctx_plan(&c, HCUBE_POLICY_MCWA));
	c.load[0] = 1;
	EXPECT_EQ(HCUBE_E_POLICY, hcube_plan_build(&c.plan, __HCUBE_POLICY_MAX,
						   &c.cube, &c.topo, c.work));
	c.state[6] = HCUBE_V_NSTATES;
	EXPECT_EQ(HCUBE_E_STATE, hcube_topo_build(&c.topo, 3, c.state, c.work));
	EXPECT_EQ(HCUBE_E_STATE, hcube_plan_build(&c.plan, HCUBE_POLICY_DEM,
						  &c.cube, NULL, c.work));
	c.state[6] = HCUBE_V_HEALTHY;
	/* A topology built for other states is refused, and so is none. */
	ASSERT_EQ(HCUBE_OK, hcube_topo_build(&other.topo, 3, other.state, other.work));
	EXPECT_EQ(HCUBE_E_TOPO, hcube_plan_build(&c.plan, HCUBE_POLICY_MCWA, &c.cube,
						 &other.topo, c.work));
	EXPECT_EQ(HCUBE_E_TOPO, hcube_plan_build(&c.plan, HCUBE_POLICY_MCWA, &c.cube,
						 NULL, c.work));
	/* Dimension mismatch and out of range. */
	c.cube.dim = 2;
	EXPECT_EQ(HCUBE_E_DIM, hcube_plan_build(&c.plan, HCUBE_POLICY_DEM, &c.cube,
						NULL, c.work));
	EXPECT_EQ(HCUBE_E_DIM, hcube_topo_init(&c.topo, HCUBE_MAX_DIM + 1, c.topo_mem));
	EXPECT_EQ(0, hcube_topo_memsize(HCUBE_MAX_DIM + 1));
	EXPECT_EQ(HCUBE_POLICY_DEM, hcube_policy_parse("dem"));
	EXPECT_EQ(-1, hcube_policy_parse("mcwa2"));
	EXPECT_EQ(-1, hcube_policy_parse(""));
	EXPECT_STREQ("unknown error", hcube_strerror(HCUBE_E_NERRORS));
	ctx_free(&c);
	ctx_free(&other);
}

TEST_HARNESS_MAIN
