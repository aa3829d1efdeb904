// SPDX-License-Identifier: GPL-2.0
/*
 * The settle's exchange, from the public header only, on 4 ranks by
 * weight: rank 0 holds two units of weight 100, ranks 1, 2 and 3 150, 150
 * and 100 units of weight 1 (600 in all, 150 a rank). DEM then leaves
 * rank 0 with its two heavy units, 50 or more above every other rank: no
 * single move of one of them lowers the maximum (the lightest rank would
 * end heavier), so a settle of single moves stops at 200 (1.333 max/avg)
 * where the best split is 150 each. Exchanging a heavy unit for light
 * ones reaches it. Checked: every unit arrives once (the count and the
 * weight of each kind), the maximum after at most 153 (1.02), and the
 * report's imbalance is the units'. Then the same with a pack_weight()
 * that offers heavy units first: the exchange must still never raise the
 * maximum. Prints TAP from rank 0.
 *
 * usage: heavy   (mpirun -np 4)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hcube_mpi.h>

#define MAXU	1024

static struct queue {
	uint32_t w[MAXU];
	uint32_t n;
	bool chosen[MAXU];
	bool heavy_first;
} q;

static uint32_t count(void *p)
{
	return ((struct queue *)p)->n;
}

static uint64_t weight(void *p, uint64_t *heaviest)
{
	struct queue *s = p;
	uint64_t t = 0;
	uint32_t i;

	*heaviest = 0;
	for (i = 0; i < s->n; i++) {
		t += s->w[i];
		if (s->w[i] > *heaviest)
			*heaviest = s->w[i];
	}
	return t;
}

/* Write the chosen units (4 bytes each) and remove them, or say their bytes. */
static ssize_t take(struct queue *s, void *buf, size_t cap)
{
	uint32_t i, k = 0, nc = 0;
	unsigned char *o = buf;

	for (i = 0; i < s->n; i++)
		nc += s->chosen[i];
	if (4 * (size_t)nc > cap || !nc)
		return 4 * (ssize_t)nc;
	for (i = 0; i < s->n; i++) {
		if (s->chosen[i]) {
			memcpy(o, &s->w[i], 4);
			o += 4;
		} else {
			s->w[k++] = s->w[i];
		}
	}
	s->n = k;
	return 4 * (ssize_t)nc;
}

static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = p;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		s->chosen[i] = i >= s->n - n;
	return take(s, buf, cap);
}

/* The library's rule, in queue order, or the heavy units first. */
static ssize_t pack_weight(void *p, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	struct queue *s = p;
	uint64_t taken = 0;
	uint32_t i, j, n = 0;

	for (i = 0; i < s->n; i++)
		s->chosen[i] = false;
	for (j = 0; j < 2 * s->n && taken <= t->weight; j++) {
		uint64_t missing = t->weight - taken;

		i = j % s->n;
		/* heavy_first: the units above 1 in a first pass, the rest after */
		if (s->chosen[i] || (s->heavy_first && (j < s->n) != (s->w[i] > 1)))
			continue;
		if (!s->heavy_first && j >= s->n)
			break;
		if (missing > UINT64_MAX / 2 || s->w[i] <= 2 * missing) {
			s->chosen[i] = true;
			taken += s->w[i];
			n++;
		}
	}
	t->units = n;
	t->taken = taken;
	return take(s, buf, cap);
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = p;

	if (len != 4 * (size_t)n || s->n + n > MAXU)
		return -1;
	memcpy(s->w + s->n, buf, len);
	s->n += n;
	return 0;
}

static int tests, fails;

static void check(int rank, bool cond, const char *what)
{
	tests++;
	fails += !cond;
	if (!rank)
		printf("%s %d - %s\n", cond ? "ok" : "not ok", tests, what);
}

/* One balance from the start above; @heavy_first: pack_weight()'s order. */
static void run(struct hcube_mpi *h, int rank, bool heavy_first)
{
	static const uint32_t light[] = { 0, 150, 150, 100 };
	uint64_t top, mine[3], all[3], max;
	struct hcube_mpi_report r;
	char what[200];
	uint32_t i;
	int err;

	q.n = 0;
	q.heavy_first = heavy_first;
	if (rank == 0) {
		q.w[q.n++] = 100;
		q.w[q.n++] = 100;
	}
	for (i = 0; i < light[rank]; i++)
		q.w[q.n++] = 1;
	err = hcube_mpi_balance(h, "dem", &r);
	mine[0] = weight(&q, &top);
	mine[1] = 0;
	for (i = 0; i < q.n; i++)
		mine[1] += q.w[i] == 100;
	mine[2] = q.n;
	MPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(mine, &max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	snprintf(what, sizeof(what), "%s: dem by weight: every unit once (%llu units, %llu heavy, weight %llu)",
		 heavy_first ? "heavy first" : "queue order", (unsigned long long)all[2],
		 (unsigned long long)all[1], (unsigned long long)all[0]);
	check(rank, !err && all[0] == 600 && all[1] == 2 && all[2] == 402, what);
	snprintf(what, sizeof(what), "%s: the busiest rank holds %llu, at most 153 (1.02 of 150; 200 without the exchange), settle %s after %u rounds",
		 heavy_first ? "heavy first" : "queue order", (unsigned long long)max,
		 r.settled ? "ended" : "stopped", r.settle_rounds);
	check(rank, max <= 153 && r.settled, what);
	snprintf(what, sizeof(what), "%s: the report's imbalance by weight is the units' (%.4f)",
		 heavy_first ? "heavy first" : "queue order", r.weight_imbalance_after);
	check(rank, r.weight_imbalance_after > max / 150.0 - 1e-9 &&
		    r.weight_imbalance_after < max / 150.0 + 1e-9, what);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = {
		.count = count, .pack = pack, .unpack = unpack,
		.weight = weight, .pack_weight = pack_weight,
	};
	struct hcube_mpi *h;
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4 || hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h)) {
		if (!rank)
			printf("1..0 # SKIP needs 4 ranks\n");
		MPI_Finalize();
		return size == 4;
	}
	if (!rank)
		printf("TAP version 13\n");
	run(h, rank, false);
	run(h, rank, true);
	if (!rank)
		printf("1..%d\n", tests);
	hcube_mpi_close(h);
	MPI_Finalize();
	return fails != 0;
}
