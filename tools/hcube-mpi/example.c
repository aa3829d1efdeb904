// SPDX-License-Identifier: GPL-2.0
/* libhcube-mpi example: rank r has 10r numbered units, rank 1 turns faulty, all balance. */
#include <stdio.h>
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

static void show(int rank, const char *when)
{
	long sum = 0;

	for (uint32_t i = 0; i < q.n; i++)
		sum += q.unit[i];
	printf("rank %d %s: %u units, sum %ld\n", rank, when, q.n, sum);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = { count, pack, unpack };
	struct hcube_mpi *h;
	int rank, faulty = 1;	/* run with 2 or more ranks */

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (q.n = 0; q.n < 10U * rank; q.n++)
		q.unit[q.n] = 1000 * rank + q.n;
	show(rank, "before");
	if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h) ||
	    hcube_mpi_mark(h, &faulty, 1, HCUBE_MPI_FAULTY, NULL) ||
	    hcube_mpi_balance(h, argc > 1 ? argv[1] : "mcwa", NULL))
		MPI_Abort(MPI_COMM_WORLD, fprintf(stderr, "%s\n", hcube_mpi_errmsg(h)));
	show(rank, hcube_mpi_is_faulty(h, rank) ? "after (faulty)" : "after");
	hcube_mpi_close(h);
	return MPI_Finalize();
}
