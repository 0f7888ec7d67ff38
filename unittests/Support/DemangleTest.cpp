//===- DemangleTest.cpp - Rust names, and names as binutils prints them ---===//
//
// The expected names are binutils 2.40's (addr2line -C; c++filt prints the
// same with the hashes and crate disambiguators it adds in verbose mode),
// for symbols of a rustc 1.95 program.
//
//===----------------------------------------------------------------------===//

#include "dwarfpack/Support/Demangle.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"

#include "gtest/gtest.h"

using namespace dwarfpack;

namespace {

TEST(DemangleTest, RustLegacyPathsLoseTheirHash) {
  EXPECT_EQ(gnuDemangle("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$"
                        "17h168e94e611939a97E"),
            "std::rt::lang_start::{{closure}}");
  EXPECT_EQ(gnuDemangle("_ZN111_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$alloc.."
                        "vec..spec_from_iter_nested..SpecFromIterNested$LT$T$"
                        "C$I$GT$$GT$9from_iter17h33ccaee9da6773a1E"),
            "<alloc::vec::Vec<T> as alloc::vec::spec_from_iter_nested::"
            "SpecFromIterNested<T,I>>::from_iter");
  // A single '.' stays; the suffix LTO adds is ignored.
  EXPECT_EQ(gnuDemangle("_ZN4core3ops8function6FnOnce40call_once$u7b$$u7b$"
                        "vtable.shim$u7d$$u7d$17h586cf6476555c1edE.llvm."
                        "8041360393987513400"),
            "core::ops::function::FnOnce::call_once{{vtable.shim}}");
  // The other escapes.
  EXPECT_EQ(
      demangleRustLegacy("_ZN21_$RF$$BP$$SP$$LP$$RP$1a17h0123456789abcdefE"),
      "&*@()::a");
}

TEST(DemangleTest, NotRustLegacy) {
  // A hash of too few different digits: C++.
  EXPECT_EQ(demangleRustLegacy("_ZN3foo17h0000000000000000E"), std::nullopt);
  EXPECT_EQ(gnuDemangle("_ZN3foo17h0000000000000000E"),
            "foo::h0000000000000000");
  EXPECT_EQ(demangleRustLegacy("_ZN3fooE"), std::nullopt);
  // Lengths that do not tile the path, a leading zero, an empty segment.
  EXPECT_EQ(demangleRustLegacy("_ZN9foo17h0123456789abcdefE"), std::nullopt);
  EXPECT_EQ(demangleRustLegacy("_ZN03foo17h0123456789abcdefE"), std::nullopt);
  EXPECT_EQ(
      demangleRustLegacy("_ZN99999999999999999999999foo17h0123456789abcdefE"),
      std::nullopt);
  // A character legacy symbols never have.
  EXPECT_EQ(demangleRustLegacy("_ZN4f-oo17h0123456789abcdefE"), std::nullopt);
  // An unknown escape: the rest of the segment as it is.
  EXPECT_EQ(demangleRustLegacy("_ZN8a$XX$b.c17h0123456789abcdefE"), "a$XX$b.c");
}

TEST(DemangleTest, RustV0WithoutDisambiguators) {
  EXPECT_EQ(gnuDemangle("_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeNtNtCsl"
                        "NYArtu3iFV_5alloc6string6StringECs4X4t9plMPHF_"
                        "9addr2line"),
            "core::ptr::drop_in_place::<alloc::string::String>");
  EXPECT_EQ(gnuDemangle("_RINvNtCsgEmfK2I1SDS_4core6escape14escape_unicodeKja_"
                        "ECsgY6Mt91CT9J_14rustc_demangle"),
            "core::escape::escape_unicode::<10>");
  // What follows a '.' is not part of the name.
  EXPECT_EQ(
      gnuDemangle("_RNvNtNtCsjrHSEGnQ3l9_3std6thread11main_thread4MAIN.0"),
      "std::thread::main_thread::MAIN");
}

TEST(DemangleTest, CxxAndPlainNames) {
  EXPECT_EQ(gnuDemangle("_ZN2ns3Acc3addEi"), "ns::Acc::add(int)");
  // GCC's spelling of a lambda, which LLVM's demangler spells otherwise.
  EXPECT_EQ(gnuDemangle("_ZZ4mainENKUliE_clEi"),
            "main::{lambda(int)#1}::operator()(int) const");
  EXPECT_EQ(gnuDemangle("main"), "main");
  EXPECT_EQ(gnuDemangle("_Znot_mangled"), "_Znot_mangled");
  EXPECT_EQ(gnuDemangle("_Rbogus"), "_Rbogus");
}

} // namespace

namespace {
TEST(DemangleTest, ReadableNames) {
  // Rust legacy as binutils reads it; C++ and Rust v0 as LLVM does.
  EXPECT_EQ(readableDemangle("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$"
                             "$u7d$17h168e94e611939a97E"),
            "std::rt::lang_start::{{closure}}");
  EXPECT_EQ(readableDemangle("_ZZ4mainENKUliE_clEi"),
            "main::'lambda'(int)::operator()(int) const");
  EXPECT_EQ(readableDemangle("_ZNSt6vectorIiSaIiEE9push_backEOi"),
            "std::vector<int, std::allocator<int>>::push_back(int&&)");
  EXPECT_EQ(readableDemangle("_RNvCs1234_7mycrate4main"), "mycrate::main");
  EXPECT_EQ(readableDemangle("main"), "main");
}
} // namespace

namespace {
// llvmMayDemangle must be true of every name that llvm::demangle changes:
// every mix of up to six leading '_' and '.' before mangled names of each
// kind, and names like the kernel's.
TEST(DemangleTest, LlvmMayDemangleEveryNameLlvmDemangles) {
  const char *Bodies[] = {"Z3foov",
                          "ZN2ns3Acc3addEi",
                          "RNvCs1234_7mycrate4main",
                          "D3std5stdio7writelnFZv",
                          "do_softirq",
                          "x64_sys_read",
                          "Zfoo",
                          "R",
                          "?foo@@YAXXZ",
                          "?AVexception@std@@",
                          "",
                          "schedule"};
  unsigned Changed = 0;
  for (const char *Body : Bodies)
    for (unsigned Length = 0; Length <= 7; ++Length)
      for (unsigned Bits = 0; Bits < (1u << Length); ++Bits) {
        std::string Name;
        for (unsigned I = 0; I < Length; ++I)
          Name += (Bits >> I & 1) ? '.' : '_';
        Name += Body;
        if (llvm::demangle(Name) == Name)
          continue;
        ++Changed;
        EXPECT_TRUE(llvmMayDemangle(Name)) << Name;
      }
  EXPECT_GE(Changed, 9u); // _Z, __Z, ._Z, _R, __R, ._R, ?, .?
  EXPECT_TRUE(llvmMayDemangle("_Z3foov"));
  EXPECT_TRUE(llvmMayDemangle("?foo@@YAXXZ"));
  for (const char *Plain : {"__do_softirq", "_raw_spin_lock", "__x64_sys_read",
                            "main", "", "_", "__", "schedule"})
    EXPECT_FALSE(llvmMayDemangle(Plain)) << Plain;
}

// What perf shows (binutils' c++filt -p and c++filt give the same, from
// the same demangler) reads as one of the keys of the symbol.
TEST(DemangleTest, ProfilerNamesFindTheirSymbols) {
  struct Case {
    const char *Mangled, *WithoutParameters, *WithParameters;
  } Cases[] = {
      {"_ZN3app4workEi", "app::work", "app::work(int)"},
      {"_ZNK3app3BoxIlE4spinEi", "app::Box<long>::spin",
       "app::Box<long>::spin(int) const"},
      {"_ZN3app3BoxINS0_IiEEEC2ES1_", "app::Box<app::Box<int> >::Box",
       "app::Box<app::Box<int> >::Box(app::Box<int>)"},
      {"_ZN3app4bothIiEESt4pairIT_S2_ERKNS_3BoxINS4_IS2_EEEE.isra.0",
       "app::both<int>",
       "std::pair<int, int> app::both<int>(app::Box<app::Box<int> > const&) "
       "[clone .isra.0]"},
      {"_ZL5locall.cold", "local", "local(long) [clone .cold]"},
      // Lambdas, which LLVM spells another way; a return type with a blank.
      {"_ZZNK9dwarfpack5types10TypeMerger6sameAsERKNS0_4TypeERKNS1_4NodeERKSt"
       "6vectorIjSaIjEEENKUljE_clEj",
       "dwarfpack::types::TypeMerger::sameAs(dwarfpack::types::Type const&, "
       "dwarfpack::types::TypeMerger::Node const&, std::vector<unsigned int, "
       "std::allocator<unsigned int> > const&) const::{lambda(unsigned "
       "int)#1}::operator()",
       "dwarfpack::types::TypeMerger::sameAs(dwarfpack::types::Type const&, "
       "dwarfpack::types::TypeMerger::Node const&, std::vector<unsigned int, "
       "std::allocator<unsigned int> > const&) const::{lambda(unsigned "
       "int)#1}::operator()(unsigned int) const"},
      {"_ZZ1gIlESt4pairIT_iES1_ENKUliE_clEi",
       "g<long>(long)::{lambda(int)#1}::operator()",
       "g<long>(long)::{lambda(int)#1}::operator()(int) const"},
      {"_ZSt7forwardIRKlEOT_RNSt16remove_referenceIS2_E4typeE",
       "std::forward<long const&>",
       "long const& std::forward<long "
       "const&>(std::remove_reference<long const&>::type&)"},
  };
  for (const Case &C : Cases) {
    llvm::SmallVector<std::string, 3> Keys = demangledNameKeys(C.Mangled);
    for (const char *Shown : {C.WithoutParameters, C.WithParameters})
      EXPECT_TRUE(llvm::is_contained(Keys, demangledNameKey(Shown)))
          << C.Mangled << " as " << Shown;
  }
  // LLVM's spelling of a clone and of nested templates reads the same.
  EXPECT_EQ(demangledNameKey("f<a<b>>() (.cold)"),
            demangledNameKey("f<a<b> >() [clone .cold]"));
  // Names that are not mangled have no keys: they are looked up as they
  // are.
  EXPECT_TRUE(demangledNameKeys("main").empty());
  EXPECT_TRUE(demangledNameKeys("_Zoops").empty());
  EXPECT_TRUE(demangledNameKeys("").empty());
}
} // namespace
