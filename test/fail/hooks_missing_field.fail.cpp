// A node's hooks forget one of its members.
// expect: ctir: the hooks miss a field of this node type
#include <ctir/ctir.hpp>

struct PairNode final : ctir::Object {
  CTIR_NODE(PairNode, ctir::Object, "fail.Pair");
  ctir::Expr first;
  ctir::Expr second;
  CTIR_FIELDS(CTIR_FIELD(first));
};

int main() { auto node = ctir::make_object<PairNode>(); }
