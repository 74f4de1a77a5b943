package io.kapi.registry;

import io.kapi.admission.AdmissionChain;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.validation.SchemaValidator;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * What every REST store's write pipeline uses beside its resource and strategy.
 *
 * @param metadata the ObjectMeta rules every kind shares
 * @param schema decoding checks of written objects (types, unknown fields, required fields); null for none
 * @param fields field managers for {@code metadata.managedFields}; null to leave them alone
 * @param admission the server's admission chain (asked for on each write: it is built after the stores)
 * @param clock the time stamps of new and deleted objects
 * @param atRest the encoding and encryption of stored values
 */
public record StoreServices(MetadataValidation metadata, SchemaValidator schema, FieldManagers fields,
                            Supplier<AdmissionChain> admission, Clock clock, AtRest atRest) {

    /** Metadata rules only: no schema checks, no field tracking, no admission (store-level tests). */
    public static StoreServices minimal(MetadataValidation metadata, Clock clock) {
        return new StoreServices(metadata, null, null, () -> AdmissionChain.NONE, clock, AtRest.PLAIN);
    }

    /** These services, their admission chain asked of {@code admission}. */
    StoreServices withAdmission(Supplier<AdmissionChain> admission) {
        return new StoreServices(metadata, schema, fields, admission, clock, atRest);
    }
}
