/* info.h - the protocol's `info` line, written from a search report. */
#ifndef SIGIL_INFO_H
#define SIGIL_INFO_H

#include <stddef.h>

#include "search.h"
#include "variant.h"

/* Write the UCI `info depth ... score ... pv ...` line for info (no '\n')
 * into buf (truncated to size bytes, the PV cut at a whole move). */
void info_format(const Variant *v, const SearchInfo *info, char *buf, size_t size);

#endif
