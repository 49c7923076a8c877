/* telescope.c: telescope and backend codes and names (telescope.h). */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "telescope.h"

#define MAX_ALIASES	3

struct code {
	int		 id;
	const char	*name;			/* shown */
	const char	*alias[MAX_ALIASES];	/* also understood */
};

static const struct code telescopes[] = {
	{ 0, "Fake", { NULL } },
	{ 1, "Arecibo", { "AO" } },
	{ 2, "Ooty", { "ORT" } },
	{ 3, "Nancay", { "NRT" } },
	{ 4, "Parkes", { "PKS", "Murriyang" } },
	{ 5, "Jodrell", { "Lovell", "JB" } },
	{ 6, "GBT", { "GB" } },
	{ 7, "GMRT", { NULL } },
	{ 8, "Effelsberg", { "EFF" } },
	{ 9, "140ft", { "ATA" } },
	{ 10, "SRT", { NULL } },
	{ 11, "LOFAR", { NULL } },
	{ 12, "VLA", { NULL } },
	{ 20, "CHIME", { NULL } },
	{ 21, "FAST", { NULL } },
	{ 64, "MeerKAT", { NULL } },
	{ 65, "KAT-7", { NULL } },
	{ 82, "eMerlin", { "e-MERLIN" } },
	{ 1916, "I-LOFAR", { NULL } },
};

static const struct code machines[] = {
	{ 0, "FAKE", { NULL } },
	{ 1, "PSPM", { NULL } },
	{ 2, "WAPP", { NULL } },
	{ 3, "AOFTM", { NULL } },
	{ 4, "BPP", { "BCPM1", "BCPM" } },
	{ 5, "OOTY", { NULL } },
	{ 6, "SCAMP", { NULL } },
	{ 7, "GMRTFB", { "SPIGOT", "GBT Pulsar Spigot" } },
	{ 8, "PULSAR2000", { NULL } },
	{ 9, "PARSPEC", { NULL } },
	{ 10, "BPSR", { NULL } },
	{ 11, "BG/P", { NULL } },
	{ 12, "PDEV", { NULL } },
	{ 14, "GMRTNEW", { NULL } },
	{ 20, "CHIME+PSR", { NULL } },
	{ 64, "KAT", { NULL } },
	{ 65, "KAT-DC2", { NULL } },
	{ 82, "loft-e", { NULL } },
	{ 83, "ROACH", { NULL } },
	{ 88, "AT-PAF", { NULL } },
};

#define NTELESCOPES	(sizeof(telescopes) / sizeof(telescopes[0]))
#define NMACHINES	(sizeof(machines) / sizeof(machines[0]))

static const char *
name_of(const struct code *c, size_t n, int id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i].id == id)
			return c[i].name;
	return NULL;
}

/* The length of word if name begins with it and what follows it is not
 * part of a word, else 0. */
static size_t
match(const char *name, const char *word)
{
	size_t len = strlen(word);

	if (strncasecmp(name, word, len) != 0 ||
	    isalnum((unsigned char)name[len]))
		return 0;
	return len;
}

/* The longest name or alias wins: "KAT-DC2" is not "KAT". */
static int
id_of(const struct code *c, size_t n, const char *name)
{
	size_t i, k, len, best = 0;
	int id = -1;

	while (isspace((unsigned char)*name))
		name++;
	for (i = 0; i < n; i++) {
		if ((len = match(name, c[i].name)) > best) {
			best = len;
			id = c[i].id;
		}
		for (k = 0; k < MAX_ALIASES && c[i].alias[k] != NULL; k++)
			if ((len = match(name, c[i].alias[k])) > best) {
				best = len;
				id = c[i].id;
			}
	}
	return id;
}

const char *
sps_telescope_name(int id)
{
	return name_of(telescopes, NTELESCOPES, id);
}

const char *
sps_machine_name(int id)
{
	return name_of(machines, NMACHINES, id);
}

int
sps_telescope_id(const char *name)
{
	return id_of(telescopes, NTELESCOPES, name);
}

int
sps_machine_id(const char *name)
{
	return id_of(machines, NMACHINES, name);
}
