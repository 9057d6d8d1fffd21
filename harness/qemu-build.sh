#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build layer for the emulator: Debian's pinned qemu source + our QEMU
# series (qemu/patches/series: git format-patch files, applied in order
# with patch -p1, no fuzz), built for x86_64-softmmu only, incrementally,
# with ccache.
#
# usage: qemu-build.sh [assemble|build|all]   (default all)
. "$(dirname "$0")/lib.sh"

QREPO=$REPO/qemu

qemu_patches() {
	[ -f "$QREPO/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$QREPO/patches/series" | grep -v '^$' || true
}

# The patched tree: hard links into the pristine source, with every file
# a patch touches replaced (never written in place), so that ninja
# rebuilds only what changed.
assemble() {
	"$HARNESS/fetch-qemu.sh" || exit 1
	local overlay=$CACHE/qemu/overlay.new f p pf files out
	rm -rf "$overlay"
	mkdir -p "$overlay"
	for p in $(qemu_patches); do
		pf=$QREPO/patches/$p
		[ -f "$pf" ] || die "qemu/patches/series names $p, but it does not exist"
		files=$(sed -n -e 's|^+++ b/\([^[:space:]]*\).*|\1|p' -e 's|^--- a/\([^[:space:]]*\).*|\1|p' "$pf" | sort -u)
		for f in $files; do
			[ -e "$overlay/$f" ] && continue
			[ -f "$QEMU_BASE_SRC/$f" ] || continue
			mkdir -p "$overlay/$(dirname "$f")"
			cp "$QEMU_BASE_SRC/$f" "$overlay/$f"
		done
		if ! out=$(patch -d "$overlay" -p1 -F0 -N --batch --no-backup-if-mismatch <"$pf" 2>&1); then
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			die "QEMU patch qemu/patches/$p does not apply to $QEMU_PKG $QEMU_VERSION"
		fi
	done
	local overlay_files changed=0
	overlay_files=$(cd "$overlay" && find . -type f | sed 's|^\./||' | sort)
	if [ ! -f "$QEMU_SRC/.ipcc-base" ] || [ "$(cat "$QEMU_SRC/.ipcc-base")" != "$QEMU_VERSION" ]; then
		msg "creating the QEMU source tree $QEMU_SRC"
		rm -rf "$QEMU_SRC" "$QEMU_BUILD"
		mkdir -p "$(dirname "$QEMU_SRC")"
		cp -al "$QEMU_BASE_SRC" "$QEMU_SRC"
		echo "$QEMU_VERSION" >"$QEMU_SRC/.ipcc-base"
		: >"$QEMU_SRC/.ipcc-manifest"
	fi
	for f in $overlay_files; do
		if ! cmp -s "$overlay/$f" "$QEMU_SRC/$f"; then
			mkdir -p "$QEMU_SRC/$(dirname "$f")"
			cp --remove-destination "$overlay/$f" "$QEMU_SRC/$f"
			changed=$((changed + 1))
		fi
	done
	printf '%s\n' "$overlay_files" >"$CACHE/qemu/manifest.new"
	while read -r f; do
		[ -n "$f" ] || continue
		grep -qxF "$f" "$CACHE/qemu/manifest.new" && continue
		if [ -f "$QEMU_BASE_SRC/$f" ]; then
			cp --remove-destination "$QEMU_BASE_SRC/$f" "$QEMU_SRC/$f"
		else
			rm -f "$QEMU_SRC/$f"
		fi
		changed=$((changed + 1))
	done <"$QEMU_SRC/.ipcc-manifest"
	mv "$CACHE/qemu/manifest.new" "$QEMU_SRC/.ipcc-manifest"
	rm -rf "$overlay"
	msg "QEMU tree assembled: $(qemu_patches | grep -c .) patches, $changed files updated"
}

# configure once per set of options; later builds are ninja's increments.
CONFIGURE_ARGS=(--target-list=x86_64-softmmu --without-default-features --enable-tcg
	--disable-docs --disable-werror --disable-install-blobs
	"--cc=ccache gcc" "--host-cc=ccache gcc" --extra-cflags=-g0
	--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu)

build() {
	local log=$OUT/qemu-build.log key
	mkdir -p "$QEMU_BUILD" "$OUT"
	key=$(printf '%s\n' "$QEMU_VERSION" "${CONFIGURE_ARGS[@]}" | sha256sum | cut -c1-16)
	if [ "$(cat "$QEMU_BUILD/.ipcc-configured" 2>/dev/null)" != "$key" ]; then
		msg "configuring QEMU in $QEMU_BUILD"
		rm -rf "$QEMU_BUILD"
		mkdir -p "$QEMU_BUILD"
		(cd "$QEMU_BUILD" && "$QEMU_SRC/configure" "${CONFIGURE_ARGS[@]}") >"$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "QEMU configure failed; see $log"; }
		echo "$key" >"$QEMU_BUILD/.ipcc-configured"
	fi
	msg "building QEMU in $QEMU_BUILD (log: $log)"
	if ! flock "$CACHE/build.lock" ninja -C "$QEMU_BUILD" -j"$JOBS" qemu-system-x86_64 >>"$log" 2>&1; then
		grep -E -A5 'error:|FAILED' "$log" | cut -c1-300 | head -n 40 >&2
		die "QEMU build failed; see $log"
	fi
}

case ${1:-all} in
assemble) assemble ;;
build) build ;;
all) assemble && build ;;
*) die "usage: qemu-build.sh [assemble|build|all]" ;;
esac
