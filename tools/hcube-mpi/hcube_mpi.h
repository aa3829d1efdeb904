/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libhcube-mpi: the hypercube balancing algorithms of the hcube project
 * (CWA, MCWA and DEM of K. Nam, J. Seo, S. Lee and J. Kim, "Synchronous
 * Load Balancing in Hypercube Multicomputers with Faulty Nodes", Journal of
 * Parallel and Distributed Computing 58, 1999; SBN of S. K. Das, D. J.
 * Harvey and R. Biswas, "Adaptive Load-Balancing Algorithms using Symmetric
 * Broadcast Networks", Journal of Parallel and Distributed Computing, 2002)
 * run as real message passing between the ranks of an MPI communicator. The
 * ranks are the vertices of a hypercube: rank r is label r; with P ranks
 * not a power of two the missing labels are absent vertices, as in the
 * kernel module.
 *
 * The application keeps its work units; the library moves them through
 * struct hcube_mpi_ops, by count or, with a weight callback, by weight.
 * Every function taking a handle is collective: all ranks of the
 * communicator call it, with the same arguments, in the same order. An
 * error is agreed on: every rank returns the same code and
 * hcube_mpi_errmsg() gives the same text, and nothing has changed.
 *
 * Documentation/mpi.md describes the protocols and their message counts.
 * Link with `pkg-config --cflags --libs hcube-mpi`; the library exports
 * the hcube_mpi_* names only.
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

#if defined(__GNUC__)
#define HCUBE_MPI_API __attribute__((visibility("default")))
#else
#define HCUBE_MPI_API
#endif

/*
 * A pack_weight() request (@to, @weight, @bytes_budget) and what it took
 * (@units, @taken). The library allocates it and only hands it to
 * pack_weight(), so it may grow at its end: an application built against
 * an older header never reads past the fields it knows.
 */
struct hcube_mpi_take {
	int to;			/* the rank the units go to */
	uint64_t weight;	/* the weight asked for; UINT64_MAX: every unit */
	uint32_t units;		/* set by pack_weight(): the units it takes */
	uint64_t taken;		/* set by pack_weight(): their weight */
	/*
	 * 0: bytes do not matter (no sizer set, or every unit goes). Else,
	 * with hcube_mpi_set_sizer(): what @weight costs at this queue's
	 * average bytes per weight. Keep the rule all the same, and among
	 * the units it allows prefer those of fewest bytes per weight (the
	 * budget is a hint, never a reason to take less weight).
	 */
	uint64_t bytes_budget;
};

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

	/*
	 * Optional, both or neither: balance by weight (integer work units
	 * per unit) instead of by count. weight() returns the queue's total
	 * weight and sets *@heaviest to its heaviest unit's (0 when empty).
	 */
	uint64_t (*weight)(void *queue, uint64_t *heaviest);
	/*
	 * As pack(), by weight: choose whole units for rank @t->to whose
	 * weight comes as close to @t->weight as you can, set @t->units and
	 * @t->taken to their number and weight, and return their bytes.
	 * Asked first with @buf NULL and @cap 0 (choose, take nothing), then
	 * with that room (take and write the same units); the library may ask
	 * for the size several times and take none of them (an exchange that
	 * does not fit: choose again each time). The rule that
	 * keeps the library's bound (Documentation/mpi.md): go through the
	 * units in any order and take one while its weight is at most twice
	 * what is still missing; @t->weight at or above the queue's weight:
	 * every unit. Taking none is allowed. Negative: an error. The units chosen
	 * decide the bytes moved: with hcube_mpi_set_sizer() the library
	 * asks each time twice, with @t->bytes_budget set and at 0, and
	 * sends the choice nearer @t->weight, the fewer bytes between two
	 * as near (hcube_mpi_payload_sent()). Without it, to move few bytes
	 * go through the units by weight per byte, most first.
	 */
	ssize_t (*pack_weight)(void *queue, struct hcube_mpi_take *t, void *buf,
			       size_t cap);
};

struct hcube_mpi;

/* Every value has a text: hcube_mpi_strerror(). */
enum hcube_mpi_err {
	HCUBE_MPI_OK = 0,
	HCUBE_MPI_E_ARG,	/* a NULL or malformed argument */
	HCUBE_MPI_E_SIZE,	/* more ranks than the library handles (1024) */
	HCUBE_MPI_E_RANK,	/* a rank id out of range, or listed twice */
	HCUBE_MPI_E_POLICY,	/* unknown policy name */
	HCUBE_MPI_E_ALL_FAULTY,	/* the change would leave no healthy rank */
	HCUBE_MPI_E_NEED_MCWA,	/* cwa on ranks with a faulty or absent vertex */
	HCUBE_MPI_E_DISAGREE,	/* the ranks passed different arguments */
	HCUBE_MPI_E_UNITS,	/* too many units (2^31 - 1) or too much weight (2^62) */
	HCUBE_MPI_E_NOMEM,
	HCUBE_MPI_E_MPI,	/* MPI is not initialized, or already finalized */
	HCUBE_MPI_E_INTERNAL,	/* a check of the library's own failed: a bug */
	HCUBE_MPI_E_COMM,	/* an intercommunicator */
	HCUBE_MPI_E_NERRORS,
};

enum hcube_mpi_mark_as {
	HCUBE_MPI_HEALTHY = 0,
	HCUBE_MPI_FAULTY = 1,
};

/*
 * One transfer: @count units of weight @weight from @from to @to (by
 * count, @weight is @count). In a plan by weight @count is 0 and @weight
 * the weight planned.
 */
struct hcube_mpi_xfer {
	uint32_t step;		/* the step of the core's plan it belongs to */
	uint32_t from, to;
	uint32_t count;
	uint64_t weight;
};

/*
 * What one call did. The first block is the same on every rank, the rest
 * is this rank's own. The transfer lists stay valid until the next call
 * on the handle. Imbalance is max / avg of the ranks' loads, avg being
 * the total over the healthy ranks (a faulty rank holding units counts in
 * max), 1 with nothing to balance; by weight it is 1 unit, 1 weight when
 * there is no weight callback.
 */
struct hcube_mpi_report {
	int policy;		/* enum hcube_policy (uapi/linux/hcube.h) */
	int applied;		/* auto: the policy whose plan ran */
	int distributed;	/* 1: the ranks ran the algorithm; 0: gathered */
	int by_weight;		/* 1: balanced (or planned) by weight */
	int member;		/* 0: this rank's handle is on MPI_COMM_NULL */
	int skipped;		/* 1: within the tolerance, nothing moved */
	uint32_t healthy;	/* healthy ranks */
	uint64_t total;		/* units in all */
	uint64_t total_weight;	/* their weight */
	uint64_t heaviest;	/* the heaviest unit's weight, after the call */
	uint32_t steps;		/* synchronous steps, as the paper counts them */
	double imbalance_before, imbalance_after;	/* by count */
	double weight_imbalance_before, weight_imbalance_after;
	double policy_weight_imbalance;	/* by weight: after the policy, before the settle */
	uint32_t settle_rounds;	/* the settle's rounds that moved units */
	int settled;		/* the settle reached its stopping rule */

	uint32_t before, after;	/* units in this rank's queue */
	uint64_t weight_before, weight_after;
	uint32_t evacuated;	/* units it sent away because it is faulty */
	uint64_t units_sent;	/* units it sent, each hop counted */
	uint64_t units_recv;
	uint32_t msgs_sent;	/* point-to-point messages it sent */
	uint32_t msgs_recv;
	uint32_t unit_msgs_sent; /* of msgs_sent, those carrying units */
	uint32_t relayed;	/* of msgs_sent, forwarded for another rank */
	uint32_t collectives;	/* MPI collective calls it took part in */
	uint64_t bytes_sent;	/* the bytes of its messages, units and headers */
	double seconds;		/* wall time of the call on this rank */
	const struct hcube_mpi_xfer *xfers;	/* transfers it sent, in order */
	uint32_t nxfers;
	const struct hcube_mpi_xfer *evacs;	/* its evacuation sends (step 0) */
	uint32_t nevacs;
	const struct hcube_mpi_xfer *imports;	/* transfers it received */
	uint32_t nimports;
};

/*
 * Open on @comm (duplicated; any size up to 1024 ranks); every rank
 * starts healthy. @queue is passed to @ops. *@out is set on success. On
 * MPI_COMM_NULL the rank takes no part: it gets a handle whose calls do
 * nothing and return HCUBE_MPI_OK (report.member 0). An intercommunicator
 * is refused (HCUBE_MPI_E_COMM).
 */
HCUBE_MPI_API int hcube_mpi_open(MPI_Comm comm, const struct hcube_mpi_ops *ops,
				 void *queue, struct hcube_mpi **out);
/*
 * Free the handle. After MPI_Finalize() it frees what needs no MPI and
 * returns HCUBE_MPI_E_MPI, as every other call on a handle then does.
 */
HCUBE_MPI_API int hcube_mpi_close(struct hcube_mpi *h);

/*
 * Mark the @n ranks in @ranks faulty or healthy (@as). A rank that
 * becomes faulty sends its units to the nearest healthy ranks at once
 * (the module's evacuation: nearest first, least loaded first) and
 * receives none from then on. @r may be NULL.
 */
HCUBE_MPI_API int hcube_mpi_mark(struct hcube_mpi *h, const int *ranks, int n,
				 int as, struct hcube_mpi_report *r);
/*
 * 1: @rank is faulty, 0: healthy; -HCUBE_MPI_E_RANK for a rank outside
 * 0 .. P - 1, -HCUBE_MPI_E_ARG without a handle. Not collective.
 */
HCUBE_MPI_API int hcube_mpi_is_faulty(const struct hcube_mpi *h, int rank);

/*
 * Balance with @policy (a name: mcwa, dem, cwa, sbn, optimal, auto, rid,
 * sid, sbn-cube, sbn-heur, pebble). Units a faulty rank holds are
 * evacuated first. mcwa, cwa, dem and sbn run distributed; for the others
 * one all-gather gives every rank every load and every rank builds the
 * same plan with the core. No call ends with a higher maximum load than
 * it started with (the core stops a plan short; by count, an SBN
 * operation that raised it is settled). By weight, the policy runs on the
 * weights and a settle follows, until neither a single unit moved off the
 * busiest rank nor an exchange of one of its units for lighter ones
 * lowers the maximum (Documentation/mpi.md). @r may be NULL.
 */
HCUBE_MPI_API int hcube_mpi_balance(struct hcube_mpi *h, const char *policy,
				    struct hcube_mpi_report *r);
/*
 * The transfers hcube_mpi_balance() would make with @policy now, and
 * nothing moves: the core's plan on the gathered loads (by weight, on
 * the weights, without the settle). The report lists this rank's share
 * (xfers, evacs, imports); its after and weight_after are this rank's
 * loads once the plan ran (by weight, after stays the current number of
 * units) and its imbalance after is the plan's.
 */
HCUBE_MPI_API int hcube_mpi_plan(struct hcube_mpi *h, const char *policy,
				 struct hcube_mpi_report *r);
/*
 * From the next balance or plan on: when the imbalance before (by weight
 * with a weight callback) is at most @tolerance and no faulty rank holds
 * units, nothing moves (report.skipped). 0 (the default): always
 * balance; else at least 1. Local; the ranks must agree (checked at the
 * next call).
 */
HCUBE_MPI_API int hcube_mpi_set_tolerance(struct hcube_mpi *h, double tolerance);

/*
 * Fewest bytes, by weight: @bytes(queue) returns the payload bytes the
 * queue's units take (what pack() would write for all of them), NULL
 * (the default) turns it off. Then every choice of units by weight (the
 * policies' transfers, the evacuation's, the settle's moves and
 * exchanges; not one that takes every unit, which has no choice) asks
 * pack_weight() twice, once with @bytes_budget the weight's cost at the
 * queue's average bytes per weight and once with 0, and sends the choice
 * whose weight is nearer the weight asked for, the one of fewer bytes
 * when both are as near: balance first, bytes second, each choice as
 * near the weight as without the sizer. The cost: weight(), the sizer and
 * a second pack_weight() per choice. A
 * function of its own and not a member of struct hcube_mpi_ops, which
 * the application allocates: a new member would be read past the end of
 * an older application's struct. HCUBE_MPI_E_ARG without the weight
 * callbacks. Local; the ranks need not agree (each chooses its own
 * units).
 */
HCUBE_MPI_API int hcube_mpi_set_sizer(struct hcube_mpi *h, uint64_t (*bytes)(void *queue));
/*
 * The payload bytes this rank sent in the last call on @h (the units as
 * pack() or pack_weight() wrote them, each hop counted, no header):
 * beside report.units_sent, as report.bytes_sent counts the headers too.
 * A function and not a report field, since the application allocates the
 * report. 0 without a handle.
 */
HCUBE_MPI_API uint64_t hcube_mpi_payload_sent(const struct hcube_mpi *h);

HCUBE_MPI_API const char *hcube_mpi_strerror(int err);
/* The last error's text on this handle, the same on every rank. */
HCUBE_MPI_API const char *hcube_mpi_errmsg(const struct hcube_mpi *h);

#ifdef __cplusplus
}
#endif

#endif /* HCUBE_MPI_H */
