package io.kapi.storage.cache;

import io.kapi.storage.KeyValue;

/** Turns a stored key-value into the object the cache keeps; supplied per resource by the registry. */
@FunctionalInterface
public interface ObjectDecoder {

    CachedObject decode(KeyValue kv);
}
