# SPDX-License-Identifier: GPL-2.0
# Debian (`make deb` is in the top Makefile): the packages the build needs
# (deps, check-fresh), the packages' version and their check in a VM.

.PHONY: deps check-fresh check-deb-version check-deb

## deps: install the Debian packages the build and the tests need (idempotent)
deps:
	@scripts/deps.sh

## check-fresh: `make demo` and `make check` in a fresh Debian chroot (root; not in check)
# The README's commands on a fresh Debian 12 (scripts/check-fresh.sh): a
# clean bookworm made with debootstrap, this repository's HEAD cloned into
# it, `make demo` and `make check` (FRESH_TARGETS) run in a chroot. Root
# only; not in `make check`.
check-fresh:
	scripts/check-fresh.sh

## check-deb-version: the Debian packages' version agrees with the sources'
# debian/changelog's version against dkms.conf's PACKAGE_VERSION.
check-deb-version:
	@scripts/checks/deb/check-version-test.sh

## check-deb: the Debian packages installed, used and purged in a VM (not in check)
# Both packages installed with dpkg -i in the VM (a writable overlay over
# its root), DKMS builds the module there, modprobe, hcubectl, then
# dpkg --purge must leave nothing behind. Not in `make check`: DKMS
# compiles the module under TCG (the VM may take up to HCUBE_DEB_TIMEOUT,
# 2400 s).
check-deb: deb
	@KVER=$(KVER) scripts/checks/deb/check-deb.sh $(BUILD)/deb
