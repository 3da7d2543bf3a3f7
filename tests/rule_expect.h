// Test helpers for the rule engine: apply a rule expecting success, or
// expecting a BroadcastError, reporting the other outcome as a failure.
#pragma once

#include <gtest/gtest.h>

#include <exception>

#include "bcastgen/rules.h"

namespace bcastgen {

// Applies `rule` and checks the result shape, and that the rule did not throw.
inline BroadcastResult ok(Rule rule, const Shape& a, const Shape& b, std::int64_t axis = -1) {
  try {
    return broadcast_shapes(rule, a, b, axis);
  } catch (const std::exception& e) {
    ADD_FAILURE() << rule_name(rule) << " " << format_shape(a) << " " << format_shape(b) << " axis " << axis
                  << " threw: " << e.what();
    return {};
  }
}

// Expects a BroadcastError and returns it for field checks.
inline BroadcastError rejected(Rule rule, const Shape& a, const Shape& b, std::int64_t axis = -1) {
  try {
    const BroadcastResult r = broadcast_shapes(rule, a, b, axis);
    ADD_FAILURE() << rule_name(rule) << " " << format_shape(a) << " " << format_shape(b) << " axis " << axis
                  << " unexpectedly gave " << format_shape(r.out);
  } catch (const BroadcastError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
  return BroadcastError("none thrown", "", -99, -99, -99);
}

}  // namespace bcastgen
