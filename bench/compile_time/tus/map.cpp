// One map call site: specialize a shape variable of a tensor-level function to 128.
#include <ctir/ctir.hpp>

ctir::PrimFunc specialize(const ctir::PrimFunc& function, const ctir::Var& n) {
  return ctir::map(function, ctir::on<ctir::VarNode>([&](const ctir::Var& v) -> ctir::PrimExpr {
                     return v.same_as(n) ? ctir::PrimExpr(ctir::IntImm::make(128))
                                         : ctir::PrimExpr(v);
                   }));
}

int main() {}
