package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("bucket bounds written as Go writes them")
final class GoBucketBoundsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"1.0,1", "0.005,0.005", "60.0,60", "1.25,1.25", "+Inf,+Inf", "1000.0,1000", "100000.0,100000",
        "1000000.0,1e+06", "1.0E7,1e+07", "1.0E10,1e+10", "5.0E-7,5e-07", "1.5E7,1.5e+07", "0.0001,0.0001", "0.0,0",
        "-2.5,-2.5", "1024.0,1024", "131072.0,131072"})
    void format(String java, String go) {
        assertEquals(go, GoBucketBounds.goFormat(java));
    }

    @Test
    @DisplayName("only le values change, in bucket lines, whatever the write boundaries")
    void lines() throws IOException {
        String in = "# HELP x_bucket le=\"1.0\" in help\nx_bucket{verb=\"GET\",le=\"1.0\"} 3.0\n"
                + "x_bucket{le=\"+Inf\"} 4\ny{label=\"le=\\\"2.0\\\"\"} 1\nz_bucket{module=\"m\",le=\"5.0\"} 1\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GoBucketBounds bounds = new GoBucketBounds(out);
        byte[] bytes = in.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += 7) {
            bounds.write(bytes, i, Math.min(7, bytes.length - i));
        }
        bounds.finish();
        assertEquals("# HELP x_bucket le=\"1.0\" in help\nx_bucket{verb=\"GET\",le=\"1\"} 3.0\n"
                + "x_bucket{le=\"+Inf\"} 4\ny{label=\"le=\\\"2.0\\\"\"} 1\nz_bucket{module=\"m\",le=\"5\"} 1\n",
                out.toString(StandardCharsets.UTF_8));
    }
}
