package io.kapi.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.etcd.jetcd.ByteSequence;

/**
 * Maps Kapi's keys onto etcd's, as kube-apiserver lays them out: Kapi's {@code /registry} is the etcd
 * prefix ({@code --etcd-prefix}, default {@code /registry}), so {@code /registry/pods/ns/p} is stored
 * at {@code <prefix>/pods/ns/p}. kube's own exceptions (e.g. {@code /registry/services/specs/}) are
 * already in Kapi's keys.
 *
 * <p>Progress fences: for a watched etcd prefix {@code E} (e.g. {@code /registry/pods/}), its fence
 * is {@code E} with the last character decremented and {@code ~kapi-progress} appended
 * ({@code /registry/pods.~kapi-progress}). It sorts just before {@code E}, so one etcd watch of
 * {@code [fence, end of E)} sees both; and it lies outside {@code E}, so kube-apiserver, which lists
 * {@code /registry/pods/}, never sees it. The few keys between the two (none that Kubernetes makes)
 * are dropped from the watch; fences are hidden from every range.
 */
final class KeyLayout {

    static final String KAPI_ROOT = "/registry";
    static final String FENCE_SUFFIX = "~kapi-progress";

    private final String root;

    /** @param prefix {@code --etcd-prefix}; a missing leading slash is added and a trailing one dropped */
    KeyLayout(String prefix) {
        String p = prefix.startsWith("/") ? prefix : "/" + prefix;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.equals("/")) {
            throw new IllegalArgumentException("--etcd-prefix must not be the root of the key space");
        }
        this.root = p;
    }

    /** The etcd key of a Kapi key. @throws IllegalArgumentException outside {@code /registry/} or reserved */
    String etcdKey(String kapiKey) {
        if (!kapiKey.startsWith(KAPI_ROOT + "/")) {
            throw new IllegalArgumentException("key outside " + KAPI_ROOT + "/: " + kapiKey);
        }
        if (isFence(kapiKey)) {
            throw new IllegalArgumentException("reserved key: " + kapiKey);
        }
        return root + kapiKey.substring(KAPI_ROOT.length());
    }

    /** The etcd prefix of a Kapi range or watch prefix; a prefix of {@code /registry/} means all. */
    String etcdPrefix(String kapiPrefix) {
        if ((KAPI_ROOT + "/").startsWith(kapiPrefix)) {
            return root + "/";
        }
        return etcdKey(kapiPrefix);
    }

    /** The Kapi key of an etcd key under the prefix. */
    String kapiKey(String etcdKey) {
        return KAPI_ROOT + etcdKey.substring(root.length());
    }

    /** The Kapi key of the etcd key in {@code bytes}. */
    String kapiKey(ByteSequence bytes) {
        return kapiKey(bytes.toString(UTF_8));
    }

    /** The key of health probes ({@code <prefix>/health}, as kube-apiserver's check reads). */
    String healthKey() {
        return root + "/health";
    }

    static String fenceOf(String etcdPrefix) {
        int last = etcdPrefix.length() - 1;
        return etcdPrefix.substring(0, last) + (char) (etcdPrefix.charAt(last) - 1) + FENCE_SUFFIX;
    }

    static boolean isFence(String key) {
        return key.endsWith(FENCE_SUFFIX);
    }

    /** The smallest key after every key starting with {@code prefix} (etcd's range end of a prefix). */
    static String prefixEnd(String prefix) {
        int last = prefix.length() - 1;
        return prefix.substring(0, last) + (char) (prefix.charAt(last) + 1);
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, UTF_8);
    }
}
