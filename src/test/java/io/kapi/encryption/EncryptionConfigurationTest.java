package io.kapi.encryption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("EncryptionConfiguration")
final class EncryptionConfigurationTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("kube's documented example reads: aescbc first, identity second")
    void documentedExample() throws IOException {
        var config = EncryptionConfiguration.read(Configs.write(dir, """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources:
                      - secrets
                      - configmaps
                      - pandas.awesome.bears.example
                    providers:
                      - aescbc:
                          keys:
                            - name: key1
                              secret: %s
                      - identity: {}
                """.formatted(Configs.KEY1)), false);
        assertEquals(1, config.rules().size());
        assertInstanceOf(ProviderConfig.AesCbc.class, config.rules().getFirst().providers().getFirst());
        assertInstanceOf(ProviderConfig.Identity.class, config.rules().getFirst().providers().get(1));
    }

    @Test
    @DisplayName("a key of the wrong length is refused in kube's words, the secret redacted")
    void keyLength() {
        assertEquals("resources[0].providers[0].aescbc.keys[0].secret: Invalid value: \"REDACTED\": secret is not of "
                + "the expected length, got 8, expected one of [16 24 32]", error(Configs.config("secrets",
                "- aescbc:\n    keys:\n      - name: k\n        secret: MTIzNDU2Nzg=")));
    }

    @Test
    @DisplayName("overlapping resources in one list, and '*' alone, are refused")
    void overlap() {
        assertEquals("resources[0].resources: Invalid value: []string{\"secrets\", \"*.\"}: using overlapping "
                + "resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be "
                + "masked", error(Configs.config("secrets, '*.'", "- identity: {}")));
        assertEquals("resources[0].resources[0]: Invalid value: \"*\": use '*.' to encrypt all the resources from "
                + "core API group or *.* to encrypt all resources", error(Configs.config("'*'", "- identity: {}")));
    }

    @Test
    @DisplayName("a resource after an earlier rule's *.group or *.* is masked, as kube refuses it")
    void masked() {
        assertEquals("resource \"deployments.apps\" is masked by earlier rule \"*.*\"", error("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: ['*.*']
                    providers: [{identity: {}}]
                  - resources: [deployments.apps]
                    providers: [{identity: {}}]
                """));
    }

    @Test
    @DisplayName("no providers, two providers in one entry, a KMS without unix socket: each reported")
    void providers() {
        assertEquals("resources[0].providers: Required value: at least one resources[0].providers is required",
                error(Configs.config("secrets", "[]")));
        assertEquals("resources[0].providers[0]: Invalid value: more than one provider specified in a single element, "
                + "should split into different list elements", error(Configs.config("secrets",
                "- identity: {}\n  aescbc: {keys: [{name: k, secret: " + Configs.KEY1 + "}]}")));
        assertEquals("resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://x\": unsupported scheme \"tcp\" "
                + "for KMS provider, only unix is supported", error(Configs.config("secrets",
                "- kms: {apiVersion: v2, name: k, endpoint: 'tcp://x'}")));
    }

    @Test
    @DisplayName("another kind or version is not an EncryptionConfiguration")
    void wrongKind() {
        String message = error("apiVersion: v1\nkind: ConfigMap\n");
        assertEquals(true, message.endsWith("no kind \"ConfigMap\" is registered for version \"v1\""), message);
    }

    private String error(String yaml) {
        return assertThrows(IllegalArgumentException.class,
                () -> EncryptionConfiguration.read(Configs.write(dir, yaml), false)).getMessage();
    }
}
