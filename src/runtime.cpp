// ctir::compiled: the type-erased layer's traversals (callbacks, walk, map, visit, mutate,
// structural equality and hashing).
#include <ctir/runtime/callbacks-inl.hpp>
#include <ctir/runtime/detail/reach_table-inl.hpp>
#include <ctir/runtime/map-inl.hpp>
#include <ctir/runtime/mapped-inl.hpp>
#include <ctir/runtime/mutate-inl.hpp>
#include <ctir/runtime/structural_equal-inl.hpp>
#include <ctir/runtime/structural_hash-inl.hpp>
#include <ctir/runtime/visit-inl.hpp>
#include <ctir/runtime/walk-inl.hpp>
