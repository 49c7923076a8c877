#!/usr/bin/env bats
# sps-search's cleaning on the way (issue 15): impulses and a carrier made
# by sps-fake --rfi, in noise and in a real recording, cleaned away while
# the pulses keep their S/N; the fused search and the pipe with sps-clean
# in it give the same candidates; PSRFITS; the summary and the report;
# bad cleaning input.  No engine is named: a GPU runs what it can.
# Also uses: sps-fake, sps-clean, sps-dedisperse, sps-boxcar, sps-peaks,
# perl.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

shared="$BATS_TEST_DIRNAME/../../shared/data"

# Four pulses of S/N 20 from DM 50 to 500 (DM:t), in 4 s of 256 channels
pulses="50:0.6 100:1.3 200:2.0 500:2.8"
# Interference: impulses at DM 0 at 20 a second, and a carrier switching
# on and off every quarter of a second in 11 channels
rfi=(--rfi impulse,rate=20,width=1ms,snr=50
    --rfi carrier,chan=100:110,period=0.5s,duty=0.5,amp=5)

# The --pulse options of "DM:t ..." ($1), of width $2 and S/N $3
pulse_options() {
	local p

	for p in $1; do
		printf -- '--pulse dm=%s,t=%s,width=%s,snr=%s\n' "${p%:*}" \
		    "${p#*:}" "$2" "$3"
	done
}

setup_file() {
	cd "$BATS_FILE_TMPDIR" || exit 1
	local fake=(sps-fake -q --nchans 256 --nbits 8 --tsamp 64 --tobs 4
	    --seed 5 $(pulse_options "$pulses" 2ms 20))

	"${fake[@]}" -o pulses.fil
	"${fake[@]}" "${rfi[@]}" -o rfi.fil
	# a smaller one, for comparisons
	sps-fake -q --nchans 128 --nbits 8 --tsamp 128 --tobs 3 --seed 8 \
	    $(pulse_options "100:0.5 300:1.5" 3ms 20) \
	    --rfi impulse,rate=20,width=1ms,snr=50 \
	    --rfi carrier,chan=50:55,period=0.5s,duty=0.5,amp=5 -o small.fil
}

setup() {
	cd "$BATS_FILE_TMPDIR" || exit 1
}

# snr_of TABLE DM T: the S/N of the one candidate within 10 % of DM whose
# boxcar starts within 10 ms of T
snr_of() {
	awk -v dm="$2" -v t="$3" '
	    !/^#/ && ($5 - dm) ^ 2 <= (0.1 * dm) ^ 2 && ($1 - t) ^ 2 <= 1e-4 {
		n++; snr = $4 }
	    END { if (n != 1) exit 1; print snr }' "$1"
}

# cleaned_well REF UNCLEANED CLEANED "DM:t ...": dozens of candidates
# uncleaned; cleaned, the pulses are the top candidates with at most a
# handful of others, and each keeps 90 % of its S/N in REF (searched
# without interference and without cleaning)
cleaned_well() {
	local ref=$1 unc=$2 cl=$3 p dm t before after n others

	n=$(grep -vc '^#' "$unc")
	[ "$n" -ge 24 ] || fail "uncleaned: only $n candidates: $(cat "$unc")"
	n=0
	grep -v '^#' "$cl" | sort -k4,4gr | head -n "$(wc -w <<<"$4")" >top
	for p in $4; do
		dm=${p%:*} t=${p#*:}
		before=$(snr_of "$ref" "$dm" "$t") ||
		    fail "DM $dm at $t s not found in $(cat "$ref")"
		after=$(snr_of top "$dm" "$t") ||
		    fail "DM $dm at $t s not among the top of $(cat "$cl")"
		awk -v b="$before" -v a="$after" 'BEGIN { exit !(a >= 0.9 * b) }' ||
		    fail "DM $dm: S/N $before without interference, $after cleaned"
		n=$((n + 1))
	done
	others=$(($(grep -vc '^#' "$cl") - n))
	[ "$others" -le 5 ] || fail "$others candidates not pulses: $(cat "$cl")"
}

@test "sps-search-clean: impulses and a carrier in noise: dozens of candidates uncleaned, the pulses on top cleaned, with >= 90 % of their S/N" {
	sps-search -q --no-clean pulses.fil --dm 0 600 >ref.txt
	sps-search -q --no-clean rfi.fil --dm 0 600 >unc.txt
	sps-search -q rfi.fil --dm 0 600 >cl.txt
	cleaned_well ref.txt unc.txt cl.txt "$pulses"
}

@test "sps-search-clean: the same in a real recording with the interference added" {
	local real="150:0.3 100:0.7 60:1.3" inject

	inject=(sps-fake -q --inject "$shared/parkes_8bit_1.fil" --seed 3
	    $(pulse_options "$real" 4ms 30))
	"${inject[@]}" -o real.fil
	"${inject[@]}" --rfi impulse,rate=20,width=1ms,snr=50 \
	    --rfi carrier,chan=300:320,period=0.5s,duty=0.5,amp=5 -o realrfi.fil
	sps-search -q --no-clean real.fil --dm 0 200 >ref.txt
	sps-search -q --no-clean realrfi.fil --dm 0 200 >unc.txt
	sps-search -q realrfi.fil --dm 0 200 >cl.txt
	cleaned_well ref.txt unc.txt cl.txt "$real"
}

# An rfifind mask (sps-formats(5)): NCHAN channels, NINT intervals of PER
# spectra, the channels that follow masked throughout
rfifind_mask() {
	perl -e 'my ($n, $i, $p, @z) = @ARGV;
	    print pack("d6 l4", 10, 4, 60000, 0.1, 1400, 1, $n, $i, $p,
	        scalar @z), pack("l*", @z, 0, (0) x $i)' "$@"
}

# masked_in_every_block REPORT A B: each block of a --clean-report masks
# the channels A to B (its last column, a PRESTO list such as 3,7:9)
masked_in_every_block() {
	awk -v a="$2" -v b="$3" '!/^#/ {
		n = split($NF, item, ",")
		for (c = a; c <= b; c++) {
			hit = 0
			for (i = 1; i <= n; i++) {
				split(item[i], r, ":")
				if (!(2 in r)) r[2] = r[1]
				if (c >= r[1] + 0 && c <= r[2] + 0) hit = 1
				delete r
			}
			if (!hit) exit 1
		}
	}' "$1" || fail "channels $2 to $3 not masked in every block: $(cat "$1")"
}

@test "sps-search-clean: the fused search and the pipe with sps-clean in it give the same candidates and report" {
	local args f

	rfifind_mask 128 4 6000 $(seq 50 55) >carrier.mask
	{ yes 0 | head -16; yes 1 | head -112; } >kill.txt
	for args in "" "--zerodm -s 5" --zdot "--mask carrier.mask" \
	    "-k kill.txt" "--noclip --sk 4 --clean-block 1000 --hold 0"; do
		rm -rf one pipe
		# shellcheck disable=SC2086
		sps-search -q small.fil --dm 0 400 $args --clean-report one.rep \
		    -o one >one.txt
		# shellcheck disable=SC2086
		sps-search -q --pipe small.fil --dm 0 400 $args \
		    --clean-report pipe.rep -o pipe >pipe.txt
		cmp one.txt pipe.txt || fail "$args: tables differ"
		for f in candidates.cand candidates.singlepulse candidates.txt; do
			cmp "one/$f" "pipe/$f" || fail "$args: $f differs"
		done
		cmp one.rep pipe.rep || fail "$args: reports differ"
		[ "$(grep -vc '^#' one.txt)" -ge 2 ] || fail "$args: $(cat one.txt)"
	done
	# the mask's channels, in every block
	sps-search -q small.fil --dm 0 400 --mask carrier.mask --noiqrm \
	    --clean-report mask.rep >/dev/null
	masked_in_every_block mask.rep 50 55
	# by hand: sps-clean's output searched uncleaned
	sps-clean -q small.fil | sps-search -q --no-clean - --dm 0 400 >hand.txt
	sps-search -q small.fil --dm 0 400 >fused.txt
	cmp hand.txt fused.txt
}

@test "sps-search-clean: --no-clean is the search of the pipe without sps-clean, as before" {
	sps-search -q --no-clean small.fil --dm 0 400 -o one >one.txt
	sps-dedisperse -q small.fil --dm 0 400 | sps-boxcar -q |
	    sps-peaks -q >tools.txt
	cmp one.txt tools.txt
	sps-search -q --no-clean --pipe small.fil --dm 0 400 -o pipe >pipe.txt
	cmp one.txt pipe.txt
	diff -r one pipe
	! cmp -s one.txt <(sps-search -q small.fil --dm 0 400) ||
	    fail "the cleaning changed nothing"
}

@test "sps-search-clean: PSRFITS input is cleaned on the way as sps-clean cleans it" {
	local f=$shared/parkes_4bit.sf

	# zero-DM's float sums differ in the last bit between the CPU and
	# the GPU (sps-clean(1)): one engine for all three
	run -0 --separate-stderr sps-search --cpu "$f" --dm 0 80 -s 5 \
	    --zerodm --clean-report fused.rep
	printf '%s\n' "$output" >fused.txt
	[ "$(grep -vc '^#' fused.txt)" -ge 1 ] || fail "$(cat fused.txt)"
	[[ "$stderr" == *"sps-search: cleaning: 4096 spectra in 1 blocks: "*"% of samples replaced, "*" spectra clipped"* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"sps-search: cleaning: channels masked per block: mean "*" of 416"* ]] ||
	    fail "$stderr"
	cat "$f" | sps-clean -q --cpu --zerodm --report clean.rep - |
	    sps-search -q --cpu --no-clean - --dm 0 80 -s 5 >hand.txt
	cmp fused.txt hand.txt
	cmp fused.rep clean.rep
	sps-search -q --cpu --pipe "$f" --dm 0 80 -s 5 --zerodm >pipe.txt
	cmp fused.txt pipe.txt
	# the default cleaning is the same on either engine
	sps-search -q "$f" --dm 0 80 -s 5 >any.txt
	cat "$f" | sps-clean -q - | sps-search -q --no-clean - --dm 0 80 \
	    -s 5 >any-hand.txt
	cmp any.txt any-hand.txt
}

@test "sps-search-clean: the summary says what the cleaning did; -q and --no-clean say nothing of it" {
	local line

	run -0 --separate-stderr sps-search small.fil --dm 0 400 \
	    --clean-report rep.txt
	line=$(grep -c '^sps-search: cleaning: ' <<<"$stderr")
	[ "$line" -eq 2 ] || fail "$stderr"
	[[ "$stderr" == *"sps-search: cleaning: 23438 spectra in 6 blocks: "*"% of samples replaced, "*" spectra clipped"* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"sps-search: cleaning: channels masked per block: mean "*" of 128"* ]] ||
	    fail "$stderr"
	# a line a block, the carrier's channels masked by IQRM
	[ "$(grep -vc '^#' rep.txt)" -eq 6 ]
	masked_in_every_block rep.txt 50 55
	run -0 --separate-stderr sps-search -q small.fil --dm 0 400
	[ -z "$stderr" ] || fail "$stderr"
	run -0 --separate-stderr sps-search --no-clean small.fil --dm 0 400
	[[ "$stderr" != *cleaning* ]] || fail "$stderr"
}

# one_line STATUS COMMAND...: COMMAND exits STATUS with one line on the
# standard error, "sps-search: ...", and nothing made in out/
one_line() {
	local want=$1

	shift
	rm -rf out
	run --separate-stderr "$@" -o out --clean-report out.rep
	[ "$status" -eq "$want" ] || fail "$*: status $status: $stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$*: $stderr"
	[[ "$stderr" == "sps-search: "* ]] || fail "$*: $stderr"
	[ ! -e out ] && [ ! -e out.rep ] || fail "$*: left output"
}

@test "sps-search-clean: bad cleaning input is one clear line, before any work" {
	local f=pulses.fil

	rfifind_mask 128 4 16000 10 >wrong.mask
	rfifind_mask 256 4 16000 10 >good.mask
	head -c 60 good.mask >cut.mask
	printf '1\n%.0s' $(seq 99999) >kill.txt
	one_line 1 sps-search -q "$f" --mask wrong.mask
	assert_equal "$stderr" "sps-search: wrong.mask: the mask has 128 channels, the data 256"
	one_line 1 sps-search -q "$f" --mask cut.mask
	[[ "$stderr" == "sps-search: cut.mask: "*"(truncated?)" ]] || fail "$stderr"
	one_line 1 sps-search -q "$f" --mask missing.mask
	assert_equal "$stderr" "sps-search: missing.mask: No such file or directory"
	one_line 1 sps-search -q "$f" -k kill.txt
	[[ "$stderr" == "sps-search: kill.txt: "* ]] || fail "$stderr"
	one_line 1 sps-search -q "$f" --ignorechan 99999
	[[ "$stderr" == *99999* ]] || fail "$stderr"
	one_line 2 sps-search -q "$f" --clip 1e9
	assert_equal "$stderr" "sps-search: --clip: 1e9 is out of range [2, 100]"
	one_line 2 sps-search -q "$f" --iqrm -3
	one_line 2 sps-search -q "$f" --sk 0
	one_line 2 sps-search -q "$f" --hold -1
	one_line 2 sps-search -q "$f" --clean-block 4
	assert_equal "$stderr" "sps-search: --clean-block: 4 is out of range [32, 16777216]"
	# conflicts: a usage error, its line and the synopsis
	run -2 --separate-stderr sps-search -q "$f" --no-clean --zdot
	assert_equal "${stderr_lines[0]}" "sps-search: --no-clean and --zdot: no cleaning to set"
	[[ "${stderr_lines[1]}" == "usage: sps-search "* ]] || fail "$stderr"
	run -2 --separate-stderr sps-search -q "$f" --zerodm --zdot
	assert_equal "${stderr_lines[0]}" "sps-search: --zerodm and --zdot both remove the zero-DM signal"
	run -2 --separate-stderr sps-clean -q "$f" --zdot --zerodm
	assert_equal "${stderr_lines[0]}" "sps-clean: --zerodm and --zdot both remove the zero-DM signal"
}
