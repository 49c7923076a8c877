/* help.h: the option lists of the tools' -h, --help (tools/help.c),
 * one a tool, for cli_help. */
#ifndef SPS_HELP_H
#define SPS_HELP_H

extern const char help_boxcar[];
extern const char help_clean[];
extern const char help_cornerturn[];
extern const char help_dedisperse[];
extern const char help_fake[];
extern const char help_filterbank[];
extern const char help_header[];
extern const char help_peaks[];
extern const char help_candmaker[];
extern const char help_plan[];
extern const char help_plot[];
extern const char help_search[];
extern const char help_tscrunch[];

#endif
