// Abstract node types (family roots) cannot be instantiated.
// expect: ctir::make_object<T>: T must be a concrete node type
#include <ctir/ctir.hpp>

int main() { auto node = ctir::make_object<ctir::StmtNode>(); }
