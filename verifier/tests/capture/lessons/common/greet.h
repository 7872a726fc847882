/* greet.h: a header the lessons share (programs/common/). */
#define GREETING "hello from the shared header"
