/**
 * The embedded durable storage backend on RocksDB: current values, a revision-ordered event log
 * (watch replay, reads at past revisions, pruned by compaction) and counters, written by one
 * group-committing writer thread with a synced WAL.
 */
package io.kapi.storage.rocksdb;
