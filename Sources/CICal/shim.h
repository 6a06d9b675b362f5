// libical (Debian's libical-dev): iCalendar files read and recurrences expanded, for the
// holidays an alarm skips. Nothing else is needed from it.
#ifndef CICAL_SHIM_H
#define CICAL_SHIM_H

#include <libical/ical.h>

#endif
