package io.kapi.encryption;

import java.nio.file.Path;

/**
 * {@code --encryption-provider-config} and {@code --encryption-provider-config-automatic-reload}.
 *
 * @param configFile the EncryptionConfiguration, or null to keep values as they are encoded
 * @param automaticReload whether a changed file is picked up without a restart
 */
public record EncryptionOptions(Path configFile, boolean automaticReload) {

    public static final EncryptionOptions NONE = new EncryptionOptions(null, false);

    /**
     * Checks the file as the server will read it.
     *
     * @throws IllegalArgumentException with kube's words
     */
    public void validate() {
        if (configFile != null) {
            EncryptionConfiguration.read(configFile, automaticReload);
        } else if (automaticReload) {
            throw new IllegalArgumentException("--encryption-provider-config-automatic-reload must be set with "
                    + "--encryption-provider-config");
        }
    }
}
