//===- Api.cpp - The C API: errors, versions, results ---------------------===//

#include "Results.h"
#include "Status.h"

#include <cstring>
#include <type_traits>

using namespace dwarfpack::capi;

extern "C" {

const char *dwarfpack_status_string(dwarfpack_status Status) {
  // A C caller may pass any int. Reading a C++ enum outside its
  // enumerators' range is undefined, so its bytes are read as an integer.
  std::underlying_type_t<dwarfpack_status> Value;
  static_assert(sizeof(Value) == sizeof(Status), "an int-sized enum");
  std::memcpy(&Value, &Status, sizeof(Value));
  switch (Value) {
  case DWARFPACK_OK:
    return "success";
  case DWARFPACK_ERR_INVALID_ARGUMENT:
    return "invalid argument";
  case DWARFPACK_ERR_NOT_FOUND:
    return "not found";
  case DWARFPACK_ERR_IO:
    return "input/output error";
  case DWARFPACK_ERR_UNKNOWN_FORMAT:
    return "unknown format";
  case DWARFPACK_ERR_CORRUPT:
    return "corrupt table";
  case DWARFPACK_ERR_UNSUPPORTED:
    return "not supported by the table";
  case DWARFPACK_ERR_MISMATCH:
    return "inputs do not belong together";
  case DWARFPACK_ERR_NO_MEMORY:
    return "out of memory";
  }
  return "unknown status";
}

const char *dwarfpack_last_error(void) { return lastError(); }

const char *dwarfpack_version(void) { return DWARFPACK_VERSION; }

void dwarfpack_results_free(dwarfpack_results *Results) {
  ResultsBuilder::release(Results);
}

} // extern "C"
