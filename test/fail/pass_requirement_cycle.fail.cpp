// A static pipeline whose passes require each other in a cycle must not compile; the error
// names the passes in the cycle.
// expect: ctir: passes in this static pipeline require each other in a cycle
// expect: requirement_cycle<CycleA, CycleB, CycleA>

#include <ctir/pass/pass.hpp>

using namespace ctir;

struct CycleA;
struct CycleB {
  using required_passes = pass_list<CycleA>;
  static constexpr PassInfo info() { return {.name = "CycleB", .required = {"CycleA"}}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};
struct CycleA {
  using required_passes = pass_list<CycleB>;
  static constexpr PassInfo info() { return {.name = "CycleA", .required = {"CycleB"}}; }
  IRModule transform_module(IRModule mod, const PassContext&) const { return mod; }
};

int main() {
  const auto pipeline = sequential(CycleA{});
  IRModule mod;
  mod = pipeline(mod);
  return 0;
}
