// A module pass needs a function IRModule(IRModule[, const PassContext&]); the error says so.
// expect: ctir::make_module_pass: the function must be callable (const) as IRModule(IRModule,
// expect: const PassContext&) or IRModule(IRModule)

#include <ctir/pass/pass.hpp>

using namespace ctir;

int main() {
  const auto p = make_module_pass("Bad", 0, [](int x) { return x; });
  static_cast<void>(p);
  return 0;
}
