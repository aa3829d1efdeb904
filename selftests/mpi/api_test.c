// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_test's API checks: bad input is refused on every rank with the same
 * code and text and changes nothing, and the handle works afterwards;
 * every error value has its own text; the tolerance; a rank outside the
 * communicator (MPI_COMM_NULL); intercommunicators refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi_test.h"

static u64 str_hash(const char *c)
{
	u64 x = 0xcbf29ce484222325ULL;

	while (*c)
		x = (x ^ (unsigned char)*c++) * 0x100000001b3ULL;
	return x;
}

/*
 * @err on every rank, the same text on every rank, containing @text;
 * no rank changed state or units, nothing was sent.
 */
static int faulty_now = -1;	/* the one faulty rank during bad_input() */

static void expect_refused(struct hcube_mpi *h, const char *what, int err,
			   int want, const char *text, u32 units_before,
			   const struct hcube_mpi_report *r)
{
	u64 hs = str_hash(hcube_mpi_errmsg(h)), hmax, hmin;
	bool same, states = true, mine;
	int i;

	MPI_Allreduce(&hs, &hmax, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&hs, &hmin, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	same = hmax == hmin;
	for (i = 0; i < size; i++)
		states &= hcube_mpi_is_faulty(h, i) == (i == faulty_now);
	mine = err == want && strstr(hcube_mpi_errmsg(h), text) && states &&
	       Q.n == units_before && (!r || (!r->nxfers && !r->nevacs && !r->msgs_sent));
	if (!rank)
		printf("# %s: %s\n", what, hcube_mpi_errmsg(h));
	result(all(mine) && same,
	       "bad input: %s: %s on every rank, the same text (\"%s\"), nothing changed",
	       what, hcube_mpi_strerror(want), text);
}

static void bad_input(struct hcube_mpi *h)
{
	struct hcube_mpi_report r;
	int list[MAXV], i, err, n;
	char text[64];
	u32 units;

	/* every rank healthy, a few units each */
	weight_kind = 0;
	restart(h, ((u64)rank << 32) | 0x40000000U, (u32)rank % 5 + 3);
	units = Q.n;

	/* a rank id out of range, on the last rank only */
	list[0] = rank == size - 1 ? size : 0;
	err = hcube_mpi_mark(h, list, 1, HCUBE_MPI_FAULTY, &r);
	snprintf(text, sizeof(text), "rank %d is out of range (0..%d)", size, size - 1);
	expect_refused(h, "mark a rank out of range on one rank", err,
		       HCUBE_MPI_E_RANK, text, units, &r);

	list[0] = -1;
	err = hcube_mpi_mark(h, list, 1, HCUBE_MPI_FAULTY, &r);
	expect_refused(h, "mark rank -1", err, HCUBE_MPI_E_RANK,
		       "rank -1 is out of range", units, &r);

	list[0] = 0;
	list[1] = 0;
	err = hcube_mpi_mark(h, list, 2, HCUBE_MPI_FAULTY, &r);
	expect_refused(h, "mark a rank twice", err, HCUBE_MPI_E_RANK,
		       "rank 0 is listed twice", units, &r);

	for (i = 0; i < size; i++)
		list[i] = i;
	err = hcube_mpi_mark(h, list, size, HCUBE_MPI_FAULTY, &r);
	expect_refused(h, "mark every rank faulty", err, HCUBE_MPI_E_ALL_FAULTY,
		       "would leave none", units, &r);

	err = hcube_mpi_mark(h, list, 1, 7, &r);
	expect_refused(h, "mark with a state that is neither", err, HCUBE_MPI_E_ARG,
		       "HCUBE_MPI_FAULTY or HCUBE_MPI_HEALTHY", units, &r);

	err = hcube_mpi_balance(h, "nosuch", &r);
	expect_refused(h, "an unknown policy", err, HCUBE_MPI_E_POLICY,
		       "unknown policy 'nosuch' (mcwa, dem, cwa, optimal", units, &r);

	err = hcube_mpi_balance(h, NULL, &r);
	expect_refused(h, "no policy", err, HCUBE_MPI_E_POLICY,
		       "unknown policy '(null)'", units, &r);

	if (size > 1) {
		err = hcube_mpi_balance(h, rank ? "mcwa" : "dem", &r);
		expect_refused(h, "ranks asking for different policies", err,
			       HCUBE_MPI_E_DISAGREE, "different arguments", units, &r);

		list[0] = rank ? 0 : 1;
		err = hcube_mpi_mark(h, list, 1, HCUBE_MPI_FAULTY, &r);
		expect_refused(h, "ranks marking different ranks", err,
			       HCUBE_MPI_E_DISAGREE, "different arguments", units, &r);
	}
	if ((u32)size != nv) {
		err = hcube_mpi_balance(h, "cwa", &r);
		snprintf(text, sizeof(text), "cwa needs every vertex healthy (%d ranks", size);
		expect_refused(h, "cwa with absent labels", err, HCUBE_MPI_E_NEED_MCWA,
			       text, units, &r);
	}

	/* the handle still works: a faulty rank, then a balance */
	list[0] = size - 1;
	n = size > 1;
	err = hcube_mpi_mark(h, list, n, HCUBE_MPI_FAULTY, NULL);
	faulty_now = n ? size - 1 : -1;
	if (!err && size > 1 && size == (int)nv) {
		int e2 = hcube_mpi_balance(h, "cwa", &r);

		expect_refused(h, "cwa with a faulty rank", e2, HCUBE_MPI_E_NEED_MCWA,
			       "use mcwa", rank == size - 1 ? 0 : Q.n, &r);
	}
	if (!err)
		err = hcube_mpi_balance(h, "mcwa", &r);
	result(all(!err && q_intact(&Q) && (size == 1 || rank != size - 1 || !Q.n)),
	       "bad input: afterwards the handle still marks and balances (%s)",
	       hcube_mpi_strerror(err));

	/* open refuses missing callbacks on every rank */
	{
		struct hcube_mpi_ops none = { 0 };
		struct hcube_mpi *h2 = (void *)1;

		err = hcube_mpi_open(MPI_COMM_WORLD, &none, &Q, &h2);
		result(all(err == HCUBE_MPI_E_ARG && !h2),
		       "bad input: open without callbacks: %s on every rank, no handle",
		       hcube_mpi_strerror(err));
	}
}


/* Every value of enum hcube_mpi_err has its own text; others say so. */
static void error_texts(void)
{
	const char *t[HCUBE_MPI_E_NERRORS];
	bool pass = true;
	int e, f;

	for (e = 0; e < HCUBE_MPI_E_NERRORS; e++) {
		t[e] = hcube_mpi_strerror(e);
		pass &= t[e] && *t[e] && strcmp(t[e], "unknown error");
		for (f = 0; f < e; f++)
			pass &= strcmp(t[e], t[f]) != 0;
		if (!rank)
			printf("# error %d: %s\n", e, t[e] ? t[e] : "(null)");
	}
	pass &= !strcmp(hcube_mpi_strerror(HCUBE_MPI_E_NERRORS), "unknown error") &&
		!strcmp(hcube_mpi_strerror(-1), "unknown error");
	result(all(pass), "errors: each of the %d values has its own text, others \"unknown error\"",
	       HCUBE_MPI_E_NERRORS);
}

/* A queue that only counts: totals too large for the library. */
static u32 fake_units;
static u64 fake_weight, fake_heaviest;

static u32 fake_count(void *q)
{
	(void)q;
	return fake_units;
}

static ssize_t fake_pack(void *q, u32 n, void *buf, size_t cap)
{
	(void)q, (void)n, (void)buf, (void)cap;
	abort();
}

static int fake_unpack(void *q, u32 n, const void *buf, size_t len)
{
	(void)q, (void)n, (void)buf, (void)len;
	abort();
}

static uint64_t fake_weigh(void *q, uint64_t *heaviest)
{
	(void)q;
	*heaviest = fake_heaviest;
	return fake_weight;
}

static ssize_t fake_pack_weight(void *q, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	(void)q, (void)t, (void)buf, (void)cap;
	abort();
}

static void too_much(void)
{
	static const struct hcube_mpi_ops fo = {
		.count = fake_count, .pack = fake_pack, .unpack = fake_unpack,
	}, fw = {
		.count = fake_count, .pack = fake_pack, .unpack = fake_unpack,
		.weight = fake_weigh, .pack_weight = fake_pack_weight,
	};
	struct hcube_mpi *f, *g;
	int e1, e2, e3;

	if (hcube_mpi_open(MPI_COMM_WORLD, &fo, NULL, &f) ||
	    hcube_mpi_open(MPI_COMM_WORLD, &fw, NULL, &g))
		abort();
	fake_units = rank ? 0 : 0x80000000U;
	e1 = hcube_mpi_balance(f, "dem", NULL);
	result(all(e1 == HCUBE_MPI_E_UNITS && strstr(hcube_mpi_errmsg(f), "2147483648 units in all")),
	       "bad input: 2^31 units in all: %s (\"%s\")", hcube_mpi_strerror(e1),
	       hcube_mpi_errmsg(f));
	fake_units = 1;
	fake_weight = rank ? 1 : (1ULL << 62) + 1;
	fake_heaviest = 1;
	e2 = hcube_mpi_plan(g, "mcwa", NULL);
	result(all(e2 == HCUBE_MPI_E_UNITS && strstr(hcube_mpi_errmsg(g), "more than 2^62")),
	       "bad input: a weight above 2^62: %s (\"%s\")", hcube_mpi_strerror(e2),
	       hcube_mpi_errmsg(g));
	fake_weight = 5;
	fake_heaviest = rank == size - 1 ? 6 : 5;
	e3 = hcube_mpi_balance(g, "mcwa", NULL);
	result(all(e3 == HCUBE_MPI_E_ARG && strstr(hcube_mpi_errmsg(g), "5 in all and 6 for the heaviest")),
	       "bad input: weight() with a unit heavier than the queue: %s (\"%s\")",
	       hcube_mpi_strerror(e3), hcube_mpi_errmsg(g));
	hcube_mpi_close(f);
	hcube_mpi_close(g);
}

/* hcube_mpi_is_faulty() outside 0 .. P - 1, and without a handle. */
static void is_faulty_range(struct hcube_mpi *h)
{
	result(all(hcube_mpi_is_faulty(h, -1) == -HCUBE_MPI_E_RANK &&
		   hcube_mpi_is_faulty(h, size) == -HCUBE_MPI_E_RANK &&
		   hcube_mpi_is_faulty(NULL, 0) == -HCUBE_MPI_E_ARG &&
		   hcube_mpi_is_faulty(h, 0) >= 0),
	       "bad input: is_faulty(-1) and is_faulty(P) are -HCUBE_MPI_E_RANK, without a handle -HCUBE_MPI_E_ARG");
}

/*
 * The tolerance: within it nothing moves, above it the balance runs, and
 * a faulty rank holding units is drained whatever it says.
 */
static void tolerance(struct hcube_mpi *h)
{
	struct hcube_mpi_report r;
	int list[MAXV], err, e[4];
	double imb;
	u32 before;

	weight_kind = 0;
	restart(h, (u64)rank << 32 | 0x10000000U, 10 + (u32)rank % 3);
	before = Q.n;
	/* the imbalance the report gives; 1 <= imb */
	if (hcube_mpi_plan(h, "mcwa", &r))
		abort();
	imb = r.imbalance_before;
	e[0] = hcube_mpi_set_tolerance(h, -1);
	e[1] = hcube_mpi_set_tolerance(h, 0.5);
	e[2] = hcube_mpi_set_tolerance(h, NAN);
	e[3] = hcube_mpi_set_tolerance(h, INFINITY);
	result(all(e[0] == HCUBE_MPI_E_ARG && e[1] == HCUBE_MPI_E_ARG && e[2] == HCUBE_MPI_E_ARG &&
		   e[3] == HCUBE_MPI_E_ARG && strstr(hcube_mpi_errmsg(h), "a max/avg of at least 1") &&
		   hcube_mpi_set_tolerance(NULL, 1.5) == HCUBE_MPI_E_ARG),
	       "bad input: tolerance -1, 0.5, NaN, infinity: %s (\"%s\")",
	       hcube_mpi_strerror(e[0]), hcube_mpi_errmsg(h));

	if (hcube_mpi_set_tolerance(h, imb))
		abort();
	err = hcube_mpi_balance(h, "mcwa", &r);
	result(all(!err && r.skipped && !r.msgs_sent && Q.n == before && r.imbalance_after == imb),
	       "tolerance %.4f = the imbalance: the balance moves nothing (skipped)", imb);
	err = hcube_mpi_plan(h, "dem", &r);
	result(all(!err && r.skipped && !r.nxfers), "tolerance: the plan within it is empty");
	if (size > 1) {
		err = hcube_mpi_set_tolerance(h, rank ? 2 : 3);
		err = err ? err : hcube_mpi_balance(h, "mcwa", &r);
		result(all(err == HCUBE_MPI_E_DISAGREE && Q.n == before),
		       "bad input: ranks with different tolerances: %s", hcube_mpi_strerror(err));
	}
	if (size > 1 && imb > 1) {
		/* just below: the balance runs */
		if (hcube_mpi_set_tolerance(h, imb - 1e-9 > 1 ? imb - 1e-9 : 1))
			abort();
		err = hcube_mpi_balance(h, "mcwa", &r);
		result(all(!err && !r.skipped && r.msgs_sent && r.imbalance_after <= imb),
		       "tolerance just below the imbalance: the balance runs (%.4f after)",
		       r.imbalance_after);
	}
	if (size > 1) {
		/* a faulty rank with units is drained whatever the tolerance */
		if (hcube_mpi_set_tolerance(h, 1e9))
			abort();
		list[0] = 0;
		if (hcube_mpi_mark(h, list, 1, HCUBE_MPI_FAULTY, NULL))
			abort();
		fill(&Q, (u64)rank << 32 | 0x18000000U, rank ? 0 : 5);
		err = hcube_mpi_balance(h, "mcwa", &r);
		result(all(!err && !r.skipped && (rank || !Q.n)),
		       "tolerance 1e9 and a faulty rank holding units: they are evacuated");
	}
	hcube_mpi_set_tolerance(h, 0);
}

/* Open: weight callbacks both or neither, the same on every rank. */
static void open_checks(void)
{
	struct hcube_mpi_ops half = ops_w;
	struct hcube_mpi *x = (void *)1;
	int err;

	half.pack_weight = NULL;
	err = hcube_mpi_open(MPI_COMM_WORLD, &half, &Q, &x);
	result(all(err == HCUBE_MPI_E_ARG && !x),
	       "bad input: open with weight() but no pack_weight(): %s, no handle",
	       hcube_mpi_strerror(err));
	if (size > 1) {
		err = hcube_mpi_open(MPI_COMM_WORLD, rank ? &ops : &ops_w, &Q, &x);
		result(all(err == HCUBE_MPI_E_DISAGREE && !x),
		       "bad input: rank 0 by weight, the others by count: %s on every rank",
		       hcube_mpi_strerror(err));
	}
}

/*
 * The odd ranks get MPI_COMM_NULL (MPI_Comm_split with MPI_UNDEFINED):
 * their calls do nothing and succeed; the even ranks balance among
 * themselves.
 */
static void comm_null(void)
{
	struct hcube_mpi_report r;
	struct hcube_mpi *x = NULL;
	MPI_Comm sub;
	int in = !(rank % 2), err, list[1] = { 0 }, members = (size + 1) / 2;
	u32 before, lo, hi, total, mine;

	MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank, &sub);
	Q.n = 0;
	weight_kind = 0;
	fill(&Q, (u64)rank << 32 | 0x30000000U, (u32)rank * 3 % 7);
	before = Q.n;
	err = hcube_mpi_open(sub, &ops, &Q, &x);
	if (!err)
		err = hcube_mpi_balance(x, "mcwa", &r);
	if (!err && !in)
		err = hcube_mpi_mark(x, list, 1, HCUBE_MPI_FAULTY, NULL) ||
		      hcube_mpi_plan(x, "dem", NULL);
	mine = in ? Q.n : 0;
	MPI_Allreduce(&mine, &total, 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
	mine = in ? Q.n : ~0U;
	MPI_Allreduce(&mine, &lo, 1, MPI_UINT32_T, MPI_MIN, MPI_COMM_WORLD);
	mine = in ? Q.n : 0;
	MPI_Allreduce(&mine, &hi, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
	result(all(!err && x && r.member == in && (in || (Q.n == before && !r.msgs_sent &&
		   hcube_mpi_is_faulty(x, 0) == -HCUBE_MPI_E_RANK))) && hi - lo <= 1,
	       "MPI_COMM_NULL: the %d odd ranks take no part (calls succeed, nothing moves), the %d even ones balance to %u..%u",
	       size / 2, members, lo, hi);
	(void)total;
	hcube_mpi_close(x);
	if (sub != MPI_COMM_NULL)
		MPI_Comm_free(&sub);
}

/* An intercommunicator between the two halves is refused on every rank. */
static void intercomm(void)
{
	struct hcube_mpi *x = (void *)1;
	MPI_Comm half, inter;
	int low = rank < size / 2, err;

	if (size < 2)
		return;
	MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 77, &inter);
	err = hcube_mpi_open(inter, &ops, &Q, &x);
	result(all(err == HCUBE_MPI_E_COMM && !x),
	       "bad input: an intercommunicator: \"%s\" on every rank, no handle",
	       hcube_mpi_strerror(err));
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
}

void api_tests(struct hcube_mpi *h, struct hcube_mpi *hw)
{
	(void)hw;
	bad_input(h);
	is_faulty_range(h);
	error_texts();
	too_much();
	tolerance(h);
	open_checks();
	comm_null();
	intercomm();
}
