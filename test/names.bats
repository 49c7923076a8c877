#!/usr/bin/env bats
# Every program that fails on a file named on its command line names that
# file in its one line, and never calls it "stdin".
# Also requires: head.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# named_failure FILE COMMAND...: COMMAND fails on FILE with one line on
# stderr that names FILE and not stdin.
named_failure() {
	local file=$1

	shift
	run --separate-stderr "$@" </dev/null
	[ "$status" -eq 1 ] || fail "$*: status $status: $stderr"
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"$file: "* ]] || fail "$*: '$stderr' does not name $file"
	[[ "$stderr" != *stdin* ]] || fail "$*: '$stderr' says stdin"
}

# Filterbank and PSRFITS files that cannot be read: empty, not SIGPROC, a
# header cut short, less than one spectrum, a FITS file cut short.
bad_recordings() {
	local hs

	: >empty.fil
	printf 'not a filterbank file\n' >junk.fil
	head -c 100 "$DATA/parkes_8bit_1.fil" >cuthdr.fil
	hs=$(sps-header --headersize "$DATA/parkes_8bit_1.fil")
	head -c $((hs + 10)) "$DATA/parkes_8bit_1.fil" >tiny.fil
	head -c 5000 "$DATA/parkes_4bit.sf" >cut.sf
	echo empty.fil junk.fil cuthdr.fil tiny.fil cut.sf
}

@test "names: every reader of recordings names a named bad file" {
	local f

	for f in $(bad_recordings); do
		named_failure "$f" sps-header "$f"
		named_failure "$f" sps-filterbank "$f" -o out.fil
		named_failure "$f" sps-tscrunch -t 2 "$f" -o out.fil
		named_failure "$f" sps-clean "$f" -o out.fil
		named_failure "$f" sps-cornerturn "$f" -o out.fil
		named_failure "$f" sps-dedisperse -d 5 "$f" -o out
		named_failure "$f" sps-fake --inject "$f" -o out.fil
		named_failure "$f" sps-plan --dm 0 10 "$f" -o out.plan
		named_failure "$f" sps-search --dm 0 10 "$f"
		named_failure "$f" sps-boxcar "$f"
		sps-plot /dev/null /dev/null 2>&1 | grep -q 'without cairo' ||
		    named_failure "$f" sps-plot /dev/null "$f" -o out
	done
}

@test "names: a DM-time stream or DM-major file cut short is named by sps-boxcar and sps-cornerturn" {
	sps-fake -q --tobs 1 --nchans 16 | sps-dedisperse -q --dm 0 50 >s.dmt
	head -c 2000 s.dmt >cut.dmt
	named_failure cut.dmt sps-boxcar cut.dmt
	named_failure cut.dmt sps-cornerturn --to dm cut.dmt -o out.dm
	sps-cornerturn -q --to dm s.dmt -o s.dm
	head -c 3000 s.dm >cut.dm
	named_failure cut.dm sps-cornerturn --to time cut.dm -o out.dmt
}

@test "names: an event stream cut short or garbled is named by sps-peaks" {
	sps-fake -q --tobs 1 --nchans 16 | sps-dedisperse -q --dm 0 50 |
	    sps-boxcar -q -s 3 >e.ev
	head -c 1200 e.ev >cut.ev
	sed 's/^0 /x /' e.ev >bad.ev
	: >empty.ev
	for f in cut.ev bad.ev empty.ev; do
		named_failure "$f" sps-peaks "$f"
	done
}
