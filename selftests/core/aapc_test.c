// SPDX-License-Identifier: GPL-2.0
/*
 * hcube_aapc(), fault-tolerant all-to-all personalized communication
 * (H. Masuyama and E. Masuyama, "A Method of Fault-Tolerant All-to-All
 * Personalized Communication in Hypercubes", IPSJ Journal, technical note,
 * 2003), for n = 3..8 and f = 0 ..
 * floor(n/2) faulty nodes placed at random, adjacent, antipodal and in one
 * half:
 * - every datum between two healthy nodes is delivered exactly once: its
 *   hops form one walk from its source to its destination, in
 *   non-decreasing time units, reaching the destination only at its end;
 *   no datum has a faulty end, and no other data exist;
 * - no hop touches a faulty node, every hop is a hypercube edge;
 * - at most one datum per link direction per time unit;
 * - time units against the paper's formulas (Section 3): 2^n - 1 for no
 *   fault (optimal AAPC, quoted in 3.1.2), 5 * 2^(n-1) - 2 for one
 *   (3.1.2), 5 * 2^(n-1) + n - 1 for two (3.2.2), and for f faults
 *   (5 * 2^f - 2) * 2^(n-(f+1)) = 2^(n-1)(5 - 2^(1-f)) (3.3.2), a count
 *   that the paper says ignores Phase 2 Step 1.
 * The expected values are computed here from the paper's formulas, not
 * taken from info->paper_units (which is checked against them as well).
 */
#include <stdio.h>
#include "kselftest_harness.h"
#define CORE_RNG_SEED 0x5eed2003ULL
#include "core_util.h"

/* The paper's unit counts (Section 3), computed independently. */
static u32 paper_units(u32 n, u32 f, bool force_af)
{
	if (f == 0)
		return (1U << n) - 1;
	if (f == 1)
		return 5 * (1U << (n - 1)) - 2;
	if (f == 2 && !force_af)
		return 5 * (1U << (n - 1)) + n - 1;
	return (5 * (1U << f) - 2) * (1U << (n - (f + 1)));
}

struct run {
	struct hcube_aapc_hop *hops;
	u32 *idx;
	u8 *busy;
	void *work;
	u64 cap;
};

static const struct hcube_aapc_hop *sort_hops;

static int cmp_hop(const void *a, const void *b)
{
	const struct hcube_aapc_hop *x = &sort_hops[*(const u32 *)a];
	const struct hcube_aapc_hop *y = &sort_hops[*(const u32 *)b];
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return ia < ib ? -1 : ia > ib;	/* a circuit's hops in path order */
}

/*
 * Check one schedule; returns its units (0 on a failed check, after
 * reporting it).
 */
static u32 check_schedule(struct __test_metadata *_metadata, struct run *r,
			  u32 dim, const u8 *state, u32 flags,
			  struct hcube_aapc_info *info)
{
	u32 n = 1U << dim, f = 0, nh = 0, v, i, ndata = 0, fails = 0;
	u64 h, nhops;
	int err;

	for (v = 0; v < n; v++) {
		if (state[v] == HCUBE_V_HEALTHY)
			nh++;
		else
			f++;
	}
	memset(info, 0, sizeof(*info));
	/* exactly the room the header promises is enough */
	ASSERT_LE(hcube_aapc_max_hops(dim), r->cap);
	err = hcube_aapc(dim, state, flags, r->hops, hcube_aapc_max_hops(dim),
			 info, r->work);
	ASSERT_EQ(HCUBE_OK, err);
	nhops = info->hops;
	EXPECT_EQ(f, info->faults);
	EXPECT_EQ((u64)nh * (nh - 1), info->data);
	EXPECT_EQ(paper_units(dim, f, flags & HCUBE_AAPC_FORCE_AF),
		  info->paper_units);
	if (dim >= 3)
		EXPECT_GE(info->units, info->main_units);

	/* edges, healthy ends, units in range, one datum per link direction */
	memset(r->busy, 0, (size_t)(info->units + 1) * n * dim);
	for (h = 0; h < nhops && fails < 5; h++) {
		const struct hcube_aapc_hop *x = &r->hops[h];
		u32 d = 0, bit = x->from ^ x->to;
		u8 *b;

		if (hweight32(bit) != 1 || x->from >= n || x->to >= n ||
		    state[x->from] != HCUBE_V_HEALTHY ||
		    state[x->to] != HCUBE_V_HEALTHY ||
		    x->unit < 1 || x->unit > info->units ||
		    x->src >= n || x->dst >= n || x->src == x->dst ||
		    state[x->src] != HCUBE_V_HEALTHY ||
		    state[x->dst] != HCUBE_V_HEALTHY) {
			TH_LOG("bad hop %llu: unit %u %u->%u datum %u->%u",
			       (unsigned long long)h, x->unit, x->from, x->to,
			       x->src, x->dst);
			fails++;
			continue;
		}
		while (bit >>= 1)
			d++;
		b = &r->busy[((size_t)x->unit * n + x->from) * dim + d];
		if (*b) {
			TH_LOG("link %u dim %u used twice in unit %u", x->from,
			       d, x->unit);
			fails++;
		}
		*b = 1;
	}
	EXPECT_EQ(0, fails);
	if (fails)
		return 0;

	/* every datum: one walk src -> dst, units non-decreasing */
	for (h = 0; h < nhops; h++)
		r->idx[h] = (u32)h;
	sort_hops = r->hops;
	qsort(r->idx, nhops, sizeof(u32), cmp_hop);
	for (i = 0; i < nhops && fails < 5;) {
		const struct hcube_aapc_hop *x = &r->hops[r->idx[i]];
		u32 src = x->src, dst = x->dst, pos = src, unit = 0;

		ndata++;
		for (; i < nhops; i++) {
			x = &r->hops[r->idx[i]];
			if (x->src != src || x->dst != dst)
				break;
			if (pos == dst || x->from != pos || x->unit < unit) {
				TH_LOG("datum %u->%u: hop unit %u %u->%u at %u (unit %u)",
				       src, dst, x->unit, x->from, x->to, pos, unit);
				fails++;
			}
			pos = x->to;
			unit = x->unit;
		}
		if (pos != dst) {
			TH_LOG("datum %u->%u ends at %u", src, dst, pos);
			fails++;
		}
	}
	EXPECT_EQ(0, fails);
	/* distinct (src, dst) groups, all healthy and src != dst: all data */
	EXPECT_EQ((u64)nh * (nh - 1), ndata);
	return fails ? 0 : info->units;
}

static void faults_random(u32 dim, u8 *state, u32 f)
{
	u32 n = 1U << dim, v;

	for (v = 0; v < n; v++)
		state[v] = HCUBE_V_HEALTHY;
	for (v = 0; v < f;) {
		u32 x = rnd_below(n);

		if (state[x] == HCUBE_V_HEALTHY) {
			state[x] = rnd_below(3) + 1;	/* faulty, offline, absent */
			v++;
		}
	}
}

/* f faults on a path from 0: 0, 1, 3, 7, ... (each adjacent to the last) */
static void faults_chain(u32 dim, u8 *state, u32 f)
{
	u32 n = 1U << dim, v;

	for (v = 0; v < n; v++)
		state[v] = HCUBE_V_HEALTHY;
	for (v = 0; v < f; v++)
		state[(1U << v) - 1] = HCUBE_V_FAULTY;
}

/* 0 and its antipode, then the unit vectors 1, 2, 4, ... */
static void faults_spread(u32 dim, u8 *state, u32 f)
{
	u32 n = 1U << dim, v;

	for (v = 0; v < n; v++)
		state[v] = HCUBE_V_HEALTHY;
	for (v = 0; v < f; v++)
		state[v == 0 ? 0 : v == 1 ? n - 1 : 1U << (v - 2)] = HCUBE_V_FAULTY;
}

FIXTURE(aapc) {
	struct run r;
};

FIXTURE_SETUP(aapc)
{
	u32 dmax = 8;
	u64 hmax = hcube_aapc_max_hops(dmax);

	self->r.cap = hmax;
	self->r.hops = malloc(hmax * sizeof(*self->r.hops));
	self->r.idx = malloc(hmax * sizeof(u32));
	self->r.work = malloc(hcube_aapc_memsize(dmax));
	/* busy[unit][node][dim], units up to 8 * 2^8 */
	self->r.busy = malloc((size_t)(8U << dmax) * (1U << dmax) * dmax);
	ASSERT_TRUE(self->r.hops && self->r.idx && self->r.work && self->r.busy);
}

FIXTURE_TEARDOWN(aapc)
{
	free(self->r.hops);
	free(self->r.idx);
	free(self->r.work);
	free(self->r.busy);
}

/* No fault: the XOR exchange, exactly 2^n - 1 units. */
TEST_F(aapc, no_fault)
{
	struct hcube_aapc_info info;
	u8 state[256];
	u32 dim;

	for (dim = 0; dim <= 8; dim++) {
		faults_random(dim, state, 0);
		EXPECT_EQ((1U << dim) - 1,
			  check_schedule(_metadata, &self->r, dim, state, 0, &info));
		EXPECT_EQ(HCUBE_AAPC_XOR, info.alg);
	}
}

/* One fault anywhere: A_1, exactly 5 * 2^(n-1) - 2 units (paper 3.1.2). */
TEST_F(aapc, one_fault_every_position)
{
	struct hcube_aapc_info info;
	u8 state[256];
	u32 dim, v;

	for (dim = 3; dim <= 8; dim++) {
		for (v = 0; v < (1U << dim); v += dim >= 7 ? 37 : 1) {
			faults_random(dim, state, 0);
			state[v] = HCUBE_V_FAULTY;
			EXPECT_EQ(5 * (1U << (dim - 1)) - 2,
				  check_schedule(_metadata, &self->r, dim, state,
						 0, &info))
				TH_LOG("n %u fault %u", dim, v);
			EXPECT_EQ(HCUBE_AAPC_A1, info.alg);
			EXPECT_EQ(0, info.special_data);
		}
	}
}

/*
 * n = 2, one fault: A_1's Step 5 would carry the data of F's healthy node
 * for F, but F's other node is the faulty one, so the schedule ends after
 * Step 4, at unit 6 (M = 2: Steps 1-4 take 2 + 1 + 1 + 2), two units
 * below the paper's 5 * 2^(n-1) - 2 = 8, which counts Step 5 regardless.
 */
TEST_F(aapc, one_fault_two_cube)
{
	struct hcube_aapc_info info;
	u8 state[4];
	u32 v;

	for (v = 0; v < 4; v++) {
		faults_random(2, state, 0);
		state[v] = HCUBE_V_FAULTY;
		EXPECT_EQ(6U, check_schedule(_metadata, &self->r, 2, state, 0, &info));
		EXPECT_EQ(8U, info.paper_units);
		EXPECT_EQ(8U, info.main_units);
	}
}

/*
 * The paper's 3-cube example of A_1 (Section 3.1.1): split along dimension
 * 2, "data which move along link between nodes 0 and 4 are 0_4, 1_4, 2_4
 * and 3_4 in Step 1, 4_0, 4_1, 4_2 and 4_3 in Step 4, 5_4 and 7_4 in Step
 * 4, 4_5 and 4_7 in Step 5", i_j the datum from j to i. The missing 6_4
 * and 4_6 place the fault at 6 (F = {4..7}, H = {0..3}). With M = 4 the
 * steps take units 1-4, 5-7, 8-10, 11-14 and 15-18 (3.1.2).
 */
struct link_datum {
	u32 from, to, src, dst, umin, umax;
};

TEST_F(aapc, a1_three_cube_example)
{
	static const struct link_datum want[] = {
		/* Step 1: 0_4 .. 3_4, from 4 across to 0 */
		{ 4, 0, 4, 0, 1, 4 }, { 4, 0, 4, 1, 1, 4 },
		{ 4, 0, 4, 2, 1, 4 }, { 4, 0, 4, 3, 1, 4 },
		/* Step 4: 4_0 .. 4_3 into 4; 5_4 and 7_4 out of 4 */
		{ 0, 4, 0, 4, 11, 14 }, { 0, 4, 1, 4, 11, 14 },
		{ 0, 4, 2, 4, 11, 14 }, { 0, 4, 3, 4, 11, 14 },
		{ 4, 0, 4, 5, 11, 14 }, { 4, 0, 4, 7, 11, 14 },
		/* Step 5: 4_5 and 4_7, back into 4 */
		{ 0, 4, 5, 4, 15, 18 }, { 0, 4, 7, 4, 15, 18 },
	};
	const u32 nwant = ARRAY_SIZE(want);
	struct hcube_aapc_info info;
	u32 seen[ARRAY_SIZE(want)] = { 0 }, i, other = 0;
	u8 state[8];
	u64 h;

	faults_random(3, state, 0);
	state[6] = HCUBE_V_FAULTY;
	ASSERT_EQ(18U, check_schedule(_metadata, &self->r, 3, state, 0, &info));
	for (h = 0; h < info.hops; h++) {
		const struct hcube_aapc_hop *x = &self->r.hops[h];
		bool found = false;

		if (!((x->from == 0 && x->to == 4) || (x->from == 4 && x->to == 0)))
			continue;
		for (i = 0; i < nwant; i++) {
			if (x->from == want[i].from && x->src == want[i].src &&
			    x->dst == want[i].dst) {
				found = true;
				seen[i]++;
				EXPECT_GE(x->unit, want[i].umin);
				EXPECT_LE(x->unit, want[i].umax);
			}
		}
		if (!found) {
			TH_LOG("unexpected datum %u->%u on %u->%u at unit %u",
			       x->src, x->dst, x->from, x->to, x->unit);
			other++;
		}
	}
	for (i = 0; i < nwant; i++)
		EXPECT_EQ(1U, seen[i]) TH_LOG("datum %u->%u", want[i].src, want[i].dst);
	EXPECT_EQ(0U, other);
}

static void report(const char *what, u32 dim, u32 f, u32 units, u32 paper,
		   const struct hcube_aapc_info *info)
{
	printf("# %-8s n %u f %u: units %u paper %u (main %u = %u x %u, special data %u)\n",
	       what, dim, f, units, paper, info->main_units, info->windows,
	       info->window_units, info->special_data);
	fflush(stdout);
}

/*
 * Two faults: A_2. The paper states 5 * 2^(n-1) + n - 1 units (3.2.2)
 * without a derivation: Phase 1 (A_1 on each half, 5 * 2^(n-2) - 2), Phase
 * 2 Step 1 (n units, 3.3.2 says) and Step 2 (the exchange across d, then
 * A_1 again "in the order of when the data arrived": the remaining 5 *
 * 2^(n-2) + 1). The schedule here does the exchange across d during Phase
 * 1, on the d-links A_1 inside the halves leaves idle, and Step 1 on free
 * circuits, so it takes two A_1 windows, 5 * 2^(n-1) - 4: n + 3 units
 * below the paper's count (the paper's footnote allows such savings). The
 * test asserts that exactly, and that it never exceeds the paper.
 */
TEST_F(aapc, two_faults)
{
	void (*place[3])(u32, u8 *, u32) = {
		faults_chain, faults_spread, faults_random
	};
	struct hcube_aapc_info info;
	u8 state[256];
	u32 dim, k, rep;

	for (dim = 4; dim <= 8; dim++) {
		for (k = 0; k < 3; k++) {
			for (rep = 0; rep < (k == 2 ? 6 : 1); rep++) {
				u32 units, paper = paper_units(dim, 2, false);

				place[k](dim, state, 2);
				units = check_schedule(_metadata, &self->r, dim,
						       state, 0, &info);
				EXPECT_EQ(HCUBE_AAPC_A2, info.alg);
				EXPECT_NE(0U, units);
				EXPECT_LE(units, paper);
				/* n + 3 below the paper: see the comment above */
				EXPECT_EQ(paper - (dim + 3), units);
				EXPECT_EQ(2U, info.windows);
				EXPECT_EQ(5 * (1U << (dim - 2)) - 2, info.window_units);
				if (!rep)
					report("A_2", dim, 2, units, paper, &info);
			}
		}
	}
}

/*
 * f = 2 .. floor(n/2) faults with A_f (f >= 3, or forced for f = 2):
 * subcubes Q_{f+1} with one fault at most, 2^(n-(f+1)) windows of A_1's
 * 5 * 2^f - 2 units: the paper's (5 * 2^f - 2) * 2^(n-(f+1)) exactly,
 * plus units for Phase 2 Step 1 only where no free circuit exists.
 */
TEST_F(aapc, f_faults)
{
	void (*place[3])(u32, u8 *, u32) = {
		faults_chain, faults_spread, faults_random
	};
	struct hcube_aapc_info info;
	u8 state[256];
	u32 dim, f, k, rep;

	for (dim = 4; dim <= 8; dim++) {
		for (f = 2; f <= dim / 2; f++) {
			for (k = 0; k < 3; k++) {
				for (rep = 0; rep < (k == 2 ? 6 : 1); rep++) {
					u32 units, paper = paper_units(dim, f, true);
					u32 flags = f == 2 ? HCUBE_AAPC_FORCE_AF : 0;

					place[k](dim, state, f);
					units = check_schedule(_metadata, &self->r,
							       dim, state, flags,
							       &info);
					EXPECT_NE(0U, units);
					EXPECT_EQ(HCUBE_AAPC_AF, info.alg);
					EXPECT_EQ(1U << (dim - (f + 1)), info.windows);
					EXPECT_EQ(5 * (1U << f) - 2, info.window_units);
					EXPECT_EQ(paper, info.main_units);
					/* Step 1 fits in free links: exactly the paper */
					EXPECT_EQ(paper, units);
					if (!rep)
						report("A_f", dim, f, units, paper,
						       &info);
				}
			}
		}
	}
}

/*
 * Without a hop array only the counts are computed, the same ones; with
 * too little room the schedule is refused, not cut short.
 */
TEST_F(aapc, counts_only_and_room)
{
	struct hcube_aapc_info a, b;
	u8 state[64];

	memset(&a, 0, sizeof(a));	/* padding compared below */
	memset(&b, 0, sizeof(b));
	faults_random(6, state, 3);
	ASSERT_EQ(HCUBE_OK, hcube_aapc(6, state, 0, NULL, 0, &a, self->r.work));
	ASSERT_EQ(HCUBE_OK, hcube_aapc(6, state, 0, self->r.hops, self->r.cap,
				       &b, self->r.work));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
	EXPECT_EQ(HCUBE_E_PLAN_SIZE,
		  hcube_aapc(6, state, 0, self->r.hops, b.hops - 1, &a,
			     self->r.work));
	EXPECT_EQ(HCUBE_E_DIM, hcube_aapc(HCUBE_MAX_DIM + 1, state, 0, NULL, 0,
					  &a, self->r.work));
	state[5] = HCUBE_V_NSTATES;
	EXPECT_EQ(HCUBE_E_STATE, hcube_aapc(6, state, 0, NULL, 0, &a,
					    self->r.work));
}

/* More than floor(n/2) faults: refused. */
TEST_F(aapc, too_many_faults)
{
	struct hcube_aapc_info info;
	u8 state[256];
	u32 dim;

	for (dim = 3; dim <= 8; dim++) {
		faults_random(dim, state, dim / 2 + 1);
		EXPECT_EQ(HCUBE_E_AAPC_FAULTS,
			  hcube_aapc(dim, state, 0, NULL, 0, &info, self->r.work));
	}
}

TEST_HARNESS_MAIN
