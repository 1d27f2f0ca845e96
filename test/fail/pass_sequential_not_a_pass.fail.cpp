// Only passes go into a sequential; anything else is a compile error that says what a pass is.
// expect: ctir::sequential: every argument must be a pass

#include <ctir/pass/pass.hpp>

using namespace ctir;

struct Fold {
  static constexpr PassInfo info() { return {"Fold", 2}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct NotAPass {
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; } // no info()
};

int main() {
  const auto pipeline = sequential(Fold{}, NotAPass{});
  static_cast<void>(pipeline);
  return 0;
}
