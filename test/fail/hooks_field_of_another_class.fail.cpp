// A node lists a field of another class in its hooks (a copy-paste slip).
// expect: ctir: a field listed in CTIR_FIELDS is not a member of this node type
#include <ctir/ctir.hpp>

struct OtherNode final : ctir::Object {
  CTIR_NODE(OtherNode, ctir::Object, "fail.Other");
  int value = 0;
  CTIR_FIELDS(CTIR_FIELD(value));
};

struct WrongNode final : ctir::Object {
  CTIR_NODE(WrongNode, ctir::Object, "fail.Wrong");
  int value = 0;
  CTIR_FIELDS(ctir::field<&OtherNode::value>("value"));
};

int main() { auto node = ctir::make_object<WrongNode>(); }
