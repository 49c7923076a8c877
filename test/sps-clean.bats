#!/usr/bin/env bats
# sps-clean: zero-DM impulses removed while a dispersed pulse keeps its
# S/N, pipes and PSRFITS, the report, kill files, channel lists and
# rfifind masks, and bad input.
# Also uses: sps-fake, sps-search, sps-dedisperse, sps-header, perl.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

data="$BATS_TEST_DIRNAME/../../shared/data"

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# Noise with two broad-band impulses (DM 0) and a pulse at DM 300.
impulses() {
	sps-fake -q --nchans 256 --nbits 8 --tsamp 256 --tobs 8 --fch1 1500 \
	    --foff -1 --seed 3 \
	    --pulse dm=0,t=2.0,width=1ms,snr=40,shape=rect \
	    --pulse dm=0,t=5.0,width=4ms,snr=60,shape=rect \
	    --pulse dm=300,t=3.5,width=2ms,snr=20 -o imp.fil
}

# An rfifind mask (PRESTO's layout, sps-formats(5)): NCHAN channels,
# NINT intervals of PER spectra, channel ZAP masked throughout.
rfifind_mask() {
	perl -e 'my ($n, $i, $p, $z) = @ARGV;
	    print pack("d6 l4 l l", 10, 4, 60000, 0.1, 1400, 1, $n, $i, $p,
	        1, $z, 0), pack("l*", (0) x $i)' "$@"
}

@test "sps-clean: DM-0 impulses go, a DM-300 pulse keeps >= 90% of its S/N" {
	local before after
	impulses
	sps-search -q --no-clean imp.fil --dm 0 500 >before
	[ "$(grep -vc '^#' before)" -eq 3 ] || fail "$(cat before)"
	sps-clean -q imp.fil -o clean.fil
	sps-search -q clean.fil --dm 0 500 >after
	awk '!/^#/ && $5 < 5 && $4 >= 7 { exit 1 }' after ||
	    fail "an impulse is left: $(cat after)"
	before=$(awk '!/^#/ && $5 > 250 { print $4 }' before)
	after=$(awk '!/^#/ && $5 > 250 { print $4 }' after)
	awk -v b="$before" -v a="$after" 'BEGIN { exit !(a >= 0.9 * b) }' ||
	    fail "S/N $before -> $after"
}

@test "sps-clean: the header and nbits are kept; -b changes nbits" {
	impulses
	sps-clean -q imp.fil -o clean.fil
	[ "$(sps-header --nchans clean.fil)" = 256 ]
	[ "$(sps-header --nbits clean.fil)" = 8 ]
	[ "$(sps-header --nsamples clean.fil)" = "$(sps-header --nsamples imp.fil)" ]
	sps-clean -q -b 32 imp.fil -o c32.fil
	[ "$(sps-header --nbits c32.fil)" = 32 ]
}

@test "sps-clean: works in a pipe, from standard input to sps-dedisperse" {
	impulses
	cat imp.fil | sps-clean -q - | sps-dedisperse -d 300 >pipe.tim
	sps-clean -q imp.fil | sps-dedisperse -d 300 >file.tim
	[ -s pipe.tim ]
	cmp pipe.tim file.tim
}

@test "sps-clean: PSRFITS input" {
	run -0 --separate-stderr sps-clean -q "$data/parkes_4bit.sf" -o sf.fil
	[ "$(sps-header --nchans sf.fil)" = 416 ]
	[ "$(sps-header --nsamples sf.fil)" = 4096 ]
	run -0 --separate-stderr sps-clean "$data/src1_small.fits" -o s.fil
	[[ "$stderr" == *"sps-clean: 789 spectra in 1 blocks"* ]] || fail "$stderr"
}

@test "sps-clean: --zerodm and --zdot; zero-DM alone removes the impulses" {
	impulses
	sps-clean -q --noclip --zerodm imp.fil -o z.fil
	sps-clean -q --noclip --zdot imp.fil -o d.fil
	[ "$(sps-header --nsamples z.fil)" = 31250 ]
	[ "$(sps-header --nsamples d.fil)" = 31250 ]
	# the impulses are gone at DM 0 without clipping
	sps-search -q z.fil --dm 0 20 >z.txt
	awk '!/^#/ && $4 >= 8 { exit 1 }' z.txt || fail "$(cat z.txt)"
}

@test "sps-clean: the report names the channels masked, in PRESTO's numbers" {
	impulses
	run -0 --separate-stderr sps-clean imp.fil -k <(
	    for c in $(seq 0 255); do [ "$c" = 250 ] && echo 0 || echo 1; done) \
	    --zapchan 3:4 --report rep.txt -o /dev/null
	[[ "$stderr" == *"samples replaced"* ]] || fail "$stderr"
	[[ "$stderr" == *"channels masked per block: mean 3.0"* ]] || fail "$stderr"
	# file channel 250 of a descending band is PRESTO's 5
	[ "$(awk '!/^#/ { print $NF }' rep.txt | sort -u)" = 3:5 ]
	[ "$(grep -vc '^#' rep.txt)" -eq 8 ]
	run -0 --separate-stderr sps-clean -q imp.fil -o /dev/null
	[ -z "$stderr" ]
}

@test "sps-clean: an rfifind mask masks its channels; bad masks are one line" {
	impulses
	rfifind_mask 256 4 8000 10 >good.mask
	sps-clean -q --mask good.mask --report rep.txt imp.fil -o /dev/null
	[ "$(awk '!/^#/ { print $NF }' rep.txt | sort -u)" = 10 ]
	# blocks stop at the mask's intervals
	[ "$(awk '!/^#/ { print $2 }' rep.txt | tr '\n' ' ')" = "0 4096 8000 12096 16000 20096 24000 28096 " ]
	rfifind_mask 128 4 8000 10 >wrong.mask
	run -1 --separate-stderr sps-clean --mask wrong.mask imp.fil -o x.fil
	[ "$stderr" = "sps-clean: wrong.mask: the mask has 128 channels, the data 256" ]
	head -c 60 good.mask >cut.mask
	run -1 --separate-stderr sps-clean --mask cut.mask imp.fil -o x.fil
	[[ "$stderr" == "sps-clean: cut.mask: rfifind mask ends inside "*"(truncated?)" ]] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e x.fil ]
}

@test "sps-clean: bad channels and thresholds are one clear line" {
	impulses
	run -1 --separate-stderr sps-clean --zapchan 99999 imp.fil -o x.fil
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "sps-clean: "*99999* ]] || fail "$stderr"
	printf '1\n%.0s' $(seq 99999) >kill.txt
	run -1 --separate-stderr sps-clean -k kill.txt imp.fil -o x.fil
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "sps-clean: kill.txt"* ]] || fail "$stderr"
	run -2 --separate-stderr sps-clean --clip 1e9 imp.fil
	[ "$stderr" = "sps-clean: --clip: 1e9 is out of range [2, 100]" ] || fail "$stderr"
	run -2 --separate-stderr sps-clean --iqrm -3 imp.fil
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e x.fil ]
}
