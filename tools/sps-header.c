/* sps-header: show a SIGPROC header the way SIGPROC's header does, or
 * single values of it, or all of it as JSON; edit it (like filedit) into
 * a new file or stream with the data copied untouched; list the CUDA
 * devices.  Works through pipes: nothing here seeks. */
#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "devices.h"
#include "header.h"
#include "header_edit.h"
#include "header_show.h"
#include "help.h"
#include "passthrough.h"
#include "psrfits.h"
#include "reader.h"
#include "writer.h"

#define MAX_DEVICES	64

static const char usage_text[] =
    "usage: sps-header [--json | --VALUE ...] [FILE | -]\n"
    "       sps-header --set KEY=VALUE ... [--unset KEY ...] [-q] "
    "[-o OUTPUT]\n"
    "                  [FILE | -]\n"
    "       sps-header --devices\n";

enum {
	OPT_JSON = 256, OPT_SET, OPT_UNSET, OPT_DEVICES, OPT_VERSION,
	OPT_VALUE	/* OPT_VALUE + i: sps_header_value_names[i] */
};

struct options {
	enum sps_header_value	*values;	/* single values, in order */
	int			 nvalues;
	struct sps_header_edit	*edits;		/* --set, --unset in order */
	int			 nedits;
	int			 json;
	int			 devices;
	int			 quiet;
	const char		*output;
	const char		*input;		/* NULL: standard input */
};

static void
usage_error(const char *fmt, const char *arg)
{
	cli_usage_error(usage_text, fmt, arg);
}

/* Check --set/--unset before any input is read. */
static void
add_edit(struct options *opt, char *arg, int is_set)
{
	struct sps_header_edit *e = &opt->edits[opt->nedits++];
	char *eq;

	e->key = arg;
	e->value = NULL;
	if (is_set) {
		if ((eq = strchr(arg, '=')) == NULL)
			usage_error("--set %s: expected KEY=VALUE", arg);
		*eq = '\0';
		e->value = eq + 1;
	}
	if (!sps_header_edit_known(e))
		usage_error("unknown header keyword '%s'", e->key);
	if (sps_header_edit_try(e) != SPS_OK)
		usage_error("%s", sps_errmsg());
}

static void
parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option fixed[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "set", required_argument, NULL, OPT_SET },
		{ "unset", required_argument, NULL, OPT_UNSET },
		{ "devices", no_argument, NULL, OPT_DEVICES },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
	};
	struct option longopts[sizeof(fixed) / sizeof(fixed[0]) +
	    sps_header_nvalue_names + 1];
	int nfixed = sizeof(fixed) / sizeof(fixed[0]), c, i;

	memset(longopts, 0, sizeof(longopts));
	memcpy(longopts, fixed, sizeof(fixed));
	for (i = 0; i < sps_header_nvalue_names; i++) {
		longopts[nfixed + i].name = sps_header_value_names[i].name;
		longopts[nfixed + i].val = OPT_VALUE + i;
	}
	memset(opt, 0, sizeof(*opt));
	opt->values = calloc((size_t)argc, sizeof(*opt->values));
	opt->edits = calloc((size_t)argc, sizeof(*opt->edits));
	if (opt->values == NULL || opt->edits == NULL)
		err(1, NULL);
	cli_long_hint(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "ho:q", longopts, NULL)) != -1) {
		if (c >= OPT_VALUE) {
			opt->values[opt->nvalues++] =
			    sps_header_value_names[c - OPT_VALUE].value;
			continue;
		}
		switch (c) {
		case OPT_JSON:
			opt->json = 1;
			break;
		case OPT_SET:
		case OPT_UNSET:
			add_edit(opt, optarg, c == OPT_SET);
			break;
		case OPT_DEVICES:
			opt->devices = 1;
			break;
		case OPT_VERSION:
			cli_version();
		case 'o':
			opt->output = optarg;
			break;
		case 'q':
			opt->quiet = 1;
			break;
		case 'h':
			cli_help(usage_text, help_header);
		default:
			fputs(usage_text, stderr);
			exit(2);
		}
	}
	if (argc - optind > 1)
		usage_error("one input file at most (got '%s' too)",
		    argv[optind + 1]);
	if (optind < argc && strcmp(argv[optind], "-") != 0)
		opt->input = argv[optind];
	else if (!opt->devices && isatty(STDIN_FILENO))
		usage_error("%s", "no input: give a file, or data on a pipe");
	if (opt->devices && (optind < argc || opt->json || opt->nvalues > 0 ||
	    opt->nedits > 0 || opt->output != NULL))
		usage_error("%s", "--devices takes no other option or file");
	if (opt->nedits > 0 && (opt->json || opt->nvalues > 0))
		usage_error("%s", "--set/--unset write data: no --json or "
		    "single values with them");
	if (opt->json && opt->nvalues > 0)
		usage_error("%s", "--json or single values, not both");
	if (opt->output != NULL && opt->nedits == 0)
		usage_error("%s", "-o is for --set/--unset output");
}

static int
list_devices(void)
{
	struct sps_device dev[MAX_DEVICES];
	int i, n;

	cli_check(sps_device_list(dev, MAX_DEVICES, &n), NULL);
	for (i = 0; i < n && i < MAX_DEVICES; i++)
		printf("%d: %s, compute capability %d.%d, %.1f GiB, %d SMs, "
		    "%.0f MHz, PCI %04x:%02x:%02x\n", dev[i].index, dev[i].name,
		    dev[i].major, dev[i].minor,
		    dev[i].memory / (1024.0 * 1024 * 1024),
		    dev[i].multiprocessors, dev[i].clock_khz / 1000.0,
		    (unsigned)dev[i].pci_domain, (unsigned)dev[i].pci_bus,
		    (unsigned)dev[i].pci_device);
	return 0;
}

static void
show(struct sps_reader *r, const struct options *opt)
{
	const struct sps_psrfits_info *fits;
	struct sps_header_derived d;
	uint64_t nspectra = r->nsamples;
	int i;

	if (nspectra == SPS_NSAMPLES_UNKNOWN)
		cli_check(sps_passthrough(r, NULL, &nspectra), NULL);
	sps_header_derive(&d, &r->hdr, nspectra);
	d.cut_bytes = r->cut_bytes;
	if ((fits = sps_psrfits_info(r)) != NULL) {
		d.telescope = fits->telescope;
		d.backend = fits->backend;
	}
	if (opt->json)
		sps_header_show_json(stdout, &d);
	else if (opt->nvalues > 0)
		for (i = 0; i < opt->nvalues; i++)
			sps_header_show_value(stdout, &d, opt->values[i]);
	else
		sps_header_show_table(stdout, &d);
}

static void
edited_header(const struct sps_reader *r, const struct options *opt,
    struct sps_header *h)
{
	if (r->hdr.length == 0)
		cli_fail("%s: not a SIGPROC file: only SIGPROC headers can be "
		    "edited", r->name);
	cli_check(sps_header_copy(h, &r->hdr), NULL);
	cli_check(sps_header_edit_apply(h, opt->edits, opt->nedits), "--set");
	cli_check(sps_header_check(h), "edited header");
	cli_check(sps_header_edit_check(&r->hdr, h, r->nsamples), NULL);
}

static void
edit(struct sps_reader *r, const struct options *opt)
{
	struct sps_header h;
	struct sps_writer w;
	uint64_t n = 0;

	edited_header(r, opt, &h);
	if (opt->output == NULL && isatty(STDOUT_FILENO))
		cli_fail("not writing binary data to a terminal (use -o FILE "
		    "or a pipe)");
	cli_check(sps_writer_open(&w, opt->output), NULL);
	if (sps_writer_header(&w, &h) != SPS_OK ||
	    sps_passthrough(r, &w, &n) != SPS_OK ||
	    sps_header_edit_check(&r->hdr, &h, n) != SPS_OK)
		cli_output_fail(&w);
	cli_check(sps_writer_close(&w), NULL);
	if (!opt->quiet)
		fprintf(stderr, "sps-header: wrote %llu spectra under the "
		    "edited header to %s\n", (unsigned long long)n,
		    opt->output != NULL ? opt->output : "stdout");
	sps_header_free(&h);
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct sps_reader r;

	cli_init("sps-header", argv);
	parse_options(argc, argv, &opt);
	if (opt.devices)
		return list_devices();
	cli_check(sps_reader_open(&r, opt.input), NULL);
	if (opt.nedits > 0)
		edit(&r, &opt);
	else
		show(&r, &opt);
	cli_reader_close(&r);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout: write error");
	free(opt.values);
	free(opt.edits);
	return 0;
}
