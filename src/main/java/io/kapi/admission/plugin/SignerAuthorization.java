package io.kapi.admission.plugin;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.util.function.Supplier;

/**
 * kube's {@code IsAuthorizedForSignerName}: whether the user may {@code verb} ({@code approve}, {@code sign})
 * on {@code signers} of certificates.k8s.io named the signer, or {@code <domain>/*} for its domain.
 */
public record SignerAuthorization(Supplier<Authorizer> authorizer) {

    public boolean allows(UserInfo user, Verb verb, String signerName) {
        if (allowed(user, verb, signerName)) {
            return true;
        }
        int slash = signerName.indexOf('/');
        return slash > 0 && allowed(user, verb, signerName.substring(0, slash) + "/*");
    }

    private boolean allowed(UserInfo user, Verb verb, String name) {
        AuthorizationAttributes attributes = new AuthorizationAttributes(user, verb, true, "certificates.k8s.io", "*",
                "signers", "", "", name, "");
        return authorizer.get().authorize(attributes) instanceof Decision.Allow;
    }
}
