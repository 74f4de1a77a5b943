package io.kapi.registry;

/** The object-level read contract, read through the watch cache. */
class CachedReadsTest extends ObjectReadsContract {

    @Override
    protected ResourceReads reads(WatchFixture fixture) {
        ResourceDefinition d = fixture.configmaps.definition();
        return new ResourceReads(d, fixture.storage, new ObjectCodec(d.storedKind()),
                fixture.registry.caches().register(d.keys().prefix(), null));
    }
}
