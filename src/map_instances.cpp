// ctir::compiled: the rebuilding of the IR's nodes by a map (see
// <ctir/ir/detail/map_instances.hpp>).
#include <ctir/ir/detail/map_instances.hpp>

CTIR_DETAIL_FOR_EACH_CONCRETE_IR_NODE(CTIR_DETAIL_MAP_REBUILD_INSTANCE, );
CTIR_DETAIL_FOR_EACH_CONCRETE_IR_NODE(CTIR_DETAIL_MAP_STORE_INSTANCES, );
CTIR_DETAIL_FOR_EACH_ABSTRACT_IR_NODE(CTIR_DETAIL_MAP_STORE_INSTANCES, );
