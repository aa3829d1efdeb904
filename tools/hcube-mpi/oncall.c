// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-mpi-oncall: what balance one call of each policy reaches, by
 * count and by weight, from the same start (Documentation/mpi.md).
 * Written from the public header only.
 *
 * A run: every rank draws 0..2M units (uniform), each of a cost drawn as
 * a task farm's (mostly 1..20 work units, one in eight 200..1000); F
 * random ranks other than 0 are marked faulty (their units leave at
 * once). Then, for each policy, from that same start: one call by count
 * and one by weight. Measured on the units themselves: max / avg over the
 * healthy ranks, by count and by weight, before and after; from the
 * report: the weight imbalance the policy left before the settle, the
 * settle's rounds and whether it ended within the bound, the units sent
 * and the messages, summed over the ranks.
 *
 * Output: CSV on rank 0's stdout, one row per run, policy and mode.
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
	uint32_t cost, pad;
};

struct queue {
	struct unit *u;
	uint32_t n, cap;
	bool *chosen;
};

static struct queue q, start;
static int rank, size;

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
	if (!s->u || !s->chosen)
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

/* Write the chosen units, remove them; or say how many bytes they need. */
static ssize_t take_chosen(struct queue *s, void *buf, size_t cap)
{
	uint32_t i, k = 0, n = 0;
	struct unit *out = buf;

	for (i = 0; i < s->n; i++)
		n += s->chosen[i];
	if (n * sizeof(struct unit) > cap)
		return (ssize_t)(n * sizeof(struct unit));
	for (i = 0; i < s->n; i++) {
		if (s->chosen[i])
			*out++ = s->u[i];
		else
			s->u[k++] = s->u[i];
	}
	s->n = k;
	return (ssize_t)(n * sizeof(struct unit));
}

static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = p;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		s->chosen[i] = i >= s->n - n;
	return take_chosen(s, buf, cap);
}

/* The library's rule, from the tail. */
static ssize_t pack_weight(void *p, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	struct queue *s = p;
	uint64_t taken = 0;
	uint32_t i, n = 0;

	for (i = s->n; i-- > 0;) {
		uint64_t missing = t->weight - taken;

		s->chosen[i] = taken <= t->weight &&
			       (missing > UINT64_MAX / 2 || s->u[i].cost <= 2 * missing);
		taken += s->chosen[i] ? s->u[i].cost : 0;
		n += s->chosen[i];
	}
	t->units = n;
	t->taken = taken;
	return take_chosen(s, buf, cap);
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = p;

	if (len != n * sizeof(struct unit))
		return -1;
	reserve(s, s->n + n);
	memcpy(s->u + s->n, buf, len);
	s->n += n;
	return 0;
}

/* max / avg over the healthy ranks of this rank's @v, as the report's. */
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

static void usage(void)
{
	if (!rank)
		fprintf(stderr, "usage: hcube-mpi-oncall [--runs N] [--faults F] [--units M] [--seed S]\n");
	MPI_Finalize();
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops by_count = {
		.count = count, .pack = pack, .unpack = unpack,
	}, by_weight = {
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
		"mcwa", "cwa", "dem", "sbn", "optimal", "auto", "rid", "sid",
		"sbn-cube", "sbn-heur", "pebble",
	};
	int runs = 10, nfaults = 0, units = 40, run, c, mode, faulty[MAXP];
	uint64_t seed = 20240501;
	struct hcube_mpi *h[2];
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
	if (hcube_mpi_open(MPI_COMM_WORLD, &by_count, &q, &h[0]) ||
	    hcube_mpi_open(MPI_COMM_WORLD, &by_weight, &q, &h[1]))
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (!rank)
		printf("procs,faults,run,policy,mode,count_before,weight_before,count_after,"
		       "weight_after,weight_after_policy,settle_rounds,settled,units_sent,messages\n");
	for (run = 0; run < runs; run++) {
		uint64_t x = seed ^ (uint64_t)run << 20 ^ (uint64_t)size << 40, xr;
		int nf = 0, i, all[MAXP];
		bool mine_healthy;

		/* the faulty ranks: the same draw on every rank, never rank 0 */
		memset(all, 0, sizeof(all));
		while (nf < nfaults) {
			int v = 1 + (int)(rnd(&x) % (uint64_t)(size - 1));

			if (!all[v]) {
				all[v] = 1;
				faulty[nf++] = v;
			}
		}
		mine_healthy = !all[rank];
		xr = x ^ (uint64_t)rank << 32;
		start.n = 0;
		reserve(&start, 2 * (uint32_t)units + 1);
		for (i = (int)(rnd(&xr) % (uint64_t)(2 * units + 1)); i > 0; i--) {
			uint64_t r = rnd(&xr);

			start.u[start.n++] = (struct unit){
				.id = (uint64_t)rank << 40 | (uint64_t)run << 20 | start.n,
				.cost = r % 8 ? 1 + (uint32_t)(r >> 8) % 20 :
						200 + (uint32_t)(r >> 8) % 801,
			};
		}
		for (i = 0; i < size; i++)
			all[i] = i;
		for (pol = 0; pol < sizeof(policies) / sizeof(*policies); pol++) {
			for (mode = 0; mode < 2; mode++) {
				struct hcube_mpi_report r;
				uint64_t top, wb, cb;
				double ib[2], ia[2], sent, msgs;
				int err;

				q.n = 0;
				reserve(&q, start.n);
				memcpy(q.u, start.u, start.n * sizeof(*q.u));
				q.n = start.n;
				if (hcube_mpi_mark(h[mode], all, size, HCUBE_MPI_HEALTHY, NULL) ||
				    hcube_mpi_mark(h[mode], faulty, nf, HCUBE_MPI_FAULTY, NULL))
					MPI_Abort(MPI_COMM_WORLD, 1);
				cb = q.n;
				wb = weight(&q, &top);
				ib[0] = imbalance(cb, mine_healthy);
				ib[1] = imbalance(wb, mine_healthy);
				err = hcube_mpi_balance(h[mode], policies[pol], &r);
				if (err == HCUBE_MPI_E_NEED_MCWA)
					continue;	/* cwa with faults or absent labels */
				if (err) {
					if (!rank)
						fprintf(stderr, "hcube-mpi-oncall: %s\n",
							hcube_mpi_errmsg(h[mode]));
					MPI_Abort(MPI_COMM_WORLD, 1);
				}
				ia[0] = imbalance(q.n, mine_healthy);
				ia[1] = imbalance(weight(&q, &top), mine_healthy);
				sent = sum((double)r.units_sent);
				msgs = sum((double)r.msgs_sent);
				if (!rank)
					printf("%d,%d,%d,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%u,%d,%.0f,%.0f\n",
					       size, nfaults, run, policies[pol],
					       mode ? "weight" : "count", ib[0], ib[1], ia[0],
					       ia[1], mode ? r.policy_weight_imbalance : ia[1],
					       r.settle_rounds, r.settled, sent, msgs);
			}
		}
	}
	hcube_mpi_close(h[0]);
	hcube_mpi_close(h[1]);
	free(q.u);
	free(q.chosen);
	free(start.u);
	free(start.chosen);
	MPI_Finalize();
	return 0;
}
