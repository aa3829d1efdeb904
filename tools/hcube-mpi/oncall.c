// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-mpi-oncall: what one call of each policy reaches by weight, beside
 * the greedy an MPI programmer would write instead (Documentation/mpi.md).
 * Written from the public header only.
 *
 * A run: every rank draws 0..2M units (uniform). A unit costs 1..10 work
 * units (90%), 500..1000 (3%) or 11..100 (7%), and carries a payload of 4
 * bytes to 1 MiB (log-uniform: as many of 4..8 bytes as of 512 KiB..1 MiB).
 * F random ranks other than 0 are marked faulty (their units leave at once,
 * before the measured start). Then, from that same start: one call by
 * weight of each policy, and the greedy:
 *
 *   one MPI_Allgatherv of every unit's weight; each rank keeps its units
 *   in queue order while they stay within the average; the rest, the
 *   surplus of all ranks, goes heaviest first to the least loaded healthy
 *   rank; the units move in one MPI_Alltoallv.
 *
 * The library's pack_weight() keeps the library's rule and goes through
 * the units by weight per byte, most first: the cheapest units of the
 * weight asked for.
 *
 * Measured on the units themselves: max / avg over the healthy ranks
 * before and after; the payload bytes and units sent, summed over the
 * ranks; the call's wall time (the slowest rank); from the report the
 * messages and the settle's rounds; for the greedy, the bytes its
 * all-gather leaves on each rank.
 *
 * Output: CSV on rank 0's stdout, one row per run and policy.
 * usage: hcube-mpi-oncall [--runs N] [--faults F] [--units M] [--seed S]
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hcube_mpi.h>

#define MAXP	1024

struct unit {
	uint64_t id;
	uint32_t cost, size;	/* work units; payload bytes */
};

struct queue {
	struct unit *u;
	uint32_t n, cap;
	bool *chosen;
	uint32_t *order;
};

static struct queue q, start;
static int rank, size;
static uint64_t moved_bytes, moved_units;	/* payload this rank sent */

static uint64_t rnd(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void reserve(struct queue *s, uint32_t n)
{
	if (n <= s->cap)
		return;
	s->cap = 2 * n;
	s->u = realloc(s->u, s->cap * sizeof(*s->u));
	s->chosen = realloc(s->chosen, s->cap * sizeof(*s->chosen));
	s->order = realloc(s->order, s->cap * sizeof(*s->order));
	if (!s->u || !s->chosen || !s->order)
		MPI_Abort(MPI_COMM_WORLD, 1);
}

static uint32_t count(void *p)
{
	return ((struct queue *)p)->n;
}

static uint64_t weight(void *p, uint64_t *heaviest)
{
	struct queue *s = p;
	uint64_t w = 0;
	uint32_t i;

	*heaviest = 0;
	for (i = 0; i < s->n; i++) {
		w += s->u[i].cost;
		if (s->u[i].cost > *heaviest)
			*heaviest = s->u[i].cost;
	}
	return w;
}

static size_t unit_bytes(const struct unit *u)
{
	return sizeof(*u) + u->size;
}

/* The payload: a pattern of the unit's id, checked on arrival. */
static void fill(unsigned char *b, const struct unit *u)
{
	memcpy(b, u, sizeof(*u));
	memset(b + sizeof(*u), (int)(u->id * 31 % 251), u->size);
}

/* Write the chosen units, remove them; or say how many bytes they need. */
static ssize_t take_chosen(struct queue *s, void *buf, size_t cap)
{
	uint32_t i, k = 0;
	size_t need = 0;
	unsigned char *out = buf;

	for (i = 0; i < s->n; i++)
		need += s->chosen[i] ? unit_bytes(&s->u[i]) : 0;
	if (need > cap || !need)
		return (ssize_t)need;
	for (i = 0; i < s->n; i++) {
		if (s->chosen[i]) {
			fill(out, &s->u[i]);
			out += unit_bytes(&s->u[i]);
			moved_bytes += s->u[i].size;
			moved_units++;
		} else {
			s->u[k++] = s->u[i];
		}
	}
	s->n = k;
	return (ssize_t)need;
}

static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = p;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		s->chosen[i] = i >= s->n - n;
	return take_chosen(s, buf, cap);
}

static struct queue *sorting;

/* Most work per byte first (a * b' > b * a' without division). */
static int by_value(const void *a, const void *b)
{
	const struct unit *x = &sorting->u[*(const uint32_t *)a];
	const struct unit *y = &sorting->u[*(const uint32_t *)b];
	uint64_t l = (uint64_t)x->cost * unit_bytes(y), r = (uint64_t)y->cost * unit_bytes(x);

	if (l != r)
		return l > r ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The library's rule, the cheapest units (most weight per byte) first. */
static ssize_t pack_weight(void *p, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	struct queue *s = p;
	uint64_t taken = 0;
	uint32_t i, n = 0;

	for (i = 0; i < s->n; i++) {
		s->order[i] = i;
		s->chosen[i] = false;
	}
	sorting = s;
	qsort(s->order, s->n, sizeof(*s->order), by_value);
	for (i = 0; i < s->n && taken <= t->weight; i++) {
		uint32_t k = s->order[i];
		uint64_t missing = t->weight - taken;

		if (missing > UINT64_MAX / 2 || s->u[k].cost <= 2 * missing) {
			s->chosen[k] = true;
			taken += s->u[k].cost;
			n++;
		}
	}
	t->units = n;
	t->taken = taken;
	return take_chosen(s, buf, cap);
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = p;
	const unsigned char *in = buf, *end = in + len;
	uint32_t i;

	reserve(s, s->n + n);
	for (i = 0; i < n; i++) {
		struct unit u;

		if ((size_t)(end - in) < sizeof(u))
			return -1;
		memcpy(&u, in, sizeof(u));
		if ((size_t)(end - in) < unit_bytes(&u) ||
		    (u.size && in[sizeof(u) + u.size - 1] != (unsigned char)(u.id * 31 % 251)))
			return -1;
		in += unit_bytes(&u);
		s->u[s->n++] = u;
	}
	return in == end ? 0 : -1;
}

/* max / avg over the healthy ranks of this rank's @v. */
static double imbalance(uint64_t v, bool healthy)
{
	uint64_t max, total;
	int nh, h = healthy;

	MPI_Allreduce(&v, &max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&v, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&h, &nh, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	return total ? (double)max * nh / (double)total : 1.0;
}

static double sum(double v)
{
	double s;

	MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return s;
}

static double maxof(double v)
{
	double s;

	MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return s;
}

/*
 * No split of whole units does better than max(avg, the heaviest unit)
 * over avg: a lower bound of the best max / avg.
 */
static double bound(bool healthy)
{
	uint64_t top, w = weight(&q, &top), total, heaviest;
	int nh, h = healthy;

	MPI_Allreduce(&w, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&top, &heaviest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&h, &nh, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (!total)
		return 1.0;
	return heaviest * (double)nh > (double)total ? heaviest * (double)nh / (double)total : 1.0;
}

/*
 * The greedy, as an MPI programmer writes it: @healthy says which ranks
 * may receive. Returns the bytes its all-gather left on this rank.
 */
static uint64_t greedy(const bool *healthy)
{
	int *cnt = calloc(size, sizeof(int)), *disp = calloc(size, sizeof(int));
	int *scnt = calloc(size, sizeof(int)), *sdisp = calloc(size, sizeof(int));
	int *rcnt = calloc(size, sizeof(int)), *rdisp = calloc(size, sizeof(int));
	uint64_t *load = calloc(size, sizeof(uint64_t)), total = 0, avg;
	uint32_t *dest, i, all_n, mine = q.n, *w, *mw = malloc((q.n + 1) * sizeof(uint32_t));
	int r, nh = 0;
	size_t sbytes = 0, rbytes = 0;
	unsigned char *sbuf, *rbuf, *o;
	struct { uint32_t w, rank, idx; } *sur;
	uint32_t nsur = 0, k;

	MPI_Allgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
	for (r = 0, all_n = 0; r < size; r++) {
		disp[r] = (int)all_n;
		all_n += (uint32_t)cnt[r];
	}
	w = malloc((all_n + 1) * sizeof(uint32_t));
	for (i = 0; i < q.n; i++)
		mw[i] = q.u[i].cost;
	MPI_Allgatherv(mw, (int)mine, MPI_UINT32_T, w, cnt, disp, MPI_UINT32_T, MPI_COMM_WORLD);
	for (i = 0; i < all_n; i++)
		total += w[i];
	for (r = 0; r < size; r++)
		nh += healthy[r];
	avg = total / (uint64_t)nh;
	/* each rank keeps its units in order while within the average */
	sur = malloc((all_n + 1) * sizeof(*sur));
	dest = malloc((all_n + 1) * sizeof(uint32_t));
	for (r = 0; r < size; r++) {
		for (i = 0; i < (uint32_t)cnt[r]; i++) {
			uint32_t x = w[disp[r] + i];

			dest[disp[r] + i] = (uint32_t)r;
			if (healthy[r] && load[r] + x <= avg)
				load[r] += x;
			else
				sur[nsur++] = (typeof(*sur)){ x, (uint32_t)r, i };
		}
	}
	/* the surplus, heaviest first, to the least loaded */
	for (i = 1; i < nsur; i++) {
		typeof(*sur) x = sur[i];

		for (k = i; k > 0 && (sur[k - 1].w < x.w ||
				      (sur[k - 1].w == x.w && sur[k - 1].rank > x.rank)); k--)
			sur[k] = sur[k - 1];
		sur[k] = x;
	}
	for (i = 0; i < nsur; i++) {
		int best = -1;

		for (r = 0; r < size; r++)
			if (healthy[r] && (best < 0 || load[r] < load[best]))
				best = r;
		load[best] += sur[i].w;
		dest[disp[sur[i].rank] + sur[i].idx] = (uint32_t)best;
	}
	/* the units that leave this rank, then one all-to-all */
	for (i = 0; i < q.n; i++)
		if (dest[disp[rank] + i] != (uint32_t)rank)
			scnt[dest[disp[rank] + i]] += (int)unit_bytes(&q.u[i]);
	for (r = 0; r < size; r++) {
		sdisp[r] = (int)sbytes;
		sbytes += (size_t)scnt[r];
	}
	MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
	for (r = 0; r < size; r++) {
		rdisp[r] = (int)rbytes;
		rbytes += (size_t)rcnt[r];
	}
	sbuf = malloc(sbytes + 1);
	rbuf = malloc(rbytes + 1);
	memset(scnt, 0, size * sizeof(int));
	for (i = 0, k = 0; i < q.n; i++) {
		uint32_t d = dest[disp[rank] + i];

		if (d == (uint32_t)rank) {
			q.u[k++] = q.u[i];
			continue;
		}
		o = sbuf + sdisp[d] + scnt[d];
		fill(o, &q.u[i]);
		scnt[d] += (int)unit_bytes(&q.u[i]);
		moved_bytes += q.u[i].size;
		moved_units++;
	}
	q.n = k;
	MPI_Alltoallv(sbuf, scnt, sdisp, MPI_BYTE, rbuf, rcnt, rdisp, MPI_BYTE, MPI_COMM_WORLD);
	for (r = 0; r < size; r++) {
		const unsigned char *in = rbuf + rdisp[r], *end = in + rcnt[r];

		while (in < end) {
			struct unit u;

			memcpy(&u, in, sizeof(u));
			reserve(&q, q.n + 1);
			q.u[q.n++] = u;
			in += unit_bytes(&u);
		}
	}
	free(cnt), free(disp), free(scnt), free(sdisp), free(rcnt), free(rdisp);
	free(load), free(w), free(mw), free(sur), free(dest), free(sbuf), free(rbuf);
	return (uint64_t)all_n * sizeof(uint32_t) + 2 * (uint64_t)size * sizeof(int);
}

static void usage(void)
{
	if (!rank)
		fprintf(stderr, "usage: hcube-mpi-oncall [--runs N] [--faults F] [--units M] [--seed S]\n");
	MPI_Finalize();
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops by_weight = {
		.count = count, .pack = pack, .unpack = unpack,
		.weight = weight, .pack_weight = pack_weight,
	};
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "faults", required_argument, NULL, 'f' },
		{ "units", required_argument, NULL, 'u' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const policies[] = {
		"greedy", "mcwa", "cwa", "dem", "sbn", "optimal", "auto", "rid", "sid",
		"sbn-cube", "sbn-heur", "pebble",
	};
	int runs = 10, nfaults = 0, units = 40, run, c, faulty[MAXP];
	uint64_t seed = 20240501;
	struct hcube_mpi *h;
	unsigned pol;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			runs = atoi(optarg);
			break;
		case 'f':
			nfaults = atoi(optarg);
			break;
		case 'u':
			units = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (runs < 1 || nfaults < 0 || nfaults >= size || units < 0 || size > MAXP)
		usage();
	if (hcube_mpi_open(MPI_COMM_WORLD, &by_weight, &q, &h))
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (!rank)
		printf("procs,faults,run,policy,weight_before,weight_after,weight_after_policy,"
		       "settle_rounds,settled,units_sent,bytes_sent,messages,seconds,gathered_bytes,"
		       "collectives,best\n");
	for (run = 0; run < runs; run++) {
		uint64_t x = seed ^ (uint64_t)run << 20 ^ (uint64_t)size << 40, xr;
		int nf = 0, i, all[MAXP];
		bool healthy[MAXP], mine_healthy;

		/* the faulty ranks: the same draw on every rank, never rank 0 */
		memset(all, 0, sizeof(all));
		while (nf < nfaults) {
			int v = 1 + (int)(rnd(&x) % (uint64_t)(size - 1));

			if (!all[v]) {
				all[v] = 1;
				faulty[nf++] = v;
			}
		}
		for (i = 0; i < size; i++)
			healthy[i] = !all[i];
		mine_healthy = healthy[rank];
		xr = x ^ (uint64_t)rank << 32;
		q.n = 0;
		reserve(&q, 2 * (uint32_t)units + 1);
		for (i = (int)(rnd(&xr) % (uint64_t)(2 * units + 1)); i > 0; i--) {
			uint64_t r = rnd(&xr), p = r % 100, s = rnd(&xr);

			q.u[q.n++] = (struct unit){
				.id = (uint64_t)rank << 40 | (uint64_t)run << 20 | q.n,
				.cost = p < 90 ? 1 + (uint32_t)(r >> 8) % 10 :
					p < 93 ? 500 + (uint32_t)(r >> 8) % 501 :
						 11 + (uint32_t)(r >> 8) % 90,
				/* 4 B .. 1 MiB, log-uniform: 2^(2 + 18 u) */
				.size = (uint32_t)(4ULL << (s % 18)) +
					(uint32_t)((s >> 8) % (4ULL << (s % 18))),
			};
			if (q.u[q.n - 1].size > (1U << 20))
				q.u[q.n - 1].size = 1U << 20;
		}
		for (i = 0; i < size; i++)
			all[i] = i;
		/* the faulty ranks' units leave before the measured start */
		if (hcube_mpi_mark(h, all, size, HCUBE_MPI_HEALTHY, NULL) ||
		    hcube_mpi_mark(h, faulty, nf, HCUBE_MPI_FAULTY, NULL))
			MPI_Abort(MPI_COMM_WORLD, 1);
		start.n = 0;
		reserve(&start, q.n);
		memcpy(start.u, q.u, q.n * sizeof(*q.u));
		start.n = q.n;
		for (pol = 0; pol < sizeof(policies) / sizeof(*policies); pol++) {
			struct hcube_mpi_report r = { 0 };
			uint64_t top, gathered = 0;
			double ib, ia, t0, secs, su, sb, sm, best;
			int err = 0;

			q.n = 0;
			reserve(&q, start.n);
			memcpy(q.u, start.u, start.n * sizeof(*q.u));
			q.n = start.n;
			moved_bytes = moved_units = 0;
			ib = imbalance(weight(&q, &top), mine_healthy);
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			if (pol == 0)
				gathered = greedy(healthy);
			else
				err = hcube_mpi_balance(h, policies[pol], &r);
			secs = maxof(MPI_Wtime() - t0);
			if (err == HCUBE_MPI_E_NEED_MCWA)
				continue;	/* cwa with faults or absent labels */
			if (err) {
				if (!rank)
					fprintf(stderr, "hcube-mpi-oncall: %s\n", hcube_mpi_errmsg(h));
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
			ia = imbalance(weight(&q, &top), mine_healthy);
			best = bound(mine_healthy);
			su = sum((double)moved_units);
			sb = sum((double)moved_bytes);
			sm = sum((double)r.msgs_sent);
			if (!rank)
				printf("%d,%d,%d,%s,%.4f,%.4f,%.4f,%u,%d,%.0f,%.0f,%.0f,%.4f,%llu,%u,%.4f\n",
				       size, nfaults, run, policies[pol], ib, ia,
				       pol ? r.policy_weight_imbalance : ia, r.settle_rounds,
				       pol ? r.settled : 1, su, sb, sm, secs,
				       (unsigned long long)gathered, r.collectives, best);
		}
	}
	hcube_mpi_close(h);
	free(q.u);
	free(q.chosen);
	free(q.order);
	free(start.u);
	free(start.chosen);
	free(start.order);
	MPI_Finalize();
	return 0;
}
