#!/usr/bin/env bats
# scripts/sps-search: the whole pipeline on the project's sample and on
# the shared recordings.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	sample="$BATS_TEST_DIRNAME/../data/sample.fil"
	shared="$BATS_TEST_DIRNAME/../../shared/data"
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# found TABLE DM TIME WIDTH_S: one candidate (text table: time_s sample
# width snr dm ...) within 10 % of DM (more than a trial step there) and
# whose boxcar start is within one pulse width of TIME
found() {
	awk -v dm="$2" -v t="$3" -v w="$4" '
	    !/^#/ && ($5 - dm) ^ 2 <= (0.1 * dm) ^ 2 &&
	    ($1 - t) ^ 2 <= w ^ 2 { n++ }
	    END { exit n == 1 ? 0 : 1 }' "$1" ||
	    fail "no single candidate at DM $2, $3 s in $(cat "$1")"
}

@test "sps-search: data/sample.fil is what data/README says made it" {
	sps-fake -q --nchans 64 --nbits 8 --tsamp 500 --tobs 12 --fch1 1500 \
	    --foff -4 --seed 11 \
	    --pulse dm=100,t=2.0,width=2ms,snr=15 \
	    --pulse dm=250,t=5.5,width=5ms,snr=20 \
	    --pulse dm=500,t=9.0,width=10ms,snr=25 >remade.fil
	cmp remade.fil "$sample"
}

@test "sps-search: finds exactly the three pulses of data/sample.fil" {
	run -0 --separate-stderr sps-search "$sample" --dm 0 600
	printf '%s\n' "$output" >table
	[ "$(grep -vc '^#' table)" -eq 3 ] || fail "$(cat table)"
	found table 100 2.0 0.002
	found table 250 5.5 0.005
	found table 500 9.0 0.010
	# S/N near the injected values (BD-16 loses a little, noise adds)
	awk '!/^#/ { r = $4 / ($5 < 200 ? 15 : $5 < 400 ? 20 : 25)
	    if (r < 0.8 || r > 1.2) exit 1 }' table
	# each stage says what it runs
	for s in "1/4" "2/4" "3/4" "4/4"; do
		[[ "$stderr" == *"sps-search: [$s]"* ]] || fail "stage $s"
	done
}

@test "sps-search: -o writes Heimdall and PRESTO candidate files" {
	run -0 sps-search -q "$sample" --dm 0 600 -o out
	[ "$(grep -vc '^#' <<<"$output")" -eq 3 ]
	[ "$(wc -l <out/candidates.cand)" -eq 3 ]
	[ "$(awk -F'\t' '{ print NF }' out/candidates.cand | sort -u)" = 10 ]
	head -n 1 out/candidates.singlepulse |
	    grep -qx '# DM      Sigma      Time (s)     Sample    Downfact'
	[ "$(wc -l <out/candidates.singlepulse)" -eq 4 ]
	[ -s out/candidates.txt ]
}

@test "sps-search: standard input gives the same candidates as the file" {
	sps-search -q "$sample" --dm 0 600 >file.txt
	sps-search -q - --dm 0 600 <"$sample" >stdin.txt
	cmp file.txt stdin.txt
}

@test "sps-search: reads PSRFITS" {
	run -0 --separate-stderr sps-search -q "$shared/parkes_4bit.sf" --dm 50 60
	assert_line --index 0 --regexp '^#'
}

@test "sps-search: bad input stops the search with the failing stage" {
	printf 'not a filterbank at all' >junk.fil
	run -1 --separate-stderr sps-search -q junk.fil --dm 0 100
	assert_output ""
	[[ "$stderr" == *"sps-search: planning failed"* ]]
	run -1 --separate-stderr sps-search -q - --dm 0 100 <junk.fil
	assert_output ""
	[[ "$stderr" == *"sps-search: stage failed: sps-filterbank"* ]]
	run -1 --separate-stderr sps-search -q missing.fil
	[[ "$stderr" == "sps-search: missing.fil: cannot read" ]]
	run -2 sps-search --bogus "$sample"
	run -0 sps-search --help
	assert_line --index 0 --partial 'usage: sps-search'
}

@test "sps-completeness: a bright injected pulse is recovered, a faint wide one reported as lost" {
	run -0 sps-completeness "$shared/parkes_8bit_1.fil" --dm 0 150 \
	    --dms 50 --widths "1 16" --snrs "20 6" --times 0.5
	assert_line --index 0 --regexp '^ +DM +width_ms +S/N +recovered +S/N_ratio$'
	assert_line --regexp '^ +50 +1 +20 +1/1 +0\.[5-9][0-9]*$'
	assert_line --regexp '^ +50 +16 +6 +0/1 +-$'
	[ "${#lines[@]}" -eq 5 ]
}

@test "sps-completeness: usage and unreadable input" {
	run -2 sps-completeness
	run -1 --separate-stderr sps-completeness missing.fil
	[[ "$stderr" == "sps-completeness: missing.fil: cannot read" ]]
}
