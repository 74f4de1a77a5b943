package io.kapi.registry;

/** The object-level read contract, read straight from storage. */
class DirectReadsTest extends ObjectReadsContract {

    @Override
    protected ResourceReads reads(WatchFixture fixture) {
        ResourceDefinition d = fixture.configmaps.definition();
        return new ResourceReads(d, fixture.storage, ObjectCodec.of(d, AtRest.PLAIN), null);
    }
}
