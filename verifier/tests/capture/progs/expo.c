// expo: numbers as printf's %e writes them, and a signed one, where the
// verifier reads them.
// Build: nvcc -o expo expo.cu
// Run: ./expo
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int pid = (int)getpid();
	printf("stable 42 and 1.500e+03\n");
	printf("latency %.3e ms, count 42\n", 1e-5 + (pid % 1000) * 1e-8);
	printf("delta -%05d, total 1,049,%03d\n", pid % 100000, pid % 1000);
	return 0;
}
