# SPDX-License-Identifier: GPL-2.0
# ipcc: class-aware load balancing for hybrid CPUs, as a patch series on
# Debian's linux-source-7.3 (default) and linux-source-6.12 (BASE=6.12).
# See README.md.

H := harness
export BASE PROFILE PROFILES MINUTES BASE_CONFIG DEB_CONFIG DEB_LSMOD DEB_PACKAGE DEB_SELFTESTS DEB_SUITE SCRIPT QEMU_SMP QEMU_MEM QEMU_NUMA QEMU_ACCEL QEMU_ICOUNT CMDLINE TIMEOUT

.PHONY: help deps base assemble tree qemu qemu-tree build kernel test kunit run shell checkpatch clean distclean \
	demo bench bench-overhead bench-scale bench-tools stress series bisect-check docs-check static-check deb deb-boot

help:
	@echo "make test [BASE=6.12]     everything on BASE (default 7.3), the other base in part"
	@echo "make demo                 boot adl-hw, mixed workload with the feature off and on (out/demo/)"
	@echo "make bench                placement scenarios (bench/scenarios) and overhead (out/bench/)"
	@echo "make bench-overhead       only the overhead part of make bench (with the cost per event)"
	@echo "make bench-scale          optional: load-balancing activity at 8, 32, 64 vCPUs"
	@echo "make stress [PROFILE=adl-hw|mtl-hw|lnl-hw] [MINUTES=10]  debug kernel under hotplug and churn"
	@echo "make run SCRIPT=path      boot, run a host script in the guest, exit with its status"
	@echo "make shell                boot to an interactive shell"
	@echo "make tree [TREE=dir]      a patched git + quilt tree to hack in"
	@echo "make build                assemble and build QEMU, kernel, selftests, initramfs"
	@echo "make qemu                 build the emulator: Debian's qemu + qemu/patches"
	@echo "make qemu-tree [QTREE=d]  a git tree of QEMU with our series applied (git am)"
	@echo "make series               the mailed series: format-patch files + cover letter (out/series/)"
	@echo "make bisect-check         build every prefix of the series, SCHED_IPCC on and off"
	@echo "make docs-check           kernel-doc and docutils on the series' docs and sources"
	@echo "make static-check         W=1 and sparse on the series' objects (after make build)"
	@echo "make deb [BASE_CONFIG=f]  Debian packages of the patched kernel for hybrid machines (hours)"
	@echo "make deb-boot [PROFILE=p]  install make deb's package in a Debian root, boot it to a login, check it"
	@echo "make checkpatch           checkpatch --strict over the series"
	@echo "make clean                drop logs (out/); distclean also drops the build cache"

deps:
	@$(H)/deps.sh

base:
	@$(H)/fetch-base.sh

assemble:
	@$(H)/assemble.sh

tree:
	@$(H)/tree.sh $(TREE)

build kernel:
	@$(H)/build.sh all

qemu:
	@$(H)/build.sh qemu

QTREE ?= qemu-tree
qemu-tree:
	@$(H)/qemu-tree.sh $(QTREE)

test:
	@$(H)/test.sh

run:
	@$(H)/run.sh "$(SCRIPT)"

shell:
	@$(H)/shell.sh

stress:
	@$(H)/stress.sh

# Benchmarks and demo (bench/README.md).  BENCH_NO_BUILD=1 skips
# "harness/build.sh all" when the kernel is already built.
BENCH_NO_BUILD ?=
SCENARIOS ?=
export BENCH_NO_BUILD

bench-tools:
	@if [ "$(BENCH_NO_BUILD)" != 1 ]; then $(H)/build.sh all; fi
	@bench/build-guest.sh
	@$(H)/build.sh initramfs

demo: bench-tools
	@python3 bench/demo.py

bench: bench-tools
	@rc=0; python3 bench/run.py $(SCENARIOS) || rc=1; \
	python3 bench/overhead/run.py || rc=1; \
	bench/overhead/event-cost.sh || rc=1; exit $$rc

bench-overhead: bench-tools
	@rc=0; python3 bench/overhead/run.py || rc=1; \
	bench/overhead/event-cost.sh || rc=1; exit $$rc

bench-scale: bench-tools
	@python3 bench/scale.py

series:
	@$(H)/series.sh

bisect-check:
	@$(H)/bisect-check.sh

deb:
	@$(H)/deb.sh

deb-boot:
	@$(H)/deb-boot.sh

docs-check: assemble
	@$(H)/docs-check.sh

static-check: assemble
	@$(H)/static-check.sh

checkpatch: assemble
	@$(H)/checkpatch.sh

clean:
	rm -rf out

distclean: clean
	rm -rf "$${IPCC_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/ipcc}/build" \
	       "$${IPCC_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/ipcc}/src"
