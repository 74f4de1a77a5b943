/**
 * The etcd3 storage backend, through jetcd, with kube-apiserver's data layout ({@code --etcd-prefix},
 * JSON values), compare-and-swap transactions, linearizable reads, watches with previous values that
 * resume by themselves, progress by fences (see {@link io.kapi.storage.etcd.ProgressFence}) and
 * kube-apiserver's compaction protocol.
 */
package io.kapi.storage.etcd;
