// SPDX-License-Identifier: GPL-2.0
/* libhcube-mpi example: rank r has 10r numbered units, rank 1 turns faulty, all balance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hcube_mpi.h>

static struct queue { int unit[100000]; uint32_t n; } q;	/* this rank's work */
static uint32_t count(void *queue) { return ((struct queue *)queue)->n; }

static ssize_t pack(void *queue, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = queue;

	if (n * sizeof(int) <= cap) {	/* else only say how many bytes */
		s->n -= n;
		memcpy(buf, s->unit + s->n, n * sizeof(int));
	}
	return n * sizeof(int);
}

static int unpack(void *queue, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = queue;

	if (len != n * sizeof(int) || s->n + n > 100000)
		return -1;
	memcpy(s->unit + s->n, buf, len);
	s->n += n;
	return 0;
}

/* Rank 0 prints every rank's units and their sum, in rank order. */
static void show(struct hcube_mpi *h, int rank, int size, const char *when)
{
	long mine[2] = { q.n, 0 }, *all = malloc(2 * sizeof(long) * size);

	for (uint32_t i = 0; i < q.n; i++)
		mine[1] += q.unit[i];
	MPI_Gather(mine, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
	for (int r = 0; r < size && rank == 0; r++)
		printf("rank %d %s%s: %ld units, sum %ld\n", r, when,
		       h && hcube_mpi_is_faulty(h, r) == 1 ? " (faulty)" : "",
		       all[2 * r], all[2 * r + 1]);
	free(all);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = { .count = count, .pack = pack, .unpack = unpack };
	struct hcube_mpi *h = NULL;
	int rank, size, faulty = 1, err;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (q.n = 0; q.n < 10U * rank; q.n++)
		q.unit[q.n] = 1000 * rank + q.n;
	show(NULL, rank, size, "before");
	if ((err = hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h)) ||
	    (size > 1 && (err = hcube_mpi_mark(h, &faulty, 1, HCUBE_MPI_FAULTY, NULL))) ||
	    (err = hcube_mpi_balance(h, argc > 1 ? argv[1] : "mcwa", NULL))) {
		/* the same error on every rank: all of them exit with 1 */
		if (rank == 0)
			fprintf(stderr, "%s\n", h ? hcube_mpi_errmsg(h) : hcube_mpi_strerror(err));
		hcube_mpi_close(h);
		MPI_Finalize();
		return 1;
	}
	show(h, rank, size, "after");
	hcube_mpi_close(h);
	MPI_Finalize();
	return 0;
}
