#include <errno.h>
#include <linux/keyctl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's key retention service through its two system calls, as libkeyutils makes them
// (Debian's keyutils need not be installed): syscall() is variadic, which Swift cannot call.

static inline long vital_add_key(const char *type, const char *description, const void *payload, size_t length,
                                 int32_t keyring) {
  return syscall(SYS_add_key, type, description, payload, length, keyring);
}

static inline long vital_keyctl(int operation, unsigned long a, unsigned long b, unsigned long c, unsigned long d) {
  return syscall(SYS_keyctl, operation, a, b, c, d);
}
