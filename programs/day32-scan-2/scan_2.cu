// Day 32: prefix sum, part 2. Blelloch's tree, bank conflicts, and a scan
// of ten million elements in three launches.
//
// One block of 1024 threads scans a tile of 4096 floats in shared memory,
// three ways:
//
//   hillis-steele      day 31's double-buffered scan, stretched to four
//                      elements per thread. n log2(n) - (n - 1) adds.
//   blelloch, plain    the work-efficient tree: an up-sweep that is a
//                      reduction, then a down-sweep that hands every node's
//                      value to its children. 2 (n - 1) adds.
//   blelloch, padded   the same tree with one spare shared word after every
//                      32 and another after every 1024, which moves the
//                      words the deep levels hit into different banks.
//
// Before anything runs, the program prints a model the compiler has already
// evaluated: adds per tile, and the shared-memory requests each level of
// each tree costs once bank conflicts split it. static_asserts pin the
// central facts, so the build fails if the model stops saying them.
//
// Ten million elements are 2442 tiles, and a tile knows nothing of the tiles
// before it. Every variant therefore runs as the same three launches:
//
//   1. scan every tile, leaving the tile's total in tileSums[tile];
//   2. scan the 2442 totals with the same kernel in a single block;
//   3. add each tile's scanned total to every element of that tile.
//
// Launch 2 is one block, so it can scan at most 4096 totals. Past
// 4096 x 4096 elements the program refuses, and says how many tiles would
// have no offset, instead of printing a scan that is wrong after tile 4095.
//
// Every variant is checked exactly against a CPU scan before it is timed.
// The clock is CUDA events, one warm-up run, then several timed runs of
// which the median is reported; the measurements take turns, and before
// every sample a kernel reads a buffer four times the size of L2, so each
// sample starts from the same cache state whatever ran before it. A plain
// device copy of the same array is the bandwidth baseline.
//
// Deliberately broken builds (-DBROKEN_..., listed before the broken
// copies below) are built and run by verifier/scripts/broken-variants.sh.
// One of them, a missing barrier between two levels that warp 0 works
// alone, passes the exact check and racecheck alike; that script's barrier
// gate, which reads the compiled code, is what fails it.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -o scan_2 scan_2.cu
// Run:   ./scan_2
//
// Verified 2026-12-05 on an NVIDIA H200 (compute capability 9.0), driver
// 580.159.04, CUDA 13.0 (V13.0.88), built with -O3 -arch=sm_90. Transcript:
// evidence/day32-scan-2/run-2026-12-05-2.txt

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "../common/cuda_check.h"

// ---------------------------------------------------------------------------
// Error handling and ownership
// ---------------------------------------------------------------------------

// CHECK, CHECK_LAUNCH and CudaFailure are the course's shared error check
// (programs/common/cuda_check.h).

// Destructors cannot throw; a failed release is counted here and main()
// turns it into a failing exit status.
static int g_releaseFailures = 0;

static void noteReleaseError(cudaError_t code, const char* what) {
    if (code != cudaSuccess) {
        printCudaError(code, what, __FILE__, __LINE__);
        ++g_releaseFailures;
    }
}

template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        CHECK(cudaMalloc(&ptr_, count_ * sizeof(T)));
    }
    ~DeviceArray() {
        if (ptr_ != nullptr) {
            noteReleaseError(cudaFree(ptr_), "cudaFree");
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

// A start and a stop event, destroyed together.
class EventPair {
public:
    EventPair() {
        CHECK(cudaEventCreate(&start_));
        try {
            CHECK(cudaEventCreate(&stop_));
        } catch (const CudaFailure&) {
            noteReleaseError(cudaEventDestroy(start_), "cudaEventDestroy");
            throw;
        }
    }
    ~EventPair() {
        noteReleaseError(cudaEventDestroy(stop_), "cudaEventDestroy");
        noteReleaseError(cudaEventDestroy(start_), "cudaEventDestroy");
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;

    cudaEvent_t start() const { return start_; }
    cudaEvent_t stop() const { return stop_; }

private:
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
};

// ---------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------

constexpr unsigned int kLanes = 32;  // lanes per warp
constexpr unsigned int kBanks = 32;  // shared-memory banks, one word wide

// A tile is 4096 floats (16 KiB as a flat array) scanned by one block of
// 1024 threads, four elements each. The tile size is what sets the
// pipeline's reach: launch 2, a single block, scans one tile's worth of
// totals, so 4096 tiles of 4096 elements is the most it covers, whatever
// the block size (256 threads of sixteen elements would reach as far). The
// block is 1024 so that each thread handles only four elements; it allows
// two blocks per SM on an H200, which the program prints.
constexpr unsigned int kTileElems = 4096;
constexpr unsigned int kBlockThreads = 1024;
constexpr unsigned int kPerThread = kTileElems / kBlockThreads;

// Ten million. It is not a multiple of 4096 (the last tile holds 1664
// elements) nor of 1024, so every bounds test cuts something off.
constexpr std::size_t kElements = 10000000;

// Timed runs per measurement, after one untimed warm-up run. Odd, so the
// median is one actual run rather than an average of two.
constexpr int kTimedRuns = 21;

// The input: 1.0f or 2.0f, chosen by the top two bits of an integer hash of
// the index (2.0f when both are set, so about one element in four).
//
// Why this is exact. A float holds every whole number up to 2^24 =
// 16777216 exactly. Every value any of the three algorithms ever forms (a
// tree node, a tile total, an offset, an offset plus a local prefix) is a
// sum of some of the inputs, so a whole number no larger than the grand
// total, which is about 12.5 million; the program adds it up on the CPU and
// refuses to run the check if it ever reached 2^24. No order of additions
// can round, so the GPU must match the CPU bit for bit. The check is ==
// with no tolerance, and a kernel that drops one element is off by one.
//
// Why a hash and not a repeating pattern. With all ones, reading the right
// number of elements from the wrong addresses still gives the right sums.
// With a pattern of period four (an earlier version of this program), every
// 4096-element tile holds the same values, so a kernel that scans tile 0
// for every block passes. A hash has no period: each tile's values are its
// own. The output buffers are also filled with 0xFF bytes (NaN in every
// float) before the check, so an element no kernel stores cannot pass.
constexpr float inputAt(std::size_t i) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return (h >> 30) == 3u ? 2.0f : 1.0f;
}

constexpr unsigned int log2Exact(unsigned int n) {
    unsigned int bits = 0;
    for (unsigned int v = n; v > 1; v /= 2) {
        ++bits;
    }
    return bits;
}

// Levels of the tree over one tile, and steps of Hillis-Steele over it.
constexpr unsigned int kLevels = log2Exact(kTileElems);

static_assert((kTileElems & (kTileElems - 1)) == 0,
              "the tree halves and doubles, so the tile is a power of two");
static_assert(kTileElems % kBlockThreads == 0 && kBlockThreads % kLanes == 0,
              "every thread owns the same number of elements, and a block "
              "is a whole number of warps");
static_assert(kBlockThreads <= 1024,
              "1024 threads is the most one block may have");
static_assert(kLevels == 12, "a 4096-element tile is a 12-level tree");
static_assert(kElements % kTileElems != 0 && kElements % kBlockThreads != 0,
              "the element count must leave a partial last tile");
static_assert(inputAt(0) != inputAt(kTileElems) ||
                  inputAt(1) != inputAt(kTileElems + 1) ||
                  inputAt(2) != inputAt(kTileElems + 2) ||
                  inputAt(3) != inputAt(kTileElems + 3),
              "the input must not repeat from one tile to the next");

// ---------------------------------------------------------------------------
// Shared-memory layouts for the tree
// ---------------------------------------------------------------------------
//
// A layout maps element i of the tile to the shared word that holds it.
// The tree kernel is a template over the layout and sends every shared
// access through word(), so padding is all or nothing: an index that
// skipped the mapping would read a word nobody wrote.

struct FlatTree {
    __host__ __device__ static constexpr unsigned int word(unsigned int i) {
        return i;
    }
};

// One spare word after every 32: the first term of GPU Gems 3's
// CONFLICT_FREE_OFFSET alone, as many later versions of that macro have it.
// No kernel uses it; the model below prints what it would cost.
struct PadEvery32 {
    __host__ __device__ static constexpr unsigned int word(unsigned int i) {
        return i + i / kBanks;
    }
};

// One spare word after every 32 and one more after every 32 x 32 = 1024.
// With the first term alone, two lanes whose elements are 2 * stride apart
// end up 2 * stride * 33 / 32 words apart once stride reaches 16: 33 words
// at stride 16, an odd distance, so the warp covers all 32 banks. At stride
// 32 and beyond the distance (66, 132, ...) is even again and lanes start
// sharing banks. The second term moves every 1024-element stretch of the
// tile one further word along, which separates those lanes again; the model
// below checks that no level keeps a conflict.
// snippet: padded-word
struct PaddedTree {
    __host__ __device__ static constexpr unsigned int word(unsigned int i) {
        return i + i / 32u + i / 1024u;
    }
};
// end snippet: padded-word

// Shared words a layout needs: one past the word of the last element.
template <typename Layout>
constexpr unsigned int kTreeWords = Layout::word(kTileElems - 1) + 1;

static_assert(PaddedTree::word(31) == 31 && PaddedTree::word(32) == 33 &&
                  PaddedTree::word(1023) == 1054 &&
                  PaddedTree::word(1024) == 1057,
              "the padded layout skips one word after each 32 elements and "
              "one more after each 1024");
static_assert(kTreeWords<FlatTree> == 4096 && kTreeWords<PadEvery32> == 4223 &&
                  kTreeWords<PaddedTree> == 4226,
              "the padded tiles need 127 and 130 extra words");

// ---------------------------------------------------------------------------
// The compile-time model: adds and shared-memory requests per tile
// ---------------------------------------------------------------------------
//
// Unit: one request is one warp touching one word per lane at one level.
// When k of a warp's lanes hit the same bank at different words, the
// hardware serves them one after another, so that level costs the warp k
// requests instead of one; k is the conflict degree. Each level of either
// tree, and each step of Hillis-Steele, is charged once per warp that has
// at least one active lane, times the worst degree among its accesses. The
// loads into shared memory and the stores out of it are conflict-free and
// the same in every variant, so the model leaves them out.
//
// Tree level `stride`: pair k adds word (2k + 1) stride - 1 into word
// (2k + 2) stride - 1, and consecutive lanes take consecutive pairs, so in
// the flat layout lanes sit 2 * stride words apart.

// snippet: warp-degree
// Lanes sharing the busiest bank when a warp's lanes touch words[0..count).
// The words are always distinct here, so every lane past the first in a
// bank costs one more pass.
constexpr unsigned int busiestBank(const unsigned int* words,
                                   unsigned int count) {
    unsigned int perBank[kBanks] = {};
    unsigned int worst = 0;
    for (unsigned int lane = 0; lane < count; ++lane) {
        const unsigned int hits = ++perBank[words[lane] % kBanks];
        worst = hits > worst ? hits : worst;
    }
    return worst;
}

// Active lanes (pairs) at one tree level.
constexpr unsigned int treeLanes(unsigned int stride) {
    return kTileElems / (2 * stride);
}

constexpr unsigned int warpsFor(unsigned int lanes) {
    return (lanes + kLanes - 1) / kLanes;
}

// Conflict degree of warp `warp` at tree level `stride`: the worse of its
// access to the left words and its access to the right words.
template <typename Layout>
constexpr unsigned int treeWarpDegree(unsigned int stride, unsigned int warp) {
    unsigned int worst = 0;
    for (unsigned int side = 1; side <= 2; ++side) {
        unsigned int words[kLanes] = {};
        unsigned int count = 0;
        for (unsigned int lane = 0; lane < kLanes; ++lane) {
            const unsigned int pair = warp * kLanes + lane;
            if (pair < treeLanes(stride)) {
                words[count++] = Layout::word((2 * pair + side) * stride - 1);
            }
        }
        const unsigned int degree = busiestBank(words, count);
        worst = degree > worst ? degree : worst;
    }
    return worst;
}
// end snippet: warp-degree

// The degree the table prints for a level: its worst warp.
template <typename Layout>
constexpr unsigned int treeLevelDegree(unsigned int stride) {
    unsigned int worst = 0;
    for (unsigned int w = 0; w < warpsFor(treeLanes(stride)); ++w) {
        const unsigned int d = treeWarpDegree<Layout>(stride, w);
        worst = d > worst ? d : worst;
    }
    return worst;
}

// snippet: request-totals
// Requests one level costs: every active warp, times its own degree.
template <typename Layout>
constexpr unsigned int treeLevelRequests(unsigned int stride) {
    unsigned int total = 0;
    for (unsigned int w = 0; w < warpsFor(treeLanes(stride)); ++w) {
        total += treeWarpDegree<Layout>(stride, w);
    }
    return total;
}

// One sweep over every level. The down-sweep visits the same levels with
// the same indices in the opposite order, so it costs exactly as much.
template <typename Layout>
constexpr unsigned int upSweepRequests() {
    unsigned int total = 0;
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        total += treeLevelRequests<Layout>(stride);
    }
    return total;
}

template <typename Layout>
constexpr unsigned int treeRequests() {
    return 2 * upSweepRequests<Layout>();
}
// end snippet: request-totals

// The worst degree on any level of a tree.
template <typename Layout>
constexpr unsigned int treeWorstDegree() {
    unsigned int worst = 0;
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        const unsigned int d = treeLevelDegree<Layout>(stride);
        worst = d > worst ? d : worst;
    }
    return worst;
}

// Hillis-Steele, step `distance`: every element e is written, from words e
// and e - distance of the other half. Consecutive lanes take consecutive
// elements, so each warp reads and writes 32 consecutive words: degree 1,
// every warp, every step.
constexpr unsigned int hillisSteeleRequests() {
    unsigned int total = 0;
    for (unsigned int distance = 1; distance < kTileElems; distance *= 2) {
        for (unsigned int w = 0; w < kTileElems / kLanes; ++w) {
            unsigned int own[kLanes] = {};
            unsigned int behind[kLanes] = {};
            unsigned int behindCount = 0;
            for (unsigned int lane = 0; lane < kLanes; ++lane) {
                const unsigned int e = w * kLanes + lane;
                own[lane] = e;
                if (e >= distance) {
                    behind[behindCount++] = e - distance;
                }
            }
            const unsigned int a = busiestBank(own, kLanes);
            const unsigned int b = busiestBank(behind, behindCount);
            total += a > b ? a : b;
        }
    }
    return total;
}

// The same traffic counted per access instead of per level. A level of the
// up-sweep issues three shared accesses per warp (load left, load right,
// store right), a level of the down-sweep four (load both, store both), a
// Hillis-Steele step three (load own, load behind, store), the load behind
// skipped by a warp whose lanes all lie below the distance. Each access
// costs its own conflict degree. The per-level unit above charges a level
// once, at its worst access, which flatters the plain tree; this count is
// printed beside it so that neither unit is mistaken for the other.
template <typename Layout>
constexpr unsigned int treeSideDegree(unsigned int stride, unsigned int warp,
                                      unsigned int side) {
    unsigned int words[kLanes] = {};
    unsigned int count = 0;
    for (unsigned int lane = 0; lane < kLanes; ++lane) {
        const unsigned int pair = warp * kLanes + lane;
        if (pair < treeLanes(stride)) {
            words[count++] = Layout::word((2 * pair + side) * stride - 1);
        }
    }
    return busiestBank(words, count);
}

template <typename Layout>
constexpr unsigned int treeAccessRequests() {
    unsigned int total = 0;
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        for (unsigned int w = 0; w < warpsFor(treeLanes(stride)); ++w) {
            const unsigned int left = treeSideDegree<Layout>(stride, w, 1);
            const unsigned int right = treeSideDegree<Layout>(stride, w, 2);
            total += left + 2 * right;        // up: load, load, store
            total += 2 * left + 2 * right;    // down: load, load, store, store
        }
    }
    return total;
}

constexpr unsigned int hillisSteeleAccessRequests() {
    unsigned int total = 0;
    for (unsigned int distance = 1; distance < kTileElems; distance *= 2) {
        for (unsigned int w = 0; w < kTileElems / kLanes; ++w) {
            const bool anyBehind = (w + 1) * kLanes - 1 >= distance;
            total += anyBehind ? 3 : 2;  // consecutive words: degree 1 each
        }
    }
    return total;
}

static_assert(hillisSteeleAccessRequests() == 4481 &&
                  treeAccessRequests<FlatTree>() == 5369 &&
                  treeAccessRequests<PadEvery32>() == 1029 &&
                  treeAccessRequests<PaddedTree>() == 924,
              "counted per access: 4481 Hillis-Steele, 5369 plain tree, 1029 "
              "one-term padding, 924 two-term padding");

// Adds per tile. Hillis-Steele's step at distance d adds for every element
// with something d to its left; the tree adds once per pair on the way up
// (n - 1 pairs in all) and once per pair on the way down.
constexpr unsigned int hillisSteeleAdds() {
    unsigned int adds = 0;
    for (unsigned int d = 1; d < kTileElems; d *= 2) {
        adds += kTileElems - d;
    }
    return adds;
}

constexpr unsigned int treeAdds() {
    unsigned int adds = 0;
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        adds += treeLanes(stride);
    }
    return 2 * adds;
}

// The claims the lesson rests on, checked by the compiler.
// snippet: model-asserts
static_assert(hillisSteeleAdds() == 45057 && treeAdds() == 8190,
              "per 4096-element tile: 45057 adds for Hillis-Steele, 8190 "
              "for the tree");
static_assert(treeLevelDegree<FlatTree>(16) == 32,
              "plain tree, stride 16: lanes 32 words apart, all 32 of a "
              "warp in one bank");
static_assert(treeLevelDegree<PadEvery32>(16) == 1 &&
                  treeLevelDegree<PaddedTree>(16) == 1,
              "one spare word every 32 makes the spacing 33 at stride 16, "
              "which spreads the warp over all 32 banks");
static_assert(treeWorstDegree<PadEvery32>() == 4,
              "with one term only, strides 64 to 512 keep 4-way conflicts");
static_assert(treeWorstDegree<PaddedTree>() == 1,
              "the two-term padding leaves no conflict on any level");
static_assert(hillisSteeleRequests() == 1536 &&
                  treeRequests<FlatTree>() == 1534 &&
                  treeRequests<PadEvery32>() == 294 &&
                  treeRequests<PaddedTree>() == 264,
              "requests per tile: 1536 Hillis-Steele, 1534 plain tree, 294 "
              "one-term padding, 264 two-term padding");
// end snippet: model-asserts

// The layouts the two tree rows launch. The rows of kVariants (what the
// model prints for each kernel), launchTileScan and the occupancy table all
// name these two, so the printed row is always the model of the kernel that
// row launches: change a layout here and every one of them follows.
using PlainLayout = FlatTree;
using PaddedLayout = PaddedTree;

// Shared memory each tile kernel declares, against the 48 KiB a block may
// declare statically.
constexpr std::size_t kHillisSteeleShared = 2 * kTileElems * sizeof(float);
constexpr std::size_t kFlatShared = kTreeWords<PlainLayout> * sizeof(float);
constexpr std::size_t kPaddedShared = kTreeWords<PaddedLayout> * sizeof(float);
static_assert(kHillisSteeleShared <= 48 * 1024 && kPaddedShared <= 48 * 1024,
              "every tile kernel fits in static shared memory");

// ---------------------------------------------------------------------------
// The refusal
// ---------------------------------------------------------------------------

constexpr std::size_t tilesFor(std::size_t n, std::size_t tile) {
    return (n + tile - 1) / tile;
}

// snippet: refusal-check
// How many tiles would be left without an offset if n elements went through
// the three launches with tiles of `tile` elements. Launch 2 is a single
// block scanning one tile's worth of tile totals, so it covers `tile` tiles
// and no more. Anything past that needs a further level of the same scheme,
// which this program does not build; it refuses instead.
constexpr std::size_t tilesWithoutOffset(std::size_t n, std::size_t tile) {
    const std::size_t tiles = tilesFor(n, tile);
    return tiles > tile ? tiles - tile : 0;
}
// end snippet: refusal-check

constexpr std::size_t kLargestAccepted =
    static_cast<std::size_t>(kTileElems) * kTileElems;

static_assert(tilesFor(kElements, kTileElems) == 2442 &&
                  tilesWithoutOffset(kElements, kTileElems) == 0,
              "ten million elements are 2442 tiles, inside one block's reach");
static_assert(tilesWithoutOffset(kLargestAccepted, kTileElems) == 0 &&
                  tilesWithoutOffset(kLargestAccepted + 1, kTileElems) == 1,
              "4096 x 4096 elements is the most the three launches accept");
static_assert(tilesWithoutOffset(kElements, 1024) == 8742,
              "with 1024-element tiles, ten million would leave 8742 tiles "
              "without an offset");

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
//
// Launch for every kernel here: exactly kBlockThreads threads per block
// (the loops step by that constant), and one block per tile.
//
// Global memory: element e of a tile is handled by thread e % 1024 in
// round e / 1024, so in every round a warp reads or writes 32 consecutive
// floats, one 128-byte run.

// Hillis-Steele over a 4096-element tile: day 31's two-half scan with four
// elements per thread. Writes the tile's exclusive scan (each element gets
// the inclusive prefix of its left neighbour, element 0 gets 0) and the
// tile's total, the last inclusive prefix, which launch 2 needs.
// snippet: hillis-steele-tile
__global__ void __launch_bounds__(kBlockThreads)
    hillisSteeleTile(const float* __restrict__ in, float* __restrict__ out,
                     float* __restrict__ tileSums, std::size_t n) {
    __shared__ float halves[2 * kTileElems];
    float* from = halves;
    float* to = halves + kTileElems;

    const unsigned int t = threadIdx.x;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;

    // Elements past n load as 0, which leaves every prefix unchanged.
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        from[e] = (base + e < n) ? in[base + e] : 0.0f;
    }
    __syncthreads();

    for (unsigned int d = 1; d < kTileElems; d *= 2) {
        for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
            to[e] = (e >= d) ? from[e] + from[e - d] : from[e];
        }
        // Between this step's reads of `from` and the next step's writes
        // to it (it becomes `to` after the swap).
        __syncthreads();
        float* const written = to;
        to = from;
        from = written;
    }

    if (t == 0) {
        tileSums[blockIdx.x] = from[kTileElems - 1];
    }
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
            out[base + e] = (e == 0) ? 0.0f : from[e - 1];
        }
    }
}
// end snippet: hillis-steele-tile

// The up-sweep: a tree reduction that keeps its intermediate sums. Level
// `stride` has tileElems / (2 * stride) pairs, more than the block has
// threads at the first level, so each thread takes pairs t, t + 1024, ...
// The barrier is outside the pair loop: every thread reaches every barrier,
// pairs or not. (Returning early instead would not hurt the up-sweep,
// whose next level is worked by threads that stayed, but the down-sweep's
// wider levels and the store loop need every thread back.)
// snippet: up-sweep
template <typename Layout>
__device__ void upSweep(float* tree) {
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        const unsigned int pairs = kTileElems / (2 * stride);
        for (unsigned int k = threadIdx.x; k < pairs; k += kBlockThreads) {
            const unsigned int left = (2 * k + 1) * stride - 1;
            const unsigned int right = left + stride;
            tree[Layout::word(right)] += tree[Layout::word(left)];
        }
        __syncthreads();
    }
}
// end snippet: up-sweep

// The down-sweep: the same levels from the top. Each node passes its own
// value to its left child and that value plus the left child's old value
// (the sum of the left subtree) to its right child. With 0 at the root,
// every leaf ends holding the sum of everything to its left.
// snippet: down-sweep
template <typename Layout>
__device__ void downSweep(float* tree) {
    for (unsigned int stride = kTileElems / 2; stride > 0; stride /= 2) {
        const unsigned int pairs = kTileElems / (2 * stride);
        for (unsigned int k = threadIdx.x; k < pairs; k += kBlockThreads) {
            const unsigned int left = Layout::word((2 * k + 1) * stride - 1);
            const unsigned int right = Layout::word((2 * k + 2) * stride - 1);
            const float leftSubtree = tree[left];
            tree[left] = tree[right];
            tree[right] += leftSubtree;
        }
        __syncthreads();
    }
}
// end snippet: down-sweep

// Blelloch over a 4096-element tile, in whichever layout. Writes the
// tile's exclusive scan and its total, like hillisSteeleTile.
// snippet: blelloch-tile
template <typename Layout>
__global__ void __launch_bounds__(kBlockThreads)
    blellochTile(const float* __restrict__ in, float* __restrict__ out,
                 float* __restrict__ tileSums, std::size_t n) {
    __shared__ float tree[kTreeWords<Layout>];

    const unsigned int t = threadIdx.x;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;

    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        tree[Layout::word(e)] = (base + e < n) ? in[base + e] : 0.0f;
    }
    __syncthreads();

    upSweep<Layout>(tree);

    // The root now holds the tile's total. Save it, then clear it: the zero
    // is what makes the down-sweep's result exclusive. In that order, or
    // launch 2 scans a row of zeros.
    if (t == 0) {
        const unsigned int root = Layout::word(kTileElems - 1);
        tileSums[blockIdx.x] = tree[root];
        tree[root] = 0.0f;
    }
    __syncthreads();

    downSweep<Layout>(tree);

    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
            out[base + e] = tree[Layout::word(e)];
        }
    }
}
// end snippet: blelloch-tile

// Launch 3. Adds the scanned total of every tile before this one to each
// element of this tile. No shared memory: one read and one write per
// element, in the same 128-byte runs as the copy below.
// snippet: offset-pass
__global__ void __launch_bounds__(kBlockThreads)
    addTileOffsets(const float* __restrict__ offsets, float* __restrict__ data,
                   std::size_t n) {
    const float offset = offsets[blockIdx.x];
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;
    for (unsigned int e = threadIdx.x; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
            data[base + e] += offset;
        }
    }
}
// end snippet: offset-pass

// The baseline: the same grid, the same access pattern, one read and one
// write per element and nothing else. What a pass over the array costs on
// this card, as close as a kernel gets to it.
// snippet: copy-baseline
__global__ void __launch_bounds__(kBlockThreads)
    copyTiles(const float* __restrict__ in, float* __restrict__ out,
              std::size_t n) {
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;
    for (unsigned int e = threadIdx.x; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
            out[base + e] = in[base + e];
        }
    }
}
// end snippet: copy-baseline

// ---------------------------------------------------------------------------
// Deliberately broken builds
// ---------------------------------------------------------------------------
//
// Each macro swaps in a copy of the tile scan (or of the pipeline) carrying
// one bug the lesson names, so a build with it shows whether the exact
// check can see that bug. None is defined in the lesson's own build.
//
//   BROKEN_TILE0         every block scans tile 0 (in[e], not in[base + e])
//   BROKEN_ROOT_ORDER    the tree clears its root before saving the total
//   BROKEN_PAD_INDEX     the tree's output loop skips Layout::word
//   BROKEN_EARLY_RETURN  a thread with no pair returns from the kernel
//   BROKEN_NO_OFFSETS    the pipeline leaves out launch 3
//   BROKEN_DEEP_BARRIER  no barrier between two levels that warp 0 works
//                        alone (32 pairs or fewer), in either sweep
//
// BROKEN_DEEP_BARRIER is a race inside one warp, which the exact check is
// not expected to see; the header's racecheck run is the check that does.
#if defined(BROKEN_TILE0) || defined(BROKEN_ROOT_ORDER) || \
    defined(BROKEN_PAD_INDEX) || defined(BROKEN_EARLY_RETURN) || \
    defined(BROKEN_NO_OFFSETS) || defined(BROKEN_DEEP_BARRIER)
#define BROKEN_BUILD 1

#if defined(BROKEN_TILE0)
#define BROKEN_SRC(base, e) (e)
#else
#define BROKEN_SRC(base, e) ((base) + (e))
#endif

__global__ void __launch_bounds__(kBlockThreads)
    brokenHillisSteeleTile(const float* __restrict__ in,
                           float* __restrict__ out,
                           float* __restrict__ tileSums, std::size_t n) {
    __shared__ float halves[2 * kTileElems];
    float* from = halves;
    float* to = halves + kTileElems;
    const unsigned int t = threadIdx.x;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        from[e] = (base + e < n) ? in[BROKEN_SRC(base, e)] : 0.0f;
    }
    __syncthreads();
    for (unsigned int d = 1; d < kTileElems; d *= 2) {
        for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
            to[e] = (e >= d) ? from[e] + from[e - d] : from[e];
        }
        __syncthreads();
        float* const written = to;
        to = from;
        from = written;
    }
    if (t == 0) {
        tileSums[blockIdx.x] = from[kTileElems - 1];
    }
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
            out[base + e] = (e == 0) ? 0.0f : from[e - 1];
        }
    }
}

// The tree with its sweeps written inline, so that BROKEN_EARLY_RETURN's
// return leaves the kernel, as the pitfall's does.
template <typename Layout>
__global__ void __launch_bounds__(kBlockThreads)
    brokenBlellochTile(const float* __restrict__ in, float* __restrict__ out,
                       float* __restrict__ tileSums, std::size_t n) {
    __shared__ float tree[kTreeWords<Layout>];
    const unsigned int t = threadIdx.x;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTileElems;
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        tree[Layout::word(e)] =
            (base + e < n) ? in[BROKEN_SRC(base, e)] : 0.0f;
    }
    __syncthreads();
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        const unsigned int pairs = kTileElems / (2 * stride);
#if defined(BROKEN_EARLY_RETURN)
        if (t >= pairs) {
            return;
        }
#endif
        for (unsigned int k = t; k < pairs; k += kBlockThreads) {
            const unsigned int left = (2 * k + 1) * stride - 1;
            tree[Layout::word(left + stride)] += tree[Layout::word(left)];
        }
#if defined(BROKEN_DEEP_BARRIER)
        if (pairs <= kLanes) {
            continue;  // this level and the next are warp 0's alone
        }
#endif
        __syncthreads();
    }
    if (t == 0) {
        const unsigned int root = Layout::word(kTileElems - 1);
#if defined(BROKEN_ROOT_ORDER)
        tree[root] = 0.0f;
        tileSums[blockIdx.x] = tree[root];
#else
        tileSums[blockIdx.x] = tree[root];
        tree[root] = 0.0f;
#endif
    }
    __syncthreads();
    for (unsigned int stride = kTileElems / 2; stride > 0; stride /= 2) {
        const unsigned int pairs = kTileElems / (2 * stride);
        for (unsigned int k = t; k < pairs; k += kBlockThreads) {
            const unsigned int left = Layout::word((2 * k + 1) * stride - 1);
            const unsigned int right = Layout::word((2 * k + 2) * stride - 1);
            const float leftSubtree = tree[left];
            tree[left] = tree[right];
            tree[right] += leftSubtree;
        }
#if defined(BROKEN_DEEP_BARRIER)
        if (2 * pairs <= kLanes) {
            continue;  // this level and the next are warp 0's alone
        }
#endif
        __syncthreads();
    }
    for (unsigned int e = t; e < kTileElems; e += kBlockThreads) {
        if (base + e < n) {
#if defined(BROKEN_PAD_INDEX)
            out[base + e] = tree[e];
#else
            out[base + e] = tree[Layout::word(e)];
#endif
        }
    }
}

// From here on, the launches use the broken copies.
#define hillisSteeleTile brokenHillisSteeleTile
#define blellochTile brokenBlellochTile
#endif  // deliberately broken builds

// ---------------------------------------------------------------------------
// Host side: launching
// ---------------------------------------------------------------------------

enum class Variant { HillisSteele, BlellochPlain, BlellochPadded };

struct VariantInfo {
    Variant variant;
    const char* label;
    unsigned int adds;
    unsigned int requests;
    std::size_t sharedBytes;
};

constexpr int kVariantCount = 3;
constexpr VariantInfo kVariants[kVariantCount] = {
    {Variant::HillisSteele, "hillis-steele", hillisSteeleAdds(),
     hillisSteeleRequests(), kHillisSteeleShared},
    {Variant::BlellochPlain, "blelloch, plain", treeAdds(),
     treeRequests<PlainLayout>(), kFlatShared},
    {Variant::BlellochPadded, "blelloch, padded", treeAdds(),
     treeRequests<PaddedLayout>(), kPaddedShared},
};

// One tile-scan launch of `blocks` blocks.
static void launchTileScan(Variant v, unsigned int blocks, const float* in,
                           float* out, float* tileSums, std::size_t n) {
    switch (v) {
        case Variant::HillisSteele:
            hillisSteeleTile<<<blocks, kBlockThreads>>>(in, out, tileSums, n);
            break;
        case Variant::BlellochPlain:
            blellochTile<PlainLayout>
                <<<blocks, kBlockThreads>>>(in, out, tileSums, n);
            break;
        case Variant::BlellochPadded:
            blellochTile<PaddedLayout>
                <<<blocks, kBlockThreads>>>(in, out, tileSums, n);
            break;
    }
    CHECK_LAUNCH();
}

// The device buffers one scan uses.
struct ScanBuffers {
    const float* in;
    float* out;
    float* tileSums;     // launch 1 writes one total per tile
    float* tileOffsets;  // launch 2 writes their exclusive scan
    float* total;        // launch 2's own tile total: the whole array's sum
};

// The whole scan of n elements: three launches. Returns 0 once they are
// queued, or, when n is beyond what launch 2 can cover, the number of tiles
// that would have no offset, without launching anything.
// snippet: pipeline
static std::size_t scanPipeline(Variant v, const ScanBuffers& b,
                                std::size_t n) {
    const std::size_t missing = tilesWithoutOffset(n, kTileElems);
    if (missing != 0) {
        return missing;
    }
    if (n == 0) {
        return 0;
    }
    const unsigned int tiles =
        static_cast<unsigned int>(tilesFor(n, kTileElems));

    // 1. Every tile scanned on its own; its total left in tileSums.
    launchTileScan(v, tiles, b.in, b.out, b.tileSums, n);
    // 2. One block scans the totals, with the same kernel.
    launchTileScan(v, 1, b.tileSums, b.tileOffsets, b.total, tiles);
    // 3. Every element gets the sum of all the tiles before its own.
    addTileOffsets<<<tiles, kBlockThreads>>>(b.tileOffsets, b.out, n);
    CHECK_LAUNCH();
    return 0;
}
// end snippet: pipeline

#if defined(BROKEN_NO_OFFSETS)
// The pipeline without launch 3: every tile starts again from zero.
static std::size_t brokenScanPipeline(Variant v, const ScanBuffers& b,
                                      std::size_t n) {
    static_cast<void>(&scanPipeline);  // the real one, no longer called
    const std::size_t missing = tilesWithoutOffset(n, kTileElems);
    if (missing != 0 || n == 0) {
        return missing;
    }
    const unsigned int tiles =
        static_cast<unsigned int>(tilesFor(n, kTileElems));
    launchTileScan(v, tiles, b.in, b.out, b.tileSums, n);
    launchTileScan(v, 1, b.tileSums, b.tileOffsets, b.total, tiles);
    return 0;
}
#define scanPipeline brokenScanPipeline
#endif

// ---------------------------------------------------------------------------
// Host side: checking and timing
// ---------------------------------------------------------------------------

// The CPU answer: an exclusive scan of the whole array, in double, written
// to be obviously right. Every value is a whole number below 2^24, so the
// cast to float is exact.
static void exclusiveScanOnHost(const std::vector<float>& in,
                                std::vector<float>& want) {
    double running = 0.0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        want[i] = static_cast<float>(running);
        running += static_cast<double>(in[i]);
    }
}

struct Comparison {
    std::size_t mismatches = 0;
    std::size_t first = 0;  // meaningful only when mismatches != 0
};

static Comparison compareExactly(const std::vector<float>& got,
                                 const std::vector<float>& want) {
    Comparison c;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i]) {
            if (c.mismatches == 0) {
                c.first = i;
            }
            ++c.mismatches;
        }
    }
    return c;
}

// Names the first wrong element, its tile (the block that scanned it) and
// its position inside the tile, so a broken index can be traced.
static void reportMismatch(const char* label, const Comparison& c,
                           const std::vector<float>& got,
                           const std::vector<float>& want) {
    std::fprintf(stderr,
                 "%s: %zu of %zu elements wrong; first is element %zu (block "
                 "%zu, position %zu in the tile): got %.9g, want %.9g\n",
                 label, c.mismatches, got.size(), c.first,
                 c.first / kTileElems, c.first % kTileElems,
                 static_cast<double>(got[c.first]),
                 static_cast<double>(want[c.first]));
}

struct Timing {
    float best = 0.0f;
    float median = 0.0f;
    float worst = 0.0f;
};

// Reads every float of `buf` and keeps none of them. Run before every
// sample, it leaves L2 holding clean lines of a buffer that no measurement
// touches, so each sample starts from the same cache state whatever ran
// before it. (Writing the buffer instead would leave dirty lines, whose
// write-back would then land inside the next sample.)
__global__ void evictL2(const float* __restrict__ buf, std::size_t n,
                        float* __restrict__ sink) {
    float acc = 0.0f;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x +
                         threadIdx.x;
         i < n; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        acc += buf[i];
    }
    if (acc < 0.0f) {  // never: the buffer holds zeros; keeps the loads
        *sink = acc;
    }
}

// snippet: timing-helper
// One thing to time: `work` queues one or more launches.
struct Measurement {
    std::function<void()> work;
    std::vector<float> ms;
};

// Times every measurement kTimedRuns times with CUDA events, interleaved:
// round r runs all of them once, starting at a different one each round,
// so a slow drift of the clock or the temperature spreads over every
// measurement instead of landing on whichever ran last. Each measurement
// first runs once untimed. Before every sample, `evict` reads a buffer
// several times the size of L2, so no sample finds the previous one's data
// in the cache. A sample is the GPU time between two events recorded
// around the launches; they are queued behind the eviction, so the first
// launch is already waiting when the start event completes and a sample
// holds the work, not the start-up of an idle GPU.
static void timeInterleaved(const EventPair& ev,
                            const std::function<void()>& evict,
                            std::vector<Measurement>& all) {
    for (Measurement& m : all) {
        m.work();
        m.ms.clear();
    }
    CHECK(cudaDeviceSynchronize());
    const std::size_t count = all.size();
    for (int round = 0; round < kTimedRuns; ++round) {
        for (std::size_t k = 0; k < count; ++k) {
            Measurement& m = all[(k + static_cast<std::size_t>(round)) % count];
            float sample = 0.0f;
            evict();
            CHECK(cudaEventRecord(ev.start()));
            m.work();
            CHECK(cudaEventRecord(ev.stop()));
            CHECK(cudaEventSynchronize(ev.stop()));
            CHECK(cudaEventElapsedTime(&sample, ev.start(), ev.stop()));
            m.ms.push_back(sample);
        }
    }
}

static Timing summarize(std::vector<float> ms) {
    std::sort(ms.begin(), ms.end());
    Timing t;
    t.best = ms.front();
    t.median = ms[ms.size() / 2];
    t.worst = ms.back();
    return t;
}
// end snippet: timing-helper

// Decimal units throughout: 1 MB = 1e6 bytes, 1 GB/s = 1e9 bytes a second.
static double gbPerSecond(double bytes, float ms) {
    return bytes / (static_cast<double>(ms) * 1.0e6);
}

static double megabytes(double bytes) { return bytes / 1.0e6; }
static double mebibytes(double bytes) { return bytes / (1024.0 * 1024.0); }

// ---------------------------------------------------------------------------
// The lesson
// ---------------------------------------------------------------------------

static void printModel() {
    std::printf("\nTile model, computed at compile time\n");
    std::printf("  %u elements per tile, %u threads per block, %u elements "
                "per thread, %u levels\n",
                kTileElems, kBlockThreads, kPerThread, kLevels);
    std::printf("  %-18s  %9s  %13s  %12s\n", "kernel", "adds/tile",
                "requests/tile", "shared bytes");
    std::printf("  %-18s  %9s  %13s  %12s\n", "------------------",
                "---------", "-------------", "------------");
    for (const VariantInfo& v : kVariants) {
        std::printf("  %-18s  %9u  %13u  %12zu\n", v.label, v.adds,
                    v.requests, v.sharedBytes);
    }
    std::printf("  %-18s  %9u  %13u  %12zu  (model only, not run)\n",
                "blelloch, i/32 pad", treeAdds(), treeRequests<PadEvery32>(),
                kTreeWords<PadEvery32> * sizeof(float));
    std::printf("  hillis-steele makes %.2fx the adds of the tree; padding "
                "cuts the plain tree's requests %.2fx (%u to %u)\n",
                static_cast<double>(hillisSteeleAdds()) / treeAdds(),
                static_cast<double>(treeRequests<FlatTree>()) /
                    treeRequests<PaddedTree>(),
                treeRequests<FlatTree>(), treeRequests<PaddedTree>());
    std::printf("  the second padding term saves %u requests per tile over "
                "i/32 alone (%u to %u)\n",
                treeRequests<PadEvery32>() - treeRequests<PaddedTree>(),
                treeRequests<PadEvery32>(), treeRequests<PaddedTree>());
    std::printf("  requests/tile charges each level (or step) once per warp, "
                "at its worst access\n");
    std::printf("  counted per access instead (each shared load and store at "
                "its own degree):\n");
    std::printf("    hillis-steele %u, blelloch plain %u, i/32 pad %u, "
                "padded %u\n",
                hillisSteeleAccessRequests(), treeAccessRequests<FlatTree>(),
                treeAccessRequests<PadEvery32>(),
                treeAccessRequests<PaddedTree>());

    std::printf("\nUp-sweep levels; the down-sweep repeats them in reverse\n");
    std::printf("  one request = one warp at one level, charged once at the "
                "degree of its worst access\n");
    std::printf("  %6s  %5s  %5s  %-27s  %s\n", "", "", "",
                "conflict degree", "requests (warps x degree)");
    std::printf("  %6s  %5s  %5s  %7s  %7s  %9s  %7s  %7s  %9s\n", "stride",
                "lanes", "warps", "plain", "i/32", "two-term", "plain",
                "i/32", "two-term");
    std::printf("  %6s  %5s  %5s  %7s  %7s  %9s  %7s  %7s  %9s\n", "------",
                "-----", "-----", "-------", "-------", "---------",
                "-------", "-------", "---------");
    for (unsigned int stride = 1; stride < kTileElems; stride *= 2) {
        std::printf("  %6u  %5u  %5u  %7u  %7u  %9u  %7u  %7u  %9u\n", stride,
                    treeLanes(stride), warpsFor(treeLanes(stride)),
                    treeLevelDegree<FlatTree>(stride),
                    treeLevelDegree<PadEvery32>(stride),
                    treeLevelDegree<PaddedTree>(stride),
                    treeLevelRequests<FlatTree>(stride),
                    treeLevelRequests<PadEvery32>(stride),
                    treeLevelRequests<PaddedTree>(stride));
    }
    std::printf("  %-49s  %7u  %7u  %9u\n", "up-sweep total",
                upSweepRequests<FlatTree>(), upSweepRequests<PadEvery32>(),
                upSweepRequests<PaddedTree>());
    std::printf("  %-49s  %7u  %7u  %9u\n", "both sweeps, per tile",
                treeRequests<FlatTree>(), treeRequests<PadEvery32>(),
                treeRequests<PaddedTree>());
    std::printf("  hillis-steele: %u steps x %u warps x degree 1 = %u "
                "requests per tile\n",
                kLevels, kTileElems / kLanes, hillisSteeleRequests());
}

// Prints the refusal arithmetic, then calls the real pipeline entry with
// one element too many and null buffers: if the refusal ever stopped
// refusing, the launch would fault instead of writing past real buffers.
// Returns the number of failed checks.
static int exerciseRefusal() {
    int failures = 0;
    std::printf("\nRefusal check: launch 2 is one block, so it scans at most "
                "%u tile totals\n",
                kTileElems);
    std::printf("  %8s  %4s  %5s  %15s  %13s  %s\n", "elements", "tile",
                "tiles", "one-block limit", "missing tiles", "verdict");
    std::printf("  %8s  %4s  %5s  %15s  %13s  %s\n", "--------", "----",
                "-----", "---------------", "-------------", "--------");
    struct Case {
        std::size_t n;
        std::size_t tile;
    };
    const Case cases[] = {
        {kElements, kTileElems},
        {kLargestAccepted, kTileElems},
        {kLargestAccepted + 1, kTileElems},
        {kElements, 1024},
    };
    for (const Case& c : cases) {
        const std::size_t missing = tilesWithoutOffset(c.n, c.tile);
        std::printf("  %8zu  %4zu  %5zu  %15zu  %13zu  %s\n", c.n, c.tile,
                    tilesFor(c.n, c.tile), c.tile, missing,
                    missing == 0 ? "accepted" : "refused");
    }
    std::printf("  largest element count the pipeline accepts: %zu (%u tiles "
                "of %u)\n",
                kLargestAccepted, kTileElems, kTileElems);

    const ScanBuffers nowhere = {nullptr, nullptr, nullptr, nullptr, nullptr};
    const std::size_t refused =
        scanPipeline(Variant::BlellochPlain, nowhere, kLargestAccepted + 1);
    CHECK(cudaDeviceSynchronize());
    std::printf("  scanPipeline called with %zu elements: %s, %zu tile(s) "
                "would have had no offset\n",
                kLargestAccepted + 1,
                refused != 0 ? "refused before any launch" : "NOT refused",
                refused);
    if (refused != 1) {
        std::fprintf(stderr,
                     "the pipeline should refuse %zu elements with 1 tile "
                     "missing; it returned %zu\n",
                     kLargestAccepted + 1, refused);
        ++failures;
    }
    return failures;
}

// Registers per thread and resident blocks per SM of each tile kernel, as
// the runtime reports them for this device. Printed, never gated.
template <typename Kernel>
static void printOccupancy(const char* label, Kernel kernel,
                           std::size_t sharedBytes, int sms,
                           unsigned int tiles) {
    cudaFuncAttributes attr{};
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel,
                                                        kBlockThreads, 0));
    std::printf("  %-18s  %9d  %12zu  %13d  %15d  %5u\n", label,
                attr.numRegs, sharedBytes, perSm, perSm * sms, tiles);
}

static int runLesson() {
#if defined(BROKEN_BUILD)
    std::printf("DELIBERATELY BROKEN BUILD: a tile scan or the pipeline "
                "carries a bug, and the exact check must fail\n");
#endif
    int device = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    const cudaError_t propsRead = cudaGetDeviceProperties(&prop, device);
    CHECK(propsRead);
    std::printf("GPU: %s (compute capability %d.%d), %d SMs, warp size %d\n",
                prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                prop.warpSize);
    std::printf("max threads per block: %d, shared memory per block: %zu "
                "bytes\n",
                prop.maxThreadsPerBlock, prop.sharedMemPerBlock);
    const double l2Bytes = static_cast<double>(prop.l2CacheSize);
    std::printf("L2 cache: %d bytes (%.1f MB, %.1f MiB)\n", prop.l2CacheSize,
                megabytes(l2Bytes), mebibytes(l2Bytes));

    int failures = 0;
    if (prop.warpSize != static_cast<int>(kLanes)) {
        std::fprintf(stderr,
                     "this device has %d-lane warps; the conflict model "
                     "assumes %u\n",
                     prop.warpSize, kLanes);
        ++failures;
    }
    if (prop.maxThreadsPerBlock < static_cast<int>(kBlockThreads)) {
        std::fprintf(stderr, "this device cannot run %u-thread blocks\n",
                     kBlockThreads);
        return EXIT_FAILURE;
    }

    printModel();
    failures += exerciseRefusal();

    // Occupancy: how many tiles can be resident at once. A single kernel
    // with a grid-wide barrier between its phases (a cooperative launch)
    // would need every tile's block resident together.
    const unsigned int tileCount =
        static_cast<unsigned int>(tilesFor(kElements, kTileElems));
    std::printf("\nOccupancy of the tile kernels (%u threads per block)\n",
                kBlockThreads);
    std::printf("  %-18s  %9s  %12s  %13s  %15s  %5s\n", "kernel",
                "registers", "shared bytes", "blocks per SM",
                "resident blocks", "tiles");
    std::printf("  %-18s  %9s  %12s  %13s  %15s  %5s\n", "------------------",
                "---------", "------------", "-------------",
                "---------------", "-----");
    printOccupancy("hillis-steele", hillisSteeleTile, kHillisSteeleShared,
                   prop.multiProcessorCount, tileCount);
    printOccupancy("blelloch, plain", blellochTile<PlainLayout>, kFlatShared,
                   prop.multiProcessorCount, tileCount);
    printOccupancy("blelloch, padded", blellochTile<PaddedLayout>,
                   kPaddedShared, prop.multiProcessorCount, tileCount);

    // Working set. Launch 1 reads `in` and writes `out`; launch 3 reads and
    // writes `out` again. Launch 2 touches only the 2442 tile totals.
    const unsigned int tiles =
        static_cast<unsigned int>(tilesFor(kElements, kTileElems));
    const double bufferBytes = static_cast<double>(kElements * sizeof(float));
    const double copyBytes = 2.0 * bufferBytes;
    const double tileScanBytes = 2.0 * bufferBytes;
    const double pipelineBytes = 4.0 * bufferBytes;
    std::printf("\nInput and working set\n");
    std::printf("  %zu elements, %u tiles of %u, last tile %zu elements\n",
                kElements, tiles, kTileElems, kElements % kTileElems);
    std::vector<float> hostIn(kElements);
    std::size_t expectedTotal = 0;
    for (std::size_t i = 0; i < kElements; ++i) {
        hostIn[i] = inputAt(i);
        expectedTotal += static_cast<std::size_t>(hostIn[i]);
    }
    std::printf("  in[i] = 2.0f where the top two bits of a hash of i are "
                "set, else 1.0f; no period\n");
    std::printf("  total %zu, below 2^24 = %u: %s\n", expectedTotal,
                1u << 24, expectedTotal < (1u << 24) ? "yes" : "NO");
    if (expectedTotal >= (1u << 24)) {
        std::fprintf(stderr, "the input's total reaches 2^24, so the float "
                             "sums could round and == would be unfair\n");
        return EXIT_FAILURE;
    }
    std::printf("  one buffer: %.0f bytes (%.1f MB, %.1f MiB)\n", bufferBytes,
                megabytes(bufferBytes), mebibytes(bufferBytes));
    std::printf("  in + out: %.0f bytes (%.1f MB, %.1f MiB); L2 holds %.1f "
                "MB\n",
                copyBytes, megabytes(copyBytes), mebibytes(copyBytes),
                megabytes(l2Bytes));
    std::printf("  one buffer fits in L2: %s; in + out fit in L2: %s\n",
                bufferBytes <= l2Bytes ? "yes" : "no",
                copyBytes <= l2Bytes ? "yes" : "no");
    std::printf("  bytes moved per run: copy %.0f (%.1f MB), tile scan %.0f "
                "(%.1f MB), pipeline %.0f (%.1f MB)\n",
                copyBytes, megabytes(copyBytes), tileScanBytes,
                megabytes(tileScanBytes), pipelineBytes,
                megabytes(pipelineBytes));
    std::printf("  (the %u tile totals add %zu bytes per pass and are left "
                "out of those counts)\n",
                tiles, static_cast<std::size_t>(tiles) * sizeof(float));

    std::vector<float> want(kElements);
    exclusiveScanOnHost(hostIn, want);
    std::vector<float> got(kElements);

    DeviceArray<float> in(kElements);
    DeviceArray<float> out(kElements);
    DeviceArray<float> tileSums(tiles);
    DeviceArray<float> tileOffsets(tiles);
    DeviceArray<float> total(1);
    EventPair events;
    CHECK(cudaMemcpy(in.get(), hostIn.data(), in.bytes(),
                     cudaMemcpyHostToDevice));
    const ScanBuffers buffers = {in.get(), out.get(), tileSums.get(),
                                 tileOffsets.get(), total.get()};

    // --- Exactness, before any clock runs -------------------------------
    std::printf("\nExact check against the CPU (exclusive scan of all %zu "
                "elements), before timing\n",
                kElements);
    std::printf("  %-18s  %10s  %9s  %9s\n", "kernel", "mismatches",
                "first bad", "total");
    std::printf("  %-18s  %10s  %9s  %9s\n", "------------------",
                "----------", "---------", "---------");

    // The copy is checked too: its timing row only means something if it
    // really moved every element.
    // 0xFF bytes make every float a NaN, which equals nothing: an element a
    // kernel never stores fails the comparison instead of matching a zero.
    CHECK(cudaMemset(out.get(), 0xFF, out.bytes()));
    copyTiles<<<tiles, kBlockThreads>>>(in.get(), out.get(), kElements);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got.data(), out.get(), out.bytes(),
                     cudaMemcpyDeviceToHost));
    {
        const Comparison c = compareExactly(got, hostIn);
        char first[32] = "-";
        if (c.mismatches != 0) {
            std::snprintf(first, sizeof first, "%zu", c.first);
            reportMismatch("copy, no scan", c, got, hostIn);
            ++failures;
        }
        std::printf("  %-18s  %10zu  %9s  %9s\n", "copy, no scan",
                    c.mismatches, first, "-");
    }

    // Checks the pipeline's current output and total against the CPU.
    // Returns true when both are exact.
    auto checkPipelineOutput = [&](const VariantInfo& v, bool printRow) {
        CHECK(cudaMemcpy(got.data(), out.get(), out.bytes(),
                         cudaMemcpyDeviceToHost));
        float sum = 0.0f;
        CHECK(cudaMemcpy(&sum, total.get(), sizeof(float),
                         cudaMemcpyDeviceToHost));
        const Comparison c = compareExactly(got, want);
        const bool totalRight = sum == static_cast<float>(expectedTotal);
        if (printRow) {
            char first[32] = "-";
            if (c.mismatches != 0) {
                std::snprintf(first, sizeof first, "%zu", c.first);
            }
            std::printf("  %-18s  %10zu  %9s  %9.9g\n", v.label, c.mismatches,
                        first, static_cast<double>(sum));
        }
        if (c.mismatches != 0) {
            reportMismatch(v.label, c, got, want);
        }
        if (!totalRight) {
            std::fprintf(stderr, "%s: launch 2 reported a total of %.9g, "
                                 "want %zu\n",
                         v.label, static_cast<double>(sum), expectedTotal);
        }
        return c.mismatches == 0 && totalRight;
    };

    bool variantOk[kVariantCount] = {};
    for (int i = 0; i < kVariantCount; ++i) {
        const VariantInfo& v = kVariants[i];
        CHECK(cudaMemset(out.get(), 0xFF, out.bytes()));
        CHECK(cudaMemset(tileSums.get(), 0xFF, tileSums.bytes()));
        CHECK(cudaMemset(tileOffsets.get(), 0xFF, tileOffsets.bytes()));
        CHECK(cudaMemset(total.get(), 0xFF, total.bytes()));
        const std::size_t missing = scanPipeline(v.variant, buffers, kElements);
        if (missing != 0) {
            // Cannot happen for ten million (a static_assert says so), but
            // the branch is real: refuse loudly rather than time a scan
            // that is missing offsets.
            std::fprintf(stderr, "%s: refused %zu elements, %zu tiles would "
                                 "have no offset\n",
                         v.label, kElements, missing);
            ++failures;
            continue;
        }
        CHECK(cudaDeviceSynchronize());
        variantOk[i] = checkPipelineOutput(v, true);
        if (!variantOk[i]) {
            ++failures;
        }
    }

    // --- Timing ----------------------------------------------------------
    std::printf("\nTiming: CUDA events, 1 warm-up run then %d timed runs "
                "each, median reported\n",
                kTimedRuns);
    // The eviction buffer: four times L2, read before every sample.
    const std::size_t evictFloats =
        4 * static_cast<std::size_t>(prop.l2CacheSize) / sizeof(float);
    DeviceArray<float> evictBuf(evictFloats);
    DeviceArray<float> evictSink(1);
    CHECK(cudaMemset(evictBuf.get(), 0, evictBuf.bytes()));
    const unsigned int evictBlocks =
        4 * static_cast<unsigned int>(prop.multiProcessorCount);
    const auto evict = [&] {
        evictL2<<<evictBlocks, kBlockThreads>>>(evictBuf.get(), evictFloats,
                                                evictSink.get());
        CHECK_LAUNCH();
    };
    std::printf("  the measurements take turns (round r starts at a "
                "different one); before every sample a kernel\n"
                "  reads %zu bytes (%.0f x L2), so no sample starts with "
                "another's data in L2; a sample is one\n"
                "  launch sequence between two events, queued behind that "
                "read: GPU work, not an idle GPU's start-up\n",
                evictBuf.bytes(),
                static_cast<double>(evictBuf.bytes()) / l2Bytes);

    // Every measurement goes into one list and is timed interleaved with
    // the others. Index 0 is the copy, 1 the offset pass alone, then three
    // per timed variant: tile, sums, pipeline.
    std::vector<Measurement> plan;
    plan.push_back({[&] {
                        copyTiles<<<tiles, kBlockThreads>>>(in.get(), out.get(),
                                                            kElements);
                        CHECK_LAUNCH();
                    },
                    {}});
    // Launch 3 alone, on whatever `out` holds: only its time is wanted.
    plan.push_back({[&] {
                        addTileOffsets<<<tiles, kBlockThreads>>>(
                            tileOffsets.get(), out.get(), kElements);
                        CHECK_LAUNCH();
                    },
                    {}});
    std::size_t firstOf[kVariantCount] = {};
    bool timed[kVariantCount] = {};
    for (int i = 0; i < kVariantCount; ++i) {
        if (!variantOk[i]) {
            continue;  // a wrong scan is not timed
        }
        const Variant v = kVariants[i].variant;
        firstOf[i] = plan.size();
        plan.push_back({[&, v] {
                            launchTileScan(v, tiles, in.get(), out.get(),
                                           tileSums.get(), kElements);
                        },
                        {}});
        plan.push_back({[&, v] {
                            launchTileScan(v, 1, tileSums.get(),
                                           tileOffsets.get(), total.get(),
                                           tiles);
                        },
                        {}});
        plan.push_back({[&, v] { scanPipeline(v, buffers, kElements); }, {}});
        timed[i] = true;
    }
    timeInterleaved(events, evict, plan);

    const Timing copy = summarize(plan[0].ms);
    const Timing offsetsOnly = summarize(plan[1].ms);
    Timing tileTime[kVariantCount];
    Timing sumsTime[kVariantCount];
    Timing pipeTime[kVariantCount];
    for (int i = 0; i < kVariantCount; ++i) {
        if (!timed[i]) {
            continue;
        }
        const VariantInfo& v = kVariants[i];
        tileTime[i] = summarize(plan[firstOf[i]].ms);
        sumsTime[i] = summarize(plan[firstOf[i] + 1].ms);
        pipeTime[i] = summarize(plan[firstOf[i] + 2].ms);

        // Run the pipeline once more and check it again, so the numbers
        // above belong to a scan that was still right after being timed.
        scanPipeline(v.variant, buffers, kElements);
        CHECK(cudaDeviceSynchronize());
        if (!checkPipelineOutput(v, false)) {
            std::fprintf(stderr, "%s: wrong after its timed runs\n", v.label);
            ++failures;
        }
    }

    const double copyRate = gbPerSecond(copyBytes, copy.median);
    std::printf("\n  %-18s  %11s  %8s  %11s\n", "baseline", "median (ms)",
                "GB/s", "bytes moved");
    std::printf("  %-18s  %11s  %8s  %11s\n", "------------------",
                "-----------", "--------", "-----------");
    std::printf("  %-18s  %11.4f  %8.1f  %11.0f\n", "copy, no scan",
                static_cast<double>(copy.median), copyRate, copyBytes);
    std::printf("  %-18s  %11.4f  %8.1f  %11.0f\n", "offset pass alone",
                static_cast<double>(offsetsOnly.median),
                gbPerSecond(copyBytes, offsetsOnly.median), copyBytes);

    std::printf("\n  launch 1 alone (tile scan, %.0f bytes)\n", tileScanBytes);
    std::printf("  %-18s  %9s  %8s  %9s\n", "kernel", "tile (ms)", "GB/s",
                "% of copy");
    std::printf("  %-18s  %9s  %8s  %9s\n", "------------------",
                "---------", "--------", "---------");
    for (int i = 0; i < kVariantCount; ++i) {
        if (!timed[i]) {
            std::printf("  %-18s  not timed: failed the exact check\n",
                        kVariants[i].label);
            continue;
        }
        const double rate = gbPerSecond(tileScanBytes, tileTime[i].median);
        std::printf("  %-18s  %9.4f  %8.1f  %9.1f\n", kVariants[i].label,
                    static_cast<double>(tileTime[i].median), rate,
                    100.0 * rate / copyRate);
    }

    constexpr int plain = 1;  // the row the last column divides by
    static_assert(kVariants[plain].variant == Variant::BlellochPlain,
                  "the 'vs plain' column divides by the plain tree's row");
    std::printf("\n  whole pipeline (three launches, %.0f bytes)\n",
                pipelineBytes);
    std::printf("  %-18s  %9s  %13s  %8s  %9s  %8s\n", "kernel", "sums (ms)",
                "pipeline (ms)", "GB/s", "% of copy", "vs plain");
    std::printf("  %-18s  %9s  %13s  %8s  %9s  %8s\n", "------------------",
                "---------", "-------------", "--------", "---------",
                "--------");
    for (int i = 0; i < kVariantCount; ++i) {
        if (!timed[i]) {
            std::printf("  %-18s  not timed: failed the exact check\n",
                        kVariants[i].label);
            continue;
        }
        const double rate = gbPerSecond(pipelineBytes, pipeTime[i].median);
        char versus[16] = "-";
        if (timed[plain]) {
            std::snprintf(versus, sizeof versus, "%.2fx",
                          static_cast<double>(pipeTime[i].median) /
                              static_cast<double>(pipeTime[plain].median));
        }
        std::printf("  %-18s  %9.4f  %13.4f  %8.1f  %9.1f  %8s\n",
                    kVariants[i].label,
                    static_cast<double>(sumsTime[i].median),
                    static_cast<double>(pipeTime[i].median), rate,
                    100.0 * rate / copyRate, versus);
    }
    std::printf("  sums = launch 2 alone (one block, %u totals); the copy "
                "moves %.0f bytes and a pipeline %.0f,\n"
                "  so %% of copy compares rates, not times\n",
                tiles, copyBytes, pipelineBytes);

    std::printf("\n  spread over the %d timed runs (ms)\n", kTimedRuns);
    std::printf("  %-28s  %8s  %8s  %8s\n", "measurement", "best", "median",
                "worst");
    std::printf("  %-28s  %8s  %8s  %8s\n", "----------------------------",
                "--------", "--------", "--------");
    auto spreadRow = [](const char* what, const char* part, const Timing& t) {
        char name[64];
        std::snprintf(name, sizeof name, "%s%s", what, part);
        std::printf("  %-28s  %8.4f  %8.4f  %8.4f\n", name,
                    static_cast<double>(t.best), static_cast<double>(t.median),
                    static_cast<double>(t.worst));
    };
    spreadRow("copy, no scan", "", copy);
    spreadRow("offset pass alone", "", offsetsOnly);
    for (int i = 0; i < kVariantCount; ++i) {
        if (timed[i]) {
            spreadRow(kVariants[i].label, ", tile", tileTime[i]);
            spreadRow(kVariants[i].label, ", sums", sumsTime[i]);
            spreadRow(kVariants[i].label, ", pipeline", pipeTime[i]);
        }
    }

    if (failures != 0) {
        return EXIT_FAILURE;
    }
    std::printf("\nall three scans matched the CPU exactly, before and after "
                "timing\n");
    return EXIT_SUCCESS;
}

int main() {
    // Line-buffered stdout, so that when stdout and stderr are captured
    // together a failure message lands right after the row it explains.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);

    int status = EXIT_FAILURE;
    try {
        status = runLesson();
    } catch (const CudaFailure&) {
        // Reported where it happened; the owners have released everything.
        status = EXIT_FAILURE;
    }
    if (g_releaseFailures != 0) {
        status = EXIT_FAILURE;
    }
    if (status != EXIT_SUCCESS) {
        std::fprintf(stderr, "scan_2: a check failed (exit status %d)\n",
                     status);
    }
    return status;
}
