// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_test's shared parts (tq.h): TAP, random numbers, the application's
 * queue and its callbacks, gathering, scenarios and the core as oracle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tq.h"

int rank, size;
u32 dim, nv;
static int ntest, nfail;

/* ---- TAP from rank 0 ---- */

void result(bool pass, const char *fmt, ...)
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

int tap_failures(void)
{
	return nfail;
}

int tap_tests(void)
{
	return ntest;
}

bool shared(bool pass)
{
	int v = pass;

	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return v;
}

bool all(bool pass)
{
	int v = pass, r;

	MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return r;
}

bool all_intact(bool mine)
{
	int v = mine, r = 0;

	MPI_Reduce(&v, &r, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
	return r;
}

/* ---- random numbers ---- */

u64 sm64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 below(u64 *x, u32 n)
{
	return n ? (u32)(sm64(x) % n) : 0;
}

/* ---- the application's queue: units of variable size and weight ---- */

struct queue Q;
u32 weight_kind;
size_t max_packed;

static u64 unit_hash(u64 id)
{
	u64 x = id;

	return sm64(&x);
}

static u64 new_weight(u64 id)
{
	u64 x = id ^ 0x5eed;
	u64 r = sm64(&x);

	switch (weight_kind) {
	case 1:
		return 1 + r % 1000;
	case 2:
		return r % 10 ? 1 + r % 10 : 200 + r % 4801;
	case 3:
		return r % 4;
	case 4:
		return (1ULL << 36) + (r >> 28);
	default:
		return 1;
	}
}

void q_add(struct queue *q, u64 id)
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
	u->weight = new_weight(id);
	u->check = unit_hash(id) ^ u->weight;
	u->nextra = (u8)(id % 4 * 8);
	u->chosen = false;
	for (i = 0; i < u->nextra; i++)
		u->extra[i] = (u8)(id * 31 + i);
}

void fill(struct queue *q, u64 base, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		q_add(q, base + i);
}

/* On the wire: id, check, weight, nextra, the pattern. */
#define WIRE_HDR	25

static size_t wire_size(const struct unit *u)
{
	return WIRE_HDR + u->nextra;
}

static char *put_unit(char *c, const struct unit *u)
{
	memcpy(c, &u->id, 8);
	memcpy(c + 8, &u->check, 8);
	memcpy(c + 16, &u->weight, 8);
	c[24] = (char)u->nextra;
	memcpy(c + WIRE_HDR, u->extra, u->nextra);
	return c + wire_size(u);
}

static u32 q_count(void *p)
{
	return ((struct queue *)p)->n;
}

/* The last n units. */
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
	if (need > max_packed)
		max_packed = need;
	if (need > cap)
		return (ssize_t)need;
	for (i = q->n - n; i < q->n; i++)
		c = put_unit(c, &q->u[i]);
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

		if (end - c < WIRE_HDR || (u8)c[24] > MAX_EXTRA ||
		    end - c < WIRE_HDR + (u8)c[24])
			return -1;
		q_add(q, 0);
		u = &q->u[q->n - 1];
		memcpy(&u->id, c, 8);
		memcpy(&u->check, c + 8, 8);
		memcpy(&u->weight, c + 16, 8);
		u->nextra = (u8)c[24];
		memcpy(u->extra, c + WIRE_HDR, u->nextra);
		c += wire_size(u);
	}
	return c == end ? 0 : -1;
}

u64 q_weight_of(const struct queue *q, u64 *heaviest)
{
	u64 w = 0, top = 0;
	u32 i;

	for (i = 0; i < q->n; i++) {
		w += q->u[i].weight;
		if (q->u[i].weight > top)
			top = q->u[i].weight;
	}
	*heaviest = top;
	return w;
}

static uint64_t q_weight(void *p, uint64_t *heaviest)
{
	u64 top, w = q_weight_of(p, &top);

	*heaviest = top;
	return w;
}

/*
 * The library's rule, from the tail: take a unit while its weight is at
 * most twice what is still missing. The size query marks the units; the
 * second call writes and removes the same ones.
 */
static ssize_t q_pack_weight(void *p, struct hcube_mpi_take *t, void *buf,
			     size_t cap)
{
	struct queue *q = p;
	size_t need = 0;
	u64 taken = 0;
	u32 i, k, n = 0;
	char *c = buf;

	for (i = q->n; i-- > 0;) {
		u64 missing = t->weight - taken;

		q->u[i].chosen = taken <= t->weight &&
				 (missing >= 1ULL << 62 || q->u[i].weight <= 2 * missing);
		if (q->u[i].chosen) {
			taken += q->u[i].weight;
			need += wire_size(&q->u[i]);
			n++;
		}
	}
	t->units = n;
	t->taken = taken;
	if (need > max_packed)
		max_packed = need;
	if (need > cap)
		return (ssize_t)need;
	for (i = q->n, k = 0; i-- > 0;)
		if (q->u[i].chosen)
			c = put_unit(c, &q->u[i]);
	for (i = 0; i < q->n; i++)
		if (!q->u[i].chosen)
			q->u[k++] = q->u[i];
	q->n = k;
	return (ssize_t)need;
}

const struct hcube_mpi_ops ops = {
	.count = q_count, .pack = q_pack, .unpack = q_unpack,
};

const struct hcube_mpi_ops ops_w = {
	.count = q_count, .pack = q_pack, .unpack = q_unpack,
	.weight = q_weight, .pack_weight = q_pack_weight,
};

bool q_intact(const struct queue *q)
{
	u32 i, j;

	for (i = 0; i < q->n; i++) {
		const struct unit *u = &q->u[i];

		if (u->check != (unit_hash(u->id) ^ u->weight) || u->nextra != u->id % 4 * 8)
			return false;
		for (j = 0; j < u->nextra; j++)
			if (u->extra[j] != (u8)(u->id * 31 + j))
				return false;
	}
	return true;
}

/* ---- gathering at rank 0 ---- */

int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

u32 *gather_u32(u32 v)
{
	static u32 buf[MAXV];

	MPI_Gather(&v, 1, MPI_UINT32_T, buf, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
	return buf;
}

u64 *gather_u64(u64 v)
{
	static u64 buf[MAXV];

	MPI_Gather(&v, 1, MPI_UINT64_T, buf, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	return buf;
}

void *gatherv(const void *mine, u32 count, size_t elem, u32 *n)
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
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return x->weight < y->weight ? -1 : x->weight > y->weight;
}

bool same_xfers(struct hcube_mpi_xfer *a, u32 na, struct hcube_mpi_xfer *b,
		u32 nb, char *why, size_t len)
{
	u32 i;

	qsort(a, na, sizeof(*a), cmp_xfer);
	qsort(b, nb, sizeof(*b), cmp_xfer);
	for (i = 0; i < na && i < nb; i++) {
		if (cmp_xfer(&a[i], &b[i])) {
			snprintf(why, len, "transfer %u: %u:%u->%u x%u w%llu, expected %u:%u->%u x%u w%llu",
				 i, a[i].step, a[i].from, a[i].to, a[i].count,
				 (unsigned long long)a[i].weight, b[i].step, b[i].from,
				 b[i].to, b[i].count, (unsigned long long)b[i].weight);
			return false;
		}
	}
	if (na != nb) {
		snprintf(why, len, "%u transfers, %u expected", na, nb);
		return false;
	}
	return true;
}

u64 *gather_ids(u32 *n)
{
	u64 *mine = malloc((Q.n + 1) * sizeof(u64)), *all;
	u32 k;

	for (k = 0; k < Q.n; k++)
		mine[k] = Q.u[k].id;
	all = gatherv(mine, Q.n, sizeof(u64), n);
	free(mine);
	return all;
}

bool imports_match(const struct hcube_mpi_report *r, char *why, size_t len)
{
	struct hcube_mpi_xfer *ex, *ev, *im, *all;
	u32 nx = 0, ne = 0, ni = 0;
	bool pass = false;

	ex = gatherv(r->xfers, r->nxfers, sizeof(*ex), &nx);
	ev = gatherv(r->evacs, r->nevacs, sizeof(*ev), &ne);
	im = gatherv(r->imports, r->nimports, sizeof(*im), &ni);
	if (!rank) {
		all = malloc((nx + ne + 1) * sizeof(*all));
		memcpy(all, ex, nx * sizeof(*all));
		memcpy(all + nx, ev, ne * sizeof(*all));
		pass = same_xfers(im, ni, all, nx + ne, why, len);
		free(all);
	}
	free(ex);
	free(ev);
	free(im);
	return shared(pass);
}

/* ---- scenarios ---- */

const char *pname(u32 p)
{
	return hcube_policy_name(p);
}

void draw(struct scen *s, u64 seed, u32 idx)
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

void restart(struct hcube_mpi *h, u64 base, u32 n)
{
	int all_ranks[MAXV], i;

	for (i = 0; i < size; i++)
		all_ranks[i] = i;
	if (hcube_mpi_mark(h, all_ranks, size, HCUBE_MPI_HEALTHY, NULL))
		abort();
	Q.n = 0;
	fill(&Q, base, n);
}

int start_scenario(struct hcube_mpi *h, const struct scen *s, u64 base,
		   struct hcube_mpi_report *mrep)
{
	int faulty[MAXV], nf = 0, i;

	restart(h, base, s->load[rank]);
	for (i = 0; i < size; i++)
		if (s->faulty[i])
			faulty[nf++] = i;
	return hcube_mpi_mark(h, faulty, nf, HCUBE_MPI_FAULTY, mrep);
}

void components(const u8 *state, u16 *comp)
{
	u32 queue[MAXV], v, d, n = 0;

	for (v = 0; v < nv; v++)
		comp[v] = 0xffff;
	for (v = 0; v < nv; v++) {
		u32 head = 0, tail = 0;

		if (!hcube_usable(state[v]) || comp[v] != 0xffff)
			continue;
		comp[v] = (u16)n;
		queue[tail++] = v;
		while (head < tail) {
			u32 u = queue[head++];

			for (d = 0; d < dim; d++) {
				u32 x = u ^ (1U << d);

				if (hcube_usable(state[x]) && comp[x] == 0xffff) {
					comp[x] = (u16)n;
					queue[tail++] = x;
				}
			}
		}
		n++;
	}
}

/* ---- the core's side (rank 0) ---- */

struct oracle O;

void oracle_init(void)
{
	while ((1U << dim) < (u32)size)
		dim++;
	nv = 1U << dim;
	O.topo_mem = malloc(hcube_topo_memsize(dim));
	O.plan_mem = malloc(hcube_plan_memsize(dim));
	O.work = malloc(hcube_work_memsize(dim));
	if (hcube_topo_init(&O.topo, dim, O.topo_mem) ||
	    hcube_plan_init(&O.plan, dim, O.plan_mem))
		abort();
}

void oracle_states(const struct scen *s)
{
	u32 v;

	for (v = 0; v < nv; v++)
		O.state[v] = v >= (u32)size ? HCUBE_V_ABSENT :
			     s->faulty[v] ? HCUBE_V_FAULTY : HCUBE_V_HEALTHY;
}

void oracle_evacuate(const u32 *before, const u32 *count, bool by_weight,
		     u32 shift)
{
	u32 f, w, out[MAXV];

	O.nevac = 0;
	for (w = 0; w < nv; w++)
		O.load[w] = hcube_usable(O.state[w]) ? before[w] : 0;
	for (f = 0; f < (u32)size; f++) {
		u32 amount = before[f] ? before[f] : by_weight && count[f];

		if (hcube_usable(O.state[f]) || !count[f])
			continue;
		memset(out, 0, sizeof(out));
		if (hcube_evacuate(dim, O.state, O.load, f, amount, out))
			abort();
		for (w = 0; w < nv; w++) {
			if (!out[w])
				continue;
			O.evac[O.nevac++] = (struct hcube_mpi_xfer){
				0, f, w, by_weight ? 0 : out[w], (u64)out[w] << shift,
			};
			O.load[w] += out[w];
		}
	}
}

int oracle_plan(u32 policy)
{
	struct hcube_cube cube = { .dim = dim, .state = O.state, .load = O.load };
	int err = hcube_topo_build(&O.topo, dim, O.state, O.work);

	if (err)
		return err;
	memset(O.th_sent, 0, sizeof(O.th_sent));
	memset(O.th_recv, 0, sizeof(O.th_recv));
	O.plan.observer = O.obs.fn ? &O.obs : NULL;
	/* the ranks run Das et al.'s operation whole, the core's SBN plan */
	O.plan.whole = policy == HCUBE_POLICY_SBN;
	return hcube_plan_build(&O.plan, policy, &cube, &O.topo, O.work);
}

struct hcube_mpi_xfer *oracle_xfers(bool by_weight, u32 shift)
{
	struct hcube_mpi_xfer *core = malloc((O.plan.ntransfers + 1) * sizeof(*core));
	u32 i;

	for (i = 0; i < O.plan.ntransfers; i++) {
		const struct hcube_transfer *t = &O.plan.transfers[i];

		core[i] = (struct hcube_mpi_xfer){
			t->step, t->from, t->to, by_weight ? 0 : t->count,
			(u64)t->count << shift,
		};
	}
	return core;
}
