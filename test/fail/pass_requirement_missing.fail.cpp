// A static pass requiring a result no pass of the pipeline provides must not compile; the
// error names the pass and the missing result.
// expect: ctir: a pass in this static pipeline requires a result that no pass provides
// expect: requirement_not_provided<NeedsTypes,
// expect-gcc: result_name<'T', 'y', 'p', 'e', 's'>
// expect-clang: result_name<'T', 'y', 'p', 'e', 's'>

#include <ctir/pass/pass.hpp>

using namespace ctir;

struct Fold {
  static constexpr PassInfo info() { return {"Fold", 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct NeedsTypes {
  static constexpr PassInfo info() { return {.name = "NeedsTypes", .required = {"Types"}}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

int main() {
  constexpr auto pipeline = sequential(Fold{}, NeedsTypes{});
  IRModule mod;
  mod = pipeline(mod);
  return 0;
}
