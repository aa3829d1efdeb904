# SPDX-License-Identifier: GPL-2.0
# The kernel module: hcube.ko, its sparse and W=1 check (module-check), its
# DKMS source tree (dkms-src) and the DKMS check (check-dkms).

.PHONY: module-check dkms-src check-dkms

## hcube.ko: the module itself (what `make module` builds)
hcube.ko: $(MODULE_SRC)
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The module built with sparse (C=2: every file) and W=1: no warning allowed.
# It builds a copy of the sources in $(BUILD)/module-check: `make clean M=`
# in the tree would delete every .o under build/ too, under other checks
# that run beside this one (make -j check-host).
MODCHECK := $(BUILD)/module-check
## module-check: build the module with sparse (C=2) and W=1, and check its files for call cycles
module-check:
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	@rm -rf $(MODCHECK) && mkdir -p $(MODCHECK) && \
	tar cf - Kbuild $$(find module uapi -name '*.[ch]' -o -name '*.mk') | tar xf - -C $(MODCHECK)
	@out=$$($(MAKE) -s --no-print-directory -C $(KDIR) M=$(abspath $(MODCHECK)) C=2 W=1 modules 2>&1 | \
		grep -v "Skipping BTF generation" ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "ok module: sparse and W=1 clean"
	@echo "# module: no call cycle between the module's files"
	@scripts/check-cycles.py $$(ls $(MODCHECK)/module/*.o | grep -v '/hcube\.mod\.o$$')
	@echo "# module: the same in the build of make bench (HCUBE_BENCH_PHASES=y), W=1"
	@rm -rf $(MODCHECK)-bench && cp -r $(MODCHECK) $(MODCHECK)-bench && \
	find $(MODCHECK)-bench -name '*.o' -o -name '*.ko' -o -name '*.cmd' | xargs rm -f
	@out=$$($(MAKE) -s --no-print-directory -C $(KDIR) M=$(abspath $(MODCHECK)-bench) W=1 \
		HCUBE_BENCH_PHASES=y modules 2>&1 | grep -v "Skipping BTF generation" ); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
	@scripts/check-cycles.py $$(ls $(MODCHECK)-bench/module/*.o | grep -v '/hcube\.mod\.o$$')

# The module is installed with DKMS (dkms.conf): dkms-src stages its sources.
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
DKMS_FILES := dkms.conf Kbuild module/core/sources.mk $(wildcard module/*.c module/*.h \
	      module/core/*.c module/core/*.h uapi/linux/*.h)

# DKMS_DEST: where (debian/rules stages /usr/src/hcube-VERSION with it).
DKMS_DEST ?= $(BUILD)/dkms/hcube-$(DKMS_VERSION)
## dkms-src: the module's DKMS source tree
dkms-src:
	rm -rf $(DKMS_DEST)
	@for f in $(DKMS_FILES); do \
		install -D -m 644 $$f $(DKMS_DEST)/$$f || exit 1; done
	@echo "$(DKMS_DEST)"

## check-dkms: the module built and installed through DKMS
# dkms add/build/install on this host (root), then modprobe in the VM; about
# 20 s. It refuses to touch an hcube that dkms already has.
check-dkms: dkms-src tools
	@KVER=$(KVER) scripts/checks/dkms/check-dkms.sh $(BUILD)
