package io.kapi.cli;

import io.kapi.server.authn.AuthenticationConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** kube-apiserver's checks of the authentication and authorization flags, with its wording where it has one. */
final class AuthValidation {

    private AuthValidation() {
    }

    static List<String> problems(Options o) {
        List<String> errors = new ArrayList<>();
        AuthenticationConfig a = o.authentication();
        List<Path> files = new ArrayList<>(a.serviceAccounts().keyFiles());
        files.add(a.basicAuthFile());
        files.add(a.serviceAccounts().signingKeyFile());
        files.add(a.authenticationConfigFile());
        files.add(a.webhookConfigFile());
        files.add(a.oidc() == null ? null : a.oidc().caFile());
        files.add(a.requestHeader() == null ? null : a.requestHeader().clientCaFile());
        files.add(o.authorization().policyFile());
        files.add(o.authorization().webhookConfigFile());
        files.add(o.authorization().configFile());
        for (Path file : files) {
            if (file != null && !Files.isReadable(file)) {
                errors.add("cannot read file " + file);
            }
        }
        if (a.oidc() != null) {
            if (a.oidc().issuerUrl() == null || a.oidc().issuerUrl().isEmpty()) {
                errors.add("oidc-issuer-url must be specified when other --oidc-* flags are set");
            } else if (!a.oidc().issuerUrl().startsWith("https://")) {
                errors.add("oidc-issuer-url: URL scheme must be https");
            }
            if (a.oidc().clientId() == null || a.oidc().clientId().isEmpty()) {
                errors.add("oidc-client-id must be specified when oidc-issuer-url is set");
            }
            if (a.authenticationConfigFile() != null) {
                errors.add("authentication-config file and oidc-* flags are mutually exclusive");
            }
        }
        List<String> modes = o.authorizationModes();
        if (o.authorization().configFile() != null) {
            if (!modes.equals(List.of("AlwaysAllow")) || o.authorization().webhookConfigFile() != null) {
                errors.add("--authorization-config can not be specified when --authorization-mode or "
                        + "--authorization-webhook-* flags are defined");
            } else if (Files.isReadable(o.authorization().configFile())) {
                try {
                    io.kapi.authz.AuthorizationConfiguration.read(o.authorization().configFile());
                } catch (IllegalArgumentException e) {
                    errors.add(e.getMessage());
                }
            }
            return errors;
        }
        if (modes.contains("ABAC") && o.authorization().policyFile() == null) {
            errors.add("authorization-mode ABAC's authorization policy file not passed");
        }
        if (!modes.contains("ABAC") && o.authorization().policyFile() != null) {
            errors.add("cannot specify --authorization-policy-file without mode ABAC");
        }
        if (modes.contains("Webhook") && o.authorization().webhookConfigFile() == null) {
            errors.add("authorization-mode Webhook's authorization config file not passed");
        }
        if (!modes.contains("Webhook") && o.authorization().webhookConfigFile() != null) {
            errors.add("cannot specify --authorization-webhook-config-file without mode Webhook");
        }
        return errors;
    }
}
