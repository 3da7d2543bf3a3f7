/* Calls the C entry points of tests/c_abi/c_abi.yaml's kernels from C and
 * checks results, statuses and messages against values computed here. */
#include <stdio.h>
#include <string.h>

#include "c_abi_c.h"

static int failures = 0;

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                \
    }                                                            \
  } while (0)

static void test_bias_add(void) {
  float a[60], b[3], out[60], want[60], parts[60];
  const int64_t a_dims[] = {4, 3, 5}, b_dims[] = {1, 3, 1}, bad_dims[] = {1, 4, 1};
  for (int i = 0; i < 60; ++i) a[i] = (float)i * 0.5f;
  for (int i = 0; i < 3; ++i) b[i] = 100.0f * (float)(i + 1);
  for (int n = 0; n < 4; ++n)
    for (int c = 0; c < 3; ++c)
      for (int w = 0; w < 5; ++w) want[(n * 3 + c) * 5 + w] = a[(n * 3 + c) * 5 + w] + b[c];

  CHECK(cabi_bias_add(a, b, out) == BCASTGEN_OK);
  CHECK(memcmp(out, want, sizeof want) == 0);

  memset(out, 0, sizeof out);
  CHECK(cabi_bias_add_checked(a, a_dims, 3, b, b_dims, 3, out, a_dims, 3) == BCASTGEN_OK);
  CHECK(memcmp(out, want, sizeof want) == 0);
  CHECK(strcmp(cabi_last_error(), "") == 0);

  /* A wrong shape: a status and a message naming the kernel and operand. */
  CHECK(cabi_bias_add_checked(a, a_dims, 3, b, bad_dims, 3, out, a_dims, 3) == BCASTGEN_ERROR_SHAPE);
  CHECK(strstr(cabi_last_error(), "bias_add") != NULL);
  CHECK(strstr(cabi_last_error(), "[1,4,1]") != NULL);
  CHECK(cabi_bias_add_checked(a, a_dims, 2, b, b_dims, 3, out, a_dims, 3) == BCASTGEN_ERROR_SHAPE);

  CHECK(cabi_bias_add_checked(NULL, a_dims, 3, b, b_dims, 3, out, a_dims, 3) == BCASTGEN_ERROR_NULL_POINTER);
  CHECK(strstr(cabi_last_error(), "null") != NULL);

  /* The output may not alias b (a different shape), but may be a exactly. */
  CHECK(cabi_bias_add_checked(a, a_dims, 3, (const float*)out, b_dims, 3, out, a_dims, 3) == BCASTGEN_ERROR_ALIAS);
  memcpy(out, a, sizeof a);
  CHECK(cabi_bias_add_checked(out, a_dims, 3, b, b_dims, 3, out, a_dims, 3) == BCASTGEN_OK);
  CHECK(memcmp(out, want, sizeof want) == 0);

  /* Ranges of the split loop, in any order, equal one call. */
  const int64_t extent = cabi_bias_add_outer_extent();
  CHECK(extent >= 1);
  memset(parts, 0, sizeof parts);
  const int64_t mid = extent / 2;
  CHECK(cabi_bias_add_range(mid, extent, a, b, parts) == BCASTGEN_OK);
  CHECK(cabi_bias_add_range(0, mid, a, b, parts) == BCASTGEN_OK);
  CHECK(memcmp(parts, want, sizeof want) == 0);
  CHECK(cabi_bias_add_range(0, extent + 1, a, b, parts) == BCASTGEN_ERROR_ARGUMENT);
  CHECK(strstr(cabi_last_error(), "range") != NULL);
}

static void test_row_gt(void) {
  int32_t a[35], b[7];
  bool out[35], want[35];
  const int64_t a_dims[] = {5, 7}, b_dims[] = {7};
  for (int i = 0; i < 35; ++i) a[i] = (i * 7919) % 23 - 11;
  for (int i = 0; i < 7; ++i) b[i] = i - 3;
  for (int i = 0; i < 35; ++i) want[i] = a[i] > b[i % 7];
  CHECK(cabi_row_gt_checked(a, a_dims, 2, b, b_dims, 1, out, a_dims, 2) == BCASTGEN_OK);
  CHECK(memcmp(out, want, sizeof want) == 0);
}

static void test_expand(void) {
  uint8_t in[3] = {7, 8, 9}, out[36];
  const int64_t in_dims[] = {3, 1}, out_dims[] = {2, 3, 6};
  CHECK(cabi_expand_checked(in, in_dims, 2, out, out_dims, 3) == BCASTGEN_OK);
  for (int i = 0; i < 36; ++i) CHECK(out[i] == in[(i / 6) % 3]);
}

int main(void) {
  test_bias_add();
  test_row_gt();
  test_expand();
  if (failures) {
    fprintf(stderr, "c_abi_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_abi_test: all checks passed\n");
  return 0;
}
