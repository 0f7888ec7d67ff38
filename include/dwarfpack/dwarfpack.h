/*===- dwarfpack.h - dwarfpack's C API --------------------------*- C -*-===*\
|*                                                                          *|
|* Symbolization from the tables dwarfpack writes, for programs in C (and   *|
|* any language with a C foreign-function interface): profilers, crash     *|
|* servers, tracers. Link with libdwarfpack:                                *|
|*                                                                          *|
|*   cc prog.c $(pkg-config --cflags --libs dwarfpack)                      *|
|*   find_package(dwarfpack CONFIG) ... dwarfpack::libdwarfpack (CMake)     *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

/*
 * Three kinds of source answer addresses:
 *
 *   dwarfpack_table   one table file of any format dwarfpack writes (compact
 *                     address table, GSYM, kernel symbol table, ksym-blob,
 *                     or a binary that carries its table in
 *                     .dwarfpack.table: `dwarfpack pack --embed`),
 *                     recognised by its content, never by its name;
 *   dwarfpack_store   a directory of tables filed by build-id
 *                     (<dir>/<2 hex digits>/<rest>.dpat or .gsym, as
 *                     `dwarfpack gsym --store` and `pack --store` write it),
 *                     for (build-id, file offset) samples;
 *   dwarfpack_kernel  a running kernel: the table of its build, its
 *                     /proc/kallsyms (the KASLR offset is found and checked)
 *                     and optionally the tables of its modules.
 *
 * Each symbolizes a batch of addresses into frames (function, source file,
 * line, column, inlined or not, module), innermost first, in one
 * dwarfpack_results object.
 *
 * Error model
 *   Every function that can fail returns a dwarfpack_status; DWARFPACK_OK
 *   is 0. On failure, output pointers are set to NULL and
 *   dwarfpack_last_error() returns a message naming the input and the
 *   problem. That message belongs to the calling thread and stays valid
 *   until that thread's next call of a function of this API (a successful
 *   call clears it to ""). A failure that concerns one address of a batch
 *   only (a corrupt record met on the way, a build-id without a table) does
 *   not fail the batch: that result carries its own status and message.
 *   Corrupt or hostile tables give an error, never a crash or an abort of
 *   the host process.
 *
 * Ownership
 *   Handles returned by the *_open functions belong to the caller, who
 *   releases each once with the matching *_close (NULL is accepted).
 *   A dwarfpack_results belongs to the caller, who releases it once with
 *   dwarfpack_results_free; every string and array it points to lives
 *   until then. Strings and buffers passed in are read during the call
 *   only (dwarfpack_table_open_memory copies the bytes). Table files are
 *   mapped read-only: a file must not be truncated while its table is open.
 *
 * Thread safety
 *   Every function may be called from any thread. The symbolize functions
 *   and the accessors of one handle may run on many threads at once
 *   (readers are immutable once opened; a store serialises the opening of
 *   its tables internally). A *_close must not run concurrently with any
 *   other use of the same handle. Distinct handles are independent.
 *
 * Compatibility
 *   Options structures start with a `size` member that the caller sets to
 *   sizeof the structure it was compiled with; zero-initialise the rest,
 *   e.g. `dwarfpack_table_options o = {.size = sizeof(o), .flags = F};`
 *   (designated: a positional initializer draws -Wmissing-field-initializers
 *   once a member is appended). Later versions only
 *   append members: this library reads what the caller's size covers and
 *   refuses (DWARFPACK_ERR_INVALID_ARGUMENT) a larger structure whose
 *   unknown members are not zero. Unknown flag bits are refused too.
 *   Result structures (dwarfpack_frame, dwarfpack_result) change only with
 *   the library's major version (its soname).
 */

#ifndef DWARFPACK_DWARFPACK_H
#define DWARFPACK_DWARFPACK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define DWARFPACK_API __attribute__((visibility("default")))
#else
#define DWARFPACK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; dwarfpack_version() gives the library's. */
#define DWARFPACK_API_VERSION 1

/*===-- Errors ------------------------------------------------------------===*/

typedef enum dwarfpack_status {
  DWARFPACK_OK = 0,
  /* A NULL handle or pointer, an empty path, an options structure whose
   * size or unknown members are wrong, an unknown flag. */
  DWARFPACK_ERR_INVALID_ARGUMENT = 1,
  /* A file or directory does not exist; a build-id has no table. */
  DWARFPACK_ERR_NOT_FOUND = 2,
  /* A file exists but cannot be read. */
  DWARFPACK_ERR_IO = 3,
  /* The bytes are of no format dwarfpack writes, or of one without
   * addresses (a CTF type archive). */
  DWARFPACK_ERR_UNKNOWN_FORMAT = 4,
  /* The table is damaged: its reader refuses it, or a record met during a
   * lookup is out of bounds. */
  DWARFPACK_ERR_CORRUPT = 5,
  /* The table cannot answer this kind of question: file offsets from a
   * table without load segments (GSYM, kernel symbol tables). */
  DWARFPACK_ERR_UNSUPPORTED = 6,
  /* Two inputs do not belong together: a table whose recorded build-id is
   * not the one it is filed under; a kernel table of another build than
   * the running kernel (KASLR offset not confirmed, build-ids differ). */
  DWARFPACK_ERR_MISMATCH = 7,
  /* Memory ran out. */
  DWARFPACK_ERR_NO_MEMORY = 8,
} dwarfpack_status;

/* A short constant description of `status` ("corrupt table", ...); never
 * NULL. */
DWARFPACK_API const char *dwarfpack_status_string(dwarfpack_status status);

/* The message of the calling thread's last failed call (see "Error model"
 * above); "" after a successful call. Never NULL. */
DWARFPACK_API const char *dwarfpack_last_error(void);

/* The library's version, "MAJOR.MINOR.PATCH". */
DWARFPACK_API const char *dwarfpack_version(void);

/*===-- Results -----------------------------------------------------------===*/

/* Flags of the symbolize functions. */
enum {
  /* The numbers are offsets in the module's file, as profilers record
   * samples (BPF build-id stack traces, perf), turned into addresses
   * through the load segments the table records (compact tables do; GSYM
   * files and kernel symbol tables do not). Each result's address
   * is the offset as given. Not for a running kernel. */
  DWARFPACK_SYMBOLIZE_FILE_OFFSETS = 1u << 0,
  /* Function names are demangled: C++ and Rust v0 names as `dwarfpack
   * lookup` and llvm-symbolizer print them by default, Rust's legacy names
   * (`_ZN...17h<hash>E`) as Rust paths without the hash
   * (`std::rt::lang_start::{{closure}}`), as binutils and rustc-demangle
   * print them (llvm-symbolizer reads them as C++ names). */
  DWARFPACK_SYMBOLIZE_DEMANGLE = 1u << 1,
};

/* One frame of the call stack at an address. Strings are never NULL:
 * "" when unknown. */
typedef struct dwarfpack_frame {
  /* The function's name as the table records it (a linkage name may be
   * mangled unless DWARFPACK_SYMBOLIZE_DEMANGLE). */
  const char *function;
  /* The source file's full path; for code without a line (line 0), the
   * file its local symbol names, as llvm-symbolizer prints it. */
  const char *file;
  /* 1-based; 0 when unknown. */
  uint32_t line;
  /* 1-based; 0 when unknown (DWARF's "no column"). */
  uint32_t column;
  /* Start of the function (outermost frame) or of the inlined range that
   * holds the address (inlined frames), in the table's addresses. */
  uint64_t start_address;
  /* The module: for a running kernel, the kernel module whose code this is
   * ("" for the core kernel); for a store, the build-id in lower-case hex;
   * for a table, "". */
  const char *module;
  /* Non-zero when this frame's code is inlined into the next frame
   * (frames[i + 1]); 0 for the outermost frame. */
  int inlined;
} dwarfpack_frame;

/* The answer for one address of a batch, in the batch's order. */
typedef struct dwarfpack_result {
  /* The number as given (an address, or a file offset). */
  uint64_t address;
  /* DWARFPACK_OK, or why this address has no frames. */
  dwarfpack_status status;
  /* NULL when status is DWARFPACK_OK; else a message naming the problem. */
  const char *error;
  /* 0 with DWARFPACK_OK: no function holds the address. */
  size_t frame_count;
  /* frame_count frames, innermost first; NULL when there are none. */
  const dwarfpack_frame *frames;
} dwarfpack_result;

typedef struct dwarfpack_results {
  size_t count;
  const dwarfpack_result *results;
} dwarfpack_results;

/* Releases `results` and everything it points to. NULL is accepted. */
DWARFPACK_API void dwarfpack_results_free(dwarfpack_results *results);

/*===-- Tables ------------------------------------------------------------===*/

typedef struct dwarfpack_table dwarfpack_table;

/* Called during an open, on the calling thread, for each problem that does
 * not stop it (dwarfpack_kernel_open: a module table that is not used, a
 * notes file without a build-id; dwarfpack_table_open: what answers from a
 * converted binary lack, what its conversion could not read). `message`
 * is valid during the call. */
typedef void (*dwarfpack_warning_fn)(void *context, const char *message);

/* Flags of the open functions. */
enum {
  /* Kernel symbol tables keep to their portable code paths even where the
   * CPU has the vector instructions of the fast ones (same answers). */
  DWARFPACK_OPEN_PORTABLE_READERS = 1u << 0,
  /* dwarfpack_table_open and _open_memory only: an ELF binary given
   * instead of a table is converted in memory, on all cores, into the
   * compact table `dwarfpack gsym` would write of it (a stripped binary
   * with its separate debug file, found by build-id or .gnu_debuglink
   * under /usr/lib/debug), and answers as that table would. Opening then
   * costs what that conversion costs. A binary that cannot be converted
   * (unreadable DWARF; no function, as a stripped binary whose debug file
   * is not found) is _CORRUPT. Without the flag a binary is
   * _UNKNOWN_FORMAT. */
  DWARFPACK_OPEN_CONVERT_BINARIES = 1u << 1,
  /* Debug files fetched by build-id from the debuginfod servers that
   * DEBUGINFOD_URLS names (through elfutils' client and its cache, as
   * `dwarfpack lookup` fetches them): dwarfpack_store_open's store files a
   * table made from the debug file of each build-id it lacks;
   * dwarfpack_table_open with _CONVERT_BINARIES reads a stripped binary
   * whose debug file is not found locally with the fetched one. A file
   * that is not of the build-id asked for is refused. _UNSUPPORTED at the
   * open when this library was built without libdebuginfod;
   * _INVALID_ARGUMENT when DEBUGINFOD_URLS names no server. */
  DWARFPACK_OPEN_DEBUGINFOD = 1u << 2,
};

typedef struct dwarfpack_table_options {
  size_t size;    /* sizeof(dwarfpack_table_options) */
  uint32_t flags; /* DWARFPACK_OPEN_* */
  /* With DWARFPACK_OPEN_CONVERT_BINARIES: a directory where tables
   * converted from DWARF are kept by build-id and found again when a
   * binary of that build-id is opened later, by this process or another,
   * which then converts nothing (`dwarfpack lookup`'s cache, laid out the
   * same: VERSION/xx/rest.dpat, and cleaned the same: tables unused for
   * max_unused_age_s go, as its control files in the directory say).
   * NULL (or ""): no cache. A cache that cannot be written does not fail
   * the open. */
  const char *cache_dir;
  /* With DWARFPACK_OPEN_CONVERT_BINARIES: told what answers from the
   * binary lack (no DWARF and no debug file found: functions named by
   * their symbols, without files and lines) and, once per kind, the
   * problems its conversion met (DWARF it could not read, a cache it
   * could not write), as `dwarfpack lookup` warns of them. NULL: dropped. */
  dwarfpack_warning_fn warn;
  void *warn_context;
} dwarfpack_table_options;

/* Maps the file at `path` and opens it for lookups, whatever format of
 * ours it is. `options` may be NULL (defaults). On success *out is the
 * table. Errors: DWARFPACK_ERR_NOT_FOUND, _IO, _UNKNOWN_FORMAT, _CORRUPT,
 * _INVALID_ARGUMENT. */
DWARFPACK_API dwarfpack_status
dwarfpack_table_open(const char *path, const dwarfpack_table_options *options,
                     dwarfpack_table **out);

/* The same from `size` bytes at `data`, which are copied; `name` (may be
 * NULL) names the table in messages. */
DWARFPACK_API dwarfpack_status dwarfpack_table_open_memory(
    const void *data, size_t size, const char *name,
    const dwarfpack_table_options *options, dwarfpack_table **out);

DWARFPACK_API void dwarfpack_table_close(dwarfpack_table *table);

/* The table's format ("compact address table", "GSYM", ...), a constant
 * string; NULL for a NULL table. */
DWARFPACK_API const char *dwarfpack_table_format(const dwarfpack_table *table);

/* The build-id the table records: sets *id to its bytes (valid while the
 * table is open) and returns their number; 0 when it records none. */
DWARFPACK_API size_t dwarfpack_table_build_id(const dwarfpack_table *table,
                                              const uint8_t **id);

/* Symbolizes `count` numbers at `addresses` (addresses in the table's
 * module, or file offsets with DWARFPACK_SYMBOLIZE_FILE_OFFSETS) into
 * *out, one result per number, in order. Errors of the call:
 * _INVALID_ARGUMENT, _UNSUPPORTED (file offsets from a table without load
 * segments), _NO_MEMORY. */
DWARFPACK_API dwarfpack_status dwarfpack_table_symbolize(
    const dwarfpack_table *table, const uint64_t *addresses, size_t count,
    uint32_t flags, dwarfpack_results **out);

/*===-- Stores of tables by build-id --------------------------------------===*/

typedef struct dwarfpack_store dwarfpack_store;

typedef struct dwarfpack_store_options {
  size_t size;    /* sizeof(dwarfpack_store_options) */
  uint32_t flags; /* DWARFPACK_OPEN_*, for the tables of the store */
  /* Directories of .build-id trees (DIR/.build-id/xx/rest.debug or
   * DIR/xx/rest.debug), a NULL-terminated array, or NULL: a build-id
   * without a table in the store gets one made from its debug file found
   * there (before DWARFPACK_OPEN_DEBUGINFOD's servers), filed in the store
   * as `dwarfpack lookup --store` files it, once per build-id. */
  const char *const *debug_file_directories;
} dwarfpack_store_options;

/* Opens the store at directory `dir`. Tables are mapped on first use and
 * kept; a build-id without a table is looked for again by each later batch
 * (a table added while the store is open is found). Errors: _NOT_FOUND
 * (`dir` is not a directory), _INVALID_ARGUMENT. */
DWARFPACK_API dwarfpack_status
dwarfpack_store_open(const char *dir, const dwarfpack_store_options *options,
                     dwarfpack_store **out);

DWARFPACK_API void dwarfpack_store_close(dwarfpack_store *store);

/* A sample: the module's build-id and a number in it. */
typedef struct dwarfpack_sample {
  const uint8_t *build_id;
  size_t build_id_size;
  /* A file offset with DWARFPACK_SYMBOLIZE_FILE_OFFSETS (as profilers
   * record samples), else an address in the module's table. */
  uint64_t value;
} dwarfpack_sample;

/* Symbolizes `count` samples into *out, one result per sample, in order.
 * Per result: _NOT_FOUND (no table for the build-id), _MISMATCH (the
 * table records another build-id), _CORRUPT, _UNKNOWN_FORMAT, _UNSUPPORTED
 * (file offsets, the table has no load segments), _INVALID_ARGUMENT (a
 * build-id of fewer than 2 bytes). Errors of the call: _INVALID_ARGUMENT,
 * _NO_MEMORY. */
DWARFPACK_API dwarfpack_status dwarfpack_store_symbolize(
    dwarfpack_store *store, const dwarfpack_sample *samples, size_t count,
    uint32_t flags, dwarfpack_results **out);

/*===-- A running kernel --------------------------------------------------===*/

typedef struct dwarfpack_kernel dwarfpack_kernel;

typedef struct dwarfpack_kernel_options {
  size_t size;    /* sizeof(dwarfpack_kernel_options) */
  uint32_t flags; /* DWARFPACK_OPEN_* */
  /* Required: the table of the kernel's build (`dwarfpack gsym vmlinux`, or
   * `dwarfpack kallsyms System.map`). */
  const char *table;
  /* The running kernel's /proc/kallsyms, or a copy of it; NULL:
   * "/proc/kallsyms" (addresses are shown to root only). */
  const char *kallsyms;
  /* A directory of module tables (<module>.dpat or .gsym, or a store by
   * build-id); NULL: modules get their kallsyms names only. */
  const char *module_tables;
  /* /sys, or a copy of its kernel/notes and module/<name>/notes files;
   * NULL: build-ids are not checked. */
  const char *build_ids;
  /* NULL: warnings are dropped. */
  dwarfpack_warning_fn warn;
  void *warn_context;
} dwarfpack_kernel_options;

/* Opens a running kernel. Errors: _NOT_FOUND (a file or directory of the
 * options), _IO, _UNKNOWN_FORMAT, _CORRUPT (the table, the kallsyms text,
 * a notes file or a module table is damaged), _MISMATCH (the KASLR offset
 * is not found or not confirmed: the table is of another build, or the
 * build-ids differ), _INVALID_ARGUMENT (no table). */
DWARFPACK_API dwarfpack_status dwarfpack_kernel_open(
    const dwarfpack_kernel_options *options, dwarfpack_kernel **out);

DWARFPACK_API void dwarfpack_kernel_close(dwarfpack_kernel *kernel);

/* The KASLR offset found: running address minus table address, modulo
 * 2^64. 0 for a NULL kernel. */
DWARFPACK_API uint64_t dwarfpack_kernel_offset(const dwarfpack_kernel *kernel);

/* Symbolizes `count` running-kernel addresses into *out, one result per
 * address, in order; frames' start addresses are the table's. Errors of
 * the call: _INVALID_ARGUMENT (also for DWARFPACK_SYMBOLIZE_FILE_OFFSETS),
 * _NO_MEMORY. */
DWARFPACK_API dwarfpack_status dwarfpack_kernel_symbolize(
    const dwarfpack_kernel *kernel, const uint64_t *addresses, size_t count,
    uint32_t flags, dwarfpack_results **out);

#ifdef __cplusplus
}
#endif

#endif /* DWARFPACK_DWARFPACK_H */
