package io.kapi.admission;

/** A plugin that accepts or refuses the validated object; it must not change it. */
public interface ValidatingPlugin extends AdmissionPlugin {

    /** @throws io.kapi.machinery.ApiException to refuse */
    void validate(Attributes attributes);
}
