internal import CLinux

/// How glibc's allocator is asked to treat the large sample buffers of renders that run side
/// by side (a batch's jobs).
///
/// By default glibc maps an allocation of 128 KB or more on its own and unmaps it when freed,
/// but each such free raises that threshold to the freed block's size (up to 32 MB). After the
/// first few, a render's sample buffers come from the heap of the thread that asked — and each
/// of a render's threads (the worker, its encoder, its measuring pass) has a heap of its own,
/// which keeps what it freed for itself. In a batch of two jobs that was about a third of the
/// peak memory per job (`make bench`, row (f)). Fixed thresholds keep large buffers mapped and
/// give them back when freed; one heap for every thread keeps what the threads of one render
/// free (its chunks of 8,192 samples, under the threshold) for the next render, whichever
/// thread runs it, instead of in a heap per thread.
package enum AllocatorTuning {
    /// Fixes the mapping and trimming thresholds at 256 KB, and has every thread allocate from
    /// one heap (process-wide, from now on; call it before the threads start).
    ///
    /// Measured on `make bench`'s row (f), 200 playlists, 2 jobs, together with the smaller
    /// chunks and single copies of f258ac0: 11.1 → 9.5 MB per job over the idle process. The
    /// renders' allocations are a few per chunk, too few for the shared heap's lock to matter.
    package static func tuneForRendersSideBySide() {
        clinux_fix_mmap_threshold(256 * 1024)
        clinux_limit_arenas(1)
    }
}
