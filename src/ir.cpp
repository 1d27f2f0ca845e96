// ctir::compiled: the unified IR (registration of its node types).
#include <ctir/ir/families-inl.hpp>
