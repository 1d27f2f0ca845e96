// A recursive definition declared without the field scope it extends.
// expect: ctir: .recursive_in<T>(field) extends a .scope_over(field) scope to an earlier field
#include <ctir/ctir.hpp>

struct BindFnNode final : ctir::ExprNode {
  CTIR_NODE(BindFnNode, ctir::ExprNode, "fail.BindFn");
  ctir::Var var;
  ctir::Expr value;
  ctir::Expr body;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().recursive_in<ctir::FunctionNode>("value"),
              CTIR_FIELD(value), CTIR_FIELD(body));
};

int main() { auto node = ctir::make_object<BindFnNode>(); }
