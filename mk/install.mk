# SPDX-License-Identifier: GPL-2.0
# Installation (`make install` is in the top Makefile): the directories, the
# parts (install-tools, install-mpi, install-spank), uninstall, check-install.

.PHONY: install-tools install-mpi install-spank uninstall check-install

# Installation: the tools, their man pages, hcubectl's bash completion,
# the uAPI header, libhcube-mpi (install-mpi: its header, archive, shared
# library and hcube-mpi.pc, under LIBDIR), the SPANK plugin (install-spank,
# under SPANK_DESTDIR, below) and the persistent set-up, under
# $(DESTDIR)$(PREFIX) (the
# unit and the udev rule under SYSTEMDUNITDIR and UDEVRULESDIR, the
# configuration under SYSCONFDIR); uninstall removes those files.
# The module is installed with DKMS (dkms.conf): dkms-src (mk/module.mk)
# stages its sources.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The persistent set-up (hcubectl apply, issue 15): the configuration file,
# created only when absent; the systemd unit and the udev rule that runs it
# when the module loads; examples for modules-load.d and modprobe.d. The
# unit of hcubectl metrics (hcube-metrics.service), which the rule starts too.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
DOCDIR ?= $(PREFIX)/share/doc/hcube
SYSTEMDUNITDIR ?= /lib/systemd/system
UDEVRULESDIR ?= /lib/udev/rules.d
HCUBE_CONF := $(SYSCONFDIR)/hcube/hcube.conf
INSTALLED := $(SBINDIR)/hcubectl $(BINDIR)/hcube-sim $(MANDIR)/man8/hcubectl.8 \
	     $(MANDIR)/man1/hcube-sim.1 $(BASHCOMPDIR)/hcubectl \
	     $(INCLUDEDIR)/linux/hcube.h $(SYSTEMDUNITDIR)/hcube.service \
	     $(SYSTEMDUNITDIR)/hcube-metrics.service \
	     $(UDEVRULESDIR)/60-hcube.rules $(DOCDIR)/hcube.conf.example \
	     $(DOCDIR)/modules-load.d-hcube.conf $(DOCDIR)/modprobe.d-hcube.conf

MPI_DIRS = DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)
## install-mpi: install libhcube-mpi with its header and pkg-config file
install-mpi: mpi
	@$(SUBMAKE) -C tools/hcube-mpi install $(MPI_DIRS)

# The SPANK plugin and its plugstack.conf line (an example in DOCDIR, or
# PLUGSTACKDIR/hcube.conf when given) go to SPANK_DESTDIR: debian/rules
# puts them in their own package.
SPANK_DESTDIR ?= $(DESTDIR)
SPANK_MAKE = $(MAKE) --no-print-directory -C tools/hcube-spank BUILD=$(BUILD) PREFIX=$(PREFIX) \
	     DOCDIR=$(DOCDIR) DESTDIR=$(SPANK_DESTDIR)
## install-spank: install the Slurm plugin
install-spank: spank
	+@$(SPANK_MAKE) install

## install-tools: install hcubectl, hcube-sim, their man pages and completion
install-tools: tools
	install -D -m 755 $(BUILD)/hcubectl $(DESTDIR)$(SBINDIR)/hcubectl
	install -D -m 755 $(BUILD)/hcube-sim $(DESTDIR)$(BINDIR)/hcube-sim
	install -D -m 644 Documentation/man/hcubectl.8 $(DESTDIR)$(MANDIR)/man8/hcubectl.8
	install -D -m 644 Documentation/man/hcube-sim.1 $(DESTDIR)$(MANDIR)/man1/hcube-sim.1
	install -D -m 644 tools/hcubectl/hcubectl.bash-completion $(DESTDIR)$(BASHCOMPDIR)/hcubectl
	install -D -m 644 uapi/linux/hcube.h $(DESTDIR)$(INCLUDEDIR)/linux/hcube.h
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		tools/hcubectl/systemd/hcube.service.in >$(DESTDIR)$(SYSTEMDUNITDIR)/hcube.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/hcube.service
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' tools/hcubectl/systemd/hcube-metrics.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/hcube-metrics.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/hcube-metrics.service
	install -D -m 644 tools/hcubectl/systemd/60-hcube.rules $(DESTDIR)$(UDEVRULESDIR)/60-hcube.rules
	install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(DOCDIR)/hcube.conf.example
	install -D -m 644 tools/hcubectl/systemd/modules-load.conf $(DESTDIR)$(DOCDIR)/modules-load.d-hcube.conf
	install -D -m 644 tools/hcubectl/systemd/modprobe.conf $(DESTDIR)$(DOCDIR)/modprobe.d-hcube.conf
	@if [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) exists: left as it is"; \
	else \
		install -D -m 644 tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); \
	fi

## uninstall: remove what install put in place
# The configuration file goes only when it is still the example.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@$(SUBMAKE) -C tools/hcube-mpi uninstall $(MPI_DIRS)
	@if cmp -s tools/hcubectl/hcube.conf.example $(DESTDIR)$(HCUBE_CONF); then \
		rm -f $(DESTDIR)$(HCUBE_CONF); \
		rmdir $(DESTDIR)$(SYSCONFDIR)/hcube 2>/dev/null || true; \
	elif [ -e $(DESTDIR)$(HCUBE_CONF) ]; then \
		echo "$(DESTDIR)$(HCUBE_CONF) was changed: left as it is"; \
	fi
	+@$(SPANK_MAKE) uninstall

## check-install: install into a temporary root and check what was installed
# install and uninstall into a temporary DESTDIR; the completion in bash.
check-install: tools mpi spank
	@$(SUBMAKE) -C selftests/hcubectl all
	@scripts/checks/install/install_test.sh $(BUILD)
