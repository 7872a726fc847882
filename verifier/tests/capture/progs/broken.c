// broken: does not compile.
// Build: nvcc -o broken broken.cu
// Run: ./broken
int main(void)
{
	return this is not C;
}
