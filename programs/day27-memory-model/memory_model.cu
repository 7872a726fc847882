// Day 27: the CUDA memory model through two hand-offs between blocks.
//
// The program runs four kernels, in two pairs that each differ by one thing.
//
//   lastBlockSumNoFence   every block publishes a partial sum and takes a
//                         ticket; the block holding the last ticket adds the
//                         partials up. Nothing orders the publish before the
//                         ticket, so the adder may read a partial that has
//                         not landed yet. Undefined, reported only.
//   lastBlockSumFence     the same kernel with __threadfence() between the
//                         publish and the ticket. Defined, and gated.
//   countAtDeviceScope    every thread adds 1 to one global counter with a
//                         device-scope atomic. Defined, and gated.
//   countAtBlockScope     the same add with the _block suffix, which is only
//                         atomic among the threads of one block while 1024
//                         blocks share the counter. Undefined, reported only.
//
// Why the two undefined kernels are never gated: a race is allowed to come
// out right. A check demanding that it come out wrong would treat undefined
// behaviour as something you can rely on, and one demanding that it come out
// right would pass a broken kernel on a lucky day. So the program prints how
// often each one went wrong and gates only on the two defined kernels, which
// must be exact on every launch.
//
// No clock appears anywhere below. The subject is ordering and scope, and
// no number printed is a duration.
//
// What the gates cannot see: on the GPUs this was run on, the fence-less
// sum and the block-scope tally came out right, so a build that deletes the
// fence or narrows the scope of the gated kernels still passes. Those two
// bugs are caught in the compiled code instead: verifier/scripts/
// broken-variants.sh checks the PTX (and the SASS, where cuobjdump exists)
// for a fence between the partial's store and the ticket, for a fence
// between the ticket and the last block's first read of a partial, and for
// a device-scope atomic in the tally.
//
// Deliberately broken builds, each selected with one -D macro, swap the gated
// kernels (or the host's reset) for copies carrying one bug:
//   BROKEN_NO_FENCE         no fence before the ticket     (run gate blind)
//   BROKEN_FENCE_BLOCK      __threadfence_block() instead  (run gate blind)
//   BROKEN_BLOCK_SCOPE      the gated tally at block scope (run gate blind)
//   BROKEN_NO_READER_FENCE  no fence after the last ticket (run gate blind)
//   BROKEN_FENCE_AFTER      the writer's fence after the ticket, not before
//                                                          (run gate blind)
//   BROKEN_VOLATILE         a volatile store, no fence     (run gate blind)
//   BROKEN_LAST_TICKET      the last block looks for ticket gridDim.x
//   BROKEN_TICKET_RESET     the host stops clearing the ticket counter
// and one correct alternative the code gate must accept:
//   ALT_ATOMIC_REF          the ticket as cuda::atomic_ref fetch_add with
//                           memory_order_acq_rel, and no fence at all
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -o memory_model memory_model.cu
// Run:   ./memory_model
// Run sass: cuobjdump -sass ./memory_model
//
// Verified 2026-12-05 on an NVIDIA H200 (compute capability 9.0), driver
// 580.159.04, CUDA 13.0 (V13.0.88), built with -O3 -arch=sm_90. Transcript:
// evidence/day27-memory-model/run-2026-12-05-2.txt

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/cuda_check.h"

// ---------------------------------------------------------------------------
// Error handling and ownership
// ---------------------------------------------------------------------------

// CHECK, CHECK_LAUNCH and CudaFailure are the course's shared error check
// (programs/common/cuda_check.h).

// Counts cudaFree calls that failed inside a destructor, where throwing is
// not allowed. main() folds it into the exit status.
static int g_freeFailures = 0;

// Owns one device allocation for exactly as long as the object lives.
template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        CHECK(cudaMalloc(&ptr_, count_ * sizeof(T)));
    }
    ~DeviceArray() {
        if (ptr_ != nullptr) {
            const cudaError_t code = cudaFree(ptr_);
            if (code != cudaSuccess) {
                printCudaError(code, "cudaFree", __FILE__, __LINE__);
                ++g_freeFailures;
            }
        }
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* get() const { return ptr_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T* ptr_ = nullptr;
    std::size_t count_;
};

// ---------------------------------------------------------------------------
// Constants, and the facts about them the compiler can settle
// ---------------------------------------------------------------------------

// A warp is 32 lanes on every card this course targets. warpSize is only
// known at run time, so a static_assert needs this constant instead.
constexpr int kWarpLanes = 32;

// Eight warps, the course's default block. The block reduction halves its
// active width each step, which needs a power of two.
constexpr int kBlockThreads = 256;

// The grid is fixed instead of derived from the input size, because the
// block count is what the lesson is about: it is how many tickets are
// handed out, how many partial sums the last block reads, and how many
// blocks pile onto one counter. On an H200 an SM holds at most 2048
// threads, which is what limits it to 8 blocks of 256; the sum kernels'
// registers (under 20 per thread) and shared memory (about 1 KB a block)
// would allow more. So the 132 SMs hold 1056 blocks, more than the grid's
// 1024: one wave, every block resident at once. (The program prints the
// figures; it does not observe when partials land.) A smaller card runs the
// grid in several waves.
constexpr int kGridBlocks = 1024;

// 2^22 + 611 floats, every one 1.0f. Each partial sum and the total are then
// whole numbers below 2^24, which a float holds exactly whatever order the
// adds happen in, so the check is == and not a tolerance. That matters here:
// a partial read too early is missing thousands, not a last bit, and an
// exact comparison is the only test that cannot blur the two.
constexpr std::size_t kFloats = (std::size_t{1} << 22) + 611;

// A single launch of a racy kernel says nothing. The figure worth printing
// is how many of a hundred went wrong.
constexpr int kLaunches = 100;

constexpr std::size_t kGridThreads =
    static_cast<std::size_t>(kGridBlocks) * kBlockThreads;

// What the counter kernels must reach: one increment per thread launched.
constexpr unsigned int kTallyWant =
    static_cast<unsigned int>(kGridBlocks) * kBlockThreads;

static_assert(kBlockThreads % kWarpLanes == 0,
              "a block is a whole number of warps");
static_assert((kBlockThreads & (kBlockThreads - 1)) == 0,
              "blockTotal halves the active width at each step, which only "
              "works for a power-of-two number of threads");
static_assert(kBlockThreads <= 1024,
              "a block of more than 1024 threads cannot be launched on any "
              "card of the course");
static_assert(kGridBlocks > 1,
              "with a single block there is no hand-off between blocks to "
              "get wrong");
static_assert(kFloats < (std::size_t{1} << 24),
              "every whole number below 2^24 is exact in a float, which is "
              "what lets the sums be compared with ==");
static_assert(kFloats >= kGridThreads,
              "every thread must own an element, so every block publishes a "
              "real partial and not a leftover zero");
static_assert(kFloats % kGridThreads != 0,
              "the last pass of the grid-stride loop must be partial, so its "
              "bounds test actually cuts something off on every launch");
static_assert(kTallyWant == 262144,
              "1024 blocks of 256 threads make 262144 increments");
static_assert(kLaunches >= 2,
              "a race that ran once has not been tested");

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Adds one value from each thread of the block and hands the block's total
// back to every thread.
//
// Every thread passes every barrier: callers turn their missing elements
// into zeros beforehand instead of returning early. The last thing this does
// is read scratch[0], so a caller reusing `scratch` must put a barrier
// between this call and its next write there. Both callers below do.
__device__ float blockTotal(float* scratch, float mine) {
    const unsigned int t = threadIdx.x;
    scratch[t] = mine;
    __syncthreads();
    for (unsigned int width = kBlockThreads / 2; width > 0; width /= 2) {
        if (t < width) {
            scratch[t] += scratch[t + width];
        }
        __syncthreads();
    }
    return scratch[0];
}

// Each thread walks the input a grid's width at a time and adds what it
// finds. One warp reads 32 consecutive floats per pass, one 128-byte run.
__device__ float strideSum(const float* in, std::size_t n) {
    const std::size_t jump = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    float acc = 0.0f;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x +
                         threadIdx.x;
         i < n; i += jump) {
        acc += in[i];
    }
    return acc;
}

// Run by every thread of the block that drew the last ticket, after the
// barrier that follows the ticket. The reading side of the hand-off is not
// here: thread 0, the one thread that read the ticket, fences right after
// reading it (the kernels below), and the barrier then carries that order
// to the other threads of the block. A fence here, in threads that never
// read the ticket, would be correct only because __threadfence() is the
// strongest (sequentially consistent) fence; an acquire fence in the same
// place would promise nothing to threads 1 to 255.
//
// The barrier that came before this call also separates the last read of
// scratch[0] from the writes blockTotal makes.
__device__ void addUpPartials(float* scratch, const float* partials,
                              float* total) {
    float mine = 0.0f;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        mine += partials[b];
    }
    const float all = blockTotal(scratch, mine);
    if (threadIdx.x == 0) {
        *total = all;
    }
}

// Sum in one launch, with the hand-off left unordered. Do not copy this one.
//
// Thread 0 of each block stores the block's partial sum, then takes a ticket
// from `tickets`. The store and the atomic go to different addresses, and
// nothing tells the hardware that other blocks must see the store before
// they can see the ticket. The block that draws the last ticket may
// therefore read a partial that is still 0 (the host clears the array
// before every launch, so a stale read cannot hide behind the previous
// launch's correct value).
//
// The pointers carry no __restrict__ on purpose: `partials` is written by
// one block and read by another. Declared `const float* __restrict__` on
// the reading side, it lets nvcc load the partials through the read-only
// (non-coherent) path, ld.global.nc, which no fence makes see another
// block's store; that path is only for data no one writes while the kernel
// runs.
//
// Launch: kBlockThreads threads per block, gridDim.x == length of
// `partials`, `tickets` and `partials` zeroed beforehand.
__global__ void lastBlockSumNoFence(const float* in, float* partials,
                                    float* total, unsigned int* tickets,
                                    std::size_t n) {
    __shared__ float scratch[kBlockThreads];
    __shared__ bool drewLast;

    const float blockSum = blockTotal(scratch, strideSum(in, n));

    // snippet: racy-tail
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = blockSum;
        // Nothing here: the store above may become visible to other blocks
        // after the ticket below does.
        const unsigned int ticket = atomicAdd(tickets, 1u);
        drewLast = (ticket == gridDim.x - 1);
        if (drewLast) {
            __threadfence();  // the reading side: ticket seen, partials next
        }
    }
    __syncthreads();
    // end snippet: racy-tail

    // drewLast is one shared value, so the whole block takes this branch or
    // none of it does, and the barriers inside it are reached by all threads.
    if (drewLast) {
        addUpPartials(scratch, partials, total);
    }
}

// The same kernel with the fence in place; one line is the whole change.
//
// __threadfence() makes thread 0's store to `partials` visible to the whole
// device before anything thread 0 does afterwards, the ticket included. A
// block that sees the last ticket can therefore also see every partial the
// ticket stands for. Memory traffic is identical to the kernel above.
//
// Launch: as lastBlockSumNoFence.
__global__ void lastBlockSumFence(const float* in, float* partials,
                                  float* total, unsigned int* tickets,
                                  std::size_t n) {
    __shared__ float scratch[kBlockThreads];
    __shared__ bool drewLast;

    const float blockSum = blockTotal(scratch, strideSum(in, n));

    // snippet: fenced-tail
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = blockSum;
        __threadfence();
        const unsigned int ticket = atomicAdd(tickets, 1u);
        drewLast = (ticket == gridDim.x - 1);
        if (drewLast) {
            __threadfence();  // the reading side: ticket seen, partials next
        }
    }
    __syncthreads();
    // end snippet: fenced-tail

    if (drewLast) {
        addUpPartials(scratch, partials, total);
    }
}

// Every thread adds 1 to one counter with a device-scope atomic, the scope
// plain atomicAdd has. All 262144 increments land, on any run, on any card.
// Every lane targets one address, but the compiler sees that and combines
// each warp's adds: the SASS (the header's sass run) counts the warp's
// active lanes and sends one reduction of that count, so the counter gets
// one atomic per warp, 8192 a launch. This kernel only checks the count.
//
// Launch: `tally` zeroed beforehand; the grid's thread count must fit in an
// unsigned int.
// snippet: device-scope-tally
__global__ void countAtDeviceScope(unsigned int* tally) {
    atomicAdd(tally, 1u);
}
// end snippet: device-scope-tally

// The same increment at block scope. atomicAdd_block is atomic only with
// respect to threads of the same block; two blocks adding to the same word
// at once is a data race, and the memory model gives the result no
// meaning. What the hardware would do in practice is lose increments (the
// word is in global memory, so no other memory is at risk), which is why it
// is safe to run as a demonstration; it is reported, never gated.
//
// Launch: as countAtDeviceScope.
// snippet: block-scope-tally
__global__ void countAtBlockScope(unsigned int* tally) {
    atomicAdd_block(tally, 1u);
}
// end snippet: block-scope-tally

// ---------------------------------------------------------------------------
// Deliberately broken builds
// ---------------------------------------------------------------------------
//
// Copies of the two gated kernels with one bug each; the launches below use
// them when a BROKEN_ macro is defined. None is defined in the lesson's own
// build.
#if defined(BROKEN_NO_FENCE) || defined(BROKEN_FENCE_BLOCK) || \
    defined(BROKEN_BLOCK_SCOPE) || defined(BROKEN_LAST_TICKET) || \
    defined(BROKEN_TICKET_RESET) || defined(BROKEN_NO_READER_FENCE) || \
    defined(BROKEN_FENCE_AFTER) || defined(BROKEN_VOLATILE) || \
    defined(ALT_ATOMIC_REF)
#define BROKEN_BUILD 1
#if defined(ALT_ATOMIC_REF)
#include <cuda/atomic>
#endif

__global__ void brokenSumFence(const float* in, float* partials, float* total,
                               unsigned int* tickets, std::size_t n) {
    __shared__ float scratch[kBlockThreads];
    __shared__ bool drewLast;
    const float blockSum = blockTotal(scratch, strideSum(in, n));
    if (threadIdx.x == 0) {
#if defined(BROKEN_VOLATILE)
        // volatile instead of a fence: the store is not cached, not ordered
        static_cast<volatile float*>(partials)[blockIdx.x] = blockSum;
#else
        partials[blockIdx.x] = blockSum;
#endif
#if defined(BROKEN_FENCE_BLOCK)
        __threadfence_block();
#elif !defined(BROKEN_NO_FENCE) && !defined(BROKEN_FENCE_AFTER) && \
    !defined(BROKEN_VOLATILE) && !defined(ALT_ATOMIC_REF)
        __threadfence();
#endif
#if defined(ALT_ATOMIC_REF)
        // Not broken: the correct alternative the page names. One
        // read-modify-write that releases the partial and acquires the
        // others' partials, with no fence on either side; the code gate
        // must accept it.
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticketRef(
            *tickets);
        const unsigned int ticket =
            ticketRef.fetch_add(1u, cuda::memory_order_acq_rel);
#else
        const unsigned int ticket = atomicAdd(tickets, 1u);
#endif
#if defined(BROKEN_FENCE_AFTER)
        __threadfence();  // after the ticket: orders nothing that matters
#endif
#if defined(BROKEN_LAST_TICKET)
        drewLast = (ticket == gridDim.x);
#else
        drewLast = (ticket == gridDim.x - 1);
#endif
#if !defined(BROKEN_NO_READER_FENCE) && !defined(BROKEN_FENCE_AFTER) && \
    !defined(ALT_ATOMIC_REF)
        if (drewLast) {
            __threadfence();
        }
#endif
    }
    __syncthreads();
    if (drewLast) {
        addUpPartials(scratch, partials, total);
    }
}

__global__ void brokenCountDevice(unsigned int* tally) {
#if defined(BROKEN_BLOCK_SCOPE)
    atomicAdd_block(tally, 1u);
#else
    atomicAdd(tally, 1u);
#endif
}

#define lastBlockSumFence brokenSumFence
#define countAtDeviceScope brokenCountDevice
#endif  // deliberately broken builds

// ---------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------

// The answer both sum kernels must produce. Accumulated in double so the
// reference cannot share a rounding mistake with the kernels, though on an
// all-ones input under 2^24 neither side rounds at all.
static double hostSum(const std::vector<float>& values) {
    double acc = 0.0;
    for (float v : values) {
        acc += static_cast<double>(v);
    }
    return acc;
}

struct SumOutcome {
    int wrong = 0;
    int firstWrongLaunch = 0;  // 1-based; 0 when none went wrong
    float totalThere = 0.0f;   // what that launch produced
};

// Launches one sum kernel kLaunches times and counts the wrong totals.
//
// `partials`, `total` and `tickets` are all cleared before each launch.
// Clearing `partials` is the one that matters: left over from the previous
// launch it would already hold the right numbers, and a partial read too
// early would come back right by accident.
static SumOutcome launchSums(bool fenced, const DeviceArray<float>& in,
                             const DeviceArray<float>& partials,
                             const DeviceArray<float>& total,
                             const DeviceArray<unsigned int>& tickets,
                             float want) {
    SumOutcome outcome;
    for (int launch = 1; launch <= kLaunches; ++launch) {
        CHECK(cudaMemset(partials.get(), 0, partials.bytes()));
        CHECK(cudaMemset(total.get(), 0, total.bytes()));
#if !defined(BROKEN_TICKET_RESET)
        CHECK(cudaMemset(tickets.get(), 0, tickets.bytes()));
#else
        if (launch == 1) {
            CHECK(cudaMemset(tickets.get(), 0, tickets.bytes()));
        }
#endif

        if (fenced) {
            lastBlockSumFence<<<kGridBlocks, kBlockThreads>>>(
                in.get(), partials.get(), total.get(), tickets.get(),
                kFloats);
        } else {
            lastBlockSumNoFence<<<kGridBlocks, kBlockThreads>>>(
                in.get(), partials.get(), total.get(), tickets.get(),
                kFloats);
        }
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());

        float got = 0.0f;
        CHECK(cudaMemcpy(&got, total.get(), sizeof(float),
                         cudaMemcpyDeviceToHost));
        // == on floats on purpose: every value involved is an exact whole
        // number, so any difference is an ordering failure, never rounding.
        if (got != want) {
            if (outcome.wrong == 0) {
                outcome.firstWrongLaunch = launch;
                outcome.totalThere = got;
            }
            ++outcome.wrong;
        }
    }
    return outcome;
}

struct TallyOutcome {
    int wrong = 0;
    unsigned int lowest = kTallyWant;
};

// Launches one counter kernel kLaunches times. The lowest count is kept as
// well as the number of wrong launches: an atomic used at too narrow a scope
// undercounts instead of failing loudly, and by how much is the interesting
// half of the answer.
static TallyOutcome launchTallies(bool deviceScope,
                                  const DeviceArray<unsigned int>& tally) {
    TallyOutcome outcome;
    for (int launch = 1; launch <= kLaunches; ++launch) {
        CHECK(cudaMemset(tally.get(), 0, tally.bytes()));
        if (deviceScope) {
            countAtDeviceScope<<<kGridBlocks, kBlockThreads>>>(tally.get());
        } else {
            countAtBlockScope<<<kGridBlocks, kBlockThreads>>>(tally.get());
        }
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());

        unsigned int got = 0;
        CHECK(cudaMemcpy(&got, tally.get(), sizeof(unsigned int),
                         cudaMemcpyDeviceToHost));
        if (got != kTallyWant) {
            ++outcome.wrong;
        }
        if (got < outcome.lowest) {
            outcome.lowest = got;
        }
    }
    return outcome;
}

static void printSumRow(const char* name, const SumOutcome& o, float want,
                        bool gated) {
    if (o.wrong == 0) {
        std::printf("%-20s  %8d  %5d  %16s  %11s  %8s  %5s\n", name, kLaunches,
                    o.wrong, "-", "-", "-", gated ? "yes" : "no");
    } else {
        std::printf("%-20s  %8d  %5d  %16d  %11.9g  %8.9g  %5s\n", name,
                    kLaunches, o.wrong, o.firstWrongLaunch,
                    static_cast<double>(o.totalThere),
                    static_cast<double>(want - o.totalThere),
                    gated ? "yes" : "no");
    }
}

static void printTallyRow(const char* name, const TallyOutcome& o,
                          bool gated) {
    std::printf("%-20s  %8d  %5d  %12u  %8u  %8u  %5s\n", name, kLaunches,
                o.wrong, o.lowest, kTallyWant - o.lowest, kTallyWant,
                gated ? "yes" : "no");
}

// Everything the lesson does. Device memory lives in DeviceArray objects
// local to this function, so whether it returns or a CHECK throws, every
// buffer is freed before control is back in main().
static int runLesson() {
#if defined(ALT_ATOMIC_REF)
    std::printf("ALTERNATIVE BUILD: the ticket is a cuda::atomic_ref "
                "acquire-release add; nothing is broken\n");
#elif defined(BROKEN_BUILD)
    std::printf("DELIBERATELY BROKEN BUILD: a gated kernel or the host's "
                "reset carries a bug\n");
#endif
    int device = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    const cudaError_t propsRead = cudaGetDeviceProperties(&prop, device);
    CHECK(propsRead);
    std::printf("GPU: %s (compute capability %d.%d, %d SMs)\n", prop.name,
                prop.major, prop.minor, prop.multiProcessorCount);

    // How the grid-stride loop covers the input.
    const std::size_t fullPasses = kFloats / kGridThreads;
    const std::size_t leftover = kFloats % kGridThreads;
    // A block whose threads all stop after the full passes adds exactly this
    // many ones. No partial is smaller, so a partial read while it is still
    // 0 costs the total at least this much.
    const std::size_t smallestPartial = fullPasses * kBlockThreads;

    std::printf("input: %zu floats, every one 1.0f (%zu bytes)\n", kFloats,
                kFloats * sizeof(float));
    std::printf("grid: %d blocks x %d threads = %zu threads, %d launches per "
                "kernel\n",
                kGridBlocks, kBlockThreads, kGridThreads, kLaunches);
    std::printf("grid-stride loop: %zu full passes, then %zu elements in "
                "pass %zu\n",
                fullPasses, leftover, fullPasses + 1);
    std::printf("smallest block partial: %zu, so one partial read before it "
                "lands leaves the total short by at least %zu\n",
                smallestPartial, smallestPartial);
    std::printf("nothing in this program is timed\n");

    std::vector<float> hostIn(kFloats, 1.0f);
    const float want = static_cast<float>(hostSum(hostIn));

    DeviceArray<float> in(kFloats);
    DeviceArray<float> partials(kGridBlocks);
    DeviceArray<float> total(1);
    DeviceArray<unsigned int> tickets(1);
    DeviceArray<unsigned int> tally(1);
    CHECK(cudaMemcpy(in.get(), hostIn.data(), in.bytes(),
                     cudaMemcpyHostToDevice));

    std::printf("\nreference total: %.9g\n\n", static_cast<double>(want));

    std::printf("%-20s  %8s  %5s  %16s  %11s  %8s  %5s\n", "sum kernel",
                "launches", "wrong", "first bad launch", "total there",
                "short by", "gated");
    std::printf("%-20s  %8s  %5s  %16s  %11s  %8s  %5s\n",
                "--------------------", "--------", "-----", "----------------",
                "-----------", "--------", "-----");
    const SumOutcome noFence =
        launchSums(false, in, partials, total, tickets, want);
    printSumRow("lastBlockSumNoFence", noFence, want, false);
    const SumOutcome fence =
        launchSums(true, in, partials, total, tickets, want);
    printSumRow("lastBlockSumFence", fence, want, true);

    std::printf("\n%-20s  %8s  %5s  %12s  %8s  %8s  %5s\n", "tally kernel",
                "launches", "wrong", "lowest count", "lost", "want",
                "gated");
    std::printf("%-20s  %8s  %5s  %12s  %8s  %8s  %5s\n",
                "--------------------", "--------", "-----", "------------",
                "--------", "--------", "-----");
    const TallyOutcome deviceScope = launchTallies(true, tally);
    printTallyRow("countAtDeviceScope", deviceScope, true);
    const TallyOutcome blockScope = launchTallies(false, tally);
    printTallyRow("countAtBlockScope", blockScope, false);

    // The undefined kernels' results, printed beside the gated ones and
    // never judged: a race owes nobody a particular answer.
    std::printf("\nreported, not gated: lastBlockSumNoFence wrong on %d of %d "
                "launches, countAtBlockScope wrong on %d of %d\n",
                noFence.wrong, kLaunches, blockScope.wrong, kLaunches);

    // The gates. Plain branches, not assert(): a release build defines
    // NDEBUG, and NDEBUG compiles assert() away.
    int status = EXIT_SUCCESS;
    if (fence.wrong != 0) {
        std::fprintf(stderr,
                     "lastBlockSumFence missed the reference on %d of %d "
                     "launches: the fenced hand-off must always hold\n",
                     fence.wrong, kLaunches);
        status = EXIT_FAILURE;
    }
    if (deviceScope.wrong != 0) {
        std::fprintf(stderr,
                     "countAtDeviceScope lost increments on %d of %d "
                     "launches: a device-scope atomic must never do that\n",
                     deviceScope.wrong, kLaunches);
        status = EXIT_FAILURE;
    }
    if (status == EXIT_SUCCESS) {
        std::printf("\nboth gated kernels were exact on every launch\n");
    }

    // How many blocks this GPU holds at once. When the whole grid fits, no
    // block finishes before the last ones start, and the last ticket is
    // drawn while other partials may still be on their way.
    int perSmNoFence = 0;
    int perSmFence = 0;
    cudaFuncAttributes noFenceAttr{};
    cudaFuncAttributes fenceAttr{};
    CHECK(cudaFuncGetAttributes(&noFenceAttr, lastBlockSumNoFence));
    CHECK(cudaFuncGetAttributes(&fenceAttr, lastBlockSumFence));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSmNoFence, lastBlockSumNoFence, kBlockThreads, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSmFence, lastBlockSumFence, kBlockThreads, 0));
    const int perSm = perSmNoFence < perSmFence ? perSmNoFence : perSmFence;
    const int resident = perSm * prop.multiProcessorCount;
    std::printf("\nsum kernels on this GPU: %d and %d registers per thread, "
                "%zu bytes of shared memory per block, %d blocks per SM\n",
                noFenceAttr.numRegs, fenceAttr.numRegs,
                fenceAttr.sharedSizeBytes, perSm);
    std::printf("resident at once: %d blocks (%d SMs x %d) for a grid of %d: "
                "%s\n",
                resident, prop.multiProcessorCount, perSm, kGridBlocks,
                resident >= kGridBlocks ? "one wave" : "several waves");
    return status;
}

int main() {
    // Line-buffered stdout, so that when stdout and stderr are captured
    // together a failure message lands right after the row it explains.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);

    int status = EXIT_FAILURE;
    try {
        status = runLesson();
    } catch (const CudaFailure&) {
        // Already printed where it happened; the buffers are already freed.
        status = EXIT_FAILURE;
    }
    if (g_freeFailures != 0) {
        status = EXIT_FAILURE;
    }
    if (status != EXIT_SUCCESS) {
        std::fprintf(stderr, "memory_model: a check failed (exit status %d)\n",
                     status);
    }
    return status;
}
