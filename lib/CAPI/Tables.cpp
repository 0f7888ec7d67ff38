//===- Tables.cpp - Opening tables, each failure with its status ----------===//

#include "Tables.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace dwarfpack {
namespace capi {

OpenOptions openOptions(uint32_t Flags) {
  OpenOptions Opts;
  Opts.PortableReaders = Flags & DWARFPACK_OPEN_PORTABLE_READERS;
  Opts.Objects.Convert = Flags & DWARFPACK_OPEN_CONVERT_BINARIES;
  return Opts;
}

Expected<std::unique_ptr<DebuginfodClient>> debuginfodClient() {
  if (!debuginfodAvailable())
    return statusError(DWARFPACK_ERR_UNSUPPORTED,
                       "DWARFPACK_OPEN_DEBUGINFOD: this library was built "
                       "without libdebuginfod (elfutils' debuginfod client)");
  Expected<std::unique_ptr<DebuginfodClient>> C = DebuginfodClient::create();
  if (!C)
    return statusError(DWARFPACK_ERR_INVALID_ARGUMENT,
                       "DWARFPACK_OPEN_DEBUGINFOD: " + toString(C.takeError()));
  return C;
}

Expected<OpenedTable> openTableBuffer(std::unique_ptr<MemoryBuffer> Buffer,
                                      StringRef Name, const OpenOptions &Opts) {
  StringRef Bytes = Buffer->getBuffer();
  const FileFormat *F = identifyFormat(Bytes);
  const bool Elf = startsAsElf(Bytes);
  if (!F && Elf && Opts.Objects.Convert) {
    Expected<OpenedTable> T = openObjectTable(std::move(Buffer), Opts);
    if (!T)
      return statusError(DWARFPACK_ERR_CORRUPT, toString(T.takeError()));
    return T;
  }
  if (!F)
    return statusError(
        DWARFPACK_ERR_UNKNOWN_FORMAT,
        "'" + Name + "': unknown file format (not a table dwarfpack writes" +
            (Elf ? "; it is an ELF file: make its table first with "
                   "'dwarfpack gsym' or 'dwarfpack pack', or open it with "
                   "DWARFPACK_OPEN_CONVERT_BINARIES)"
                 : ")"));
  if (!F->hasAddresses())
    return statusError(DWARFPACK_ERR_UNKNOWN_FORMAT,
                       "'" + Name + "': " + F->Name +
                           " files have no addresses to look up");
  Expected<std::unique_ptr<AddressSymbolizer>> S =
      F->Open(std::move(Buffer), Opts);
  if (!S)
    return statusError(DWARFPACK_ERR_CORRUPT,
                       "'" + Name + "' (" + F->Name +
                           "): " + toString(S.takeError()));
  return OpenedTable{std::move(*S), F, nullptr, nullptr};
}

/// NOT_FOUND when Path does not exist, IO for any other failure to read
/// it.
static Error fileError(StringRef Path, std::error_code EC) {
  return statusError(EC == std::errc::no_such_file_or_directory
                         ? DWARFPACK_ERR_NOT_FOUND
                         : DWARFPACK_ERR_IO,
                     "'" + Path + "': " + EC.message());
}

/// The file at Path, mapped read-only without a terminating NUL.
static Expected<std::unique_ptr<MemoryBuffer>> mapFile(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return fileError(Path, std::make_error_code(std::errc::is_a_directory));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return fileError(Path, Buffer.getError());
  return std::move(*Buffer);
}

Expected<OpenedTable> openTablePath(StringRef Path, const OpenOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = mapFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  return openTableBuffer(std::move(*Buffer), Path, Opts);
}

Expected<std::unique_ptr<MemoryBuffer>> readTextFile(StringRef Path) {
  if (sys::fs::is_directory(Path))
    return fileError(Path, std::make_error_code(std::errc::is_a_directory));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileAsStream(Path);
  if (!Buffer)
    return fileError(Path, Buffer.getError());
  return std::move(*Buffer);
}

} // namespace capi
} // namespace dwarfpack
