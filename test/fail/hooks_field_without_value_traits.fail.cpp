// A plain field whose type has no value_traits cannot be compared or hashed.
// expect: specialize ctir::value_traits<T> (equal, hash, print)
#include <ctir/ctir.hpp>

struct Opaque {
  int bits;
};

struct HolderNode final : ctir::Object {
  CTIR_NODE(HolderNode, ctir::Object, "fail.Holder");
  Opaque opaque;
  CTIR_FIELDS(CTIR_FIELD(opaque));
};

int main() { auto node = ctir::make_object<HolderNode>(); }
