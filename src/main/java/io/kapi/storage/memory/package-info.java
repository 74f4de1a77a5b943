/** The in-memory storage backend (tests, benchmarks): an MVCC index of per-key versions plus an event log. */
package io.kapi.storage.memory;
