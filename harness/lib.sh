# SPDX-License-Identifier: GPL-2.0
# Common settings and helpers of the ipcc harness.  Sourced, never run.
#
# Layers: fetch-base.sh + assemble.sh (get and assemble the tree),
# build.sh (kernel, selftests, initramfs), boot.sh (boot and run in QEMU).
# test.sh, run.sh, shell.sh, ... are thin recipes over those.

set -o pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$REPO/harness
# shellcheck source=harness/base.conf
. "$HARNESS/base.conf"

# Everything large lives outside the repository, keyed by the base version.
CACHE=${IPCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipcc}
BASE_DIR=$CACHE/base/$BASE_VERSION
BASE_SRC=$BASE_DIR/linux-source-6.12
SRC=$CACHE/src                  # assembled, patched tree (persistent)
BUILD=$CACHE/build/kernel       # one kernel build for KUnit and boot tests
BUILD_DEBUG=$CACHE/build/kernel-debug   # the same plus config/debug.config
OUT=${IPCC_OUT:-$REPO/out}      # logs and results of the last runs
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}

# The emulator: Debian's qemu source + our series (qemu/), built here.
# shellcheck source=harness/qemu.conf
. "$HARNESS/qemu.conf"
QEMU_BASE_DIR=$CACHE/qemu/base/${QEMU_VERSION#*:}
QEMU_BASE_SRC=$QEMU_BASE_DIR/qemu-src
QEMU_SRC=$CACHE/qemu/src        # assembled, patched QEMU tree (persistent)
QEMU_BUILD=$CACHE/build/qemu    # its build directory
# The QEMU every boot uses (QEMU_BIN= overrides, e.g. for a comparison).
QEMU_BIN=${QEMU_BIN:-$QEMU_BUILD/qemu-system-x86_64}
# kunit.py and anything else that runs qemu-system-x86_64 get it too.
export PATH=$QEMU_BUILD:$PATH
# The firmware: Debian's seabios and qemu-system-data (the dfsg source
# ships none), named on every QEMU command line.
QEMU_FW_ARGS=(-L /usr/share/seabios -L /usr/share/qemu)

# What a kernel splat looks like on the console: warnings, bugs, lockdep,
# sanitizers, RCU stalls, hung tasks, soft lockups, workqueue stalls.
SPLAT_RE='WARNING: CPU: [0-9]|BUG: |Oops: |Kernel panic|UBSAN: |KASAN: |KFENCE: |possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|rcu: INFO|blocked for more than|soft lockup|workqueue lockup|Call Trace:'

msg() { printf '[ipcc] %s\n' "$*" >&2; }
die() { printf '[ipcc] ERROR: %s\n' "$*" >&2; exit 1; }

# Files the series adds: everything under the kernel paths of the repo.
series_new_files() {
	(cd "$REPO" && git ls-files --cached --others --exclude-standard -- \
		arch block drivers fs include init kernel lib mm Documentation \
		tools/testing/selftests 2>/dev/null | sort -u |
		while read -r f; do [ -f "$f" ] && echo "$f"; done)
}

# Hook patches, in series order.
series_patches() {
	local s=$REPO/patches/series
	[ -f "$s" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$s" | grep -v '^$' || true
}

# Kernel make with the settings every build of the harness shares.
kmake() {
	make -C "$SRC" O="$BUILD" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$JOBS" "$@"
}

# Timestamped log directory for one run of a recipe.
new_logdir() {
	local d
	d=$OUT/logs/$1-$(date +%Y%m%d-%H%M%S)-$$
	mkdir -p "$d"
	echo "$d"
}
