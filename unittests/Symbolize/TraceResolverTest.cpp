//===- TraceResolverTest.cpp - Which table answers a trace's frame --------===//

#include "dwarfpack/Symbolize/TraceResolver.h"

#include "FunctionListTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace dwarfpack;

namespace {

using FakeTable = test::FunctionListTable;

/// "label:line" of the outermost frame, "" for none, "error: ..." for an
/// error.
std::string answer(TraceResolver &R, llvm::StringRef Line) {
  std::vector<TraceFrame> Frames = scanTraceLine(Line);
  EXPECT_EQ(Frames.size(), 1u) << Line.str();
  if (Frames.empty())
    return "no frame";
  llvm::Expected<LookupResult> L = R.resolve(Frames.front());
  if (!L)
    return "error: " + llvm::toString(L.takeError());
  if (L->Frames.empty())
    return "";
  const SourceFrame &F = L->Frames.back();
  return F.FileName + ":" + std::to_string(F.Line);
}

struct Tables {
  FakeTable Kernel, Module, Lib, NoSegments, Program;
  std::map<std::string, const FakeTable *> Files;
  TableStore Store{"/nonexistent", nullptr};
  DsoTables Dsos{[this](llvm::StringRef Path)
                     -> llvm::Expected<std::unique_ptr<AddressSymbolizer>> {
                   auto It = Files.find(Path.str());
                   if (It == Files.end())
                     return llvm::createStringError(
                         llvm::inconvertibleErrorCode(), "no file");
                   return std::make_unique<FakeTable>(*It->second);
                 },
                 nullptr, &Program};

  Tables() {
    Kernel.Label = "kernel";
    Kernel.Functions = {{0x1000, 0x100, "do_one"},
                        {0x1100, 0x20, "helper"},
                        {0x2000, 0x40, "dup"},
                        {0x3000, 0x40, "dup"},
                        {0x4000, 0x80, "split"}};
    Module.Label = "module";
    Module.Functions = {{0x0, 0x40, "mod_fn"}};
    Lib.Label = "lib";
    Lib.Functions = {{0x1100, 0x80, "work"},
                     {0x1200, 0x40, "init"},
                     {0x2280, 0x40, "init"},
                     {0x2300, 0x40, "_ZN3app3runEi"},
                     {0x3340, 0x40, "_ZN3app3runEd"}};
    Lib.Load = 0; // file offsets are the library's addresses
    Program.Label = "program";
    Program.Id = {0xab, 0xcd};
    Program.Functions = {{0x400000, 0x100, "main"}};
    NoSegments = Lib;
    NoSegments.Label = "gsym";
    NoSegments.Load.reset();
    Files["lib.tbl"] = &Lib;
    Files["lib.gsym"] = &NoSegments;
    Dsos.setTable("/usr/lib/libx.so", "lib.tbl");
    Dsos.setTable("/usr/lib/libg.so", "lib.gsym");
  }

  TraceTables tables() {
    TraceTables T;
    T.Main = &Kernel;
    T.Module = [this](llvm::StringRef Name, llvm::ArrayRef<uint8_t>)
        -> llvm::Expected<const AddressSymbolizer *> {
      if (Name == "broken")
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "broken table");
      return Name == "mymod" ? &Module : nullptr;
    };
    T.Dsos = &Dsos;
    return T;
  }
};

TEST(TraceResolver, KernelFramesByNameAndAddress) {
  Tables T;
  TraceResolver R(T.tables());
  EXPECT_EQ(answer(R, "RIP: 0010:do_one+0x10/0x100"), "kernel:16");
  // Past the function's end: the table is of another build; no answer.
  EXPECT_EQ(answer(R, "RIP: 0010:helper+0x30/0x40"), "");
  EXPECT_EQ(answer(R, "RIP: 0010:nosuch+0x3/0x40"), "");
  // GCC's clone suffixes, which a table made from DWARF does not have:
  // when the function of the name ends where the trace's symbol does.
  EXPECT_EQ(answer(R, "RIP: 0010:split.isra.0+0x4/0x80"), "kernel:4");
  EXPECT_EQ(answer(R, "RIP: 0010:split.isra.0+0x4/0x90"), "kernel:4");
  // The original of a part: longer than the trace's symbol; no answer.
  EXPECT_EQ(answer(R, "RIP: 0010:split.part.0+0x4/0x40"), "");
  EXPECT_EQ(answer(R, "\t4004 split.part.0+0x4 ([kernel.kallsyms])"), "");
  // Two static functions of one name: no guess.
  EXPECT_EQ(answer(R, "RIP: 0010:dup+0x4/0x40"),
            "error: 'dup' names 2 functions of the table that the offset "
            "falls in; its frames are left as they are");
  EXPECT_EQ(answer(R, "[<0000000000001104>]"), "kernel:4");
  EXPECT_EQ(answer(R, "\t1010 do_one+0x10 ([kernel.kallsyms])"), "kernel:16");
  // A name KASLR did not move answers a kernel frame of perf.
  EXPECT_EQ(answer(R, "\tffffffff9f001010 do_one+0x10 ([kernel.kallsyms])"),
            "kernel:16");
}

TEST(TraceResolver, ModuleFrames) {
  Tables T;
  TraceResolver R(T.tables());
  EXPECT_EQ(answer(R, " mod_fn+0x8/0x40 [mymod]"), "module:8");
  EXPECT_EQ(answer(R, " mod_fn+0x8/0x40 [mymod 0123]"), "module:8");
  // Not in the kernel's table, whatever its names.
  EXPECT_EQ(answer(R, " do_one+0x8/0x40 [othermod]"), "");
  EXPECT_EQ(answer(R, " mod_fn+0x8/0x40 [broken]"), "error: broken table");
  EXPECT_EQ(answer(R, "\tffffffffc0001008 mod_fn+0x8 ([mymod])"), "module:8");
  EXPECT_EQ(answer(R, "\t1008 mod_fn+0x8 (/lib/modules/6.1/my-mod.ko)"), "");
  EXPECT_EQ(answer(R, "\t1008 mod_fn+0x8 (/lib/modules/6.1/mymod.ko.xz)"),
            "module:8");
}

TEST(TraceResolver, UserFrames) {
  Tables T;
  TraceTables Config = T.tables();
  llvm::Expected<ProcMaps> Maps = ProcMaps::parse(
      "7f0000000000-7f0000010000 r-xp 00001000 08:01 1 /usr/lib/libx.so\n"
      "7f0000020000-7f0000030000 r-xp 00000000 08:01 2 /usr/lib/liby.so\n"
      "7f0000030000-7f0000040000 r-xp 00001000 08:01 3 /usr/lib/libg.so\n",
      "maps");
  ASSERT_TRUE(bool(Maps));
  TraceResolver Plain(Config);
  // perf's callchain address is the library's own; its symbol agrees.
  EXPECT_EQ(answer(Plain, "\t1110 work+0x10 (/usr/lib/libx.so)"), "lib:16");
  // An absolute address with a symbol: by name.
  EXPECT_EQ(answer(Plain, "\t7f0000000110 work+0x10 (/usr/lib/libx.so)"),
            "lib:16");
  EXPECT_EQ(answer(Plain, "\t7f0000000110 other+0x10 (/usr/lib/libx.so)"),
            "error: '/usr/lib/libx.so': frames whose address and symbol the "
            "table does not confirm are left as they are (absolute addresses "
            "need the process's maps: --pid-maps, or perf script "
            "--show-mmap-events; or is the table of another build?)");
  EXPECT_EQ(answer(Plain, "\t7f0000000110 [unknown] (/usr/lib/libx.so)"), "");
  // Two functions of one name: the one at the sample's offset in its page.
  EXPECT_EQ(answer(Plain, "\t7f0000000210 init+0x10 (/usr/lib/libx.so)"),
            "lib:16");
  EXPECT_EQ(answer(Plain, "\t7f0000000290 init+0x10 (/usr/lib/libx.so)"),
            "lib:16");
  EXPECT_EQ(answer(Plain, "\t7f0000000250 init+0x10 (/usr/lib/libx.so)")
                .substr(0, 27),
            "error: '/usr/lib/libx.so': ");
  // perf's C++ names, demangled: overloads share a name without their
  // parameters.
  EXPECT_EQ(answer(Plain, "\t7f0000000304 app::run+0x4 (/usr/lib/libx.so)"),
            "lib:4");
  EXPECT_EQ(answer(Plain, "\t7f0000000344 app::run+0x4 (/usr/lib/libx.so)"),
            "lib:4");
  EXPECT_EQ(
      answer(Plain, "\t7f0000000344 app::run(double)+0x4 (/usr/lib/libx.so)"),
      "lib:4");
  EXPECT_EQ(answer(Plain, "\t7f0000000304 app::run(double)+0x4 "
                          "(/usr/lib/libx.so)")
                .substr(0, 27),
            "error: '/usr/lib/libx.so': ");
  // perf's names of what is no file: no table, and no warning.
  EXPECT_EQ(answer(Plain, "\t0 [unknown] ([unknown])"), "");
  EXPECT_EQ(answer(Plain, "\t7ffd1000 [unknown] ([vdso])"), "");
  // With the maps, the absolute address is a file offset.
  Config.Maps = &*Maps;
  TraceResolver Mapped(Config);
  EXPECT_EQ(answer(Mapped, "\t7f0000000110 [unknown] (/usr/lib/libx.so)"),
            "lib:16");
  EXPECT_EQ(answer(Mapped, "0x7f0000000110"), "lib:16");
  // An address that the maps give another file than perf's DSO is not
  // that file's: a callchain's address, the DSO's own, may fall there.
  EXPECT_EQ(answer(Mapped, "\t7f0000000110 work+0x10 (/usr/lib/libg.so)"),
            "gsym:16");
  EXPECT_EQ(answer(Mapped, "0x7f0000020110"),
            "error: no table for '/usr/lib/liby.so': the file is not on this "
            "machine and no build-id list names it");
  // A table without load segments answers file offsets with an error, and
  // perf's symbol by name.
  EXPECT_EQ(answer(Mapped, "\t7f0000030110 [unknown] (/usr/lib/libg.so)"),
            "error: the format records no load segments to convert file "
            "offsets with");
  EXPECT_EQ(answer(Mapped, "\t7f0000030110 work+0x10 (/usr/lib/libg.so)"),
            "gsym:16");
  // Outside the maps, the kernel's table.
  EXPECT_EQ(answer(Mapped, "0x1104"), "kernel:4");
}

TEST(TraceResolver, DsosByBuildId) {
  Tables T;
  llvm::Error E = T.Dsos.addBuildIdList(
      "abcd /opt/prog\n0123 /opt/other with blanks\n\n", "ids");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  TraceResolver R(T.tables());
  // The main table is the program of that build-id.
  EXPECT_EQ(answer(R, "\t400010 main+0x10 (/opt/prog)"), "program:16");
  EXPECT_EQ(answer(R, "/opt/prog 0x400010"), "program:16");
  EXPECT_EQ(answer(R, "\t400010 main+0x10 (/opt/other with blanks)"),
            "error: no table for '/opt/other with blanks' (build-id 0123): no "
            "store to look it up in");
  llvm::Error Bad = T.Dsos.addBuildIdList("abcd /a\nxyz /b\n", "ids");
  EXPECT_EQ(llvm::toString(std::move(Bad)),
            "'ids' line 2: expected '<build-id> <path>' (as perf "
            "buildid-list prints them)");
  Bad = T.Dsos.addBuildIdList("abcd\n", "ids");
  EXPECT_EQ(llvm::toString(std::move(Bad)),
            "'ids' line 1: expected '<build-id> <path>' (as perf "
            "buildid-list prints them)");
}

/// Module tables in a directory (by name, and by build-id in the store
/// layout) and in a store: the tables are files of the directory, opened
/// through a fake that counts what it opens.
TEST(KernelModuleTables, ByNameBuildIdAndStore) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("modtables", Dir));
  auto Touch = [](const std::string &Path) {
    ASSERT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << EC.message();
  };
  std::string Named = (Dir + "/my-mod.dpat").str();
  std::vector<uint8_t> Id = {0xc0, 0xff, 0xee, 0x01};
  std::vector<uint8_t> Other = {0xc0, 0xff, 0xee, 0x02};
  std::string ById = TableStore::tablePath(Dir, Other, "gsym");
  Touch(Named);
  Touch(ById);
  std::vector<std::string> Opened;
  TableStore::OpenFn Open = [&](llvm::StringRef Path)
      -> llvm::Expected<std::unique_ptr<AddressSymbolizer>> {
    Opened.push_back(Path.str());
    auto T = std::make_unique<FakeTable>();
    T->Label = Path.str();
    T->Id = Path == Named ? Id : Other;
    return std::move(T);
  };
  llvm::Expected<ModuleTableDirectory> D = ModuleTableDirectory::scan(Dir);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  KernelModuleTables M(Open, std::move(*D), nullptr);
  auto Label = [&](llvm::StringRef Module, llvm::ArrayRef<uint8_t> BuildId) {
    llvm::Expected<const AddressSymbolizer *> T = M.table(Module, BuildId);
    if (!T)
      return "error: " + llvm::toString(T.takeError());
    return *T ? static_cast<const FakeTable *>(*T)->Label : "none";
  };
  // By name ('-' read as '_'), opened once; with or without the build-id.
  EXPECT_EQ(Label("my_mod", {}), Named);
  EXPECT_EQ(Label("my_mod", Id), Named);
  EXPECT_EQ(Opened.size(), 1u);
  // A table of another build than the trace gives is not used.
  EXPECT_EQ(Label("my_mod", Other),
            "error: '" + Named +
                "': the table is of build-id c0ffee01, module 'my_mod' of "
                "the trace of build-id c0ffee02; its frames are left as "
                "they are");
  // Another module: by its build-id in the store layout, else none.
  EXPECT_EQ(Label("other", Other), ById);
  EXPECT_EQ(Label("other", {}), "none");
  EXPECT_EQ(Label("other", Id), "none");
  // Without a directory, a store answers build-ids; a name alone is none.
  TableStore Store(std::string(Dir), Open);
  KernelModuleTables S(Open, std::nullopt, &Store);
  llvm::Expected<const AddressSymbolizer *> T = S.table("other", Other);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(static_cast<const FakeTable *>(*T)->Label, ById);
  T = S.table("my_mod", {});
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(*T, nullptr);
  T = S.table("my_mod", Id);
  EXPECT_FALSE(bool(T));
  llvm::consumeError(T.takeError());
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
