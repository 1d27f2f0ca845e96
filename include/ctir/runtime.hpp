#pragma once
// ctir umbrella header (type-erased runtime layer).
