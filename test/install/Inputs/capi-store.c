/* capi-store.c: a store that files the tables it lacks from fetched
 * debug files (DWARFPACK_OPEN_DEBUGINFOD), printing the function at each
 * file offset of BUILDID, or the error:
 *
 *   capi-store store DIR BUILDID OFFSET...
 *
 * DEBUG_DIRS, when set, is a .build-id tree looked in before the servers.
 */
#include <dwarfpack/dwarfpack.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexValue(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

static void print(const dwarfpack_results *results) {
  for (size_t i = 0; i < results->count; ++i) {
    const dwarfpack_result *r = &results->results[i];
    if (r->frame_count)
      printf("%s\n", r->frames[r->frame_count - 1].function);
    else
      printf("?? (%s)\n", r->error ? r->error : "");
  }
}

static int store(int argc, char **argv) {
  const char *dirs[] = {getenv("DEBUG_DIRS"), NULL};
  dwarfpack_store_options options = {.size = sizeof options,
                                     .flags = DWARFPACK_OPEN_DEBUGINFOD,
                                     .debug_file_directories =
                                         dirs[0] ? dirs : NULL};
  dwarfpack_store *s;
  if (dwarfpack_store_open(argv[2], &options, &s) != DWARFPACK_OK) {
    fprintf(stderr, "capi-store: %s\n", dwarfpack_last_error());
    return 1;
  }
  uint8_t id[64];
  size_t n = strlen(argv[3]) / 2;
  for (size_t i = 0; i < n && i < sizeof id; ++i)
    id[i] =
        (uint8_t)(hexValue(argv[3][2 * i]) * 16 + hexValue(argv[3][2 * i + 1]));
  int count = argc - 4;
  dwarfpack_sample *samples = calloc(count ? count : 1, sizeof *samples);
  for (int i = 0; i < count; ++i) {
    samples[i].build_id = id;
    samples[i].build_id_size = n;
    samples[i].value = strtoull(argv[i + 4], NULL, 0);
  }
  dwarfpack_results *results;
  if (dwarfpack_store_symbolize(s, samples, count,
                                DWARFPACK_SYMBOLIZE_FILE_OFFSETS,
                                &results) != DWARFPACK_OK) {
    fprintf(stderr, "capi-store: %s\n", dwarfpack_last_error());
    return 1;
  }
  print(results);
  dwarfpack_results_free(results);
  dwarfpack_store_close(s);
  free(samples);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "store") == 0)
    return store(argc, argv);
  fprintf(stderr, "usage: capi-store store DIR BUILDID OFFSET...\n");
  return 2;
}
