// SPDX-License-Identifier: GPL-2.0
/*
 * hcube core: whose fault a machine-check record is (hcube_mca.h).
 *
 * The MCA error code (MCi_STATUS[15:0]) in the layouts of the Intel SDM,
 * Vol. 3B, "Interpreting the MCA Error Codes", highest bit first:
 *
 *   0000 1PPT RRRR IILL  bus and interconnect (the I/O error 0x0e0b too)
 *   0000 01?? ???? ????  internal unclassified (internal timer: 0x0400)
 *   0000 0001 RRRR TTLL  cache hierarchy, LL the level: L0 L1 L2 generic
 *   0000 0000 1MMM CCCC  memory controller
 *   0000 0000 0001 TTLL  TLB
 *   0000 0000 0000 11LL  generic cache hierarchy
 *   0000 0000 0000 0???  simple codes: 1 unclassified, 2 microcode ROM
 *                        parity, 3 external (BINIT# from another agent),
 *                        4 FRC, 5 internal parity, 6 SMM handler code
 *                        access violation
 *
 * Bit 12 is the correction-report filter bit of cache and TLB codes; the
 * kernel's mce_is_memory_error() ignores it the same way.
 *
 * What counts against the CPU that logged a record is an error of the
 * core itself: its cache and TLB errors of levels L0-L2 and its internal
 * errors, the classified simple ones (ROM parity, FRC, internal parity)
 * and the internal unclassified ones with the internal timer error among
 * them; never memory controller, bus or interconnect errors nor those of
 * the generic (shared) level.
 */
#include "hcube_mca.h"

#define MCA_CODE_MASK		0xffffULL
#define MCA_CODE_FILTER		0x1000U
#define MCA_CODE_NOT_COMPOUND	0xe000U
#define MCA_LEVEL_GENERIC	0x3U

/* A cache or TLB error: the core's up to L2, shared at the generic level. */
static enum hcube_mca_class level_class(u32 code)
{
	return (code & 0x3U) == MCA_LEVEL_GENERIC ? HCUBE_MCA_SHARED_CACHE :
						    HCUBE_MCA_CORE;
}

/*
 * The decoding of the Intel SDM, Vol. 3B, "Interpreting the MCA Error
 * Codes" (its tables of simple and compound error codes), bit by bit from
 * the highest, as in the layouts above.
 */
enum hcube_mca_class hcube_mca_code_class(u64 status)
{
	u32 code = (u32)(status & MCA_CODE_MASK);

	if (code & MCA_CODE_NOT_COMPOUND)
		return HCUBE_MCA_OTHER;
	code &= ~MCA_CODE_FILTER;
	if (code & 0x0800U)
		return HCUBE_MCA_BUS;
	if (code & 0x0400U)
		return HCUBE_MCA_CORE;		/* internal (0x0400: its timer) */
	if (code & 0x0200U)
		return HCUBE_MCA_OTHER;		/* reserved */
	if (code & 0x0100U)
		return level_class(code);	/* cache hierarchy */
	if (code & 0x0080U)
		return HCUBE_MCA_MEMORY;	/* memory controller */
	if (code & 0x0060U)
		return HCUBE_MCA_OTHER;		/* reserved */
	if (code & 0x0010U)
		return level_class(code);	/* TLB */
	if ((code & 0x000cU) == 0x000cU)
		return HCUBE_MCA_MEMORY;	/* generic cache hierarchy */
	switch (code) {
	case 0x0002:	/* microcode ROM parity */
	case 0x0004:	/* FRC */
	case 0x0005:	/* internal parity */
		return HCUBE_MCA_CORE;
	case 0x0003:	/* external: BINIT# from another agent */
		return HCUBE_MCA_BUS;
	default:	/* 0 no error, 1 unclassified, 6 SMM, reserved */
		return HCUBE_MCA_OTHER;
	}
}

enum hcube_mca_class hcube_mca_classify(const struct hcube_mca_rec *r)
{
	enum hcube_mca_class c;

	if (r->bank >= HCUBE_MCA_MAX_BANKS || (!r->severity && !r->tsc))
		return HCUBE_MCA_FIRMWARE;
	c = hcube_mca_code_class(r->status);
	if (r->unit == HCUBE_MCA_UNIT_NONE)
		return c;
	if (c == HCUBE_MCA_MEMORY || c == HCUBE_MCA_BUS)
		return c;
	switch (r->unit) {
	case HCUBE_MCA_UNIT_CORE:
		return HCUBE_MCA_CORE;
	case HCUBE_MCA_UNIT_L3:
		return HCUBE_MCA_SHARED_CACHE;
	case HCUBE_MCA_UNIT_MEMORY:
		return HCUBE_MCA_MEMORY;
	case HCUBE_MCA_UNIT_FABRIC:
	case HCUBE_MCA_UNIT_IO:
		return HCUBE_MCA_BUS;
	default:
		return HCUBE_MCA_OTHER;
	}
}
