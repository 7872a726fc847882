/* part.h: the second source file, declared. */
int sum_to(int n);
