// The sealing VFS: a shim over the default VFS, in the shape of SQLite's ext/misc/cksumvfs.c,
// that seals whole pages on their way to the disk and opens them on their way back. The layout
// it keeps is docs/at-rest.md; the cipher is the caller's (vital_page_cipher).
//
// Which bytes are a page:
// - main file: everything after the header; page N is at HEADER + (N - 1) * PAGE.
// - write-ahead log: the page of each frame (32-byte log header, then frames of a 24-byte frame
//   header and a page); the headers stay as SQLite wrote them.
// - rollback journal: a record is a 4-byte page number, the page and a 4-byte checksum after a
//   header of a whole sector, so a page always starts 4 bytes past a multiple of 8, where no
//   header does. SQLite reads a page of the journal exactly where it wrote it.
//
// SQLite never puts anything in a page's reserved bytes; the VFS keeps the nonce and tag there
// and hands pages back with zeros in their place, so that the checksums SQLite computes over a
// page in the log and journal are the same when it reads the page again.

#include "CSealedVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE VITAL_SEALED_PAGE_SIZE
#define HEADER VITAL_SEALED_HEADER_SIZE
#define RESERVE VITAL_SEALED_RESERVE
#define BODY (PAGE - RESERVE)
#define WAL_HEADER 32
#define FRAME_HEADER 24
#define FRAME (FRAME_HEADER + PAGE)

typedef struct SealedVfs {
  sqlite3_vfs base;
  sqlite3_vfs *lower;
  vital_page_cipher cipher;
  char *name;
} SealedVfs;

typedef struct SealedFile {
  sqlite3_file base;
  SealedVfs *vfs;
  void *context;
  unsigned char *page;
  int kind;
} SealedFile;

#define ROUND8(x) (((x) + 7) & ~((size_t)7))
#define LOWER(p) ((sqlite3_file *)((char *)(p) + ROUND8(sizeof(SealedFile))))

static _Thread_local int failedKind;
static _Thread_local long long failedPosition;
static atomic_llong uncleanWrites;
static atomic_llong refusedTemporaryFiles;

static void aadFor(unsigned char aad[VITAL_SEALED_AAD_SIZE], int kind, long long position) {
  aad[0] = (unsigned char)kind;
  for (int i = 0; i < 8; i++) aad[1 + i] = (unsigned char)((unsigned long long)position >> (56 - 8 * i));
}

static int sealPage(SealedVfs *vfs, void *context, unsigned char *page, int kind, long long position) {
  unsigned char aad[VITAL_SEALED_AAD_SIZE];
  aadFor(aad, kind, position);
  return vfs->cipher.seal(context, page, BODY, aad, VITAL_SEALED_AAD_SIZE, page + BODY);
}

static int openPage(SealedVfs *vfs, void *context, unsigned char *page, int kind, long long position) {
  unsigned char aad[VITAL_SEALED_AAD_SIZE];
  aadFor(aad, kind, position);
  if (!vfs->cipher.open(context, page, BODY, aad, VITAL_SEALED_AAD_SIZE, page + BODY)) return 0;
  memset(page + BODY, 0, RESERVE);
  return 1;
}

static int allZero(const unsigned char *bytes, int count) {
  for (int i = 0; i < count; i++)
    if (bytes[i]) return 0;
  return 1;
}

// Where the logical offset `offset` of the main file or log falls: 1 inside a sealed page that
// starts at *start (its position in *position), 0 in plain bytes; either way *limit is where
// that stretch ends.
static int region(int kind, sqlite3_int64 offset, sqlite3_int64 *start, sqlite3_int64 *limit, long long *position) {
  if (kind == VITAL_SEALED_KIND_MAIN) {
    *start = offset - offset % PAGE;
    *limit = *start + PAGE;
    *position = *start / PAGE + 1;
    return 1;
  }
  if (offset < WAL_HEADER) {
    *limit = WAL_HEADER;
    return 0;
  }
  sqlite3_int64 frame = WAL_HEADER + (offset - WAL_HEADER) / FRAME * FRAME;
  if (offset < frame + FRAME_HEADER) {
    *limit = frame + FRAME_HEADER;
    return 0;
  }
  *start = frame + FRAME_HEADER;
  *limit = *start + PAGE;
  *position = *start;
  return 1;
}

static sqlite3_int64 physical(SealedFile *file, sqlite3_int64 offset) {
  return file->kind == VITAL_SEALED_KIND_MAIN ? offset + HEADER : offset;
}

static int failure(SealedFile *file, long long position) {
  failedKind = file->kind;
  failedPosition = position;
  sqlite3_log(SQLITE_CORRUPT, "vital-sealed: a page of kind %d at %lld does not open", file->kind, position);
  return SQLITE_CORRUPT;
}

// Reads the sealed page at logical `start` into file->page and opens it. A page wholly past
// the end of the file reads as zeros (SQLITE_IOERR_SHORT_READ, as SQLite expects); one cut
// short or that does not open is damaged: an error when `strict`, else zeros, which fail
// SQLite's own checksum of a log frame as the torn end of a log should.
static int readPage(SealedFile *file, sqlite3_int64 start, long long position, int strict) {
  sqlite3_file *lower = LOWER(file);
  int rc = lower->pMethods->xRead(lower, file->page, PAGE, physical(file, start));
  if (rc == SQLITE_IOERR_SHORT_READ && allZero(file->page, PAGE)) return rc;
  if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
  if (rc == SQLITE_OK && openPage(file->vfs, file->context, file->page, file->kind, position)) return SQLITE_OK;
  if (strict) return failure(file, position);
  memset(file->page, 0, PAGE);
  return SQLITE_OK;
}

static int sealedRead(sqlite3_file *pFile, void *zBuf, int iAmt, sqlite3_int64 iOfst) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  if (file->kind == VITAL_SEALED_KIND_JOURNAL) {
    if (iAmt != PAGE || iOfst % 8 != 4) return lower->pMethods->xRead(lower, zBuf, iAmt, iOfst);
    int rc = readPage(file, iOfst, iOfst, 1);
    if (rc == SQLITE_OK || rc == SQLITE_IOERR_SHORT_READ) memcpy(zBuf, file->page, PAGE);
    return rc;
  }
  // A page of the log read alone is a committed page and must open; whole frames are read
  // while the log is recovered, where a torn last frame is expected.
  int strict = file->kind == VITAL_SEALED_KIND_MAIN || iAmt == PAGE;
  unsigned char *out = zBuf;
  sqlite3_int64 offset = iOfst, end = iOfst + iAmt;
  int shortRead = 0;
  while (offset < end) {
    sqlite3_int64 start = 0, limit = 0;
    long long position = 0;
    int sealed = region(file->kind, offset, &start, &limit, &position);
    sqlite3_int64 to = end < limit ? end : limit;
    int rc;
    if (sealed) {
      rc = readPage(file, start, position, strict);
      if (rc == SQLITE_OK || rc == SQLITE_IOERR_SHORT_READ) memcpy(out + (offset - iOfst), file->page + (offset - start), (size_t)(to - offset));
    } else {
      rc = lower->pMethods->xRead(lower, out + (offset - iOfst), (int)(to - offset), physical(file, offset));
    }
    if (rc == SQLITE_IOERR_SHORT_READ) {
      shortRead = 1;
    } else if (rc != SQLITE_OK) {
      return rc;
    }
    offset = to;
  }
  return shortRead ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

// Seals a copy of the page SQLite hands over (its buffer is the page cache's) and writes it.
static int writePage(SealedFile *file, const void *zBuf, sqlite3_int64 at, long long position) {
  const unsigned char *page = zBuf;
  if (!allZero(page + BODY, RESERVE)) {
    atomic_fetch_add(&uncleanWrites, 1);
    sqlite3_log(SQLITE_IOERR_WRITE, "vital-sealed: a page holds data where its seal goes");
    return SQLITE_IOERR_WRITE;
  }
  memcpy(file->page, page, BODY);
  if (!sealPage(file->vfs, file->context, file->page, file->kind, position)) return SQLITE_IOERR_WRITE;
  sqlite3_file *lower = LOWER(file);
  return lower->pMethods->xWrite(lower, file->page, PAGE, at);
}

// Page 1 says how big pages are and how many bytes each keeps for the seal: SQLite must be
// told before the first write (SQLITE_FCNTL_RESERVE_BYTES), or the seal would overwrite data.
static int leavesRoomForTheSeal(const unsigned char *first) {
  int pageSize = first[16] << 8 | first[17];
  return pageSize == PAGE && first[20] == RESERVE;
}

static int sealedWrite(sqlite3_file *pFile, const void *zBuf, int iAmt, sqlite3_int64 iOfst) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  switch (file->kind) {
    case VITAL_SEALED_KIND_JOURNAL:
      if (iAmt == PAGE && iOfst % 8 == 4) return writePage(file, zBuf, iOfst, iOfst);
      return lower->pMethods->xWrite(lower, zBuf, iAmt, iOfst);
    case VITAL_SEALED_KIND_WAL: {
      sqlite3_int64 start = 0, limit = 0;
      long long position = 0;
      if (!region(file->kind, iOfst, &start, &limit, &position)) {
        if (iOfst + iAmt <= limit) return lower->pMethods->xWrite(lower, zBuf, iAmt, iOfst);
      } else if (start == iOfst && iAmt == PAGE) {
        return writePage(file, zBuf, iOfst, position);
      }
      sqlite3_log(SQLITE_IOERR_WRITE, "vital-sealed: a write across a page of the log");
      return SQLITE_IOERR_WRITE;
    }
    default:
      if (iAmt != PAGE || iOfst % PAGE != 0 || (iOfst == 0 && !leavesRoomForTheSeal(zBuf))) {
        sqlite3_log(SQLITE_IOERR_WRITE, "vital-sealed: a write that is not a whole page with room for its seal");
        return SQLITE_IOERR_WRITE;
      }
      return writePage(file, zBuf, iOfst + HEADER, iOfst / PAGE + 1);
  }
}

static int sealedClose(sqlite3_file *pFile) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  int rc = lower->pMethods ? lower->pMethods->xClose(lower) : SQLITE_OK;
  if (file->context) file->vfs->cipher.close_context(file->context);
  sqlite3_free(file->page);
  file->context = 0;
  file->page = 0;
  return rc;
}

static int sealedTruncate(sqlite3_file *pFile, sqlite3_int64 size) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  return lower->pMethods->xTruncate(lower, physical(file, size));
}

static int sealedSync(sqlite3_file *pFile, int flags) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xSync(lower, flags);
}

static int sealedFileSize(sqlite3_file *pFile, sqlite3_int64 *pSize) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  int rc = lower->pMethods->xFileSize(lower, pSize);
  if (rc == SQLITE_OK && file->kind == VITAL_SEALED_KIND_MAIN) *pSize = *pSize > HEADER ? *pSize - HEADER : 0;
  return rc;
}

static int sealedLock(sqlite3_file *pFile, int eLock) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xLock(lower, eLock);
}

static int sealedUnlock(sqlite3_file *pFile, int eLock) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xUnlock(lower, eLock);
}

static int sealedCheckReservedLock(sqlite3_file *pFile, int *pResOut) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xCheckReservedLock(lower, pResOut);
}

static int sealedFileControl(sqlite3_file *pFile, int op, void *pArg) {
  SealedFile *file = (SealedFile *)pFile;
  sqlite3_file *lower = LOWER(file);
  if (op == SQLITE_FCNTL_SIZE_HINT && file->kind == VITAL_SEALED_KIND_MAIN) {
    sqlite3_int64 size = *(sqlite3_int64 *)pArg + HEADER;
    return lower->pMethods->xFileControl(lower, op, &size);
  }
  int rc = lower->pMethods->xFileControl(lower, op, pArg);
  if (rc == SQLITE_OK && op == SQLITE_FCNTL_VFSNAME) {
    *(char **)pArg = sqlite3_mprintf("vital-sealed/%z", *(char **)pArg);
  }
  return rc;
}

static int sealedSectorSize(sqlite3_file *pFile) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xSectorSize(lower);
}

// Writes that SQLite would split or batch differently with other flags would no longer fall
// on whole pages; the ones left keep every page write whole.
static int sealedDeviceCharacteristics(sqlite3_file *pFile) {
  sqlite3_file *lower = LOWER(pFile);
  int flags = lower->pMethods->xDeviceCharacteristics(lower);
  flags &= ~(SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 | SQLITE_IOCAP_ATOMIC1K | SQLITE_IOCAP_ATOMIC2K |
             SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K | SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K |
             SQLITE_IOCAP_ATOMIC64K | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_BATCH_ATOMIC);
  return flags | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static int sealedShmMap(sqlite3_file *pFile, int iPg, int pgsz, int bExtend, void volatile **pp) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xShmMap(lower, iPg, pgsz, bExtend, pp);
}

static int sealedShmLock(sqlite3_file *pFile, int offset, int n, int flags) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xShmLock(lower, offset, n, flags);
}

static void sealedShmBarrier(sqlite3_file *pFile) {
  sqlite3_file *lower = LOWER(pFile);
  lower->pMethods->xShmBarrier(lower);
}

static int sealedShmUnmap(sqlite3_file *pFile, int deleteFlag) {
  sqlite3_file *lower = LOWER(pFile);
  return lower->pMethods->xShmUnmap(lower, deleteFlag);
}

// A memory map would hand SQLite the sealed bytes: every page goes through xRead instead.
static int sealedFetch(sqlite3_file *pFile, sqlite3_int64 iOfst, int iAmt, void **pp) {
  (void)pFile;
  (void)iOfst;
  (void)iAmt;
  *pp = 0;
  return SQLITE_OK;
}

static int sealedUnfetch(sqlite3_file *pFile, sqlite3_int64 iOfst, void *p) {
  (void)pFile;
  (void)iOfst;
  (void)p;
  return SQLITE_OK;
}

static const sqlite3_io_methods sealedMethods = {
    3,
    sealedClose,
    sealedRead,
    sealedWrite,
    sealedTruncate,
    sealedSync,
    sealedFileSize,
    sealedLock,
    sealedUnlock,
    sealedCheckReservedLock,
    sealedFileControl,
    sealedSectorSize,
    sealedDeviceCharacteristics,
    sealedShmMap,
    sealedShmLock,
    sealedShmBarrier,
    sealedShmUnmap,
    sealedFetch,
    sealedUnfetch,
};

static int hasMagic(sqlite3_file *lower, sqlite3_int64 offset) {
  unsigned char magic[VITAL_SEALED_MAGIC_SIZE];
  int rc = lower->pMethods->xRead(lower, magic, sizeof magic, offset);
  return rc == SQLITE_OK && memcmp(magic, VITAL_SEALED_MAGIC, VITAL_SEALED_MAGIC_SIZE) == 0;
}

static int sealedOpen(sqlite3_vfs *pVfs, sqlite3_filename zName, sqlite3_file *pFile, int flags, int *pOutFlags) {
  SealedVfs *vfs = (SealedVfs *)pVfs;
  SealedFile *file = (SealedFile *)pFile;
  memset(file, 0, sizeof *file);
  int kind = (flags & SQLITE_OPEN_MAIN_DB)        ? VITAL_SEALED_KIND_MAIN
             : (flags & SQLITE_OPEN_WAL)          ? VITAL_SEALED_KIND_WAL
             : (flags & SQLITE_OPEN_MAIN_JOURNAL) ? VITAL_SEALED_KIND_JOURNAL
                                                  : 0;
  // Temporary files (sorts, statement journals, temporary tables) would hold records in the
  // clear; connections to a sealed database keep them in memory (temp_store), so none comes.
  if (!kind) {
    atomic_fetch_add(&refusedTemporaryFiles, 1);
    sqlite3_log(SQLITE_CANTOPEN, "vital-sealed: a temporary file was refused");
    return SQLITE_CANTOPEN;
  }
  sqlite3_file *lower = LOWER(file);
  int rc = vfs->lower->xOpen(vfs->lower, zName, lower, flags, pOutFlags);
  if (rc != SQLITE_OK) {
    if (lower->pMethods) lower->pMethods->xClose(lower);
    return rc;
  }
  file->vfs = vfs;
  file->kind = kind;
  file->page = sqlite3_malloc(PAGE);
  file->context = vfs->cipher.open_context(vfs->cipher.state);
  if (!file->page || !file->context) {
    rc = SQLITE_NOMEM;
  } else if (kind == VITAL_SEALED_KIND_MAIN && !hasMagic(lower, 0) && !hasMagic(lower, VITAL_SEALED_SLOT_SIZE)) {
    // The header is written before the first open: a plain database or an empty file is not
    // opened as a sealed one.
    rc = SQLITE_NOTADB;
  }
  if (rc != SQLITE_OK) {
    sealedClose(pFile);
    return rc;
  }
  file->base.pMethods = &sealedMethods;
  return SQLITE_OK;
}

#define LOWER_VFS(p) (((SealedVfs *)(p))->lower)

static int sealedDelete(sqlite3_vfs *pVfs, const char *zPath, int dirSync) {
  return LOWER_VFS(pVfs)->xDelete(LOWER_VFS(pVfs), zPath, dirSync);
}
static int sealedAccess(sqlite3_vfs *pVfs, const char *zPath, int flags, int *pResOut) {
  return LOWER_VFS(pVfs)->xAccess(LOWER_VFS(pVfs), zPath, flags, pResOut);
}
static int sealedFullPathname(sqlite3_vfs *pVfs, const char *zPath, int nOut, char *zOut) {
  return LOWER_VFS(pVfs)->xFullPathname(LOWER_VFS(pVfs), zPath, nOut, zOut);
}
static void *sealedDlOpen(sqlite3_vfs *pVfs, const char *zPath) {
  return LOWER_VFS(pVfs)->xDlOpen(LOWER_VFS(pVfs), zPath);
}
static void sealedDlError(sqlite3_vfs *pVfs, int nByte, char *zErrMsg) {
  LOWER_VFS(pVfs)->xDlError(LOWER_VFS(pVfs), nByte, zErrMsg);
}
static void (*sealedDlSym(sqlite3_vfs *pVfs, void *p, const char *zSym))(void) {
  return LOWER_VFS(pVfs)->xDlSym(LOWER_VFS(pVfs), p, zSym);
}
static void sealedDlClose(sqlite3_vfs *pVfs, void *pHandle) { LOWER_VFS(pVfs)->xDlClose(LOWER_VFS(pVfs), pHandle); }
static int sealedRandomness(sqlite3_vfs *pVfs, int nByte, char *zBufOut) {
  return LOWER_VFS(pVfs)->xRandomness(LOWER_VFS(pVfs), nByte, zBufOut);
}
static int sealedSleep(sqlite3_vfs *pVfs, int nMicro) { return LOWER_VFS(pVfs)->xSleep(LOWER_VFS(pVfs), nMicro); }
static int sealedCurrentTime(sqlite3_vfs *pVfs, double *pTimeOut) {
  return LOWER_VFS(pVfs)->xCurrentTime(LOWER_VFS(pVfs), pTimeOut);
}
static int sealedGetLastError(sqlite3_vfs *pVfs, int a, char *b) {
  return LOWER_VFS(pVfs)->xGetLastError(LOWER_VFS(pVfs), a, b);
}
static int sealedCurrentTimeInt64(sqlite3_vfs *pVfs, sqlite3_int64 *p) {
  sqlite3_vfs *lower = LOWER_VFS(pVfs);
  if (lower->iVersion >= 2 && lower->xCurrentTimeInt64) return lower->xCurrentTimeInt64(lower, p);
  double now = 0;
  int rc = lower->xCurrentTime(lower, &now);
  *p = (sqlite3_int64)(now * 86400000.0);
  return rc;
}
static int sealedSetSystemCall(sqlite3_vfs *pVfs, const char *zName, sqlite3_syscall_ptr pCall) {
  return LOWER_VFS(pVfs)->xSetSystemCall(LOWER_VFS(pVfs), zName, pCall);
}
static sqlite3_syscall_ptr sealedGetSystemCall(sqlite3_vfs *pVfs, const char *zName) {
  return LOWER_VFS(pVfs)->xGetSystemCall(LOWER_VFS(pVfs), zName);
}
static const char *sealedNextSystemCall(sqlite3_vfs *pVfs, const char *zName) {
  return LOWER_VFS(pVfs)->xNextSystemCall(LOWER_VFS(pVfs), zName);
}

int vital_sealed_vfs_register(const char *name, vital_page_cipher cipher) {
  sqlite3_vfs *lower = sqlite3_vfs_find(0);
  if (!lower || !name) return SQLITE_ERROR;
  if (sqlite3_vfs_find(name)) return SQLITE_ERROR;
  SealedVfs *vfs = sqlite3_malloc(sizeof *vfs);
  if (!vfs) return SQLITE_NOMEM;
  memset(vfs, 0, sizeof *vfs);
  vfs->name = sqlite3_mprintf("%s", name);
  if (!vfs->name) {
    sqlite3_free(vfs);
    return SQLITE_NOMEM;
  }
  vfs->lower = lower;
  vfs->cipher = cipher;
  vfs->base.iVersion = lower->iVersion < 3 ? lower->iVersion : 3;
  vfs->base.szOsFile = (int)(ROUND8(sizeof(SealedFile)) + (size_t)lower->szOsFile);
  vfs->base.mxPathname = lower->mxPathname;
  vfs->base.zName = vfs->name;
  vfs->base.xOpen = sealedOpen;
  vfs->base.xDelete = sealedDelete;
  vfs->base.xAccess = sealedAccess;
  vfs->base.xFullPathname = sealedFullPathname;
  vfs->base.xDlOpen = sealedDlOpen;
  vfs->base.xDlError = sealedDlError;
  vfs->base.xDlSym = sealedDlSym;
  vfs->base.xDlClose = sealedDlClose;
  vfs->base.xRandomness = sealedRandomness;
  vfs->base.xSleep = sealedSleep;
  vfs->base.xCurrentTime = sealedCurrentTime;
  vfs->base.xGetLastError = sealedGetLastError;
  vfs->base.xCurrentTimeInt64 = sealedCurrentTimeInt64;
  vfs->base.xSetSystemCall = sealedSetSystemCall;
  vfs->base.xGetSystemCall = sealedGetSystemCall;
  vfs->base.xNextSystemCall = sealedNextSystemCall;
  int rc = sqlite3_vfs_register(&vfs->base, 0);
  if (rc != SQLITE_OK) {
    sqlite3_free(vfs->name);
    sqlite3_free(vfs);
  }
  return rc;
}

static SealedVfs *findSealed(const char *name) {
  sqlite3_vfs *vfs = sqlite3_vfs_find(name);
  return vfs && vfs->xOpen == sealedOpen ? (SealedVfs *)vfs : 0;
}

int vital_sealed_take_failure(long long *position) {
  int kind = failedKind;
  *position = failedPosition;
  failedKind = 0;
  failedPosition = 0;
  return kind;
}

long long vital_sealed_check_file(const char *name, const char *path, void (*bad)(void *context, long long page),
                                  void *context) {
  SealedVfs *vfs = findSealed(name);
  if (!vfs) {
    errno = EINVAL;
    return -1;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat info;
  if (fstat(fd, &info) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  long long bytes = info.st_size > HEADER ? (long long)info.st_size - HEADER : 0;
  long long pages = (bytes + PAGE - 1) / PAGE;
  unsigned char *page = malloc(PAGE);
  void *cipherContext = vfs->cipher.open_context(vfs->cipher.state);
  if (!page || !cipherContext) {
    free(page);
    if (cipherContext) vfs->cipher.close_context(cipherContext);
    close(fd);
    errno = ENOMEM;
    return -1;
  }
  for (long long n = 1; n <= pages; n++) {
    ssize_t got = pread(fd, page, PAGE, HEADER + (n - 1) * PAGE);
    if (got != PAGE || !openPage(vfs, cipherContext, page, VITAL_SEALED_KIND_MAIN, n)) bad(context, n);
  }
  vfs->cipher.close_context(cipherContext);
  free(page);
  close(fd);
  return pages;
}

long long vital_sealed_unclean_writes(void) { return atomic_load(&uncleanWrites); }

long long vital_sealed_refused_temporary_files(void) { return atomic_load(&refusedTemporaryFiles); }

static int withPage(const char *name, int kind, long long position, unsigned char *page, int seal) {
  SealedVfs *vfs = findSealed(name);
  if (!vfs) return 0;
  void *context = vfs->cipher.open_context(vfs->cipher.state);
  if (!context) return 0;
  int ok = seal ? sealPage(vfs, context, page, kind, position) : openPage(vfs, context, page, kind, position);
  vfs->cipher.close_context(context);
  return ok;
}

int vital_sealed_seal_page(const char *name, int kind, long long position, unsigned char *page) {
  return withPage(name, kind, position, page, 1);
}

int vital_sealed_open_page(const char *name, int kind, long long position, unsigned char *page) {
  return withPage(name, kind, position, page, 0);
}
