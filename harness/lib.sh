# SPDX-License-Identifier: GPL-2.0
# Common settings and helpers of the ipcc harness.  Sourced, never run.
#
# Layers: fetch-base.sh + assemble.sh (get and assemble the tree),
# build.sh (kernel, selftests, initramfs), boot.sh (boot and run in QEMU).
# test.sh, run.sh, shell.sh, ... are thin recipes over those.

set -o pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$REPO/harness
# The kernel base: BASE=7.3 (the default: mainline 7.3, where the series
# is developed and mailed from) or BASE=6.12 (the backport for Debian
# stable).  Each is pinned in harness/bases/$BASE.conf.
IPCC_DEFAULT_BASE=7.3
BASE=${BASE:-$IPCC_DEFAULT_BASE}
[ -f "$HARNESS/bases/$BASE.conf" ] || {
	printf '[ipcc] ERROR: unknown BASE=%s; known: %s\n' "$BASE" \
		"$(cd "$HARNESS/bases" && ls -- *.conf | sed 's/\.conf$//' | tr '\n' ' ')" >&2
	exit 1
}
export BASE
# shellcheck source=harness/bases/7.3.conf
. "$HARNESS/bases/$BASE.conf"

# Everything large lives outside the repository, keyed by the base.
CACHE=${IPCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipcc}
BASE_DIR=$CACHE/base/$BASE_VERSION
BASE_SRC=$BASE_DIR/$BASE_PKG
KCACHE=$CACHE/base-$BASE        # what is built from this base
SRC=${IPCC_SRC:-$KCACHE/src}    # assembled, patched tree (persistent;
                                # make deb sets IPCC_SRC to its own)
BUILD=$KCACHE/kernel            # one kernel build for KUnit and boot tests
BUILD_DEBUG=$KCACHE/kernel-debug        # the same plus config/debug.config
SELFTEST_OUT=$KCACHE/selftests  # the statically linked selftests
INITRAMFS=$KCACHE/initramfs.cpio        # init, selftests, guest tools
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

# apt options that read a base from another suite (BASE_APT_SOURCE)
# through a private apt state under the cache, so that the machine's
# sources stay as they are; none for a base of the machine's own suite.
# Sets the array apt_opts. With "update", also refreshes that state
# (log: $CACHE/dl/apt-update.log); a failure is reported, not fatal.
base_apt() {
	local st=$CACHE/apt-$BASE
	apt_opts=()
	[ -n "$BASE_APT_SOURCE" ] || return 0
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial" "$CACHE/dl"
	echo "$BASE_APT_SOURCE" >"$st/sources.list"
	apt_opts=(-o Dir::Etc::sourcelist="$st/sources.list" -o Dir::Etc::sourceparts=-
		-o Dir::State::Lists="$st/lists" -o Dir::Cache="$st/cache")
	[ "${1:-}" = update ] || return 0
	apt-get "${apt_opts[@]}" update >"$CACHE/dl/apt-update.log" 2>&1 ||
		msg "apt-get update of $BASE_APT_SOURCE failed (see $CACHE/dl/apt-update.log)"
}
die() { printf '[ipcc] ERROR: %s\n' "$*" >&2; exit 1; }

# Files the series adds: everything under the kernel paths of the repo.
series_new_files() {
	(cd "$REPO" && git ls-files --cached --others --exclude-standard -- \
		arch block drivers fs include init kernel lib mm Documentation \
		tools/testing/selftests 2>/dev/null | sort -u |
		while read -r f; do [ -f "$f" ] && echo "$f"; done)
}

# Hook patches, in series order (names; patch_file gives the file).
series_patches() {
	local s=$REPO/patches/series
	[ -f "$s" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$s" | grep -v '^$' || true
}

# The file of hook patch $1 for this base: patches/$BASE/$1 where the
# base's code differs, patches/$1 otherwise.
patch_file() {
	if [ -f "$REPO/patches/$BASE/$1" ]; then
		echo "$REPO/patches/$BASE/$1"
	else
		echo "$REPO/patches/$1"
	fi
}

# The base's backports, in name order: patches/$BASE/backport-*.patch
# adapt the series' new files (never a base file) to an older base's
# interfaces; applied after the hook series.
backport_patches() {
	local f
	for f in "$REPO"/patches/"$BASE"/backport-*.patch; do
		[ -f "$f" ] && echo "$f"
	done
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
