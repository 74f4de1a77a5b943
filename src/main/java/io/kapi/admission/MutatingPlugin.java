package io.kapi.admission;

/** A plugin that may change the object before it is validated and stored. */
public interface MutatingPlugin extends AdmissionPlugin {

    /**
     * Changes {@code attributes.object()} in place, or refuses the request.
     *
     * @throws io.kapi.machinery.ApiException to refuse (worded as kube-apiserver's plugin words it)
     */
    void admit(Attributes attributes);
}
