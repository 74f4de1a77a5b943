package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A rough micro-measure, not a benchmark: it guards against gross regressions and prints µs/op. */
class ValidationSpeedTest {

    private static final System.Logger LOG = System.getLogger(ValidationSpeedTest.class.getName());

    private static double microsPerOp(GroupVersionKind gvk, String body) {
        // a valid object is left unchanged by validation, so one instance serves every run
        ObjectNode obj = SchemaValidatorTest.json(body);
        int runs = 100_000;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                SchemaValidatorTest.VALIDATOR.validate(gvk, obj, FieldValidation.WARN, List.of());
                ObjectMetaValidator.validate(obj.path("metadata"), true, NameRule.DNS1123_SUBDOMAIN);
            }
            best = Math.min(best, (System.nanoTime() - start) / 1000.0 / runs);
        }
        return best;
    }

    @Test
    @DisplayName("validating a configmap and a deployment takes microseconds")
    void speed() {
        double cm = microsPerOp(SchemaValidatorTest.CM, "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x',"
                + "'namespace':'default','labels':{'app':'web'}},'data':{'a':'1','b':'2','c':'3'}}");
        double deploy = microsPerOp(SchemaValidatorTest.DEPLOY, SchemaValidatorTest.DEPLOYMENT.replace(
                "'name':'web',", "'name':'web','namespace':'default',"));
        LOG.log(System.Logger.Level.INFO, "validation: configmap {0} µs/op, deployment {1} µs/op",
                String.format("%.2f", cm), String.format("%.2f", deploy));
        System.out.printf("validation: configmap %.2f µs/op, deployment %.2f µs/op%n", cm, deploy);
        assertTrue(cm < 200 && deploy < 500, "validation far too slow: " + cm + " / " + deploy);
    }
}
