/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libhcube-mpi: the hypercube balancing algorithms of the hcube project
 * (paper 000: CWA, MCWA, DEM; paper 003: SBN) run as real message passing
 * between the ranks of an MPI communicator. The ranks are the vertices of
 * a hypercube: rank r is label r; with P ranks not a power of two the
 * missing labels are absent vertices, as in the kernel module.
 *
 * The application keeps its work units; the library moves them through
 * struct hcube_mpi_ops. Every function taking a handle is collective: all
 * ranks of the communicator call it, with the same arguments, in the same
 * order. An error is agreed on: every rank returns the same code and
 * hcube_mpi_errmsg() gives the same text, and nothing has changed.
 *
 * Documentation/mpi.md describes the protocols and their message counts.
 */
#ifndef HCUBE_MPI_H
#define HCUBE_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the library reaches the application's queue of work units. */
struct hcube_mpi_ops {
	/* Units in the queue now. */
	uint32_t (*count)(void *queue);
	/*
	 * Take @n units off the queue (the application chooses which) and
	 * write them into @buf, @cap bytes. Returns the bytes written; if
	 * they do not fit, returns the bytes needed and leaves the queue
	 * unchanged. The library asks first with @cap 0 and @buf NULL, then
	 * passes exactly the room returned. Negative: an error.
	 */
	ssize_t (*pack)(void *queue, uint32_t n, void *buf, size_t cap);
	/* Append the @n units that pack() wrote into @buf (@len bytes). 0 or negative. */
	int (*unpack)(void *queue, uint32_t n, const void *buf, size_t len);
};

struct hcube_mpi;

enum hcube_mpi_err {
	HCUBE_MPI_OK = 0,
	HCUBE_MPI_E_ARG,	/* a NULL or malformed argument */
	HCUBE_MPI_E_SIZE,	/* more ranks than the library handles (1024) */
	HCUBE_MPI_E_RANK,	/* a rank id out of range, or listed twice */
	HCUBE_MPI_E_POLICY,	/* unknown policy name */
	HCUBE_MPI_E_ALL_FAULTY,	/* the change would leave no healthy rank */
	HCUBE_MPI_E_NEED_MCWA,	/* cwa on ranks with a faulty or absent vertex */
	HCUBE_MPI_E_DISAGREE,	/* the ranks passed different arguments */
	HCUBE_MPI_E_UNITS,	/* too many units in all (2^31 - 1 at most) */
	HCUBE_MPI_E_NOMEM,
	HCUBE_MPI_E_MPI,	/* an MPI call failed */
	HCUBE_MPI_E_INTERNAL,	/* a check of the library's own failed: a bug */
	HCUBE_MPI_E_NERRORS,
};

enum hcube_mpi_mark_as {
	HCUBE_MPI_HEALTHY = 0,
	HCUBE_MPI_FAULTY = 1,
};

/* One transfer a rank carried out: @count units from @from to @to. */
struct hcube_mpi_xfer {
	uint32_t step;		/* the step of the core's plan it belongs to */
	uint32_t from, to;
	uint32_t count;
};

/*
 * What one call did. The first block is the same on every rank, the rest
 * is this rank's own. The transfer lists stay valid until the next call
 * on the handle.
 */
struct hcube_mpi_report {
	int policy;		/* enum hcube_policy (uapi/linux/hcube.h) */
	int applied;		/* auto: the policy whose plan ran */
	int distributed;	/* 1: the ranks ran the algorithm; 0: gathered */
	uint32_t healthy;	/* healthy ranks */
	uint64_t total;		/* units on the healthy ranks */
	uint32_t steps;		/* synchronous steps, as the paper counts them */

	uint32_t before, after;	/* units in this rank's queue */
	uint32_t evacuated;	/* units it sent away because it is faulty */
	uint64_t units_sent;	/* units it sent, each hop counted */
	uint64_t units_recv;
	uint32_t msgs_sent;	/* point-to-point messages it sent */
	uint32_t msgs_recv;
	uint32_t unit_msgs_sent; /* of msgs_sent, those carrying units */
	uint32_t relayed;	/* of msgs_sent, forwarded for another rank */
	uint32_t collectives;	/* MPI collective calls it took part in */
	uint64_t bytes_sent;
	double seconds;		/* wall time of the call on this rank */
	const struct hcube_mpi_xfer *xfers;	/* transfers it sent, in order */
	uint32_t nxfers;
	const struct hcube_mpi_xfer *evacs;	/* its evacuation sends (step 0) */
	uint32_t nevacs;
};

/*
 * Open on @comm (duplicated; any size up to 1024 ranks); every rank
 * starts healthy. @queue is passed to @ops. *@out is set on success.
 */
int hcube_mpi_open(MPI_Comm comm, const struct hcube_mpi_ops *ops, void *queue,
		   struct hcube_mpi **out);
int hcube_mpi_close(struct hcube_mpi *h);

/*
 * Mark the @n ranks in @ranks faulty or healthy (@as). A rank that
 * becomes faulty sends its units to the nearest healthy ranks at once
 * (the module's evacuation: nearest first, least loaded first) and
 * receives none from then on. @r may be NULL.
 */
int hcube_mpi_mark(struct hcube_mpi *h, const int *ranks, int n, int as,
		   struct hcube_mpi_report *r);
int hcube_mpi_is_faulty(const struct hcube_mpi *h, int rank);

/*
 * Balance with @policy (a name: mcwa, dem, cwa, sbn, optimal, auto, rid,
 * sid, sbn-cube, sbn-heur, pebble). Units a faulty rank holds are
 * evacuated first. mcwa, cwa, dem and sbn run distributed; the others are
 * planned by the lowest healthy rank on the gathered loads and the plan
 * is broadcast. @r may be NULL.
 */
int hcube_mpi_balance(struct hcube_mpi *h, const char *policy,
		      struct hcube_mpi_report *r);

const char *hcube_mpi_strerror(int err);
/* The last error's text on this handle, the same on every rank. */
const char *hcube_mpi_errmsg(const struct hcube_mpi *h);

#ifdef __cplusplus
}
#endif

#endif /* HCUBE_MPI_H */
