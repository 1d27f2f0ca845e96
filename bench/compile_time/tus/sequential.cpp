// One static sequential of ten standard passes, run under a context.
#include <ctir/ctir.hpp>
#include <ctir/passes/passes.hpp>

ctir::IRModule optimize(ctir::IRModule mod) {
  using namespace ctir::passes;
  constexpr auto pipeline = ctir::sequential(
      InferType{}, SimplifyExpr{}, FoldConstant{}, EliminateCommonSubexpr{}, DeadCodeElimination{},
      RemoveUnusedFunctions{}, Simplify{}, UnrollLoop{}, RemoveNoOp{}, FlattenBuffer{});
  ctir::PassContext ctx{{.opt_level = 3}};
  auto scope = ctx.enter();
  return pipeline(std::move(mod));
}

int main() {}
