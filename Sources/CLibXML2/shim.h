#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU and would pull the system's ICU headers into Swift, where
// they clash with Foundation's own copy of ICU. Vital uses no ICU-dependent libxml2 API.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
