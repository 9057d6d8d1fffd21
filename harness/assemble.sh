#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Assemble the patched tree: base + the series' new files + the hook series,
# with the series' MAINTAINERS entry merged in sorted position.
#
# usage: assemble.sh [DEST]
#   Without DEST, update the persistent build source $SRC in place, touching
#   only files whose content changes, so that incremental builds stay
#   incremental.  With DEST, write a full independent copy there.
. "$(dirname "$0")/lib.sh"

"$HARNESS/fetch-base.sh" || exit 1

overlay=$SRC.overlay.new
rm -rf "$overlay"
mkdir -p "$overlay"

# 1. The new files.  None may shadow a base file: existing files change only
#    through hook patches.
new_files=$(series_new_files)
for f in $new_files; do
	if [ -e "$BASE_SRC/$f" ]; then
		die "$f exists in the base tree: change it with a hook patch in patches/, not a copy"
	fi
	mkdir -p "$overlay/$(dirname "$f")"
	cp "$REPO/$f" "$overlay/$f"
done

# 2. The hook series.  Each patch is checked whole (--dry-run) before it is
#    applied, and a hunk that does not apply exactly stops everything.
for p in $(series_patches); do
	pf=$(patch_file "$p")
	[ -f "$pf" ] || die "patches/series names $p, but patches/$p does not exist"
	files=$(sed -n -e 's|^+++ b/\([^[:space:]]*\).*|\1|p' -e 's|^--- a/\([^[:space:]]*\).*|\1|p' "$pf" | sort -u)
	[ -n "$files" ] || die "hook patch patches/$p touches no file (not a -p1 unified diff?)"
	for f in $files; do
		[ -e "$overlay/$f" ] && continue
		if [ -f "$BASE_SRC/$f" ]; then
			mkdir -p "$overlay/$(dirname "$f")"
			cp "$BASE_SRC/$f" "$overlay/$f"
		fi
	done
	if ! out=$(patch -d "$overlay" -p1 -F0 -N --batch --dry-run <"$pf" 2>&1); then
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		bad=$(printf '%s\n' "$out" | awk '
			/^(checking|patching) file /	{ f = $3 }
			/FAILED|malformed|garbage|can.t find file/	{ if (f != "") print f }' | sort -u | tr '\n' ' ')
		die "hook patch ${pf#"$REPO"/} does not apply to the $BASE base${bad:+ (file: $bad)}"
	fi
	patch -d "$overlay" -p1 -F0 -N --batch --no-backup-if-mismatch -s <"$pf" >/dev/null ||
		die "hook patch ${pf#"$REPO"/} failed to apply"
done

# 2b. The base's backports: they touch only the series' new files.
for pf in $(backport_patches); do
	for f in $(sed -n -e 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$pf" | sort -u); do
		printf '%s\n' $new_files | grep -qxF "$f" ||
			die "${pf#"$REPO"/} changes $f, which the series does not add"
	done
	if ! out=$(patch -d "$overlay" -p1 -F0 -N --batch --dry-run <"$pf" 2>&1); then
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		die "backport ${pf#"$REPO"/} does not apply"
	fi
	patch -d "$overlay" -p1 -F0 -N --batch --no-backup-if-mismatch -s <"$pf" >/dev/null ||
		die "backport ${pf#"$REPO"/} failed to apply"
done

# 3. MAINTAINERS: the series' entry, merged in sorted position.
if [ -f "$REPO/MAINTAINERS" ]; then
	[ -e "$overlay/MAINTAINERS" ] || cp "$BASE_SRC/MAINTAINERS" "$overlay/MAINTAINERS"
	python3 "$HARNESS/merge-maintainers.py" "$overlay/MAINTAINERS" "$REPO/MAINTAINERS" ||
		die "cannot merge MAINTAINERS"
fi

overlay_files=$(cd "$overlay" && find . -type f | sed 's|^\./||' | sort)

if [ -n "$1" ]; then
	# A full, independent copy for hacking (make tree).
	dest=$1
	[ -e "$dest" ] && die "$dest exists; remove it first"
	mkdir -p "$dest"
	cp -a "$BASE_SRC/." "$dest/"
	cp -a "$overlay/." "$dest/"
	rm -rf "$overlay"
	exit 0
fi

# 4. Bring the persistent source tree up to date.  It starts as hard links
#    into the pristine base; files are always replaced, never written in place.
if [ ! -f "$SRC/.ipcc-base" ] || [ "$(cat "$SRC/.ipcc-base")" != "$BASE_TARBALL_SHA256" ]; then
	msg "creating the source tree $SRC"
	rm -rf "$SRC"
	mkdir -p "$KCACHE"
	cp -al "$BASE_SRC" "$SRC"
	echo "$BASE_TARBALL_SHA256" >"$SRC/.ipcc-base"
	: >"$SRC/.ipcc-manifest"
fi
changed=0
for f in $overlay_files; do
	if ! cmp -s "$overlay/$f" "$SRC/$f"; then
		mkdir -p "$SRC/$(dirname "$f")"
		cp --remove-destination "$overlay/$f" "$SRC/$f"
		changed=$((changed + 1))
	fi
done
# Files the previous assembly overlaid but this one does not: back to base.
printf '%s\n' "$overlay_files" >"$SRC.manifest.new"
while read -r f; do
	[ -n "$f" ] || continue
	grep -qxF "$f" "$SRC.manifest.new" && continue
	if [ -f "$BASE_SRC/$f" ]; then
		cp --remove-destination "$BASE_SRC/$f" "$SRC/$f"
	else
		rm -f "$SRC/$f"
	fi
	changed=$((changed + 1))
done <"$SRC/.ipcc-manifest"
mv "$SRC.manifest.new" "$SRC/.ipcc-manifest"
rm -rf "$overlay"
msg "tree assembled on $BASE_PKG $BASE_VERSION: $(echo "$new_files" | grep -c .) new files, $(series_patches | grep -c .) hook patches, $(backport_patches | grep -c .) backports, $changed files updated"
