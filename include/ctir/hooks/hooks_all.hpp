// Structural hooks: field descriptors, hook lists, families and generated runtime tables.
#pragma once

#include <ctir/hooks/family.hpp>
#include <ctir/hooks/field.hpp>
#include <ctir/hooks/hooks.hpp>
#include <ctir/hooks/type_table.hpp>
#include <ctir/hooks/value_traits.hpp>
