/* symbolize.c: dwarfpack's C API in one page.
 *
 * Prints the frames of addresses from a table of any format dwarfpack
 * writes (or from the binary itself, converted when opened), one line per
 * frame, innermost first:
 *
 *   0xADDRESS FUNCTION FILE:LINE:COLUMN
 *
 * with "??" for an unknown name and 0 for an unknown line or column, as
 * `dwarfpack lookup` and llvm-symbolizer print them. Build and run:
 *
 *   cc symbolize.c $(pkg-config --cflags --libs dwarfpack) -o symbolize
 *   dwarfpack gsym app -o app.dpat
 *   ./symbolize app.dpat 0x1139 0x1150
 *   ./symbolize app 0x1139 0x1150       (the same answers, converting app)
 *
 * (with LD_LIBRARY_PATH naming the library's directory, unless it is
 * installed where the dynamic linker looks).
 */
#include <dwarfpack/dwarfpack.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *orUnknown(const char *s) { return *s ? s : "??"; }

/* Reads ARG as an address: hexadecimal with 0x, else decimal. */
static int parseAddress(const char *arg, uint64_t *out) {
  char *end;
  errno = 0;
  *out = strtoull(arg, &end, 0);
  return errno == 0 && end != arg && *end == '\0';
}

/* The open's warnings (a binary without DWARF answers without lines). */
static void warn(void *context, const char *message) {
  (void)context;
  fprintf(stderr, "symbolize: warning: %s\n", message);
}

static void printResult(const dwarfpack_result *r) {
  if (r->status != DWARFPACK_OK)
    fprintf(stderr, "symbolize: 0x%" PRIx64 ": %s\n", r->address, r->error);
  if (r->frame_count == 0) {
    printf("0x%" PRIx64 " ?? ??:0:0\n", r->address);
    return;
  }
  for (size_t i = 0; i < r->frame_count; ++i) {
    const dwarfpack_frame *f = &r->frames[i];
    printf("0x%" PRIx64 " %s %s:%" PRIu32 ":%" PRIu32 "\n", r->address,
           orUnknown(f->function), orUnknown(f->file), f->line, f->column);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TABLE ADDRESS...\n", argv[0]);
    return 2;
  }
  size_t count = (size_t)argc - 2;
  uint64_t *addresses = calloc(count ? count : 1, sizeof *addresses);
  if (!addresses)
    return 1;
  for (size_t i = 0; i < count; ++i)
    if (!parseAddress(argv[i + 2], &addresses[i])) {
      fprintf(stderr, "symbolize: '%s' is not an address\n", argv[i + 2]);
      return 2;
    }

  /* A binary is converted into the table `dwarfpack gsym` would make. */
  dwarfpack_table_options options = {.size = sizeof options,
                                     .flags = DWARFPACK_OPEN_CONVERT_BINARIES,
                                     .warn = warn};
  dwarfpack_table *table;
  if (dwarfpack_table_open(argv[1], &options, &table) != DWARFPACK_OK) {
    fprintf(stderr, "symbolize: %s\n", dwarfpack_last_error());
    return 1;
  }
  /* One call for the whole batch; names demangled, as lookup prints them. */
  dwarfpack_results *results;
  if (dwarfpack_table_symbolize(table, addresses, count,
                                DWARFPACK_SYMBOLIZE_DEMANGLE,
                                &results) != DWARFPACK_OK) {
    fprintf(stderr, "symbolize: %s\n", dwarfpack_last_error());
    dwarfpack_table_close(table);
    return 1;
  }
  int status = 0;
  for (size_t i = 0; i < results->count; ++i) {
    printResult(&results->results[i]);
    if (results->results[i].status != DWARFPACK_OK)
      status = 1;
  }
  dwarfpack_results_free(results);
  dwarfpack_table_close(table);
  free(addresses);
  return status;
}
