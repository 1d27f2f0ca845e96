// The object model: Object, Ref, node declaration and the type registry.
#pragma once

#include <ctir/core/child_visitor.hpp>
#include <ctir/core/node.hpp>
#include <ctir/core/object.hpp>
#include <ctir/core/ref.hpp>
#include <ctir/core/type_info.hpp>
#include <ctir/core/type_list.hpp>
#include <ctir/core/type_registry.hpp>
