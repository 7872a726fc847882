/* scale.h: beside the program. */
#define SCALE 2
