// SPDX-License-Identifier: GPL-2.0
/*
 * What the library does with a program that misuses it, from the public
 * header only; run.sh runs each mode on 2 ranks and checks the outcome.
 *
 *   mpi-state     hcube_mpi_open() before MPI_Init() and after
 *                 MPI_Finalize(): HCUBE_MPI_E_MPI, no handle; prints
 *                 "ok" and exits 0 when so. A handle opened and used
 *                 before MPI_Finalize(): every call after it returns
 *                 HCUBE_MPI_E_MPI (close too, having freed it), printed
 *                 as "after finalize".
 * The others must abort the job (exit status not 0) with the library's
 * message on stderr, never lose a unit silently: rank 1 holds 6 units of
 * 8 bytes, rank 0 none, and they balance with dem (by weight: mcwa).
 *   query-takes   pack() takes the units when asked their size;
 *   short-write   pack() writes fewer bytes than it announced;
 *   unpack-fails  unpack() returns -1;
 *   unpack-drops  unpack() says 0 but keeps one unit fewer;
 *   keeps-units   by weight, rank 1 is marked faulty and pack_weight()
 *                 never takes its last unit, even when asked for all.
 */
#include <stdio.h>
#include <string.h>
#include <hcube_mpi.h>

static const char *mode = "";
static struct queue { uint64_t unit[16]; uint32_t n; } q;

static uint32_t count(void *p)
{
	return ((struct queue *)p)->n;
}

static ssize_t pack(void *p, uint32_t n, void *buf, size_t cap)
{
	struct queue *s = p;
	size_t need = n * 8;

	if (need > cap) {
		if (!strcmp(mode, "query-takes"))
			s->n -= n;
		return (ssize_t)need;
	}
	s->n -= n;
	memcpy(buf, s->unit + s->n, need);
	return !strcmp(mode, "short-write") ? (ssize_t)need - 8 : (ssize_t)need;
}

static int unpack(void *p, uint32_t n, const void *buf, size_t len)
{
	struct queue *s = p;

	if (!strcmp(mode, "unpack-fails") || len != n * 8 || s->n + n > 16)
		return -1;
	memcpy(s->unit + s->n, buf, len);
	s->n += n - !strcmp(mode, "unpack-drops");
	return 0;
}

static uint64_t weight(void *p, uint64_t *heaviest)
{
	*heaviest = ((struct queue *)p)->n ? 1 : 0;
	return ((struct queue *)p)->n;
}

/* Never the last unit. */
static ssize_t pack_weight(void *p, struct hcube_mpi_take *t, void *buf, size_t cap)
{
	struct queue *s = p;
	uint64_t n = t->weight < s->n ? t->weight : s->n - 1;

	t->units = (uint32_t)n;
	t->taken = n;
	if (n * 8 > cap)
		return (ssize_t)(n * 8);
	s->n -= (uint32_t)n;
	memcpy(buf, s->unit + s->n, n * 8);
	return (ssize_t)(n * 8);
}

int main(int argc, char **argv)
{
	static const struct hcube_mpi_ops ops = {
		.count = count, .pack = pack, .unpack = unpack,
	}, ops_w = {
		.count = count, .pack = pack, .unpack = unpack,
		.weight = weight, .pack_weight = pack_weight,
	};
	struct hcube_mpi *h = (void *)1, *h2 = NULL;
	int rank, err, one = 1;

	mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "mpi-state")) {
		err = hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h);
		if (err != HCUBE_MPI_E_MPI || h)
			return 1;
		MPI_Init(&argc, &argv);
		if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h) || hcube_mpi_close(h))
			return 1;
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		/* a handle used, then left open across MPI_Finalize() */
		if (hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h2) ||
		    hcube_mpi_balance(h2, "dem", NULL))
			return 1;
		MPI_Finalize();
		if (hcube_mpi_balance(h2, "dem", NULL) == HCUBE_MPI_E_MPI &&
		    hcube_mpi_plan(h2, "dem", NULL) == HCUBE_MPI_E_MPI &&
		    hcube_mpi_mark(h2, &one, 1, HCUBE_MPI_FAULTY, NULL) == HCUBE_MPI_E_MPI &&
		    hcube_mpi_set_tolerance(h2, 1.5) == HCUBE_MPI_E_MPI &&
		    hcube_mpi_is_faulty(h2, 0) == -HCUBE_MPI_E_MPI &&
		    hcube_mpi_close(h2) == HCUBE_MPI_E_MPI)
			printf("rank %d after finalize: every call %s\n", rank,
			       hcube_mpi_strerror(HCUBE_MPI_E_MPI));
		h = (void *)1;
		err = hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h);
		if (err != HCUBE_MPI_E_MPI || h)
			return 1;
		printf("rank %d ok: %s\n", rank, hcube_mpi_strerror(err));
		return 0;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1)
		for (q.n = 0; q.n < 6; q.n++)
			q.unit[q.n] = 100 + q.n;
	if (!strcmp(mode, "keeps-units")) {
		err = hcube_mpi_open(MPI_COMM_WORLD, &ops_w, &q, &h);
		if (!err)
			err = hcube_mpi_mark(h, &one, 1, HCUBE_MPI_FAULTY, NULL);
	} else {
		err = hcube_mpi_open(MPI_COMM_WORLD, &ops, &q, &h);
		if (!err)
			err = hcube_mpi_balance(h, "dem", NULL);
	}
	printf("rank %d: %s, %u units\n", rank, hcube_mpi_strerror(err), q.n);
	hcube_mpi_close(h);
	MPI_Finalize();
	return 0;
}
