// A scope that names a field the node does not have after the definition (a typo).
// expect: ctir: .scope_over(field) must name a field of the same node type declared after
#include <ctir/ctir.hpp>

struct LoopNode final : ctir::StmtNode {
  CTIR_NODE(LoopNode, ctir::StmtNode, "fail.Loop");
  ctir::Var var;
  ctir::SeqStmt body;
  CTIR_FIELDS(CTIR_FIELD(var).def_simple().scope_over("bdy"), CTIR_FIELD(body));
};

int main() { auto node = ctir::make_object<LoopNode>(); }
