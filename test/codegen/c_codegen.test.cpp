// Tests of <ctir/codegen/c_codegen.hpp>: the C text of each construct.
#include <ctir/codegen/c_codegen.hpp>

#include <ctir/text/parser.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace ctir;
using codegen::CodegenOptions;
using codegen::emit_c;

namespace {

/// The C of the module's functions, without the prelude.
std::string c_of(std::string_view text, CodegenOptions options = {}) {
  const std::string c = emit_c(parse_module(text), options);
  const auto start = c.find("\n/* prim @");
  REQUIRE(start != std::string::npos);
  return c.substr(start);
}

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("a function becomes a C function with its signature as a comment and an entry point") {
  const std::string c = c_of(R"(
prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
})");
  CAPTURE(c);
  CHECK(has(c, "/* prim @add_one(%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) */"));
  CHECK(has(c, "static int prim_add_one(ctir_status* st, DLTensor* A_dl, DLTensor* B_dl) {"));
  CHECK(has(c, "float* restrict A = (float*)((char*)A_dl->data + A_dl->byte_offset);"));
  CHECK(has(c, "const int32_t n = (int32_t)A_dl->shape[0];"));
  CHECK(has(c, "const int64_t B_d0 = (int64_t)n;"));
  CHECK(has(c,
            "if (B_dl->shape[0] != (int64_t)n) ctir_fail_dim(st, \"in @add_one: dimension 0 of %B "
            "(%n)\""));
  CHECK(has(c, "for (int64_t i = 0; i < n; ++i) {"));
  CHECK(has(c, "ctir_store_f32(B, ctir_idx(0, i, B_d0), (ctir_load_f32(A, ctir_idx(0, "
               "i, A_d0)"));
  CHECK(has(c, " + 0x1p+0f)"));
  CHECK(
      has(c, "CTIR_EXPORT int ctir_call_add_one(DLTensor** args, char* error, size_t error_size)"));
  // Without bounds checks, plain indexing.
  const std::string fast = c_of(R"(
prim @add_one[%n](%A: Tensor[(%n), float32], %B: Tensor[(%n), float32]) {
  for %i in range(0, %n) {
    %B[%i] = %A[%i] + 1f;
  }
})",
                                {.bounds_checks = false});
  CHECK(has(fast, "B[i] = (A[i] + 0x1p+0f);"));
}

TEST_CASE("loop kinds become OpenMP pragmas only when iterations are independent") {
  const std::string c = c_of(R"(
prim @kinds(%A: Tensor[(8), float32], %B: Tensor[(8), float32], %s: Tensor[(), float32]) {
  for %i in parallel(0, 8) {
    %B[%i] = %A[%i];
  }
  for %j in vectorized(0, 8) {
    %B[%j] = %A[%j] * 2f;
  }
  for %k in parallel(0, 8) {
    %s[] = %s[] + %A[%k];
  }
  for %u in unroll(0, 8) {
    %B[%u] = 0f;
  }
})");
  CAPTURE(c);
  CHECK(has(c, "#ifdef _OPENMP\n  #pragma omp parallel for\n  #endif\n  for (int64_t i = 0;"));
  CHECK(has(c, "#pragma omp simd\n  #endif\n  for (int64_t j = 0;"));
  CHECK(has(c, "/* parallel loop kept serial: its iterations may write or read the same "
               "elements */\n  for (int64_t k = 0;"));
  CHECK(has(c, "/* unroll loop: left to the C compiler */\n  for (int64_t u = 0;"));
}

TEST_CASE("scalar operators follow the interpreter's semantics") {
  const std::string c = c_of(R"(
prim @ops(%A: Tensor[(4), int32], %F: Tensor[(4), float64], %C: Tensor[(4), bool], %x: int32) {
  let %q = %x / 3;
  let %r = %x % -2;
  let %w = %x * 7 + 1;
  let %m = min(%x, 2);
  let %f = cast<float64>(%x);
  let %g = cast<int32>(%F[0]);
  let %h = max(%F[1], 0.1f64);
  let %p = %F[2] % 2f64;
  let %b = %x < 3 && !(%x == 1);
  let %s = select(%b, %x, cast<int32>(%F[3]));
  %A[0] = -%x;
  %C[0] = %b;
  if (%b) {
    %A[1] = %q;
  } else {
    %A[1] = %r;
  }
  alloc %tmp: Tensor[(%x), int8];
  %tmp[0] = cast<int8>(300);
})");
  CAPTURE(c);
  CHECK(has(c, "const int32_t q = ctir_div_i32(x, 3, st, \"in @ops: integer division by zero in %x "
               "/ 3\");"));
  CHECK(has(c, "ctir_mod_i32(x, (-2), st,"));
  CHECK(has(c, "const int32_t w = ctir_add_i32(ctir_mul_i32(x, 7), 1);"));
  CHECK(has(c, "const int32_t m = ctir_min_i32(x, 2);"));
  CHECK(has(c, "const double f = (double)(x);"));
  CHECK(has(c, "ctir_f2i_i32((double)("));
  CHECK(has(c, "(double)ctir_fmax("));
  CHECK(has(c, "0x1.999999999999ap-4"));
  CHECK(has(c, "(double)ctir_fmod_floor("));
  CHECK(has(c, "const uint8_t b = ((x < 3) && (!(x == 1)));"));
  CHECK(has(c, "ctir_select_i32(b != 0, x, ctir_f2i_i32("));
  CHECK(has(c, "ctir_neg_i32(x)"));
  CHECK(has(c, "(uint8_t)(b != 0)"));
  CHECK(has(c, "if (b) {"));
  CHECK(has(c, "} else {"));
  CHECK(has(c, "int8_t* tmp = (int8_t*)ctir_alloc(1 * tmp_d0, sizeof(int8_t), st,"));
  CHECK(has(c, "free(tmp);"));
  CHECK(has(c, "(int8_t)(300)"));
}

TEST_CASE("what C cannot express is an error naming the function and the node") {
  const auto error_of = [](std::string_view text) -> std::string {
    try {
      emit_c(parse_module(text));
    } catch (const codegen::CodegenError& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(has(error_of(R"(
prim @rank(%A: Tensor[(4, 4), float32]) {
  %A[0] = 1f;
})"),
            "ctir: cannot emit C for @rank: %A has rank 2, but 1 indices were given"));
  CHECK(has(error_of(R"(
prim @whole(%A: Tensor[(4), float32], %B: Tensor[(4), float32]) {
  %B[0] = %A;
})"),
            "ctir: cannot emit C for @whole: %A is a tensor of rank 1, not a scalar"));
}

TEST_CASE("float literals are exact and names C reserves are renamed") {
  const std::string c = c_of(R"(
prim @lits(%int: Tensor[(2), float32], %NAN: Tensor[(2), float64]) {
  %int[0] = 0.1f;
  %NAN[0] = -0f64;
  %NAN[1] = 1e300f64;
})");
  CAPTURE(c);
  CHECK(has(c, "DLTensor* int__dl"));
  CHECK(has(c, "DLTensor* NAN__dl"));
  CHECK(has(c, "0x1.99999ap-4f"));
  CHECK(has(c, "(-0x0p+0)"));
  CHECK(has(c, "0x1.7e43c8800759cp+996"));
}

TEST_CASE("float16 is stored as its bits and rounded after each operation") {
  const std::string c = c_of(R"(
prim @half(%A: Tensor[(4), float16], %B: Tensor[(4), float32]) {
  %A[0] = %A[1] * %A[2] + 0.1f16;
  %B[0] = cast<float32>(%A[3]);
})");
  CAPTURE(c);
  CHECK(has(c, "uint16_t* restrict A = (uint16_t*)"));
  CHECK(has(c, "ctir_store_f16(A, ctir_idx(0, (int64_t)0, A_d0), ctir_f16((double)"
               "ctir_f16((double)"
               "ctir_load_f16(A, ctir_idx(0, (int64_t)1, A_d0)"));
  CHECK(has(c, "0x1.998p-4f"));
  CHECK(has(c, "(float)(ctir_load_f16(A, ctir_idx(0, (int64_t)3, A_d0)"));
}
