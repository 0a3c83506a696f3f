#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

// sqlite3_config is variadic, which Swift cannot call. Memory statistics take a global mutex
// on every allocation; Vital never reads them. Must run before the first connection opens.
static inline int csqlite_disable_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
