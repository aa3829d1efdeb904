// SPDX-License-Identifier: GPL-2.0
/*
 * Whose fault a machine-check record is (module/core/hcube_mca.c), for
 * every class of the Intel SDM's MCA error codes (Vol. 3B, "Interpreting
 * the MCA Error Codes"), the examples of its tables, AMD SMCA units and
 * the firmware-first records of Linux 6.1 (apei_mce_report_mem_error(),
 * apei_smca_report_x86_error()): the records a test VM's mce-inject cannot
 * produce are tried here.
 */
#include "kselftest_harness.h"
#include "hcube_mca.h"

/* A record as the kernel's poll logs it: graded, no time stamp. */
static enum hcube_mca_class polled(u64 status, enum hcube_mca_unit unit)
{
	struct hcube_mca_rec r = {
		.status = status, .bank = 1, .severity = 2, .unit = unit,
	};

	return hcube_mca_classify(&r);
}

#define VAL_EN_CE	0x9c00000000000000ULL	/* VAL, EN, MISCV, ADDRV */

struct code_case {
	u32 code;
	enum hcube_mca_class class;
	const char *what;
};

static const struct code_case cases[] = {
	/* cache hierarchy, 0000 0001 RRRR TTLL */
	{ 0x0150, HCUBE_MCA_CORE, "instruction fetch, L0" },
	{ 0x0151, HCUBE_MCA_CORE, "instruction read, L1 (mce_test's record)" },
	{ 0x0134, HCUBE_MCA_CORE, "data load, L0 (the kernel's MCACOD_DATA)" },
	{ 0x0135, HCUBE_MCA_CORE, "data read, L1" },
	{ 0x017a, HCUBE_MCA_CORE, "explicit writeback, level L2" },
	{ 0x0106, HCUBE_MCA_CORE, "generic, L2" },
	{ 0x010b, HCUBE_MCA_SHARED_CACHE, "generic transaction, generic level" },
	{ 0x017f, HCUBE_MCA_SHARED_CACHE, "evict, generic level" },
	{ 0x114a, HCUBE_MCA_CORE, "data write L2 with the filter bit" },
	{ 0x110f, HCUBE_MCA_SHARED_CACHE, "generic level with the filter bit" },
	/* TLB, 0000 0000 0001 TTLL */
	{ 0x0010, HCUBE_MCA_CORE, "instruction TLB, L0" },
	{ 0x0014, HCUBE_MCA_CORE, "data TLB, L0" },
	{ 0x0016, HCUBE_MCA_CORE, "data TLB, L2" },
	{ 0x0017, HCUBE_MCA_SHARED_CACHE, "data TLB, generic level (AMD's GART)" },
	{ 0x1011, HCUBE_MCA_CORE, "instruction TLB L1, filter bit" },
	/* memory controller, 0000 0000 1MMM CCCC */
	{ 0x009f, HCUBE_MCA_MEMORY, "memory read, channel unknown (issue 31's record)" },
	{ 0x0080, HCUBE_MCA_MEMORY, "generic, channel 0" },
	{ 0x00c0, HCUBE_MCA_MEMORY, "memory scrubbing (the kernel's MCACOD_SCRUB)" },
	{ 0x00ff, HCUBE_MCA_MEMORY, "command error, channel unknown" },
	{ 0x109f, HCUBE_MCA_MEMORY, "memory read with bit 12" },
	/* generic cache hierarchy, 0000 0000 0000 11LL */
	{ 0x000c, HCUBE_MCA_MEMORY, "generic cache hierarchy, L0" },
	{ 0x000f, HCUBE_MCA_MEMORY, "generic cache hierarchy, generic" },
	/* bus and interconnect, 0000 1PPT RRRR IILL */
	{ 0x0800, HCUBE_MCA_BUS, "bus, lowest" },
	{ 0x0e0b, HCUBE_MCA_BUS, "I/O error" },
	{ 0x0f7f, HCUBE_MCA_BUS, "bus, highest" },
	{ 0x080f, HCUBE_MCA_BUS, "AMD's DRAM ECC in the northbridge" },
	{ 0x0003, HCUBE_MCA_BUS, "external error (BINIT#)" },
	/* internal */
	{ 0x0002, HCUBE_MCA_CORE, "microcode ROM parity" },
	{ 0x0004, HCUBE_MCA_CORE, "FRC" },
	{ 0x0005, HCUBE_MCA_CORE, "internal parity" },
	{ 0x0400, HCUBE_MCA_CORE, "internal timer" },
	{ 0x0402, HCUBE_MCA_CORE, "internal unclassified" },
	{ 0x07ff, HCUBE_MCA_CORE, "internal unclassified, highest" },
	{ 0x1402, HCUBE_MCA_CORE, "internal unclassified with bit 12" },
	/* the rest */
	{ 0x0000, HCUBE_MCA_OTHER, "no error" },
	{ 0x0001, HCUBE_MCA_OTHER, "unclassified" },
	{ 0x0006, HCUBE_MCA_OTHER, "SMM handler code access violation" },
	{ 0x0007, HCUBE_MCA_OTHER, "reserved simple code" },
	{ 0x0020, HCUBE_MCA_OTHER, "reserved, bit 5" },
	{ 0x0040, HCUBE_MCA_OTHER, "reserved, bit 6" },
	{ 0x0200, HCUBE_MCA_OTHER, "reserved, bit 9" },
	{ 0x2151, HCUBE_MCA_OTHER, "bit 13: not a compound code" },
	{ 0x8000, HCUBE_MCA_OTHER, "bit 15: not a compound code" },
};

TEST(codes)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct code_case *c = &cases[i];

		EXPECT_EQ(c->class, polled(VAL_EN_CE | c->code, HCUBE_MCA_UNIT_NONE))
			TH_LOG("code 0x%04x (%s)", c->code, c->what);
		EXPECT_EQ(c->class, hcube_mca_code_class(VAL_EN_CE | c->code))
			TH_LOG("code 0x%04x (%s), the code alone", c->code, c->what);
	}
}

/* Only the low 16 bits decide: model-specific bits and the flags do not. */
TEST(only_the_code)
{
	EXPECT_EQ(HCUBE_MCA_MEMORY, polled(0xbd0000000012009fULL, HCUBE_MCA_UNIT_NONE));
	EXPECT_EQ(HCUBE_MCA_CORE, polled(0xfe0000000ff10151ULL, HCUBE_MCA_UNIT_NONE));
	EXPECT_EQ(HCUBE_MCA_CORE, polled(0x0151, HCUBE_MCA_UNIT_NONE));
}

/* Every code of the 16 bits lands in one class; a sweep for the tables' edges. */
TEST(every_code)
{
	u32 n[HCUBE_MCA_NCLASSES] = { 0 }, code;

	for (code = 0; code <= 0xffff; code++) {
		enum hcube_mca_class c = hcube_mca_code_class(code);

		ASSERT_LT(c, HCUBE_MCA_NCLASSES);
		n[c]++;
		/* the filter bit never changes the class */
		if (!(code & 0xe000))
			ASSERT_EQ(c, hcube_mca_code_class(code ^ 0x1000)) TH_LOG("0x%04x", code);
	}
	/* counted by hand from the layouts, for 0x0000-0x0fff, times 2 (bit 12) */
	EXPECT_EQ(2 * (2048 + 1), n[HCUBE_MCA_BUS]);		/* 0x0800-0x0fff, 0x0003 */
	EXPECT_EQ(2 * (128 + 4), n[HCUBE_MCA_MEMORY]);		/* 0x0080-0x00ff, 0x000c-f */
	EXPECT_EQ(2 * (64 + 4), n[HCUBE_MCA_SHARED_CACHE]);	/* 0x01x3 levels, 0x001{3,7,b,f} */
	/* cache L0-L2, TLB L0-L2, 2 4 5, internal 0x0400-0x07ff */
	EXPECT_EQ(2 * (192 + 12 + 3 + 1024), n[HCUBE_MCA_CORE]);
	EXPECT_EQ(65536 - n[HCUBE_MCA_BUS] - n[HCUBE_MCA_MEMORY] -
		  n[HCUBE_MCA_SHARED_CACHE] - n[HCUBE_MCA_CORE], n[HCUBE_MCA_OTHER]);
	EXPECT_EQ(0, n[HCUBE_MCA_FIRMWARE]);
}

/*
 * apei_mce_report_mem_error() (arch/x86/kernel/cpu/mce/apei.c in 6.1):
 * bank -1 (255 in struct mce's u8), VAL|EN|ADDRV|MISCV|0x9f, UC for a
 * recoverable error, UC|PCC and a TSC for a fatal one, no severity; the
 * CPU that handled the notification as extcpu.
 */
TEST(firmware_memory_error)
{
	struct hcube_mca_rec r = { .status = 0x9c0000000000009fULL, .bank = 255 };

	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	r.status |= 1ULL << 61;			/* recoverable: UC */
	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	r.status |= 1ULL << 57;			/* fatal: PCC, and a TSC */
	r.tsc = 123456789;
	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	/* whatever the code says, and on SMCA as well */
	r.status = 0x9c00000000000151ULL;
	r.unit = HCUBE_MCA_UNIT_CORE;
	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	r.bank = HCUBE_MCA_MAX_BANKS;
	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	r.bank = HCUBE_MCA_MAX_BANKS - 1;
	r.severity = 2;
	EXPECT_EQ(HCUBE_MCA_CORE, hcube_mca_classify(&r));
}

/*
 * apei_smca_report_x86_error(): a real bank's registers (bank, status,
 * IPID) reported by the firmware; mce_setup() leaves severity and TSC 0.
 * The kernel's own records of a bank: graded by the poll and the
 * exception handler, time-stamped by AMD's threshold and deferred-error
 * interrupts (__log_error()) and by mce-inject.
 */
TEST(firmware_smca_report)
{
	struct hcube_mca_rec r = {
		.status = 0x9c00000000000151ULL, .bank = 0, .unit = HCUBE_MCA_UNIT_CORE,
	};

	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
	r.tsc = 1;				/* AMD's threshold interrupt, mce-inject */
	EXPECT_EQ(HCUBE_MCA_CORE, hcube_mca_classify(&r));
	r.tsc = 0;
	r.severity = 2;				/* the poll, MCE_KEEP_SEVERITY */
	EXPECT_EQ(HCUBE_MCA_CORE, hcube_mca_classify(&r));
	r.unit = HCUBE_MCA_UNIT_NONE;		/* not SMCA: the same rule */
	r.severity = 0;
	EXPECT_EQ(HCUBE_MCA_FIRMWARE, hcube_mca_classify(&r));
}

/* AMD SMCA: the unit decides, unless the code names memory or a bus. */
TEST(smca_units)
{
	static const struct {
		enum hcube_mca_unit unit;
		u32 code;
		enum hcube_mca_class class;
	} u[] = {
		{ HCUBE_MCA_UNIT_CORE, 0x0151, HCUBE_MCA_CORE },
		/* an internal code in a core bank is the core's: the bank says so */
		{ HCUBE_MCA_UNIT_CORE, 0x0402, HCUBE_MCA_CORE },
		{ HCUBE_MCA_UNIT_CORE, 0x0000, HCUBE_MCA_CORE },
		/* the L2 of a core reports its level as generic: still the core's */
		{ HCUBE_MCA_UNIT_CORE, 0x010b, HCUBE_MCA_CORE },
		/* a system read data error seen by LS comes from outside */
		{ HCUBE_MCA_UNIT_CORE, 0x0800, HCUBE_MCA_BUS },
		{ HCUBE_MCA_UNIT_CORE, 0x009f, HCUBE_MCA_MEMORY },
		{ HCUBE_MCA_UNIT_L3, 0x0151, HCUBE_MCA_SHARED_CACHE },
		{ HCUBE_MCA_UNIT_L3, 0x010b, HCUBE_MCA_SHARED_CACHE },
		{ HCUBE_MCA_UNIT_MEMORY, 0x0151, HCUBE_MCA_MEMORY },
		{ HCUBE_MCA_UNIT_MEMORY, 0x0000, HCUBE_MCA_MEMORY },
		{ HCUBE_MCA_UNIT_FABRIC, 0x0005, HCUBE_MCA_BUS },
		{ HCUBE_MCA_UNIT_IO, 0x0151, HCUBE_MCA_BUS },
		{ HCUBE_MCA_UNIT_OTHER, 0x0151, HCUBE_MCA_OTHER },
		{ HCUBE_MCA_UNIT_OTHER, 0x009f, HCUBE_MCA_MEMORY },
	};
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		EXPECT_EQ(u[i].class, polled(VAL_EN_CE | u[i].code, u[i].unit))
			TH_LOG("unit %d code 0x%04x", u[i].unit, u[i].code);
}

TEST_HARNESS_MAIN
