// SPDX-License-Identifier: GPL-2.0
/*
 * A task farm written as an application would, from the public header
 * only, balanced by weight. Items are of uneven size (a payload of 16 to
 * 2048 bytes with its checksum) and uneven cost (work units: mostly 1..20,
 * one in eight 200..1000). Every round each healthy rank works through a
 * budget of work units from the head of its queue, checks each item's
 * payload, and for one item in three spawns a new one. Rank 2 is marked
 * faulty at round DRAIN and keeps spawning work on its own queue, which
 * the next balance evacuates. Every BALANCE rounds the ranks balance by
 * weight, the policy going round all of them.
 *
 * Checked after every balance, from the farm's own numbers: in every
 * component of healthy ranks, each rank's remaining cost lies within the
 * heaviest item of the component's average (rounded down and up), the
 * report says the same imbalance by weight, and the faulty rank holds
 * nothing. At the end every item created was processed exactly once, its
 * payload intact. TAP from rank 0, with the spread of the remaining cost
 * after each balance as comments.
 *
 * usage: farm [ROUNDS] [SEED]   (mpirun -np P, P >= 1)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hcube_mpi.h>

#define BUDGET	400
#define BALANCE	3
#define DRAIN	7
#define MAXP	1024

struct item {
	uint64_t id, sum;
	uint32_t cost, size;
	unsigned char *payload;
	bool chosen;
};

struct farm {
	struct item *it;
	uint32_t n, cap;
	uint64_t next_id, seed;
	uint64_t *done, *made;	/* ids processed, ids created */
	uint32_t ndone, nmade, capdone, capmade;
	uint32_t bad;		/* payloads found wrong */
};

static struct farm F;
static int rank, size, tests, failures;

static uint64_t rnd(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t checksum(const unsigned char *p, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = need * 2;
	p = realloc(p, *cap * elem);
	if (!p)
		abort();
	return p;
}

static void push(struct item it)
{
	F.it = grow(F.it, &F.cap, F.n + 1, sizeof(*F.it));
	F.it[F.n++] = it;
}

static void spawn(void)
{
	struct item it = { .id = (uint64_t)rank << 40 | F.next_id++ };
	uint64_t r = rnd(&F.seed);
	uint32_t i;

	it.cost = r % 8 ? 1 + r % 20 : 200 + (uint32_t)(r >> 8) % 801;
	it.size = 16 + (uint32_t)(r >> 20) % 2033;
	it.payload = malloc(it.size);
	for (i = 0; i < it.size; i++)
		it.payload[i] = (unsigned char)(it.id * 7 + i * 13);
	it.sum = checksum(it.payload, it.size);
	push(it);
	F.made = grow(F.made, &F.capmade, F.nmade + 1, sizeof(*F.made));
	F.made[F.nmade++] = it.id;
}

/* Work off @budget work units (0: all) from the head of the queue. */
static void work(uint32_t budget)
{
	uint32_t head = 0, i;

	while (head < F.n && (!budget || budget >= F.it[head].cost)) {
		struct item *it = &F.it[head++];

		if (budget)
			budget -= it->cost;
		F.bad += checksum(it->payload, it->size) != it->sum;
		F.done = grow(F.done, &F.capdone, F.ndone + 1, sizeof(*F.done));
		F.done[F.ndone++] = it->id;
		free(it->payload);
		if (rnd(&F.seed) % 3 == 0 && budget)
			spawn();
	}
	for (i = head; i < F.n; i++)
		F.it[i - head] = F.it[i];
	F.n -= head;
}

/* ---- the library's callbacks ---- */

static uint32_t count(void *p)
{
	return ((struct farm *)p)->n;
}

static uint64_t weight(void *p, uint64_t *heaviest)
{
	struct farm *f = p;
	uint64_t w = 0;
	uint32_t i;

	*heaviest = 0;
	for (i = 0; i < f->n; i++) {
		w += f->it[i].cost;
		if (f->it[i].cost > *heaviest)
			*heaviest = f->it[i].cost;
	}
	return w;
}

static char *put(char *c, const struct item *it)
{
	memcpy(c, &it->id, 8);
	memcpy(c + 8, &it->sum, 8);
	memcpy(c + 16, &it->cost, 4);
	memcpy(c + 20, &it->size, 4);
	memcpy(c + 24, it->payload, it->size);
	return c + 24 + it->size;
}

/* Write the chosen items from the tail, remove them; or just their size. */
static ssize_t take_chosen(struct farm *f, void *buf, size_t cap)
{
	size_t need = 0;
	uint32_t i, k = 0;
	char *c = buf;

	for (i = 0; i < f->n; i++)
		if (f->it[i].chosen)
			need += 24 + f->it[i].size;
	if (need > cap)
		return (ssize_t)need;
	for (i = f->n; i-- > 0;)
		if (f->it[i].chosen) {
			c = put(c, &f->it[i]);
			free(f->it[i].payload);
		}
	for (i = 0; i < f->n; i++)
		if (!f->it[i].chosen)
			f->it[k++] = f->it[i];
	f->n = k;
	return (ssize_t)need;
}

static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct farm *f = p;
	uint32_t i;

	for (i = 0; i < f->n; i++)
		f->it[i].chosen = i >= f->n - n;
	return take_chosen(f, buf, cap);
}

/* The library's rule: from the tail, an item while it weighs at most twice what is missing. */
static ssize_t pack_weight(void *p, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	struct farm *f = p;
	uint64_t taken = 0;
	uint32_t i, n = 0;

	for (i = f->n; i-- > 0;) {
		uint64_t missing = t->weight - taken;

		f->it[i].chosen = taken <= t->weight &&
				  (missing > UINT64_MAX / 2 || f->it[i].cost <= 2 * missing);
		if (f->it[i].chosen) {
			taken += f->it[i].cost;
			n++;
		}
	}
	t->units = n;
	t->taken = taken;
	return take_chosen(f, buf, cap);
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	const char *c = buf, *end = c + len;
	uint32_t i;

	(void)p;
	for (i = 0; i < n; i++) {
		struct item it = { 0 };

		if (end - c < 24)
			return -1;
		memcpy(&it.id, c, 8);
		memcpy(&it.sum, c + 8, 8);
		memcpy(&it.cost, c + 16, 4);
		memcpy(&it.size, c + 20, 4);
		if ((size_t)(end - c) < 24 + (size_t)it.size)
			return -1;
		it.payload = malloc(it.size);
		memcpy(it.payload, c + 24, it.size);
		push(it);
		c += 24 + it.size;
	}
	return c == end ? 0 : -1;
}

/* ---- checks ---- */

static void result(bool pass, const char *what)
{
	int all;

	MPI_Allreduce(&pass, &all, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
	tests++;
	failures += !all;
	if (!rank)
		printf("%s %d - %s\n", all ? "ok" : "not ok", tests, what);
}

/* Components of the healthy ranks, as hypercube labels joined by one bit. */
static void components(const int *faulty, int *comp)
{
	int queue[MAXP], v, d, n = 0;

	for (v = 0; v < size; v++)
		comp[v] = -1;
	for (v = 0; v < size; v++) {
		int head = 0, tail = 0;

		if (faulty[v] || comp[v] >= 0)
			continue;
		comp[v] = n;
		queue[tail++] = v;
		while (head < tail) {
			int u = queue[head++];

			for (d = 1; d < size; d <<= 1) {
				int x = u ^ d;

				if (x < size && !faulty[x] && comp[x] < 0) {
					comp[x] = n;
					queue[tail++] = x;
				}
			}
		}
		n++;
	}
}

/* The bound and the report's imbalance, after a balance. */
static void check(const struct hcube_mpi_report *r, const int *faulty, int round,
		  const char *policy)
{
	static uint64_t w[MAXP], top[MAXP], W[MAXP], U[MAXP], H[MAXP];
	int comp[MAXP], v, healthy = 0;
	uint64_t mine[2], max = 0, total = 0, lo = UINT64_MAX, hi = 0;
	bool pass = true;
	char what[256];

	mine[0] = weight(&F, &mine[1]);
	MPI_Allgather(mine, 2, MPI_UINT64_T, w, 2, MPI_UINT64_T, MPI_COMM_WORLD);
	components(faulty, comp);
	memset(W, 0, sizeof(W));
	memset(U, 0, sizeof(U));
	memset(H, 0, sizeof(H));
	for (v = 0; v < size; v++) {
		uint64_t wv = w[2 * v];

		top[v] = w[2 * v + 1];
		total += wv;
		max = wv > max ? wv : max;
		if (comp[v] < 0) {
			pass &= wv == 0;
			continue;
		}
		healthy++;
		W[comp[v]] += wv;
		H[comp[v]]++;
		U[comp[v]] = top[v] > U[comp[v]] ? top[v] : U[comp[v]];
		lo = wv < lo ? wv : lo;
		hi = wv > hi ? wv : hi;
	}
	for (v = 0; v < size; v++) {
		int c = comp[v];

		if (c < 0)
			continue;
		pass &= w[2 * v] + U[c] >= W[c] / H[c] &&
			w[2 * v] <= (W[c] + H[c] - 1) / H[c] + U[c];
	}
	pass &= r->settled && r->weight_imbalance_after ==
		(total ? (double)max * healthy / (double)total : 1.0);
	snprintf(what, sizeof(what),
		 "round %d %s: the remaining cost of every rank within the heaviest item of the average, the report's imbalance %.3f",
		 round, policy, r->weight_imbalance_after);
	result(pass, what);
	if (!rank)
		printf("# round %d %s: cost per healthy rank %llu..%llu (%.3f of the average) after the policy %.3f, settle %u rounds\n",
		       round, policy, (unsigned long long)lo, (unsigned long long)hi,
		       r->weight_imbalance_after, r->policy_weight_imbalance, r->settle_rounds);
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every id at rank 0, sorted; *n gets their number. */
static uint64_t *gather_ids(const uint64_t *mine, uint32_t n, uint32_t *total)
{
	int cnt[MAXP], off[MAXP], i, t = 0, me = (int)n;
	uint64_t *all = NULL;

	MPI_Gather(&me, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!rank) {
		for (i = 0; i < size; i++) {
			off[i] = t;
			t += cnt[i];
		}
		all = malloc(((size_t)t + 1) * 8);
	}
	MPI_Gatherv(mine, me, MPI_UINT64_T, all, cnt, off, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (!rank)
		qsort(all, (size_t)t, 8, cmp_id);
	*total = (uint32_t)t;
	return all;
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = {
		.count = count, .pack = pack, .unpack = unpack,
		.weight = weight, .pack_weight = pack_weight,
	};
	static const char *const policies[] = {
		"mcwa", "dem", "sbn", "optimal", "auto", "rid", "sid", "sbn-cube",
		"sbn-heur", "pebble", "cwa",
	};
	int rounds = argc > 1 ? atoi(argv[1]) : 30, round, np = 0, i, faulty[MAXP] = { 0 };
	int drained = 2, err = 0;
	uint32_t nd = 0, nm = 0, k;
	struct hcube_mpi_report r;
	struct hcube_mpi *h;
	uint64_t *done, *made;
	bool pass;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	F.seed = (argc > 2 ? strtoull(argv[2], NULL, 0) : 20240501) ^ (uint64_t)rank << 32;
	if (!rank)
		printf("TAP version 13\n# %d ranks, %d rounds, rank 2 faulty from round %d\n",
		       size, rounds, DRAIN);
	/* uneven from the start: rank r gets 5 + 7r items */
	for (i = 0; i < 5 + 7 * rank; i++)
		spawn();
	if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &F, &h))
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (round = 1; round <= rounds && !err; round++) {
		if (!faulty[rank])
			work(BUDGET);
		if (round == DRAIN && size > drained) {
			err = hcube_mpi_mark(h, &drained, 1, HCUBE_MPI_FAULTY, NULL);
			faulty[drained] = 1;
			result(!err && (rank != drained || !F.n),
			       "rank 2 marked faulty: its items leave at once");
		}
		if (faulty[rank])
			for (i = 0; i < 3; i++)
				spawn();	/* it keeps producing work */
		if (round % BALANCE == 0 || round == rounds) {
			const char *p = policies[np++ % 11];

			/* cwa only on a full cube without faults */
			if (!strcmp(p, "cwa") && (size & (size - 1) || round >= DRAIN))
				p = "mcwa";
			err = hcube_mpi_balance(h, p, &r);
			if (err && !rank)
				printf("# %s\n", hcube_mpi_errmsg(h));
			check(&r, faulty, round, p);
		}
	}
	work(0);
	pass = !err && !F.n && !F.bad;
	result(pass, "every rank worked off its queue, every payload intact");
	done = gather_ids(F.done, F.ndone, &nd);
	made = gather_ids(F.made, F.nmade, &nm);
	pass = true;
	if (!rank) {
		pass = nd == nm;
		for (k = 0; pass && k < nd; k++)
			pass = done[k] == made[k] && (!k || done[k] != done[k - 1]);
		printf("# %u items created, %u processed\n", nm, nd);
	}
	MPI_Bcast(&pass, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
	result(pass, "every item created was processed exactly once");
	free(done);
	free(made);
	hcube_mpi_close(h);
	free(F.it);
	free(F.done);
	free(F.made);
	if (!rank)
		printf("1..%d\n", tests);
	MPI_Finalize();
	return failures ? 1 : 0;
}
