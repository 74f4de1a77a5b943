/**
 * Internal machinery shared by the storage backends, written once: write preconditions
 * ({@link io.kapi.storage.core.Mutation}), watch fan-out with replay-then-live hand-over and bounded
 * per-watcher queues ({@link io.kapi.storage.core.WatchHub}), range paging
 * ({@link io.kapi.storage.core.PageBuilder}) and automatic compaction
 * ({@link io.kapi.storage.core.AutoCompactor}). Public only so that the backend packages can use
 * it; nothing outside {@code io.kapi.storage} should.
 */
package io.kapi.storage.core;
