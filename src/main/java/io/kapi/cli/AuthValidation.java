package io.kapi.cli;

import io.kapi.authn.AuthenticationConfig;
import io.kapi.authn.AuthenticationConfigFile;
import io.kapi.machinery.GoStrings;
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
        if (a.oidc() != null && a.authenticationConfigFile() != null) {
            errors.add("authentication-config file and oidc-* flags are mutually exclusive");
        } else if (a.oidc() != null) {
            if (empty(a.oidc().issuerUrl()) || empty(a.oidc().clientId())) {
                errors.add("oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set");
            } else if (!a.oidc().issuerUrl().startsWith("https://")) {
                errors.add("invalid authentication configuration: jwt[0].issuer.url: Invalid value: "
                        + GoStrings.quote(a.oidc().issuerUrl()) + ": URL scheme must be https");
            }
        }
        if (a.authenticationConfigFile() != null && Files.isReadable(a.authenticationConfigFile())) {
            errors.addAll(configFileProblems(o));
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

    /** The {@code --authentication-config} file's own problems, and its clash with {@code --anonymous-auth}. */
    private static List<String> configFileProblems(Options o) {
        AuthenticationConfig a = o.authentication();
        List<String> issuers = !a.serviceAccounts().issuers().isEmpty() ? a.serviceAccounts().issuers()
                : !o.serviceAccountIssuers().isEmpty() ? o.serviceAccountIssuers()
                : List.of(io.kapi.apis.subresources.ServiceAccountToken.DEFAULT_ISSUER);
        try {
            AuthenticationConfigFile file = AuthenticationConfigFile.read(a.authenticationConfigFile(), issuers);
            if (file.anonymous() != null && a.anonymous() != null) {
                return List.of("anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is "
                        + "configured in authentication configuration file");
            }
            return List.of();
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }
}
