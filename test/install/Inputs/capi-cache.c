/* capi-cache.c: opens BINARY through the C API as a converted binary with
 * a cache directory (CACHE, or none when it is "-"), and prints the
 * function of each ADDRESS, or the error; the open's warnings go to
 * stderr. With --debuginfod, a debug file not found locally is fetched
 * (DWARFPACK_OPEN_DEBUGINFOD).
 *
 *   capi-cache [--debuginfod] BINARY CACHE ADDRESS...
 */
#include <dwarfpack/dwarfpack.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(void *context, const char *message) {
  fprintf(stderr, "%s: warning: %s\n", (const char *)context, message);
}

int main(int argc, char **argv) {
  uint32_t fetch = 0;
  if (argc > 1 && strcmp(argv[1], "--debuginfod") == 0) {
    fetch = DWARFPACK_OPEN_DEBUGINFOD;
    ++argv;
    --argc;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: capi-cache [--debuginfod] BINARY CACHE "
                    "ADDRESS...\n");
    return 2;
  }
  dwarfpack_table_options options = {.size = sizeof options,
                                     .flags = DWARFPACK_OPEN_CONVERT_BINARIES |
                                              fetch,
                                     .warn = warn,
                                     .warn_context = "capi-cache"};
  if (strcmp(argv[2], "-") != 0)
    options.cache_dir = argv[2];
  dwarfpack_table *table;
  if (dwarfpack_table_open(argv[1], &options, &table) != DWARFPACK_OK) {
    fprintf(stderr, "capi-cache: %s\n", dwarfpack_last_error());
    return 1;
  }
  int count = argc - 3;
  uint64_t *addresses = calloc(count ? count : 1, sizeof *addresses);
  for (int i = 0; i < count; ++i)
    addresses[i] = strtoull(argv[i + 3], NULL, 0);
  dwarfpack_results *results;
  if (dwarfpack_table_symbolize(table, addresses, count, 0, &results) !=
      DWARFPACK_OK) {
    fprintf(stderr, "capi-cache: %s\n", dwarfpack_last_error());
    return 1;
  }
  for (size_t i = 0; i < results->count; ++i) {
    const dwarfpack_result *r = &results->results[i];
    if (r->frame_count)
      printf("%s\n", r->frames[r->frame_count - 1].function);
    else
      printf("??\n");
  }
  dwarfpack_results_free(results);
  dwarfpack_table_close(table);
  free(addresses);
  return 0;
}
