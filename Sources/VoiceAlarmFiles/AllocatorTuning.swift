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
/// give them back when freed.
package enum AllocatorTuning {
    /// Fixes the mapping and trimming thresholds at 256 KB (process-wide, from now on).
    package static func returnLargeBuffersPromptly() {
        clinux_fix_mmap_threshold(256 * 1024)
    }
}
