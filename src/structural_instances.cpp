// ctir::compiled: structural equality and hashing of modules, functions, expressions and
// statements (see <ctir/ir/detail/structural_instances.hpp>).
#include <ctir/ir/detail/structural_instances.hpp>

CTIR_DETAIL_FOR_EACH_STRUCTURAL_INSTANCE(CTIR_DETAIL_STRUCTURAL_INSTANCES, );
