// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube-mpi: what every part of the library uses, below the messages
 * and the algorithms: errors, allocation, a rank's health.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "hm.h"

/* Record this rank's error and its text (agreed on later). */
int hm_fail(struct hcube_mpi *h, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * A failure in the middle of a protocol (the application's pack() or
 * unpack(), memory, a broken invariant) leaves other ranks waiting for
 * messages that will not come: the job is aborted, as MPI itself does on
 * a communication error.
 */
void hm_fatal(struct hcube_mpi *h, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libhcube-mpi: rank %d: ", h->rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	MPI_Abort(h->comm, 70);
	abort();
}

void *hm_alloc(struct hcube_mpi *h, size_t bytes)
{
	void *p = calloc(1, bytes ? bytes : 1);

	if (!p)
		hm_fatal(h, "out of memory");
	return p;
}

bool hm_healthy(const struct hcube_mpi *h, u32 v)
{
	return v < h->nv && hcube_usable(h->state[v]);
}
