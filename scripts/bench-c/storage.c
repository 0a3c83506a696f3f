/* The raw sqlite3 C reference for scripts/bench: the same schema, pragmas and values as
 * Sources/Bench/main.swift. Usage: storage DB ROWS */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state = 42;
static uint64_t next(void) {
  state += 0x9E3779B97F4A7C15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void uuid(char *out) {
  uint64_t a = next(), b = next();
  sprintf(out, "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(a >> 32),
          (unsigned long long)((a >> 16) & 0xFFFF), (unsigned long long)(a & 0xFFFF),
          (unsigned long long)(b >> 48), (unsigned long long)(b & 0xFFFFFFFFFFFFull));
}

typedef struct {
  char id[37], kind[16], status[16], scheduled[32], completed[32], place[32];
  int has_completed;
  long long volume;
} row;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: storage DB ROWS\n"); return 64; }
  int rows = atoi(argv[2]);
  const char *kinds[] = {"whole-blood", "plasma", "platelets", "double-red"};
  char account[37];
  uuid(account);
  row *data = calloc(rows, sizeof(row));
  for (int i = 0; i < rows; i++) {
    int day = i % 28 + 1, done = i % 3 != 0;
    uuid(data[i].id);
    strcpy(data[i].kind, kinds[i % 4]);
    strcpy(data[i].status, done ? "completed" : "scheduled");
    sprintf(data[i].scheduled, "2026-%02x-%02dT09:30:00.000Z", i % 9 + 1, day);
    sprintf(data[i].completed, "2026-%02x-%02dT10:15:00.000Z", i % 9 + 1, day);
    data[i].has_completed = done;
    sprintf(data[i].place, "Blood centre %d", i % 50);
    data[i].volume = 450 + i % 50;
  }
  int *order = malloc(sizeof(int) * rows);
  for (int i = 0; i < rows; i++) order[i] = i;
  for (int i = rows - 1; i > 0; i--) {
    int j = (int)(next() % (uint64_t)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }

  remove(argv[1]);
  sqlite3 *db;
  check(sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), db, "open");
  sqlite3_busy_timeout(db, 5000);
  check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-32768;", 0, 0, 0), db, "pragmas");
  check(sqlite3_exec(db,
    "CREATE TABLE donation (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,"
    " scheduled_at TEXT NOT NULL, completed_at TEXT, place TEXT NOT NULL, volume_ml INTEGER NOT NULL) STRICT", 0, 0, 0), db, "create");

  sqlite3_stmt *ins;
  double t0 = now();
  check(sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0), db, "begin");
  check(sqlite3_prepare_v2(db, "INSERT INTO donation (id, account_id, kind, status, scheduled_at, completed_at, place, volume_ml)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL), db, "prepare");
  for (int i = 0; i < rows; i++) {
    row *r = &data[i];
    sqlite3_bind_text(ins, 1, r->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, 2, account, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, 3, r->kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, 4, r->status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins, 5, r->scheduled, -1, SQLITE_TRANSIENT);
    if (r->has_completed) sqlite3_bind_text(ins, 6, r->completed, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(ins, 6);
    sqlite3_bind_text(ins, 7, r->place, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(ins, 8, r->volume);
    check(sqlite3_step(ins), db, "insert");
    sqlite3_reset(ins);
    sqlite3_clear_bindings(ins);
  }
  check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
  double insert = now() - t0;
  sqlite3_finalize(ins);

  sqlite3_stmt *sel;
  check(sqlite3_prepare_v2(db, "SELECT id, account_id, kind, status, scheduled_at, completed_at, place, volume_ml"
                           " FROM donation WHERE id = ?", -1, &sel, NULL), db, "prepare");
  long long checksum = 0;
  t0 = now();
  for (int k = 0; k < rows; k++) {
    int i = order[k];
    sqlite3_bind_text(sel, 1, data[i].id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(sel) != SQLITE_ROW) { fprintf(stderr, "row %d missing\n", i); return 1; }
    /* Copy every column out, as the Swift side does when it builds its row. */
    char buffer[8][64];
    for (int c = 0; c < 7; c++) {
      const unsigned char *text = sqlite3_column_text(sel, c);
      int n = sqlite3_column_bytes(sel, c);
      if (text) memcpy(buffer[c], text, n < 63 ? n : 63), buffer[c][n < 63 ? n : 63] = 0;
    }
    checksum += (long long)strlen(buffer[0]) + (long long)strlen(buffer[6]) + sqlite3_column_int64(sel, 7);
    sqlite3_reset(sel);
    sqlite3_clear_bindings(sel);
  }
  double lookup = now() - t0;
  sqlite3_finalize(sel);
  sqlite3_close(db);
  printf("insert_seconds %f\nlookup_seconds %f\nchecksum %lld\n", insert, lookup, checksum);
  return 0;
}
