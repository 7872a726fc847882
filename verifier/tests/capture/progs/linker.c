// linker: its first run leaves links where capture writes the next run's
// output (issue 32): a symbolic link at run2.out and a hard link at
// run2.err, both to the file LINKER_TARGET names, outside the scratch
// folder.  Capture must replace them, never write through.
//
// Build: nvcc -arch=sm_90 -o linker linker.cu
// Run: ./linker
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	const char *target = getenv("LINKER_TARGET");
	/* the program runs in SCRATCH/work/linker; the outputs are SCRATCH/runN.* */
	if (target && access("../../run2.out", F_OK) != 0) {
		if (symlink(target, "../../run2.out") != 0 || link(target, "../../run2.err") != 0)
			perror("linker");
	}
	printf("linked 2 names\n");
	return 0;
}
