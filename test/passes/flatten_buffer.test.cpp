// Tests of ctir/passes/flatten_buffer.hpp: tensors of tensor-level functions become 1-D.
#include <ctir/passes/flatten_buffer.hpp>

#include <ctir/runtime/pass/registry.hpp>
#include <ctir/text/parser.hpp>
#include <ctir/text/printer.hpp>

#include <doctest/doctest.h>
#include <passes_testing.hpp>

#include <string>

using namespace ctir;
using namespace ctir::testing;

TEST_CASE("FlattenBuffer meets the laws of its golden cases") {
  check_golden_laws("flatten_buffer", passes::FlattenBuffer{}, {.min_runs = 9, .any_shape = true});
}

TEST_CASE("FlattenBuffer leaves parameters alone when asked to") {
  const IRModule mod = golden_cases("flatten_buffer").back().input; // symbolic.ctir
  const PrimFunc f = downcast<PrimFuncNode>(mod.lookup("f"));
  const PrimFunc out = passes::flatten_buffers(f, false);
  CHECK(out->params[1].same_as(f->params[1]));
  CHECK_FALSE(out.same_as(f)); // the allocation is flattened
}

TEST_CASE("FlattenBuffer keeps a tensor accessed with the wrong rank as it is") {
  const IRModule mod = parse_module(R"(
prim @f(%A: Tensor[(2, 2), int32]) {
  %A[1] = 0;
}
)");
  CHECK(passes::FlattenBuffer{}(mod).same_as(mod));
  eval::Interpreter interp(mod);
  CHECK_THROWS_AS(interp.call("f", eval::random_inputs(mod, "f", 1)), Error);
}

TEST_CASE("FlattenBuffer is registered by name with opt_level 0 and invalidates InferType") {
  REQUIRE(PassRegistry::global().contains("FlattenBuffer"));
  CHECK(PassRegistry::global().create("FlattenBuffer").info().opt_level == 0);
  CHECK(passes::FlattenBuffer::info().invalidates_result("InferType"));
}

namespace {
/// The one function of `text` after FlattenBuffer, printed.
std::string flattened(const std::string& text) {
  return print(passes::FlattenBuffer{}(parse_module(text)));
}
} // namespace

TEST_CASE(
    "FlattenBuffer computes a literal shape's offsets in int64 when int32 cannot hold its size") {
  // 65536 * 65536 elements wrap to 0 in int32: the flat size and the offsets are int64.
  const std::string out = flattened(R"(
prim @f(%x: int32) {
  alloc %T: Tensor[(65536, 65536), int8];
  for %i in range(0, 2) {
    %T[%i, %x] = 1i8;
  }
}
)");
  CAPTURE(out);
  CHECK(out.find("alloc %T: Tensor[(4294967296i64), int8];") != std::string::npos);
  CHECK(out.find("%T[cast<int64>(%i) * 65536i64 + cast<int64>(%x)] = 1i8;") != std::string::npos);
  // Within int32, the dtype stays: 46340 * 46340 < 2^31.
  CHECK(flattened(R"(
prim @f() {
  alloc %T: Tensor[(46340, 46340), int8];
  %T[1, 2] = 1i8;
}
)")
            .find("%T[46342] = 1i8;") != std::string::npos);
}

TEST_CASE("FlattenBuffer refuses a literal shape whose size int64 cannot hold, naming it") {
  const IRModule mod = parse_module(R"(
prim @f() {
  alloc %T: Tensor[(4294967296i64, 4294967296i64), int8];
  %T[0, 0] = 1i8;
}
)");
  std::string message;
  try {
    passes::FlattenBuffer{}(mod);
  } catch (const Error& error) {
    message = error.what();
  }
  CAPTURE(message);
  CHECK(message.find("FlattenBuffer cannot flatten %T: Tensor[(4294967296, 4294967296), "
                     "int8] has more elements than int64 can index") != std::string::npos);
}

TEST_CASE("FlattenBuffer computes symbolic offsets in int64 unless the shape is int64 already") {
  // %n * %m may exceed int32 at run time, where the 2-D accesses were fine.
  const std::string narrow = flattened(R"(
prim @f[%n, %m](%v: Tensor[(%n), int32], %w: Tensor[(%m), int32]) {
  alloc %T: Tensor[(%n, %m), int32];
  %T[1, 2] = %v[0];
}
)");
  CAPTURE(narrow);
  CHECK(narrow.find("alloc %T: Tensor[(cast<int64>(%n) * cast<int64>(%m)), int32];") !=
        std::string::npos);
  CHECK(narrow.find("%T[cast<int64>(%m) + 2i64] = %v[0];") != std::string::npos);
  const std::string wide = flattened(R"(
prim @f[%n: int64, %m: int64](%v: Tensor[(%n), int32], %w: Tensor[(%m), int32]) {
  alloc %T: Tensor[(%n, %m), int32];
  %T[1i64, 2i64] = %v[0];
}
)");
  CAPTURE(wide);
  CHECK(wide.find("alloc %T: Tensor[(%n * %m), int32];") != std::string::npos);
  CHECK(wide.find("%T[%m + 2i64] = %v[0];") != std::string::npos);
}
