package io.kapi.registry;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import java.util.List;
import java.util.logging.Logger;

/**
 * Moves objects that earlier Kapi releases kept under their plural to the keys kube-apiserver keeps them
 * under, once, when the server starts and before anything reads them: Endpoints to
 * {@code /registry/services/endpoints/}, ReplicationControllers to {@code /registry/controllers/}, CRDs and
 * APIServices under their group ({@code /registry/apiextensions.k8s.io/customresourcedefinitions/},
 * {@code /registry/apiregistration.k8s.io/apiservices/}). Each value is read back through its resource's
 * transformer with its old key and written with its new one, as a provider may take the key as
 * authenticated data. A move is create-then-delete, so a crash or a second replica starting at the same time
 * leaves at worst the old copy, which the next start removes; a key already moved is not overwritten.
 */
public final class LegacyKeys {

    /** One resource's old and new path segment under {@code /registry/}. */
    record Move(String group, String resource, String from, String to) {
    }

    static final List<Move> MOVES = List.of(
            new Move("", "endpoints", "endpoints", "services/endpoints"),
            new Move("", "replicationcontrollers", "replicationcontrollers", "controllers"),
            new Move("apiextensions.k8s.io", "customresourcedefinitions", "customresourcedefinitions",
                    "apiextensions.k8s.io/customresourcedefinitions"),
            new Move("apiregistration.k8s.io", "apiservices", "apiservices", "apiregistration.k8s.io/apiservices"));

    private static final Logger LOG = Logger.getLogger(LegacyKeys.class.getName());
    private static final String ROOT = "/registry/";
    private static final int PAGE = 500;

    private LegacyKeys() {
    }

    /**
     * Moves what {@code storage} holds under the old keys.
     *
     * @return how many objects were moved
     */
    public static int migrate(Storage storage, AtRest atRest) {
        int moved = 0;
        for (Move move : MOVES) {
            var transformer = atRest.transformers().apply(move.group(), move.resource());
            String from = ROOT + move.from() + "/";
            String to = ROOT + move.to() + "/";
            String start = null;
            while (true) {
                RangeResult page = storage.range(from, start, PAGE, 0);
                for (KeyValue kv : page.items()) {
                    String key = to + kv.key().substring(from.length());
                    byte[] plain = transformer.fromStorage(kv.value(), kv.key());
                    try {
                        storage.create(key, transformer.toStorage(plain, key));
                        moved++;
                    } catch (StorageException.KeyExists alreadyMoved) {
                        // a crash or another replica moved it: the old copy only has to go
                    }
                    try {
                        storage.delete(kv.key(), kv.modRevision());
                    } catch (StorageException.KeyNotFound | StorageException.Conflict goneOrChanged) {
                        // another replica deleted it first; a changed old copy is an older Kapi's write, left
                    }
                }
                if (!page.more() || page.items().isEmpty()) {
                    break;
                }
                start = page.items().getLast().key() + "\0";
            }
        }
        if (moved > 0) {
            LOG.info("moved " + moved + " objects to kube-apiserver's storage keys (endpoints, replication "
                    + "controllers, CRDs, APIServices)");
        }
        return moved;
    }
}
