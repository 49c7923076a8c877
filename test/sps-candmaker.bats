#!/usr/bin/env bats
# sps-candmaker: FETCH's HDF5 files, their layout (h5dump -H), the pulse
# at the centre of data_freq_time, a real recording, bad input.
# Also requires: sps-search, sps-fake, h5dump (hdf5-tools), awk; h5py
# (python3-h5py) for one optional check.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"
SAMPLE="$BATS_TEST_DIRNAME/../data/sample.fil"

setup() {
	if sps-candmaker /dev/null /dev/null 2>&1 | grep -q 'without libhdf5'
	then
		skip "sps-candmaker was built without libhdf5"
	fi
	command -v h5dump >/dev/null || skip "h5dump (hdf5-tools) missing"
	cd "$BATS_TEST_TMPDIR"
}

# The candidates of data/sample.fil (its three pulses), once a file.
sample_cands() {
	if [ ! -s "$BATS_FILE_TMPDIR/sample.cand" ]; then
		sps-search -q "$SAMPLE" --dm 0 600 -o "$BATS_FILE_TMPDIR/s" \
		    >/dev/null
		cp "$BATS_FILE_TMPDIR/s/candidates.cand" \
		    "$BATS_FILE_TMPDIR/sample.cand"
	fi
	echo "$BATS_FILE_TMPDIR/sample.cand"
}

# brightest_row FILE DATASET: the row (0-based) of the largest row sum.
brightest_row() {
	h5dump -d "$2" -y -w 0 "$1" | awk '
		/DATA \{/ { on = 1; next }
		on && /^ *\}/ { on = 0 }
		on { s = 0; for (i = 1; i <= NF; i++) s += $i
			if (n == 0 || s > best) { best = s; row = n }; n++ }
		END { print row }'
}

# brightest_cell FILE DATASET: "row column" of the largest value.
brightest_cell() {
	h5dump -d "$2" -y -w 0 "$1" | awk '
		/DATA \{/ { on = 1; next }
		on && /^ *\}/ { on = 0 }
		on { gsub(",", " "); for (i = 1; i <= NF; i++)
			if (!seen++ || $i > best) { best = $i; cell = n " " i - 1 }
		n++ }
		END { print cell }'
}

@test "sps-candmaker: one file per candidate, named as your names them" {
	run -0 --separate-stderr sps-candmaker -o . "$(sample_cands)" \
	    "$SAMPLE"
	assert_equal "$(ls ./*.h5 | wc -l)" 3
	assert [ -e "cand_tstart_50000.000000000000_tcand_2.0000000_dm_100.35600_snr_16.01980.h5" ]
	assert_equal "$stderr" "sps-candmaker: 3 candidates written to . (10020 of 24000 spectra read, 11689 skipped)"
	run -0 sps-candmaker -q --top 1 -o . "$(sample_cands)" "$SAMPLE"
	assert_output ""
}

@test "sps-candmaker: h5dump -H shows FETCH's datasets and your's attributes" {
	sps-candmaker -q --rank 1 "$(sample_cands)" "$SAMPLE"
	f=$(ls ./*.h5)
	h5dump -H "$f" >h.txt
	for d in data_freq_time data_dm_time; do
		awk -v d="$d" '$0 ~ "DATASET \"" d "\"" { on = 1 }
		    on && /DATATYPE/ { print $2 } on && /DATASPACE/ {
		    print $4, $5, $6, $7; exit }' h.txt >"$d.txt"
		printf 'H5T_IEEE_F32LE\n( 256, 256 )\n' | diff - "$d.txt"
	done
	for a in cand_id tcand dm dm_opt snr snr_opt width label tsamp \
	    nchans foff channel_bandwidth fch1 nspectra source_name tstart \
	    tstart_utc filelist filename basename bw center_freq nbits npol \
	    dtype format native_tsamp native_nchans native_foff \
	    native_nspectra time_decimation_factor \
	    frequency_decimation_factor; do
		grep -q "ATTRIBUTE \"$a\"" h.txt || fail "no attribute $a"
	done
	run -0 h5dump -a dm -y "$f"
	assert_output --partial "495.943"
	run -0 h5dump -a width -y "$f"
	assert_output --partial "32"
}

@test "sps-candmaker: the pulse is at the centre of data_freq_time and the bow tie at its DM" {
	sps-candmaker -q "$(sample_cands)" "$SAMPLE"
	for f in ./*.h5; do
		row=$(brightest_row "$f" data_freq_time)
		[ "$row" -ge 126 ] && [ "$row" -le 130 ] ||
		    fail "$f: brightest time bin $row, not 128"
		set -- $(brightest_cell "$f" data_dm_time)
		[ "$1" -ge 120 ] && [ "$1" -le 136 ] ||
		    fail "$f: DM-time peak at DM row $1, not 127.5"
		[ "$2" -ge 124 ] && [ "$2" -le 132 ] ||
		    fail "$f: DM-time peak at time bin $2, not 128"
	done
}

@test "sps-candmaker: sizes are options" {
	run -0 sps-candmaker -q --top 1 --time-size 64 --frequency-size 32 \
	    --dm-size 16 "$(sample_cands)" "$SAMPLE"
	f=$(ls ./*.h5)
	run -0 h5dump -H -d data_freq_time "$f"
	assert_output --partial "( 64, 32 )"
	run -0 h5dump -H -d data_dm_time "$f"
	assert_output --partial "( 16, 64 )"
	assert_equal "$(brightest_row "$f" data_freq_time)" 32
}

@test "sps-candmaker: h5py reads the files as FETCH does" {
	py=/usr/bin/python3
	$py -c 'import h5py' 2>/dev/null || skip "python3-h5py missing"
	sps-candmaker -q --rank 1 "$(sample_cands)" "$SAMPLE"
	run -0 $py -c '
import glob, h5py, numpy
with h5py.File(glob.glob("*.h5")[0], "r") as f:
    ft = numpy.array(f["data_freq_time"])
    dmt = numpy.array(f["data_dm_time"])
    print(ft.shape, ft.dtype, dmt.shape, int(ft.sum(1).argmax()),
          f.attrs["nchans"], f.attrs["source_name"])'
	assert_output "(256, 256) float32 (256, 256) 128 64 FAKE"
}

@test "sps-candmaker: a pulse in a real recording (the Crab, 832 channels) at DM 56.8" {
	sps-fake -q --inject "$DATA/parkes_8bit_1.fil" --seed 4 \
	    --pulse dm=56.8,t=1.2,width=4ms,snr=25 -o crab.fil
	sps-search -q crab.fil --dm 0 150 -o s
	run -0 sps-candmaker -q --top 1 -o . s/candidates.singlepulse crab.fil
	f=$(ls ./*.h5)
	row=$(brightest_row "$f" data_freq_time)
	[ "$row" -ge 126 ] && [ "$row" -le 130 ] || fail "brightest bin $row"
	run -0 h5dump -a nchans -y "$f"
	assert_output --partial "832"
	# the recording itself, a candidate by hand at DM 56.8
	printf '# DM      Sigma      Time (s)     Sample    Downfact\n' >c.sp
	printf '  56.80    8.00      1.000000       1953       4\n' >>c.sp
	run -0 sps-candmaker -q -o . c.sp "$DATA/parkes_8bit_1.fil"
	assert [ -e "$(ls ./*tcand_0.9999360_dm_56.80000_*.h5)" ]
}

@test "sps-candmaker: candidates past the data's end, absurd DMs, another file's candidates" {
	printf '%s\n' '9 30000 15 2 1 100 1 29990 30010' >late.cand
	run -1 sps-candmaker late.cand "$SAMPLE"
	assert_output "sps-candmaker: late.cand:1: sample 29998 is past the end of the data (24000 samples)"
	printf '%s\n' '9 3000 1.5 2 1 1e7 1 2990 3010' >dm.cand
	run -1 sps-candmaker dm.cand "$SAMPLE"
	assert_output "sps-candmaker: dm.cand:1: DM 1e+07 is out of range (0 to 100000)"
	printf '%s\n' '9 3000 3 2 1 100 1 2990 3010' >other.cand
	run -1 sps-candmaker other.cand "$SAMPLE"
	assert_output "sps-candmaker: other.cand: its times are of samples of 0.001 s, the data's are 0.0005 s: not this data's candidates"
	printf '%s\n' '9 3000 1.5 2 1 100 1 2990' >short.cand
	run -1 sps-candmaker short.cand "$SAMPLE"
	assert_output "sps-candmaker: short.cand:1: 8 columns, Heimdall's have 9 or more"
	run -1 sps-candmaker "$(sample_cands)" "$DATA/README.md"
	assert_output --regexp '^sps-candmaker: .*README.md: '
	assert_equal "${#lines[@]}" 1
	assert_equal "$(ls | grep -c h5)" 0
}

@test "sps-candmaker: an output directory that cannot be written" {
	run -1 sps-candmaker -o nowhere "$(sample_cands)" "$SAMPLE"
	assert_output "sps-candmaker: nowhere: No such file or directory"
	touch plain
	run -1 sps-candmaker -o plain "$(sample_cands)" "$SAMPLE"
	assert_output "sps-candmaker: plain: not a directory"
	mkdir ro && chmod 555 ro
	if [ "$(id -u)" != 0 ]; then
		run -1 sps-candmaker -o ro "$(sample_cands)" "$SAMPLE"
		assert_output "sps-candmaker: ro: Permission denied"
	fi
}

@test "sps-candmaker: a pipe as the data file is refused" {
	run -1 sps-candmaker "$(sample_cands)" - <"$SAMPLE"
	assert_output "sps-candmaker: stdin: a pipe cannot be read for candidates (it is read by seeking); give a file"
	run -1 sps-candmaker "$(sample_cands)" <(cat "$SAMPLE")
	assert_output --partial "a pipe cannot be read for candidates"
}

@test "sps-candmaker: usage errors" {
	run -2 sps-candmaker "$(sample_cands)"
	assert_line --index 0 "sps-candmaker: a candidate file and a data file are needed"
	run -2 sps-candmaker --rank 1 --top 2 a b
	assert_line --index 0 "sps-candmaker: --rank and --top exclude each other"
	run -2 sps-candmaker --time-size 1 a b
	assert_output --partial "--time-size"
}
