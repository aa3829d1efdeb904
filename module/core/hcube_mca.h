/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube core: whose fault a machine-check record is. Not part of the
 * balancing: it sits with the core because it is pure C too, compiled
 * unchanged into the module (hcube_mce.c) and into the host tests
 * (selftests/core/mca_test.c), where every class of record can be tried,
 * also those no injector of a test VM can produce (firmware-first
 * records, AMD SMCA banks).
 *
 * A record counts against the CPU that logged it only when it is an error
 * of that core itself; Documentation/admin-guide/hcube.rst ("Which errors
 * count") has the table.
 */
#ifndef HCUBE_MCA_H
#define HCUBE_MCA_H

#include <linux/types.h>

/* Why a record does or does not count against its CPU. */
enum hcube_mca_class {
	HCUBE_MCA_CORE = 0,	/* the core's own error: it counts */
	HCUBE_MCA_MEMORY,	/* memory controller, generic memory hierarchy */
	HCUBE_MCA_BUS,		/* bus, interconnect, external, I/O */
	HCUBE_MCA_SHARED_CACHE,	/* a cache or TLB of the generic level (the LLC) */
	HCUBE_MCA_FIRMWARE,	/* reported by the firmware (APEI), not by a bank */
	HCUBE_MCA_OTHER,	/* unclassified, reserved, units of no core */
	HCUBE_MCA_NCLASSES,
};

/*
 * On AMD processors with scalable MCA (SMCA), the kind of unit a bank
 * belongs to (the kernel's smca_get_bank_type(), grouped).
 */
enum hcube_mca_unit {
	HCUBE_MCA_UNIT_NONE = 0,	/* no SMCA: the error code alone decides */
	HCUBE_MCA_UNIT_CORE,	/* LS, IF, L2 cache, DE, EX, FP */
	HCUBE_MCA_UNIT_L3,	/* the L3 cache, shared by a CCX */
	HCUBE_MCA_UNIT_MEMORY,	/* UMC */
	HCUBE_MCA_UNIT_FABRIC,	/* CS, PIE, xGMI, GMI, WAFL */
	HCUBE_MCA_UNIT_IO,	/* NBIO, PCIe, NBIF, SHUB, SATA, USB */
	HCUBE_MCA_UNIT_OTHER,	/* PB, PSP, SMU, MP5, MPDMA, reserved, unknown */
};

/* The fields of a record (struct mce) the classification reads. */
struct hcube_mca_rec {
	u64 status;		/* MCi_STATUS */
	u64 tsc;		/* 0 when the logger took no time stamp */
	u32 bank;		/* the bank number as logged (a u8 in struct mce) */
	u32 severity;		/* the kernel's grade; 0 when it graded none */
	enum hcube_mca_unit unit;
};

/* No bank of an x86 processor has a number this high (the kernel's MAX_NR_BANKS). */
#define HCUBE_MCA_MAX_BANKS	64

/**
 * hcube_mca_code_class() - The class of an MCA error code alone.
 * @status: MCi_STATUS; its low 16 bits are the error code.
 *
 * The compound error codes of the Intel SDM (Vol. 3B, "Interpreting the
 * MCA Error Codes"), which AMD's processors follow too: bit 12 (the
 * correction-report filter) is ignored; a code with any of bits 15:13 set
 * is not a compound code. Cache and TLB errors of levels L0, L1 and L2
 * are the core's, of the generic level (LL = 11) shared; memory
 * controller and generic cache hierarchy errors are memory; bus and
 * interconnect errors, I/O errors and the external error (0x0003) are
 * bus; internal errors are the core's: microcode ROM parity (0x0002),
 * FRC (0x0004), internal parity (0x0005) and the internal unclassified
 * errors (0x0400-0x07ff, the internal timer error 0x0400 among them);
 * the unclassified error 0x0001, the SMM handler access violation 0x0006
 * and reserved codes are other.
 *
 * Return: the class.
 */
enum hcube_mca_class hcube_mca_code_class(u64 status);

/**
 * hcube_mca_classify() - Whose fault a record is.
 * @r: the record.
 *
 * Firmware-first records first, whatever they say: a bank number no
 * processor has (the firmware's memory errors, logged with bank -1 by the
 * kernel's apei_mce_report_mem_error()), or a record neither graded nor
 * time-stamped (the firmware's reports of AMD SMCA banks,
 * apei_smca_report_x86_error(); every record the kernel logs from a bank
 * has a severity, or a time stamp for AMD's threshold and deferred-error
 * interrupts). Then on SMCA the unit: a memory or bus error code names
 * an origin outside the core whatever bank reports it; else the core's
 * units count, the L3 is shared, UMC is memory, the fabric and I/O units
 * are bus. Without SMCA, hcube_mca_code_class().
 *
 * Return: the class; HCUBE_MCA_CORE when the record counts against its CPU.
 */
enum hcube_mca_class hcube_mca_classify(const struct hcube_mca_rec *r);

#endif /* HCUBE_MCA_H */
