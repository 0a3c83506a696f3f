#ifndef VITAL_SEALED_VFS_H
#define VITAL_SEALED_VFS_H

// A SQLite VFS that keeps every page of a database, its write-ahead log and its rollback
// journal sealed (docs/at-rest.md). It knows pages and offsets, not ciphers: the cipher is a
// table of functions that the caller provides. Only standard types appear here, so that this
// header does not bring a second copy of sqlite3.h into Swift beside CSQLite's.

#include <stddef.h>

// The main file begins with a header of this many bytes, which the VFS never writes: the
// pages follow it. Its first bytes are VITAL_SEALED_MAGIC.
#define VITAL_SEALED_HEADER_SIZE 4096
// The one page size a sealed database has, and the bytes at the end of each page that hold
// its nonce (12) and tag (16) instead of SQLite's data.
#define VITAL_SEALED_PAGE_SIZE 4096
#define VITAL_SEALED_RESERVE 28
#define VITAL_SEALED_NONCE_SIZE 12
#define VITAL_SEALED_TAG_SIZE 16
#define VITAL_SEALED_MAGIC "vital-sealed-db"
#define VITAL_SEALED_MAGIC_SIZE 16
#define VITAL_SEALED_SLOT_SIZE 2048

// Which file a page belongs to: part of what each page is sealed with.
#define VITAL_SEALED_KIND_MAIN 1
#define VITAL_SEALED_KIND_WAL 2
#define VITAL_SEALED_KIND_JOURNAL 3

// What the associated data of a page is: its kind, then its position as 8 bytes big-endian
// (the page number in the main file; the byte offset of the page in the log or journal).
#define VITAL_SEALED_AAD_SIZE 9

typedef struct vital_page_cipher {
  // Kept for as long as the VFS is registered, which is for the life of the process.
  void *state;
  // A context for one open file, used by one connection, so from one thread at a time.
  void *(*open_context)(void *state);
  void (*close_context)(void *context);
  // Encrypts `length` bytes at `page` in place and writes nonce and tag to `seal`
  // (VITAL_SEALED_RESERVE bytes). Returns 1 on success.
  int (*seal)(void *context, unsigned char *page, int length, const unsigned char *aad, int aad_length,
              unsigned char *seal);
  // Decrypts in place; returns 1 only when the page authenticates.
  int (*open)(void *context, unsigned char *page, int length, const unsigned char *aad, int aad_length,
              const unsigned char *seal);
} vital_page_cipher;

// Registers a VFS called `name` over the default one, sealing with `cipher`. Returns a SQLite
// result code. The VFS stays registered until the process ends.
int vital_sealed_vfs_register(const char *name, vital_page_cipher cipher);

// The page that last failed to open on this thread, and forgets it: returns 0 when none did,
// else its kind, with its position in `*position`.
int vital_sealed_take_failure(long long *position);

// Reads every page of the sealed main file at `path` and opens it with the cipher of the VFS
// `name`: calls `bad` for each page that does not open (page numbers from 1). Returns the
// number of pages, or -1 with errno set when the file cannot be read.
long long vital_sealed_check_file(const char *name, const char *path, void (*bad)(void *context, long long page),
                                  void *context);

// How many pages were handed to the VFS to write with something other than zeros where the
// seal goes, and how many temporary files it refused, since the process began: both must stay
// 0 (tests read them).
long long vital_sealed_unclean_writes(void);
long long vital_sealed_refused_temporary_files(void);

// Seals or opens one page as the VFS does, for known-answer tests (`page` is
// VITAL_SEALED_PAGE_SIZE bytes, its last VITAL_SEALED_RESERVE bytes the seal).
int vital_sealed_seal_page(const char *name, int kind, long long position, unsigned char *page);
int vital_sealed_open_page(const char *name, int kind, long long position, unsigned char *page);

#endif
