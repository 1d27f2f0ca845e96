// A scope declared on a field that defines nothing (.def_simple() forgotten).
// expect: ctir: .scope_over(field) says where the variable of a definition is in scope
#include <ctir/ctir.hpp>

struct LoopNode final : ctir::StmtNode {
  CTIR_NODE(LoopNode, ctir::StmtNode, "fail.Loop");
  ctir::Var var;
  ctir::SeqStmt body;
  CTIR_FIELDS(CTIR_FIELD(var).scope_over("body"), CTIR_FIELD(body));
};

int main() { auto node = ctir::make_object<LoopNode>(); }
