#!/usr/bin/env bats
# sps-dedisperse: exact sums against a naive loop, pulses found where they
# were put, streaming, kill mask, sub-bands and trees against the direct
# algorithm, outputs, what 8- and 16-bit outputs cost in S/N, bad input.
#
# aux-dedisp (test/aux-dedisp.c) makes random integer filterbanks, is the
# naive reference, and decodes DM-time streams; see its header comment.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
	# DMs with odd delays for the small files below (37 channels, 1 ms)
	printf '0\n13.7\n55.5\n101\n250\n' >plan.txt
	# scrunch factors: 1, 2, 4, 8, odd lengths for every one of them
	printf '0 1\n50 2\n101 2\n250 4\n300 8\n' >scrunch.txt
}

# naive_equal FILE PLAN [OPTION ...]: the stream sps-dedisperse writes
# with the options, decoded, equals aux-dedisp naive byte for byte.
naive_equal() {
	local file=$1 plan=$2

	shift 2
	sps-dedisperse -q --plan "$plan" "$@" "$file" >got.dmt
	aux-dedisp dump got.dmt >got.raw
	aux-dedisp naive "$file" "$plan" >want.raw
	[ -s want.raw ] || fail "naive output is empty"
	cmp got.raw want.raw || fail "$file $*: differs from the naive sum"
}

# same_trials PLAN STREAM: the stream's DM table holds the plan's trials
same_trials() {
	awk '$1 ~ /^[0-9]/' "$1" >want.trials
	aux-dedisp dms "$2" >got.trials
	[ "$(wc -l <want.trials)" -eq "$(wc -l <got.trials)" ] ||
	    fail "$(wc -l <got.trials) trials in $2, not $(wc -l <want.trials)"
	run awk 'NR == FNR { d[FNR] = $1; s[FNR] = $2; next }
	    { r = $1 - d[FNR]; if (r < 0) r = -r;
	      if (r > 1e-12 * $1 || $2 != s[FNR]) print "trial " FNR }' \
	    want.trials got.trials
	assert_output ""
}

# within A B R: A is within the fraction R of B
within() {
	awk -v a="$1" -v b="$2" -v r="$3" \
	    'BEGIN { exit !(a >= b * (1 - r) && a <= b * (1 + r)) }' ||
	    fail "$1 is not within $3 of $2"
}

# nearest_trial STREAM DM: index of the trial nearest DM
nearest_trial() {
	aux-dedisp dms "$1" | awk -v dm="$2" '{ d = $1 - dm; if (d < 0) d = -d;
	    if (NR == 1 || d < best) { best = d; i = NR - 1 } } END { print i }'
}

# best_trial STREAM W: "TRIAL DM SCRUNCH START SNR" of the highest S/N
best_trial() {
	aux-dedisp peak -w "$2" "$1" | sort -k5 -g | tail -n 1
}

# found STREAM DM W I0 SNR: the pulse peaks in the trial nearest DM, its
# boxcar starts at I0 (within a sample of the trial), S/N within 10 %.
# Sets f to the scrunch factor of that trial.
found() {
	local trial dm start snr nearest

	nearest=$(nearest_trial "$1" "$2")
	read -r trial dm f start snr <<<"$(best_trial "$1" "$3")"
	[ "$trial" -eq "$nearest" ] ||
	    fail "peak in trial $trial (DM $dm), not $nearest"
	[ $((start - $4)) -le "$f" ] && [ $(($4 - start)) -le "$f" ] ||
	    fail "boxcar starts at sample $start, not $4 (scrunch $f)"
	within "$snr" "$5" 0.10
}

@test "sps-dedisperse: equals the naive sum for every nbits, foff < 0" {
	for b in 1 2 4 8 16 32; do
		aux-dedisp gen -b $b -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 \
		    -s $b >in$b.fil
		naive_equal in$b.fil plan.txt
	done
}

@test "sps-dedisperse: equals the naive sum for every nbits, foff > 0" {
	for b in 1 2 4 8 16 32; do
		aux-dedisp gen -b $b -c 37 -n 3001 -f 1288.4 -o 3.1 -t 0.001 \
		    -s $b >in$b.fil
		naive_equal in$b.fil plan.txt
	done
}

@test "sps-dedisperse: both channel orders of the same data give the same series" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >down.fil
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1288.4 -o 3.1 -t 0.001 -r >up.fil
	if cmp -s down.fil up.fil; then fail "-r did not reverse"; fi
	sps-dedisperse -q --plan scrunch.txt down.fil | aux-dedisp dump >down.raw
	sps-dedisperse -q --plan scrunch.txt up.fil | aux-dedisp dump >up.raw
	[ -s down.raw ]
	cmp down.raw up.raw
}

@test "sps-dedisperse: equals the naive sum with scrunch factors 1 to 8" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	naive_equal in.fil scrunch.txt
	aux-dedisp gen -b 4 -c 37 -n 2999 -f 1288.4 -o 3.1 -t 0.001 >in.fil
	naive_equal in.fil scrunch.txt
}

@test "sps-dedisperse: sums two IFs, odd sizes, 16-bit near the exact limit" {
	aux-dedisp gen -b 8 -c 29 -i 2 -n 1777 -f 1400 -o -3.3 -t 0.001 >in.fil
	naive_equal in.fil scrunch.txt
	# 255 channels x 65535 < 2^24: float sums still exact
	aux-dedisp gen -b 16 -c 255 -n 700 -f 1400 -o -0.5 -t 0.001 >in.fil
	naive_equal in.fil plan.txt
}

@test "sps-dedisperse: DM 0 is the plain band sum" {
	aux-dedisp gen -b 8 -c 37 -n 501 -f 1400 -o -3.1 -t 0.001 >in.fil
	echo 0 >zero.txt
	naive_equal in.fil zero.txt
	run aux-dedisp naive -l in.fil zero.txt
	assert_output "0 501"
}

@test "sps-dedisperse: delays longer than a block" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	run aux-dedisp naive -l in.fil scrunch.txt
	assert_output "112 3001"
	naive_equal in.fil scrunch.txt --block 8
	naive_equal in.fil scrunch.txt --block 100
	naive_equal in.fil plan.txt --block 1
}

@test "sps-dedisperse: block size and threads do not change the output" {
	aux-dedisp gen -b 8 -c 64 -n 5003 -f 1400 -o -2 -t 0.001 >in.fil
	for b in 16 1000 16384; do
		sps-dedisperse -q --block $b --plan scrunch.txt in.fil >s$b.dmt
		aux-dedisp dump s$b.dmt >s$b.raw
		mkdir o$b
		sps-dedisperse -q --block $b --plan scrunch.txt -o o$b/x in.fil
	done
	sps-dedisperse -q -t 1 --block 1000 --plan scrunch.txt in.fil >t1.dmt
	cmp t1.dmt s1000.dmt
	cmp s16.raw s1000.raw
	cmp s16.raw s16384.raw
	for f in o16/*.tim; do
		cmp "$f" "o1000/${f#o16/}"
		cmp "$f" "o16384/${f#o16/}"
	done
	[ "$(ls o16 | wc -l)" -eq 5 ]
}

@test "sps-dedisperse: the stream from a pipe equals the stream from a file" {
	aux-dedisp gen -b 2 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	sps-dedisperse -q --block 500 --plan scrunch.txt in.fil >file.dmt
	cat in.fil | sps-dedisperse -q --block 500 --plan scrunch.txt >pipe.dmt
	aux-dedisp dump file.dmt >file.raw
	aux-dedisp dump pipe.dmt >pipe.raw
	cmp file.raw pipe.raw
	# a pipe's length is unknown when the header is written
	run -0 aux-dedisp info pipe.dmt
	assert_line "nsamples -1"
	assert_line "blocks 3001"
}

@test "sps-dedisperse: reads PSRFITS: src1_small.fits equals the naive sum" {
	f="$BATS_TEST_DIRNAME/../../shared/data/src1_small.fits"
	[ -f "$f" ] || skip "no shared data"
	sps-dedisperse -q --plan plan.txt "$f" >s.dmt
	run -0 aux-dedisp info s.dmt
	assert_line "nchans_in 336"
	assert_line "fch1 1465"
	assert_line "nsamples 789"
	assert_line "blocks 789"
	# its scaled values are integers: the sums are exact.  The naive
	# sum reads SIGPROC only: it gets the values sps-filterbank gives,
	# which the next case and sps-filterbank.bats check independently
	sps-filterbank -q -b 32 "$f" >s.fil
	naive_equal s.fil plan.txt
	aux-dedisp dump s.dmt >direct.raw
	cmp direct.raw got.raw
}

@test "sps-dedisperse: reads PSRFITS: the values aux-mkfits put in, summed naively" {
	# 16 channels 1500 .. 1470 MHz, 64 us; integer values (unit scales)
	aux-mkfits -b 8 -u -s 512 -r 2 -e want.f32 x.fits
	{ aux-mkheader HEADER_START source_name:s:x data_type:i:1 \
	    nchans:i:16 nbits:i:32 nifs:i:1 fch1:d:1500 foff:d:-2 \
	    tsamp:d:6.4e-5 tstart:d:60000 HEADER_END; cat want.f32; } >want.fil
	printf '0\n21.5\n50\n100\n' >fits-plan.txt
	sps-dedisperse -q --plan fits-plan.txt x.fits >x.dmt
	aux-dedisp dump x.dmt >got.raw
	aux-dedisp naive want.fil fits-plan.txt >want.raw
	[ "$(stat -c %s want.raw)" -eq $((4 * 4 * 1024)) ]
	cmp got.raw want.raw
}

@test "sps-dedisperse: --dm LO HI takes sps-plan's dedisp list" {
	aux-dedisp gen -b 8 -c 64 -n 4000 -f 1400 -o -2 -t 0.000256 >in.fil
	sps-dedisperse -q --dm 10 200 --dm_tol 1.3 --dm_pulse_width 100 \
	    in.fil >s.dmt
	sps-plan -q --dm 10 200 --dm_tol 1.3 --dm_pulse_width 100 \
	    -o plan in.fil
	[ "$(grep -c '^[0-9]' plan)" -gt 10 ]
	same_trials plan s.dmt
	naive_equal in.fil plan
}

@test "sps-dedisperse: stream header: top of the band, span, DM table" {
	for order in "-f 1400 -o -3.1" "-f 1288.4 -o 3.1"; do
		# shellcheck disable=SC2086
		aux-dedisp gen -b 8 -c 37 -n 3001 -t 0.001 $order >in.fil
		sps-dedisperse -q --block 1000 --plan scrunch.txt in.fil >s.dmt
		run -0 aux-dedisp info s.dmt
		assert_line "fch1 1400"
		assert_line "nsamples 3001"
		assert_line "blocks 3001"
		assert_line "maxdelay 112"
		assert_line "block 1000"
		assert_line "nchans_in 37"
		assert_line "nbits 32"
		assert_line "tstart 60000.5"
		assert_line "ndms 5"
		run -0 aux-dedisp dms s.dmt
		assert_output "$(printf '0 1\n50 2\n101 2\n250 4\n300 8')"
	done
	run -0 sps-header --nchans --data_type --nbits s.dmt
	assert_output "$(printf '1\n2\n32')"
}

@test "sps-dedisperse: -d DM writes one SIGPROC time series on stdout" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	sps-dedisperse -q in.fil -d 55.5 >x.tim
	run -0 sps-header --data_type --refdm --nbits --nchans --fch1 \
	    --tsamp --tstart --nsamples x.tim
	assert_output "$(printf '2\n55.5\n32\n1\n1400\n1000\n60000.500000000000\n3001')"
	echo 55.5 >one.txt
	aux-dedisp naive in.fil one.txt >want.raw
	hdr=$(sps-header --headersize x.tim)
	tail -c +$((hdr + 1)) x.tim >got.raw
	cmp got.raw want.raw
}

@test "sps-dedisperse: -o PREFIX writes PREFIX_DM%.2f.tim read back by sps-header" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	run -0 aux-dedisp naive -l in.fil scrunch.txt
	assert_output "112 3001"
	sps-dedisperse -q --plan scrunch.txt -o out in.fil
	for dm in 0.00 50.00 101.00 250.00 300.00; do
		[ -f out_DM$dm.tim ] || fail "no out_DM$dm.tim"
	done
	[ "$(ls out* | wc -l)" -eq 5 ]
	run -0 sps-header --data_type --refdm --nbits --nchans --fch1 \
	    --tsamp --nsamples out_DM101.00.tim
	assert_output "$(printf '2\n101\n32\n1\n1400\n2000\n1500')"
	run -0 sps-header --refdm --tsamp --nsamples out_DM300.00.tim
	assert_output "$(printf '300\n8000\n375')"
	# every series is its trial of the naive sum
	aux-dedisp naive in.fil scrunch.txt >want.raw
	for dm in 0.00 50.00 101.00 250.00 300.00; do
		hdr=$(sps-header --headersize out_DM$dm.tim)
		tail -c +$((hdr + 1)) out_DM$dm.tim
	done >got.raw
	cmp got.raw want.raw
}

@test "sps-dedisperse: --presto writes .dat and .inf as PRESTO does" {
	aux-dedisp gen -c 16 -n 200 -f 1400 -o -4 -t 0.000256 -T 4 -M 10 \
	    -R 123456.7 -D -301234.5 >tiny.fil
	printf '0\n12.5\n' >tiny.txt
	run -0 aux-dedisp naive -l tiny.fil tiny.txt
	assert_output "9 200"
	sps-dedisperse -q --plan tiny.txt -o tiny --presto tiny.fil
	# the .dat is the .tim's data
	hdr=$(sps-header --headersize tiny_DM12.50.tim)
	tail -c +$((hdr + 1)) tiny_DM12.50.tim | cmp - tiny_DM12.50.dat
	[ "$(stat -c %s tiny_DM12.50.dat)" -eq $((200 * 4)) ]
	# '=' at column 40 (0-based) on every line that has one
	run awk 'index($0, "=") && index($0, "=") != 41 { print NR }' \
	    tiny_DM12.50.inf
	assert_output ""
	cat >want.inf <<-'EOF'
	 Data file name without suffix          =  tiny_DM12.50
	 Telescope used                         =  Parkes
	 Instrument used                        =  BPSR
	 Object being observed                  =  AUX
	 J2000 Right Ascension (hh:mm:ss.ssss)  =  12:34:56.7000
	 J2000 Declination     (dd:mm:ss.ssss)  =  -30:12:34.5000
	 Data observed by                       =  Unknown
	 Epoch of observation (MJD)             =  60000.500000000000000
	 Barycentered?           (1 yes, 0 no)  =  0
	 Number of bins in the time series      =  200        
	 Width of each time series bin (sec)    =  0.000256
	 Any breaks in the data? (1 yes, 0 no)  =  0
	 Type of observation (EM band)          =  Radio
	 Beam diameter (arcsec)                 =  0
	 Dispersion measure (cm-3 pc)           =  12.5
	 Central freq of low channel (MHz)      =  1340
	 Total bandwidth (MHz)                  =  64
	 Number of channels                     =  16
	 Channel bandwidth (MHz)                =  4
	 Data analyzed by                       =  sps-dedisperse
	 Any additional notes:
	    Dedispersed by sps to the top of the band

	EOF
	diff want.inf tiny_DM12.50.inf
}

@test "sps-dedisperse: a pulse at DM 300 peaks at DM 300, in time, at its S/N" {
	sps-fake -q --nosmear --nchans 128 --tsamp 256 --tobs 4 --seed 1 \
	    --pulse "dm=300,t=1.5,width=1ms,snr=50" -o p.fil
	sps-dedisperse -q --dm 0 1200 p.fil >p.dmt
	# W = 1 ms / 256 us = 4, i0 = floor(1.5 / 256e-6 - 2 + 0.5) = 5857
	found p.dmt 300 4 5857 50
	[ "$f" -eq 1 ] || fail "scrunch factor $f, not 1"
}

@test "sps-dedisperse: a pulse at DM 1000 peaks at DM 1000, in time, at its S/N" {
	sps-fake -q --nosmear --nchans 128 --tsamp 256 --tobs 4 --seed 2 \
	    --pulse "dm=1000,t=1.5,width=1ms,snr=50" -o p.fil
	sps-dedisperse -q --dm 0 1200 p.fil >p.dmt
	found p.dmt 1000 4 5857 50
	[ "$f" -eq 1 ] || fail "scrunch factor $f, not 1"
}

# With --scrunch the trials near DM 300 are scrunched 16-fold and those
# near 1000 64-fold here; the pulses are rectangles four scrunched samples
# wide, starting on a scrunched sample, so that the coarser trial loses
# little S/N to the grid.
@test "sps-dedisperse: --scrunch: a pulse at DM 300 is found in a 16x scrunched trial" {
	sps-fake -q --nchans 128 --tsamp 256 --tobs 8 --seed 1 \
	    --pulse "dm=300,t=1.507328,width=16384us,snr=100,shape=rect" \
	    -o p.fil
	sps-dedisperse -q --scrunch --dm 0 1200 p.fil >p.dmt
	found p.dmt 300 64 5856 100
	[ "$f" -eq 16 ] || fail "scrunch factor $f, not 16"
}

@test "sps-dedisperse: --scrunch: a pulse at DM 1000 is found in a 64x scrunched trial" {
	sps-fake -q --nchans 128 --tsamp 256 --tobs 16 --seed 1 \
	    --pulse "dm=1000,t=1.540096,width=65536us,snr=100,shape=rect" \
	    -o p.fil
	sps-dedisperse -q --scrunch --dm 0 1200 p.fil >p.dmt
	found p.dmt 1000 256 5888 100
	[ "$f" -eq 64 ] || fail "scrunch factor $f, not 64"
}

# sub_vs_direct NSUB DM SEED: sets bound (ms), and the best trials of the
# direct and sub-band runs on a 1 ms pulse of S/N 50.
sub_vs_direct() {
	sps-fake -q --nosmear --nchans 128 --tsamp 256 --tobs 4 --seed "$3" \
	    --pulse "dm=$2,t=1.5,width=1ms,snr=50" -o p.fil
	sps-dedisperse -q --dm 0 1200 p.fil >d.dmt
	sps-dedisperse --subband "$1" --dm 0 1200 p.fil 2>err >s.dmt
	bound=$(sed -n 's/.*sub-band smearing bound \([0-9.e+-]*\) ms.*/\1/p' err)
	[ -n "$bound" ] || fail "no smearing bound on stderr: $(cat err)"
	read -r dtrial ddm df dstart dsnr <<<"$(best_trial d.dmt 4)"
	read -r strial sdm sf sstart ssnr <<<"$(best_trial s.dmt 4)"
	awk -v a="$dstart" -v b="$sstart" -v t=0.256 -v bound="$bound" \
	    'BEGIN { d = (a - b) * t; if (d < 0) d = -d; exit !(d <= bound) }' ||
	    fail "peaks $dstart and $sstart are further apart than $bound ms"
}

@test "sps-dedisperse: --subband 32 is within its Appendix B bound of the direct result" {
	sub_vs_direct 32 300 1
	[ "$strial" -eq "$dtrial" ]
	awk -v b="$bound" 'BEGIN { exit !(b > 0 && b < 2) }'
	within "$ssnr" "$dsnr" 0.05
}

@test "sps-dedisperse: --subband 8 is within its (larger) bound of the direct result" {
	sub_vs_direct 8 1000 1
	# the bound is larger than the pulse: S/N falls, by no more than
	# W / sqrt(W^2 + t_SB^2) with W = 1 ms (Barsdell eq. B3)
	awk -v b="$bound" -v s="$ssnr" -v d="$dsnr" \
	    'BEGIN { exit !(b > 2 && s >= d / sqrt(1 + b * b) && s < d) }' ||
	    fail "bound $bound ms, S/N $ssnr against $dsnr"
}

# bound ARGS...: the sub-band smearing bound sps-dedisperse reports, ms
bound() {
	sps-dedisperse "$@" 2>&1 >/dev/null |
	    sed -n 's/.*sub-band smearing bound \([0-9.e+-]*\) ms.*/\1/p'
}

@test "sps-dedisperse: the sub-band bound is Appendix B's; none for the direct algorithm" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	run -0 --separate-stderr sps-dedisperse --plan plan.txt in.fil -o x
	[[ "$stderr" == *"trials in"* && "$stderr" != *sub-band* ]]
	# 4 sub-bands of 10, 10, 10 and 7 channels; the widest delay across
	# one at DM 1 is 0.0998 ms (1338 to 1310.1 MHz); tsamp 1 ms.
	# One trial per nominal DM: only the rounding.
	run bound --subband 4 --group 1 --plan plan.txt in.fil
	assert_output 1
	# pairs (0, 13.7) (55.5, 101) (250): |DM - nominal| up to 22.75
	run bound --subband 4 --group 2 --plan plan.txt in.fil
	assert_output 3.27
	# default: 10 trials per nominal DM, all five around DM 125
	run bound --subband 4 --plan plan.txt in.fil
	assert_output 13.5
}

# ---- --algo: the tree algorithms against the direct one ---------------

# smear FILE: the smearing bound (ms) of the sub-band or tree line in the
# stderr file FILE ("sub-band smearing bound X ms", "tree smearing X ms")
smear() {
	sed -n 's/^sps-dedisperse: .* smearing \(bound \)\{0,1\}\([0-9.e+-]*\) ms.*/\2/p' "$1"
}

# pulse_file DM: p.fil, 256 channels of 1 MHz from 1500 MHz down, 256 us,
# 4 s, one 1 ms pulse of S/N 30 at 1.5 s
pulse_file() {
	sps-fake -q --nosmear --nchans 256 --fch1 1500 --foff -1 --tsamp 256 \
	    --tobs 4 --seed 5 --pulse "dm=$1,t=1.5,width=1ms,snr=30" -o p.fil
}

# tree_vs_direct W ALGO OPTION...: the direct run and ALGO's on p.fil with
# the options, the best trial of each with boxcars of W base samples; sets
# bound (ms, from ALGO's stderr), dtrial dsnr dstart, ttrial tsnr tstart
# and tf, and checks that ALGO's best trial is the direct one's or next to
# it and starts within the bound of it.
tree_vs_direct() {
	local w=$1 algo=$2 ddm df tdm

	shift 2
	sps-dedisperse -q "$@" p.fil >d.dmt
	sps-dedisperse --algo "$algo" "$@" p.fil 2>err >t.dmt
	bound=$(smear err)
	[ -n "$bound" ] || fail "no smearing bound on stderr: $(cat err)"
	read -r dtrial ddm df dstart dsnr <<<"$(best_trial d.dmt "$w")"
	read -r ttrial tdm tf tstart tsnr <<<"$(best_trial t.dmt "$w")"
	[ $((ttrial - dtrial)) -le 1 ] && [ $((dtrial - ttrial)) -le 1 ] ||
	    fail "$algo: peak in trial $ttrial (DM $tdm), direct $dtrial (DM $ddm)"
	awk -v a="$dstart" -v b="$tstart" -v t=0.256 -v f="$tf" -v bound="$bound" \
	    'BEGIN { d = (a - b) * t; if (d < 0) d = -d;
	    exit !(d <= bound + f * t) }' ||
	    fail "$algo: peaks at $tstart and $dstart, further apart than $bound ms"
}

# snr_within W [MIN]: the tree's S/N is at least MIN (default 0.8) of the
# direct one's and no lower than a pulse of W ms smeared by the bound
# keeps (Barsdell eq. A5: width sqrt(W^2 + t^2)), less 5 % for the noise;
# and not above it by more than the noise
snr_within() {
	awk -v t="$tsnr" -v d="$dsnr" -v b="$bound" -v w="$1" -v m="${2:-0.8}" \
	    'BEGIN { exit !(t >= m * d &&
	    t >= 0.95 * d * w / sqrt(w * w + b * b) && t <= 1.1 * d) }' ||
	    fail "S/N $tsnr against $dsnr direct, bound $bound ms"
}

@test "sps-dedisperse: --algo tree-linear finds a DM 300 pulse at the direct trial, S/N within its bound" {
	pulse_file 300
	tree_vs_direct 4 tree-linear --dm 0 1200
	snr_within 1
	# eq. A4 at DM 1200 is 0.4 ms here; the rest is rounding
	awk -v b="$bound" 'BEGIN { exit !(b > 0 && b < 2) }' ||
	    fail "bound $bound ms"
}

@test "sps-dedisperse: --algo tree-padded finds a DM 300 pulse at the direct trial, S/N within its bound" {
	pulse_file 300
	tree_vs_direct 4 tree-padded --dm 0 1200
	snr_within 1
	awk -v b="$bound" 'BEGIN { exit !(b > 0) }' || fail "bound $bound ms"
}

@test "sps-dedisperse: tree-linear: wider sub-bands smear more, within the bound" {
	pulse_file 300
	# trials 10 apart (8 ms of delay across the band): the pulse is in
	# trial 2 whatever the smearing
	printf '280\n290\n300\n310\n320\n' >coarse.txt
	# 16 sub-bands of 16 channels (the default), then 4 of 64: eq. A4
	# (1.7 ms at DM 320 for 64) grows 16-fold, and the traced bound with it
	tree_vs_direct 4 tree-linear --plan coarse.txt
	[ "$ttrial" -eq 2 ] && [ "$dtrial" -eq 2 ]
	snr_within 1
	narrow=$bound
	a4_narrow=$(sed -n 's/.*eq\. A4: \([0-9.e+-]*\) ms.*/\1/p' err)
	tree_vs_direct 4 tree-linear --plan coarse.txt --subband 4
	[ "$ttrial" -eq 2 ]
	snr_within 1 0
	a4_wide=$(sed -n 's/.*eq\. A4: \([0-9.e+-]*\) ms.*/\1/p' err)
	[ -n "$a4_narrow" ] && [ -n "$a4_wide" ] ||
	    fail "no eq. A4 bound on stderr: $(cat err)"
	awk -v n="$a4_narrow" -v w="$a4_wide" \
	    'BEGIN { exit !(n > 0 && w > 15 * n && w < 17 * n) }' ||
	    fail "eq. A4: $a4_wide ms for 64 channels, $a4_narrow ms for 16"
	awk -v n="$narrow" -v w="$bound" 'BEGIN { exit !(w > n) }' ||
	    fail "traced: $bound ms for 64 channels, $narrow ms for 16"
	# the piecewise-linear error is most of what is traced (eq. A4 takes
	# the curvature at the bottom of the band for the whole sub-band)
	awk -v a="$a4_wide" -v w="$bound" 'BEGIN { exit !(w >= 0.5 * a) }' ||
	    fail "traced $bound ms is far below eq. A4's $a4_wide ms"
}

@test "sps-dedisperse: --scrunch: the trees find a DM 1000 pulse in the 64x scrunched trial" {
	sps-fake -q --nchans 128 --tsamp 256 --tobs 16 --seed 1 \
	    --pulse "dm=1000,t=1.540096,width=65536us,snr=100,shape=rect" \
	    -o p.fil
	for a in tree-linear tree-padded; do
		tree_vs_direct 256 $a --scrunch --dm 0 1200
		[ "$tf" -eq 64 ] || fail "$a: scrunch factor $tf, not 64"
		snr_within 65.536
	done
}

@test "sps-dedisperse: trees: block size and threads do not change the output" {
	aux-dedisp gen -b 8 -c 64 -n 3001 -f 1400 -o -2 -t 0.001 >in.fil
	for a in tree-linear tree-padded; do
		for b in 24 1000 16384; do
			sps-dedisperse -q --algo $a --block $b --plan scrunch.txt \
			    in.fil >s$b.dmt
			aux-dedisp dump s$b.dmt >s$b.raw
		done
		sps-dedisperse -q -t 1 --algo $a --block 1000 --plan scrunch.txt \
		    in.fil >t1.dmt
		cmp t1.dmt s1000.dmt || fail "$a: -t 1 differs"
		cmp s24.raw s1000.raw || fail "$a: --block 24 differs from 1000"
		cmp s24.raw s16384.raw || fail "$a: --block 24 differs from 16384"
	done
}

@test "sps-dedisperse: --algo subband is --subband; --algo direct the default" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	sps-dedisperse -q --subband 4 --plan plan.txt in.fil >a.dmt
	sps-dedisperse -q --algo subband --subband 4 --plan plan.txt in.fil >b.dmt
	cmp a.dmt b.dmt
	sps-dedisperse -q --plan plan.txt in.fil >c.dmt
	sps-dedisperse -q --algo direct --plan plan.txt in.fil >d.dmt
	cmp c.dmt d.dmt
	if cmp -s a.dmt c.dmt; then fail "sub-bands equal the direct sums"; fi
}

@test "sps-dedisperse: the trees report their smearing, tree-linear with eq. A4; -q is silent" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	sps-dedisperse --algo tree-linear --plan plan.txt in.fil 2>err >s.dmt
	# eq. A4 is the straight lines' error alone, not a bound on the whole
	grep -Eq '^sps-dedisperse: tree smearing [0-9.e+-]+ ms \(largest over trials and channels, delay rounding included; the piecewise-linear error alone, Barsdell et al\. 2012 eq\. A4: [0-9.e+-]+ ms\)$' err ||
	    fail "tree-linear: $(cat err)"
	sps-dedisperse --algo tree-padded --plan plan.txt in.fil 2>err >s.dmt
	grep -Eq '^sps-dedisperse: tree smearing [0-9.e+-]+ ms' err ||
	    fail "tree-padded: $(cat err)"
	if grep -q 'sub-band' err; then fail "tree-padded: $(cat err)"; fi
	sps-dedisperse --algo direct --plan plan.txt in.fil 2>err >s.dmt
	grep -q 'trials in' err
	if grep -q smearing err; then fail "direct: $(cat err)"; fi
	for a in tree-linear tree-padded; do
		sps-dedisperse -q --algo $a --plan plan.txt in.fil 2>err >s.dmt
		[ -s s.dmt ]
		[ ! -s err ] || fail "$a -q: $(cat err)"
	done
}

@test "sps-dedisperse: killed channels contribute nothing, on every algorithm" {
	# channels 0, 5 and 17 huge in one file, 0 in the other
	aux-dedisp gen -b 32 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 \
	    -z 0,5,17 -Z 1000000 >huge.fil
	aux-dedisp gen -b 32 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 \
	    -z 0,5,17 -Z 0 >zero.fil
	for c in $(seq 0 36); do
		case $c in 0|5|17) echo 0 ;; *) echo 1 ;; esac
	done >kill.txt
	sps-dedisperse -q -k kill.txt --plan scrunch.txt huge.fil >killed.dmt
	sps-dedisperse -q --plan scrunch.txt zero.fil >zeroed.dmt
	sps-dedisperse -q --plan scrunch.txt huge.fil >kept.dmt
	aux-dedisp dump killed.dmt >killed.raw
	aux-dedisp dump zeroed.dmt >zeroed.raw
	aux-dedisp dump kept.dmt >kept.raw
	cmp killed.raw zeroed.raw
	if cmp -s kept.raw zeroed.raw; then fail "huge channels unseen"; fi
	aux-dedisp naive -k kill.txt huge.fil scrunch.txt >want.raw
	cmp killed.raw want.raw
	# Heimdall's file: one number per line; any blank-separated layout
	tr '\n' ' ' <kill.txt >kill1.txt
	sps-dedisperse -q --killmask kill1.txt --plan scrunch.txt huge.fil |
	    aux-dedisp dump | cmp - want.raw
	# the other algorithms: the same mask on both files, the same sums
	for a in subband tree-linear tree-padded; do
		sps-dedisperse -q --algo $a -k kill.txt --plan scrunch.txt \
		    huge.fil | aux-dedisp dump >huge.raw
		sps-dedisperse -q --algo $a -k kill.txt --plan scrunch.txt \
		    zero.fil | aux-dedisp dump >zero.raw
		sps-dedisperse -q --algo $a --plan scrunch.txt huge.fil |
		    aux-dedisp dump >kept.raw
		[ -s huge.raw ]
		cmp huge.raw zero.raw || fail "$a: killed channels counted"
		if cmp -s kept.raw zero.raw; then fail "$a: huge channels unseen"; fi
	done
}

@test "sps-dedisperse: killing the lowest channel shortens the largest delay" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	{ seq 36 | sed 's/.*/1/'; echo 0; } >kill.txt
	sps-dedisperse -q -k kill.txt --plan plan.txt in.fil >s.dmt
	aux-dedisp dump s.dmt >got.raw
	aux-dedisp naive -k kill.txt in.fil plan.txt >want.raw
	cmp got.raw want.raw
	run -0 aux-dedisp info s.dmt
	assert_line "maxdelay $(aux-dedisp naive -l -k kill.txt in.fil plan.txt | cut -d' ' -f1)"
	refute_line "maxdelay 96"
}

@test "sps-dedisperse: -b 8 and -b 16 are the float values to half a level" {
	sps-fake -q --nchans 64 --tsamp 1000 --tobs 3 -o n.fil
	sps-dedisperse -q --plan scrunch.txt n.fil >f.dmt
	for b in 8 16; do
		sps-dedisperse -q -b $b --plan scrunch.txt n.fil >i$b.dmt
		run -0 aux-dedisp info i$b.dmt
		assert_line "nbits $b"
		read -r err inrange total nbad <<<"$(aux-dedisp quant f.dmt i$b.dmt)"
		# float32 values have their own rounding, a large part of a
		# 16-bit level: allowed for in nbad, not in err
		[ "$nbad" -eq 0 ] || fail "-b $b: $nbad values off (max $err)"
		[ $b -eq 16 ] || awk -v e="$err" 'BEGIN { exit !(e <= 0.501) }' ||
		    fail "-b $b: error $err levels"
		awk -v i="$inrange" -v t="$total" 'BEGIN { exit !(i > 0.999 * t) }' ||
		    fail "-b $b: only $inrange of $total values in range"
	done
}

@test "sps-dedisperse: -b 8 counts clipped values on stderr" {
	sps-fake -q --nosmear --nchans 64 --tsamp 1000 --tobs 3 \
	    --pulse "dm=0,t=1.5,width=2ms,snr=200" -o p.fil
	run -0 --separate-stderr sps-dedisperse -b 8 --plan scrunch.txt p.fil
	[[ "$stderr" =~ [0-9]+\ values\ clipped\ to\ 8\ bits ]] ||
	    fail "no clipping count: $stderr"
}

@test "sps-dedisperse: -b 8 and -b 16 streams to a full disk: one line, status 1" {
	sps-fake -q --nchans 64 --tsamp 1000 --tobs 30 -o n.fil
	for b in 8 16; do
		run -1 --separate-stderr sh -c "sps-dedisperse -q -b $b \
		    --plan scrunch.txt n.fil >/dev/full"
		assert_equal "$stderr" \
		    "sps-dedisperse: stdout: write error: No space left on device"
	done
}

# nbits_chains SEED: c32, c16 and c8, the candidates of the pipe chain
# with DM-time streams of 32, 16 and 8 bits, on fake data with five pulses
# of S/N 10 to 25 (DM 50 to 300, 0.5 to 16 ms) and one of S/N 60, 0.25 ms
# wide at DM 20, far above 16 rms in its brightest sample
nbits_chains() {
	local b

	sps-fake -q --nchans 256 --tsamp 128 --tobs 6.5 --fch1 1500 --foff -1 \
	    --seed "$1" -o fake.fil \
	    --pulse dm=50,t=0.5,width=1ms,snr=10 \
	    --pulse dm=250,t=1.5,width=4ms,snr=15 \
	    --pulse dm=100,t=2.5,width=0.5ms,snr=20 \
	    --pulse dm=300,t=3.5,width=16ms,snr=25 \
	    --pulse dm=150,t=4.5,width=2ms,snr=12 \
	    --pulse dm=20,t=5.5,width=0.25ms,snr=60
	for b in 32 16 8; do
		sps-dedisperse -q -b $b --scrunch --dm 0 400 fake.fil |
		    sps-boxcar -q -s 6 | sps-peaks -q -s 6 >c$b
	done
}

# pair WANT GOT: for each candidate of WANT of S/N 8 or more its sample,
# width, DM trial, DM and S/N, then those of the strongest candidate of
# GOT whose boxcar overlaps its own (0 0 0 0 0 if none)
pair() {
	awk 'FNR == 1 { f++ } /^#/ { next }
	    f == 1 && $4 >= 8 { n++; at[n] = $2; w[n] = $3
		want[n] = $2 " " $3 " " $6 " " $5 " " $4 }
	    f == 2 { for (i = 1; i <= n; i++)
		if ($2 < at[i] + w[i] && at[i] < $2 + $3 && $4 > best[i]) {
			best[i] = $4; got[i] = $2 " " $3 " " $6 " " $5 " " $4 } }
	    END { for (i = 1; i <= n; i++)
		print want[i], got[i] == "" ? "0 0 0 0 0" : got[i] }' "$1" "$2"
}

@test "sps-dedisperse: -b 16 keeps each pulse's candidate and S/N to 0.5 %, -b 8 its S/N to 3 %" {
	for seed in 5 6 7; do
		nbits_chains $seed
		pair c32 c16 >p16
		pair c32 c8 >p8
		[ "$(wc -l <p16)" -eq 6 ] || fail "seed $seed: $(cat c32)"
		# sample, width and DM trial the same; S/N within 0.5 %
		run awk '$4 > 30 && !($1 == $6 && $2 == $7 && $3 == $8 &&
		    ($10 - $5) ^ 2 <= (0.005 * $5) ^ 2)' p16
		assert_output ""
		# a boxcar that overlaps, DM within 10 % (a wide pulse's S/N
		# is flat over many trials), S/N within 3 %
		run awk '$4 > 30 && !(($9 - $4) ^ 2 <= (0.1 * $4) ^ 2 &&
		    ($10 - $5) ^ 2 <= (0.03 * $5) ^ 2)' p8
		assert_output ""
	done
}

@test "sps-dedisperse: -b 8 clips a pulse brighter than 16 rms, -b 16 does not" {
	nbits_chains 5
	pair c32 c16 >p16
	pair c32 c8 >p8
	run awk '$4 < 30 && $1 == $6 && $2 == $7 && $3 == $8 &&
	    ($10 - $5) ^ 2 <= (0.005 * $5) ^ 2 { print "kept" }' p16
	assert_output kept
	# the pulse is found, its S/N more than 20 % lower
	run awk '$4 < 30 && $10 > 0 && $10 < 0.8 * $5 { print "clipped" }' p8
	assert_output clipped
}

@test "sps-dedisperse: reports its memory before the data; -q is silent" {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	run -0 --separate-stderr sps-dedisperse --cpu --block 1000 \
	    --plan plan.txt in.fil
	[[ "${stderr_lines[0]}" =~ ^sps-dedisperse:\ 5\ trials,\ blocks\ of\ 1000\ samples\ \+\ 96\ overlap,\ memory\ [0-9]+\ MB ]] ||
	    fail "first line: ${stderr_lines[0]}"
	run -0 --separate-stderr sps-dedisperse -q --plan plan.txt in.fil
	assert_equal "$stderr" ""
}

@test "sps-dedisperse: memory that cannot be had is an error before any output" {
	[ -e "$BATS_TEST_DIRNAME/../.build/flavour-san" ] &&
	    skip "address space limits and ASan do not mix"
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
	run -1 --separate-stderr sh -c 'ulimit -v 1000000;
	    exec sps-dedisperse --block 60000000 --plan plan.txt in.fil'
	assert_equal "$output" ""
	[[ "$stderr" =~ ^sps-dedisperse:\ .*[0-9]+\ MB ]] || fail "$stderr"
}

@test "sps-dedisperse: the examples of the man page run as shown" {
	sps-fake -q --nchans 256 --tsamp 512 --tobs 4 \
	    --pulse dm=300,t=1.5 -o fake.fil
	sps-dedisperse -q fake.fil -d 300 > fake_DM300.tim
	# the values and length of the naive sum at DM 300
	echo 300 >one.txt
	aux-dedisp naive fake.fil one.txt >want.raw
	n=$(aux-dedisp naive -l fake.fil one.txt | cut -d' ' -f2)
	[ "$n" -eq $((($(stat -c %s fake.fil) - $(sps-header --headersize fake.fil)) / 256)) ]
	run -0 sps-header --refdm --nsamples fake_DM300.tim
	assert_output "$(printf '300\n%s' "$n")"
	tail -c $((4 * n)) fake_DM300.tim | cmp - want.raw
	# a file per trial of the plan, named by its DM to 0.01
	sps-dedisperse -q fake.fil --dm 0 500 -o trial
	sps-plan -q --dm 0 500 fake.fil | awk '/^[0-9]/ {
	    printf "trial_DM%.2f.tim\n", $1 }' | sort >want.names
	[ "$(wc -l <want.names)" -gt 100 ]
	ls trial_DM* | sort | diff want.names -
	sps-dedisperse -q fake.fil --dm 290 310 -o prep --presto
	sps-plan -q --dm 290 310 fake.fil | awk '/^[0-9]/ { for (e = 0; e < 3; e++)
	    printf "prep_DM%.2f.%s\n", $1, e == 0 ? "dat" : e == 1 ? "inf" : "tim" }' |
	    sort >want.names
	ls prep_DM* | sort | diff want.names -
	sps-plan -q --dm 0 1000 --scrunch -o plan.txt fake.fil
	awk 'BEGIN { for (c = 0; c < 256; c++)
	    print (c >= 100 && c < 156) ? 0 : 1 }' > kill.txt
	cat fake.fil | sps-dedisperse -q --plan plan.txt -k kill.txt \
	    -b 8 > fake.dmt
	run -0 aux-dedisp info fake.dmt
	assert_line "nbits 8"
	assert_line "nsamples -1"
	same_trials plan.txt fake.dmt
	aux-dedisp dms fake.dmt | awk '$2 > 1' | grep -q .
	sps-dedisperse --algo tree-linear --subband 16 --plan plan.txt \
	    fake.fil 2>err > tree.dmt
	same_trials plan.txt tree.dmt
	grep -q 'tree smearing' err || fail "no smearing line: $(cat err)"
}

# ---- bad input: one clear error each --------------------------------

# bad STATUS REGEX ARGS...: exit STATUS, nothing on stdout, and on stderr
# "sps-dedisperse: ..." matching REGEX: the last line for a data error
# (the memory report may come before it), the first line for a usage
# error (the usage follows it).
bad() {
	local status=$1 regex=$2 line

	shift 2
	run "-$status" --separate-stderr sps-dedisperse "$@"
	assert_equal "$output" ""
	line=${stderr_lines[-1]}
	[ "$status" -eq 2 ] && line=${stderr_lines[0]}
	[[ "$line" =~ ^sps-dedisperse:\ .*$regex ]] ||
	    fail "stderr: $stderr"
}

small() {
	aux-dedisp gen -b 8 -c 37 -n 3001 -f 1400 -o -3.1 -t 0.001 >in.fil
}

@test "sps-dedisperse: a plan made for other data is refused" {
	small
	aux-dedisp gen -b 8 -c 64 -n 300 >other.fil
	sps-plan -q --dm 0 100 -o other.plan other.fil
	bad 1 "other.plan: .*64 channels.*37" --plan other.plan in.fil
}

@test "sps-dedisperse: a negative DM is refused" {
	small
	printf '0\n-5\n10\n' >neg.txt
	bad 1 "neg.txt: line 2: .*negative" --plan neg.txt in.fil
	bad 2 "-d: -5 is out of range" -d -5 in.fil
	bad 2 "--dm: -1 is out of range" --dm -1 10 in.fil
}

@test "sps-dedisperse: DMs that do not ascend are refused" {
	small
	printf '0\n20\n10\n' >desc.txt
	bad 1 "desc.txt: line 3: .*ascend" --plan desc.txt in.fil
	printf '0\n20\n20\n' >same.txt
	bad 1 "same.txt: line 3: .*ascend" --plan same.txt in.fil
	bad 2 "HI is below LO" --dm 20 10 in.fil
}

@test "sps-dedisperse: a scrunch factor that is not a power of 2 is refused" {
	small
	printf '0 1\n20 3\n' >s3.txt
	bad 1 "s3.txt: line 2: .*power of 2" --plan s3.txt in.fil
}

@test "sps-dedisperse: a kill mask of the wrong length is refused" {
	small
	seq 36 | sed 's/.*/1/' >k36
	bad 1 "k36: 36 entries for 37 channels" -k k36 -d 10 in.fil
	seq 38 | sed 's/.*/1/' >k38
	bad 1 "k38: more than 37 entries" -k k38 -d 10 in.fil
}

@test "sps-dedisperse: a kill mask value other than 0 or 1 is refused" {
	small
	{ seq 36 | sed 's/.*/1/'; echo 2; } >k2
	bad 1 "k2: line 37: 2 is not 0" -k k2 -d 10 in.fil
	{ seq 36 | sed 's/.*/1/'; echo x; } >kx
	bad 1 "kx: line 37: 'x' is not 0 or 1" -k kx -d 10 in.fil
	bad 1 "nosuch" -k nosuch -d 10 in.fil
}

@test "sps-dedisperse: every channel killed is refused" {
	small
	seq 37 | sed 's/.*/0/' >k0
	bad 1 "every channel is killed" -k k0 -d 10 in.fil
}

@test "sps-dedisperse: -b 12 is a usage error" {
	small
	bad 2 "-b 12: output nbits must be 8, 16 or 32" -b 12 --dm 0 10 in.fil
}

@test "sps-dedisperse: -b 8 with time series output is a usage error" {
	small
	bad 2 "-b 8 applies to the DM-time stream" -b 8 -d 10 in.fil
	bad 2 "-b 16 applies to the DM-time stream" -b 16 -o x --dm 0 10 in.fil
}

@test "sps-dedisperse: --presto without -o is a usage error" {
	small
	bad 2 "--presto needs -o PREFIX" --presto --dm 0 10 in.fil
}

@test "sps-dedisperse: exactly one of -d, --dm and --plan" {
	small
	bad 2 "exactly one of" in.fil
	bad 2 "exactly one of" -d 10 --dm 0 10 in.fil
	bad 2 "--dm needs two values" in.fil --dm 10
	bad 2 "one input file at most" -d 10 in.fil in.fil
}

@test "sps-dedisperse: an unknown --algo is a usage error" {
	small
	bad 2 "--algo fast: not one of direct, subband, tree-linear, tree-padded" \
	    --algo fast --dm 0 10 in.fil
	bad 2 "--algo Direct: not one of" --algo Direct --dm 0 10 in.fil
}

@test "sps-dedisperse: --subband with --algo tree-padded or direct is a usage error" {
	small
	bad 2 "--subband applies to --algo subband and tree-linear" \
	    --algo tree-padded --subband 4 --dm 0 10 in.fil
	bad 2 "--subband applies to --algo subband and tree-linear" \
	    --subband 4 --algo direct --dm 0 10 in.fil
}

@test "sps-dedisperse: --group with --algo tree-linear is a usage error" {
	small
	bad 2 "--group applies to --algo subband" --algo tree-linear \
	    --group 4 --dm 0 10 in.fil
	bad 2 "--group applies to --algo subband" --algo tree-linear \
	    --subband 4 --group 4 --dm 0 10 in.fil
	bad 2 "--group applies to --algo subband" --algo tree-padded \
	    --group 4 --dm 0 10 in.fil
}

@test "sps-dedisperse: more sub-bands than channels are refused" {
	small
	bad 1 "38 sub-bands for 37 channels" --subband 38 --dm 0 10 in.fil
}

@test "sps-dedisperse: tree-linear sub-bands of fewer than 2 channels are refused" {
	small
	bad 1 "fewer than 2 channels per sub-band" --algo tree-linear \
	    --subband 37 --dm 0 10 in.fil
	# 18 sub-bands of 2 channels (one of 3) work: a file per trial of the
	# plan, each as long as the direct algorithm's, DM 0 the naive sum
	sps-dedisperse -q --algo tree-linear --subband 18 --dm 0 10 in.fil \
	    -o ok
	sps-dedisperse -q --dm 0 10 in.fil -o direct
	sps-plan -q --dm 0 10 in.fil | awk '/^[0-9]/ {
	    printf "ok_DM%.2f.tim\n", $1 }' | sort >want.names
	[ "$(wc -l <want.names)" -eq 3 ]
	ls ok_DM* | sort | diff want.names -
	for f in direct_DM*; do
		[ "$(stat -c %s "$f")" -eq "$(stat -c %s "ok_${f#direct_}")" ] ||
		    fail "ok_${f#direct_}: not as long as $f"
	done
	echo 0 >zero.txt
	aux-dedisp naive in.fil zero.txt >want.raw
	tail -c "$(stat -c %s want.raw)" ok_DM0.00.tim | cmp - want.raw
}

@test "sps-dedisperse: a DM-time stream as input is refused" {
	small
	sps-dedisperse -q --plan plan.txt in.fil >s.dmt
	bad 1 "s.dmt: not time-major filterbank data" -d 10 s.dmt
	bad 1 "stdin: not time-major filterbank data" -d 10 <s.dmt
}

@test "sps-dedisperse: empty standard input is refused" {
	bad 1 "stdin: empty input" --dm 0 10 </dev/null
}

# cut_short FILE BYTES SPECTRUM: FILE less its last BYTES as cut.fil, and
# as whole.fil cut to the whole spectra of SPECTRUM bytes in cut.fil;
# sets dangling to the bytes after the last of them.
cut_short() {
	local size hs n

	size=$(stat -c %s "$1")
	hs=$(sps-header --headersize "$1")
	n=$(((size - $2 - hs) / $3))
	head -c $((size - $2)) "$1" >cut.fil
	head -c $((hs + n * $3)) "$1" >whole.fil
	dangling=$((size - $2 - hs - n * $3))
}

# warned FILE: stderr is the one warning about FILE's dangling bytes
warned() {
	assert_equal "$stderr" "sps-dedisperse: $1: $dangling bytes after the last whole spectrum ignored (a cut recording?)"
}

@test "sps-dedisperse: data cut inside a spectrum are their whole spectra, from a file and a pipe, with one warning" {
	small
	cut_short in.fil 100 37
	[ "$dangling" -gt 0 ]
	sps-dedisperse -q --dm 0 10 whole.fil >whole.dmt
	run -0 --separate-stderr sh -c \
	    'sps-dedisperse -q --dm 0 10 cut.fil >cut.dmt'
	warned cut.fil
	cmp whole.dmt cut.dmt
	run -0 --separate-stderr sh -c \
	    'sps-dedisperse -q --dm 0 10 - <cut.fil >redirect.dmt'
	warned stdin
	cmp whole.dmt redirect.dmt
	cat whole.fil | sps-dedisperse -q --dm 0 10 >whole-pipe.dmt
	run -0 --separate-stderr sh -c \
	    'cat cut.fil | sps-dedisperse -q --dm 0 10 >cut-pipe.dmt'
	warned stdin
	cmp whole-pipe.dmt cut-pipe.dmt
	# without -q: one warning among the reports
	run -0 --separate-stderr sh -c 'sps-dedisperse --dm 0 10 cut.fil >cut.dmt'
	run -0 grep -c "bytes after the last whole spectrum" <<<"$stderr"
	assert_output 1
}

@test "sps-dedisperse: a truncated header or not one whole spectrum is refused" {
	small
	head -c 100 in.fil >cuthdr.fil
	bad 1 "cuthdr.fil: truncated header" --dm 0 10 cuthdr.fil
	head -c $(($(sps-header --headersize in.fil) + 36)) in.fil >short.fil
	bad 1 "short.fil: truncated data: 36 bytes, not one whole spectrum of 37" \
	    --dm 0 10 short.fil
	run -1 --separate-stderr sh -c 'cat short.fil | sps-dedisperse -q --dm 0 10'
	assert_equal "$stderr" "sps-dedisperse: stdin: truncated data: 36 bytes, not one whole spectrum of 37"
}

@test "sps-dedisperse: reads of more than 16 MB (threads, pread) give what a pipe gives" {
	# 1024 channels x 25000 samples: blocks of 20000 read 20 MB at once
	aux-dedisp gen -b 8 -c 1024 -n 25000 -f 1500 -o -0.25 -t 0.000064 \
	    >big.fil
	sps-dedisperse -q --cpu --dm 0 50 --block 20000 big.fil >file.dmt
	cat big.fil | sps-dedisperse -q --cpu --dm 0 50 --block 20000 >pipe.dmt
	sps-dedisperse -q --cpu --dm 0 50 --block 20000 <big.fil >redir.dmt
	cmp file.dmt redir.dmt
	# the pipe's header has no nsamples: compare the values
	aux-dedisp dump file.dmt >file.f32
	aux-dedisp dump pipe.dmt >pipe.f32
	[ -s file.f32 ]
	cmp file.f32 pipe.f32
	# cut inside the last spectrum of the first read: its whole spectra
	cut_short big.fil $(($(stat -c %s big.fil) - 20000600)) 1024
	sps-dedisperse -q --cpu --dm 0 50 --block 20000 whole.fil >whole.dmt
	run -0 --separate-stderr sh -c 'sps-dedisperse -q --cpu --dm 0 50 \
	    --block 20000 cut.fil >cut.dmt'
	warned cut.fil
	cmp whole.dmt cut.dmt
	run -0 --separate-stderr sh -c 'cat cut.fil | sps-dedisperse -q --cpu \
	    --dm 0 50 --block 20000 >pipe.dmt'
	warned stdin
	aux-dedisp dump pipe.dmt >pipe.f32
	aux-dedisp dump whole.dmt >whole.f32
	cmp whole.f32 pipe.f32
}

@test "sps-dedisperse: input no longer than the largest delay is refused" {
	small
	# DM 10000 delays the lowest channel by 3826 of the 3001 samples
	bad 1 "in.fil: 3001 samples do not reach past the largest delay of the plan \(3826 samples\)" -d 10000 in.fil
	echo 10000 >far.txt
	bad 1 "stdin: 3001 samples do not reach past .*3826" --plan far.txt <in.fil
	# nothing half-written is left behind
	bad 1 "3001 samples do not reach" --plan far.txt -o far in.fil
	run ls far*
	assert_output "far.txt"
}

@test "sps-dedisperse: an output directory that does not exist is an error" {
	small
	bad 1 "nosuchdir/x_DM0.00.tim" --plan plan.txt -o nosuchdir/x in.fil
	[ ! -e nosuchdir ]
}

@test "sps-dedisperse: unknown option, --help, --version" {
	run -2 --separate-stderr sps-dedisperse --bogus
	[[ "$stderr" == *usage:\ sps-dedisperse* ]]
	run -0 sps-dedisperse --help
	assert_line --index 0 --partial "usage: sps-dedisperse"
	run -0 sps-dedisperse --version
	assert_output --regexp '^sps-dedisperse [0-9]'
}

# the last largest-delay's worth of samples is searched too: the data
# go on with the channels' means
@test "sps-dedisperse: a pulse 0.2 s before the end is found whatever the largest DM" {
	sps-fake -q --nchans 256 --tsamp 256 --fch1 1500 --foff -1 --tobs 5 \
	    --seed 4 --pulse dm=50,t=4.8,width=2ms,snr=20 -o tail.fil
	for hi in 100 2000; do
		sps-dedisperse -q --dm 0 "$hi" tail.fil >d.dmt
		run -0 aux-dedisp info d.dmt
		assert_line "nsamples 19531"
		assert_line "blocks 19531"
		sps-boxcar -q -s 7 d.dmt | sps-peaks -q -s 7 >c.txt
		awk '!/^#/ { n++; if ($1 < 4.79 || $1 > 4.81 || $5 < 45 ||
		    $5 > 55 || $4 < 15) bad = 1 } END { exit !(n == 1 && !bad) }' \
		    c.txt || fail "DM 0-$hi: $(cat c.txt)"
	done
}
