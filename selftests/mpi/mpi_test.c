// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi against its oracle, the hcube core, on the ranks of
 * MPI_COMM_WORLD (any size 1..1024; run.sh runs 1..16).
 *
 * For random fault sets and loads (fixed seeds) and every policy, rank 0
 * computes what must happen with the core alone: the evacuation of the
 * faulty ranks' units (hcube_evacuate(), faulty ranks in label order, as
 * the module does), then hcube_topo_build() and hcube_plan_build() on the
 * loads left. It gathers what the ranks actually did and checks:
 *   - the transfers carried out equal the plan's, (step, from, to, count)
 *     for each, and the evacuation's;
 *   - every unit arrives exactly once with its payload intact (each unit
 *     carries a hash of its id and a pattern of variable length), none on
 *     a faulty rank, every rank ends with the plan's final load;
 *   - the messages every rank sent and received: for DEM, CWA and MCWA the
 *     counts their protocols imply on the core's topology and plan (the
 *     theta messages from the core's own delta vectors, through its CWA
 *     observer); for SBN the core's 3(P - 1) + J logical messages; every
 *     unit message is one transfer of the plan;
 *   - the steps: 3 log N for CWA and DEM, 4T + 3k for MCWA (3 log N + T
 *     where k = n - T), the core's count for SBN.
 * Then bad input: a rank id out of range (on one rank only), listed twice,
 * every rank faulty, an unknown policy, ranks disagreeing, cwa on a cube
 * with faults: every rank returns the same error and the same text, and
 * nothing has changed; the handle still works afterwards.
 *
 * Output: TAP from rank 0. Exit status 1 if any check failed.
 * usage: mpi_test [--seed S] [--scenarios N]
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <linux/hcube.h>
#include "hcube_core_ext.h"
#include "hcube_mpi.h"

#define MAXV	HCUBE_MAX_VERTICES

static int rank, size;
static u32 dim, nv;
static int ntest, nfail;

/* ---- TAP from rank 0 ---- */

static void result(bool pass, const char *fmt, ...)
{
	va_list ap;

	ntest++;
	if (!pass)
		nfail++;
	if (rank)
		return;
	printf("%s %d - ", pass ? "ok" : "not ok", ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Rank 0's verdict, shared so that every rank counts the same tests. */
static bool shared(bool pass)
{
	int v = pass;

	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return v;
}

/* Every rank's verdict: true only if all are. */
static bool all(bool pass)
{
	int v = pass, r;

	MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return r;
}

/* ---- random numbers ---- */

static u64 sm64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 below(u64 *x, u32 n)
{
	return n ? (u32)(sm64(x) % n) : 0;
}

/* ---- the application's queue: units of variable size ---- */

#define MAX_EXTRA	24

struct unit {
	u64 id;
	u64 check;		/* sm64 of the id */
	u8 nextra;		/* pattern bytes: id % 4 * 8 */
	u8 extra[MAX_EXTRA];
};

struct queue {
	struct unit *u;
	u32 n, cap;
};

static u64 unit_hash(u64 id)
{
	u64 x = id;

	return sm64(&x);
}

static void q_add(struct queue *q, u64 id)
{
	struct unit *u;
	u32 i;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->u = realloc(q->u, q->cap * sizeof(*q->u));
		if (!q->u)
			abort();
	}
	u = &q->u[q->n++];
	u->id = id;
	u->check = unit_hash(id);
	u->nextra = (u8)(id % 4 * 8);
	for (i = 0; i < u->nextra; i++)
		u->extra[i] = (u8)(id * 31 + i);
}

static size_t wire_size(const struct unit *u)
{
	return 17 + u->nextra;
}

static u32 q_count(void *p)
{
	return ((struct queue *)p)->n;
}

/* The last n units, each as id, check, nextra, pattern. */
static ssize_t q_pack(void *p, u32 n, void *buf, size_t cap)
{
	struct queue *q = p;
	size_t need = 0;
	u32 i;
	char *c = buf;

	if (n > q->n)
		return -1;
	for (i = q->n - n; i < q->n; i++)
		need += wire_size(&q->u[i]);
	if (need > cap)
		return (ssize_t)need;
	for (i = q->n - n; i < q->n; i++) {
		const struct unit *u = &q->u[i];

		memcpy(c, &u->id, 8);
		memcpy(c + 8, &u->check, 8);
		c[16] = (char)u->nextra;
		memcpy(c + 17, u->extra, u->nextra);
		c += wire_size(u);
	}
	q->n -= n;
	return (ssize_t)need;
}

static int q_unpack(void *p, u32 n, const void *buf, size_t len)
{
	struct queue *q = p;
	const char *c = buf, *end = c + len;
	u32 i;

	for (i = 0; i < n; i++) {
		struct unit *u;

		if (end - c < 17 || (u8)c[16] > MAX_EXTRA || end - c < 17 + (u8)c[16])
			return -1;
		q_add(q, 0);
		u = &q->u[q->n - 1];
		memcpy(&u->id, c, 8);
		memcpy(&u->check, c + 8, 8);
		u->nextra = (u8)c[16];
		memcpy(u->extra, c + 17, u->nextra);
		c += wire_size(u);
	}
	return c == end ? 0 : -1;
}

static const struct hcube_mpi_ops ops = {
	.count = q_count,
	.pack = q_pack,
	.unpack = q_unpack,
};

/* Every unit here has the payload it was created with. */
static bool q_intact(const struct queue *q)
{
	u32 i, j;

	for (i = 0; i < q->n; i++) {
		const struct unit *u = &q->u[i];

		if (u->check != unit_hash(u->id) || u->nextra != u->id % 4 * 8)
			return false;
		for (j = 0; j < u->nextra; j++)
			if (u->extra[j] != (u8)(u->id * 31 + j))
				return false;
	}
	return true;
}

/* ---- gathering at rank 0 ---- */

static u32 *gather_u32(u32 v)
{
	static u32 buf[MAXV];

	MPI_Gather(&v, 1, MPI_UINT32_T, buf, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
	return buf;
}

/* Concatenate every rank's array at rank 0; *n gets the total. */
static void *gatherv(const void *mine, u32 count, size_t elem, u32 *n)
{
	int cnt[MAXV], off[MAXV], bytes = (int)(count * elem), i, tot = 0;
	void *out = NULL;

	MPI_Gather(&bytes, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!rank) {
		for (i = 0; i < size; i++) {
			off[i] = tot;
			tot += cnt[i];
		}
		out = malloc(tot ? (size_t)tot : 1);
		*n = (u32)(tot / (int)elem);
	}
	MPI_Gatherv(mine, bytes, MPI_BYTE, out, cnt, off, MPI_BYTE, 0, MPI_COMM_WORLD);
	return out;
}

static int cmp_xfer(const void *a, const void *b)
{
	const struct hcube_mpi_xfer *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->count < y->count ? -1 : x->count > y->count;
}

static bool same_xfers(struct hcube_mpi_xfer *a, u32 na,
		       struct hcube_mpi_xfer *b, u32 nb, char *why, size_t len)
{
	u32 i;

	qsort(a, na, sizeof(*a), cmp_xfer);
	qsort(b, nb, sizeof(*b), cmp_xfer);
	for (i = 0; i < na && i < nb; i++) {
		if (cmp_xfer(&a[i], &b[i])) {
			snprintf(why, len, "transfer %u: ranks %u:%u->%u x%u, core %u:%u->%u x%u",
				 i, a[i].step, a[i].from, a[i].to, a[i].count,
				 b[i].step, b[i].from, b[i].to, b[i].count);
			return false;
		}
	}
	if (na != nb) {
		snprintf(why, len, "%u transfers carried out, %u in the core's plan", na, nb);
		return false;
	}
	return true;
}

/* ---- the core's side (rank 0) ---- */

struct oracle {
	u8 state[MAXV];
	u32 load[MAXV];			/* after the evacuation */
	struct hcube_mpi_xfer evac[MAXV * 4];
	u32 nevac;
	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;
	/* CWA observer: theta messages per label */
	struct hcube_cwa_observer obs;
	u32 th_sent[MAXV], th_recv[MAXV];
};

static struct oracle O;

/* What the scenarios exercised (rank 0), printed for run.sh to check. */
static struct {
	u64 transfers, relayed, evac_mark, evac_balance, theta, sbn_jobs;
	u32 trees, detached, components;
} cov;

static void observe(struct hcube_cwa_observer *obs, const struct hcube_cwa *c,
		    u32 kk)
{
	u32 v, k = hcube_cwa_dim(c);

	(void)obs;
	for (v = 0; v < (1U << k); v++) {
		if (hcube_cwa_value(c, HCUBE_CWA_DELTA, kk, v) <= 0)
			continue;
		/* v's half is the overloaded one: v sends its partner a theta vector */
		O.th_sent[hcube_cwa_vertex(c, v)]++;
		O.th_recv[hcube_cwa_vertex(c, v ^ (1U << kk))]++;
	}
}

/* The module's evacuation, faulty labels in order, on @before. */
static void oracle_evacuate(const u32 *before)
{
	u32 f, w, out[MAXV];

	O.nevac = 0;
	for (w = 0; w < nv; w++)
		O.load[w] = hcube_usable(O.state[w]) ? before[w] : 0;
	for (f = 0; f < (u32)size; f++) {
		if (hcube_usable(O.state[f]) || !before[f])
			continue;
		memset(out, 0, sizeof(out));
		if (hcube_evacuate(dim, O.state, O.load, f, before[f], out))
			abort();
		for (w = 0; w < nv; w++) {
			if (!out[w])
				continue;
			O.evac[O.nevac++] = (struct hcube_mpi_xfer){ 0, f, w, out[w] };
			O.load[w] += out[w];
		}
	}
}

static int oracle_plan(u32 policy)
{
	struct hcube_cube cube = { .dim = dim, .state = O.state, .load = O.load };
	int err = hcube_topo_build(&O.topo, dim, O.state, O.work);

	if (err)
		return err;
	memset(O.th_sent, 0, sizeof(O.th_sent));
	memset(O.th_recv, 0, sizeof(O.th_recv));
	O.plan.observer = &O.obs;
	return hcube_plan_build(&O.plan, policy, &cube, &O.topo, O.work);
}

/* Messages rank @r must send and receive, unit messages it must send. */
static void expected_msgs(u32 policy, u32 r, u32 *sent, u32 *recv, u32 *usent)
{
	const struct hcube_topo *t = &O.topo;
	const struct hcube_plan *p = &O.plan;
	u32 i, j, from = 0, to = 0, up_from = 0, up_to = 0, down_from = 0, down_to = 0;

	for (i = 0; i < p->ntransfers; i++) {
		const struct hcube_transfer *x = &p->transfers[i];
		bool up = x->to == (u32)t->parent[x->from] && t->dist[x->from] != 0;
		bool down = x->from == (u32)t->parent[x->to] && t->dist[x->to] != 0;

		from += x->from == r;
		to += x->to == r;
		up_from += up && x->from == r;
		up_to += up && x->to == r;
		down_from += down && x->from == r;
		down_to += down && x->to == r;
	}
	for (i = 0; i < O.nevac; i++) {
		*sent += O.evac[i].from == r;
		*usent += O.evac[i].from == r;
		*recv += O.evac[i].to == r;
	}
	*usent += from;
	switch (policy) {
	case HCUBE_POLICY_DEM:
		for (j = 0; j < dim; j++) {
			bool pair = hcube_usable(O.state[r]) &&
				    hcube_usable(O.state[r ^ (1U << j)]);

			*sent += pair;
			*recv += pair;
		}
		*sent += from;
		*recv += to;
		break;
	case HCUBE_POLICY_MCWA:
	case HCUBE_POLICY_CWA: {
		u32 nch = 0;

		if (t->dist[r] == HCUBE_DIST_NONE)
			break;
		for (j = 0; j < dim; j++)
			nch += t->parent[r ^ (1U << j)] == (s16)r;
		if (t->dist[r]) {
			*sent += 1 + nch + up_from + down_from;
			*recv += nch + 1 + up_to + down_to;
		} else {
			*sent += t->cb_dim + nch + O.th_sent[r] + down_from;
			*recv += nch + t->cb_dim + up_to + O.th_recv[r];
		}
		break;
	}
	case HCUBE_POLICY_SBN:
		break;		/* checked on the sums */
	default:
		*sent += from;
		*recv += to;
	}
}

/* ---- one scenario ---- */

struct scen {
	u32 load[MAXV];
	u8 faulty[MAXV];
	u32 late[MAXV];		/* units a faulty rank gets after marking */
	u64 next_id;
};

static const char *pname(u32 p)
{
	return hcube_policy_name(p);
}

/* Fill this rank's queue with @n fresh units. */
static void fill(struct queue *q, u64 base, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		q_add(q, base + i);
}

static void draw(struct scen *s, u64 seed, u32 idx)
{
	u64 x = seed ^ ((u64)size << 32) ^ idx;
	u32 v, nf = 0, maxload, cap;

	sm64(&x);
	memset(s, 0, sizeof(*s));
	cap = size > 1 ? (u32)size - 1 : 0;
	switch (idx % 4) {
	case 0:
		nf = 0;
		break;
	case 1:
		nf = cap ? 1 : 0;
		break;
	default:
		nf = below(&x, (cap < dim + 3 ? cap : dim + 3) + 1);
	}
	while (nf) {
		v = below(&x, (u32)size);
		if (!s->faulty[v]) {
			s->faulty[v] = 1;
			nf--;
		}
	}
	maxload = (u32[]){ 0, 3, 20, 60 }[below(&x, 4)];
	if (idx % 5 == 4)
		maxload = 1000;
	for (v = 0; v < (u32)size; v++) {
		s->load[v] = below(&x, maxload + 1);
		/*
		 * Nearly idle ranks beside loaded ones: SBN's early transfers,
		 * where siblings must see what the earlier ones gave.
		 */
		if (idx % 5 == 3)
			s->load[v] = below(&x, 2) ? below(&x, 4) : 8 + below(&x, 13);
		if (s->faulty[v] && below(&x, 3) == 0)
			s->late[v] = 1 + below(&x, 9);
	}
}

struct rsum {
	u32 sent, recv, usent, relayed, steps, count, nx, pad;
	u64 units_sent, units_recv;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Every rank checks its own units' payloads; rank 0 learns the verdict. */
static bool all_intact(bool mine)
{
	int v = mine, r = 0;

	MPI_Reduce(&v, &r, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
	return r;
}

static void check_units(const struct scen *s, const u32 *before, u64 *ids,
			u32 nid, const struct rsum *rs, char *why, size_t len,
			bool *pass)
{
	u64 expect = 0;
	u32 v, i;

	*pass = false;
	for (v = 0; v < (u32)size; v++)
		expect += before[v];
	qsort(ids, nid, sizeof(u64), cmp_u64);
	if (nid != expect) {
		snprintf(why, len, "%u units, %llu expected", nid,
			 (unsigned long long)expect);
		return;
	}
	for (i = 1; i < nid; i++) {
		if (ids[i] == ids[i - 1]) {
			snprintf(why, len, "unit %llx twice", (unsigned long long)ids[i]);
			return;
		}
	}
	for (v = 0; v < (u32)size; v++) {
		if (rs[v].count != O.plan.after[v] || (s->faulty[v] && rs[v].count)) {
			snprintf(why, len, "rank %u holds %u units, the core's plan %u%s",
				 v, rs[v].count, O.plan.after[v],
				 s->faulty[v] ? " (faulty)" : "");
			return;
		}
	}
	*pass = true;
}

static void check_msgs(u32 pol, const struct rsum *rs, char *why, size_t len,
		       bool *pass)
{
	u64 sent = 0, recv = 0, relayed = 0, usent = 0, us = 0, ur = 0, hops = 0;
	u32 v, i;

	*pass = false;
	for (i = 0; i < O.plan.ntransfers; i++)
		hops += O.plan.transfers[i].count;
	for (i = 0; i < O.nevac; i++)
		hops += O.evac[i].count;
	for (v = 0; v < (u32)size; v++) {
		u32 es = 0, er = 0, eu = 0;

		expected_msgs(pol, v, &es, &er, &eu);
		if (rs[v].usent != eu) {
			snprintf(why, len, "rank %u sent %u unit messages, %u transfers planned",
				 v, rs[v].usent, eu);
			return;
		}
		if (pol != HCUBE_POLICY_SBN && (rs[v].sent != es || rs[v].recv != er)) {
			snprintf(why, len, "rank %u sent %u and received %u messages, %u and %u expected",
				 v, rs[v].sent, rs[v].recv, es, er);
			return;
		}
		sent += rs[v].sent;
		recv += rs[v].recv;
		relayed += rs[v].relayed;
		usent += rs[v].usent;
		us += rs[v].units_sent;
		ur += rs[v].units_recv;
	}
	if (sent != recv || us != hops || ur != hops) {
		snprintf(why, len, "%llu messages sent, %llu received; units %llu sent, %llu received, %llu task-hops",
			 (unsigned long long)sent, (unsigned long long)recv,
			 (unsigned long long)us, (unsigned long long)ur,
			 (unsigned long long)hops);
		return;
	}
	if (pol == HCUBE_POLICY_SBN) {
		u64 logical = sent - relayed - O.nevac;

		if (logical != O.plan.stats.messages) {
			snprintf(why, len, "%llu logical messages (%llu sent, %llu relayed), the core counts %u = 3(P - 1) + J",
				 (unsigned long long)logical, (unsigned long long)sent,
				 (unsigned long long)relayed, O.plan.stats.messages);
			return;
		}
	} else if (relayed) {
		snprintf(why, len, "%llu relayed messages", (unsigned long long)relayed);
		return;
	}
	*pass = true;
}

static void check_steps(u32 pol, const struct rsum *rs, char *why, size_t len,
			bool *pass)
{
	const struct hcube_topo *t = &O.topo;
	u32 v, want;

	*pass = false;
	switch (pol) {
	case HCUBE_POLICY_CWA:
	case HCUBE_POLICY_DEM:
		want = 3 * dim;		/* the paper's 3 log N */
		break;
	case HCUBE_POLICY_MCWA:
		want = 4 * t->depth + 3 * t->cb_dim;
		/* the paper's 3 log N + T, which assumes k = n - T */
		if (t->cb_dim + t->depth == dim && want != 3 * dim + t->depth) {
			snprintf(why, len, "4T + 3k = %u is not 3 log N + T", want);
			return;
		}
		break;
	case HCUBE_POLICY_SBN:
		want = O.plan.stats.comm_steps;
		break;
	default:
		want = O.plan.nsteps;
	}
	for (v = 0; v < (u32)size; v++) {
		if (rs[v].steps != want) {
			snprintf(why, len, "rank %u counts %u steps, %u expected", v,
				 rs[v].steps, want);
			return;
		}
	}
	*pass = true;
}

static struct queue Q;

static void run_policy(struct hcube_mpi *h, const struct scen *s, u32 idx, u32 pol)
{
	struct hcube_mpi_report rep, mrep;
	int faulty[MAXV], nf = 0, all_ranks[MAXV], err, i;
	u32 before[MAXV], *g, v, nx = 0, nev = 0, nid = 0;
	struct hcube_mpi_xfer *xf, *ev;
	u64 *ids;
	char why[256] = "";
	bool pass;

	/* a fresh start: every rank healthy and its scenario load */
	for (i = 0; i < size; i++)
		all_ranks[i] = i;
	Q.n = 0;
	if (hcube_mpi_mark(h, all_ranks, size, HCUBE_MPI_HEALTHY, NULL))
		abort();
	fill(&Q, (u64)rank << 32, s->load[rank]);
	for (i = 0; i < size; i++)
		if (s->faulty[i])
			faulty[nf++] = i;

	/* marking evacuates the newly faulty ranks */
	g = gather_u32(Q.n);
	if (!rank) {
		memcpy(before, g, size * sizeof(u32));
		for (v = 0; v < nv; v++)
			O.state[v] = v >= (u32)size ? HCUBE_V_ABSENT :
				     s->faulty[v] ? HCUBE_V_FAULTY : HCUBE_V_HEALTHY;
		oracle_evacuate(before);
	}
	err = hcube_mpi_mark(h, faulty, nf, HCUBE_MPI_FAULTY, &mrep);
	ev = gatherv(mrep.evacs, mrep.nevacs, sizeof(*ev), &nev);
	pass = !rank && !err && same_xfers(ev, nev, O.evac, O.nevac, why, sizeof(why));
	cov.evac_mark += O.nevac;
	result(shared(pass), "P=%d scenario %u %s: marking %d faulty evacuates as the module does%s%s",
	       size, idx, pname(pol), nf, *why ? ": " : "", why);
	free(ev);

	/* units pushed onto faulty ranks afterwards go at the balance */
	fill(&Q, ((u64)rank << 32) | 0x80000000U, s->late[rank]);
	g = gather_u32(Q.n);
	if (!rank) {
		memcpy(before, g, size * sizeof(u32));
		oracle_evacuate(before);
		err = oracle_plan(pol);
	}
	MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (err) {
		/* the core refuses (cwa with faults): so must the library */
		int e = hcube_mpi_balance(h, pname(pol), &rep);

		result(all(e == HCUBE_MPI_E_NEED_MCWA && err == HCUBE_E_NEED_MCWA &&
			   rep.nxfers == 0 && Q.n == rep.before),
		       "P=%d scenario %u %s: refused like the core (%s), nothing moved",
		       size, idx, pname(pol), hcube_mpi_strerror(e));
		return;
	}
	err = hcube_mpi_balance(h, pname(pol), &rep);
	result(all(!err), "P=%d scenario %u %s: balance returns %s", size, idx,
	       pname(pol), hcube_mpi_strerror(err));

	/* the transfers: the evacuation's and the plan's */
	ev = gatherv(rep.evacs, rep.nevacs, sizeof(*ev), &nev);
	xf = gatherv(rep.xfers, rep.nxfers, sizeof(*xf), &nx);
	*why = '\0';
	pass = !rank && same_xfers(ev, nev, O.evac, O.nevac, why, sizeof(why));
	result(shared(pass), "P=%d scenario %u %s: the evacuation equals the module's%s%s",
	       size, idx, pname(pol), *why ? ": " : "", why);
	*why = '\0';
	if (!rank) {
		struct hcube_mpi_xfer *core = malloc((O.plan.ntransfers + 1) * sizeof(*core));

		for (v = 0; v < O.plan.ntransfers; v++) {
			const struct hcube_transfer *t = &O.plan.transfers[v];

			core[v] = (struct hcube_mpi_xfer){ t->step, t->from, t->to, t->count };
		}
		pass = same_xfers(xf, nx, core, O.plan.ntransfers, why, sizeof(why));
		free(core);
		cov.transfers += O.plan.ntransfers;
		cov.evac_balance += O.nevac;
		if (pol == HCUBE_POLICY_MCWA) {
			cov.trees += O.topo.depth > 0;
			cov.detached += O.topo.nattached < O.topo.nhealthy;
			for (v = 0; v < nv; v++)
				cov.theta += O.th_sent[v];
		}
		if (pol == HCUBE_POLICY_SBN)
			cov.sbn_jobs += O.plan.stats.job_messages;
	}
	result(shared(pass), "P=%d scenario %u %s: %u transfers, each the core's (step, from, to, count)%s%s",
	       size, idx, pname(pol), O.plan.ntransfers, *why ? ": " : "", why);
	free(ev);
	free(xf);

	/* the units: each once, intact, the plan's final loads, none faulty */
	{
		u64 *mine = malloc((Q.n + 1) * sizeof(u64));
		u32 k;

		for (k = 0; k < Q.n; k++)
			mine[k] = Q.u[k].id;
		ids = gatherv(mine, Q.n, sizeof(u64), &nid);
		free(mine);
	}
	*why = '\0';
	{
		struct rsum r = {
			.sent = rep.msgs_sent, .recv = rep.msgs_recv,
			.usent = rep.unit_msgs_sent, .relayed = rep.relayed,
			.steps = rep.steps, .count = Q.n, .units_sent = rep.units_sent,
			.units_recv = rep.units_recv, .nx = rep.nxfers,
		};
		struct rsum *rs = gatherv(&r, 1, sizeof(r), &nx);

		bool intact = all_intact(q_intact(&Q));

		if (!rank) {
			check_units(s, before, ids, nid, rs, why, sizeof(why), &pass);
			result(pass && intact,
			       "P=%d scenario %u %s: every unit arrives once, intact, the core's final loads, none on a faulty rank%s%s",
			       size, idx, pname(pol), *why ? ": " : "", why);
			*why = '\0';
			check_msgs(pol, rs, why, sizeof(why), &pass);
			for (v = 0; v < (u32)size; v++)
				cov.relayed += rs[v].relayed;
			result(pass, "P=%d scenario %u %s: messages as the protocol implies on the core's topology%s%s",
			       size, idx, pname(pol), *why ? ": " : "", why);
			*why = '\0';
			check_steps(pol, rs, why, sizeof(why), &pass);
			result(pass, "P=%d scenario %u %s: %u steps%s%s", size, idx,
			       pname(pol), rs[0].steps, *why ? ": " : "", why);
		} else {
			result(true, "");
			result(true, "");
			result(true, "");
		}
		free(rs);
	}
	free(ids);
	(void)mrep;
}

/* ---- bad input ---- */

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
	for (i = 0; i < size; i++)
		list[i] = i;
	if (hcube_mpi_mark(h, list, size, HCUBE_MPI_HEALTHY, NULL))
		abort();
	Q.n = 0;
	fill(&Q, ((u64)rank << 32) | 0x40000000U, (u32)rank % 5 + 3);
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

int main(int argc, char **argv)
{
	u64 seed = 20240501;
	u32 nscen = 10, idx, pol;
	struct hcube_mpi *h;
	int i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--scenarios"))
			nscen = (u32)strtoul(argv[i + 1], NULL, 0);
	}
	while ((1U << dim) < (u32)size)
		dim++;
	nv = 1U << dim;
	O.topo_mem = malloc(hcube_topo_memsize(dim));
	O.plan_mem = malloc(hcube_plan_memsize(dim));
	O.work = malloc(hcube_work_memsize(dim));
	O.obs.fn = observe;
	if (hcube_topo_init(&O.topo, dim, O.topo_mem) ||
	    hcube_plan_init(&O.plan, dim, O.plan_mem))
		abort();
	if (!rank)
		printf("TAP version 13\n# P = %d ranks, %u-cube, seed %llu\n", size,
		       dim, (unsigned long long)seed);

	if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &Q, &h))
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (idx = 0; idx < nscen; idx++) {
		struct scen s;

		draw(&s, seed, idx);
		for (pol = 0; pol < __HCUBE_POLICY_MAX; pol++)
			run_policy(h, &s, idx, pol);
	}
	bad_input(h);
	hcube_mpi_close(h);
	if (!rank)
		printf("# coverage: transfers %llu relayed %llu evac_mark %llu evac_balance %llu theta %llu sbn_jobs %llu trees %u detached %u\n1..%d\n",
		       (unsigned long long)cov.transfers, (unsigned long long)cov.relayed,
		       (unsigned long long)cov.evac_mark,
		       (unsigned long long)cov.evac_balance,
		       (unsigned long long)cov.theta, (unsigned long long)cov.sbn_jobs,
		       cov.trees, cov.detached, ntest);
	free(Q.u);
	MPI_Finalize();
	return nfail ? 1 : 0;
}
