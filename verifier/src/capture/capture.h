/*
 * capture.h - `coursecheck capture [OPTION...] [LESSON...]`: build and run
 * each lesson program on this GPU machine and write what it printed, with
 * the facts of the machine, as a new evidence file (evidence.h's format)
 * under evidence/LESSON/.
 *
 * It links libc and libcrypto only (util, diag, textfile, sha256, repo,
 * evidence, proghdr and capture*.c), so that it builds and runs on a GPU
 * node that has nothing else.  The modules behind it:
 *   capture.c         options, choosing the lessons, the summary
 *   capture_sched.c   the scheduler: parallel builds, one run per GPU,
 *                     repeats, the evidence header, progress lines
 *   capture_lesson.c  lessons (the one .cu file, its Build:/Run: header,
 *                     staleness) and scratch folders
 *   capture_proc.c    child processes, time limits, interrupts
 *   capture_gpu.c     nvidia-smi, nvcc, host compiler, git, GPU sharing
 *   capture_text.c    output made into evidence sections; volatile numbers
 *   capture_write.c   composing the file and putting it in place, never
 *                     overwriting one
 *   capture_slurm.c   --slurm: one array job, one task per lesson, followed
 *                     to its end
 */
#ifndef COURSECHECK_CAPTURE_H
#define COURSECHECK_CAPTURE_H

/* Runs `capture` with its own argv (argv[0] = "capture"); returns the exit status (0 all captured, 1 some lesson failed, 2 usage). */
int capture_command(int argc, char **argv);

#endif
