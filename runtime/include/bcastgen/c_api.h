/* bcastgen runtime: the status codes of the C entry points that generated
 * files export (<prefix>_<kernel>_checked and _range). C and C++. */
#ifndef BCASTGEN_C_API_H
#define BCASTGEN_C_API_H

typedef enum bcastgen_status {
  BCASTGEN_OK = 0,
  BCASTGEN_ERROR_SHAPE = 1,        /* an operand's shape is not the kernel's */
  BCASTGEN_ERROR_NULL_POINTER = 2, /* a null pointer for an operand with elements */
  BCASTGEN_ERROR_ALIAS = 3,        /* the output overlaps an input it may not alias */
  BCASTGEN_ERROR_ARGUMENT = 4,     /* a bad range, or an ISA this CPU lacks */
  BCASTGEN_ERROR_INTERNAL = 5      /* anything else; the message says what */
} bcastgen_status;

#endif /* BCASTGEN_C_API_H */
