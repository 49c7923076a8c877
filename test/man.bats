#!/usr/bin/env bats
# Every manual page renders cleanly under both man page processors users
# have: groff (what Debian's man runs) and mandoc.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

pages() {
	ls "$BATS_TEST_DIRNAME"/../man/*.[157]
}

@test "man: groff -mandoc -ww prints nothing for any page" {
	command -v groff >/dev/null || skip "no groff"
	local m out

	for m in $(pages); do
		out=$(groff -mandoc -Tutf8 -ww -z "$m" 2>&1)
		[ -z "$out" ] || fail "$(basename "$m"): $out"
	done
}

@test "man: mandoc -Tlint -W warning prints nothing for any page" {
	command -v mandoc >/dev/null || skip "no mandoc"
	local m out

	for m in $(pages); do
		out=$(mandoc -Tlint -W warning "$m" 2>&1)
		[ -z "$out" ] || fail "$(basename "$m"): $out"
	done
}
