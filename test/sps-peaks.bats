#!/usr/bin/env bats
# sps-peaks: clustering, the four output formats field by field, flood
# flags, cuts, bad input.  Event streams are written by hand (events.h).
# Also requires: awk.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"

# The header of an event stream: 1 ms samples, 8 channels, 100 trials.
header() {
	printf '%s\n' '# sps-events 1' '# input test.dmt' \
	    '# source_name fake' '# tstart 60000' '# tsamp 0.001' \
	    '# fch1 1500' '# foff -1' '# nchans 8' '# ndms 100' '# dm_lo 0' \
	    '# dm_hi 74.25' '# nsamples 10000' '# threshold 6' \
	    '# algorithm exhaustive' '# max_width 64' \
	    '# dm_index dm sample time width snr'
}

# event DM_INDEX SAMPLE WIDTH SNR: one line; DM = 0.75 x index.
event() {
	awk -v d="$1" -v s="$2" -v w="$3" -v snr="$4" 'BEGIN {
		printf "%d %.6f %d %.9f %d %.4f\n", d, d * 0.75, s, s * 0.001,
		    w, snr }'
}

# pulse SAMPLE: a bright pulse seen at trials 30..70 and widths 1..16,
# drifting a few samples with DM; best (S/N 30) at trial 50 (DM 37.5),
# width 4, sample SAMPLE.  205 events, samples SAMPLE-4..SAMPLE+4.
pulse() {
	awk -v s0="$1" 'BEGIN {
		for (d = 30; d <= 70; d++)
			for (w = 1; w <= 16; w *= 2) {
				s = s0 + int((d - 50) / 5)
				dd = d > 50 ? d - 50 : 50 - d
				l = log(w) / log(2)
				dl = l > 2 ? l - 2 : 2 - l
				snr = 30 - dd * 0.5 - dl
				printf "%d %.6f %d %.9f %d %.4f\n", d, d * 0.75,
				    s, s * 0.001, w, snr
			}
	}'
}

# The comment line under the column names of the table and of a
# .singlepulse file: which instant the times give.
TEXT_NOTE="# time_s = sample * tsamp, s after tstart: the start of the best boxcar (its first sample), at the centre of the highest channel"
PRESTO_NOTE="# Time (s) = Sample * tsamp, s after tstart: the centre of the best boxcar (Sample = its first sample + Downfact / 2, rounded down), at the centre of the highest channel"

# The rows of a table (no comment lines).
rows() {
	grep -v '^#' "$1" || true
}

@test "sps-peaks: one bright pulse at many DMs, widths and samples is one candidate" {
	{ header; pulse 1000; } >"$BATS_TEST_TMPDIR/one.ev"
	run -0 --separate-stderr sps-peaks "$BATS_TEST_TMPDIR/one.ev"
	assert_equal "${#lines[@]}" 3
	assert_equal "${lines[0]}" "#        time_s       sample  width      snr         dm dm_index  members first_sample  last_sample     dm_min     dm_max flood"
	assert_equal "${lines[1]}" "$TEXT_NOTE"
	assert_equal "${lines[2]}" "    1.000000000         1000      4    30.00     37.500       50      205          996         1019     22.500     52.500     0"
	[[ "$stderr" =~ "205 events, 205 at S/N >= 6, 1 candidates" ]] ||
	    fail "summary: $stderr"
}

@test "sps-peaks: two pulses 1 s apart are two candidates, in time order" {
	{ header; pulse 2000; pulse 1000; } >"$BATS_TEST_TMPDIR/two.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/two.ev"
	assert_equal "${#lines[@]}" 4
	read -r t1 s1 w1 snr1 dm1 i1 m1 rest <<<"${lines[2]}"
	read -r t2 s2 w2 snr2 dm2 i2 m2 rest <<<"${lines[3]}"
	assert_equal "$s1 $m1 $t1" "1000 205 1.000000000"
	assert_equal "$s2 $m2 $t2" "2000 205 2.000000000"
}

@test "sps-peaks: a chain A-B-C is one cluster though A and C are not friends" {
	# A and C are 40 trials apart (> --cand-sep-dm 20), B is 20 from each;
	# C comes before B, so C starts a cluster of its own that B must join
	{ header; event 10 1000 4 7; event 50 1000 4 9; event 30 1000 4 8; } \
	    >"$BATS_TEST_TMPDIR/chain.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/chain.ev"
	assert_equal "${#lines[@]}" 3
	read -r t s w snr dm i m first last dmlo dmhi flood <<<"${lines[2]}"
	assert_equal "$m $i $dmlo $dmhi" "3 50 7.500 37.500"
	# without B: two candidates
	{ header; event 10 1000 4 7; event 50 1000 4 9; } \
	    >"$BATS_TEST_TMPDIR/ac.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/ac.ev"
	assert_equal "${#lines[@]}" 4
}

@test "sps-peaks: --cand-sep-time, --cand-sep-filter and --cand-sep-dm set the linking lengths" {
	# centres 25 samples apart with widths 8: apart at 3 widths, one at 4
	{ header; event 5 1000 8 7; event 5 1025 8 7; } >"$BATS_TEST_TMPDIR/t.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/t.ev"
	assert_equal "$(rows "$BATS_TEST_TMPDIR/t.ev" | wc -l)" 2
	assert_equal "${#lines[@]}" 4
	run -0 sps-peaks -q --cand-sep-time 4 "$BATS_TEST_TMPDIR/t.ev"
	assert_equal "${#lines[@]}" 3
	run -0 sps-peaks -q --cand_sep_time 4 "$BATS_TEST_TMPDIR/t.ev"
	assert_equal "${#lines[@]}" 3
	# widths 1 and 16 are 4 factors of 2 apart
	{ header; event 5 1000 1 7; event 5 1000 16 7; } >"$BATS_TEST_TMPDIR/w.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/w.ev"
	assert_equal "${#lines[@]}" 4
	run -0 sps-peaks -q --cand-sep-filter 4 "$BATS_TEST_TMPDIR/w.ev"
	assert_equal "${#lines[@]}" 3
	# trials 5 and 8 are 3 apart
	{ header; event 5 1000 4 7; event 8 1000 4 7; } >"$BATS_TEST_TMPDIR/d.ev"
	run -0 sps-peaks -q --cand-sep-dm 2 "$BATS_TEST_TMPDIR/d.ev"
	assert_equal "${#lines[@]}" 4
	run -0 sps-peaks -q --cand_sep_dm_trial 3 "$BATS_TEST_TMPDIR/d.ev"
	assert_equal "${#lines[@]}" 3
	run -0 sps-peaks -q --no-cluster "$BATS_TEST_TMPDIR/d.ev"
	assert_equal "${#lines[@]}" 4
}

@test "sps-peaks: -s keeps the events at or above the threshold" {
	{ header; event 5 1000 4 7; event 5 3000 4 9.5; event 5 5000 4 12; } \
	    >"$BATS_TEST_TMPDIR/s.ev"
	run -0 sps-peaks -q -s 9.5 "$BATS_TEST_TMPDIR/s.ev"
	assert_equal "${#lines[@]}" 4
	run -0 sps-peaks -q --threshold 12.5 "$BATS_TEST_TMPDIR/s.ev"
	assert_equal "${#lines[@]}" 2
}

@test "sps-peaks: --format heimdall writes Heimdall's 9 tab-separated .cand columns" {
	{ header; pulse 1000; pulse 2000; } >"$BATS_TEST_TMPDIR/p.ev"
	sps-peaks -q --format heimdall "$BATS_TEST_TMPDIR/p.ev" \
	    >"$BATS_TEST_TMPDIR/p.cand"
	# snr, peak sample (boxcar centre), time, filter = log2 width,
	# dm_trial, dm, members, begin, end; a tab after each, no header
	printf '30\t1002\t1.002\t2\t50\t37.5\t205\t996\t1020\t\n30\t2002\t2.002\t2\t50\t37.5\t205\t1996\t2020\t\n' \
	    >"$BATS_TEST_TMPDIR/expect.cand"
	cmp "$BATS_TEST_TMPDIR/expect.cand" "$BATS_TEST_TMPDIR/p.cand"
	run -0 awk -F '\t' '{ print NF }' "$BATS_TEST_TMPDIR/p.cand"
	assert_equal "${lines[*]}" "10 10"
}

@test "sps-peaks: a width that is not a power of 2 gets the nearest filter index" {
	{ header; event 5 1000 3 7; event 5 3000 6 8; event 5 5000 12 9;
	    event 5 7000 1 10; } >"$BATS_TEST_TMPDIR/w.ev"
	run -0 sps-peaks -q --format heimdall "$BATS_TEST_TMPDIR/w.ev"
	run -0 awk -F '\t' '{ print $2, $4 }' <<<"$output"
	assert_equal "${lines[*]}" "1001 2 3003 3 5006 4 7000 0"
}

@test "sps-peaks: --format presto writes PRESTO's .singlepulse layout" {
	{ header; pulse 1000; event 80 5001 7 8.25; } >"$BATS_TEST_TMPDIR/p.ev"
	run -0 sps-peaks -q --format presto "$BATS_TEST_TMPDIR/p.ev"
	assert_equal "${#lines[@]}" 4
	assert_equal "${lines[0]}" "# DM      Sigma      Time (s)     Sample    Downfact"
	assert_equal "${lines[1]}" "$PRESTO_NOTE"
	# %7.2f %7.2f %13.6f %10d     %3d; sample = centre of the boxcar
	assert_equal "${lines[2]}" "  37.50   30.00      1.002000       1002       4"
	assert_equal "${lines[3]}" "  60.00    8.25      5.004000       5004       7"
}

@test "sps-peaks: a .singlepulse file without candidates is empty" {
	header >"$BATS_TEST_TMPDIR/none.ev"
	run -0 sps-peaks -q --format presto -o "$BATS_TEST_TMPDIR/none.sp" \
	    "$BATS_TEST_TMPDIR/none.ev"
	assert_output ""
	[ -f "$BATS_TEST_TMPDIR/none.sp" ]
	[ ! -s "$BATS_TEST_TMPDIR/none.sp" ]
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/none.ev"
	assert_equal "${#lines[@]}" 2
}

@test "sps-peaks: --per-dm writes one ROOT_DM%.2f.singlepulse per DM" {
	{ header; pulse 1000; event 80 5001 7 8.25; event 80 3000 2 9; } \
	    >"$BATS_TEST_TMPDIR/p.ev"
	run -0 sps-peaks -q --per-dm "$BATS_TEST_TMPDIR/root" \
	    "$BATS_TEST_TMPDIR/p.ev"
	assert_output ""
	run -0 ls "$BATS_TEST_TMPDIR"
	assert_line "root_DM37.50.singlepulse"
	assert_line "root_DM60.00.singlepulse"
	assert_equal "$(ls "$BATS_TEST_TMPDIR" | grep -c singlepulse)" 2
	printf '%s\n' "# DM      Sigma      Time (s)     Sample    Downfact" \
	    "$PRESTO_NOTE" "  60.00    9.00      3.001000       3001       2" \
	    "  60.00    8.25      5.004000       5004       7" \
	    >"$BATS_TEST_TMPDIR/expect"
	cmp "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/root_DM60.00.singlepulse"
}

# Two pulses sps-fake centres at the top of the band (64 us samples, no
# smearing, found at their DM): 30 samples centred on 2 s, and 29 on
# 6.000032 s, so that the boxcars start at sample 31235 and 93736.
fake_pulses() {
	sps-fake -q --tobs 8 --tsamp 64 --nbits 32 --nosmear --seed 5 \
	    --pulse dm=300,t=2,width=1.92ms,snr=100,shape=rect \
	    --pulse dm=300,t=6.000032,width=1.856ms,snr=100,shape=rect |
	    sps-dedisperse -q -d 300 | sps-boxcar -q -a exhaustive
}

@test "sps-peaks: each format's times: the table the boxcar's start, Heimdall, PRESTO and FETCH its centre, at the top of the band" {
	local d=$BATS_TEST_TMPDIR

	fake_pulses >"$d/p.ev"
	for f in text heimdall presto; do
		sps-peaks -q --format $f "$d/p.ev" >"$d/$f"
	done
	sps-peaks -q --format fetch --data p.fil "$d/p.ev" >"$d/fetch"
	# the comment under the column names says which instant
	assert_equal "$(sed -n 2p "$d/text")" "$TEXT_NOTE"
	assert_equal "$(sed -n 2p "$d/presto")" "$PRESTO_NOTE"
	# none where readers would take a comment for a row
	assert_equal "$(grep -c '^[^0-9]' "$d/heimdall")" 0
	assert_equal "$(sed -n 1p "$d/fetch")" "file,snr,stime,width,dm,label,chan_mask_path,num_files"
	run -0 awk '!/^#/ { print $1, $2, $3 }' "$d/text"
	assert_equal "${lines[*]}" "1.999040000 31235 30 5.999104000 93736 29"
	# row by row: the table's start + width / 2 rounded down is Heimdall's
	# and PRESTO's sample, times are samples x tsamp, the middle of the
	# boxcar is where sps-fake put the pulse
	paste <(grep -v '^#' "$d/text") <(cat "$d/heimdall") \
	    <(grep -v '^#' "$d/presto") <(sed 1d "$d/fetch" | tr , ' ') |
	    awk -v dt=64e-6 '
	    function off(a, b, e) { return (a - b) ^ 2 > (e ? e : 1e-9) ^ 2 }
	    {	t = $1; s = $2; w = $3; cs = $14; ct = $15; pt = $24
		ps = $25; ft = $29
		if (cs != s + int(w / 2) || ps != cs) bad = bad " sample"
		if (off(t, s * dt) || off(ct, cs * dt)) bad = bad " time"
		if (off(pt, ct, 6e-7) || off(ft, ct)) bad = bad " formats"
		injected = NR == 1 ? 2 : 6.000032
		if (off(t + w * dt / 2, injected)) bad = bad " centre"
		n++ }
	    END { if (bad != "" || n != 2) { print bad, n; exit 1 } }' ||
	    fail "columns disagree"
	# .cand - table time: the half width rounded down (odd: tsamp / 2
	# before the boxcar's middle)
	assert_equal "$(cut -f 3 "$d/heimdall" | tr '\n' ' ')" "2 6 "
}

@test "sps-peaks: --format fetch writes FETCH's candidate CSV" {
	{ header; pulse 1000; } >"$BATS_TEST_TMPDIR/p.ev"
	run -0 sps-peaks -q --format fetch --data /data/obs.fil \
	    "$BATS_TEST_TMPDIR/p.ev"
	assert_equal "${#lines[@]}" 2
	assert_equal "${lines[0]}" "file,snr,stime,width,dm,label,chan_mask_path,num_files"
	# stime = centre sample x tsamp, width = log2 samples, label 0
	assert_equal "${lines[1]}" "/data/obs.fil,30.0000,1.002000000,2,37.500000,0,,1"
}

@test "sps-peaks: --killmask-out writes FETCH's mask from -k, or an empty one" {
	{ header; pulse 1000; } >"$BATS_TEST_TMPDIR/p.ev"
	printf '1\n0\n1\n1\n0\n1\n1\n0\n' >"$BATS_TEST_TMPDIR/kill.txt"
	run -0 sps-peaks -q --format fetch --data obs.fil -k \
	    "$BATS_TEST_TMPDIR/kill.txt" --killmask-out \
	    "$BATS_TEST_TMPDIR/mask.txt" "$BATS_TEST_TMPDIR/p.ev"
	assert_equal "${lines[1]}" "obs.fil,30.0000,1.002000000,2,37.500000,0,$BATS_TEST_TMPDIR/mask.txt,1"
	run -0 cat "$BATS_TEST_TMPDIR/mask.txt"
	assert_equal "${lines[*]}" "1 4 7"
	run -0 sps-peaks -q --format fetch --data obs.fil --killmask-out \
	    "$BATS_TEST_TMPDIR/good.txt" "$BATS_TEST_TMPDIR/p.ev"
	[ -f "$BATS_TEST_TMPDIR/good.txt" ]
	[ ! -s "$BATS_TEST_TMPDIR/good.txt" ]
	# a kill file of the wrong length
	printf '1\n0\n' >"$BATS_TEST_TMPDIR/short.txt"
	run -1 --separate-stderr sps-peaks -q --format fetch --data obs.fil \
	    -k "$BATS_TEST_TMPDIR/short.txt" "$BATS_TEST_TMPDIR/p.ev"
	assert_output ""
	[[ "$stderr" =~ ^sps-peaks:\ .*short.txt:\ 2\ entries\ for\ 8\ channels ]] ||
	    fail "$stderr"
}

@test "sps-peaks: --format fetch without --data is a usage error" {
	{ header; pulse 1000; } >"$BATS_TEST_TMPDIR/p.ev"
	run -2 --separate-stderr sps-peaks --format fetch "$BATS_TEST_TMPDIR/p.ev"
	[[ "$stderr" =~ ^sps-peaks:\ --format\ fetch\ needs\ --data ]] ||
	    fail "$stderr"
}

# Three quiet seconds around a flood: 5 candidates in second 2.
flood_events() {
	header
	event 5 100 1 8
	event 5 1500 1 8
	for s in 2100 2300 2500 2700 2900; do event 5 "$s" 1 9; done
	event 5 3500 1 8
}

@test "sps-peaks: --max-rate flags a flood on stderr, in a comment and a column" {
	flood_events >"$BATS_TEST_TMPDIR/f.ev"
	run -0 --separate-stderr sps-peaks -q --max-rate 3 \
	    "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "${#lines[@]}" 11
	assert_equal "${lines[4]}" "# FLOOD: more than 3 candidates between 2.000000 and 3.000000 s (--max-rate 3 per s): the candidates of this interval are flagged"
	run -0 awk '!/^#/ { print $12 }' <<<"$output"
	assert_equal "${lines[*]}" "0 0 1 1 1 1 1 0"
	assert_equal "${#stderr_lines[@]}" 1
	assert_equal "$stderr" "sps-peaks: FLOOD: 5 candidates between 2.000 and 3.000 s, more than --max-rate 3 per s allows: probably RFI; all are kept and flagged"
	# 5 per s is no flood
	run -0 --separate-stderr sps-peaks -q --max-rate 5 "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "$stderr" ""
	refute_output --partial FLOOD
}

@test "sps-peaks: a flood is flagged in .cand and .singlepulse comments and a FETCH column" {
	flood_events >"$BATS_TEST_TMPDIR/f.ev"
	run -0 --separate-stderr sps-peaks -q --max-rate 3 --format heimdall "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "${#lines[@]}" 9
	assert_line --index 2 --partial "# FLOOD: more than 3 candidates between 2.000000"
	run -0 --separate-stderr sps-peaks -q --max-rate 3 --format presto "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "${#lines[@]}" 11
	assert_line --index 0 "# DM      Sigma      Time (s)     Sample    Downfact"
	assert_line --index 4 --partial "# FLOOD:"
	run -0 --separate-stderr sps-peaks -q --max-rate 3 --format fetch --data x.fil \
	    "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "${lines[0]}" "file,snr,stime,width,dm,label,chan_mask_path,num_files,flood"
	run -0 awk -F, 'NR > 1 { print $9 }' <<<"$output"
	assert_equal "${lines[*]}" "0 0 1 1 1 1 1 0"
}

@test "sps-peaks: --flood-window sets the interval the rate is counted over" {
	flood_events >"$BATS_TEST_TMPDIR/f.ev"
	# 8 candidates in 4 s: 2 per s is no flood over 4 s windows
	run -0 --separate-stderr sps-peaks -q --max-rate 2 --flood-window 4 \
	    "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "$stderr" ""
	run -0 --separate-stderr sps-peaks -q --max-rate 1.5 --flood-window 4 \
	    "$BATS_TEST_TMPDIR/f.ev"
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ "8 candidates between 0.000 and 4.000 s" ]] || fail "$stderr"
}

# Four candidates: 3 members at DM 37.5 width 4; 1 member at DM 0.75
# width 2; 1 member at DM 45 width 64; 2 members at DM 15 width 8.
cut_events() {
	header
	event 50 1000 4 9; event 49 1000 4 8; event 51 1000 4 8
	event 1 3000 2 10
	event 60 5000 64 11
	event 20 7000 8 12; event 21 7000 8 7
}

@test "sps-peaks: --min-members, --max-width and --min-dm cut candidates, each on its own" {
	cut_events >"$BATS_TEST_TMPDIR/c.ev"
	run -0 sps-peaks -q "$BATS_TEST_TMPDIR/c.ev"
	assert_equal "${#lines[@]}" 6
	run -0 sps-peaks -q --min-members 2 "$BATS_TEST_TMPDIR/c.ev"
	run -0 awk '!/^#/ { print $2 }' <<<"$output"
	assert_equal "${lines[*]}" "1000 7000"
	run -0 sps-peaks -q --max-width 16 "$BATS_TEST_TMPDIR/c.ev"
	run -0 awk '!/^#/ { print $2 }' <<<"$output"
	assert_equal "${lines[*]}" "1000 3000 7000"
	run -0 sps-peaks -q --min-dm 1.5 "$BATS_TEST_TMPDIR/c.ev"
	run -0 awk '!/^#/ { print $2 }' <<<"$output"
	assert_equal "${lines[*]}" "1000 5000 7000"
	run -0 --separate-stderr sps-peaks --min-members 2 --max-width 16 \
	    --min-dm 1.5 "$BATS_TEST_TMPDIR/c.ev"
	run -0 awk '!/^#/ { print $2 }' <<<"$output"
	assert_equal "${lines[*]}" "1000 7000"
	[[ "$stderr" =~ "4 candidates; cut 2 by members, 0 by width, 0 by DM; 2 written" ]] ||
	    fail "$stderr"
	# 0 switches a cut off
	run -0 sps-peaks -q --min-members 0 --max-width 0 --min-dm 0 \
	    "$BATS_TEST_TMPDIR/c.ev"
	assert_equal "${#lines[@]}" 6
}

@test "sps-peaks: --sort orders the candidates by S/N, time or DM; --top N keeps the N brightest" {
	local f=$BATS_TEST_TMPDIR/c.ev

	cut_events >"$f"
	# S/N 9, 10, 11, 12 at samples 1000, 3000, 5000, 7000; DMs 37.5,
	# 0.75, 45, 15
	run -0 sps-peaks -q --sort snr "$f"
	assert_equal "$(rows <(printf '%s\n' "$output") | awk '{ print $2 }' | xargs)" "7000 5000 3000 1000"
	run -0 sps-peaks -q --sort dm "$f"
	assert_equal "$(rows <(printf '%s\n' "$output") | awk '{ print $2 }' | xargs)" "3000 7000 1000 5000"
	run -0 sps-peaks -q --sort time "$f"
	assert_equal "$(rows <(printf '%s\n' "$output") | awk '{ print $2 }' | xargs)" "1000 3000 5000 7000"
	run -0 --separate-stderr sps-peaks --top 2 "$f"
	assert_equal "$(rows <(printf '%s\n' "$output") | awk '{ print $2 }' | xargs)" "5000 7000"
	[[ "$stderr" =~ "4 candidates; cut 0 by members, 0 by width, 0 by DM; 2 written" ]] ||
	    fail "$stderr"
	run -0 sps-peaks -q --top 3 --sort snr --format heimdall "$f"
	assert_equal "$(cut -f 2 <<<"$output" | xargs)" "7004 5032 3001"
	# the top of all DMs, each file in time order
	run -0 sps-peaks -q --top 2 --per-dm "$BATS_TEST_TMPDIR/r" "$f"
	run -0 ls "$BATS_TEST_TMPDIR"
	assert_equal "$(grep -c singlepulse <<<"$output")" 2
	assert_line "r_DM15.00.singlepulse"
	assert_line "r_DM45.00.singlepulse"
}

@test "sps-peaks: a wrong --sort or --top is a usage error" {
	local f=$BATS_TEST_TMPDIR/c.ev

	cut_events >"$f"
	run -2 --separate-stderr sps-peaks --sort S/N "$f"
	assert_equal "${stderr_lines[0]}" "sps-peaks: --sort: unknown order 'S/N' (snr, time or dm)"
	run -2 --separate-stderr sps-peaks --top 0 "$f"
	[[ "${stderr_lines[0]}" =~ ^sps-peaks:\ --top ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --sort snr --per-dm r "$f"
	assert_equal "${stderr_lines[0]}" "sps-peaks: --per-dm files are in time order, as PRESTO's: --sort time only"
	assert_output ""
}

@test "sps-peaks: a file, standard input and - give the same; -o writes a file" {
	{ header; pulse 1000; pulse 2000; } >"$BATS_TEST_TMPDIR/p.ev"
	sps-peaks -q "$BATS_TEST_TMPDIR/p.ev" >"$BATS_TEST_TMPDIR/a"
	sps-peaks -q <"$BATS_TEST_TMPDIR/p.ev" >"$BATS_TEST_TMPDIR/b"
	cat "$BATS_TEST_TMPDIR/p.ev" | sps-peaks -q - >"$BATS_TEST_TMPDIR/c"
	run -0 sps-peaks -q -o "$BATS_TEST_TMPDIR/d" "$BATS_TEST_TMPDIR/p.ev"
	assert_output ""
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/c"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/d"
	assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/a")" 4
}

# bad_input REGEX FILE: exit 1, nothing on stdout, one line on stderr.
bad_input() {
	run -1 --separate-stderr sps-peaks "$2"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-peaks:\ $1 ]] || fail "$stderr"
}

@test "sps-peaks: a file that is not an event stream is refused" {
	bad_input ".*parkes_8bit_1.fil: not an sps event stream" \
	    "$DATA/parkes_8bit_1.fil"
	printf 'snr sample\n1 2\n' >"$BATS_TEST_TMPDIR/x.txt"
	bad_input ".*x.txt: not an sps event stream" "$BATS_TEST_TMPDIR/x.txt"
}

@test "sps-peaks: empty input is an error" {
	run -1 --separate-stderr sps-peaks </dev/null
	assert_output ""
	assert_equal "$stderr" "sps-peaks: stdin: empty input: no event stream"
	: >"$BATS_TEST_TMPDIR/empty.ev"
	bad_input ".*empty.ev: empty input" "$BATS_TEST_TMPDIR/empty.ev"
}

@test "sps-peaks: a stream that ends inside its header is an error" {
	header | head -5 >"$BATS_TEST_TMPDIR/h.ev"
	bad_input ".*h.ev: event stream ends inside its header" \
	    "$BATS_TEST_TMPDIR/h.ev"
}

@test "sps-peaks: a header without tsamp is an error" {
	header | grep -v tsamp >"$BATS_TEST_TMPDIR/h.ev"
	bad_input ".*h.ev: event stream header: tsamp 0 is not a positive" \
	    "$BATS_TEST_TMPDIR/h.ev"
}

@test "sps-peaks: a header number that is not a number, or a count that is not whole, is an error" {
	header | sed 's/^# tsamp 0.001$/# tsamp 1ms/' >"$BATS_TEST_TMPDIR/h.ev"
	bad_input ".*h.ev: event stream header: tsamp '1ms' is not a number" \
	    "$BATS_TEST_TMPDIR/h.ev"
	header | sed 's/^# nchans 8$/# nchans 8.5/' >"$BATS_TEST_TMPDIR/h.ev"
	bad_input ".*h.ev: event stream header: nchans 8.5 is not a count" \
	    "$BATS_TEST_TMPDIR/h.ev"
	header | sed 's/^# ndms 100$/# ndms -3/' >"$BATS_TEST_TMPDIR/h.ev"
	bad_input ".*h.ev: event stream header: ndms -3 is not a count" \
	    "$BATS_TEST_TMPDIR/h.ev"
}

@test "sps-peaks: a garbled event line is an error naming the event" {
	{ header; event 5 1000 4 7; echo "5 3.75 abc 1.0 4 7"; event 5 3000 4 7; } \
	    >"$BATS_TEST_TMPDIR/g.ev"
	bad_input ".*g.ev: event 2: bad event line '5 3.75 abc 1.0 4 7'" \
	    "$BATS_TEST_TMPDIR/g.ev"
}

@test "sps-peaks: a truncated last line is an error" {
	{ header; event 5 1000 4 7; printf '5 3.75 3000 0.375 4 7.5'; } \
	    >"$BATS_TEST_TMPDIR/t.ev"
	bad_input ".*t.ev: event 2: event stream cut short in the line '5 3.75 3000 0.375 4 7.5'" \
	    "$BATS_TEST_TMPDIR/t.ev"
}

@test "sps-peaks: an event with a bad trial, zero width or NaN S/N is an error" {
	{ header; event 100 1000 4 7; } >"$BATS_TEST_TMPDIR/d.ev"
	bad_input ".*d.ev: event 1: DM trial 100, but the stream has 100 trials" \
	    "$BATS_TEST_TMPDIR/d.ev"
	{ header; echo "-1 0 1000 1.0 4 7"; } >"$BATS_TEST_TMPDIR/n.ev"
	bad_input ".*n.ev: event 1: bad event line" "$BATS_TEST_TMPDIR/n.ev"
	{ header; echo "1 0.75 1000 1.0 0 7"; } >"$BATS_TEST_TMPDIR/w.ev"
	bad_input ".*w.ev: event 1: bad event line" "$BATS_TEST_TMPDIR/w.ev"
	{ header; echo "1 0.75 1000 1.0 4 nan"; } >"$BATS_TEST_TMPDIR/s.ev"
	bad_input ".*s.ev: event 1: event at sample 1000: bad value" \
	    "$BATS_TEST_TMPDIR/s.ev"
}

@test "sps-peaks: a failed run leaves no output file behind" {
	{ header; pulse 1000; echo "garbage"; } >"$BATS_TEST_TMPDIR/g.ev"
	run -1 sps-peaks -o "$BATS_TEST_TMPDIR/out.txt" "$BATS_TEST_TMPDIR/g.ev"
	run -0 ls "$BATS_TEST_TMPDIR"
	refute_line --partial "out.txt"
}

@test "sps-peaks: a missing input file is an error" {
	run -1 --separate-stderr sps-peaks "$BATS_TEST_TMPDIR/nothere.ev"
	[[ "$stderr" =~ ^sps-peaks:\ .*nothere.ev:\ No\ such\ file ]] || fail "$stderr"
}

@test "sps-peaks: bad option values are refused" {
	header >"$BATS_TEST_TMPDIR/h.ev"
	run -2 --separate-stderr sps-peaks -s abc "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ -s:\ \'abc\'\ is\ not\ a\ number ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --cand-sep-dm -1 "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ --cand-sep-dm: ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --max-rate -2 "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ --max-rate: ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --format json "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ --format:\ unknown\ format\ \'json\' ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks -o x --per-dm y "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ give\ -o\ FILE\ or\ --per-dm ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --per-dm y --format heimdall \
	    "$BATS_TEST_TMPDIR/h.ev"
	[[ "$stderr" =~ ^sps-peaks:\ --per-dm\ writes\ PRESTO ]] || fail "$stderr"
	run -2 --separate-stderr sps-peaks --bogus "$BATS_TEST_TMPDIR/h.ev"
	run -2 --separate-stderr sps-peaks a b
	[[ "$stderr" =~ ^sps-peaks:\ one\ input\ file\ at\ most ]] || fail "$stderr"
}

@test "sps-peaks: --help prints the usage on standard output; --version" {
	run -0 sps-peaks --help
	assert_line --index 0 --partial "usage: sps-peaks"
	run -0 sps-peaks -h
	assert_line --index 0 --partial "usage: sps-peaks"
	run -0 sps-peaks --version
	assert_output --regexp "^sps-peaks [0-9]+\.[0-9]+\.[0-9]+$"
}

@test "sps-peaks: sps-fake | sps-dedisperse | sps-boxcar | sps-peaks finds the pulse" {
	command -v sps-boxcar >/dev/null || skip "sps-boxcar not built yet"
	sps-fake -q --seed 7 --tobs 2 --pulse dm=200,t=1,width=2ms,snr=30 |
	    sps-dedisperse -q --dm 0 500 | sps-boxcar -q |
	    sps-peaks -q >"$BATS_TEST_TMPDIR/cands"
	# the strongest candidate: time (its boxcar's start), DM, members
	run -0 awk '!/^#/ && $4 > best { best = $4; line = $1 " " $5 " " $7 }
	    END { print line }' "$BATS_TEST_TMPDIR/cands"
	read -r t dm m <<<"$output"
	awk -v t="$t" -v dm="$dm" -v m="$m" 'BEGIN {
		exit !(t > 0.995 && t < 1.001 && dm > 190 && dm < 210 && m > 1) }' ||
	    fail "strongest candidate at $t s, DM $dm, $m members"
}

# sps(7)'s example, as the page spells it, finds its one pulse
@test "sps-peaks: the example of sps(7) finds its pulse" {
	local cmd

	cmd=$(awk '/^\$ sps-fake/ { on = 1; sub(/^\$ /, "") }
	    on { line = line $0 " "; if ($0 !~ /\|$/) exit }
	    END { print line }' "$BATS_TEST_DIRNAME/../man/sps.7")
	[[ "$cmd" == "sps-fake "*" sps-peaks " ]] || fail "example: $cmd"
	run -0 --separate-stderr bash -c "$cmd"
	[ "$(grep -vc '^#' <<<"$output")" -eq 1 ] || fail "$output"
	awk '!/^#/ { exit !($1 > 3.99 && $1 < 4.001 && $5 > 290 && $5 < 310) }' \
	    <<<"$output" || fail "$output"
}

# PRESTO's single_pulse_search.py replots ROOT_DMx.xx.singlepulse files
# from the ROOT_DMx.xx.inf beside each: it matches each line by the start
# of its label and takes the value after the last '='
@test "sps-peaks: --per-dm writes the .inf beside each .singlepulse" {
	local t=$BATS_TEST_TMPDIR label dm

	{ header; pulse 1000; event 80 5001 7 8.25; } >"$t/p.ev"
	run -0 sps-peaks -q --per-dm "$t/root" "$t/p.ev"
	run -0 ls "$t"
	assert_output "$(printf '%s\n' p.ev root_DM37.50.inf \
	    root_DM37.50.singlepulse root_DM60.00.inf root_DM60.00.singlepulse)"
	cat >"$t/want.inf" <<-EOF
	 Data file name without suffix          =  $t/root_DM37.50
	 Telescope used                         =  Unknown
	 Instrument used                        =  Unknown
	 Object being observed                  =  fake
	 J2000 Right Ascension (hh:mm:ss.ssss)  =  00:00:00.0000
	 J2000 Declination     (dd:mm:ss.ssss)  =  +00:00:00.0000
	 Data observed by                       =  Unknown
	 Epoch of observation (MJD)             =  60000.000000000000000
	 Barycentered?           (1 yes, 0 no)  =  0
	 Number of bins in the time series      =  10000      
	 Width of each time series bin (sec)    =  0.001
	 Any breaks in the data? (1 yes, 0 no)  =  0
	 Type of observation (EM band)          =  Radio
	 Beam diameter (arcsec)                 =  0
	 Dispersion measure (cm-3 pc)           =  37.5
	 Central freq of low channel (MHz)      =  1493
	 Total bandwidth (MHz)                  =  8
	 Number of channels                     =  8
	 Channel bandwidth (MHz)                =  1
	 Data analyzed by                       =  sps-peaks
	 Any additional notes:
	    Candidates of sps-peaks; times from the epoch, at the top of the band

	EOF
	diff "$t/want.inf" "$t/root_DM37.50.inf"
	for dm in 37.50 60.00; do
		for label in 'Data file name' Telescope Instrument \
		    'Object being observed' 'J2000 Right Ascension' \
		    'J2000 Declination' Epoch Barycentered? 'Number of bins' \
		    'Width of each time series bin' 'Dispersion measure' \
		    'Central freq of low channel' 'Number of channels' \
		    'Channel bandwidth'; do
			grep -q "^ $label" "$t/root_DM$dm.inf" ||
			    fail "root_DM$dm.inf: no '$label'"
		done
		run -0 awk -F= '/^ Number of bins/ { n = $NF + 0 }
		    /^ Dispersion measure/ { d = $NF + 0 }
		    END { printf "%d %.2f\n", n, d }' "$t/root_DM$dm.inf"
		assert_output "10000 $dm"
	done
}

# the .inf of --per-dm agrees with the one sps-dedisperse --presto wrote
# for the series searched
@test "sps-peaks: --per-dm of a PRESTO .dat search gives its .inf back" {
	local t=$BATS_TEST_TMPDIR

	command -v sps-boxcar >/dev/null || skip "sps-boxcar not built yet"
	sps-fake -q --seed 7 --tobs 2 --pulse dm=200,t=1,width=2ms,snr=30 \
	    -o "$t/f.fil"
	sps-dedisperse -q -d 200 -o "$t/s" --presto "$t/f.fil"
	sps-boxcar -q "$t/s_DM200.00.dat" | sps-peaks -q --per-dm "$t/c"
	[ -s "$t/c_DM200.00.singlepulse" ] || fail "no candidates"
	for label in Object Epoch 'Number of bins' 'Width of each' \
	    'Dispersion measure' 'Central freq'; do
		grep "^ $label" "$t/s_DM200.00.inf" >"$t/want"
		grep "^ $label" "$t/c_DM200.00.inf" >"$t/got"
		diff "$t/want" "$t/got"
	done
}

# The .inf of a .dat of the same name (PRESTO's prepsubband, sps-dedisperse
# --presto) says more than the event stream can: it is kept; an .inf that
# sps-peaks wrote is written again
@test "sps-peaks: --per-dm keeps another program's .inf, replaces its own" {
	local t=$BATS_TEST_TMPDIR

	{ header; pulse 1000; } >"$t/p.ev"
	cat >"$t/r_DM37.50.inf" <<-EOF
	 Number of bins in the time series      =  123
	 Data analyzed by                       =  prepsubband
	EOF
	cp "$t/r_DM37.50.inf" "$t/want.inf"
	run -0 sps-peaks -q --per-dm "$t/r" "$t/p.ev"
	cmp "$t/want.inf" "$t/r_DM37.50.inf"
	run -0 sps-peaks -q --per-dm "$t/s" "$t/p.ev"
	grep -q '^ Number of bins in the time series      =  10000 ' \
	    "$t/s_DM37.50.inf"
	{ header | sed 's/^# nsamples 10000/# nsamples 20000/'; pulse 1000; } \
	    >"$t/q.ev"
	run -0 sps-peaks -q --per-dm "$t/s" "$t/q.ev"
	grep -q '^ Number of bins in the time series      =  20000 ' \
	    "$t/s_DM37.50.inf"
}
